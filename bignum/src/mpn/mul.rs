//! Multiplication: schoolbook rows below [`KARATSUBA_MUL_THRESHOLD`] limbs, Karatsuba above.
//!
//! Karatsuba (A. Karatsuba and Yu. Ofman, "Multiplication of multidigit numbers on automata",
//! 1962). With B = 2⁶⁴, h = ⌈n/2⌉, a = a₀ + a₁·Bʰ and b = b₀ + b₁·Bʰ:
//!
//!   a·b = z₀ + (z₀ + z₂ - (a₀ - a₁)(b₀ - b₁))·Bʰ + z₂·B²ʰ,  z₀ = a₀b₀, z₂ = a₁b₁.
//!
//! The operands are secrets (Montgomery and RSA multiply with these), so the sign of
//! (a₀ - a₁)(b₀ - b₁) is never branched on: |a₀ - a₁| comes from a subtraction followed by a
//! negation under the borrow's mask, the two signs are combined into a mask, and the middle
//! product is added or subtracted by XOR with that mask. Time and memory accesses depend on the
//! lengths only.
//!
//! Scratch: `karatsuba_scratch_len(n)` limbs for an n × n product, none below the threshold.

use super::tune::{KARATSUBA_MUL_THRESHOLD, KARATSUBA_SQR_THRESHOLD};
use crate::limb::{self, Limb};
use crate::mpn::{self, Kernels};
use alloc::vec;

/// r = a · b by the back end's schoolbook product (portable: four rows per pass by columns;
/// ADX: every row in one asm loop). `r.len() == a.len() + b.len()`, `b` non-empty.
pub fn mul_basecase(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    invariant!(!b.is_empty() && r.len() == a.len() + b.len());
    (mpn::kernels().mul_basecase)(r, a, b);
}

/// The low half's length when Karatsuba splits n limbs: ⌈n/2⌉.
#[inline]
pub const fn half(n: usize) -> usize {
    n - (n >> 1)
}

/// Scratch limbs for an n × n product through [`mul_n`] (0 below the threshold).
pub const fn karatsuba_scratch_len(n: usize) -> usize {
    if n < KARATSUBA_MUL_THRESHOLD {
        0
    } else {
        // |a₀ - a₁| and |b₀ - b₁| (h each, later reused with one more limb for the middle sum),
        // their product (2h), then the scratch of the largest sub-product (h × h).
        let h = half(n);
        4 * h + 1 + karatsuba_scratch_len(h)
    }
}

/// Scratch limbs for `mul(r, a, b)` with `a.len() = an ≥ b.len() = bn ≥ 1`.
// The `%` is on lengths, which are public.
#[allow(clippy::integer_division_remainder_used)]
pub const fn mul_scratch_len(an: usize, bn: usize) -> usize {
    if bn < KARATSUBA_MUL_THRESHOLD {
        0
    } else if an == bn {
        karatsuba_scratch_len(bn)
    } else {
        // A bn × bn product of each bn-limb chunk of a into 2·bn limbs, then the scratch of that
        // product, or of the last, shorter chunk's product (bn × rem).
        let rem = an % bn;
        let chunk = karatsuba_scratch_len(bn);
        let last = if rem == 0 {
            0
        } else {
            mul_scratch_len(bn, rem)
        };
        2 * bn + if chunk > last { chunk } else { last }
    }
}

/// r = a · b for `a.len() ≥ b.len() ≥ 1`, `r.len() == a.len() + b.len()`, with
/// `scratch.len() ≥ mul_scratch_len(a.len(), b.len())`.
pub fn mul_with_scratch(r: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
    let (an, bn) = (a.len(), b.len());
    invariant!(an >= bn && bn >= 1 && r.len() == an + bn);
    if bn < KARATSUBA_MUL_THRESHOLD {
        mul_basecase(r, a, b);
    } else if an == bn {
        mul_n(r, a, b, scratch);
    } else {
        mul_unbalanced(r, a, b, scratch);
    }
}

/// r = a · b, any lengths with `a.len() ≥ b.len() ≥ 1`. Allocates (zeroized) scratch only when
/// `b` is at least [`KARATSUBA_MUL_THRESHOLD`] limbs.
pub fn mul(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let len = mul_scratch_len(a.len(), b.len());
    if len == 0 {
        mul_basecase(r, a, b);
    } else {
        let mut scratch = zeroize::Zeroizing::new(vec![0; len]);
        mul_with_scratch(r, a, b, &mut scratch);
    }
}

/// r = a · b with `a.len() > b.len() ≥ KARATSUBA_MUL_THRESHOLD`: one `b.len()`-limb chunk of a
/// at a time, each product added into place.
fn mul_unbalanced(r: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
    let m = b.len();
    let (t, rest) = scratch.split_at_mut(2 * m);
    let mut chunks = a.chunks(m);
    // The first chunk's product goes straight into place.
    if let Some(a0) = chunks.next() {
        mul_n(&mut r[..2 * m], a0, b, rest);
    }
    let mut off = m;
    for chunk in chunks {
        let len = chunk.len();
        // r[off..off + m] holds the previous product's high half; r[off + m..] is still unwritten.
        let t = &mut t[..m + len];
        if len == m {
            mul_n(t, chunk, b, rest);
        } else {
            mul_with_scratch(t, b, chunk, rest);
        }
        let (lo, hi) = r[off..off + m + len].split_at_mut(m);
        hi.copy_from_slice(&t[m..]);
        let c = mpn::add_assign_n(lo, &t[..m]);
        // a·b < B^(an+bn), so this carry is absorbed before the end of r.
        mpn::add_assign_1(hi, c);
        off += len;
    }
}

