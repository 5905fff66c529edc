//! What runs: the kernel table, the exponentiation path, and which operations of which sizes
//! take the 52-bit engine; with the names the reports print for them.

use alloc::format;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicU8, Ordering};

use super::engine::{IFMA_MIN_BITS, VARTIME_MIN_EXP_BITS, ifma_supports};
use super::env::{BACKEND_ENV, BackendRequest, backend_request, warn};
use super::kernels::KernelTable;
use crate::cpu;

/// The kernel table in use, chosen once: the one [`BACKEND_ENV`] names where this CPU runs it
/// (else a warning, and the fastest), otherwise the fastest. `mpn::kernels` hands out its
/// functions.
pub fn kernel_table() -> KernelTable {
    // 0 until chosen, then 1 + the table's index in `KernelTable::ALL`. Relaxed: the byte is
    // the whole message; a race on the first call makes the same choice twice.
    static CHOSEN: AtomicU8 = AtomicU8::new(0);
    let code = usize::from(CHOSEN.load(Ordering::Relaxed));
    if let Some(&t) = code.checked_sub(1).and_then(|i| KernelTable::ALL.get(i)) {
        return t;
    }
    let table = choose_kernel_table();
    let at = KernelTable::ALL
        .iter()
        .position(|&t| t == table)
        .unwrap_or(0);
    CHOSEN.store(u8::try_from(at + 1).unwrap_or(0), Ordering::Relaxed);
    table
}

/// The choice of [`kernel_table`].
#[cold]
fn choose_kernel_table() -> KernelTable {
    let fastest = KernelTable::fastest();
    match backend_request() {
        BackendRequest::Table(t) if t.is_available() => *t,
        BackendRequest::Table(t) => not_here(t.name(), fastest),
        BackendRequest::Unknown(name) => not_here(name, fastest),
        BackendRequest::Ifma if cpu::ifma().is_none() => {
            warn(&format!(
                "{BACKEND_ENV}=ifma: this CPU has no AVX-512 IFMA, detecting instead"
            ));
            fastest
        }
        // `ifma` and `ifma-model` name the 52-bit engine, not a table (`pow_path` warns about
        // the model): the kernels are the detected ones.
        BackendRequest::Detect | BackendRequest::Ifma | BackendRequest::IfmaModel => fastest,
    }
}

/// The warning for a table this CPU does not run, and the table taken instead.
#[cold]
fn not_here(name: &str, fastest: KernelTable) -> KernelTable {
    warn(&format!(
        "{BACKEND_ENV}={name} is not available here, detecting instead"
    ));
    fastest
}

/// An exponentiation engine, for `Modulus::pow_on` and `modular::pinned`.
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
            PowPath::Ifma => cpu::ifma().is_some(),
            PowPath::IfmaModel => cfg!(feature = "test-hooks"),
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

/// The path the exponentiations take for the sizes the engine supports, chosen once: IFMA when
/// the CPU has it, unless [`BACKEND_ENV`] names a kernel table (`adx`, `portable`);
/// `ifma-model` sends them through the model of the instructions (slow: for the constant-time
/// check under valgrind, which cannot execute AVX-512).
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

/// The choice of [`pow_path`].
#[cold]
fn choose_pow_path() -> PowPath {
    let detected = if PowPath::Ifma.is_available() {
        PowPath::Ifma
    } else {
        PowPath::Limbs
    };
    match backend_request() {
        BackendRequest::IfmaModel if PowPath::IfmaModel.is_available() => PowPath::IfmaModel,
        BackendRequest::IfmaModel => {
            warn(&format!(
                "{BACKEND_ENV}=ifma-model: built without the model (the `test-hooks` feature), \
                 detecting instead"
            ));
            detected
        }
        // A kernel table (even one this CPU lacks, which `choose_kernel_table` warns about):
        // the 64-bit limbs.
        BackendRequest::Table(_) | BackendRequest::Unknown(_) => PowPath::Limbs,
        BackendRequest::Detect | BackendRequest::Ifma => detected,
    }
}

/// The path of one secret-exponent exponentiation (`Modulus::pow`) modulo `bits` bits:
/// [`pow_path`] from [`IFMA_MIN_BITS`] up to the engine's largest size, the limbs elsewhere.
pub fn path_for_pow(bits: usize) -> PowPath {
    if bits < IFMA_MIN_BITS || !ifma_supports(bits) {
        return PowPath::Limbs;
    }
    pow_path()
}

/// The path of one public-exponent exponentiation (`Modulus::pow_vartime`): as
/// [`path_for_pow`], and the limbs for exponents shorter than [`VARTIME_MIN_EXP_BITS`].
pub fn path_for_pow_vartime(bits: usize, exp_bits: usize) -> PowPath {
    if exp_bits < VARTIME_MIN_EXP_BITS {
        return PowPath::Limbs;
    }
    path_for_pow(bits)
}

/// The path of a pair (`modular::pow_pair`, `pow_pair_vartime`: RSA's CRT halves): [`pow_path`]
/// for every size the engine supports, even below [`IFMA_MIN_BITS`] (two numbers interleaved
/// keep the multipliers busy where one does not).
pub fn path_for_pair(bits: usize) -> PowPath {
    if !ifma_supports(bits) {
        return PowPath::Limbs;
    }
    pow_path()
}

/// Whether groups of private operations take the eight-lane batch engine (`pow_batch`): only
/// on the real instructions (the model would be slower than the single path's limbs).
pub fn path_for_batch() -> Option<PowPath> {
    (pow_path() == PowPath::Ifma).then_some(PowPath::Ifma)
}

/// The back ends this CPU runs, as [`BACKEND_ENV`] spells them, slowest first: the kernel
/// tables, then `ifma`.
pub fn available() -> Vec<&'static str> {
    let mut names: Vec<&str> = KernelTable::available()
        .into_iter()
        .map(KernelTable::name)
        .collect();
    if PowPath::Ifma.is_available() {
        names.push("ifma");
    }
    names
}

/// The back end this process runs: `ifma` (or `ifma-model`) when the exponentiations take the
/// 52-bit engine, else the name of the kernel table in use.
pub fn current() -> &'static str {
    match pow_path() {
        PowPath::Ifma => "ifma",
        PowPath::IfmaModel => "ifma-model",
        PowPath::Limbs => kernel_table().name(),
    }
}
