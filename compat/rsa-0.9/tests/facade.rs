//! What RustCrypto's own tests do not check of the facade: that its signatures are rsatool-rsa's
//! (the library underneath, used directly here), that a failing rand_core 0.6 RNG is an error,
//! and 0.9's key constructors below 1024 bits and without CRT values, checked against
//! num-bigint-dig's arithmetic (0.9's own) as the oracle.

// num-bigint-dig's arithmetic is the oracle here.
#![allow(clippy::disallowed_methods)]
// A test file: its helpers may unwrap too.
#![allow(clippy::unwrap_used)]

use num_bigint::BigUint;
use num_bigint::traits::ModInverse;
use num_integer::Integer;
use rand_chacha::ChaCha8Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};
use rsa::pkcs1v15;
use rsa::signature::{Keypair, RandomizedSigner, SignatureEncoding, Signer, Verifier};
use rsa::traits::{PrivateKeyParts, PublicKeyParts};
use rsa::{Error, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey};
use sha2::{Digest, Sha256};

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::from_seed([9; 32])
}

/// rsatool-rsa's key of the facade's key, through its own parts (no facade code).
fn rsatool_public(key: &RsaPublicKey) -> rsatool_rsa::RsaPublicKey {
    let parts = rsatool_rsa::PublicKeyParts {
        n: key.n().to_bytes_be(),
        e: key.e().to_bytes_be(),
    };
    rsatool_rsa::RsaPublicKey::from_parts(&parts).unwrap()
}

#[test]
fn pkcs1v15_signature_is_rsatool_rsas() {
    let key = RsaPrivateKey::new(&mut rng(), 2048).unwrap();
    let public = rsatool_public(&key.to_public_key());
    let scheme = rsatool_rsa::Pkcs1v15Sign::new(rsatool_rsa::HashAlg::Sha256);
    let digest = Sha256::digest(b"message");

    let typed = pkcs1v15::SigningKey::<Sha256>::new(key.clone()).sign(b"message");
    public
        .verify_prehashed(&scheme, &digest, &typed.to_bytes())
        .unwrap();
    let raw = key.sign(Pkcs1v15Sign::new::<Sha256>(), &digest).unwrap();
    assert_eq!(raw, typed.to_vec());

    // Deterministic: rsatool-rsa's own signature of the same key is the same bytes.
    let parts = rsatool_rsa::PrivateKeyParts {
        n: key.n().to_bytes_be(),
        e: key.e().to_bytes_be(),
        d: key.d().to_bytes_be().into(),
        primes: key
            .primes()
            .iter()
            .map(|p| p.to_bytes_be().into())
            .collect(),
        exponents: [key.dp().unwrap(), key.dq().unwrap()]
            .iter()
            .map(|x| x.to_bytes_be().into())
            .collect(),
        coefficients: vec![key.qinv().unwrap().to_bytes_be().1.into()],
    };
    let inner = rsatool_rsa::RsaPrivateKey::from_parts(&parts).unwrap();
    let mut rng10 = rsatool_rsa::os_rng();
    assert_eq!(
        inner.sign_prehashed(&mut rng10, &scheme, &digest).unwrap(),
        raw
    );
}

#[test]
fn pss_signature_verifies_under_rsatool_rsa() {
    let mut rng = rng();
    let key = RsaPrivateKey::new(&mut rng, 2048).unwrap();
    let digest = Sha256::digest(b"message");
    let public = rsatool_public(&key.to_public_key());
    for salt_len in [0, 20, 32] {
        let sig = key
            .sign_with_rng(&mut rng, Pss::new_with_salt::<Sha256>(salt_len), &digest)
            .unwrap();
        let scheme = rsatool_rsa::Pss::new(rsatool_rsa::HashAlg::Sha256)
            .with_salt_len(rsatool_rsa::SaltLen::Exact(salt_len));
        public.verify_prehashed(&scheme, &digest, &sig).unwrap();
        // 0.9 verifies the exact salt length only.
        let other = Pss::new_with_salt::<Sha256>(salt_len + 1);
        assert_eq!(
            key.to_public_key().verify(other, &digest, &sig),
            Err(Error::Verification)
        );
    }
}

/// A rand_core 0.6 RNG whose every `try_fill_bytes` fails (and whose `fill_bytes` panics, as
/// a fallible RNG's does when used through the infallible call).
struct FailingRng;

