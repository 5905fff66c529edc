//! The engine's entry points for one exponentiation ([`Modulus::pow_on`], and where
//! [`Modulus::pow`] and [`Modulus::pow_vartime`] hand over to it) and for pairs
//! ([`pow_pair`], [`pow_pair_on`], [`pow_pair_vartime`]).

use crate::limb::Limb;

use super::super::{Modulus, Residue};
use super::job::{PowJob, PowJobVartime};
use super::policy::{IFMA_MIN_BITS, PowPath, VARTIME_MIN_EXP_BITS, pow_path};
use super::shape::{MAX_PAIR_VECTORS, shape};
use super::single::{Exponent, run};

/// The two exponentiations `a` and `b` (RSA's CRT halves), interleaved in one loop when the
/// path in use ([`pow_path`]) can ([`pow_pair_on`]), else one after the other with
/// [`Modulus::pow`].
///
/// # Constant time
///
/// As [`Modulus::pow`], for each job.
///
/// # Panics
///
/// As [`Modulus::pow`], for each job.
pub fn pow_pair(a: &PowJob<'_>, b: &PowJob<'_>) -> (Residue, Residue) {
    pow_pair_on(pow_path(), a, b).unwrap_or_else(|| {
        (
            a.modulus.pow(a.base, a.exp, a.exp_bits),
            b.modulus.pow(b.base, b.exp, b.exp_bits),
        )
    })
}

/// [`pow_pair`] on a chosen path, or none if this CPU lacks it or the 52-bit engine cannot
/// interleave the two (moduli of different digit counts, or outside
/// [`ifma_supports`](super::policy::ifma_supports)). On [`PowPath::Limbs`], the two
/// exponentiations one after the other.
///
/// # Constant time
///
/// As [`Modulus::pow`], for each job; whether a result comes back depends on sizes only.
///
/// # Panics
///
/// As [`Modulus::pow`], for each job.
pub fn pow_pair_on(path: PowPath, a: &PowJob<'_>, b: &PowJob<'_>) -> Option<(Residue, Residue)> {
    for j in [a, b] {
        j.modulus.check_pow_args(j.base, j.exp, j.exp_bits);
    }
    if path == PowPath::Limbs {
        return Some((
            a.modulus.pow_limbs(a.base, a.exp, a.exp_bits),
            b.modulus.pow_limbs(b.base, b.exp, b.exp_bits),
        ));
    }
    let shape_a = shape(a.modulus.bits())?;
    if shape(b.modulus.bits())? != shape_a || !path.is_available() {
        return None;
    }
    if shape_a.1 > MAX_PAIR_VECTORS {
        let [ra] = run(path, shape_a, [a], Exponent::Secret)?;
        let [rb] = run(path, shape_a, [b], Exponent::Secret)?;
        return Some((ra, rb));
    }
    let [ra, rb] = run(path, shape_a, [a, b], Exponent::Secret)?;
    Some((ra, rb))
}

/// The two exponentiations by a PUBLIC exponent (RSA's e: the blinding r^e and the fault check
/// modulo each prime), interleaved on the 52-bit engine where the path in use is IFMA and the
/// moduli have one digit count, else [`Modulus::pow_vartime`] each.
///
/// # Constant time
///
/// Not in the exponents (public; their bits steer the squarings and multiplications); the
/// bases and moduli may be secret.
///
/// # Panics
///
/// If a base belongs to another modulus (of another limb count; in debug builds, any other).
pub fn pow_pair_vartime(a: &PowJobVartime<'_>, b: &PowJobVartime<'_>) -> (Residue, Residue) {
    let path = pow_path();
    let fused = (path != PowPath::Limbs)
        .then(|| {
            let shape_a = shape(a.modulus.bits())?;
            (shape(b.modulus.bits())? == shape_a).then_some(shape_a)
        })
        .flatten();
    if let Some(shape) = fused {
        for j in [a, b] {
            j.modulus.check(j.base);
        }
        let jobs = [a, b].map(|j| PowJob {
            modulus: j.modulus,
            base: j.base,
            exp: j.exp,
            exp_bits: public_bits(j.exp),
        });
        let results = if shape.1 > MAX_PAIR_VECTORS {
            run(path, shape, [&jobs[0]], Exponent::Public)
                .zip(run(path, shape, [&jobs[1]], Exponent::Public))
                .map(|([ra], [rb])| [ra, rb])
        } else {
            run(path, shape, [&jobs[0], &jobs[1]], Exponent::Public)
        };
        if let Some([ra, rb]) = results {
            return (ra, rb);
        }
    }
    (
        a.modulus.pow_vartime(a.base, a.exp),
        b.modulus.pow_vartime(b.base, b.exp),
    )
}

