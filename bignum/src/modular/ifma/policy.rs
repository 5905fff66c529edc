//! The path policy: which exponentiation engine runs ([`PowPath`], chosen once by
//! [`pow_path`] from the CPU and `BIGNUM_BACKEND`), and the modulus and exponent sizes the
//! 52-bit engine takes.

use alloc::vec::Vec;
use core::sync::atomic::{AtomicU8, Ordering};

use crate::cpu::Requested;

#[allow(unused_imports)] // for the docs
use super::super::Modulus;

/// The smallest modulus, in bits, that [`Modulus::pow`] sends to the IFMA instructions: below
/// it the 64-bit kernels are as fast.
pub const IFMA_MIN_BITS: usize = 1000;

/// The shortest public exponent, in bits, that [`Modulus::pow_vartime`] sends to the IFMA
/// instructions (from [`IFMA_MIN_BITS`]-bit moduli): shorter ones run on the 64-bit limbs.
pub(super) const VARTIME_MIN_EXP_BITS: usize = 256;

/// The largest modulus the engine takes, in bits: 80 digits of 52 bits less the two spare bits
/// (RSA-8192's halves).
pub const IFMA_MAX_BITS: usize = 52 * 80 - 2;

/// An exponentiation engine, for [`Modulus::pow_on`] and [`pow_pair_on`](super::pow_pair_on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PowPath {
    /// The 64-bit limbs and the `mpn` kernels of the back end in use.
    Limbs,
    /// The 52-bit engine on the AVX-512 IFMA instructions.
    Ifma,
    /// The 52-bit engine on the portable model of the instructions: slow, for tests and the
    /// constant-time check on every machine. Compiled only with the `test-hooks` feature
    /// (elsewhere it is never available).
    IfmaModel,
}

impl PowPath {
    /// The path's name in reports: `limbs`, `ifma`, `ifma-model`.
    pub fn name(self) -> &'static str {
        match self {
            PowPath::Limbs => "limbs",
            PowPath::Ifma => "ifma",
            PowPath::IfmaModel => "ifma-model",
        }
    }

    /// Whether this CPU runs the path (the limbs run everywhere, the model wherever it is
    /// compiled in: with the `test-hooks` feature).
    pub fn is_available(self) -> bool {
        match self {
            PowPath::Limbs => true,
            PowPath::Ifma => crate::cpu::ifma().is_some(),
            PowPath::IfmaModel => cfg!(any(test, feature = "test-hooks")),
        }
    }

    /// Every path this CPU runs.
    pub fn available() -> Vec<PowPath> {
        [PowPath::Limbs, PowPath::Ifma, PowPath::IfmaModel]
            .into_iter()
            .filter(|p| p.is_available())
            .collect()
    }
}

/// The path [`Modulus::pow`] and [`pow_pair`](super::pow_pair) take for the sizes the engine
/// supports, chosen
/// once: IFMA when the CPU has it, unless `BIGNUM_BACKEND` names a 64-bit back end (`adx`,
/// `portable`); `BIGNUM_BACKEND=ifma-model` sends them through the model of the instructions
/// (slow: for the constant-time check under valgrind, which cannot execute AVX-512).
pub fn pow_path() -> PowPath {
    // 0 until chosen, then 1 + the path's index in `PATHS`. Relaxed: the byte is the whole
    // message; a race on the first call makes the same choice twice.
    const PATHS: [PowPath; 3] = [PowPath::Limbs, PowPath::Ifma, PowPath::IfmaModel];
    static CHOSEN: AtomicU8 = AtomicU8::new(0);
    let code = usize::from(CHOSEN.load(Ordering::Relaxed));
    if let Some(&p) = code.checked_sub(1).and_then(|i| PATHS.get(i)) {
        return p;
    }
    let path = choose_pow_path();
    let at = PATHS.iter().position(|&p| p == path).unwrap_or(0);
    CHOSEN.store(u8::try_from(at + 1).unwrap_or(0), Ordering::Relaxed);
    path
}

/// The choice of [`pow_path`]: `BIGNUM_BACKEND` with `std` ([`Requested`], the reading
/// `mpn::kernels` shares), detection otherwise.
#[cold]
fn choose_pow_path() -> PowPath {
    match Requested::from_env() {
        Requested::IfmaModel if PowPath::IfmaModel.is_available() => PowPath::IfmaModel,
        Requested::IfmaModel => {
            #[cfg(feature = "std")]
            std::eprintln!(
                "bignum: BIGNUM_BACKEND=ifma-model: built without the model (the `test-hooks` \
                 feature), detecting instead"
            );
            detected_pow_path()
        }
        // A kernel table (even one this CPU lacks, which `mpn` warns about): the 64-bit limbs.
        Requested::Kernels(_) => PowPath::Limbs,
        Requested::Detect | Requested::Ifma => detected_pow_path(),
    }
}

/// IFMA where the CPU has it, else the limbs.
fn detected_pow_path() -> PowPath {
    if PowPath::Ifma.is_available() {
        PowPath::Ifma
    } else {
        PowPath::Limbs
    }
}

/// Whether the engine takes a modulus of `bits` bits ([`IFMA_MAX_BITS`] at most).
pub fn ifma_supports(bits: usize) -> bool {
    (3..=IFMA_MAX_BITS).contains(&bits)
}
