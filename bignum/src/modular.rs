//! Constant-time arithmetic modulo an odd modulus, in Montgomery form, and the constant-time
//! integer helpers RSA key generation needs.
//!
//! A [`Modulus`] of n limbs fixes R = 2^(64·n), m' = -m⁻¹ mod 2⁶⁴ and R² mod m. A [`Residue`]
//! holds a secret a mod m as a·R mod m (fully reduced, < m). Montgomery multiplication gives
//! a·b·R⁻¹: for a, b < m the unreduced result is (a·b + q·m)/R < (m·R + R·m)/R = 2m, so one
//! subtraction of m, done by mask, makes it < m.
//!
//! Operations: [`Modulus::reduce`] (any length, also for a secret modulus), [`Modulus::retrieve`],
//! `add`, `sub`, `neg`, `mul` (product + REDC), `sqr` (square + REDC), [`Modulus::pow`] (fixed window,
//! constant-time table gather), [`Modulus::pow_vartime`] (public exponent), [`Modulus::inv`]
//! (binary extended gcd with a fixed step count); and on plain secret integers, [`gcd`], [`lcm`],
//! [`div_rem`], [`rem`], [`inv_public_mod_secret`] (e⁻¹ mod an even secret m).
//!
//! # Constant time
//!
//! Everything here is constant-time in the values of the modulus, the residues and the
//! exponent: no branch, memory index, division or allocation size depends on them. Only sizes
//! leak: limb counts, the bit length of the modulus and the exponent bit length given to `pow`.
//! The exception is [`Modulus::pow_vartime`], whose exponent is public.
//! `bignum/tests/ct.rs` checks this under valgrind memcheck (`.ci/ct-check`).

internal_mod!(ct);
internal_mod!(ifma_engine);
mod inv;
internal_mod!(modulus);
internal_mod!(mont);
internal_mod!(pow);
mod residue;
mod secret_integers;

pub use ifma_engine::{BATCH_LANES, PowJob, PowJobVartime, pow_batch, pow_pair, pow_pair_vartime};
#[cfg(feature = "test-hooks")]
pub use ifma_engine::{ifma_batch_runs, ifma_runs};
pub use modulus::Modulus;
pub use residue::Residue;
pub use secret_integers::{div_rem, gcd, inv_public_mod_secret, lcm, rem};

/// The engine run by hand: exponentiations on a path or in a shape the caller chooses, the
/// calibration of the engine's shapes ahead of time, and the shapes as the engine lays the RSA
/// sizes out. For benchmarks, tests and reports that compare or name the choices; ordinary
/// code calls [`Modulus::pow`], [`pow_pair`] and [`pow_batch`], which take the path and shape
/// `crate::backend` chooses.
pub mod tuning {
    pub use super::ifma_engine::{
        EngineShape, calibrate_shapes, engine_shapes, pow_batch_on, pow_pair_on, pow_pair_shaped,
    };
}
