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
pub fn mul(r: &mut [Limb], a: &[Limb], b: &[Limb], m: &[Limb], minv: Limb, t: &mut [Limb]) {
    invariant!(a.len() == m.len() && b.len() == m.len() && r.len() == m.len());
    // The kernel directly: every length is n by construction, so `mpn::mont_mul`'s checks
    // would be pure overhead.
    let hi = (mpn::kernels().mont_mul)(r, a, b, m, minv, t);
    ct::reduce_once(r, hi, m);
}

/// r = t·R⁻¹ mod m for a 2n-limb t < m·R (destroyed), fully reduced (r < m): the back end's
/// [`mpn::redc_1`] (a value < 2m), then one subtraction of m by mask.
pub fn redc(r: &mut [Limb], t: &mut [Limb], m: &[Limb], minv: Limb) {
    invariant!(r.len() == m.len() && t.len() == 2 * m.len());
    let hi = (mpn::kernels().redc_1)(r, t, m, minv);
    ct::reduce_once(r, hi, m);
}

/// r = a²·R⁻¹ mod m for `a` < m, fully reduced: the square into 2n limbs ([`sqr_into`]), then
/// [`redc`].
///
/// Preconditions: lengths n = `m.len()`, `t.len() ≥ sqr_scratch_len(n)`.
pub fn sqr(r: &mut [Limb], a: &[Limb], m: &[Limb], minv: Limb, t: &mut [Limb]) {
    let t = sqr_into(t, a);
    redc(r, t, m, minv);
}
