//! RSA primitives against num-bigint: RSAEP = m^e mod n, RSADP plain = CRT = c^d mod n,
//! round trips, range and length errors, and the fault check.
// Test code on public test data: divisions and truncating casts are harmless here.
#![allow(
    clippy::unwrap_used,
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation
)]

use crate::common;

use common::{big, key_1024, padded, parts_from_primes, random_below, rng};
use num_bigint::BigUint;
use rand_chacha::ChaCha20Rng;
use rand_core::Rng;
use rsatool_rsa::hazmat::{PrivateOp, PublicOp};
use rsatool_rsa::{Error, RsaPrivateKey};

/// Random values below n, plus the edges 0, 1, 2, n − 1, n − 2.
fn inputs(n: &BigUint, k: usize, count: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut r = rng(seed);
    let mut v: Vec<BigUint> = [0u32, 1, 2]
        .iter()
        .map(|&x| BigUint::from(x))
        .chain([n - 1u32, n - 2u32])
        .collect();
    for _ in 0..count {
        let mut b = vec![0u8; k + 8];
        r.fill_bytes(&mut b);
        v.push(big(&b) % n);
    }
    v.iter().map(|x| padded(x, k)).collect()
}

/// Every operation of `key` on `count` random inputs and the edges, against num-bigint.
fn check_key(key: &RsaPrivateKey, count: usize, seed: u64) {
    let parts = key.to_parts();
    let (n, e, d) = (big(&parts.n), big(&parts.e), big(&parts.d));
    let k = key.size();
    let public = key.public_key();
    let mut r = rng(seed ^ 0x5555);
    for m in inputs(&n, k, count, seed) {
        let want_c = padded(&big(&m).modpow(&e, &n), k);
        let c = public.public_op(&m).unwrap();
        assert_eq!(c, want_c, "RSAEP");
        let want_m = padded(&big(&c).modpow(&d, &n), k);
        assert_eq!(want_m, m, "the oracle's own round trip");
        assert_eq!(key.private_op(&mut r, &c).unwrap(), m, "RSADP with CRT");
        assert_eq!(key.private_op_plain(&c).unwrap(), m, "RSADP plain");
        // As a signature: s = m^d, then s^e = m.
        let want_s = padded(&big(&m).modpow(&d, &n), k);
        let s = key.private_op(&mut r, &m).unwrap();
        assert_eq!(s, want_s, "RSASP1 with CRT");
        assert_eq!(key.private_op_plain(&m).unwrap(), want_s, "RSASP1 plain");
        assert_eq!(public.public_op(&s).unwrap(), m, "RSAVP1");
    }
}

#[test]
fn operations_equal_num_bigint_1024() {
    check_key(key_1024(), 20, 1);
}

#[test]
fn operations_equal_num_bigint_2048() {
    let key = RsaPrivateKey::generate(2048, &mut rng(2048)).unwrap();
    check_key(&key, 8, 2);
}

#[test]
fn operations_equal_num_bigint_multi_prime() {
    let key = RsaPrivateKey::generate_multi_prime(2048, 3, &mut rng(3)).unwrap();
    check_key(&key, 5, 3);
    let key = RsaPrivateKey::generate_multi_prime(1536, 5, &mut rng(5)).unwrap();
    check_key(&key, 5, 5);
}

#[test]
fn operations_equal_num_bigint_on_imported_odd_shaped_keys() {
    let mut r = rng(7);
    // Unbalanced primes of different limb counts, a modulus not a multiple of 8 bits, a large
    // public exponent, and a small test-only key.
    let shapes: [(&[u64], u64); 4] = [
        (&[700, 330], 65537),
        (&[513, 512], 3),
        (&[600, 500], (1 << 61) - 1),
        (&[200, 140, 160], 65537),
    ];
    for (bits, e) in shapes {
        let primes = loop {
            let primes: Vec<BigUint> = bits.iter().map(|&b| common::prime(b, &mut r)).collect();
            let ok = primes.iter().all(|p| {
                num_integer::Integer::gcd(&(p - 1u32), &BigUint::from(e)) == BigUint::from(1u32)
            });
            if ok {
                break primes;
            }
        };
        let parts = parts_from_primes(&primes, e);
        let key = RsaPrivateKey::from_parts_allowing_small(&parts, 256).unwrap();
        check_key(&key, 5, e);
    }
}

