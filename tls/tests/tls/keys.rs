//! Keys as rustls hands them to the key provider: which load, which go to the fallback, which
//! are errors; the signing key's scheme choice against ring's.

use std::sync::{Arc, Mutex};

use rsatool_rsa::pkcs8::DecodePrivateKey;
use rsatool_rustls::{RSA_ALGORITHMS, RsaKeyProvider, RsaSigningKey};
use rustls::crypto::KeyProvider;
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs1KeyDer, PrivatePkcs8KeyDer, PrivateSec1KeyDer};
use rustls::sign::SigningKey;
use rustls::{SignatureAlgorithm, SignatureScheme};

use crate::common::*;

/// A fallback that records the encodings it is handed and loads nothing.
#[derive(Debug, Default)]
struct RecordingFallback(Mutex<Vec<&'static str>>);

impl KeyProvider for RecordingFallback {
    fn load_private_key(
        &self,
        key_der: PrivateKeyDer<'static>,
    ) -> Result<Arc<dyn SigningKey>, rustls::Error> {
        let what = match key_der {
            PrivateKeyDer::Pkcs1(_) => "pkcs1",
            PrivateKeyDer::Sec1(_) => "sec1",
            PrivateKeyDer::Pkcs8(_) => "pkcs8",
            _ => "other",
        };
        self.0.lock().unwrap().push(what);
        Err(rustls::Error::General(
            "the recording fallback loads nothing".into(),
        ))
    }
}

fn der_of(key: &PrivateKeyDer<'_>) -> Vec<u8> {
    key.secret_der().to_vec()
}

fn load(
    provider: &dyn KeyProvider,
    key: PrivateKeyDer<'static>,
) -> Result<Arc<dyn SigningKey>, rustls::Error> {
    provider.load_private_key(key)
}

#[test]
fn pkcs1_and_pkcs8_rsa_keys_load_with_ring_s_public_key() {
    // The SubjectPublicKeyInfo our key reports is byte for byte ring's for the same key (and,
    // through rustls's key check in the handshake tests, the certificate's).
    let ring_key = ring_key("server-2048.key.pem");
    for name in ["server-2048.key.pem", "server-2048.pkcs1.pem"] {
        let ours = load(&RsaKeyProvider::new(), key(name)).unwrap();
        assert_eq!(
            ours.public_key().unwrap(),
            ring_key.public_key().unwrap(),
            "{name}"
        );
        assert_eq!(ours.algorithm(), SignatureAlgorithm::RSA);
    }
}

#[test]
fn choose_scheme_picks_what_ring_picks_for_every_offer() {
    // Every subset of the six RSA schemes, offered in rustls's order and reversed, each with
    // and without non-RSA schemes beside them: our key chooses as ring's RSA key does.
    let ours = load(&RsaKeyProvider::new(), key("server-2048.key.pem")).unwrap();
    let ring_key = ring_key("server-2048.key.pem");
    let others = [
        SignatureScheme::ECDSA_NISTP256_SHA256,
        SignatureScheme::ED25519,
    ];
    let mut compared = 0;
    for mask in 0u32..64 {
        let subset: Vec<_> = (0..6)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| RSA_SCHEMES[i])
            .collect();
        let mut reversed = subset.clone();
        reversed.reverse();
        let mut mixed = others.to_vec();
        mixed.extend(&reversed);
        for offered in [subset, reversed, mixed] {
            let want = ring_key.choose_scheme(&offered).map(|s| s.scheme());
            let got = ours.choose_scheme(&offered).map(|s| s.scheme());
            assert_eq!(got, want, "offered {offered:?}");
            compared += 1;
        }
    }
    assert_eq!(compared, 192);
}

