//! `bignum::prime::lucas`: its internals.

use bignum::prime::lucas::*;

#[test]
fn jacobi_matches_euler_criterion_for_small_primes() {
    // For a prime p, (a/p) ≡ a^((p−1)/2) mod p.
    for p in [3u64, 5, 7, 11, 13, 101, 65537] {
        for a in -30i64..30 {
            let ar = a.rem_euclid(p as i64) as u64;
            let mut e = 1u128;
            for _ in 0..(p - 1) / 2 {
                e = e * u128::from(ar) % u128::from(p);
            }
            let expect = match e as u64 {
                0 => 0,
                1 => 1,
                _ => -1,
            };
            assert_eq!(jacobi_small(a, &[p]), expect, "({a}/{p})");
        }
    }
}

#[test]
fn perfect_squares_are_recognised() {
    for x in [1u64, 2, 3, 255, 1 << 31, u32::MAX as u64] {
        let sq = u128::from(x) * u128::from(x);
        let limbs = [sq as u64, (sq >> 64) as u64];
        assert!(is_perfect_square_vartime(&limbs), "{x}²");
        let limbs1 = [(sq + 1) as u64, ((sq + 1) >> 64) as u64];
        assert!(!is_perfect_square_vartime(&limbs1), "{x}² + 1");
    }
    // (2⁶⁴ + 1)² = 2¹²⁸ + 2⁶⁵ + 1, three limbs.
    assert!(is_perfect_square_vartime(&[1, 2, 1]));
    assert!(!is_perfect_square_vartime(&[2, 2, 1]));
}

#[test]
fn known_strong_lucas_pseudoprimes_pass_and_small_composites_fail() {
    // The smallest strong Lucas pseudoprimes (OEIS A217255): composite, yet they pass.
    for n in [5459u64, 5777, 10877, 16109, 18971] {
        assert!(is_strong_lucas_probable_prime(&[n]), "{n}");
    }
    for n in [9u64, 15, 21, 25, 561, 1105] {
        assert!(!is_strong_lucas_probable_prime(&[n]), "{n}");
    }
    for p in [5u64, 7, 11, 13, 101, 65537, 2_147_483_647] {
        assert!(is_strong_lucas_probable_prime(&[p]), "{p}");
    }
}