#[test]
fn range_and_length_errors() {
    let key = key_1024();
    let k = key.size();
    let n = key.n().to_be_bytes();
    let mut r = rng(9);
    // n + 2 (odd n + 2 < 2^(8k): n is not all-ones, being a product of odd primes > 1).
    let above = padded(&(big(&n) + 2u32), k);
    for bad in [n.clone(), above, vec![0xff; k]] {
        assert_eq!(
            key.public_key().public_op(&bad),
            Err(Error::InputOutOfRange)
        );
        assert_eq!(key.private_op(&mut r, &bad), Err(Error::InputOutOfRange));
        assert_eq!(key.private_op_plain(&bad), Err(Error::InputOutOfRange));
    }
    for len in [0, 1, k - 1, k + 1] {
        let want = Err(Error::InvalidLength {
            expected: k,
            actual: len,
        });
        let input = vec![0u8; len];
        assert_eq!(key.public_key().public_op(&input), want);
        assert_eq!(key.private_op(&mut r, &input), want);
        assert_eq!(key.private_op_plain(&input), want);
    }
}

/// The shared 1024-bit two-prime key and a 1024-bit three-prime key generated with `r`.
fn two_and_three_prime_keys(r: &mut ChaCha20Rng) -> [RsaPrivateKey; 2] {
    [
        key_1024().clone(),
        RsaPrivateKey::generate_multi_prime(1024, 3, r).unwrap(),
    ]
}

#[test]
fn injected_fault_gives_error_fault_never_a_value() {
    let mut r = rng(11);
    for key in two_and_three_prime_keys(&mut r) {
        let m = random_below(key.size(), &mut r);
        assert_eq!(
            key.private_op_with_injected_fault(&mut r, &m),
            Err(Error::Fault)
        );
        // The same input without the fault works.
        let s = key.private_op(&mut r, &m).unwrap();
        assert_eq!(key.public_key().public_op(&s).unwrap(), m);
    }
}

/// The stage-by-stage hook of the timing example runs the private operation: its signature
/// verifies with the public exponent, it equals the unblinded non-CRT operation's, and the
/// stages come in the documented order.
#[test]
fn private_op_by_stages_is_the_private_operation() {
    let mut r = rng(21);
    for key in two_and_three_prime_keys(&mut r) {
        let m = random_below(key.size(), &mut r);
        let mut stages = Vec::new();
        let s = key
            .private_op_by_stages(&mut r, &m, &mut |stage| stages.push(stage))
            .unwrap();
        assert_eq!(key.public_key().public_op(&s).unwrap(), m);
        assert_eq!(s, key.private_op_plain(&m).unwrap());
        assert_eq!(stages, RsaPrivateKey::PRIVATE_OP_STAGES);
    }
}

#[test]
fn blinding_gives_the_same_result_for_different_rngs() {
    let key = key_1024();
    let m = random_below(key.size(), &mut rng(12));
    let first = key.private_op(&mut rng(13), &m).unwrap();
    for seed in 14..20 {
        assert_eq!(key.private_op(&mut rng(seed), &m).unwrap(), first);
    }
    assert_eq!(
        key.private_op(&mut rsatool_rsa::os_rng(), &m).unwrap(),
        first
    );
}

#[test]
fn operations_equal_num_bigint_around_limb_boundaries() {
    // Primes of sizes around multiples of 64 bits, two and three of them: every limb-count
    // combination of the CRT recombination.
    let mut r = rng(21);
    let sizes: [&[u64]; 9] = [
        &[64, 64],
        &[65, 64],
        &[127, 129],
        &[128, 128],
        &[192, 191],
        &[256, 65],
        &[64, 64, 64],
        &[129, 64, 127],
        &[192, 128, 64],
    ];
    for (i, bits) in sizes.iter().enumerate() {
        let primes = loop {
            let primes: Vec<BigUint> = bits.iter().map(|&b| common::prime(b, &mut r)).collect();
            let distinct =
                (0..primes.len()).all(|a| (a + 1..primes.len()).all(|b| primes[a] != primes[b]));
            if distinct {
                break primes;
            }
        };
        let parts = parts_from_primes(&primes, 65537);
        let key = RsaPrivateKey::from_parts_allowing_small(&parts, 64).unwrap();
        check_key(&key, 10, 100 + i as u64);
    }
}
