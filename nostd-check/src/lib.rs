//! The proof, built by `.ci/run`, that `bignum` works without the standard library: this crate
//! is `#![no_std]` (it has `core` and `alloc` only) and takes `bignum` with
//! `default-features = false`. `.ci/run` builds it alone (so no other workspace member turns a
//! `std` feature back on) and checks with `cargo tree` that no crate in its graph has `std` on.
//!
//! Randomness comes from the caller: there is no operating system here to ask.

#![no_std]

extern crate alloc;

use alloc::vec::Vec;

use bignum::Limb;
use bignum::modular::Modulus;
use rand_core::CryptoRng;

/// Fermat's little theorem on a fresh random prime p of `bits` bits: for a base b with
/// 1 < b < p, b^(p−1) ≡ 1 (mod p), through the constant-time exponentiation (with the back
/// end `bignum` picked without `std`). `true` when it holds, as it must.
///
/// # Panics
///
/// If `bits` is below 16 (no room for the base).
pub fn fermat_holds<R: CryptoRng + ?Sized>(bits: usize, rng: &mut R) -> bool {
    assert!(bits >= 16, "bits too small");
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
