//! Montgomery multiplication, squaring and reduction on limb slices (the kernels under
//! [`Modulus`](super::Modulus)).
//!
//! With n limbs, R = 2^(64·n) and m' = -m⁻¹ mod 2⁶⁴, REDC(t) = t·R⁻¹ mod m for t < m·R.
//!
//! # Constant time
//!
//! Time and memory accesses depend on n only: the quotient digits q = t_i·m' are used only as
//! multipliers, and the final subtraction of m is done by mask.

use crate::limb::Limb;
use crate::mpn;

use super::ct;

/// Scratch limbs [`mul`] needs for an n-limb modulus.
pub(crate) const fn mul_scratch_len(n: usize) -> usize {
    mpn::mont_mul_scratch_len(n)
}

/// Scratch limbs [`sqr`] needs for an n-limb modulus: the 2n-limb square, then the scratch of
/// [`mpn::sqr_with_scratch`] (none below the Karatsuba threshold).
pub(crate) const fn sqr_scratch_len(n: usize) -> usize {
    mpn::mont_sqr_scratch_len(n)
}

/// t[..2n] = a², the rest of `t` (at least [`mpn::sqr_scratch_len`]`(n)` limbs) the squaring's
/// scratch: no allocation at any size. Returns the square.
#[inline]
pub(crate) fn sqr_into<'t>(t: &'t mut [Limb], a: &[Limb]) -> &'t mut [Limb] {
    let (sq, scratch) = t.split_at_mut(2 * a.len());
    mpn::sqr_with_scratch(sq, a, scratch);
    sq
}

/// r = a·b·R⁻¹ mod m, fully reduced (r < m).
///
/// The back end's Montgomery kernel ([`mpn::mont_mul`]: in both back ends the schoolbook
/// product into 2n limbs, then REDC) gives a value < 2m; one subtraction of m by mask
/// finishes.
///
/// Preconditions: `a` < m (any n-limb `b` is fine), all of length n = `m.len()`,
/// `t.len() ≥ mul_scratch_len(n)`.
pub(crate) fn mul(r: &mut [Limb], a: &[Limb], b: &[Limb], m: &[Limb], minv: Limb, t: &mut [Limb]) {
    invariant!(a.len() == m.len() && b.len() == m.len() && r.len() == m.len());
    // The kernel directly: every length is n by construction, so `mpn::mont_mul`'s checks
    // would be pure overhead.
    let hi = (mpn::kernels().mont_mul)(r, a, b, m, minv, t);
    ct::reduce_once(r, hi, m);
}

/// r = t·R⁻¹ mod m for a 2n-limb t < m·R (destroyed), fully reduced (r < m): the back end's
/// [`mpn::redc_1`] (a value < 2m), then one subtraction of m by mask.
pub(crate) fn redc(r: &mut [Limb], t: &mut [Limb], m: &[Limb], minv: Limb) {
    invariant!(r.len() == m.len() && t.len() == 2 * m.len());
    let hi = (mpn::kernels().redc_1)(r, t, m, minv);
    ct::reduce_once(r, hi, m);
}

/// r = a²·R⁻¹ mod m for `a` < m, fully reduced: the square into 2n limbs ([`sqr_into`]), then
/// [`redc`].
///
/// Preconditions: lengths n = `m.len()`, `t.len() ≥ sqr_scratch_len(n)`.
pub(crate) fn sqr(r: &mut [Limb], a: &[Limb], m: &[Limb], minv: Limb, t: &mut [Limb]) {
    let t = sqr_into(t, a);
    redc(r, t, m, minv);
}

#[cfg(test)]
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
        let minv = crate::limb::inv(M).wrapping_neg();
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
