//! RSA_ALGORITHMS against ring's webpki algorithms: ring signs, we verify; we sign, ring
//! verifies; both judge the same keys and inputs alike; `provider` swaps exactly the RSA
//! entries.

use rsatool_rsa::RsaPrivateKey;
use rsatool_rsa::pkcs1::EncodeRsaPublicKey;
use rsatool_rsa::pkcs8::DecodePrivateKey;
use rsatool_rustls::{RSA_ALGORITHMS, RsaSigningKey};
use rustls::SignatureScheme;
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::{SignatureVerificationAlgorithm, alg_id};
use rustls::sign::SigningKey;

use crate::common::*;

type Alg = &'static dyn SignatureVerificationAlgorithm;

/// The first algorithm `algs` maps `scheme` to (as rustls uses for TLS 1.3).
fn mapped(algs: &WebPkiSupportedAlgorithms, scheme: SignatureScheme) -> Alg {
    algs.mapping.iter().find(|(s, _)| *s == scheme).unwrap().1[0]
}

fn private_key(name: &str) -> RsaPrivateKey {
    RsaPrivateKey::from_pkcs8_pem(&std::fs::read_to_string(path(name)).unwrap()).unwrap()
}

/// The key's RSAPublicKey DER: the subjectPublicKey of its SubjectPublicKeyInfo, what webpki
/// hands to a verification algorithm.
fn public_der(name: &str) -> Vec<u8> {
    private_key(name)
        .to_public_key()
        .to_pkcs1_der()
        .unwrap()
        .into_vec()
}

fn ring_sign(name: &str, scheme: SignatureScheme, msg: &[u8]) -> Vec<u8> {
    let key = ring_key(name);
    key.choose_scheme(&[scheme]).unwrap().sign(msg).unwrap()
}

fn ours_sign(name: &str, scheme: SignatureScheme, msg: &[u8]) -> Vec<u8> {
    let key = RsaSigningKey::new(private_key(name));
    key.choose_scheme(&[scheme]).unwrap().sign(msg).unwrap()
}

#[test]
fn public_keys_given_to_the_algorithms_are_ring_s() {
    // The DER these tests verify with is the subjectPublicKey of ring's SubjectPublicKeyInfo.
    use rsatool_rsa::pkcs8::der::Decode;
    use rsatool_rsa::pkcs8::spki::SubjectPublicKeyInfoRef;
    let ring_key = ring_key("server-2048.key.pem");
    let spki = ring_key.public_key().unwrap();
    let spki = SubjectPublicKeyInfoRef::from_der(spki.as_ref()).unwrap();
    assert_eq!(
        spki.subject_public_key.raw_bytes(),
        &public_der("server-2048.key.pem")[..]
    );
}

#[test]
fn ring_signatures_verify_and_altered_ones_do_not() {
    // ring signs with keys of up to 4096 bits.
    let msg = b"the transcript hash a handshake signs, or a certificate's TBS bytes";
    for name in [
        "server-2048.key.pem",
        "server-3072.key.pem",
        "server-4096.key.pem",
    ] {
        let public = public_der(name);
        let other = public_der("other.key.pem");
        for scheme in RSA_SCHEMES {
            let ours = mapped(&RSA_ALGORITHMS, scheme);
            let sig = ring_sign(name, scheme, msg);
            assert!(
                ours.verify_signature(&public, msg, &sig).is_ok(),
                "{name} {scheme:?}"
            );
            assert!(
                ours.verify_signature(&public, b"another message", &sig)
                    .is_err()
            );
            assert!(ours.verify_signature(&other, msg, &sig).is_err());
            assert!(ours.verify_signature(&public, msg, &sig[1..]).is_err());
            for at in [0, sig.len() >> 1, sig.len() - 1] {
                let mut bad = sig.clone();
                bad[at] ^= 0x80;
                assert!(
                    ours.verify_signature(&public, msg, &bad).is_err(),
                    "{scheme:?} byte {at}"
                );
            }
            // The signature under every other scheme's algorithm: refused.
            for wrong in RSA_SCHEMES.into_iter().filter(|&s| s != scheme) {
                let alg = mapped(&RSA_ALGORITHMS, wrong);
                assert!(
                    alg.verify_signature(&public, msg, &sig).is_err(),
                    "{scheme:?} as {wrong:?}"
                );
            }
        }
    }
}

