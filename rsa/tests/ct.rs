//! Constant-time check driver for the private operation, with the CRT and plain (STYLE §3,
//! DESIGN's quality bars).
//!
//! The key is built from public test data, then its secrets (d, the primes, d_i, the CRT
//! coefficients and partial products) are marked undefined with memcheck client requests, and
//! the blinding randomness too (an RNG wrapper marks every byte it produces); the private
//! operations run (CRT with blinding, then plain), and each output is marked defined before it
//! is compared with num-bigint.
//! Under `valgrind --error-exitcode=…` any branch or address that depends on a secret is an
//! error; natively the requests do nothing and this is an ordinary test. `.ci/ct-check` runs it
//! under valgrind.
//!
//! Accepted leaks, suppressed by name in `.ci/rsa-ct.supp` (each is the operation's one
//! declassified bit or value): the fault check's verdict (`RsaPrivateKey::output`), and the
//! blinded product a = r·s, uniform and independent of r, which is declassified to be
//! inverted in variable time (`Nat::inv_mod_vartime`, `Nat::from_limbs`). Not marked: the
//! Montgomery constants inside each prime's context (derived from the prime but not reachable
//! from here).
// Test code: `unwrap` on expected values is the assertion.
#![allow(clippy::unwrap_used)]

mod common;
#[path = "ct/decrypt.rs"]
mod decrypt;
#[path = "ct/keygen.rs"]
mod keygen;
#[allow(dead_code)] // shared with bignum's drivers; not every helper is used here
#[path = "../../bignum/tests/ct/memcheck.rs"]
mod memcheck;
#[path = "ct/sign.rs"]
mod sign;

use common::{big, padded, parts_from_primes, rng};
use memcheck::{mark_public_bytes, mark_secret, mark_secret_bytes};
use rand_core::{Rng, TryCryptoRng, TryRng};
use rsa::RsaPrivateKey;
use rsa::hazmat::PrivateOp;

/// An RNG whose every output byte is secret (marked undefined).
struct SecretRng(rand_chacha::ChaCha20Rng);

impl TryRng for SecretRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let v = self.0.next_u32();
        mark_secret_bytes(&v);
        Ok(v)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let v = self.0.next_u64();
        mark_secret_bytes(&v);
        Ok(v)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.0.fill_bytes(dst);
        mark_secret_bytes(dst);
        Ok(())
    }
}

impl TryCryptoRng for SecretRng {}

fn check(key: &RsaPrivateKey, seed: u64) {
    let parts = key.to_parts();
    let (n, d) = (big(&parts.n), big(&parts.d));
    for limbs in key.secret_limbs_for_ct_tests() {
        mark_secret(limbs);
    }
    let mut r = SecretRng(rng(seed));
    let mut c = vec![0u8; key.size()];
    rng(seed + 1).fill_bytes(&mut c[1..]);
    let want = padded(&big(&c).modpow(&d, &n), key.size());
    let m = key.private_op(&mut r, &c).unwrap();
    mark_public_bytes(m.as_slice());
    assert_eq!(m, want);
    let m = key.private_op_plain(&c).unwrap();
    mark_public_bytes(m.as_slice());
    assert_eq!(m, want);
}

#[test]
fn crt_private_op_with_secret_key_and_blinding() {
    println!("running on valgrind: {}", memcheck::running_on_valgrind());
    let mut r = rng(1);
    // Two primes (1024 bits) and three unbalanced ones (768 bits): valgrind is ~50x slower.
    let primes: Vec<num_bigint::BigUint> = [512, 512]
        .iter()
        .map(|&b| common::prime(b, &mut r))
        .collect();
    let key = RsaPrivateKey::from_parts(&parts_from_primes(&primes, 65537)).unwrap();
    check(&key, 10);
    let primes: Vec<num_bigint::BigUint> = [300, 250, 218]
        .iter()
        .map(|&b| common::prime(b, &mut r))
        .collect();
    let key =
        RsaPrivateKey::from_parts_allowing_small(&parts_from_primes(&primes, 65537), 512).unwrap();
    check(&key, 20);
}
