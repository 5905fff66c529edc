//! The engine's entry points for one exponentiation ([`Modulus::pow_on`], and where
//! [`Modulus::pow`] and [`Modulus::pow_vartime`] hand over to it) and for pairs
//! ([`pow_pair`], [`pow_pair_on`], [`pow_pair_vartime`]).

use crate::limb::Limb;

use super::super::{Modulus, Residue};
use super::job::{PowJob, PowJobVartime};
use alloc::boxed::Box;

use crate::backend::{PowPath, Shape, path_for_pair, path_for_pow, path_for_pow_vartime, pow_path};

use super::calibrate::layout;
use super::constants::EngineConstants;
use super::shape::{Layout, layout_of};
use super::single::{Exponent, run, run_pair};

/// The two exponentiations `a` and `b` (RSA's CRT halves), on the path the backend chooses for
/// their size ([`pow_path`](crate::backend::pow_path) wherever the engine takes the size; see
/// [`pow_pair_on`]): on the 52-bit engine in the shape of this CPU (interleaved in one loop, or
/// one after the other), else with [`Modulus::pow`] each.
///
/// # Constant time
///
/// As [`Modulus::pow`], for each job.
///
/// # Panics
///
/// As [`Modulus::pow`], for each job.
pub fn pow_pair(a: &PowJob<'_>, b: &PowJob<'_>) -> (Residue, Residue) {
    pow_pair_on(path_for_pair(a.modulus.bits()), a, b).unwrap_or_else(|| {
        (
            a.modulus.pow(a.base, a.exp, a.exp_bits),
            b.modulus.pow(b.base, b.exp, b.exp_bits),
        )
    })
}

/// [`pow_pair`] on a chosen path, or none if this CPU lacks it or the 52-bit engine cannot
/// interleave the two (moduli of different digit counts, or outside
/// [`ifma_supports`](crate::backend::ifma_supports)). On [`PowPath::Limbs`], the two
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
    pow_pair_laid_out(path, a, b, || {
        Some((layout(a.modulus.bits())?, layout(b.modulus.bits())?))
    })
}

/// [`pow_pair_on`] in a chosen [`Shape`] rather than this CPU's (to measure each shape, and to
/// test each on every machine), or none where no instance of exactly that shape (width, and
/// interleaved or not) is compiled for the moduli's size. On [`PowPath::Limbs`], as
/// [`pow_pair_on`] (the shape is the engine's only).
///
/// # Constant time
///
/// As [`pow_pair_on`].
///
/// # Panics
///
/// As [`Modulus::pow`], for each job.
pub fn pow_pair_shaped(
    path: PowPath,
    shape: Shape,
    a: &PowJob<'_>,
    b: &PowJob<'_>,
) -> Option<(Residue, Residue)> {
    pow_pair_laid_out(path, a, b, || {
        let lays = (
            layout_of(a.modulus.bits(), shape)?,
            layout_of(b.modulus.bits(), shape)?,
        );
        (lays.0.interleave == shape.interleave).then_some(lays)
    })
}

