//! `bignum::mpn::sqr`: its internals.

use bignum::limb::Limb;
use bignum::mpn::mul::{KARATSUBA_MIN_LEN, half};
use bignum::mpn::portable;
use bignum::mpn::sqr::*;
use std::vec;
use std::vec::Vec;

const MAX: Limb = Limb::MAX;

#[test]
fn basecase_small_squares() {
    let mut r = [0; 2];
    sqr_basecase(&mut r, &[MAX]);
    // (2⁶⁴ - 1)² = 2¹²⁸ - 2⁶⁵ + 1.
    assert_eq!(r, [1, MAX - 1]);
    sqr_basecase(&mut r, &[3]);
    assert_eq!(r, [9, 0]);
    let mut r = [7; 4];
    // (2⁶⁴ + 1)² = 2¹²⁸ + 2⁶⁵ + 1.
    sqr_basecase(&mut r, &[1, 1]);
    assert_eq!(r, [1, 2, 1, 0]);
    // (2¹²⁸ - 1)² = 2²⁵⁶ - 2¹²⁹ + 1.
    sqr_basecase(&mut r, &[MAX, MAX]);
    assert_eq!(r, [1, 0, MAX - 1, MAX]);
    // (2¹²⁷)² = 2²⁵⁴.
    sqr_basecase(&mut r, &[0, 1 << 63]);
    assert_eq!(r, [0, 0, 0, 1 << 62]);
}

#[test]
fn portable_triangle_and_diagonal_square_like_num_bigint() {
    // The portable path (four-row passes from 8 limbs up, then rows) whatever back end
    // the process chose: every length up to 70 covers each count of trailing rows.
    use num_bigint::BigUint;
    let big = |x: &[Limb]| {
        BigUint::from_bytes_le(&x.iter().flat_map(|l| l.to_le_bytes()).collect::<Vec<u8>>())
    };
    let mut seed: Limb = 0x5EED_0002;
    for n in (1..=70).chain([100]) {
        let random: Vec<Limb> = (0..n)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            })
            .collect();
        let mut top1 = random.clone();
        top1[n - 1] = 1;
        for a in [random, top1, vec![MAX; n]] {
            let mut r = vec![7; 2 * n];
            portable::sqr_basecase(&mut r, &a);
            assert_eq!(big(&r), big(&a) * big(&a), "n = {n}, a = {a:x?}");
        }
    }
}

#[test]
fn squares_of_all_ones_match_the_closed_form() {
    // (Bⁿ - 1)² = B²ⁿ - 2·Bⁿ + 1: low half 1, 0, …, 0; high half MAX - 1, MAX, …, MAX.
    for n in [1, 2, 3, KARATSUBA_MIN_LEN, 9, 31, 32, 33, 64, 65, 127, 200] {
        let mut want = vec![0; 2 * n];
        want[0] = 1;
        want[n] = MAX - 1;
        want[n + 1..].fill(MAX);
        let a = vec![MAX; n];
        let mut r = vec![0; 2 * n];
        sqr_basecase(&mut r, &a);
        assert_eq!(r, want, "basecase n = {n}");
        r.fill(0);
        sqr(&mut r, &a);
        assert_eq!(r, want, "sqr n = {n}");
        if n >= KARATSUBA_MIN_LEN {
            r.fill(0);
            let mut scratch = vec![0; 4 * half(n) + 1 + sqr_scratch_len(half(n))];
            karatsuba_sqr(&mut r, &a, &mut scratch);
            assert_eq!(r, want, "karatsuba n = {n}");
        }
    }
}
