//! Constant-time driver for the private key's cached blinding pair (`primitive/blinding.rs`):
//! the CRT private operation through the cache's squaring update and across a refresh, with
//! the key's secrets and the pair itself marked undefined; and a negative control proving that
//! the pair's marking reaches the memory the operation uses.
//!
//! The first operation draws the pair from an ordinary (public) RNG, so that nothing but the
//! explicit marking makes the pair secret: every later operation squares it (constant-time
//! Montgomery squarings), copies it out, blinds and unblinds with it. Operation 33 draws a new
//! pair (from an RNG whose output is marked secret), which is then squared again. Each output
//! is marked public before it is compared with num-bigint's c^d mod n, computed before any
//! secret was marked.

use rand_core::Rng;
use rsatool_rsa::RsaPrivateKey;
use rsatool_rsa::hazmat::PrivateOp;

use super::SecretRng;
use super::common::{self, big, padded, parts_from_primes, rng};
use super::memcheck::{mark_public_bytes, mark_secret};

/// Operations of the driver: past one refresh of the pair (every 32 uses).
const OPS: u64 = 40;

/// An input and its expected result.
type Case = (Vec<u8>, Vec<u8>);

/// A 1024-bit two-prime key (valgrind is about 50 times slower), inputs and their expected
/// results, all computed before anything is marked.
fn key_and_cases(seed: u64) -> (RsaPrivateKey, Vec<Case>) {
    let mut r = rng(seed);
    let primes: Vec<num_bigint::BigUint> = [512, 512]
        .iter()
        .map(|&b| common::prime(b, &mut r))
        .collect();
    let key =
        RsaPrivateKey::from_parts_allowing_small(&parts_from_primes(&primes, 65537), 1000).unwrap();
    let parts = key.to_parts();
    let (n, d) = (big(&parts.n), big(&parts.d));
    let cases = (0..OPS)
        .map(|i| {
            let mut c = vec![0u8; key.size()];
            rng(seed + 100 + i).fill_bytes(&mut c[1..]);
            let want = padded(&big(&c).modpow(&d, &n), key.size());
            (c, want)
        })
        .collect();
    (key, cases)
}

/// Marks the key's secrets and its cached pair (if any) undefined; returns whether there was
/// a pair.
fn mark_all_secret(key: &RsaPrivateKey) -> bool {
    for limbs in key.secret_limbs_for_ct_tests() {
        mark_secret(limbs);
    }
    let mut cached = false;
    key.with_cached_blinding_for_ct_tests(|pair| {
        for limbs in pair {
            mark_secret(limbs);
        }
        cached = !pair.is_empty();
    });
    cached
}

#[test]
fn cached_blinding_pair_squared_and_refreshed_with_the_pair_marked_secret() {
    let (key, cases) = key_and_cases(70);
    // The first operation fills the cache from a public RNG.
    let (c, want) = &cases[0];
    assert_eq!(&key.private_op(&mut rng(71), c).unwrap(), want);
    let mut blinding = SecretRng(rng(72));
    for (i, (c, want)) in cases.iter().enumerate().skip(1) {
        assert!(
            mark_all_secret(&key),
            "operation {i}: the cache holds a pair"
        );
        let m = key.private_op(&mut blinding, c).unwrap();
        mark_public_bytes(m.as_slice());
        assert_eq!(&m, want, "operation {i}");
    }
}

/// A branch on the low bit of r⁻¹ mod n as the cache holds it.
#[inline(never)]
fn leaky_branch_on_cached_pair(limbs: &[u64]) -> u64 {
    if std::hint::black_box(limbs[0]) & 1 == 1 {
        std::hint::black_box(3)
    } else {
        std::hint::black_box(5)
    }
}

/// NEGATIVE CONTROL: after the driver's marking, a branch on a limb of the cached pair. Memcheck
/// must flag it: else the marking would not reach the pair and the driver above would prove
/// nothing about the update.
#[test]
fn leaky_branch_on_the_cached_blinding_pair() {
    let (key, cases) = key_and_cases(80);
    let (c, want) = &cases[0];
    assert_eq!(&key.private_op(&mut rng(81), c).unwrap(), want);
    assert!(mark_all_secret(&key));
    let mut seen = 0;
    key.with_cached_blinding_for_ct_tests(|pair| {
        seen = leaky_branch_on_cached_pair(pair[pair.len() - 1]);
    });
    assert!(seen == 3 || seen == 5);
}