#[test]
fn pss_schemes_too_long_for_a_small_key_are_not_chosen() {
    // PSS with a salt of the hash's length needs emLen ≥ 2·hLen + 2 (RFC 8017 §9.1.1): a
    // 1024-bit key (emLen 128) cannot sign PSS with SHA-512 (130) but can with SHA-384 (98).
    let der = std::fs::read_to_string(path("rsa-1024.key.pem")).unwrap();
    let key = RsaSigningKey::new(rsatool_rsa::RsaPrivateKey::from_pkcs8_pem(&der).unwrap());
    assert!(
        key.choose_scheme(&[SignatureScheme::RSA_PSS_SHA512])
            .is_none()
    );
    let offered = [
        SignatureScheme::RSA_PSS_SHA512,
        SignatureScheme::RSA_PSS_SHA384,
    ];
    let signer = key.choose_scheme(&offered).unwrap();
    assert_eq!(signer.scheme(), SignatureScheme::RSA_PSS_SHA384);
    assert_eq!(signer.sign(b"message").unwrap().len(), 128);
}

#[test]
fn keys_that_are_not_rsa_go_to_the_fallback() {
    let fallback: &'static RecordingFallback = Box::leak(Box::default());
    let provider = RsaKeyProvider::new().with_fallback(fallback);
    for name in ["ec.sec1.pem", "ec.key.pem", "rsa-pss.key.pem"] {
        assert!(load(&provider, key(name)).is_err());
    }
    // PKCS #8 that does not parse: ours cannot tell what it is, the fallback may.
    assert!(
        load(
            &provider,
            PrivatePkcs8KeyDer::from(vec![0x30, 0x03, 0x02, 0x01, 0x00]).into()
        )
        .is_err()
    );
    assert_eq!(
        *fallback.0.lock().unwrap(),
        ["sec1", "pkcs8", "pkcs8", "pkcs8"]
    );

    // RSA keys never reach it, valid or not.
    assert!(load(&provider, key("server-2048.key.pem")).is_ok());
    assert!(load(&provider, key("server-2048.pkcs1.pem")).is_ok());
    let mut bad = der_of(&key("server-2048.pkcs1.pem"));
    bad.truncate(100);
    assert!(load(&provider, PrivatePkcs1KeyDer::from(bad).into()).is_err());
    assert_eq!(fallback.0.lock().unwrap().len(), 4);
}

#[test]
fn keys_that_are_not_rsa_without_a_fallback_are_errors_naming_them() {
    let provider = RsaKeyProvider::new();
    for (name, says) in [
        ("ec.sec1.pem", "SEC1 EC private key"),
        ("ec.key.pem", "1.2.840.10045.2.1 (id-ecPublicKey)"),
        ("rsa-pss.key.pem", "1.2.840.113549.1.1.10 (id-RSASSA-PSS"),
    ] {
        match load(&provider, key(name)) {
            Err(rustls::Error::General(msg)) => {
                assert!(
                    msg.contains(says) && msg.contains("no fallback"),
                    "{name}: {msg}"
                )
            }
            other => panic!("{name}: {:?}", other.map(|_| ())),
        }
    }
    // With ring as the fallback, ring's refusal of the RSA-PSS key says what it was too.
    let with_ring = RsaKeyProvider::new().with_fallback(ring().key_provider);
    match load(&with_ring, key("rsa-pss.key.pem")) {
        Err(rustls::Error::General(msg)) => assert!(msg.contains("id-RSASSA-PSS"), "{msg}"),
        other => panic!("{:?}", other.map(|_| ())),
    }
    let garbage = PrivateSec1KeyDer::from(vec![0x30, 0x00]);
    assert!(load(&provider, garbage.into()).is_err());
}

