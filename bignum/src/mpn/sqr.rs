//! Squaring: a dedicated schoolbook square below [`KARATSUBA_SQR_THRESHOLD`] limbs, Karatsuba
//! square above.
//!
//! Schoolbook: with a = Σ aᵢ·Bⁱ (B = 2⁶⁴), a² = 2·Σ_{i<j} aᵢaⱼ·Bⁱ⁺ʲ + Σ aᵢ²·B²ⁱ. The off-diagonal
//! products are computed once, as rows of `addmul_1` over the upper triangle (n(n-1)/2 limb
//! products instead of n²), then doubled by a one-bit shift fused with adding the diagonal
//! squares.
//!
//! Karatsuba: with h = ⌈n/2⌉ and a = a₀ + a₁·Bʰ,
//! a² = z₀ + (z₀ + z₂ - (a₀ - a₁)²)·Bʰ + z₂·B²ʰ, z₀ = a₀², z₂ = a₁². The middle term is always
//! a subtraction, and |a₀ - a₁| is formed by a subtraction and a masked negation, so nothing
//! branches on the values.

use super::mul::{KARATSUBA_MIN_LEN, abs_diff, add_middle, add_or_sub, half, middle_sum};
use super::portable::{self, Column};
use super::tune::KARATSUBA_SQR_THRESHOLD;
use crate::limb::{self, Limb};
use crate::mpn;
use alloc::vec;

/// r = a², `r.len() == 2·a.len()`, `a` non-empty, by the back end's schoolbook square.
pub fn sqr_basecase(r: &mut [Limb], a: &[Limb]) {
    debug_assert!(!a.is_empty() && r.len() == 2 * a.len());
    (mpn::kernels().sqr_basecase)(r, a);
}

/// The portable back end's schoolbook square (its `Kernels::sqr_basecase`): n(n-1)/2 + n limb
/// products, `r.len() == 2·a.len()`, `a` non-empty.
pub(super) fn sqr_basecase_portable(r: &mut [Limb], a: &[Limb]) {
    debug_assert!(!a.is_empty() && r.len() == 2 * a.len());
    // Off-diagonal triangle Σ_{i<j} aᵢaⱼ·Bⁱ⁺ʲ: row i covers limbs 2i+1 ..= n+i.
    triangle(r, a);
    // r = 2·r + Σ aᵢ²·B²ⁱ in one pass. The triangle is below a²/2 < B²ⁿ/2, so the doubling
    // loses no bit, and the total is a² < B²ⁿ, so the final carry is zero. (Not asserted: a
    // debug_assert! on these secret-derived bits would be a branch valgrind rightly flags.)
    diag_addlsh1(r, a);
}

/// The off-diagonal triangle Σ_{i<j} aᵢaⱼ·Bⁱ⁺ʲ of [`sqr_basecase_portable`] into r (all 2n
/// limbs written): row i covers limbs 2i+1 ..= n+i.
fn triangle(r: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    r[0] = 0;
    r[2 * n - 1] = 0;
    // Four rows at a time while a row has at least 7 limbs (see `triangle_band`), then the
    // remaining rows one by one.
    let mut i = 0;
    if n >= TRIANGLE_BAND_MIN_LEN {
        while n - i >= TRIANGLE_BAND_MIN_LEN {
            triangle_band(&mut r[2 * i..n + i + 4], &a[i..], i == 0);
            i += 4;
        }
    } else if n > 1 {
        r[n] = portable::mul_1(&mut r[1..n], &a[1..], a[0]);
        i = 1;
    }
    for i in i..n.saturating_sub(2) {
        r[n + i] = portable::addmul_1(&mut r[2 * i + 1..n + i], &a[i + 1..], a[i]);
    }
    if n > 2 {
        // The last row is one product: done here rather than through a call.
        (r[2 * n - 3], r[2 * n - 2]) = limb::mac(r[2 * n - 3], a[n - 1], a[n - 2], 0);
    }
}