#[test]
fn our_signatures_verify_under_ring() {
    let msg = b"a handshake transcript";
    let ring_algs = ring().signature_verification_algorithms;
    for name in [
        "server-2048.key.pem",
        "server-3072.key.pem",
        "server-4096.key.pem",
        "rsa-8192.key.pem",
    ] {
        let public = public_der(name);
        for scheme in RSA_SCHEMES {
            let sig = ours_sign(name, scheme, msg);
            assert!(
                mapped(&ring_algs, scheme)
                    .verify_signature(&public, msg, &sig)
                    .is_ok(),
                "{name} {scheme:?}"
            );
            assert!(
                mapped(&RSA_ALGORITHMS, scheme)
                    .verify_signature(&public, msg, &sig)
                    .is_ok()
            );
            // PKCS #1 v1.5 is deterministic (ring's signature is the same bytes); PSS salts
            // are random, so two signatures differ.
            let again = ours_sign(name, scheme, msg);
            match scheme {
                SignatureScheme::RSA_PKCS1_SHA256
                | SignatureScheme::RSA_PKCS1_SHA384
                | SignatureScheme::RSA_PKCS1_SHA512 => {
                    if name != "rsa-8192.key.pem" {
                        // (ring signs with keys of up to 4096 bits.)
                        assert_eq!(sig, ring_sign(name, scheme, msg));
                    }
                    assert_eq!(sig, again);
                }
                _ => assert_ne!(sig, again),
            }
        }
    }
}

#[test]
fn key_sizes_and_exponents_are_judged_as_ring_judges_them() {
    // Signatures made by this library with keys at and beyond webpki's bounds (moduli of 2048
    // to 8192 bits, e < 2^33): ring's verdict is ours. Each signature is valid under the
    // library's own verification, which has no such bounds, so a refusal is the bound's.
    let msg = b"bounds";
    let ring_algs = ring().signature_verification_algorithms;
    for (name, accepted) in [
        ("rsa-1024.key.pem", false),
        ("server-2048.key.pem", true),
        ("rsa-8192.key.pem", true),
        ("rsa-8200.key.pem", false),
        ("rsa-e-2pow33-minus-1.key.pem", true),
        ("rsa-e-2pow33-plus-1.key.pem", false),
    ] {
        let key = private_key(name);
        let public = public_der(name);
        for scheme in [
            SignatureScheme::RSA_PKCS1_SHA256,
            SignatureScheme::RSA_PSS_SHA256,
        ] {
            let sig = ours_sign(name, scheme, msg);
            let plain = match scheme {
                SignatureScheme::RSA_PSS_SHA256 => key.public_key().verify(
                    &rsatool_rsa::Pss::new(rsatool_rsa::HashAlg::Sha256),
                    msg,
                    &sig,
                ),
                _ => key.public_key().verify(
                    &rsatool_rsa::Pkcs1v15Sign::new(rsatool_rsa::HashAlg::Sha256),
                    msg,
                    &sig,
                ),
            };
            assert!(plain.is_ok(), "{name}");
            let ring_ok = mapped(&ring_algs, scheme)
                .verify_signature(&public, msg, &sig)
                .is_ok();
            let ours_ok = mapped(&RSA_ALGORITHMS, scheme)
                .verify_signature(&public, msg, &sig)
                .is_ok();
            assert_eq!(ring_ok, accepted, "ring, {name} {scheme:?}");
            assert_eq!(ours_ok, accepted, "ours, {name} {scheme:?}");
        }
    }
}

#[test]
fn a_2047_bit_modulus_is_below_the_bound() {
    // webpki's RSA algorithms are named 2048_8192 and AWS-LC counts bits: a 2047-bit modulus
    // is refused. (ring rounds the length up to whole bytes first and takes it.)
    let msg = b"bounds";
    let public = public_der("rsa-2047.key.pem");
    for scheme in [
        SignatureScheme::RSA_PKCS1_SHA256,
        SignatureScheme::RSA_PSS_SHA256,
    ] {
        let sig = ours_sign("rsa-2047.key.pem", scheme, msg);
        assert!(
            mapped(&RSA_ALGORITHMS, scheme)
                .verify_signature(&public, msg, &sig)
                .is_err()
        );
    }
}

#[test]
fn malformed_public_keys_are_refused_as_ring_refuses_them() {
    let msg = b"m";
    let public = public_der("server-2048.key.pem");
    let sig = ring_sign(
        "server-2048.key.pem",
        SignatureScheme::RSA_PKCS1_SHA256,
        msg,
    );
    let ours = mapped(&RSA_ALGORITHMS, SignatureScheme::RSA_PKCS1_SHA256);
    let ring_alg = mapped(
        &ring().signature_verification_algorithms,
        SignatureScheme::RSA_PKCS1_SHA256,
    );
    let mut inputs: Vec<Vec<u8>> = (0..public.len())
        .map(|len| public[..len].to_vec())
        .collect();
    let mut longer = public.clone();
    longer.push(0);
    inputs.push(longer);
    // The SubjectPublicKeyInfo where its subjectPublicKey belongs.
    inputs.push(
        private_key("server-2048.key.pem")
            .to_public_key()
            .to_pkcs1_der()
            .unwrap()
            .into_vec()
            .into_iter()
            .rev()
            .collect(),
    );
    for (i, input) in inputs.iter().enumerate() {
        assert!(
            ring_alg.verify_signature(input, msg, &sig).is_err(),
            "ring, input {i}"
        );
        assert!(
            ours.verify_signature(input, msg, &sig).is_err(),
            "ours, input {i}"
        );
    }
}