#[test]
fn malformed_and_truncated_rsa_keys_are_errors() {
    // Every truncation of both encodings, and a flipped bit in every 5th byte (a length, a
    // tag, an integer of the key, which the key's validation then refuses): an error each time,
    // never a panic, with or without a fallback.
    let ring_fallback = RsaKeyProvider::new().with_fallback(ring().key_provider);
    let pkcs1 = der_of(&key("server-2048.pkcs1.pem"));
    let pkcs8 = der_of(&key("server-2048.key.pem"));
    let as_pkcs1 = |b: Vec<u8>| PrivateKeyDer::from(PrivatePkcs1KeyDer::from(b));
    let as_pkcs8 = |b: Vec<u8>| PrivateKeyDer::from(PrivatePkcs8KeyDer::from(b));
    for (der, wrap) in [
        (
            &pkcs1,
            &as_pkcs1 as &dyn Fn(Vec<u8>) -> PrivateKeyDer<'static>,
        ),
        (&pkcs8, &as_pkcs8),
    ] {
        assert!(load(&RsaKeyProvider::new(), wrap(der.clone())).is_ok());
        for len in 0..der.len() {
            for provider in [&RsaKeyProvider::new(), &ring_fallback] {
                assert!(
                    load(provider, wrap(der[..len].to_vec())).is_err(),
                    "truncated to {len}"
                );
            }
        }
        for at in (0..der.len()).step_by(5) {
            let mut flipped = der.clone();
            flipped[at] ^= 0x01;
            assert!(
                load(&RsaKeyProvider::new(), wrap(flipped)).is_err(),
                "bit 0 of byte {at} flipped"
            );
        }
        let mut longer = der.clone();
        longer.push(0);
        assert!(
            load(&RsaKeyProvider::new(), wrap(longer)).is_err(),
            "trailing byte"
        );
    }
    // Each form given as the other.
    assert!(load(&RsaKeyProvider::new(), as_pkcs1(pkcs8.clone())).is_err());
    match load(&RsaKeyProvider::new(), as_pkcs8(pkcs1.clone())) {
        Err(rustls::Error::General(msg)) => assert!(msg.contains("not a PrivateKeyInfo"), "{msg}"),
        other => panic!("{:?}", other.map(|_| ())),
    }
}

#[test]
fn debug_prints_no_secret() {
    let text = std::fs::read_to_string(path("server-2048.key.pem")).unwrap();
    let parts = rsatool_rsa::RsaPrivateKey::from_pkcs8_pem(&text)
        .unwrap()
        .to_parts();
    let provider = RsaKeyProvider::new().coalescing();
    let plain = load(&RsaKeyProvider::new(), key("server-2048.key.pem")).unwrap();
    let key = load(&provider, key("server-2048.key.pem")).unwrap();
    let signer = key
        .choose_scheme(&[SignatureScheme::RSA_PSS_SHA256])
        .unwrap();
    let printed = [
        format!("{provider:?}"),
        format!(
            "{:?}",
            RsaKeyProvider::new().with_fallback(ring().key_provider)
        ),
        format!("{key:?}"),
        format!("{signer:?}"),
        format!("{plain:?}"),
        format!("{:?}", RSA_ALGORITHMS),
    ];
    assert_eq!(
        printed[0],
        "RsaKeyProvider { coalescing: true, fallback: None }"
    );
    assert_eq!(
        printed[2],
        "RsaSigningKey { bits: 2048, coalescing: true, .. }"
    );
    assert_eq!(printed[3], "RsaSigner { scheme: RSA_PSS_SHA256, .. }");
    assert_eq!(
        printed[4],
        "RsaSigningKey { bits: 2048, coalescing: false, .. }"
    );
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    for secret in [&parts.d, &parts.primes[0], &parts.primes[1]] {
        let secret: &[u8] = secret;
        // The first 6 bytes, in hex either case, and as decimal digits of any run of 12.
        let lower = hex(&secret[..6]);
        for p in &printed {
            assert!(
                !p.contains(&lower) && !p.contains(&lower.to_uppercase()),
                "{p}"
            );
            assert!(
                !p.as_bytes()
                    .windows(12)
                    .any(|w| w.iter().all(u8::is_ascii_digit)),
                "{p}"
            );
        }
    }
}
