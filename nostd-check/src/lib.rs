//! The proof, built and tested by `.ci/run`, that `bignum` and `rsatool_rsa` work without the
//! standard library: this crate is `#![no_std]` (it has `core` and `alloc` only) and takes both with
//! `default-features = false`. `.ci/run` builds and tests it alone (so that no other workspace
//! member turns a `std` feature back on: the tests below run the `no_std` builds, with their
//! CPUID detection and single-thread batches) and checks with `cargo tree` that no crate of its
//! graph has `std` on.
//!
//! Randomness comes from the caller: there is no operating system here to ask.

#![no_std]

extern crate alloc;
#[cfg(test)]
extern crate std;

use alloc::vec::Vec;

use bignum::Limb;
use bignum::modular::Modulus;
use rand_core::CryptoRng;
use rsatool_rsa::{Batch, HashAlg, Pkcs1v15Sign, Pss, RsaPrivateKey};

/// Fermat's little theorem on a fresh random prime p of `bits` bits: for a base b with
/// 1 < b < p, b^(p−1) ≡ 1 (mod p), through the constant-time exponentiation (with the back
/// end `bignum` picked without `std`). `true` when it holds, as it must.
///
/// # Panics
///
/// If `bits` is below 128 (the base must be below p).
pub fn fermat_holds<R: CryptoRng + ?Sized>(bits: usize, rng: &mut R) -> bool {
    assert!(bits >= 128, "bits too small");
    let p = bignum::prime::random_prime(bits, rng);
    let Ok(m) = Modulus::new_vartime(&p) else {
        return false;
    };
    let mut p_minus_1: Vec<Limb> = p.to_vec();
    // p is odd, so p − 1 only clears the low bit.
    p_minus_1[0] ^= 1;
    let base = m.reduce(&[0x1234_5678_9abc_def1]);
    let r = m.retrieve(&m.pow(&base, &p_minus_1, bits));
    r[0] == 1 && r[1..].iter().all(|&l| l == 0)
}

/// Generates an RSA key of `bits` bits with the caller's RNG, signs `msg` with PKCS #1 v1.5
/// and with PSS (SHA-256), singly and as a batch, and verifies every signature; a signature
/// with one bit flipped must fail. `true` when all of that holds.
pub fn sign_and_verify<R: CryptoRng + ?Sized>(bits: usize, rng: &mut R, msg: &[u8]) -> bool {
    let Ok(key) = RsaPrivateKey::generate(bits, rng) else {
        return false;
    };
    let public = key.public_key();
    let pkcs1 = Pkcs1v15Sign::new(HashAlg::Sha256);
    let pss = Pss::new(HashAlg::Sha256);
    let (Ok(s1), Ok(s2)) = (key.sign(rng, &pkcs1, msg), key.sign(rng, &pss, msg)) else {
        return false;
    };
    let mut bad = s1.clone();
    bad[0] ^= 1;
    let batch = Batch::new().sign(&key, rng, &pkcs1, &[msg, msg]);
    public.verify(&pkcs1, msg, &s1).is_ok()
        && public.verify(&pss, msg, &s2).is_ok()
        && public.verify(&pkcs1, msg, &bad).is_err()
        && batch.len() == 2
        && batch.iter().all(|s| s.as_ref().is_ok_and(|s| *s == s1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn fermat_holds_without_std() {
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        assert!(fermat_holds(256, &mut rng));
    }

    #[test]
    fn rsa_signs_and_verifies_without_std() {
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        assert!(sign_and_verify(1024, &mut rng, b"no_std"));
    }
}
