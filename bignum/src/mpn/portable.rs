//! Plain-Rust kernels: the reference every other back end must equal, limb for limb.
//!
//! Every function here runs in time that depends only on the slice lengths.
//! Length preconditions are checked by the callers in [`crate::mpn`]; here they are
//! `invariant!`s (checked in debug builds and in the tests), and a violation can at worst give
//! a wrong result, never unsafety.
//!
//! Without `mulx`/`adx`, a 64×64→128-bit `mul` clobbers the carry flag, so a row of
//! `addmul_1` pays for its carry on every limb (an add, a flag save and an add with carry on
//! the critical path). The quadratic kernels ([`mul_basecase`], [`redc_1`], and the square's
//! triangle of [`sqr_basecase`]) therefore go four rows at a time, by columns: each column adds its
//! four products into a three-limb [`Column`] sum held in registers, and r is loaded and
//! stored once per four products instead of once per product (the "hybrid" of product and
//! operand scanning: N. Gura, A. Patel, A. Wander, H. Eberle, S. C. Shantz, "Comparing
//! Elliptic Curve Cryptography and RSA on 8-bit CPUs", 2004). Loop bounds depend on the
//! lengths only. At 16 and 32 limbs this is faster than one row of `addmul_1` at a time for
//! `redc_1`, the square and the constant-time pow built on them.

use crate::limb::{self, Limb};

/// r = a + b, returns the carry (0 or 1). Equal lengths.
pub fn add_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    invariant!(r.len() == a.len() && a.len() == b.len());
    let mut c = 0;
    for ((r, &a), &b) in r.iter_mut().zip(a).zip(b) {
        (*r, c) = limb::adc(a, b, c);
    }
    c
}

/// r = a - b, returns the borrow (0 or 1). Equal lengths.
pub fn sub_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    invariant!(r.len() == a.len() && a.len() == b.len());
    let mut c = 0;
    for ((r, &a), &b) in r.iter_mut().zip(a).zip(b) {
        (*r, c) = limb::sbb(a, b, c);
    }
    c
}

/// r = a · b, returns the high limb. Equal lengths of `r` and `a`.
pub fn mul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    invariant!(r.len() == a.len());
    let mut c = 0;
    // Four limbs a step, as in `addmul_row`.
    let mut r4 = r.chunks_exact_mut(4);
    let mut a4 = a.chunks_exact(4);
    for (r, a) in (&mut r4).zip(&mut a4) {
        (r[0], c) = limb::mac(0, a[0], b, c);
        (r[1], c) = limb::mac(0, a[1], b, c);
        (r[2], c) = limb::mac(0, a[2], b, c);
        (r[3], c) = limb::mac(0, a[3], b, c);
    }
    for (r, &a) in r4.into_remainder().iter_mut().zip(a4.remainder()) {
        (*r, c) = limb::mac(0, a, b, c);
    }
    c
}

/// r += a · b, returns the high limb. Equal lengths of `r` and `a`.
pub fn addmul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    invariant!(r.len() == a.len());
    addmul_row(r, a, b)
}

/// r += a · b over `a.len()` limbs of `r`, returns the high limb: the row of [`addmul_1`]
/// and of the few single rows of [`mul_basecase`] and [`redc_1`]. Unrolled by four by hand:
/// the same carry chain with a quarter of the loop overhead, faster per limb at 16 and 32 limbs
/// (two interleaved carry chains are no better: `mul` clobbers the one flag; measured: see
/// docs/benchmarks-log.md, "The portable kernels' layout").
#[inline(always)]
fn addmul_row(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    let mut c = 0;
    let mut r4 = r.chunks_exact_mut(4);
    let mut a4 = a.chunks_exact(4);
    for (r, a) in (&mut r4).zip(&mut a4) {
        (r[0], c) = limb::mac(r[0], a[0], b, c);
        (r[1], c) = limb::mac(r[1], a[1], b, c);
        (r[2], c) = limb::mac(r[2], a[2], b, c);
        (r[3], c) = limb::mac(r[3], a[3], b, c);
    }
    for (r, &a) in r4.into_remainder().iter_mut().zip(a4.remainder()) {
        (*r, c) = limb::mac(*r, a, b, c);
    }
    c
}

/// r -= a · b, returns the high limb of what could not be subtracted (the borrow, up to `b`).
pub fn submul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    invariant!(r.len() == a.len());
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

