//! Division with remainder, variable time (public values only).
//!
//! Knuth's Algorithm D (The Art of Computer Programming, vol. 2, §4.3.1) on a normalised divisor
//! (shifted left so its top bit is set), with each quotient limb estimated by a 3-by-2 division
//! through a precomputed reciprocal, as in N. Möller and T. Granlund, "Improved division by
//! invariant integers", IEEE Transactions on Computers, 2011 (Algorithms 4, 5 and 6 there).
//!
//! With B = 2⁶⁴ and a normalised divisor d (B/2 ≤ d < B), the word reciprocal is
//! v = ⌊(B² - 1)/d⌋ - B; for a two-limb divisor (d₁, d₀) the 3-by-2 reciprocal is
//! v = ⌊(B³ - 1)/(d₁·B + d₀)⌋ - B. The estimate from the top three limbs of the running
//! remainder against the top two of the divisor is either exact or one too large, and it is one
//! too large with probability about 2/B: that is the rare "add back" step.
//!
//! Everything here branches on the values: it is for public numbers only.

use crate::limb::{self, Limb, Wide};
use crate::mpn;
use crate::run_counters::{Counter, count};
use alloc::{vec, vec::Vec};

/// v = ⌊(B² - 1)/d⌋ - B for a normalised `d` (top bit set).
#[allow(clippy::integer_division_remainder_used)] // d is a public divisor (vartime division)
#[allow(clippy::cast_possible_truncation)] // the quotient lies in [B, 2B): dropping B is the point
pub fn reciprocal_word(d: Limb) -> Limb {
    invariant!(d >> 63 == 1);
    (Wide::MAX / Wide::from(d)) as Limb
}

/// The 3-by-2 reciprocal v = ⌊(B³ - 1)/(d₁·B + d₀)⌋ - B, `d1` normalised.
/// Möller & Granlund 2011, Algorithm 6.
pub fn reciprocal_3by2(d1: Limb, d0: Limb) -> Limb {
    let mut v = reciprocal_word(d1);
    let mut p = d1.wrapping_mul(v).wrapping_add(d0);
    if p < d0 {
        // The addition of d₀ carried.
        v = v.wrapping_sub(1);
        if p >= d1 {
            v = v.wrapping_sub(1);
            p = p.wrapping_sub(d1);
        }
        p = p.wrapping_sub(d1);
    }
    let (t0, t1) = limb::mul_wide(v, d0);
    p = p.wrapping_add(t1);
    if p < t1 {
        v = v.wrapping_sub(1);
        if (p, t0) >= (d1, d0) {
            v = v.wrapping_sub(1);
        }
    }
    v
}

/// (q, r) with u₁·B + u₀ = q·d + r, 0 ≤ r < d; needs `d` normalised, `u1 < d` and
/// `v = reciprocal_word(d)`. Möller & Granlund 2011, Algorithm 4.
#[inline]
fn div_2by1(u1: Limb, u0: Limb, d: Limb, v: Limb) -> (Limb, Limb) {
    invariant!(u1 < d);
    let (q0, q1) =
        limb::split(Wide::from(v) * Wide::from(u1) + ((Wide::from(u1) << 64) | Wide::from(u0)));
    let mut q1 = q1.wrapping_add(1);
    let mut r = u0.wrapping_sub(q1.wrapping_mul(d));
    if r > q0 {
        q1 = q1.wrapping_sub(1);
        r = r.wrapping_add(d);
    }
    if r >= d {
        q1 += 1;
        r -= d;
    }
    (q1, r)
}

/// (q, r) with (u₂, u₁, u₀) = q·(d₁, d₀) + r, 0 ≤ r < (d₁, d₀); needs `d1` normalised,
/// (u₂, u₁) < (d₁, d₀) and `v = reciprocal_3by2(d1, d0)`. Möller & Granlund 2011, Algorithm 5.
#[inline]
pub fn div_3by2(u2: Limb, u1: Limb, u0: Limb, d1: Limb, d0: Limb, v: Limb) -> (Limb, Wide) {
    invariant!((u2, u1) < (d1, d0));
    let d = (Wide::from(d1) << 64) | Wide::from(d0);
    let (q0, q1) =
        limb::split(Wide::from(v) * Wide::from(u2) + ((Wide::from(u2) << 64) | Wide::from(u1)));
    let r1 = u1.wrapping_sub(q1.wrapping_mul(d1));
    let t = Wide::from(d0) * Wide::from(q1);
    let mut r = ((Wide::from(r1) << 64) | Wide::from(u0))
        .wrapping_sub(t)
        .wrapping_sub(d);
    let mut q1 = q1.wrapping_add(1);
    let (_, r_hi) = limb::split(r);
    if r_hi >= q0 {
        q1 = q1.wrapping_sub(1);
        r = r.wrapping_add(d);
    }
    if r >= d {
        q1 += 1;
        r -= d;
    }
    (q1, r)
}