#[test]
fn rsa_algorithms_have_webpki_s_identifiers_and_schemes() {
    // ring's RSA entries (webpki's `RSA_PKCS1_2048_8192_*`, their `_ABSENT_PARAMS` twins and
    // `RSA_PSS_2048_8192_*_LEGACY_KEY`): the same pairs of key and signature identifiers,
    // and the same RSA schemes in the same order.
    let ring_algs = ring().signature_verification_algorithms;
    let ids = |algs: &[Alg]| {
        let mut v: Vec<_> = algs
            .iter()
            .filter(|a| a.public_key_alg_id() == alg_id::RSA_ENCRYPTION)
            .map(|a| {
                (
                    a.public_key_alg_id().as_ref().to_vec(),
                    a.signature_alg_id().as_ref().to_vec(),
                )
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(ids(RSA_ALGORITHMS.all), ids(ring_algs.all));
    assert_eq!(ids(RSA_ALGORITHMS.all).len(), RSA_ALGORITHMS.all.len());
    let ring_rsa: Vec<_> = ring_algs
        .supported_schemes()
        .into_iter()
        .filter(|s| RSA_SCHEMES.contains(s))
        .collect();
    assert_eq!(RSA_ALGORITHMS.supported_schemes(), ring_rsa);
    // Each mapped algorithm has its scheme's signature identifier, as ring's.
    for scheme in RSA_SCHEMES {
        assert_eq!(
            mapped(&RSA_ALGORITHMS, scheme).signature_alg_id(),
            mapped(&ring_algs, scheme).signature_alg_id()
        );
    }
}

#[test]
fn absent_parameter_identifiers_verify_pkcs1_signatures() {
    // RFC 4055 §5: a verifier takes sha256WithRSAEncryption and company with absent as well as
    // NULL parameters. Our `all` entries for each identifier verify what ring's for the same
    // identifier verify.
    let msg = b"TBSCertificate";
    let public = public_der("server-2048.key.pem");
    let ring_algs = ring().signature_verification_algorithms;
    for scheme in [
        SignatureScheme::RSA_PKCS1_SHA256,
        SignatureScheme::RSA_PKCS1_SHA384,
        SignatureScheme::RSA_PKCS1_SHA512,
    ] {
        let sig = ring_sign("server-2048.key.pem", scheme, msg);
        for ring_alg in ring_algs
            .all
            .iter()
            .filter(|a| a.public_key_alg_id() == alg_id::RSA_ENCRYPTION)
        {
            let ours = RSA_ALGORITHMS
                .all
                .iter()
                .find(|a| a.signature_alg_id() == ring_alg.signature_alg_id())
                .unwrap();
            assert_eq!(
                ours.verify_signature(&public, msg, &sig).is_ok(),
                ring_alg.verify_signature(&public, msg, &sig).is_ok(),
                "{ring_alg:?}"
            );
        }
    }
}

#[test]
fn provider_replaces_ring_rsa_entries_with_ours() {
    let base = ring().signature_verification_algorithms;
    let merged = ours().signature_verification_algorithms;
    let same =
        |a: Alg, b: Alg| std::ptr::addr_eq(a as *const dyn SignatureVerificationAlgorithm, b);
    let is_ours = |a: Alg| RSA_ALGORITHMS.all.iter().any(|&o| same(a, o));
    let is_rsa = |a: &Alg| a.public_key_alg_id() == alg_id::RSA_ENCRYPTION;

    // `all`: ring's other algorithms in their order, and every RSA one is ours, all of ours.
    let kept: Vec<Alg> = merged.all.iter().copied().filter(|a| !is_rsa(a)).collect();
    let want: Vec<Alg> = base.all.iter().copied().filter(|a| !is_rsa(a)).collect();
    assert_eq!(kept.len(), want.len());
    assert!(kept.iter().zip(&want).all(|(&a, &b)| same(a, b)));
    let rsa: Vec<Alg> = merged.all.iter().copied().filter(is_rsa).collect();
    assert!(rsa.iter().all(|&a| is_ours(a)));
    assert_eq!(rsa.len(), RSA_ALGORITHMS.all.len());

    // `mapping`: ring's schemes in ring's order; RSA ones map to ours, the others to ring's.
    assert_eq!(merged.supported_schemes(), base.supported_schemes());
    for (&(scheme, algs), &(_, base_algs)) in merged.mapping.iter().zip(base.mapping) {
        if RSA_SCHEMES.contains(&scheme) {
            assert!(algs.iter().all(|&a| is_ours(a)), "{scheme:?}");
        } else {
            assert!(
                algs.len() == base_algs.len()
                    && algs.iter().zip(base_algs).all(|(&a, &b)| same(a, b))
            );
        }
    }
}
