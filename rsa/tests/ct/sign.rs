//! Constant-time check driver for signing: PKCS #1 v1.5 and PSS with the key's secrets and the
//! blinding randomness marked undefined, the signature marked defined once it is out; and a
//! negative control that memcheck must flag.
//!
//! What is treated as public, and why:
//! - the message and its digest (the signer's input, not a secret of the key);
//! - the PSS salt: anyone who verifies the signature recovers it (RFC 8017 §9.1.2 step 10),
//!   so EM = s^e mod n is public once s is; the RNG below therefore leaves its first output
//!   (the salt) defined and marks everything after it (the blinding values) secret. With the
//!   salt marked secret too, memcheck flags exactly two places, both in the private
//!   operation's handling of its (public) input EM: the range check `c ≥ n` and
//!   `be_to_limbs`' leading-zero strip (`primitive.rs`, `RsaPublicKey::input`); EM is what
//!   any verifier computes as s^e mod n, so neither is a leak. The PSS encoding itself
//!   (hashing, MGF1, masking) showed no error with a secret salt.
//! - the verdict of the fault check (suppressed by name in `.ci/rsa-ct.supp`, as for the
//!   private operation).

use rand_core::{Rng, TryCryptoRng, TryRng};
use rsatool_rsa::{HashAlg, Pkcs1v15Sign, Pss, RsaPrivateKey, SaltLen};

use super::SecretRng;
use crate::common::{self, parts_from_primes, rng};
use crate::memcheck::{mark_public_bytes, mark_secret};

/// A 1024-bit key whose secrets are marked undefined (valgrind is ~50x slower: 1024 bits
/// keeps this short), and the same key unmarked for the expected values.
fn keys(seed: u64) -> (RsaPrivateKey, RsaPrivateKey) {
    let mut r = rng(seed);
    let primes: Vec<num_bigint::BigUint> = [512, 512]
        .iter()
        .map(|&b| common::prime(b, &mut r))
        .collect();
    let parts = parts_from_primes(&primes, 65537);
    let plain = RsaPrivateKey::from_parts(&parts).unwrap();
    let secret = RsaPrivateKey::from_parts(&parts).unwrap();
    for limbs in secret.secret_limbs_for_ct_tests() {
        mark_secret(limbs);
    }
    (secret, plain)
}

/// An RNG whose first `fill_bytes` output (the PSS salt, drawn before the private operation)
/// is left public, and everything after it (blinding) marked secret.
struct PublicSaltRng {
    salt_drawn: bool,
    salt: rand_chacha::ChaCha20Rng,
    blinding: SecretRng,
}

impl TryRng for PublicSaltRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        self.blinding.try_next_u32()
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.blinding.try_next_u64()
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        if self.salt_drawn {
            self.blinding.try_fill_bytes(dst)
        } else {
            self.salt_drawn = true;
            self.salt.fill_bytes(dst);
            Ok(())
        }
    }
}

impl TryCryptoRng for PublicSaltRng {}

#[test]
fn pkcs1v15_and_pss_signing_with_secret_key_and_blinding() {
    let (key, plain) = keys(30);
    let public = plain.public_key();
    let msg = b"constant-time signing";
    for (i, h) in [HashAlg::Sha256, HashAlg::Sha384, HashAlg::Sha512_256]
        .into_iter()
        .enumerate()
    {
        let seed = 40 + 10 * i as u64;
        // PKCS #1 v1.5: deterministic, so equal to the unmarked key's signature.
        let v15 = Pkcs1v15Sign::new(h);
        let sig = key.sign(&mut SecretRng(rng(seed)), &v15, msg).unwrap();
        mark_public_bytes(sig.as_slice());
        assert_eq!(sig, plain.sign(&mut rng(seed + 1), &v15, msg).unwrap());
        public.verify(&v15, msg, &sig).unwrap();

        // PSS through the randomised API: the salt public, blinding secret.
        for mode in [SaltLen::HashLen, SaltLen::Max] {
            let pss = Pss::new(h).with_salt_len(mode);
            let mut r = PublicSaltRng {
                salt_drawn: false,
                salt: rng(seed + 2),
                blinding: SecretRng(rng(seed + 3)),
            };
            let sig = key.sign(&mut r, &pss, msg).unwrap();
            mark_public_bytes(sig.as_slice());
            public.verify(&pss, msg, &sig).unwrap();
        }
        // PSS with a given salt (the known-answer path): equal to the unmarked key's.
        let pss = Pss::new(h).with_salt_len(SaltLen::Exact(20));
        let digest = h.digest(msg);
        let salt = [0xa5; 20];
        let sig = pss
            .sign_digest_with_salt(&key, &mut SecretRng(rng(seed + 4)), &digest, &salt)
            .unwrap();
        mark_public_bytes(sig.as_slice());
        let want = pss
            .sign_digest_with_salt(&plain, &mut rng(seed + 5), &digest, &salt)
            .unwrap();
        assert_eq!(sig, want);
        public.verify(&pss, msg, &sig).unwrap();
    }
}

/// A verification-style comparison that stops at the first differing byte: a branch on each
/// byte compared.
#[inline(never)]
fn leaky_early_exit_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    for (x, y) in a.iter().zip(b) {
        if std::hint::black_box(*x) != *y {
            return false;
        }
    }
    true
}

/// NEGATIVE CONTROL: a signature fresh out of the private operation, still secret (not yet
/// marked public), compared with an early-exit loop. Memcheck must flag the comparison.
#[test]
fn leaky_early_exit_compare_on_an_unreleased_signature() {
    let (key, plain) = keys(60);
    let v15 = Pkcs1v15Sign::new(HashAlg::Sha256);
    let want = plain.sign(&mut rng(61), &v15, b"leak").unwrap();
    let sig = key.sign(&mut SecretRng(rng(62)), &v15, b"leak").unwrap();
    let same = leaky_early_exit_eq(&sig, &want);
    assert!(same);
}
