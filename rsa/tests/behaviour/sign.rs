//! PKCS #1 v1.5 and PSS signatures: round trips for every hash, scheme and salt mode at 1024
//! and 2048 bits, with s^e mod n checked by num-bigint against an encoding built here by hand
//! (PKCS #1 v1.5: the DigestInfo DER assembled from the hash's OID arcs) or against its fixed
//! bytes (PSS); tampering, wrong lengths, s ≥ n, the prehashed API, wrong digest lengths,
//! MGF1 with another hash, the salt modes, and keys too small for the encoding.
// Test code on public test data.
#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::integer_division_remainder_used
)]

use crate::common;

use common::{big, key_1024, key_2048, keys, padded, parts_from_primes, rng};
use num_bigint::BigUint;
use rsatool_rsa::{
    Error, HashAlg, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey, SaltLen, SignatureScheme,
};

/// s^e mod n with num-bigint, as k bytes.
fn open(key: &RsaPublicKey, sig: &[u8]) -> Vec<u8> {
    let parts = key.to_parts();
    padded(&big(sig).modpow(&big(&parts.e), &big(&parts.n)), key.size())
}

/// The last arc of the hash's OID under 2.16.840.1.101.3.4.2 (NIST hash algorithms), or None
/// for SHA-1 (1.3.14.3.2.26).
fn nist_hash_arc(h: HashAlg) -> Option<u8> {
    match h {
        HashAlg::Sha1 => None,
        HashAlg::Sha256 => Some(1),
        HashAlg::Sha384 => Some(2),
        HashAlg::Sha512 => Some(3),
        HashAlg::Sha224 => Some(4),
        HashAlg::Sha512_224 => Some(5),
        HashAlg::Sha512_256 => Some(6),
        HashAlg::Sha3_224 => Some(7),
        HashAlg::Sha3_256 => Some(8),
        HashAlg::Sha3_384 => Some(9),
        HashAlg::Sha3_512 => Some(10),
        HashAlg::Shake128 | HashAlg::Shake256 => unreachable!("no PKCS #1 v1.5 DigestInfo"),
    }
}

/// DER of DigestInfo { AlgorithmIdentifier { oid, NULL }, OCTET STRING digest }, built from
/// the OID arcs (RFC 8017 §9.2 / Appendix A.2.4).
fn digest_info(h: HashAlg, digest: &[u8]) -> Vec<u8> {
    fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
        assert!(body.len() < 128);
        let mut v = vec![tag, body.len() as u8];
        v.extend_from_slice(body);
        v
    }
    // Base-128 arcs: 2.16 → 40·2 + 16 = 96; 840 → 0x86 0x48; 1.3 → 43; 14; 3; 2; 26.
    let oid: Vec<u8> = match nist_hash_arc(h) {
        None => vec![43, 14, 3, 2, 26],
        Some(a) => vec![96, 0x86, 0x48, 1, 101, 3, 4, 2, a],
    };
    let alg_id = tlv(0x30, &[tlv(0x06, &oid), tlv(0x05, &[])].concat());
    tlv(0x30, &[alg_id, tlv(0x04, digest)].concat())
}

/// EMSA-PKCS1-v1_5 by hand: 00 01 ff…ff 00 ‖ DigestInfo, k bytes.
fn pkcs1v15_em(h: HashAlg, msg: &[u8], k: usize) -> Vec<u8> {
    let t = digest_info(h, &h.digest(msg));
    let mut em = vec![0x00, 0x01];
    em.resize(k - t.len() - 1, 0xff);
    em.push(0x00);
    em.extend(t);
    em
}

fn pss_modes() -> Vec<SaltLen> {
    vec![
        SaltLen::HashLen,
        SaltLen::Exact(0),
        SaltLen::Exact(7),
        SaltLen::Max,
        SaltLen::Auto,
    ]
}

#[test]
fn pkcs1v15_round_trips_every_hash_and_matches_a_hand_built_encoding() {
    let mut r = rng(1);
    for key in keys() {
        let public = key.public_key();
        for h in HashAlg::ALL {
            let scheme = Pkcs1v15Sign::new(h);
            let msg = format!("message for {h} at {} bits", key.bits());
            let sig = key.sign(&mut r, &scheme, msg.as_bytes()).unwrap();
            assert_eq!(sig.len(), key.size());
            assert_eq!(
                open(public, &sig),
                pkcs1v15_em(h, msg.as_bytes(), key.size()),
                "{h}"
            );
            public.verify(&scheme, msg.as_bytes(), &sig).unwrap();
            // Deterministic: the same signature again, and through the prehashed API.
            assert_eq!(key.sign(&mut r, &scheme, msg.as_bytes()).unwrap(), sig);
            let digest = h.digest(msg.as_bytes());
            assert_eq!(key.sign_prehashed(&mut r, &scheme, &digest).unwrap(), sig);
            public.verify_prehashed(&scheme, &digest, &sig).unwrap();
            // Another hash's scheme does not accept it.
            for other in HashAlg::ALL.into_iter().filter(|&o| o != h) {
                assert_eq!(
                    public.verify(&Pkcs1v15Sign::new(other), msg.as_bytes(), &sig),
                    Err(Error::Verification),
                    "{h} vs {other}"
                );
            }
        }
    }
}

