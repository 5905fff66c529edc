//! `bignum::mpn`: its internals.

mod div;
mod ifma_model;
mod mul;
mod portable;
mod sqr;
#[cfg(target_arch = "x86_64")]
mod x86_64;

use bignum::limb::Limb;
use bignum::mpn::*;
use core::cmp::Ordering;

/// Hand-computed values: nine bytes are a full low limb and one byte above; a short
/// output drops the high bytes, a long one is zero-padded.
#[test]
fn byte_conversions_match_hand_computed_values() {
    let bytes = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    let mut r = [7; 3];
    from_be_bytes(&mut r, &bytes);
    assert_eq!(r, [0x0203_0405_0607_0809, 1, 0]);
    let mut out = [0xAA; 12];
    to_be_bytes(&mut out, &r);
    assert_eq!(out, [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    let mut short = [0xAA; 3];
    to_be_bytes(&mut short, &r);
    assert_eq!(short, [7, 8, 9]);
    from_be_bytes(&mut r, &[]);
    assert_eq!(r, [0; 3]);
}

#[test]
fn carries_ripple_through_the_whole_length() {
    let a = [Limb::MAX; 5];
    let mut r = [0; 5];
    assert_eq!(add_1(&mut r, &a, 1), 1);
    assert_eq!(r, [0; 5]);
    assert_eq!(sub_1(&mut r, &[0; 5], 1), 1);
    assert_eq!(r, [Limb::MAX; 5]);
    let mut s = a;
    assert_eq!(add_assign_n(&mut s, &[1, 0, 0, 0, 0]), 1);
    assert_eq!(s, [0; 5]);
    assert_eq!(sub_assign_n(&mut s, &[1, 0, 0, 0, 0]), 1);
    assert_eq!(s, a);
}

#[test]
fn shifts_move_bits_across_limbs() {
    let mut r = [0; 2];
    assert_eq!(lshift(&mut r, &[1 << 63 | 1, 1 << 63], 1), 1);
    assert_eq!(r, [2, 1]);
    assert_eq!(rshift(&mut r, &[1, 3], 1), 1 << 63);
    assert_eq!(r, [1 << 63, 1]);
    assert_eq!(lshift(&mut r, &[5, 6], 0), 0);
    assert_eq!(r, [5, 6]);
}

#[test]
fn comparison_and_normalised_length() {
    assert_eq!(cmp_vartime(&[1, 2], &[2, 1]), Ordering::Greater);
    assert_eq!(cmp_vartime(&[], &[]), Ordering::Equal);
    assert_eq!(normalized_len_vartime(&[1, 0, 0]), 1);
    assert_eq!(normalized_len_vartime(&[0, 0]), 0);
}
