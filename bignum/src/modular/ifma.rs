//! The 52-bit exponentiation engine: constant-time modular exponentiation on AVX-512 IFMA,
//! of one modulus or of two interleaved (RSA's CRT halves).
//!
//! # Representation
//!
//! A number below 2^(52·d) is d digits of 52 bits, one per 64-bit lane, d a multiple of the
//! lane count; d is the least with 52·d ≥ bits(m) + 2, so that R = 2^(52·d) > 4m. The engine
//! works in the Montgomery form of radix 2^52: x·R mod m.
//!
//! # Almost-Montgomery multiplication (AMM)
//!
//! For a, b < 2m and k0 = −m⁻¹ mod 2^52, digit by digit of b (Gueron, "Efficient software
//! implementations of modular exponentiation", 2012): acc += a·b_j, y = acc₀·k0 mod 2^52,
//! acc += m·y (now acc₀ ≡ 0 mod 2^52), acc /= 2^52. After d steps acc = (a·b + Y·m)/R <
//! (4m² + R·m)/R < 2m because 4m < R: the result is again a valid input, and no step
//! compares with m. Each step adds, per lane, the low halves of a_i·b_j and m_i·y
//! (`vpmadd52luq`), shifts the accumulator down one lane (`valignq`), then adds the high halves
//! (`vpmadd52huq`), which now sit one lane lower, where they belong. A lane grows by less than
//! 2^54 per step, so d ≤ 128 steps stay below 2^61: no carry is propagated inside the loop.
//! Digit 0, the one y depends on, is carried exactly in a general register (the full 104-bit
//! products of a₀·b_j and m₀·y in u128), which keeps the serial chain y → acc₀ short; its lane
//! in the vector is never read. At the end the carries are propagated once: each lane's bits
//! above 52 go to the next lane, and the rare ripple through lanes equal to 2^52 − 1 is found
//! with carry-lookahead on the lane masks, as integers (g = lanes above 2^52 − 1, p = lanes
//! equal to it, carries in = ((g << 1) + p) ⊕ p), then applied by masks: no branch.
//!
//! The interleaved form runs K = 2 independent AMMs in one loop: each has a serial chain of
//! latencies per digit (multiply, the y computation, broadcast), and two of them keep the
//! multipliers busy while the other waits. One code serves both: the AMM, the table and the
//! exponentiation are generic in K, in the vector count and in the instruction set.
//!
//! # Exponentiation
//!
//! Fixed window of [`WINDOW`] bits: a table of base^0 … base^31 in radix-52 Montgomery form,
//! then per window five AMM squarings and one AMM by the entry, which a gather finds by
//! reading every entry and keeping one by mask (a vector compare of the secret index with each
//! entry's number, then a masked blend). A squaring is an AMM of a number by itself: the
//! digit-serial AMM has no cheaper square (a squaring saves half of the products only when the
//! whole product is formed first, and then the reduction is the serial part).
//!
//! Conversions stay in the existing 64-bit Montgomery domain (R' = 2^(64·n)): a residue's limbs
//! x·R' become digits, one AMM by 2^(104·d − 64·n) mod m takes them to x·R, and at the end one
//! AMM by R' mod m takes b^e·R back to b^e·R'; a masked subtraction of m makes it canonical.
//!
//! # Written once, checked on every machine
//!
//! The algorithm is generic over [`Ifma52`]: with the AVX-512 instructions where the CPU has
//! them, and with [`Model`], the plain-Rust model of each instruction, everywhere. The tests
//! run every size through the model against [`Modulus::pow`] and num-bigint, and, where the CPU
//! has IFMA, require the instructions to equal the model bit for bit.
//!
//! # Constant time
//!
//! Time and memory accesses depend on the digit count, K and the exponent's bit length only:
//! the loops have public bounds, the table is read whole per window, the final propagation and
//! subtraction are masks. valgrind cannot execute AVX-512, so `.ci/ct-check` runs this same
//! generic code instantiated with the model ([`PowPath::IfmaModel`]: the same control flow
//! and memory accesses) with the secrets marked undefined, beside a negative control;
//! `rsa/examples/dudect.rs` times the native path on CPUs that have it. The heap buffers that
//! hold secrets (digits, the table, the accumulators between products) are wiped on drop.

// The hot loops index several arrays of vectors in step (a, m, the accumulators of K
// products): one index reads closer to the instructions than zipped iterators.
#![allow(clippy::needless_range_loop)]

use alloc::{borrow::Cow, boxed::Box, vec, vec::Vec};
#[cfg(any(test, feature = "test-hooks"))]
use core::sync::atomic::AtomicU64;
use core::sync::atomic::{AtomicU8, Ordering};

use zeroize::{Zeroize, Zeroizing};

use crate::cpu::Requested;
use crate::limb::{self, Limb};
use crate::mpn;
#[cfg(any(test, feature = "test-hooks"))]
use crate::mpn::ifma::Model;
use crate::mpn::ifma::{Ifma52, MASK52, Task};

use super::pow::exp_bits_at;
use super::{Modulus, Residue, ct};

/// The window width of the exponentiation, in bits (a table of 2^5 entries, as OpenSSL's).
pub(crate) const WINDOW: usize = 5;

/// The smallest modulus, in bits, that [`Modulus::pow`] sends to the IFMA instructions: below
/// it the 64-bit kernels are as fast.
pub const IFMA_MIN_BITS: usize = 1000;

/// The shortest public exponent, in bits, that [`Modulus::pow_vartime`] sends to the IFMA
/// instructions (from [`IFMA_MIN_BITS`]-bit moduli): shorter ones run on the 64-bit limbs.
const VARTIME_MIN_EXP_BITS: usize = 256;

/// The largest modulus the engine takes, in bits: 80 digits of 52 bits less the two spare bits
/// (RSA-8192's halves).
pub const IFMA_MAX_BITS: usize = 52 * 80 - 2;

/// Moduli of up to this many digits run on 256-bit registers (four lanes), larger ones on
/// 512-bit registers (eight lanes). Measured on AMD Zen 5 (`bignum/examples/pow_paths.rs`,
/// best of 7): a 1024-bit pair took 180 µs on four lanes (20 digits) and 197 µs on eight
/// (24); at 1536 bits 607 against 387 µs, at 2048 bits 1434 against 728: from there eight
/// lanes do half the instructions, and four lanes run out of registers.
const MAX_DIGITS_ON_4_LANES: usize = 24;

/// An exponentiation engine, for [`Modulus::pow_on`] and [`pow_pair_on`].
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

/// The path [`Modulus::pow`] and [`pow_pair`] take for the sizes the engine supports, chosen
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

/// How many exponentiations (single or interleaved pairs, one each) the IFMA instructions ran
/// in this process: the proof for tests that the native path really ran. With the
/// `test-hooks` feature only.
#[cfg(any(test, feature = "test-hooks"))]
pub fn ifma_runs() -> u64 {
    IFMA_RUNS.load(Ordering::Relaxed)
}

#[cfg(any(test, feature = "test-hooks"))]
static IFMA_RUNS: AtomicU64 = AtomicU64::new(0);

/// One exponentiation of [`pow_pair`]: base^exp mod m with the low `exp_bits` bits of `exp`.
#[derive(Clone, Copy, Debug)]
pub struct PowJob<'a> {
    /// The modulus.
    pub modulus: &'a Modulus,
    /// The base, a residue of `modulus`.
    pub base: &'a Residue,
    /// The exponent, little-endian limbs (secret).
    pub exp: &'a [Limb],
    /// Its bit length (public).
    pub exp_bits: usize,
}

/// One exponentiation of [`pow_pair_vartime`]: base^exp mod m by a PUBLIC exponent, whose own
/// bit length is used (there is no secret length to pad it to).
#[derive(Clone, Copy, Debug)]
pub struct PowJobVartime<'a> {
    /// The modulus.
    pub modulus: &'a Modulus,
    /// The base, a residue of `modulus`.
    pub base: &'a Residue,
    /// The exponent, little-endian limbs (public).
    pub exp: &'a [Limb],
}

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
/// interleave the two (moduli of different digit counts, or outside [`ifma_supports`]). On
/// [`PowPath::Limbs`], the two exponentiations one after the other.
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
fn public_bits(exp: &[Limb]) -> usize {
    exp.iter()
        .rposition(|&e| e != 0)
        .map_or(0, |top| 64 * top + 64 - exp[top].leading_zeros() as usize)
}