/// Checks the fixed parts of a PSS encoding with num-bigint: s^e mod n < 2^(modBits − 1)
/// (the top bits cleared) and ends in 0xbc.
fn check_pss_shape(public: &RsaPublicKey, sig: &[u8]) {
    let m = big(&open(public, sig));
    assert!(m < BigUint::from(1u8) << (public.bits() - 1));
    assert_eq!(m.to_bytes_be().last(), Some(&0xbc));
}

/// emLen = ⌈(modBits − 1)/8⌉.
fn em_len(key: &RsaPrivateKey) -> usize {
    (key.bits() - 1).div_ceil(8)
}

/// Whether PSS with `h` and `mode` fits the key (emLen ≥ hLen + sLen + 2, RFC 8017 §9.1.1
/// step 3); if not, signing must say `MessageTooLong`.
fn pss_fits(
    key: &RsaPrivateKey,
    h: HashAlg,
    mode: SaltLen,
    r: &mut rand_chacha::ChaCha20Rng,
) -> bool {
    let s_len = match mode {
        SaltLen::HashLen => h.output_len(),
        SaltLen::Exact(s) | SaltLen::AtLeast(s) => s,
        SaltLen::Max | SaltLen::Auto => 0,
    };
    let fits = em_len(key) >= h.output_len() + s_len + 2;
    if !fits {
        let scheme = Pss::new(h).with_salt_len(mode);
        assert_eq!(key.sign(r, &scheme, b"m"), Err(Error::MessageTooLong));
    }
    fits
}

#[test]
fn pss_round_trips_every_hash_and_salt_mode() {
    let mut r = rng(2);
    for key in keys() {
        let public = key.public_key();
        for h in HashAlg::ALL {
            for mode in pss_modes() {
                if !pss_fits(key, h, mode, &mut r) {
                    // SHA-512 with a 64-byte salt does not fit 1024 bits.
                    assert!(key.bits() == 1024 && h == HashAlg::Sha512);
                    continue;
                }
                let scheme = Pss::new(h).with_salt_len(mode);
                let msg = format!("{h} {mode:?} {}", key.bits());
                let sig = key.sign(&mut r, &scheme, msg.as_bytes()).unwrap();
                assert_eq!(sig.len(), key.size());
                check_pss_shape(public, &sig);
                public.verify(&scheme, msg.as_bytes(), &sig).unwrap();
                // Auto recovers any salt length; Auto signs with the maximum.
                let auto = Pss::new(h).with_salt_len(SaltLen::Auto);
                public.verify(&auto, msg.as_bytes(), &sig).unwrap();
                if mode == SaltLen::Auto {
                    let max = Pss::new(h).with_salt_len(SaltLen::Max);
                    public.verify(&max, msg.as_bytes(), &sig).unwrap();
                }
                // Randomised: a second signature differs unless the salt is empty.
                let again = key.sign(&mut r, &scheme, msg.as_bytes()).unwrap();
                assert_eq!(again == sig, mode == SaltLen::Exact(0), "{h} {mode:?}");
                // The prehashed API is the same scheme.
                let digest = h.digest(msg.as_bytes());
                public.verify_prehashed(&scheme, &digest, &sig).unwrap();
                let pre = key.sign_prehashed(&mut r, &scheme, &digest).unwrap();
                public.verify(&scheme, msg.as_bytes(), &pre).unwrap();
                // PKCS #1 v1.5 does not accept a PSS signature.
                assert_eq!(
                    public.verify(&Pkcs1v15Sign::new(h), msg.as_bytes(), &sig),
                    Err(Error::Verification)
                );
            }
        }
    }
}