/// The fewest limbs, n - i, for which [`sqr_basecase`] does rows i .. i+3 of the triangle in
/// one [`triangle_band`] (whose first columns need y₀ .. y₆).
const TRIANGLE_BAND_MIN_LEN: usize = 8;

/// Rows i .. i+3 of the square's triangle in one pass by columns, as the portable
/// `mul_basecase` does (see `portable`'s module docs). With y = a[i..] (L ≥ 8 limbs) and
/// xₛ = yₛ, row s adds xₛ·y_k for k > s at limb 2i+s+k, so column j of `w` (limb 2i+j) sums
/// xₛ·y_{j-s} over the s with s < j - s ≤ L - 1. Limbs 1 .. L-1 of `w` hold the earlier rows'
/// sum (none when `fresh`, the first pass), L .. L+3 are written fresh: the rows so far sum to
/// less than B^(n+i+4), so the last column leaves no carry.
fn triangle_band(w: &mut [Limb], y: &[Limb], fresh: bool) {
    let l = y.len();
    debug_assert!(l >= TRIANGLE_BAND_MIN_LEN && w.len() == l + 4);
    let (x0, x1, x2, x3) = (y[0], y[1], y[2], y[3]);
    let mut col = Column::new(0);
    for j in 1..7 {
        if !fresh {
            col.add(w[j]);
        }
        col.add_mul(x0, y[j]);
        if j >= 3 {
            col.add_mul(x1, y[j - 1]);
        }
        if j >= 5 {
            col.add_mul(x2, y[j - 2]);
        }
        w[j] = col.shift();
    }
    for j in 7..l {
        if !fresh {
            col.add(w[j]);
        }
        col.add_mul(x0, y[j]);
        col.add_mul(x1, y[j - 1]);
        col.add_mul(x2, y[j - 2]);
        col.add_mul(x3, y[j - 3]);
        w[j] = col.shift();
    }
    col.add_mul(x1, y[l - 1]);
    col.add_mul(x2, y[l - 2]);
    col.add_mul(x3, y[l - 3]);
    w[l] = col.shift();
    col.add_mul(x2, y[l - 1]);
    col.add_mul(x3, y[l - 2]);
    w[l + 1] = col.shift();
    col.add_mul(x3, y[l - 1]);
    w[l + 2] = col.shift();
    w[l + 3] = col.shift();
}

/// r = 2·r + Σ aᵢ²·B²ⁱ, `r.len() == 2·a.len()`, for r below a²/2 (no carry comes out): the
/// portable form of the last pass of [`sqr_basecase`].
pub(super) fn diag_addlsh1(r: &mut [Limb], a: &[Limb]) {
    let mut shifted_out = 0;
    // A bool carry through `carrying_add`: one add-with-carry each, where `limb::adc`'s two
    // additions and an `or` compile to a flag save and restore per limb.
    let mut c = false;
    for (pair, &ai) in r.chunks_exact_mut(2).zip(a) {
        let (lo, hi) = limb::mul_wide(ai, ai);
        let (x0, x1) = (pair[0], pair[1]);
        let d0 = (x0 << 1) | shifted_out;
        let d1 = (x1 << 1) | (x0 >> (limb::LIMB_BITS - 1));
        shifted_out = x1 >> (limb::LIMB_BITS - 1);
        (pair[0], c) = d0.carrying_add(lo, c);
        (pair[1], c) = d1.carrying_add(hi, c);
    }
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
    debug_assert!(!a.is_empty() && r.len() == 2 * a.len());
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
pub(super) fn karatsuba_sqr(r: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
    let n = a.len();
    debug_assert!(n >= KARATSUBA_MIN_LEN && r.len() == 2 * n);
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

#[cfg(test)]
mod tests {
    use super::*;
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
                triangle(&mut r, &a);
                diag_addlsh1(&mut r, &a);
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
}
