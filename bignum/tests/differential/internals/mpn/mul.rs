//! `bignum::mpn::mul`: its internals.

use bignum::limb::Limb;
use bignum::mpn::mul::*;
use bignum::mpn::tune::KARATSUBA_MUL_THRESHOLD;
use bignum::mpn::{self};
use std::vec;
use std::vec::Vec;

const MAX: Limb = Limb::MAX;

#[test]
fn basecase_squares_all_ones() {
    // (2⁶⁴ - 1)² = 2¹²⁸ - 2⁶⁵ + 1.
    let mut r = [0; 2];
    mul_basecase(&mut r, &[MAX], &[MAX]);
    assert_eq!(r, [1, MAX - 1]);
    // (2¹²⁸ - 1)² = 2²⁵⁶ - 2¹²⁹ + 1.
    let mut r = [0; 4];
    mul_basecase(&mut r, &[MAX, MAX], &[MAX, MAX]);
    assert_eq!(r, [1, 0, MAX - 1, MAX]);
    // (2¹²⁸ - 1)(2⁶⁴ + 1) = 2¹⁹² + 2¹²⁸ - 2⁶⁴ - 1.
    let mut r = [0; 4];
    mul_basecase(&mut r, &[MAX, MAX], &[1, 1]);
    assert_eq!(r, [MAX, MAX - 1, 0, 1]);
}

/// (Bⁿ - 1)² = B²ⁿ - 2·Bⁿ + 1: low half 1, 0, …, 0; high half Bⁿ - 2 = MAX - 1, MAX, …, MAX.
fn all_ones_square(n: usize) -> Vec<Limb> {
    let mut want = vec![0; 2 * n];
    want[0] = 1;
    want[n] = MAX - 1;
    want[n + 1..].fill(MAX);
    want
}

#[test]
fn karatsuba_on_all_ones_matches_the_closed_form() {
    for n in [KARATSUBA_MIN_LEN, 5, 7, 33, 64, 65, 127] {
        let a = vec![MAX; n];
        let mut r = vec![0; 2 * n];
        let mut scratch = vec![0; 4 * half(n) + 1 + karatsuba_scratch_len(half(n))];
        karatsuba(&mut r, &a, &a, &mut scratch);
        assert_eq!(r, all_ones_square(n), "n = {n}");
        let mut r2 = vec![0; 2 * n];
        mul(&mut r2, &a, &a);
        assert_eq!(r2, all_ones_square(n), "n = {n}");
    }
}

#[test]
fn unbalanced_all_ones() {
    // (B^an - 1)(B^bn - 1) = B^(an+bn) - B^an - B^bn + 1.
    let bn = KARATSUBA_MUL_THRESHOLD + 1;
    for an in [bn + 1, 2 * bn, 3 * bn - 1] {
        let mut want = vec![0; an + bn];
        // B^(an+bn) - B^an is MAX from limb an up; subtracting B^bn borrows from limb bn
        // through limb an (MAX…MAX, then MAX - 1); adding 1 sets limb 0.
        want[0] = 1;
        want[bn..an].fill(MAX);
        want[an..].fill(MAX);
        want[an] = MAX - 1;
        let mut r = vec![0; an + bn];
        mul(&mut r, &vec![MAX; an], &vec![MAX; bn]);
        assert_eq!(r, want, "an = {an}, bn = {bn}");
    }
}

#[test]
fn abs_diff_both_signs() {
    let k = &mpn::PORTABLE;
    let mut d = [0; 2];
    assert_eq!(abs_diff(k, &mut d, &[5, 0], &[7]), 1);
    assert_eq!(d, [2, 0]);
    assert_eq!(abs_diff(k, &mut d, &[0, 1], &[1]), 0);
    assert_eq!(d, [MAX, 0]);
    assert_eq!(abs_diff(k, &mut d, &[3, 0], &[1, 1]), 1);
    assert_eq!(d, [MAX - 1, 0]);
}
