//! Squaring: a dedicated schoolbook square below [`KARATSUBA_SQR_THRESHOLD`] limbs, Karatsuba
//! square above.
//!
//! Schoolbook (the portable one in `portable.rs`, the ADX one in `x86_64/sqr.rs`): with
//! a = Σ aᵢ·Bⁱ (B = 2⁶⁴), a² = 2·Σ_{i<j} aᵢaⱼ·Bⁱ⁺ʲ + Σ aᵢ²·B²ⁱ. The off-diagonal
//! products are computed once, as rows of `addmul_1` over the upper triangle (n(n-1)/2 limb
//! products instead of n²), then doubled by a one-bit shift fused with adding the diagonal
//! squares.
//!
//! Karatsuba: with h = ⌈n/2⌉ and a = a₀ + a₁·Bʰ,
//! a² = z₀ + (z₀ + z₂ - (a₀ - a₁)²)·Bʰ + z₂·B²ʰ, z₀ = a₀², z₂ = a₁². The middle term is always
//! a subtraction, and |a₀ - a₁| is formed by a subtraction and a masked negation, so nothing
//! branches on the values.

use super::mul::{KARATSUBA_MIN_LEN, abs_diff, add_middle, add_or_sub, half, middle_sum};
use super::tune::KARATSUBA_SQR_THRESHOLD;
use crate::limb::Limb;
use crate::mpn;
use alloc::vec;

/// r = a², `r.len() == 2·a.len()`, `a` non-empty, by the back end's schoolbook square.
pub fn sqr_basecase(r: &mut [Limb], a: &[Limb]) {
    invariant!(!a.is_empty() && r.len() == 2 * a.len());
    (mpn::kernels().sqr_basecase)(r, a);
}

/// Scratch limbs for `sqr` of n limbs (0 below the threshold).
pub const fn sqr_scratch_len(n: usize) -> usize {
    if n < KARATSUBA_SQR_THRESHOLD {
        0
    } else {
        // |a₀ - a₁| (h, later reused with h + 1 more limbs for the middle sum), its square (2h),
        // then the scratch of the largest sub-square (h limbs).
        let h = half(n);
        4 * h + 1 + sqr_scratch_len(h)
    }
}

/// r = a² with `scratch.len() ≥ sqr_scratch_len(a.len())`.
pub fn sqr_with_scratch(r: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
    invariant!(!a.is_empty() && r.len() == 2 * a.len());
    if a.len() < KARATSUBA_SQR_THRESHOLD {
        sqr_basecase(r, a);
    } else {
        karatsuba_sqr(r, a, scratch);
    }
}

/// r = a², `r.len() == 2·a.len()`. Allocates (zeroized) scratch only at and above
/// [`KARATSUBA_SQR_THRESHOLD`] limbs.
pub fn sqr(r: &mut [Limb], a: &[Limb]) {
    let len = sqr_scratch_len(a.len());
    if len == 0 {
        sqr_basecase(r, a);
    } else {
        let mut scratch = zeroize::Zeroizing::new(vec![0; len]);
        sqr_with_scratch(r, a, &mut scratch);
    }
}

/// One Karatsuba squaring step on n limbs (n ≥ 4), the three sub-squares by
/// [`sqr_with_scratch`].
pub fn karatsuba_sqr(r: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
    let n = a.len();
    invariant!(n >= KARATSUBA_MIN_LEN && r.len() == 2 * n);
    let k = mpn::kernels();
    let h = half(n);
    let (a0, a1) = a.split_at(h);

    // Scratch layout: [da: h][h + 1 spare][p: 2h][sub-squares' scratch]; the middle sum t
    // (2h + 1 limbs) later overwrites da and the spare limbs.
    let (t, rest) = scratch.split_at_mut(2 * h + 1);
    let (p, rest) = rest.split_at_mut(2 * h);
    // The sign of a₀ - a₁ does not matter: the square is positive either way.
    abs_diff(k, &mut t[..h], a0, a1);
    sqr_with_scratch(p, &t[..h], rest);
    let (z0, z2) = r.split_at_mut(2 * h);
    sqr_with_scratch(z0, a0, rest);
    sqr_with_scratch(z2, a1, rest);
    middle_sum(k, t, z0, z2);
    add_or_sub(t, p, Limb::MAX);
    add_middle(r, t, h);
}

/// r = a² by one Karatsuba step at the top whatever the length, the sub-squares as `sqr` does
/// them: for tuning [`KARATSUBA_SQR_THRESHOLD`] and for tests. Allocates zeroized scratch.
///
/// # Constant time
/// Time and memory accesses depend on the length only.
///
/// # Panics
/// Unless `a.len() ≥ 4` and `r.len() == 2·a.len()`.
pub fn sqr_karatsuba(r: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    assert!(n >= KARATSUBA_MIN_LEN, "sqr_karatsuba: need a.len() >= 4");
    assert_eq!(r.len(), 2 * n, "sqr_karatsuba: r must hold 2·a.len() limbs");
    let h = half(n);
    let mut scratch = zeroize::Zeroizing::new(vec![0; 4 * h + 1 + sqr_scratch_len(h)]);
    karatsuba_sqr(r, a, &mut scratch);
}
