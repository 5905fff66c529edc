//! Montgomery multiplication, squaring and reduction on limb slices (the kernels under
//! [`Modulus`](super::Modulus)).
//!
//! With n limbs, R = 2^(64·n) and m' = -m⁻¹ mod 2⁶⁴, REDC(t) = t·R⁻¹ mod m for t < m·R.
//!
//! # Constant time
//!
//! Time and memory accesses depend on n only: the quotient digits q = t_i·m' are used only as
//! multipliers, and the final subtraction of m is done by mask.

use crate::limb::{self, Limb};
use crate::mpn;

use super::ct;

/// Scratch limbs [`mul`] needs for an n-limb modulus.
pub(crate) const fn mul_scratch_len(n: usize) -> usize {
    2 * n + 1
}

/// Scratch limbs [`sqr`] needs for an n-limb modulus.
pub(crate) const fn sqr_scratch_len(n: usize) -> usize {
    2 * n
}

/// r = a·b·R⁻¹ mod m, fully reduced (r < m).
///
/// Coarsely integrated operand scanning (CIOS; Koç, Acar, Kaliski, "Analyzing and comparing
/// Montgomery multiplication algorithms", 1996), as two `addmul_1` rows per limb of `b` over a
/// window that slides up a 2n+1 limb buffer instead of shifting it.
///
/// Preconditions: `a` < m (any n-limb `b` is fine), all of length n = `m.len()`,
/// `t.len() ≥ mul_scratch_len(n)`. Bound: every partial sum t_i < 2m, because
/// (2m + (2⁶⁴-1)·m + (2⁶⁴-1)·m) / 2⁶⁴ < 2m, so the result needs one conditional subtraction.
pub(crate) fn mul(r: &mut [Limb], a: &[Limb], b: &[Limb], m: &[Limb], minv: Limb, t: &mut [Limb]) {
    let n = m.len();
    debug_assert!(a.len() == n && b.len() == n && r.len() == n);
    let t = &mut t[..mul_scratch_len(n)];
    t.fill(0);
    // The back end once per call, and its kernels directly: every length below is n by
    // construction, so `mpn::addmul_1`'s per-call checks and dispatch would be pure overhead.
    let addmul_1 = mpn::kernels().addmul_1;
    for (i, &bi) in b.iter().enumerate() {
        // t[i..=i+n] holds the running sum (< 2m); t[i+n+1] is still zero.
        let c = addmul_1(&mut t[i..i + n], a, bi);
        let (s, c1) = limb::adc(t[i + n], c, 0);
        t[i + n] = s;
        t[i + n + 1] = c1;
        let q = t[i].wrapping_mul(minv);
        let c = addmul_1(&mut t[i..i + n], m, q);
        let (s, c2) = limb::adc(t[i + n], c, 0);
        t[i + n] = s;
        // No overflow: the sum is < 2·m·2⁶⁴ after this row, so t[i+n+1] ≤ 1.
        t[i + n + 1] = t[i + n + 1].wrapping_add(c2);
    }
    r.copy_from_slice(&t[n..2 * n]);
    ct::reduce_once(r, t[2 * n], m);
}

/// r = t·R⁻¹ mod m for a 2n-limb t < m·R (destroyed), fully reduced (r < m).
///
/// n rows of `addmul_1` with q_i = t_i·m'; row i's carry belongs at limb i+n and is parked in
/// the limb it just zeroed, t_i, then all n carries are added at once (as GMP's `mpn_redc_1`).
/// (t + Q·m)/R < (m·R + R·m)/R = 2m, so one conditional subtraction finishes.
pub(crate) fn redc(r: &mut [Limb], t: &mut [Limb], m: &[Limb], minv: Limb) {
    let n = m.len();
    debug_assert!(r.len() == n && t.len() == 2 * n);
    let addmul_1 = mpn::kernels().addmul_1;
    for i in 0..n {
        let q = t[i].wrapping_mul(minv);
        t[i] = addmul_1(&mut t[i..i + n], m, q);
    }
    let (carries, high) = t.split_at(n);
    let c = mpn::add_n(r, high, carries);
    ct::reduce_once(r, c, m);
}

/// r = a²·R⁻¹ mod m for `a` < m, fully reduced: `mpn::sqr` into 2n limbs, then [`redc`].
///
/// Preconditions: lengths n = `m.len()`, `t.len() ≥ sqr_scratch_len(n)`.
pub(crate) fn sqr(r: &mut [Limb], a: &[Limb], m: &[Limb], minv: Limb, t: &mut [Limb]) {
    let n = m.len();
    let t = &mut t[..sqr_scratch_len(n)];
    mpn::sqr(t, a);
    redc(r, t, m, minv);
}

#[cfg(test)]
// The oracle divides public test values.
#[allow(clippy::integer_division_remainder_used)]
mod tests {
    use super::*;
    use crate::limb::Wide;

    /// m = 2⁶⁴ - 59 (prime); R = 2⁶⁴ ≡ 59, so x·R⁻¹ can be checked with u128 arithmetic.
    const M: Limb = 0xFFFF_FFFF_FFFF_FFC5;

    fn r_inv_times(x: Wide) -> Limb {
        // x·R⁻¹ mod m: find y < m with y·59 ≡ x (mod m) by trying y = (x + k·m)/59 for k < 59.
        let m = Wide::from(M);
        let x = x % m;
        let k = (0..59)
            .find(|k| (x + k * m).is_multiple_of(59))
            .expect("59 is invertible mod m");
        let y = (x + k * m) / 59;
        y.try_into().expect("y < m")
    }

    #[test]
    fn one_limb_mul_sqr_redc_match_u128_arithmetic() {
        let minv = ct::inv_limb(M).wrapping_neg();
        let mut t = [0; 3];
        for (a, b) in [(0, 0), (1, 1), (M - 1, M - 1), (12345, M - 2), (1 << 63, 3)] {
            let mut r = [0];
            mul(&mut r, &[a], &[b], &[M], minv, &mut t);
            assert_eq!(
                r[0],
                r_inv_times(Wide::from(a) * Wide::from(b)),
                "mul {a} {b}"
            );
            sqr(&mut r, &[a], &[M], minv, &mut t);
            assert_eq!(r[0], r_inv_times(Wide::from(a) * Wide::from(a)), "sqr {a}");
            let mut tt = [a, b % M];
            redc(&mut r, &mut tt, &[M], minv);
            assert_eq!(
                r[0],
                r_inv_times(Wide::from(a) + (Wide::from(b % M) << 64)),
                "redc"
            );
        }
    }
}
