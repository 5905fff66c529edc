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
fn reciprocal_word(d: Limb) -> Limb {
    invariant!(d >> 63 == 1);
    (Wide::MAX / Wide::from(d)) as Limb
}

/// The 3-by-2 reciprocal v = ⌊(B³ - 1)/(d₁·B + d₀)⌋ - B, `d1` normalised.
/// Möller & Granlund 2011, Algorithm 6.
fn reciprocal_3by2(d1: Limb, d0: Limb) -> Limb {
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
fn div_3by2(u2: Limb, u1: Limb, u0: Limb, d1: Limb, d0: Limb, v: Limb) -> (Limb, Wide) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference 3-by-2 reciprocal by long division on u128 halves: ⌊(B³ - 1)/D⌋ - B.
    fn reciprocal_3by2_reference(d1: Limb, d0: Limb) -> Limb {
        // B³ - 1 = (B - 1)·B² + (B - 1)·B + (B - 1); divide limb by limb with a Wide remainder
        // that stays below D < B², using u128 divisions only on values below 2¹²⁸.
        let d = (Wide::from(d1) << 64) | Wide::from(d0);
        // First step: (B - 1)·B + (B - 1) = B² - 1 over D gives the top digit (0 or 1 since D ≥ B²/2).
        let mut rem = Wide::MAX;
        let q_hi = rem / d;
        rem %= d;
        // Next digit: (rem·B + (B - 1)) / D, with rem < D < B²; do it bit by bit to stay in range.
        let mut q_lo: Limb = 0;
        for _ in 0..64 {
            let top = rem >> 127;
            rem = (rem << 1) | 1;
            q_lo <<= 1;
            if top == 1 || rem >= d {
                rem = rem.wrapping_sub(d);
                q_lo |= 1;
            }
        }
        assert_eq!(q_hi, 1, "quotient lies in [B, 2B)");
        q_lo
    }

    #[test]
    fn reciprocals_match_their_definition() {
        let tops = [
            1 << 63,
            (1 << 63) + 1,
            Limb::MAX,
            Limb::MAX - 1,
            0xC000_0000_0000_0000,
            0x9E37_79B9_7F4A_7C15,
        ];
        let lows = [0, 1, Limb::MAX, 1 << 63, 0x1234_5678_9ABC_DEF0];
        for &d1 in &tops {
            assert_eq!(
                Wide::from(reciprocal_word(d1)) + (1 << 64),
                Wide::MAX / Wide::from(d1)
            );
            for &d0 in &lows {
                assert_eq!(
                    reciprocal_3by2(d1, d0),
                    reciprocal_3by2_reference(d1, d0),
                    "d = {d1:x} {d0:x}"
                );
            }
        }
    }

    #[test]
    fn three_by_two_steps_are_exact() {
        let d1 = 0x8000_0000_0000_0001;
        let d0 = Limb::MAX;
        let v = reciprocal_3by2(d1, d0);
        let d = (Wide::from(d1) << 64) | Wide::from(d0);
        for &(u2, u1, u0) in &[
            (d1 - 1, Limb::MAX, Limb::MAX),
            (0, 0, 5),
            (d1, d0 - 1, Limb::MAX),
            (1, 2, 3),
        ] {
            let (q, r) = div_3by2(u2, u1, u0, d1, d0, v);
            assert!(r < d);
            // Check (u2, u1, u0) = q·d + r in three limbs.
            let (p0, c) = limb::mul_wide(q, d0);
            let (p1, c2) = limb::mac(c, q, d1, 0);
            let (s0, k) = limb::adc(p0, limb::split(r).0, 0);
            let (s1, k) = limb::adc(p1, limb::split(r).1, k);
            let s2 = c2 + k;
            assert_eq!((s2, s1, s0), (u2, u1, u0));
        }
    }

    /// Checks q·d + r = a and r < d with num-bigint.
    fn check(a: &[Limb], d: &[Limb]) {
        use num_bigint::BigUint;
        let big = |x: &[Limb]| {
            BigUint::from_slice(
                &x.iter()
                    .flat_map(|&l| [l as u32, (l >> 32) as u32])
                    .collect::<Vec<u32>>(),
            )
        };
        let mut q = vec![0; a.len() - d.len() + 1];
        let mut r = vec![0; d.len()];
        div_qr(&mut q, &mut r, a, d);
        assert_eq!(big(&q), big(a) / big(d), "quotient of {a:x?} / {d:x?}");
        assert_eq!(big(&r), big(a) % big(d), "remainder of {a:x?} / {d:x?}");
    }

    fn add_backs() -> u64 {
        crate::run_counters::read(Counter::DivAddBacks)
    }

    #[test]
    fn add_back_step_is_reached_and_correct() {
        // d = 2⁶³·B² + (B - 1), a = B³: the 3-by-2 estimate from (1, 0, 0) / (2⁶³, 0) is 2, but
        // the low limb of d makes 2·d > a, so the true quotient limb is 1.
        let before = add_backs();
        check(&[0, 0, 0, 1], &[Limb::MAX, 0, 1 << 63]);
        assert!(add_backs() > before, "add-back step not taken");
        // Same shape, more limbs: low limbs of d all-ones, dividend an exact multiple of d's top.
        for n in 3..8 {
            for &(d1, d0) in &[
                (1 << 63, 0),
                (Limb::MAX, Limb::MAX - 1),
                (0x8000_0000_0000_0001, 7),
            ] {
                let mut d = vec![Limb::MAX; n];
                d[n - 1] = d1;
                d[n - 2] = d0;
                // a = q̂·(d₁, d₀)·B^(n-2)·B with q̂ = B - 3, low limbs zero.
                let mut a = vec![0; n + 1];
                let mut top = [0; 3];
                top[2] = crate::mpn::mul_1(&mut top[..2], &[d0, d1], Limb::MAX - 2);
                a[n - 2..].copy_from_slice(&top);
                let before = add_backs();
                check(&a, &d);
                assert!(
                    add_backs() > before,
                    "add-back not taken for n = {n}, d1 = {d1:x}"
                );
            }
        }
    }

    #[test]
    fn top_limbs_equal_to_divisor_take_the_all_ones_quotient_limb() {
        // a = [a0, w, d0, d1] over d = [5, d0, d1] with w < 5: the first step overestimates (add
        // back), the remainder's top limbs then equal (d1, d0), the q̂ = B - 1 branch.
        for &(d1, d0) in &[
            (1 << 63, 0),
            (Limb::MAX, Limb::MAX),
            (0xF000_0000_0000_0000, 1),
        ] {
            for w in 0..5 {
                for a0 in [0, 1, Limb::MAX] {
                    let before = crate::run_counters::read(Counter::DivAllOnesSteps);
                    check(&[a0, w, d0, d1], &[5, d0, d1]);
                    assert!(crate::run_counters::read(Counter::DivAllOnesSteps) > before);
                }
            }
        }
    }

    #[test]
    fn small_fixed_cases() {
        check(&[0], &[1]);
        check(&[Limb::MAX], &[1]);
        check(&[Limb::MAX, Limb::MAX], &[Limb::MAX]);
        check(&[0, 1], &[3]);
        check(&[Limb::MAX; 4], &[Limb::MAX; 2]);
        check(&[Limb::MAX; 4], &[1, 1]);
        check(&[1, 2], &[1, 2]);
        check(&[1, 2], &[2, 2]);
        check(&[0, 0, 0, 0, 1], &[0, 0, 1]);
        // 9·B² + 7 with B = 2⁶⁴ ≡ 6 (mod 10): 9·6 + 7 = 61 ≡ 1.
        let mut q = [0; 3];
        assert_eq!(div_1(&mut q, &[7, 0, 9], 10), 1);
    }
}