#[test]
fn pss_verification_checks_the_configured_salt_length() {
    let key = key_2048();
    let public = key.public_key();
    let mut r = rng(3);
    let h = HashAlg::Sha256;
    let msg = b"salt lengths";
    let k_max = em_len(key) - 32 - 2;
    assert_eq!(k_max, 222);
    let sig_for =
        |mode: SaltLen, r: &mut _| key.sign(r, &Pss::new(h).with_salt_len(mode), msg).unwrap();
    let verifies = |mode: SaltLen, sig: &[u8]| {
        public
            .verify(&Pss::new(h).with_salt_len(mode), msg, sig)
            .is_ok()
    };
    let s20 = sig_for(SaltLen::Exact(20), &mut r);
    assert!(verifies(SaltLen::Exact(20), &s20));
    assert!(verifies(SaltLen::Auto, &s20));
    for wrong in [
        SaltLen::Exact(19),
        SaltLen::Exact(21),
        SaltLen::Exact(0),
        SaltLen::HashLen,
        SaltLen::Max,
    ] {
        assert!(!verifies(wrong, &s20), "{wrong:?}");
    }
    let smax = sig_for(SaltLen::Max, &mut r);
    assert!(verifies(SaltLen::Max, &smax));
    assert!(verifies(SaltLen::Exact(k_max), &smax));
    assert!(verifies(SaltLen::Auto, &smax));
    assert!(!verifies(SaltLen::HashLen, &smax));
    assert!(!verifies(SaltLen::Exact(k_max - 1), &smax));
    let shash = sig_for(SaltLen::HashLen, &mut r);
    assert!(verifies(SaltLen::Exact(32), &shash));
    assert!(!verifies(SaltLen::Max, &shash));
    // The largest salt is the maximum; one more byte does not fit.
    assert!(
        key.sign(
            &mut r,
            &Pss::new(h).with_salt_len(SaltLen::Exact(k_max)),
            msg
        )
        .is_ok()
    );
    assert_eq!(
        key.sign(
            &mut r,
            &Pss::new(h).with_salt_len(SaltLen::Exact(k_max + 1)),
            msg
        ),
        Err(Error::MessageTooLong)
    );
    assert!(!verifies(SaltLen::Exact(k_max + 1), &smax));
    assert!(!verifies(SaltLen::Exact(usize::MAX), &smax));
}

#[test]
fn pss_with_another_mgf1_hash() {
    let key = key_2048();
    let public = key.public_key();
    let mut r = rng(4);
    let msg = b"mgf1";
    for h in [HashAlg::Sha256, HashAlg::Sha512] {
        for mgf in HashAlg::ALL {
            let scheme = Pss::new(h).with_mgf1_hash(mgf);
            let sig = key.sign(&mut r, &scheme, msg).unwrap();
            public.verify(&scheme, msg, &sig).unwrap();
            if mgf != h {
                assert_eq!(
                    public.verify(&Pss::new(h), msg, &sig),
                    Err(Error::Verification),
                    "{h} with MGF1-{mgf}"
                );
            }
        }
    }
}

/// Each bit of a slice flipped in turn (a sample of positions, all of both ends).
fn bit_flips(v: &[u8]) -> impl Iterator<Item = Vec<u8>> + '_ {
    let bits = v.len() * 8;
    (0..bits)
        .filter(move |&i| i < 16 || i >= bits - 16 || i % 61 == 0)
        .map(move |i| {
            let mut t = v.to_vec();
            t[i >> 3] ^= 0x80 >> (i & 7);
            t
        })
}

/// Signs a message, giving the signature and the scheme that verifies it.
type Signer = Box<dyn Fn(&RsaPrivateKey, &[u8]) -> (Vec<u8>, Verifier)>;

fn schemes(h: HashAlg) -> Vec<Signer> {
    let v15 = move |key: &RsaPrivateKey, msg: &[u8]| {
        let s = Pkcs1v15Sign::new(h);
        (key.sign(&mut rng(5), &s, msg).unwrap(), Verifier::V15(s))
    };
    let pss = move |key: &RsaPrivateKey, msg: &[u8]| {
        let s = Pss::new(h);
        (key.sign(&mut rng(6), &s, msg).unwrap(), Verifier::Pss(s))
    };
    vec![Box::new(v15), Box::new(pss)]
}

enum Verifier {
    V15(Pkcs1v15Sign),
    Pss(Pss),
}

impl Verifier {
    fn verify(&self, key: &RsaPublicKey, msg: &[u8], sig: &[u8]) -> rsatool_rsa::Result<()> {
        match self {
            Verifier::V15(s) => key.verify(s, msg, sig),
            Verifier::Pss(s) => key.verify(s, msg, sig),
        }
    }
}