impl RngCore for FailingRng {
    fn next_u32(&mut self) -> u32 {
        panic!("the infallible call of a failing RNG")
    }
    fn next_u64(&mut self) -> u64 {
        panic!("the infallible call of a failing RNG")
    }
    fn fill_bytes(&mut self, _: &mut [u8]) {
        panic!("the infallible call of a failing RNG")
    }
    fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), rand_core::Error> {
        Err(rand_core::Error::new("no entropy"))
    }
}

impl CryptoRng for FailingRng {}

#[test]
fn failing_rng_is_an_error_not_a_panic() {
    let key = RsaPrivateKey::new(&mut rng(), 1024).unwrap();
    let public = key.to_public_key();
    assert_eq!(RsaPrivateKey::new(&mut FailingRng, 1024), Err(Error::Rng));
    assert_eq!(RsaPrivateKey::new(&mut FailingRng, 512), Err(Error::Rng));
    assert_eq!(
        public.encrypt(&mut FailingRng, Oaep::new::<Sha256>(), b"m"),
        Err(Error::Rng)
    );
    assert_eq!(
        public.encrypt(&mut FailingRng, Pkcs1v15Encrypt, b"m"),
        Err(Error::Rng)
    );
    let digest = Sha256::digest(b"m");
    assert_eq!(
        key.sign_with_rng(&mut FailingRng, Pss::new::<Sha256>(), &digest),
        Err(Error::Rng)
    );
    let ct = public.encrypt(&mut rng(), Pkcs1v15Encrypt, b"m").unwrap();
    assert_eq!(
        key.decrypt_blinded(&mut FailingRng, Pkcs1v15Encrypt, &ct),
        Err(Error::Rng)
    );
    let signing_key = pkcs1v15::SigningKey::<Sha256>::new(key);
    let err = signing_key
        .try_sign_with_rng(&mut FailingRng, b"m")
        .unwrap_err();
    let source = std::error::Error::source(&err).unwrap();
    assert_eq!(source.downcast_ref::<Error>(), Some(&Error::Rng));
}

#[test]
fn small_keys_as_0_9_makes_them() {
    let mut rng = rng();
    for bits in [64, 512, 1025] {
        let key = RsaPrivateKey::new(&mut rng, bits).unwrap();
        assert_eq!(key.n().bits(), bits);
        // 0.9's d for generated keys: e⁻¹ mod φ(n).
        let (p, q) = (&key.primes()[0], &key.primes()[1]);
        let phi = (p - 1u8) * (q - 1u8);
        let d = key
            .e()
            .clone()
            .mod_inverse(&phi)
            .unwrap()
            .to_biguint()
            .unwrap();
        assert_eq!(key.d(), &d);
        assert_eq!(key.dp().unwrap(), &(&d % (p - 1u8)));
        let qinv = q.clone().mod_inverse(p).unwrap().to_biguint().unwrap();
        assert_eq!(key.crt_coefficient().unwrap(), qinv);
    }
    let key = RsaPrivateKey::new(&mut rng, 512).unwrap();
    let signing_key = pkcs1v15::SigningKey::<Sha256>::new(key);
    let sig = signing_key.sign(b"m");
    signing_key.verifying_key().verify(b"m", &sig).unwrap();
    assert_eq!(RsaPrivateKey::new(&mut rng, 8), Err(Error::TooFewPrimes));
}

#[test]
fn constructors_compute_d_as_0_9_documents() {
    let key = RsaPrivateKey::new(&mut rng(), 1024).unwrap();
    let (p, q) = (key.primes()[0].clone(), key.primes()[1].clone());
    let e = key.e().clone();
    let (pm1, qm1) = (&p - 1u8, &q - 1u8);

    // from_p_q: d = e⁻¹ mod λ(n) (NIST SP 800-56B §6.2.1).
    let from_p_q = RsaPrivateKey::from_p_q(p.clone(), q.clone(), e.clone()).unwrap();
    let lambda = pm1.lcm(&qm1);
    let d = e
        .clone()
        .mod_inverse(&lambda)
        .unwrap()
        .to_biguint()
        .unwrap();
    assert_eq!(from_p_q.d(), &d);
    assert_eq!(from_p_q.n(), key.n());

    // from_primes: d = e⁻¹ mod φ(n).
    let from_primes = RsaPrivateKey::from_primes(vec![p.clone(), q.clone()], e.clone()).unwrap();
    let phi = &pm1 * &qm1;
    let d = e.clone().mod_inverse(&phi).unwrap().to_biguint().unwrap();
    assert_eq!(from_primes.d(), &d);

    // from_components without primes recovers them (NIST SP 800-56B Appendix C.2).
    let recovered =
        RsaPrivateKey::from_components(key.n().clone(), e.clone(), key.d().clone(), vec![])
            .unwrap();
    let mut got = recovered.primes().to_vec();
    got.sort();
    let mut want = vec![p.clone(), q.clone()];
    want.sort();
    assert_eq!(got, want);

    assert_eq!(
        RsaPrivateKey::from_components(
            key.n().clone(),
            e.clone(),
            key.d().clone(),
            vec![p.clone()]
        ),
        Err(Error::NprimesTooSmall)
    );
    assert_eq!(
        RsaPrivateKey::from_p_q(p.clone(), p.clone(), e.clone()),
        Err(Error::InvalidPrime)
    );
    let wrong_d = key.d() + 2u8;
    assert_eq!(
        RsaPrivateKey::from_components(key.n().clone(), e, wrong_d, vec![p, q]),
        Err(Error::InvalidExponent)
    );
}