/// The bit length of a public exponent.
pub(super) fn public_bits(exp: &[Limb]) -> usize {
    exp.iter()
        .rposition(|&e| e != 0)
        .map_or(0, |top| 64 * top + 64 - exp[top].leading_zeros() as usize)
}

impl Modulus {
    /// [`Modulus::pow`] on a chosen path, or none if this CPU lacks the path or the 52-bit
    /// engine does not take m's size ([`ifma_supports`](super::ifma_supports)).
    ///
    /// # Constant time
    ///
    /// As [`Modulus::pow`]; whether a result comes back depends on sizes only.
    ///
    /// # Panics
    ///
    /// As [`Modulus::pow`].
    pub fn pow_on(
        &self,
        path: PowPath,
        base: &Residue,
        exp: &[Limb],
        exp_bits: usize,
    ) -> Option<Residue> {
        self.check_pow_args(base, exp, exp_bits);
        if path == PowPath::Limbs {
            return Some(self.pow_limbs(base, exp, exp_bits));
        }
        if !path.is_available() {
            return None;
        }
        self.run_single(path, base, exp, exp_bits, Exponent::Secret)
    }

    /// One exponentiation on the engine (`path` available), or none outside its sizes.
    pub(super) fn run_single(
        &self,
        path: PowPath,
        base: &Residue,
        exp: &[Limb],
        exp_bits: usize,
        kind: Exponent,
    ) -> Option<Residue> {
        let job = PowJob {
            modulus: self,
            base,
            exp,
            exp_bits,
        };
        let [r] = run(path, shape(self.bits())?, [&job], kind)?;
        Some(r)
    }
    /// The 52-bit engine for [`Modulus::pow`] when the path in use is IFMA and m's size is
    /// one it takes with profit (at least [`IFMA_MIN_BITS`]).
    pub(crate) fn pow_ifma_if_chosen(
        &self,
        base: &Residue,
        exp: &[Limb],
        exp_bits: usize,
    ) -> Option<Residue> {
        let path = pow_path();
        if path == PowPath::Limbs || self.bits() < IFMA_MIN_BITS {
            return None;
        }
        self.pow_on(path, base, exp, exp_bits)
    }

    /// The 52-bit engine for [`Modulus::pow_vartime`] (public exponent) when the path in use
    /// is IFMA, m has at least [`IFMA_MIN_BITS`] bits and the exponent at least
    /// [`VARTIME_MIN_EXP_BITS`]: a short exponent (RSA's e) does not pay for the conversions
    /// into and out of radix 2^52.
    pub(crate) fn pow_vartime_ifma_if_chosen(
        &self,
        base: &Residue,
        exp: &[Limb],
    ) -> Option<Residue> {
        let path = pow_path();
        let exp_bits = public_bits(exp);
        if path == PowPath::Limbs || self.bits() < IFMA_MIN_BITS || exp_bits < VARTIME_MIN_EXP_BITS
        {
            return None;
        }
        self.run_single(path, base, exp, exp_bits, Exponent::Public)
    }
}
