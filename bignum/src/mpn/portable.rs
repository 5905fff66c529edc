//! Plain-Rust kernels: the reference every other back end must equal, limb for limb.
//!
//! Every function here runs in time that depends only on the slice lengths.
//! Length preconditions are checked by the callers in [`crate::mpn`]; here they are
//! `debug_assert!`s, and a violation can at worst give a wrong result, never unsafety.

use crate::limb::{self, Limb};

/// r = a + b, returns the carry (0 or 1). Equal lengths.
pub fn add_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    debug_assert!(r.len() == a.len() && a.len() == b.len());
    let mut c = 0;
    for ((r, &a), &b) in r.iter_mut().zip(a).zip(b) {
        (*r, c) = limb::adc(a, b, c);
    }
    c
}

/// r = a - b, returns the borrow (0 or 1). Equal lengths.
pub fn sub_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    debug_assert!(r.len() == a.len() && a.len() == b.len());
    let mut c = 0;
    for ((r, &a), &b) in r.iter_mut().zip(a).zip(b) {
        (*r, c) = limb::sbb(a, b, c);
    }
    c
}

/// r = a · b, returns the high limb. Equal lengths of `r` and `a`.
pub fn mul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    debug_assert!(r.len() == a.len());
    let mut c = 0;
    for (r, &a) in r.iter_mut().zip(a) {
        (*r, c) = limb::mac(0, a, b, c);
    }
    c
}

/// r += a · b, returns the high limb. Equal lengths of `r` and `a`.
pub fn addmul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    debug_assert!(r.len() == a.len());
    let mut c = 0;
    for (r, &a) in r.iter_mut().zip(a) {
        (*r, c) = limb::mac(*r, a, b, c);
    }
    c
}

/// r -= a · b, returns the high limb of what could not be subtracted (the borrow, up to `b`).
pub fn submul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    debug_assert!(r.len() == a.len());
    let mut c = 0;
    for (r, &a) in r.iter_mut().zip(a) {
        let (lo, hi) = limb::mac(0, a, b, c);
        let (d, borrow) = limb::sbb(*r, lo, 0);
        *r = d;
        // hi ≤ 2⁶⁴ - 2 because a·b + c < 2¹²⁸ - 2⁶⁴, so adding the borrow cannot wrap.
        c = hi + borrow;
    }
    c
}
