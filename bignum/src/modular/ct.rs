//! Constant-time helpers on secret limb vectors: masked copies, swaps, conditional add, subtract
//! and negate, comparisons folded into 0/1 limbs.
//!
//! # Constant time
//!
//! Everything here runs in time that depends on slice lengths only; a condition is a mask
//! (all-ones or zero, from [`limb::mask`]), never a `bool`.

use subtle::Choice;

use crate::limb::{self, Limb};
use crate::mpn;

/// The mask (all-ones or zero) of a [`Choice`].
#[inline(always)]
pub(crate) fn mask_of(c: Choice) -> Limb {
    limb::mask(Limb::from(c.unwrap_u8()))
}

/// The [`Choice`] of a 0/1 limb.
#[inline(always)]
#[allow(clippy::cast_possible_truncation)] // `bit` is 0 or 1
pub(crate) fn choice_of(bit: Limb) -> Choice {
    Choice::from((bit & 1) as u8)
}

/// r = a where `m` is all-ones; r unchanged where `m` is zero. Equal lengths.
#[inline]
pub fn cnd_copy(m: Limb, r: &mut [Limb], a: &[Limb]) {
    invariant!(r.len() == a.len());
    for (r, &a) in r.iter_mut().zip(a) {
        *r = limb::select(m, a, *r);
    }
}

/// Swaps `a` and `b` where `m` is all-ones. Equal lengths.
#[inline]
pub(crate) fn cnd_swap(m: Limb, a: &mut [Limb], b: &mut [Limb]) {
    invariant!(a.len() == b.len());
    for (a, b) in a.iter_mut().zip(b.iter_mut()) {
        let t = (*a ^ *b) & m;
        *a ^= t;
        *b ^= t;
    }
}

/// r += a & m; returns the carry (0 or 1). Equal lengths.
#[inline]
pub fn cnd_add_assign(m: Limb, r: &mut [Limb], a: &[Limb]) -> Limb {
    invariant!(r.len() == a.len());
    let mut c = 0;
    for (r, &a) in r.iter_mut().zip(a) {
        (*r, c) = limb::adc(*r, a & m, c);
    }
    c
}

/// r -= a & m; returns the borrow (0 or 1). Equal lengths. ([`mpn::cnd_sub_assign_n`], the
/// one implementation.)
#[inline]
pub(crate) fn cnd_sub_assign(m: Limb, r: &mut [Limb], a: &[Limb]) -> Limb {
    mpn::cnd_sub_assign_n(m, r, a)
}

/// r = -r mod 2^(64·len) where `m` is all-ones (two's complement: flip, then add one).
#[inline]
pub fn cnd_neg_assign(m: Limb, r: &mut [Limb]) {
    let mut c = m & 1;
    for r in r.iter_mut() {
        (*r, c) = limb::adc(*r ^ m, c, 0);
    }
}

/// r >>= 1 where `m` is all-ones; the bit shifted out is dropped.
#[inline]
pub fn cnd_rshift1(m: Limb, r: &mut [Limb]) {
    let n = r.len();
    for i in 0..n {
        let hi = if i + 1 < n { r[i + 1] << 63 } else { 0 };
        r[i] = limb::select(m, (r[i] >> 1) | hi, r[i]);
    }
}

/// r <<= 1 where `m` is all-ones; returns the bit shifted out (0 where `m` is zero).
#[inline]
pub fn cnd_lshift1(m: Limb, r: &mut [Limb]) -> Limb {
    let mut out = 0;
    for r in r.iter_mut() {
        let v = *r;
        *r = limb::select(m, (v << 1) | out, v);
        out = v >> 63;
    }
    out & m & 1
}

/// 1 if every limb of `a` is zero, else 0.
#[inline]
pub(crate) fn is_zero(a: &[Limb]) -> Limb {
    limb::is_zero(a.iter().fold(0, |acc, &x| acc | x))
}

/// 1 if `a` < `b` (equal lengths), else 0: the borrow of a - b, computed without storing it.
#[inline]
pub fn lt(a: &[Limb], b: &[Limb]) -> Limb {
    invariant!(a.len() == b.len());
    let mut c = 0;
    for (&a, &b) in a.iter().zip(b) {
        c = limb::sbb(a, b, c).1;
    }
    c
}

/// r = r - m if r ≥ m or `hi` is 1 (r then stands for hi·2^(64·len) + r), else r unchanged.
///
/// With r + hi·2^(64·len) < 2m on entry, r < m on exit.
#[inline]
pub(crate) fn reduce_once(r: &mut [Limb], hi: Limb, m: &[Limb]) {
    let borrow = lt(r, m);
    let take = limb::mask(hi | (borrow ^ 1));
    cnd_sub_assign(take, r, m);
}

/// The bit length of `a` (0 for zero), without a branch on its limbs.
#[allow(clippy::cast_possible_truncation)] // a limb index times 64 fits a Limb
pub fn bit_len(a: &[Limb]) -> Limb {
    let mut bits: Limb = 0;
    for (i, &x) in a.iter().enumerate() {
        let here = ((i as Limb + 1) * 64).wrapping_sub(Limb::from(x.leading_zeros()));
        bits = limb::select(limb::mask(limb::is_zero(x) ^ 1), here, bits);
    }
    bits
}
