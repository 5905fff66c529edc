//! `bignum::prime::generate`: its internals.

use bignum::limb::Limb;
use bignum::prime::generate::*;
use bignum::prime::small::{self, COUNT, SMALL_PRIMES};
use std::vec::Vec;

#[test]
fn branch_free_gcd_matches_euclid() {
    fn euclid(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { euclid(b, a % b) }
    }
    let samples = [
        0u64,
        1,
        2,
        3,
        6,
        65536,
        65537,
        1 << 63,
        u64::MAX - 1,
        0x1234_5678_9abc_def0,
    ];
    for &a in &samples {
        for &b in &[1u64, 3, 5, 15, 65537, 3 * 65537, u64::MAX, (1 << 61) - 1] {
            assert_eq!(gcd_odd(a, b), euclid(a, b), "gcd({a}, {b})");
        }
    }
}

#[test]
fn residue_steps_and_remainders_match_plain_arithmetic() {
    let x: [Limb; 2] = [0xFFFF_FFFF_FFFF_FFF1, 0x8000_0000_0000_0001];
    let v = (u128::from(x[1]) << 64) | u128::from(x[0]);
    for e in [3u64, 65537, u64::MAX] {
        assert_eq!(u128::from(rem_u64(&x, e).0), v % u128::from(e));
        assert_eq!(add_two_mod(e - 1, e), 1 % e);
        assert_eq!(sub_one_mod(0, e), e - 1);
    }
    let mut residues: Vec<u16> = (0..COUNT).map(|i| small::residue(&x, i) as u16).collect();
    let expect_zero = SMALL_PRIMES.iter().any(|&q| v % u128::from(q) == 0);
    assert_eq!(step_residues(&mut residues) == 1, expect_zero);
    for (i, &q) in SMALL_PRIMES.iter().enumerate() {
        assert_eq!(u128::from(residues[i]), (v + 2) % u128::from(q));
    }
}

#[test]
fn overflow_is_seen_at_every_alignment() {
    assert_eq!(bit_overflow(&[0b111], 3), 0);
    assert_eq!(bit_overflow(&[0b1000], 3), 1);
    assert_eq!(bit_overflow(&[5, 1 << 63], 128), 0);
    assert_eq!(bit_overflow(&[5, 0], 128), 1);
}