#[test]
fn tiny_key_of_0_9s_tests_works() {
    // 0.9's test_negative_decryption_value key (128 bits), little-endian as it writes them.
    let key = RsaPrivateKey::from_components(
        BigUint::from_bytes_le(&[
            99, 192, 208, 179, 0, 220, 7, 29, 49, 151, 75, 107, 75, 73, 200, 180,
        ]),
        BigUint::from_bytes_le(&[1, 0, 1]),
        BigUint::from_bytes_le(&[
            81, 163, 254, 144, 171, 159, 144, 42, 244, 133, 51, 249, 28, 12, 63, 65,
        ]),
        vec![
            BigUint::from_bytes_le(&[105, 101, 60, 173, 19, 153, 3, 192]),
            BigUint::from_bytes_le(&[235, 65, 160, 134, 32, 136, 6, 241]),
        ],
    )
    .unwrap();
    key.validate().unwrap();
    // Unprefixed PKCS #1 v1.5 fits: 16 bytes ≥ 3 + 11.
    let sig = key.sign(Pkcs1v15Sign::new_unprefixed(), b"abc").unwrap();
    key.to_public_key()
        .verify(Pkcs1v15Sign::new_unprefixed(), b"abc", &sig)
        .unwrap();
    // The oracle: s^e mod n is the encoding 00 01 ff.. 00 "abc".
    let m = BigUint::from_bytes_be(&sig)
        .modpow(key.e(), key.n())
        .to_bytes_be();
    let mut want = vec![0x01];
    want.extend([0xff; 16 - 3 - 3]);
    want.push(0x00);
    want.extend(b"abc");
    assert_eq!(m, want);
}

#[test]
fn pkcs1v15_decryption_rejects_explicitly_as_0_9() {
    let mut rng = rng();
    let key = RsaPrivateKey::new(&mut rng, 1024).unwrap();
    let mut ct = key
        .to_public_key()
        .encrypt(&mut rng, Pkcs1v15Encrypt, b"hello")
        .unwrap();
    assert_eq!(key.decrypt(Pkcs1v15Encrypt, &ct).unwrap(), b"hello");
    ct[5] ^= 1;
    assert_eq!(key.decrypt(Pkcs1v15Encrypt, &ct), Err(Error::Decryption));
    assert_eq!(
        key.decrypt(Pkcs1v15Encrypt, &ct[1..]),
        Err(Error::Decryption)
    );
}

#[test]
fn debug_prints_no_secret() {
    let key = RsaPrivateKey::new(&mut rng(), 1024).unwrap();
    let shown = format!(
        "{key:?} {:?} {:?}",
        pkcs1v15::SigningKey::<Sha256>::new(key.clone()),
        key.crt_values()
    );
    for secret in [
        key.d(),
        &key.primes()[0],
        &key.primes()[1],
        key.dp().unwrap(),
    ] {
        // Decimal and hex, and one limb in decimal (as `BigUint`'s Debug prints them).
        let debug = format!("{secret:?}");
        let limb = debug.split(['[', ',']).nth(1).unwrap().trim().to_string();
        for form in [secret.to_str_radix(10), secret.to_str_radix(16), limb] {
            assert!(
                form.len() < 12 || !shown.contains(&form[..12]),
                "{form} in {shown}"
            );
        }
    }
}

#[test]
fn keys_are_send_and_sync_as_in_0_9() {
    fn check<T: Send + Sync + Clone>() {}
    check::<RsaPrivateKey>();
    check::<RsaPublicKey>();
    check::<pkcs1v15::SigningKey<Sha256>>();
    check::<rsa::pss::BlindedSigningKey<Sha256>>();
    check::<rsa::oaep::DecryptingKey<Sha256>>();
}