#[test]
fn a_flipped_bit_of_message_or_signature_is_rejected() {
    let key = key_1024();
    let public = key.public_key();
    let msg = b"tamper with me".to_vec();
    for sign in schemes(HashAlg::Sha256) {
        let (sig, v) = sign(key, &msg);
        v.verify(public, &msg, &sig).unwrap();
        for m in bit_flips(&msg) {
            assert_eq!(v.verify(public, &m, &sig), Err(Error::Verification));
        }
        for s in bit_flips(&sig) {
            assert_eq!(v.verify(public, &msg, &s), Err(Error::Verification));
        }
        // A signature by another key.
        let (other, _) = sign(key_2048(), &msg);
        assert_eq!(
            v.verify(key_2048().public_key(), &msg, &sig),
            Err(Error::Verification)
        );
        assert_eq!(v.verify(public, &msg, &other), Err(Error::Verification));
    }
}

#[test]
fn signatures_of_the_wrong_length_or_not_below_n_are_invalid() {
    let key = key_1024();
    let public = key.public_key();
    let k = key.size();
    let msg = b"lengths";
    let n = public.n().to_be_bytes();
    let n_plus_1 = padded(&(big(&n) + 1u32), k);
    for sign in schemes(HashAlg::Sha384) {
        let (sig, v) = sign(key, msg);
        let mut bad: Vec<Vec<u8>> = vec![
            Vec::new(),
            vec![0],
            sig[1..].to_vec(),
            [&[0u8][..], &sig].concat(),
            [&sig[..], &[0u8][..]].concat(),
            vec![0; 10 * k],
            n.clone(),
            n_plus_1.clone(),
            vec![0xff; k],
            vec![0; k],
        ];
        bad.push(vec![0xab; 1 << 20]);
        for b in &bad {
            assert_eq!(
                v.verify(public, msg, b),
                Err(Error::Verification),
                "length {}",
                b.len()
            );
        }
        // s + n ≡ s is still refused: it is not below n (k + 1 bytes, or k bytes ≥ n).
        let s_plus_n = big(&sig) + big(&n);
        let b = s_plus_n.to_bytes_be();
        assert_eq!(v.verify(public, msg, &b), Err(Error::Verification));
    }
}

#[test]
fn digests_of_the_wrong_length_are_an_invalid_length() {
    let key = key_1024();
    let public = key.public_key();
    let mut r = rng(7);
    for h in HashAlg::ALL {
        let v15 = Pkcs1v15Sign::new(h);
        let pss = Pss::new(h);
        let sig = key.sign(&mut r, &v15, b"x").unwrap();
        for len in [0, h.output_len() - 1, h.output_len() + 1, 1000] {
            let d = vec![0x11; len];
            let err = Error::InvalidLength {
                expected: h.output_len(),
                actual: len,
            };
            let want = Err(err.clone());
            assert_eq!(key.sign_prehashed(&mut r, &v15, &d), want, "{h} {len}");
            assert_eq!(key.sign_prehashed(&mut r, &pss, &d), want, "{h} {len}");
            assert_eq!(v15.sign_digest(key, &mut r, &d), want, "{h} {len}");
            assert_eq!(public.verify_prehashed(&v15, &d, &sig), Err(err.clone()));
            assert_eq!(public.verify_prehashed(&pss, &d, &sig), Err(err.clone()));
            assert_eq!(
                pss.sign_digest_with_salt(key, &mut r, &d, &[1, 2, 3]),
                want,
                "{h} {len}"
            );
        }
    }
}

/// A 512-bit key (test data only).
fn key_512() -> RsaPrivateKey {
    // Two 256-bit primes: n has 511 or 512 bits, k = 64 either way.
    let key =
        RsaPrivateKey::from_parts_allowing_small(&common::small_parts(256, 256, 512), 511).unwrap();
    assert_eq!(key.size(), 64);
    key
}