/// Montgomery product without the final subtraction (see [`crate::mpn::mont_mul`]): the
/// product a·b into the scratch by [`mul_basecase`], then [`redc_1`]. Both go four rows at a
/// time, which is faster at 16 and 32 limbs than the fused row-by-row CIOS (Koç, Acar,
/// Kaliski, "Analyzing and comparing Montgomery multiplication algorithms", 1996) that shares
/// one load and store of r between two products but pays two carries per limb (measured: see
/// docs/benchmarks-log.md, "The portable kernels' layout"). a < m, so a·b < m·R as [`redc_1`]
/// requires.
pub fn mont_mul(
    r: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
    m: &[Limb],
    minv: Limb,
    scratch: &mut [Limb],
) -> Limb {
    let n = m.len();
    invariant!(n > 0 && r.len() == n && a.len() == n && b.len() == n);
    invariant!(scratch.len() > 2 * n);
    let t = &mut scratch[..2 * n];
    mul_basecase(t, a, b);
    redc_1(r, t, m, minv)
}

/// A column sum of the four-row passes: three limbs, low first. A column adds at most five
/// products and three limbs to the previous column's carry (< 2¹³⁰), far below 2¹⁹².
#[derive(Clone, Copy)]
pub struct Column(pub Limb, pub Limb, pub Limb);

impl Column {
    /// The sum x.
    #[inline(always)]
    pub const fn new(x: Limb) -> Self {
        Column(x, 0, 0)
    }

    /// Adds x·y. `carrying_add` keeps the two additions one add-with-carry chain.
    #[inline(always)]
    pub fn add_mul(&mut self, x: Limb, y: Limb) {
        let (lo, hi) = limb::mul_wide(x, y);
        let (s0, c) = self.0.carrying_add(lo, false);
        let (s1, c) = self.1.carrying_add(hi, c);
        // The third limb stays small (see above): no wrap.
        (self.0, self.1, self.2) = (s0, s1, self.2 + Limb::from(c));
    }

    /// Adds x.
    #[inline(always)]
    pub fn add(&mut self, x: Limb) {
        let (s0, c) = self.0.carrying_add(x, false);
        let (s1, c) = self.1.carrying_add(0, c);
        (self.0, self.1, self.2) = (s0, s1, self.2 + Limb::from(c));
    }

    /// Returns the low limb and shifts the sum down by one limb (the carry into the next
    /// column).
    #[inline(always)]
    pub fn shift(&mut self) -> Limb {
        let low = self.0;
        *self = Column(self.1, self.2, 0);
        low
    }
}

/// r = a · b, `r.len() == a.len() + b.len()`, `b` non-empty: four limbs of b at a time
/// (see the module docs), the first `b.len() mod 4` by rows; rows only when `a` has fewer
/// than four limbs.
pub fn mul_basecase(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let (an, bn) = (a.len(), b.len());
    invariant!(bn > 0 && r.len() == an + bn);
    let r = &mut r[..an + bn];
    let rows = if an >= 4 { bn & 3 } else { bn };
    if rows > 0 {
        r[an] = mul_1(&mut r[..an], a, b[0]);
        for i in 1..rows {
            r[an + i] = addmul_row(&mut r[i..an + i], a, b[i]);
        }
    }
    for i in (rows..bn).step_by(4) {
        // Adds a·(b_i + b_{i+1}·B + b_{i+2}·B² + b_{i+3}·B³) at limb i. Limbs i .. i+an-1
        // hold the sum so far (none on the first pass), i+an .. i+an+3 are written fresh.
        // Column j sums a_{j-s}·b_{i+s} over the s with 0 ≤ j - s < an.
        let fresh = i == 0;
        let (b0, b1, b2, b3) = (b[i], b[i + 1], b[i + 2], b[i + 3]);
        let w = &mut r[i..i + an + 4];
        let mut col = Column::new(0);
        for j in 0..3 {
            if !fresh {
                col.add(w[j]);
            }
            col.add_mul(a[j], b0);
            if j >= 1 {
                col.add_mul(a[j - 1], b1);
            }
            if j >= 2 {
                col.add_mul(a[j - 2], b2);
            }
            w[j] = col.shift();
        }
        for j in 3..an {
            if !fresh {
                col.add(w[j]);
            }
            col.add_mul(a[j], b0);
            col.add_mul(a[j - 1], b1);
            col.add_mul(a[j - 2], b2);
            col.add_mul(a[j - 3], b3);
            w[j] = col.shift();
        }
        col.add_mul(a[an - 1], b1);
        col.add_mul(a[an - 2], b2);
        col.add_mul(a[an - 3], b3);
        w[an] = col.shift();
        col.add_mul(a[an - 1], b2);
        col.add_mul(a[an - 2], b3);
        w[an + 1] = col.shift();
        col.add_mul(a[an - 1], b3);
        w[an + 2] = col.shift();
        // The sum so far is a·b mod B^(i+4) < B^(an+i+4): what is left is one limb.
        w[an + 3] = col.shift();
    }
}