/// [`pow_pair_on`] on the layouts `lays` gives for a's and b's sizes (none where it gives none
/// or they differ). The limbs and an unavailable path are settled first: `lays` is asked only
/// when the engine runs, since the chosen layout may first calibrate the size (a few
/// milliseconds of the engine), which a pair on the limbs must not pay.
fn pow_pair_laid_out(
    path: PowPath,
    a: &PowJob<'_>,
    b: &PowJob<'_>,
    lays: impl FnOnce() -> Option<(Layout, Layout)>,
) -> Option<(Residue, Residue)> {
    for j in [a, b] {
        j.modulus.check_pow_args(j.base, j.exp, j.exp_bits);
    }
    if path == PowPath::Limbs {
        return Some((
            a.modulus.pow_limbs(a.base, a.exp, a.exp_bits),
            b.modulus.pow_limbs(b.base, b.exp, b.exp_bits),
        ));
    }
    if !path.is_available() {
        return None;
    }
    let (lay, lay_b) = lays()?;
    if lay_b.lanes_nv() != lay.lanes_nv() {
        return None;
    }
    let [ra, rb] = run_pair(path, lay, [a, b], Exponent::Secret)?;
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
/// If a base belongs to another modulus (any other, in every build).
pub fn pow_pair_vartime(a: &PowJobVartime<'_>, b: &PowJobVartime<'_>) -> (Residue, Residue) {
    let path = path_for_pair(a.modulus.bits());
    let fused = (path != PowPath::Limbs)
        .then(|| {
            let lay = layout(a.modulus.bits())?;
            (layout(b.modulus.bits())?.lanes_nv() == lay.lanes_nv()).then_some(lay)
        })
        .flatten();
    if let Some(lay) = fused {
        for j in [a, b] {
            j.modulus.check(j.base);
        }
        let jobs = [a, b].map(|j| PowJob {
            modulus: j.modulus,
            base: j.base,
            exp: j.exp,
            exp_bits: public_bits(j.exp),
        });
        if let Some([ra, rb]) = run_pair(path, lay, [&jobs[0], &jobs[1]], Exponent::Public) {
            return (ra, rb);
        }
    }
    (
        a.modulus.pow_vartime(a.base, a.exp),
        b.modulus.pow_vartime(b.base, b.exp),
    )
}

/// The bit length of a public exponent.
pub fn public_bits(exp: &[Limb]) -> usize {
    exp.iter()
        .rposition(|&e| e != 0)
        .map_or(0, |top| 64 * top + 64 - exp[top].leading_zeros() as usize)
}

impl Modulus {
    /// Computes the 52-bit engine's constants for m once and keeps them with the modulus (m
    /// and the conversion constants in digits, and k0), where the path in use
    /// ([`pow_path`]) is the engine and it takes m's size; else does nothing. Each
    /// exponentiation modulo m, single or paired, then starts without computing them: for a
    /// modulus that serves many, as an RSA key's primes do (the CRT private operation runs
    /// six exponentiations modulo its primes).
    ///
    /// # Constant time
    ///
    /// As [`Modulus::new`]; it branches on m's bit length, which is public
    /// ([`Modulus::bits`]).
    pub fn keep_engine_constants(&mut self) {
        self.keep_engine_constants_on(pow_path());
    }

    internal! {
        /// [`Modulus::keep_engine_constants`] as if `path` were the path in use.
        pub(crate) fn keep_engine_constants_on(&mut self, path: PowPath) {
            if path == PowPath::Limbs {
                return;
            }
            if let Some(lay) = layout(self.bits()) {
                let len = lay.lanes * lay.nv;
                self.engine = Some(Box::new(EngineConstants::new(self, lay.steps, len)));
            }
        }
    }

    /// [`Modulus::pow`] on a chosen path, or none if this CPU lacks the path or the 52-bit
    /// engine does not take m's size ([`ifma_supports`](crate::backend::ifma_supports)).
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

    internal! {
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
            let [r] = run(path, layout(self.bits())?.lanes_nv(), [&job], kind)?;
            Some(r)
        }
    }

    /// The 52-bit engine for [`Modulus::pow`] where
    /// [`backend::path_for_pow`](crate::backend::path_for_pow) chooses it for m's size.
    pub(crate) fn pow_ifma_if_chosen(
        &self,
        base: &Residue,
        exp: &[Limb],
        exp_bits: usize,
    ) -> Option<Residue> {
        match path_for_pow(self.bits()) {
            PowPath::Limbs => None,
            path => self.pow_on(path, base, exp, exp_bits),
        }
    }

    /// The 52-bit engine for [`Modulus::pow_vartime`] (public exponent) where
    /// [`backend::path_for_pow_vartime`](crate::backend::path_for_pow_vartime) chooses it
    /// for m's size and the exponent's length.
    pub(crate) fn pow_vartime_ifma_if_chosen(
        &self,
        base: &Residue,
        exp: &[Limb],
    ) -> Option<Residue> {
        let exp_bits = public_bits(exp);
        match path_for_pow_vartime(self.bits(), exp_bits) {
            PowPath::Limbs => None,
            path => self.run_single(path, base, exp, exp_bits, Exponent::Public),
        }
    }
}