/// Whether [`pow_k`] may branch on the exponent's bits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Exponent {
    /// Secret: fixed window, masked gather.
    Secret,
    /// Public: left-to-right square-and-multiply.
    Public,
}

impl Modulus {
    /// [`Modulus::pow`] on a chosen path, or none if this CPU lacks the path or the 52-bit
    /// engine does not take m's size ([`ifma_supports`]).
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
    fn run_single(
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

    /// [`Modulus::keep_engine_constants`] as if `path` were the path in use.
    pub(crate) fn keep_engine_constants_on(&mut self, path: PowPath) {
        if path == PowPath::Limbs {
            return;
        }
        if let Some((lanes, nv)) = shape(self.bits()) {
            self.engine = Some(Box::new(EngineConstants::new(self, lanes * nv)));
        }
    }

    /// The kept constants' digits (m, and the two conversion constants), for the constant-time
    /// drivers to mark secret with m's limbs; empty if none are kept. With the `test-hooks`
    /// feature only.
    #[cfg(feature = "test-hooks")]
    #[doc(hidden)]
    pub fn engine_digits_for_ct_tests(&self) -> Vec<&[u64]> {
        self.engine
            .iter()
            .flat_map(|c| [c.m.as_slice(), c.into.as_slice(), c.out.as_slice()])
            .collect()
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

/// The most vectors per number with which two exponentiations interleave: above it the two
/// accumulator sets of a pair (4·NV registers) and its operands outgrow the 32 vector
/// registers, and the pair runs slower than two single exponentiations (a 4096-bit pair 6.2 ms
/// against 2 × 2.4 ms on Zen 5).
const MAX_PAIR_VECTORS: usize = 5;

/// The lane count for a modulus of `bits` bits, the same for the instructions and the model.
fn lanes_for(bits: usize) -> usize {
    if (bits + 2).div_ceil(52) <= MAX_DIGITS_ON_4_LANES {
        4
    } else {
        8
    }
}

/// The lane and vector counts for a modulus of `bits` bits: d = ⌈(bits + 2)/52⌉ digits
/// rounded up to whole vectors, and up to the next count instantiated (see [`run`]). None
/// outside [`ifma_supports`].
fn shape(bits: usize) -> Option<(usize, usize)> {
    if !ifma_supports(bits) {
        return None;
    }
    let lanes = lanes_for(bits);
    let nv = (bits + 2).div_ceil(52).div_ceil(lanes);
    // Four lanes: 3 to 6 vectors (up to 24 digits); eight lanes: 4 to 10 (up to 80).
    Some((lanes, if lanes == 4 { nv.max(3) } else { nv.max(4) }))
}

/// Calls `$body` with the const `$n` bound to the count `$nv` (of vectors here, of digits in
/// the batch engine), for each count in the list; none for any other count.
macro_rules! with_vectors {
    ($nv:expr, [$($c:literal),*], |$n:ident| $body:expr) => {
        match $nv {
            $($c => {
                const $n: usize = $c;
                Some($body)
            })*
            _ => None,
        }
    };
}
pub(super) use with_vectors;

/// [`with_vectors`] over the vector counts compiled for K numbers on `lanes` lanes: 3 to 6 on
/// four lanes, 4 to 10 on eight; for pairs only those up to [`MAX_PAIR_VECTORS`] (larger pairs
/// run as two singles), so that no pair shape that never runs is compiled.
macro_rules! with_shapes {
    ($k:ident, 4, $nv:expr, |$n:ident| $body:expr) => {
        if const { $k == 1 } {
            with_vectors!($nv, [3, 4, 5, 6], |$n| $body)
        } else {
            with_vectors!($nv, [3, 4, 5], |$n| $body)
        }
    };
    ($k:ident, 8, $nv:expr, |$n:ident| $body:expr) => {
        if const { $k == 1 } {
            with_vectors!($nv, [4, 5, 6, 7, 8, 9, 10], |$n| $body)
        } else {
            with_vectors!($nv, [4, 5], |$n| $body)
        }
    };
}

/// The modulus side of the engine's operands for numbers of d digits: m and the two
/// conversion constants in digits, and the Montgomery constant. Computed for each
/// exponentiation, or once per modulus and kept in it ([`Modulus::keep_engine_constants`]).
/// Secret as m is; wiped on drop.
#[derive(Clone)]
pub(super) struct EngineConstants {
    /// The digit count these are for.
    d: usize,
    /// m.
    pub(super) m: Zeroizing<Vec<u64>>,
    /// 2^(104·d − 64·n) mod m: an AMM by it takes x·R' to x·R.
    pub(super) into: Zeroizing<Vec<u64>>,
    /// R' mod m = 2^(64·n) mod m: an AMM by it takes x·R back to x·R'.
    pub(super) out: Zeroizing<Vec<u64>>,
    /// −m⁻¹ mod 2^52.
    pub(super) k0: u64,
}

impl EngineConstants {
    /// The constants of modulus `m` for numbers of `d` digits.
    ///
    /// # Constant time
    ///
    /// Depends on m's limb count and on `d` only.
    fn new(m: &Modulus, d: usize) -> Self {
        let n = m.limb_len();
        // 104·d ≥ 2·bits + 4 > 64·n − 64 + 4, so the exponent is positive; public.
        let k = 104 * d - 64 * n;
        let mut pow2 = vec![0; (k >> 6) + 1];
        pow2[k >> 6] = 1 << (k & 63);
        let into = m.retrieve(&m.reduce(&pow2));
        EngineConstants {
            d,
            m: to_digits(m.as_limbs(), d),
            into: to_digits(&into, d),
            out: to_digits(&m.one().limbs, d),
            k0: m.minv() & MASK52,
        }
    }
}

impl Drop for EngineConstants {
    fn drop(&mut self) {
        self.k0.zeroize();
    }
}

/// One exponentiation's operands in digits: its modulus's [`EngineConstants`] (kept with the
/// modulus, or computed here) and the base.
pub(super) struct Prepared<'a> {
    /// The modulus side.
    pub(super) c: Cow<'a, EngineConstants>,
    /// The base's limbs, b·R' mod m.
    pub(super) base: Zeroizing<Vec<u64>>,
}

impl<'a> Prepared<'a> {
    pub(super) fn new(job: &PowJob<'a>, d: usize) -> Self {
        let m = job.modulus;
        let c = match &m.engine {
            Some(kept) if kept.d == d => Cow::Borrowed(&**kept),
            _ => Cow::Owned(EngineConstants::new(m, d)),
        };
        Prepared {
            c,
            base: to_digits(&job.base.limbs, d),
        }
    }
}

/// The K exponentiations on `path` with numbers of `nv` vectors of `lanes` lanes, as
/// residues.
fn run<const K: usize>(
    path: PowPath,
    (lanes, nv): (usize, usize),
    jobs: [&PowJob<'_>; K],
    kind: Exponent,
) -> Option<[Residue; K]> {
    if jobs.iter().all(|j| j.exp_bits == 0) {
        return Some(core::array::from_fn(|k| jobs[k].modulus.one()));
    }
    let d = nv * lanes;
    let prepared: [Prepared; K] = core::array::from_fn(|k| Prepared::new(jobs[k], d));
    // The exponents zero-padded to one length, and the longest bit length (public).
    let exp_len = jobs.iter().map(|j| j.exp.len()).max().unwrap_or(0);
    // Bits of an exponent at and above its own exp_bits are not part of it.
    let exps: [Zeroizing<Vec<Limb>>; K] = core::array::from_fn(|k| {
        let mut e = Zeroizing::new(vec![0; exp_len]);
        e[..jobs[k].exp.len()].copy_from_slice(jobs[k].exp);
        clear_bits_from(&mut e, jobs[k].exp_bits);
        e
    });
    let exp_bits = jobs.iter().map(|j| j.exp_bits).max().unwrap_or(0);
    let ops: [Operands<'_>; K] = core::array::from_fn(|k| Operands {
        m: &prepared[k].c.m,
        into: &prepared[k].c.into,
        out: &prepared[k].c.out,
        base: &prepared[k].base,
        k0: prepared[k].c.k0,
        exp: &exps[k],
    });
    let mut digits = Zeroizing::new(vec![0u64; K * d]);
    let ran = match (path, lanes) {
        #[cfg(any(test, feature = "test-hooks"))]
        (PowPath::IfmaModel, 4) => with_shapes!(K, 4, nv, |N| {
            pow_k::<Model<4>, N, K>(Model, &ops, exp_bits, kind, &mut digits)
        }),
        #[cfg(any(test, feature = "test-hooks"))]
        (PowPath::IfmaModel, _) => with_shapes!(K, 8, nv, |N| {
            pow_k::<Model<8>, N, K>(Model, &ops, exp_bits, kind, &mut digits)
        }),
        #[cfg(not(any(test, feature = "test-hooks")))]
        (PowPath::IfmaModel, _) => None,
        (PowPath::Ifma, _) => native((lanes, nv), &ops, exp_bits, kind, &mut digits),
        (PowPath::Limbs, _) => None,
    };
    ran?;
    Some(core::array::from_fn(|k| {
        finish(jobs[k].modulus, &digits[k * d..(k + 1) * d])
    }))
}

/// The native instructions, where the CPU has them.
#[cfg(target_arch = "x86_64")]
fn native<const K: usize>(
    (lanes, nv): (usize, usize),
    ops: &[Operands<'_>; K],
    exp_bits: usize,
    kind: Exponent,
    digits: &mut [u64],
) -> Option<()> {
    use crate::mpn::{Avx512Ifma256, Avx512Ifma512};
    let tok = crate::cpu::ifma()?;
    #[cfg(any(test, feature = "test-hooks"))]
    IFMA_RUNS.fetch_add(1, Ordering::Relaxed);
    if lanes == 8 {
        let isa = Avx512Ifma512::new(tok);
        with_shapes!(K, 8, nv, |N| {
            isa.run(PowTask::<N, K> {
                ops,
                exp_bits,
                kind,
                out: digits,
            })
        })
    } else {
        let isa = Avx512Ifma256::new(tok);
        with_shapes!(K, 4, nv, |N| {
            isa.run(PowTask::<N, K> {
                ops,
                exp_bits,
                kind,
                out: digits,
            })
        })
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn native<const K: usize>(
    _shape: (usize, usize),
    _ops: &[Operands<'_>; K],
    _exp_bits: usize,
    _kind: Exponent,
    _digits: &mut [u64],
) -> Option<()> {
    None
}

/// [`pow_k`] for PUBLIC exponents (all of bit length `exp_bits`, the longest): left-to-right
/// square-and-multiply, branching on the bits, with no table. A job whose exponent is shorter
/// multiplies by its radix-52 one (R mod m) where the other has bits: its product stays
/// correct, and the steps stay in lockstep.
#[inline(always)]
fn pow_public_k<I: Ifma52, const NV: usize, const K: usize>(
    i: I,
    ops: &[Operands<'_>; K],
    exp_bits: usize,
    out: &mut [u64],
) {
    let d = NV * I::LANES;
    let outs: [&[u64]; K] = core::array::from_fn(|k| ops[k].out);
    let intos: [&[u64]; K] = core::array::from_fn(|k| ops[k].into);
    let bases: [&[u64]; K] = core::array::from_fn(|k| ops[k].base);
    // x·R for each base, and R (the radix-52 one).
    let mut xr = Zeroizing::new(vec![0u64; K * d]);
    let r = amm::<I, NV, K>(i, bases, intos, ops);
    store(i, &r, &mut xr, 1, 0);
    let mut one = Zeroizing::new(vec![0u64; K * d]);
    let r = amm::<I, NV, K>(i, outs, intos, ops);
    store(i, &r, &mut one, 1, 0);
    let mut acc = Zeroizing::new(vec![0u64; K * d]);
    let mut factor = Zeroizing::new(vec![0u64; K * d]);
    acc.copy_from_slice(&one);
    let bit = |k: usize, b: usize| (ops[k].exp[b >> 6] >> (b & 63)) & 1 == 1;
    for b in (0..exp_bits).rev() {
        let r = amm::<I, NV, K>(i, parts(&acc, d), parts(&acc, d), ops);
        store(i, &r, &mut acc, 1, 0);
        // Public bits: branch freely.
        if (0..K).any(|k| bit(k, b)) {
            for k in 0..K {
                let src = if bit(k, b) { &xr } else { &one };
                factor[k * d..(k + 1) * d].copy_from_slice(&src[k * d..(k + 1) * d]);
            }
            let r = amm::<I, NV, K>(i, parts(&acc, d), parts(&factor, d), ops);
            store(i, &r, &mut acc, 1, 0);
        }
    }
    let r = amm::<I, NV, K>(i, parts(&acc, d), outs, ops);
    store(i, &r, out, 1, 0);
}

/// The shortest public exponent, in bits, that one exponentiation ([`pow_public_sliding`])
/// runs by sliding window rather than square-and-multiply: the table of 16 odd powers costs 16
/// products, which a window saves back from about 64 bits on.
const SLIDING_MIN_BITS: usize = 64;

/// The sliding window's width, in bits: a table of the 2^(W − 1) odd powers x, x³, …, x^(2^W − 1).
const SLIDING_WINDOW: usize = 5;

/// [`pow_k`] for ONE public exponent of `exp_bits` bits (its top bit set): left-to-right
/// sliding window over the odd powers of the base, branching on the bits and indexing the
/// table by them (public). About exp_bits squarings and exp_bits / 6 products, against
/// square-and-multiply's exp_bits / 2 products: for long public exponents (Miller-Rabin's
/// candidate − 1 is public, `metime`'s variable-time row).
#[inline(always)]
fn pow_public_sliding<I: Ifma52, const NV: usize>(
    i: I,
    ops: &[Operands<'_>; 1],
    exp_bits: usize,
    out: &mut [u64],
) {
    let d = NV * I::LANES;
    let op = &ops[0];
    let size = 1 << (SLIDING_WINDOW - 1);
    let bit = |b: usize| (op.exp[b >> 6] >> (b & 63)) & 1 == 1;
    // Entry t: x^(2t + 1)·R; x² for the steps between entries.
    let mut table = Zeroizing::new(vec![0u64; size * d]);
    let r = amm::<I, NV, 1>(i, [op.base], [op.into], ops);
    store(i, &r, &mut table, 1, 0);
    let mut square = Zeroizing::new(vec![0u64; d]);
    let r = amm::<I, NV, 1>(i, [&table[..d]], [&table[..d]], ops);
    store(i, &r, &mut square, 1, 0);
    for t in 1..size {
        let r = amm::<I, NV, 1>(i, [&table[(t - 1) * d..t * d]], [&square[..]], ops);
        store(i, &r, &mut table, 1, t);
    }
    let mut acc = Zeroizing::new(vec![0u64; d]);
    // The top bit is set: the first window starts the accumulator without a product.
    let mut started = false;
    let mut top = exp_bits;
    while top > 0 {
        let hi = top - 1;
        if !bit(hi) {
            let r = amm::<I, NV, 1>(i, [&acc[..]], [&acc[..]], ops);
            store(i, &r, &mut acc, 1, 0);
            top = hi;
            continue;
        }
        // The window: bits hi down to lo, lo the lowest set bit within SLIDING_WINDOW bits.
        let mut lo = hi.saturating_sub(SLIDING_WINDOW - 1);
        while !bit(lo) {
            lo += 1;
        }
        let value = (lo..=hi)
            .rev()
            .fold(0usize, |v, b| (v << 1) | usize::from(bit(b)));
        let entry = &table[(value >> 1) * d..((value >> 1) + 1) * d];
        if started {
            for _ in lo..=hi {
                let r = amm::<I, NV, 1>(i, [&acc[..]], [&acc[..]], ops);
                store(i, &r, &mut acc, 1, 0);
            }
            let r = amm::<I, NV, 1>(i, [&acc[..]], [entry], ops);
            store(i, &r, &mut acc, 1, 0);
        } else {
            acc.copy_from_slice(entry);
            started = true;
        }
        top = lo;
    }
    // Out of radix-52 form: AMM(x^e·R, R' mod m) = x^e·R'.
    let r = amm::<I, NV, 1>(i, [&acc[..]], [op.out], ops);
    store(i, &r, out, 1, 0);
}

/// [`pow_k`] as a [`Task`] for the native runners.
struct PowTask<'a, 'b, const NV: usize, const K: usize> {
    ops: &'a [Operands<'b>; K],
    exp_bits: usize,
    kind: Exponent,
    out: &'a mut [u64],
}

impl<const NV: usize, const K: usize> Task for PowTask<'_, '_, NV, K> {
    type Output = ();

    #[inline(always)]
    fn run<I: Ifma52>(self, isa: I) {
        pow_k::<I, NV, K>(isa, self.ops, self.exp_bits, self.kind, self.out);
    }
}

/// Clears the bits of `e` at and above `bits` (public).
pub(super) fn clear_bits_from(e: &mut [Limb], bits: usize) {
    for (i, l) in e.iter_mut().enumerate() {
        let lo = 64 * i;
        if lo >= bits {
            *l = 0;
        } else if bits - lo < 64 {
            *l &= (1 << (bits - lo)) - 1;
        }
    }
}

/// The operands of one exponentiation of [`pow_k`], all d digits.
struct Operands<'a> {
    m: &'a [u64],
    into: &'a [u64],
    out: &'a [u64],
    base: &'a [u64],
    k0: u64,
    exp: &'a [Limb],
}

/// `limbs` (little-endian 64-bit) as d digits of 52 bits; the value must be below 2^(52·d).
///
/// # Constant time
///
/// Depends on the lengths only.
pub(super) fn to_digits(limbs: &[Limb], d: usize) -> Zeroizing<Vec<u64>> {
    let mut out = Zeroizing::new(vec![0; d]);
    for (j, o) in out.iter_mut().enumerate() {
        let (idx, off) = ((52 * j) >> 6, (52 * j) & 63);
        let lo = limbs.get(idx).map_or(0, |&l| l >> off);
        // The digit runs into the next limb when it starts above bit 12.
        let hi = match limbs.get(idx + 1) {
            Some(&l) if off > 12 => l << (64 - off),
            _ => 0,
        };
        *o = (lo | hi) & MASK52;
    }
    out
}

/// Digits (each below 2^52) into `out` as little-endian limbs; digits beyond `out` dropped.
///
/// # Constant time
///
/// Depends on the lengths only.
pub(super) fn from_digits(out: &mut [Limb], digits: &[u64]) {
    out.fill(0);
    for (j, &dg) in digits.iter().enumerate() {
        let (idx, off) = ((52 * j) >> 6, (52 * j) & 63);
        if let Some(l) = out.get_mut(idx) {
            *l |= dg << off;
        }
        if let (true, Some(l)) = (off > 12, out.get_mut(idx + 1)) {
            *l |= dg >> (64 - off);
        }
    }
}

/// The residue of the engine's result: x = b^e·R' mod m below 2m in digits, made canonical by
/// one masked subtraction of m (over n + 1 limbs: 2m may not fit n).
pub(super) fn finish(modulus: &Modulus, digits: &[u64]) -> Residue {
    let n = modulus.limb_len();
    let mut x = Zeroizing::new(vec![0; n + 1]);
    from_digits(&mut x, digits);
    let mut m = Zeroizing::new(vec![0; n + 1]);
    m[..n].copy_from_slice(modulus.as_limbs());
    let mut diff = Zeroizing::new(vec![0; n + 1]);
    let borrow = mpn::sub_n(&mut diff, &x, &m);
    ct::cnd_copy(limb::mask(borrow ^ 1), &mut x, &diff);
    modulus.residue(x[..n].to_vec())
}

/// K interleaved almost-Montgomery multiplications: a_k·b_k·2^(−52·d) mod m_k, below 2·m_k,
/// with normalised digits, for a_k, b_k < 2·m_k of d = NV·LANES normalised digits.
///
/// Two accumulators per number, for the a·b and the m·y halves, and digit 1 carried in
/// scalars: both serial chains of a step (through the accumulator's dependent multiply-adds,
/// and from one y to the next through a vector and back, slow between the register files on
/// AMD) are shorter, at the price of twice the lane shifts, which is the faster trade on AMD
/// Zen 5 (`bignum/examples/pow_paths.rs`; the figures against one accumulator are in
/// BENCHMARKS.md, "AVX-512 IFMA").
#[inline(always)]
fn amm<I: Ifma52, const NV: usize, const K: usize>(
    i: I,
    a: [&[u64]; K],
    b: [&[u64]; K],
    ops: &[Operands<'_>; K],
) -> [[I::V; NV]; K] {
    let l = I::LANES;
    let d = NV * l;
    let zero = i.zero();
    let mut av = [[zero; NV]; K];
    let mut mv = [[zero; NV]; K];
    for k in 0..K {
        for v in 0..NV {
            av[k][v] = i.load(&a[k][v * l..]);
            mv[k][v] = i.load(&ops[k].m[v * l..]);
        }
    }
    let b: [&[u64]; K] = core::array::from_fn(|k| &b[k][..d]);
    let a0: [u64; K] = core::array::from_fn(|k| a[k][0]);
    let a1: [u64; K] = core::array::from_fn(|k| a[k][1]);
    let m0: [u64; K] = core::array::from_fn(|k| ops[k].m[0]);
    let m1: [u64; K] = core::array::from_fn(|k| ops[k].m[1]);
    let mut xs = [[zero; NV]; K];
    let mut ys = [[zero; NV]; K];
    let mut acc0 = [0u64; K];
    let scalars: [Scalars; K] = core::array::from_fn(|k| Scalars {
        a0: a0[k],
        a1: a1[k],
        m0: m0[k],
        m1: m1[k],
        k0: ops[k].k0,
    });
    // The numbers by constant index, not a loop over k: LLVM does not unroll a loop this
    // long, and the accumulators would then live in memory.
    const { assert!(K == 1 || K == 2) };
    for j in 0..d {
        split_step_of(i, 0, &mut xs, &mut ys, &mut acc0, &av, &mv, &b, &scalars, j);
        if K == 2 {
            split_step_of(
                i,
                K - 1,
                &mut xs,
                &mut ys,
                &mut acc0,
                &av,
                &mv,
                &b,
                &scalars,
                j,
            );
        }
    }
    for k in 0..K {
        for v in 0..NV {
            xs[k][v] = i.add(xs[k][v], ys[k][v]);
        }
        xs[k][0] = i.set_lane0(xs[k][0], acc0[k]);
        normalize(i, &mut xs[k]);
    }
    xs
}

/// The scalar digits and constant of one number of [`amm`].
#[derive(Clone, Copy)]
struct Scalars {
    a0: u64,
    a1: u64,
    m0: u64,
    m1: u64,
    k0: u64,
}

/// [`split_step`] for number `k` (a constant after inlining) of the arrays of [`amm`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn split_step_of<I: Ifma52, const NV: usize, const K: usize>(
    i: I,
    k: usize,
    xs: &mut [[I::V; NV]; K],
    ys: &mut [[I::V; NV]; K],
    acc0: &mut [u64; K],
    av: &[[I::V; NV]; K],
    mv: &[[I::V; NV]; K],
    b: &[&[u64]; K],
    scalars: &[Scalars; K],
    j: usize,
) {
    split_step(
        i,
        &mut xs[k],
        &mut ys[k],
        &mut acc0[k],
        &av[k],
        &mv[k],
        b[k][j],
        scalars[k],
    );
}

/// One digit step of [`amm`] for one number: b_j times a into `xs`, y times m into `ys`,
/// both divided by 2^52; `acc0` the exact digit 0.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn split_step<I: Ifma52, const NV: usize>(
    i: I,
    xs: &mut [I::V; NV],
    ys: &mut [I::V; NV],
    acc0: &mut u64,
    av: &[I::V; NV],
    mv: &[I::V; NV],
    bj: u64,
    s: Scalars,
) {
    let zero = i.zero();
    // Digit 1 as the previous step left it (not stale, unlike lane 0).
    let digit1 = i.lane1(xs[0]) + i.lane1(ys[0]);
    let t = u128::from(*acc0) + u128::from(s.a0) * u128::from(bj);
    #[allow(clippy::cast_possible_truncation)] // the low 64 bits, then 52
    let y = (t as u64).wrapping_mul(s.k0) & MASK52;
    let t = t + u128::from(s.m0) * u128::from(y);
    #[allow(clippy::cast_possible_truncation)]
    let carry = (t >> 52) as u64;
    // The next digit 0: digit 1 plus this step's low halves into it plus the carry (the low 52
    // bits of a product are those of its low 64: one imul).
    *acc0 = digit1 + (s.a1.wrapping_mul(bj) & MASK52) + (s.m1.wrapping_mul(y) & MASK52) + carry;
    let (bv, yv) = (i.splat(bj), i.splat(y));
    for v in 0..NV {
        xs[v] = i.madd52lo(xs[v], av[v], bv);
        ys[v] = i.madd52lo(ys[v], mv[v], yv);
    }
    for v in 0..NV - 1 {
        xs[v] = i.shift_down(xs[v + 1], xs[v]);
        ys[v] = i.shift_down(ys[v + 1], ys[v]);
    }
    xs[NV - 1] = i.shift_down(zero, xs[NV - 1]);
    ys[NV - 1] = i.shift_down(zero, ys[NV - 1]);
    for v in 0..NV {
        xs[v] = i.madd52hi(xs[v], av[v], bv);
        ys[v] = i.madd52hi(ys[v], mv[v], yv);
    }
}

/// Propagates the carries of lanes above 52 bits: each lane's excess goes to the next lane,
/// then the ripple through lanes of 2^52 − 1 by carry-lookahead on the lane masks. The value
/// must be below 2^(52·d) (no carry leaves the top lane).
#[inline(always)]
fn normalize<I: Ifma52, const NV: usize>(i: I, acc: &mut [I::V; NV]) {
    let l = I::LANES;
    let mask = i.splat(MASK52);
    let zero = i.zero();
    let mut carries = [zero; NV];
    for v in 0..NV {
        carries[v] = i.srl52(acc[v]);
    }
    for v in 0..NV {
        let below = if v == 0 { zero } else { carries[v - 1] };
        // The carries moved up one lane; each below 2^12, so every lane is now at most
        // 2^52 − 1 + 2^12 − 1 and carries at most 1 onwards.
        acc[v] = i.add(i.and(acc[v], mask), i.shift_up(carries[v], below));
    }
    let (mut g, mut p) = (0u128, 0u128);
    for v in 0..NV {
        g |= u128::from(i.cmpgt_mask(acc[v], mask)) << (v * l);
        p |= u128::from(i.cmpeq_mask(acc[v], mask)) << (v * l);
    }
    // The lanes that receive a carry: generated below them, or propagated through lanes of
    // 2^52 − 1 (carry-lookahead by one integer addition).
    let carry_in = (g << 1).wrapping_add(p) ^ p;
    for v in 0..NV {
        #[allow(clippy::cast_possible_truncation)] // this vector's bits (and above, unused)
        let k = (carry_in >> (v * l)) as u8;
        // + 1 − 2^52 where a carry comes in (the lane was 2^52 − 1 or above 2^52 − 1 then).
        acc[v] = i.and(i.mask_sub(acc[v], k, acc[v], mask), mask);
    }
}

/// The constant-time gather: entry `idx_k` of each table, reading every entry.
#[inline(always)]
fn gather<I: Ifma52, const NV: usize, const K: usize>(
    i: I,
    table: &[u64],
    idx: [u64; K],
) -> [[I::V; NV]; K] {
    let l = I::LANES;
    let d = NV * l;
    let size = 1 << WINDOW;
    let mut want = [i.zero(); K];
    for k in 0..K {
        want[k] = i.splat(idx[k]);
    }
    let mut out = [[i.zero(); NV]; K];
    for j in 0..size {
        let here = i.splat(j as u64);
        for k in 0..K {
            let hit = i.cmpeq_mask(here, want[k]);
            let entry = &table[(k * size + j) * d..(k * size + j + 1) * d];
            for v in 0..NV {
                out[k][v] = i.blend(hit, out[k][v], i.load(&entry[v * l..]));
            }
        }
    }
    out
}

/// The K numbers of d digits one after the other in `buf`.
#[inline(always)]
fn parts<const K: usize>(buf: &[u64], d: usize) -> [&[u64]; K] {
    core::array::from_fn(|k| &buf[k * d..(k + 1) * d])
}

/// Stores K results (NV vectors each) at `dst_k` = `buf[(k·stride + offset)·d ..]`.
#[inline(always)]
fn store<I: Ifma52, const NV: usize, const K: usize>(
    i: I,
    r: &[[I::V; NV]; K],
    buf: &mut [u64],
    stride: usize,
    offset: usize,
) {
    let l = I::LANES;
    let d = NV * l;
    for k in 0..K {
        let at = (k * stride + offset) * d;
        for v in 0..NV {
            i.store(&mut buf[at + v * l..], r[k][v]);
        }
    }
}

/// The K exponentiations base_k^exp_k·R' mod m_k (below 2·m_k, digits into `out`, K·d):
/// see the module doc.
#[inline(always)]
fn pow_k<I: Ifma52, const NV: usize, const K: usize>(
    i: I,
    ops: &[Operands<'_>; K],
    exp_bits: usize,
    kind: Exponent,
    out: &mut [u64],
) {
    if kind == Exponent::Public {
        if let Ok(op) = <&[Operands<'_>; 1]>::try_from(&ops[..])
            && exp_bits >= SLIDING_MIN_BITS
        {
            return pow_public_sliding::<I, NV>(i, op, exp_bits, out);
        }
        return pow_public_k::<I, NV, K>(i, ops, exp_bits, out);
    }
    let d = NV * I::LANES;
    let size = 1 << WINDOW;
    // Entry j of job k at (k·size + j)·d.
    let mut table = Zeroizing::new(vec![0u64; K * size * d]);
    let outs: [&[u64]; K] = core::array::from_fn(|k| ops[k].out);
    let intos: [&[u64]; K] = core::array::from_fn(|k| ops[k].into);
    let bases: [&[u64]; K] = core::array::from_fn(|k| ops[k].base);
    // Entry 0: R mod m = AMM(R', 2^(104·d)/R'); entry 1: b·R = AMM(b·R', 2^(104·d)/R').
    let r = amm::<I, NV, K>(i, outs, intos, ops);
    store(i, &r, &mut table, size, 0);
    let r = amm::<I, NV, K>(i, bases, intos, ops);
    store(i, &r, &mut table, size, 1);
    for j in 2..size {
        // j is public: base^j = (base^(j/2))² or base^(j−1)·base.
        let (x, y) = if j & 1 == 0 {
            (j >> 1, j >> 1)
        } else {
            (j - 1, 1)
        };
        let r = {
            let t = &table;
            let a = core::array::from_fn(|k| &t[(k * size + x) * d..(k * size + x + 1) * d]);
            let b = core::array::from_fn(|k| &t[(k * size + y) * d..(k * size + y + 1) * d]);
            amm::<I, NV, K>(i, a, b, ops)
        };
        store(i, &r, &mut table, size, j);
    }

    let mut acc = Zeroizing::new(vec![0u64; K * d]);
    let mut entry = Zeroizing::new(vec![0u64; K * d]);
    let windows = exp_bits.div_ceil(WINDOW);
    let top_lo = (windows - 1) * WINDOW;
    let idx = core::array::from_fn(|k| exp_bits_at(ops[k].exp, top_lo, exp_bits - top_lo));
    let g = gather::<I, NV, K>(i, &table, idx);
    store(i, &g, &mut acc, 1, 0);
    for w in (0..windows - 1).rev() {
        for _ in 0..WINDOW {
            let r = amm::<I, NV, K>(i, parts(&acc, d), parts(&acc, d), ops);
            store(i, &r, &mut acc, 1, 0);
        }
        let idx = core::array::from_fn(|k| exp_bits_at(ops[k].exp, w * WINDOW, WINDOW));
        let g = gather::<I, NV, K>(i, &table, idx);
        store(i, &g, &mut entry, 1, 0);
        let r = amm::<I, NV, K>(i, parts(&acc, d), parts(&entry, d), ops);
        store(i, &r, &mut acc, 1, 0);
    }
    // Out of radix-52 form: AMM(b^e·R, R' mod m) = b^e·R'.
    let r = amm::<I, NV, K>(i, parts(&acc, d), outs, ops);
    store(i, &r, out, 1, 0);
}

#[cfg(test)]
// The oracle reduces public test values; casts pick test indices and mask bytes.
#[allow(
    clippy::integer_division_remainder_used,
    clippy::unwrap_used,
    clippy::cast_possible_truncation
)]
pub(crate) mod tests {
    use super::*;
    use num_bigint::BigUint;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// The value of little-endian limbs (also for the batch engine's tests).
    pub(crate) fn big(a: &[Limb]) -> BigUint {
        BigUint::from_bytes_le(&a.iter().flat_map(|l| l.to_le_bytes()).collect::<Vec<u8>>())
    }

    /// `x` as exactly n limbs.
    pub(crate) fn padded(x: &BigUint, n: usize) -> Vec<Limb> {
        let mut v = x.to_u64_digits();
        v.resize(n, 0);
        v
    }

    /// n random limbs.
    pub(crate) fn random_limbs(rng: &mut ChaCha8Rng, n: usize) -> Vec<Limb> {
        (0..n).map(|_| rng.next_u64()).collect()
    }

    /// Odd moduli of exactly `bits` bits: random, just above 2^(bits−1), just below 2^bits.
    fn moduli(rng: &mut ChaCha8Rng, bits: usize) -> Vec<Vec<Limb>> {
        let n = bits.div_ceil(64);
        let top = BigUint::from(1u8) << (bits - 1);
        let mut random = big(&random_limbs(rng, n)) % &top + &top;
        random |= BigUint::from(1u8);
        let low = &top + 1u8;
        let high = (BigUint::from(1u8) << bits) - 1u8;
        [random, low, high].iter().map(|m| padded(m, n)).collect()
    }

    /// Bases (as plain values below m): 0, 1, m − 1, random, and 2^(52·j) − 1 (all-ones
    /// digits: lanes of 2^52 − 1, the carry ripple of the normalisation).
    fn bases(rng: &mut ChaCha8Rng, m: &[Limb]) -> Vec<Vec<Limb>> {
        let n = m.len();
        let bm = big(m);
        let ones = (BigUint::from(1u8) << (52 * ((64 * n - 2) / 52))) - 1u8;
        [
            BigUint::from(0u8),
            BigUint::from(1u8),
            &bm - 1u8,
            big(&random_limbs(rng, n)) % &bm,
            ones % &bm,
        ]
        .iter()
        .map(|x| padded(x, n))
        .collect()
    }

    /// Exponents with their bit lengths: 0, 1, all ones, random of the modulus's size, and a
    /// short one.
    fn exponents(rng: &mut ChaCha8Rng, bits: usize) -> Vec<(Vec<Limb>, usize)> {
        let n = bits.div_ceil(64);
        vec![
            (vec![0; n], bits),
            (padded(&BigUint::from(1u8), n), bits),
            (vec![u64::MAX; n], bits),
            (random_limbs(rng, n), bits),
            (vec![0b1011], 4),
            (vec![u64::MAX], 0),
        ]
    }

    fn expected(m: &[Limb], x: &[Limb], e: &[Limb], bits: usize) -> Vec<Limb> {
        let be = big(e) % (BigUint::from(1u8) << bits);
        padded(&big(x).modpow(&be, &big(m)), m.len())
    }

    /// One size: every modulus × base × exponent through `path`, against num-bigint and the
    /// 64-bit exponentiation; and as the second half of a pair.
    fn check_size(path: PowPath, bits: usize, seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for m in moduli(&mut rng, bits) {
            let ctx = Modulus::new_vartime(&m).unwrap();
            for x in bases(&mut rng, &m) {
                let base = ctx.reduce(&x);
                for (e, eb) in exponents(&mut rng, bits) {
                    let got = ctx.pow_on(path, &base, &e, eb).expect("size supported");
                    let want = expected(&m, &x, &e, eb);
                    assert_eq!(
                        *ctx.retrieve(&got),
                        want,
                        "{path:?} {bits} bits e {eb} bits"
                    );
                    let limbs = ctx.pow_limbs(&base, &e, eb);
                    assert_eq!(
                        got.as_montgomery_limbs(),
                        limbs.as_montgomery_limbs(),
                        "{path:?}: not the canonical residue, {bits} bits"
                    );
                }
            }
        }
    }

    /// Every instantiated vector count, through the model: sizes at each count's lower and
    /// upper end and the RSA half sizes.
    #[test]
    fn model_pow_matches_num_bigint_at_every_size() {
        for bits in [
            520, 622, 830, 1024, 1038, 1246, 1536, 2048, 2078, 2494, 3072, 3118, 4096,
        ] {
            check_size(PowPath::IfmaModel, bits, bits as u64);
        }
    }

    /// Small moduli (down to 3 bits, one digit vector) through the model.
    #[test]
    fn model_pow_matches_num_bigint_for_small_moduli() {
        for bits in [3, 17, 64, 65, 128, 300, 512] {
            check_size(PowPath::IfmaModel, bits, bits as u64);
        }
    }

    #[test]
    fn kept_engine_constants_equal_fresh_ones_and_give_the_same_powers() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for bits in [1024, 1536, 2048, 4096] {
            for m in moduli(&mut rng, bits) {
                let fresh = Modulus::new_vartime(&m).unwrap();
                let mut kept = fresh.clone();
                kept.keep_engine_constants_on(PowPath::Limbs);
                assert!(kept.engine.is_none(), "kept on the 64-bit path");
                kept.keep_engine_constants_on(PowPath::IfmaModel);
                let (lanes, nv) = shape(bits).unwrap();
                let d = lanes * nv;
                let got = kept.engine.as_deref().expect("kept");
                // Against num-bigint: m, 2^(104·d − 64·n) mod m and 2^(64·n) mod m in digits,
                // and k0·m ≡ −1 (mod 2^52).
                let digits = |x: &[u64]| {
                    x.iter()
                        .rev()
                        .fold(BigUint::ZERO, |acc, &g| (acc << 52u32) + g)
                };
                let (mb, n) = (big(&m), 64 * m.len());
                let one = BigUint::from(1u8);
                assert_eq!(got.d, d);
                assert_eq!(digits(&got.m), mb);
                assert_eq!(digits(&got.into), (&one << (104 * d - n)) % &mb);
                assert_eq!(digits(&got.out), (&one << n) % &mb);
                let mask = (&one << 52u32) - 1u8;
                assert_eq!((BigUint::from(got.k0) * &mb + 1u8) & &mask, BigUint::ZERO);
                assert_eq!(kept.engine_digits_for_ct_tests().len(), 3);
                let x = kept.reduce(&random_limbs(&mut rng, m.len()));
                let e = random_limbs(&mut rng, m.len());
                let limbs = fresh.pow_limbs(&x, &e, bits);
                let got = kept.pow_on(PowPath::IfmaModel, &x, &e, bits).unwrap();
                assert_eq!(got.limbs, limbs.limbs, "{bits} bits, single");
                let job = PowJob {
                    modulus: &kept,
                    base: &x,
                    exp: &e,
                    exp_bits: bits,
                };
                let (a, b) = pow_pair_on(PowPath::IfmaModel, &job, &job).unwrap();
                assert_eq!(
                    (&a.limbs, &b.limbs),
                    (&limbs.limbs, &limbs.limbs),
                    "{bits} bits, pair"
                );
                // The exponentiations take the kept constants, not fresh ones, at their digit
                // count; the batch engine's differs at 1536 bits (30 against 32), and it
                // computes its own there.
                assert!(matches!(Prepared::new(&job, d).c, Cow::Borrowed(_)));
                let batch_d = super::super::ifma_batch::batch_digits(bits).unwrap();
                let batch_c = Prepared::new(&job, batch_d).c;
                assert_eq!(
                    matches!(batch_c, Cow::Borrowed(_)),
                    batch_d == d,
                    "{bits} bits"
                );
                let batch = super::super::ifma_batch::pow_batch_on(PowPath::IfmaModel, &[job]);
                assert_eq!(batch.unwrap()[0].limbs, limbs.limbs, "{bits} bits, batch");
            }
        }
        let mut huge =
            Modulus::new_vartime(&vec![u64::MAX; IFMA_MAX_BITS.div_ceil(64) + 1]).unwrap();
        huge.keep_engine_constants_on(PowPath::IfmaModel);
        assert!(huge.engine.is_none(), "kept outside the engine's sizes");
    }

    #[test]
    fn sizes_outside_the_engine_are_refused() {
        assert!(!ifma_supports(IFMA_MAX_BITS + 1));
        let m = vec![u64::MAX; IFMA_MAX_BITS.div_ceil(64) + 1];
        let ctx = Modulus::new_vartime(&m).unwrap();
        let one = ctx.one();
        assert!(ctx.pow_on(PowPath::IfmaModel, &one, &[3], 2).is_none());
        assert!(ctx.pow_on(PowPath::Limbs, &one, &[3], 2).is_some());
    }

    /// The interleaved pair equals the two single exponentiations, for halves of equal and of
    /// different bit lengths and exponent lengths; moduli of different digit counts are
    /// refused by the pair and done one after the other by `pow_pair`.
    #[test]
    fn model_pair_equals_two_singles() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for (ba, bb) in [
            (1024, 1024),
            (1024, 1000),
            (1536, 1530),
            (2048, 2048),
            (1024, 2048),
        ] {
            let ma = moduli(&mut rng, ba).remove(0);
            let mb = moduli(&mut rng, bb).remove(2);
            let (ca, cb) = (
                Modulus::new_vartime(&ma).unwrap(),
                Modulus::new_vartime(&mb).unwrap(),
            );
            let (xa, xb) = (ca.reduce(&random_limbs(&mut rng, 3)), cb.reduce(&[5]));
            let ea = random_limbs(&mut rng, ba.div_ceil(64));
            let eb = random_limbs(&mut rng, bb.div_ceil(64) - 1);
            let ja = PowJob {
                modulus: &ca,
                base: &xa,
                exp: &ea,
                exp_bits: ba,
            };
            let jb = PowJob {
                modulus: &cb,
                base: &xb,
                exp: &eb,
                exp_bits: 64 * eb.len(),
            };
            let want = (
                ca.pow_limbs(&xa, &ea, ba),
                cb.pow_limbs(&xb, &eb, 64 * eb.len()),
            );
            let same_count = shape(ba) == shape(bb);
            match pow_pair_on(PowPath::IfmaModel, &ja, &jb) {
                Some((ra, rb)) => {
                    assert!(same_count);
                    assert_eq!(ra.as_montgomery_limbs(), want.0.as_montgomery_limbs());
                    assert_eq!(rb.as_montgomery_limbs(), want.1.as_montgomery_limbs());
                }
                None => assert!(!same_count, "pair refused for {ba}/{bb} bits"),
            }
            let (ra, rb) = pow_pair(&ja, &jb);
            assert_eq!(ra.as_montgomery_limbs(), want.0.as_montgomery_limbs());
            assert_eq!(rb.as_montgomery_limbs(), want.1.as_montgomery_limbs());
        }
    }

    /// Public exponents (RSA's e and others, of different lengths, zero), paired, through the
    /// model and (where the CPU has it) the instructions, against `pow_vartime`.
    #[test]
    fn pow_vartime_on_the_engine_matches_num_bigint() {
        // pow_vartime takes the engine (where the path in use is IFMA) from IFMA_MIN_BITS
        // moduli and VARTIME_MIN_EXP_BITS exponents: both sides of each threshold, against
        // num-bigint, and the engine proven to have run where the CPU has it.
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        let engine = pow_path() == PowPath::Ifma;
        if !engine {
            eprintln!("note: the path in use is not ifma: pow_vartime ran on the limbs only");
        }
        for bits in [IFMA_MIN_BITS - 8, 1024, 2048, 3072, 4096] {
            let ms = moduli(&mut rng, bits);
            let m = Modulus::new_vartime(&ms[0]).unwrap();
            let x = random_limbs(&mut rng, ms[0].len());
            let x = padded(&(big(&x) % big(&ms[0])), ms[0].len());
            let base = m.reduce(&x);
            for ebits in [VARTIME_MIN_EXP_BITS - 1, VARTIME_MIN_EXP_BITS, bits] {
                let mut e = random_limbs(&mut rng, ebits.div_ceil(64));
                clear_bits_from(&mut e, ebits);
                let top = ebits - 1;
                e[top >> 6] |= 1 << (top & 63);
                let before = ifma_runs();
                let got = m.retrieve(&m.pow_vartime(&base, &e));
                assert_eq!(
                    *got,
                    expected(&ms[0], &x, &e, ebits),
                    "{bits} bits, e of {ebits}"
                );
                let took = engine && bits >= IFMA_MIN_BITS && ebits >= VARTIME_MIN_EXP_BITS;
                // Other tests run in parallel and may add runs, never take them away.
                if took {
                    assert!(
                        ifma_runs() > before,
                        "{bits} bits, e of {ebits}: not on the engine"
                    );
                }
            }
        }
    }

    #[test]
    fn sliding_window_public_pow_matches_num_bigint() {
        // One public exponent from SLIDING_MIN_BITS bits runs by sliding window: on the model
        // everywhere, and on the instructions where the CPU has them, against num-bigint, with
        // exponents whose windows end at every offset (dense, sparse, runs of zeros longer than
        // a window, the shortest length that slides, one below it).
        let mut rng = ChaCha8Rng::seed_from_u64(61);
        let mut paths = vec![PowPath::IfmaModel];
        if PowPath::Ifma.is_available() {
            paths.push(PowPath::Ifma);
        }
        for bits in [1024, 2048] {
            let ms = moduli(&mut rng, bits);
            let m = Modulus::new_vartime(&ms[0]).unwrap();
            let x = random_limbs(&mut rng, ms[0].len());
            let x = padded(&(big(&x) % big(&ms[0])), ms[0].len());
            let base = m.reduce(&x);
            let mut exps: Vec<Vec<Limb>> = vec![
                vec![Limb::MAX; 4],
                vec![1 << 63 | 1; 2],
                vec![0x8000_0000_0000_0041, 0x0400_0000_0000_0000, 0, 1 << 40],
                vec![1 << (SLIDING_MIN_BITS - 1)],
                vec![(1 << (SLIDING_MIN_BITS - 2)) | 0x15],
            ];
            for ebits in [SLIDING_MIN_BITS, 300, bits] {
                let mut e = random_limbs(&mut rng, ebits.div_ceil(64));
                clear_bits_from(&mut e, ebits);
                let top = ebits - 1;
                e[top >> 6] |= 1 << (top & 63);
                exps.push(e);
            }
            for e in &exps {
                let ebits = public_bits(e);
                for &path in &paths {
                    let r = m
                        .run_single(path, &base, e, ebits, Exponent::Public)
                        .expect("the engine takes this size");
                    assert_eq!(
                        *m.retrieve(&r),
                        expected(&ms[0], &x, e, ebits),
                        "{} {bits} bits, e of {ebits} bits",
                        path.name()
                    );
                }
            }
        }
    }

    #[test]
    fn public_exponent_pairs_equal_pow_vartime() {
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let mut paths = vec![PowPath::IfmaModel];
        if PowPath::Ifma.is_available() {
            paths.push(PowPath::Ifma);
        } else {
            eprintln!("note: no avx512ifma: the public pairs ran through the model only");
        }
        for bits in [512, 1024, 1536, 2048] {
            let ms = moduli(&mut rng, bits);
            let (ca, cb) = (
                Modulus::new_vartime(&ms[0]).unwrap(),
                Modulus::new_vartime(&ms[2]).unwrap(),
            );
            let (xa, xb) = (
                ca.reduce(&random_limbs(&mut rng, 2)),
                cb.reduce(&ms[2].iter().map(|l| l >> 1).collect::<Vec<_>>()),
            );
            let exps: [(&[Limb], &[Limb]); 4] = [
                (&[65537], &[65537]),
                (&[3], &[65537]),
                (&[0], &[1 << 63, 5]),
                (&[u64::MAX, 1], &[0]),
            ];
            for (ea, eb) in exps {
                let ja = PowJob {
                    modulus: &ca,
                    base: &xa,
                    exp: ea,
                    exp_bits: 0,
                };
                let jb = PowJob {
                    modulus: &cb,
                    base: &xb,
                    exp: eb,
                    exp_bits: 0,
                };
                let want = (ca.pow_vartime(&xa, ea), cb.pow_vartime(&xb, eb));
                let jobs = [ja, jb].map(|j| PowJob {
                    exp_bits: public_bits(j.exp),
                    ..j
                });
                for &path in &paths {
                    let [ra, rb] = run(
                        path,
                        shape(bits).unwrap(),
                        [&jobs[0], &jobs[1]],
                        Exponent::Public,
                    )
                    .unwrap();
                    assert_eq!(ra.as_montgomery_limbs(), want.0.as_montgomery_limbs());
                    assert_eq!(rb.as_montgomery_limbs(), want.1.as_montgomery_limbs());
                }
                let (pa, pb) = (
                    PowJobVartime {
                        modulus: &ca,
                        base: &xa,
                        exp: ea,
                    },
                    PowJobVartime {
                        modulus: &cb,
                        base: &xb,
                        exp: eb,
                    },
                );
                let (ra, rb) = pow_pair_vartime(&pa, &pb);
                assert_eq!(ra.as_montgomery_limbs(), want.0.as_montgomery_limbs());
                assert_eq!(rb.as_montgomery_limbs(), want.1.as_montgomery_limbs());
            }
        }
    }

    /// The digit conversions round-trip and place bits where 52-bit digits put them.
    #[test]
    fn digits_round_trip() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for n in 1..=20 {
            let x = random_limbs(&mut rng, n);
            let d = (64 * n).div_ceil(52);
            let digits = to_digits(&x, d);
            let bx = big(&x);
            for (j, &dg) in digits.iter().enumerate() {
                let want = (&bx >> (52 * j)) % (BigUint::from(1u8) << 52);
                assert_eq!(BigUint::from(dg), want, "digit {j} of {n} limbs");
            }
            let mut back = vec![0; n];
            from_digits(&mut back, &digits);
            assert_eq!(back, x);
        }
    }

    /// Where the CPU has IFMA: each operation of the trait on the instructions equals the
    /// model, bit for bit, on extreme and random lanes, for both register widths.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn native_operations_equal_the_model() {
        use crate::mpn::{Avx512Ifma256, Avx512Ifma512};
        let Some(tok) = crate::cpu::ifma() else {
            eprintln!("skipped: no avx512ifma on this CPU (the model tests ran instead)");
            return;
        };
        Avx512Ifma256::new(tok).run(CompareOps::<4>);
        Avx512Ifma512::new(tok).run(CompareOps::<8>);
    }

    /// Runs every operation on an implementation of L lanes and on the model.
    struct CompareOps<const L: usize>;

    impl<const L: usize> Task for CompareOps<L> {
        type Output = ();

        #[inline(always)]
        fn run<I: Ifma52>(self, i: I) {
            assert_eq!(I::LANES, L);
            compare_ops(i, Model::<L>);
        }
    }

    #[inline(always)]
    fn compare_ops<I: Ifma52, const L: usize>(i: I, m: Model<L>) {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let extremes = [
            0,
            1,
            MASK52,
            MASK52 + 1,
            u64::MAX,
            1 << 63,
            MASK52 - 1,
            0xFFF,
        ];
        let vec = |rng: &mut ChaCha8Rng, round: usize| -> [u64; L] {
            core::array::from_fn(|j| {
                if round.is_multiple_of(2) {
                    extremes[(round / 2 + j * 3 + rng.next_u64() as usize) % extremes.len()]
                } else {
                    rng.next_u64()
                }
            })
        };
        let nat = |v: [u64; L]| i.load(&v);
        let back = |v: I::V| {
            let mut out = [0; L];
            i.store(&mut out, v);
            out
        };
        for round in 0..2000 {
            let (a, b, c) = (
                vec(&mut rng, round),
                vec(&mut rng, round + 1),
                vec(&mut rng, round),
            );
            let k = (rng.next_u64() & 0xFF) as u8;
            let x = rng.next_u64();
            let (na, nb, nc) = (nat(a), nat(b), nat(c));
            assert_eq!(
                back(i.madd52lo(na, nb, nc)),
                m.madd52lo(a, b, c),
                "madd52lo"
            );
            assert_eq!(
                back(i.madd52hi(na, nb, nc)),
                m.madd52hi(a, b, c),
                "madd52hi"
            );
            assert_eq!(back(i.add(na, nb)), m.add(a, b), "add");
            assert_eq!(back(i.and(na, nb)), m.and(a, b), "and");
            assert_eq!(back(i.srl52(na)), m.srl52(a), "srl52");
            assert_eq!(back(i.shift_down(na, nb)), m.shift_down(a, b), "shift_down");
            assert_eq!(back(i.shift_up(na, nb)), m.shift_up(a, b), "shift_up");
            assert_eq!(i.lane1(na), m.lane1(a), "lane1");
            assert_eq!(back(i.set_lane0(na, x)), m.set_lane0(a, x), "set_lane0");
            assert_eq!(back(i.splat(x)), m.splat(x), "splat");
            assert_eq!(back(i.zero()), m.zero(), "zero");
            let lanes = if L == 8 { 0xFF } else { 0x0F };
            assert_eq!(i.cmpgt_mask(na, nb) & lanes, m.cmpgt_mask(a, b), "cmpgt");
            assert_eq!(i.cmpeq_mask(na, nb) & lanes, m.cmpeq_mask(a, b), "cmpeq");
            assert_eq!(
                i.cmpeq_mask(na, na) & lanes,
                m.cmpeq_mask(a, a),
                "cmpeq self"
            );
            assert_eq!(
                back(i.mask_sub(nc, k, na, nb)),
                m.mask_sub(c, k, a, b),
                "mask_sub"
            );
            assert_eq!(back(i.blend(k, na, nb)), m.blend(k, a, b), "blend");
        }
    }

    /// Where the CPU has IFMA: whole exponentiations, single and paired, on the instructions
    /// equal the model's, and the run counter proves the instructions ran.
    #[test]
    fn native_pow_equals_the_model() {
        if !PowPath::Ifma.is_available() {
            eprintln!("skipped: no avx512ifma on this CPU (the model tests ran instead)");
            return;
        }
        let before = ifma_runs();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for bits in [520, 1024, 1536, 2048, 3072, 4096] {
            for m in moduli(&mut rng, bits) {
                let ctx = Modulus::new_vartime(&m).unwrap();
                for x in bases(&mut rng, &m) {
                    let base = ctx.reduce(&x);
                    for (e, eb) in exponents(&mut rng, bits).into_iter().skip(2).take(2) {
                        let native = ctx.pow_on(PowPath::Ifma, &base, &e, eb).unwrap();
                        let model = ctx.pow_on(PowPath::IfmaModel, &base, &e, eb).unwrap();
                        assert_eq!(native.as_montgomery_limbs(), model.as_montgomery_limbs());
                        let job = PowJob {
                            modulus: &ctx,
                            base: &base,
                            exp: &e,
                            exp_bits: eb,
                        };
                        let (p, q) = pow_pair_on(PowPath::Ifma, &job, &job).unwrap();
                        assert_eq!(p.as_montgomery_limbs(), model.as_montgomery_limbs());
                        assert_eq!(q.as_montgomery_limbs(), model.as_montgomery_limbs());
                    }
                }
            }
        }
        assert!(ifma_runs() > before, "the IFMA instructions did not run");
    }
}