/// [`crate::mpn::tabselect`]: [`tabselect_lanes`] eight limbs at a time.
pub fn tabselect(r: &mut [Limb], table: &[Limb], which: Limb) {
    tabselect_lanes::<8>(r, table, which);
}

/// [`crate::mpn::tabselect`] `L` limbs at a time (`L` a power of two): the accumulators
/// in registers across the entries (one load, one `and`, one `or` per limb and entry), the
/// masks of up to 64 entries computed once per group of entries. Always inlined, so that a
/// caller compiled for wider vectors (the ADX back end's AVX2 variant) vectorizes it so.
///
/// The masks come from [`limb::mask`], opaque to the optimiser: were they plain `0 - c`, LLVM
/// would see that they are 0 or all-ones with one all-ones, and could turn the loop back into
/// a load of the entry wanted.
#[inline(always)]
pub(crate) fn tabselect_lanes<const L: usize>(r: &mut [Limb], table: &[Limb], which: Limb) {
    const GROUP: usize = 64;
    let n = r.len();
    invariant!(n > 0 && table.chunks_exact(n).remainder().is_empty());
    r.fill(0);
    let whole = n & !(L - 1);
    for (g, group) in table.chunks(GROUP * n).enumerate() {
        let mut masks = [0; GROUP];
        let first = (g * GROUP) as Limb;
        let count = group.chunks_exact(n).len();
        for (mask, j) in masks[..count].iter_mut().zip(first..) {
            *mask = limb::mask(limb::is_zero(j ^ which));
        }
        for lo in (0..whole).step_by(L) {
            let mut acc: [Limb; L] = r[lo..lo + L].try_into().expect("a whole chunk of L limbs");
            for (entry, &keep) in group.chunks_exact(n).zip(&masks) {
                let src: &[Limb; L] = entry[lo..lo + L]
                    .try_into()
                    .expect("a whole chunk of L limbs");
                for (a, &e) in acc.iter_mut().zip(src) {
                    *a |= e & keep;
                }
            }
            r[lo..lo + L].copy_from_slice(&acc);
        }
        for (entry, &keep) in group.chunks_exact(n).zip(&masks) {
            for (o, &e) in r[whole..].iter_mut().zip(&entry[whole..]) {
                *o |= e & keep;
            }
        }
    }
}

/// [`crate::mpn::mont_mul_below_r`]: the product, then [`redc_1_below_r`].
pub fn mont_mul_below_r(
    r: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
    m: &[Limb],
    minv: Limb,
    scratch: &mut [Limb],
) {
    let t = &mut scratch[..2 * m.len()];
    mul_basecase(t, a, b);
    redc_1_below_r(r, t, m, minv);
}

/// [`crate::mpn::mont_sqr_below_r`]: each time the square, then [`redc_1_below_r`].
pub fn mont_sqr_below_r(
    r: &mut [Limb],
    a: &[Limb],
    squarings: usize,
    m: &[Limb],
    minv: Limb,
    scratch: &mut [Limb],
) {
    crate::mpn::sqr_then_redc_below_r(r, a, squarings, m, minv, scratch, redc_1_below_r);
}

/// [`crate::mpn::redc_1_below_r`]: [`redc_1`], then m subtracted by the mask of its carry.
pub fn redc_1_below_r(r: &mut [Limb], t: &mut [Limb], m: &[Limb], minv: Limb) {
    let c = redc_1(r, t, m, minv);
    _ = crate::mpn::cnd_sub_assign_n(c.wrapping_neg(), r, m);
}