/// q = ⌊a / d⌋, returns a mod d. `q.len() == a.len()`, `d ≠ 0`.
pub fn div_1(q: &mut [Limb], a: &[Limb], d: Limb) -> Limb {
    invariant!(q.len() == a.len() && d != 0);
    let shift = d.leading_zeros();
    let dn = d << shift;
    let v = reciprocal_word(dn);
    if shift == 0 {
        let mut r = 0;
        for (q, &a) in q.iter_mut().zip(a).rev() {
            (*q, r) = div_2by1(r, a, dn, v);
        }
        return r;
    }
    // Feed the limbs of a·2^shift from the top without materialising them.
    let mut r = a.last().map_or(0, |&top| top >> (limb::LIMB_BITS - shift));
    for (i, q) in q.iter_mut().enumerate().rev() {
        let lo = if i > 0 {
            a[i - 1] >> (limb::LIMB_BITS - shift)
        } else {
            0
        };
        (*q, r) = div_2by1(r, (a[i] << shift) | lo, dn, v);
    }
    r >> shift
}

/// Algorithm D on a normalised divisor `d` (n ≥ 2 limbs, top bit set) with 3-by-2 reciprocal
/// `v`. `u` holds the shifted dividend with one extra top limb (its top n limbs are below `d`);
/// writes `u.len() - n` quotient limbs to `q` and leaves the remainder in `u[..n]` (the rest of
/// `u` zero).
fn div_qr_normalised(q: &mut [Limb], u: &mut [Limb], d: &[Limb], v: Limb) {
    let n = d.len();
    invariant!(n >= 2 && d[n - 1] >> 63 == 1 && q.len() + n == u.len());
    let (d1, d0) = (d[n - 1], d[n - 2]);
    for j in (0..q.len()).rev() {
        let w = &mut u[j..=j + n];
        let (u2, u1, u0) = (w[n], w[n - 1], w[n - 2]);
        // Invariant: the top n limbs of the window are below d, so (u₂, u₁) ≤ (d₁, d₀).
        if (u2, u1) == (d1, d0) {
            // The 3-by-2 step would overflow; the quotient limb is B - 1 exactly (Knuth's q̂ = B - 1
            // case: w ≥ (d - d_low)·B with d_low < B^(n-2), so w - (B - 1)·d ≥ d - B·d_low > 0).
            let borrow = mpn::submul_1(&mut w[..n], d, Limb::MAX);
            invariant!(borrow == u2);
            w[n] = 0;
            q[j] = Limb::MAX;
            count(Counter::DivAllOnesSteps);
            continue;
        }
        let (mut qj, r) = div_3by2(u2, u1, u0, d1, d0, v);
        // Subtract qj·(low n - 2 limbs of d) from the low limbs; the top three limbs were done
        // by the 3-by-2 step, leaving r; take the last borrow out of r.
        let cy = if n > 2 {
            mpn::submul_1(&mut w[..n - 2], &d[..n - 2], qj)
        } else {
            0
        };
        let (r0, r1) = limb::split(r);
        let (r0, b0) = limb::sbb(r0, cy, 0);
        let (r1, b1) = limb::sbb(r1, 0, b0);
        w[n - 2] = r0;
        w[n - 1] = r1;
        w[n] = 0;
        if b1 != 0 {
            // q̂ was one too large (probability about 2/B): add d back once. The carry out of
            // the addition cancels the borrow.
            count(Counter::DivAddBacks);
            qj = qj.wrapping_sub(1);
            let _ = mpn::add_assign_n(&mut w[..n], d);
        }
        q[j] = qj;
    }
}

/// A divisor prepared for repeated division: shifted so its top bit is set, with its reciprocal.
#[derive(Debug, Clone)]
struct Divisor {
    /// d·2^shift, top bit set.
    d: Vec<Limb>,
    shift: u32,
    /// The 3-by-2 reciprocal of the top two limbs (n ≥ 2), or the word reciprocal (n = 1).
    v: Limb,
}

impl Divisor {
    /// Prepares `d` (top limb non-zero).
    fn new(d: &[Limb]) -> Self {
        let n = d.len();
        invariant!(n >= 1 && d[n - 1] != 0);
        let shift = d[n - 1].leading_zeros();
        let mut dn = vec![0; n];
        let _ = mpn::lshift(&mut dn, d, shift);
        let v = if n >= 2 {
            reciprocal_3by2(dn[n - 1], dn[n - 2])
        } else {
            reciprocal_word(dn[0])
        };
        Divisor { d: dn, shift, v }
    }

    /// q = ⌊a / d⌋, r = a mod d. `a.len() ≥ n`, `q.len() == a.len() - n + 1`, `r.len() == n`.
    fn div_qr(&self, q: &mut [Limb], r: &mut [Limb], a: &[Limb]) {
        let n = self.d.len();
        invariant!(a.len() >= n && q.len() == a.len() - n + 1 && r.len() == n);
        if n == 1 {
            r[0] = div_1(q, a, self.d[0] >> self.shift);
            return;
        }
        let mut u = vec![0; a.len() + 1];
        let top = mpn::lshift(&mut u[..a.len()], a, self.shift);
        u[a.len()] = top;
        div_qr_normalised(q, &mut u, &self.d, self.v);
        let _ = mpn::rshift(r, &u[..n], self.shift);
    }
}

/// q = ⌊a / d⌋, r = a mod d. `d`'s top limb non-zero, `a.len() ≥ d.len()`,
/// `q.len() == a.len() - d.len() + 1`, `r.len() == d.len()`.
pub fn div_qr(q: &mut [Limb], r: &mut [Limb], a: &[Limb], d: &[Limb]) {
    Divisor::new(d).div_qr(q, r, a);
}
