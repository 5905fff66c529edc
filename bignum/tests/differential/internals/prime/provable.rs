//! `bignum::prime::provable`: its internals.

use bignum::Nat;
use bignum::prime::provable::*;
use std::vec::Vec;

#[test]
fn seed_plus_carries_and_wraps() {
    assert_eq!(seed_plus(&[0x00, 0xff], 1), vec![0x01, 0x00]);
    assert_eq!(seed_plus(&[0xff, 0xff], 2), vec![0x00, 0x01]);
    assert_eq!(seed_plus(&[0x12, 0x34], 0x0102), vec![0x13, 0x36]);
}

#[test]
fn sqrt2_bound_is_the_floor() {
    // ⌊√2·2^3⌋ = ⌊11.31⌋ = 11, ⌊√2·2^31⌋ = 3037000499 (Python: math.isqrt(2**63)).
    assert_eq!(sqrt2_times_pow2(4), Nat::from(11u64));
    assert_eq!(sqrt2_times_pow2(32), Nat::from(3_037_000_499u64));
}

/// A toy hash for the structural tests: 4 bytes of FNV-1a (the constructions only need a
/// deterministic function; the ACVP tests in `testvectors` check them with NIST's values).
fn fnv(data: &[u8]) -> Vec<u8> {
    let mut h: u32 = 0x811c_9dc5;
    for &b in data {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h.to_be_bytes().to_vec()
}

#[test]
fn st_primes_have_their_length_and_are_prime() {
    for length in [2, 5, 16, 32, 33, 64, 100, 257] {
        let st = st_random_prime(length, b"seed", &fnv).unwrap();
        assert_eq!(st.prime.bits(), length, "{length}");
        assert!(
            bignum::prime::is_probable_prime(st.prime.as_limbs()),
            "{length}"
        );
        assert_eq!(st.seed.len(), 4);
    }
}

#[test]
fn provable_primes_meet_their_conditions() {
    let e = Nat::from(65537u64);
    let pp = provable_prime(256, 30, 40, b"another seed", &e, &fnv).unwrap();
    assert_eq!(pp.p.bits(), 256);
    assert!(pp.p >= sqrt2_times_pow2(256));
    assert!(bignum::prime::is_probable_prime(pp.p.as_limbs()));
    assert_eq!(pp.p1.bits(), 30);
    assert_eq!(pp.p2.bits(), 40);
    assert!((&(&pp.p - 1u64) % &pp.p1).is_zero(), "p1 | p − 1");
    assert!((&(&pp.p + 1u64) % &pp.p2).is_zero(), "p2 | p + 1");
    assert!((&pp.p - 1u64).gcd(&e).is_one());
}

#[test]
fn auxiliary_probable_primes_meet_their_congruences() {
    let is_prime = |n: &Nat| bignum::prime::is_probable_prime(n.as_limbs());
    let r1 = Nat::from(1_000_003u64);
    let r2 = Nat::from(999_983u64);
    let x = sqrt2_times_pow2(128) + 12345u64;
    let e = Nat::from(65537u64);
    let p = probable_prime_from_auxiliary(&r1, &r2, &x, 256, &e, &is_prime).unwrap();
    assert!(is_prime(&p) && p >= x && p.bits() == 128);
    assert!((&(&p - 1u64) % &(&r1 << 1)).is_zero());
    assert!((&(&p + 1u64) % &r2).is_zero());
    let q = first_probable_prime_from(&Nat::from(1_000_000u64), 100, &is_prime).unwrap();
    assert_eq!(q, Nat::from(1_000_003u64));
}