#[test]
fn keys_too_small_for_the_encoding_are_refused() {
    let mut r = rng(8);
    let key = key_1024();
    // emLen = 128 < hLen + sLen + 2 = 64 + 64 + 2.
    let pss = Pss::new(HashAlg::Sha512).with_salt_len(SaltLen::Exact(64));
    assert_eq!(key.sign(&mut r, &pss, b"m"), Err(Error::MessageTooLong));
    // The same hash with the largest salt that fits: 128 − 64 − 2 = 62 bytes.
    let fits = Pss::new(HashAlg::Sha512).with_salt_len(SaltLen::Exact(62));
    let sig = key.sign(&mut r, &fits, b"m").unwrap();
    key.public_key()
        .verify(&pss.with_salt_len(SaltLen::Max), b"m", &sig)
        .unwrap();
    let huge = Pss::new(HashAlg::Sha256).with_salt_len(SaltLen::Exact(usize::MAX));
    assert_eq!(key.sign(&mut r, &huge, b"m"), Err(Error::MessageTooLong));
    assert_eq!(
        huge.sign_digest_with_salt(key, &mut r, &[0; 32], &[0; 200]),
        Err(Error::MessageTooLong)
    );

    // 512 bits: 64 bytes; PKCS #1 v1.5 with SHA-512 needs 19 + 64 + 11 = 94, PSS with SHA-512
    // needs 64 + 2 even without a salt.
    let small = key_512();
    let public = small.public_key();
    for scheme in [
        Pss::new(HashAlg::Sha512).with_salt_len(SaltLen::Exact(0)),
        Pss::new(HashAlg::Sha512).with_salt_len(SaltLen::Max),
        Pss::new(HashAlg::Sha512).with_salt_len(SaltLen::Auto),
        Pss::new(HashAlg::Sha512),
    ] {
        assert_eq!(
            small.sign(&mut r, &scheme, b"m"),
            Err(Error::MessageTooLong)
        );
        assert_eq!(
            public.verify(&scheme, b"m", &vec![1; small.size()]),
            Err(Error::Verification)
        );
    }
    let v15 = Pkcs1v15Sign::new(HashAlg::Sha512);
    assert_eq!(small.sign(&mut r, &v15, b"m"), Err(Error::MessageTooLong));
    assert_eq!(
        public.verify(&v15, b"m", &vec![1; small.size()]),
        Err(Error::Verification)
    );
    // SHA-256 fits both: 19 + 32 + 11 = 62 ≤ 64; PSS 32 + 2 + salt ≤ emLen = 64 → salt ≤ 30.
    let v15 = Pkcs1v15Sign::new(HashAlg::Sha256);
    let sig = small.sign(&mut r, &v15, b"m").unwrap();
    public.verify(&v15, b"m", &sig).unwrap();
    let pss = Pss::new(HashAlg::Sha256).with_salt_len(SaltLen::Max);
    let sig = small.sign(&mut r, &pss, b"m").unwrap();
    public
        .verify(&pss.with_salt_len(SaltLen::Exact(30)), b"m", &sig)
        .unwrap();
}

#[test]
fn pss_when_em_is_one_byte_shorter_than_the_modulus() {
    // modBits ≡ 1 (mod 8): emBits = modBits − 1 is a multiple of 8, emLen = k − 1.
    let mut r = rng(9);
    let key = loop {
        let p = common::prime(513, &mut r);
        let q = common::prime(513, &mut r);
        let n = &p * &q;
        if p != q && n.bits() % 8 == 1 {
            break RsaPrivateKey::from_parts_allowing_small(
                &parts_from_primes(&[p, q], 65537),
                512,
            )
            .unwrap();
        }
    };
    assert_eq!(key.bits() % 8, 1);
    let public = key.public_key();
    for h in HashAlg::ALL {
        for mode in pss_modes() {
            if !pss_fits(&key, h, mode, &mut r) {
                continue;
            }
            let scheme = Pss::new(h).with_salt_len(mode);
            let sig = key.sign(&mut r, &scheme, b"short em").unwrap();
            // s^e mod n fits emLen = k − 1 bytes: its first byte is zero.
            assert_eq!(open(public, &sig)[0], 0);
            check_pss_shape(public, &sig);
            public.verify(&scheme, b"short em", &sig).unwrap();
        }
    }
}

#[test]
fn sign_with_salt_reproduces_and_randomised_signing_verifies() {
    let key = key_1024();
    let public = key.public_key();
    let mut r = rng(10);
    let h = HashAlg::Sha256;
    let digest = h.digest(b"kat");
    let salt = [0x5a; 20];
    let scheme = Pss::new(h).with_salt_len(SaltLen::Exact(20));
    let a = scheme
        .sign_digest_with_salt(key, &mut r, &digest, &salt)
        .unwrap();
    let b = scheme
        .sign_digest_with_salt(key, &mut rng(99), &digest, &salt)
        .unwrap();
    // Blinding changes nothing in the result: the signature depends on the salt only.
    assert_eq!(a, b);
    public.verify_prehashed(&scheme, &digest, &a).unwrap();
    let other = scheme
        .sign_digest_with_salt(key, &mut r, &digest, &[0x5b; 20])
        .unwrap();
    assert_ne!(a, other);
    public.verify_prehashed(&scheme, &digest, &other).unwrap();
}