/// Montgomery reduction without the final subtraction (see [`crate::mpn::redc_1`]): n rows
/// t += q_i·m·B^i with q_i = t_i·m', four rows at a time by columns (see the module docs),
/// the first n mod 4 (or all, below four limbs) one by one.
///
/// A pass that zeroes limbs i .. i+3 reads and writes t up to limb i+n+2 and leaves a carry
/// of up to two limbs for limbs i+n+3 and i+n+4 (the band held < B^(n+3) and gained
/// Q·m < B^(n+4), Q = q_i + … + q_{i+3}·B³, so the carry is ≤ B). Carrying it on through t
/// would cost a pass over the rest of t, so it is parked in r (at r_{i+3} and r_{i+4}: a
/// single row's carry, for limb i+n, at r_i) and added to the high half at the end, as GMP's
/// `mpn_redc_1` parks its row carries in the zeroed limbs of t.
pub fn redc_1(r: &mut [Limb], t: &mut [Limb], m: &[Limb], minv: Limb) -> Limb {
    let n = m.len();
    invariant!(n > 0 && r.len() == n && t.len() == 2 * n);
    let (r, t, m) = (&mut r[..n], &mut t[..2 * n], &m[..n]);
    r.fill(0);
    let rows = if n >= 4 { n & 3 } else { n };
    for i in 0..rows {
        let row = &mut t[i..i + n];
        let q = row[0].wrapping_mul(minv);
        r[i] = addmul_row(row, m, q);
    }
    let mut top = 0;
    for i in (rows..n).step_by(4) {
        let w = &mut t[i..i + n + 3];
        // Columns 0..3 find q_i .. q_{i+3} in turn: each makes its column ≡ 0 (mod B).
        let mut col = Column::new(w[0]);
        let q0 = col.0.wrapping_mul(minv);
        col.add_mul(q0, m[0]);
        col.shift();
        col.add(w[1]);
        col.add_mul(q0, m[1]);
        let q1 = col.0.wrapping_mul(minv);
        col.add_mul(q1, m[0]);
        col.shift();
        col.add(w[2]);
        col.add_mul(q0, m[2]);
        col.add_mul(q1, m[1]);
        let q2 = col.0.wrapping_mul(minv);
        col.add_mul(q2, m[0]);
        col.shift();
        col.add(w[3]);
        col.add_mul(q0, m[3]);
        col.add_mul(q1, m[2]);
        col.add_mul(q2, m[1]);
        let q3 = col.0.wrapping_mul(minv);
        col.add_mul(q3, m[0]);
        col.shift();
        for j in 4..n {
            col.add(w[j]);
            col.add_mul(q0, m[j]);
            col.add_mul(q1, m[j - 1]);
            col.add_mul(q2, m[j - 2]);
            col.add_mul(q3, m[j - 3]);
            w[j] = col.shift();
        }
        col.add(w[n]);
        col.add_mul(q1, m[n - 1]);
        col.add_mul(q2, m[n - 2]);
        col.add_mul(q3, m[n - 3]);
        w[n] = col.shift();
        col.add(w[n + 1]);
        col.add_mul(q2, m[n - 1]);
        col.add_mul(q3, m[n - 2]);
        w[n + 1] = col.shift();
        col.add(w[n + 2]);
        col.add_mul(q3, m[n - 1]);
        w[n + 2] = col.shift();
        r[i + 3] = col.shift();
        let hi = col.shift();
        // r_{i+4} is free (the next pass parks at r_{i+7}); limb 2n is the returned carry.
        if i + 4 < n {
            r[i + 4] = hi;
        } else {
            top = hi;
        }
    }
    // r = t_high + the parked carries. The total is < 2m < 2R, so at most one of the two
    // carries out is set.
    let mut c = false;
    for (r, &h) in r.iter_mut().zip(&t[n..]) {
        (*r, c) = h.carrying_add(*r, c);
    }
    Limb::from(c) + top
}

/// The portable back end's schoolbook square (its `Kernels::sqr_basecase`): n(n-1)/2 + n limb
/// products, `r.len() == 2·a.len()`, `a` non-empty.
pub fn sqr_basecase(r: &mut [Limb], a: &[Limb]) {
    invariant!(!a.is_empty() && r.len() == 2 * a.len());
    // Off-diagonal triangle Σ_{i<j} aᵢaⱼ·Bⁱ⁺ʲ: row i covers limbs 2i+1 ..= n+i.
    triangle(r, a);
    // r = 2·r + Σ aᵢ²·B²ⁱ in one pass. The triangle is below a²/2 < B²ⁿ/2, so the doubling
    // loses no bit, and the total is a² < B²ⁿ, so the final carry is zero. (Not asserted: a
    // debug_assert! on these secret-derived bits would be a branch valgrind rightly flags.)
    diag_addlsh1(r, a);
}

/// The off-diagonal triangle Σ_{i<j} aᵢaⱼ·Bⁱ⁺ʲ of [`sqr_basecase`] into r (all 2n
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
        r[n] = mul_1(&mut r[1..n], &a[1..], a[0]);
        i = 1;
    }
    for i in i..n.saturating_sub(2) {
        r[n + i] = addmul_1(&mut r[2 * i + 1..n + i], &a[i + 1..], a[i]);
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
    invariant!(l >= TRIANGLE_BAND_MIN_LEN && w.len() == l + 4);
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
/// portable form of the last pass of [`sqr_basecase`] (the ADX back end's has its own).
pub fn diag_addlsh1(r: &mut [Limb], a: &[Limb]) {
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