/// r = a · b for equal lengths n, Karatsuba at and above the threshold.
pub(super) fn mul_n(r: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
    invariant!(a.len() == b.len() && r.len() == 2 * a.len());
    if a.len() < KARATSUBA_MUL_THRESHOLD {
        mul_basecase(r, a, b);
    } else {
        karatsuba(r, a, b, scratch);
    }
}

/// Needed by [`karatsuba`] and the Karatsuba square: the middle sum must fit inside r
/// (3h + 1 ≤ 2n).
pub const KARATSUBA_MIN_LEN: usize = 4;

// Both thresholds leave the Karatsuba steps at least that many limbs.
const _: () = assert!(
    KARATSUBA_MUL_THRESHOLD >= KARATSUBA_MIN_LEN && KARATSUBA_SQR_THRESHOLD >= KARATSUBA_MIN_LEN
);

/// One Karatsuba step on n × n limbs (n ≥ 4), the three sub-products by [`mul_n`].
pub fn karatsuba(r: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
    let n = a.len();
    invariant!(n >= KARATSUBA_MIN_LEN && b.len() == n && r.len() == 2 * n);
    let k = mpn::kernels();
    let h = half(n);
    let (a0, a1) = a.split_at(h);
    let (b0, b1) = b.split_at(h);

    // Scratch layout: [da: h][db: h][1][p: 2h][sub-products' scratch]; the middle sum t
    // (2h + 1 limbs) later overwrites da, db and the spare limb.
    let (diffs, rest) = scratch.split_at_mut(2 * h + 1);
    let (p, rest) = rest.split_at_mut(2 * h);
    {
        let (da, db) = diffs[..2 * h].split_at_mut(h);
        let neg_a = abs_diff(k, da, a0, a1);
        let neg_b = abs_diff(k, db, b0, b1);
        mul_n(p, da, db, rest);
        // (a₀ - a₁)(b₀ - b₁) = ±p, negative when exactly one difference was.
        let (z0, z2) = r.split_at_mut(2 * h);
        mul_n(z0, a0, b0, rest);
        mul_n(z2, a1, b1, rest);
        let t = &mut diffs[..];
        middle_sum(k, t, z0, z2);
        // t = z₀ + z₂ - (a₀ - a₁)(b₀ - b₁): subtract p unless the product was negative.
        add_or_sub(t, p, !limb::mask(neg_a ^ neg_b));
    }
    add_middle(r, &diffs[..], h);
}

/// d = |x - y| for `x.len() = d.len() ≥ y.len()`; returns 1 if x < y, else 0, without a branch
/// on the values.
pub fn abs_diff(k: &Kernels, d: &mut [Limb], x: &[Limb], y: &[Limb]) -> Limb {
    let m = y.len();
    let mut borrow = (k.sub_n)(&mut d[..m], &x[..m], y);
    for (d, &x) in d[m..].iter_mut().zip(&x[m..]) {
        (*d, borrow) = limb::sbb(x, 0, borrow);
    }
    // Negate the two's-complement difference under the borrow's mask: (d ⊕ mask) + borrow.
    let mask = limb::mask(borrow);
    let mut c = borrow;
    for d in d.iter_mut() {
        (*d, c) = limb::adc(*d ^ mask, 0, c);
    }
    borrow
}

/// t = z₀ + z₂ (z₂ zero-extended), `t.len() == z0.len() + 1 ≥ z2.len() + 1`.
pub fn middle_sum(k: &Kernels, t: &mut [Limb], z0: &[Limb], z2: &[Limb]) {
    let m = z2.len();
    let top = z0.len();
    let mut c = (k.add_n)(&mut t[..m], &z0[..m], z2);
    for (t, &z) in t[m..top].iter_mut().zip(&z0[m..]) {
        (*t, c) = limb::adc(z, 0, c);
    }
    t[top] = c;
}

/// t = t - p where `sub` is all-ones, t = t + p where it is zero; `t.len() == p.len() + 1`.
/// The true result must be non-negative and fit t: the arithmetic is mod B^t.len().
pub fn add_or_sub(t: &mut [Limb], p: &[Limb], sub: Limb) {
    let top = p.len();
    // t - p = t + (p ⊕ 1…1) + 1 mod B^(len), with p sign-extended by the mask into the top limb.
    let mut c = sub & 1;
    for (t, &p) in t[..top].iter_mut().zip(p) {
        (*t, c) = limb::adc(*t, p ^ sub, c);
    }
    t[top] = limb::adc(t[top], sub, c).0;
}

/// r += t·Bʰ, where `r` holds z₀ + z₂·B²ʰ and the sum fits r. Runs over the whole of r above h.
pub fn add_middle(r: &mut [Limb], t: &[Limb], h: usize) {
    let (mid, high) = r[h..].split_at_mut(t.len());
    let c = mpn::add_assign_n(mid, t);
    mpn::add_assign_1(high, c);
}

/// r = a · b by one Karatsuba step at the top whatever the length, the sub-products as `mul`
/// does them: for tuning [`KARATSUBA_MUL_THRESHOLD`] and for tests. Allocates zeroized scratch.
///
/// # Constant time
/// Time and memory accesses depend on the lengths only.
///
/// # Panics
/// Unless `a.len() == b.len() ≥ 4` and `r.len() == 2·a.len()`.
pub fn mul_karatsuba(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = a.len();
    assert!(
        b.len() == n && n >= KARATSUBA_MIN_LEN,
        "mul_karatsuba: need a.len() == b.len() >= 4"
    );
    assert_eq!(r.len(), 2 * n, "mul_karatsuba: r must hold 2·a.len() limbs");
    let h = half(n);
    let mut scratch = zeroize::Zeroizing::new(vec![0; 4 * h + 1 + karatsuba_scratch_len(h)]);
    karatsuba(r, a, b, &mut scratch);
}
