//! The 52-bit engine on eight independent lanes ("vertical", multi-buffer): up to eight
//! constant-time exponentiations at once, one per 64-bit lane of 512-bit registers, each with
//! its own modulus, base and exponent (moduli of one digit count per batch).
//!
//! # Representation
//!
//! The eight numbers of a batch are stored transposed, `[digit][lane]`: vector j holds digit j
//! (52 bits) of all eight numbers, so one IFMA instruction does one digit product for each of
//! the eight exponentiations and no instruction ever moves data between lanes. A number has d
//! digits, d one of [`BATCH_DIGITS`] with 52·d ≥ bits(m) + 2, so R = 2^(52·d) > 4m, as in the
//! single engine, whose conversion constants, digit conversions and final
//! reduction this one shares.
//!
//! # Almost-Montgomery multiplication, eight at a time
//!
//! For a, b < 2m per lane and k0 = −m⁻¹ mod 2^52 per lane, per digit j of b (the approach of
//! Intel's multi-buffer RSA, ipp-crypto's `crypto_mb`, after Gueron and Krasnov, "Accelerating
//! big integer arithmetic using Intel IFMA extensions", 2016):
//!
//! ```text
//! t₀ = acc₀ + lo(a₀·b_j)          y = lo52(t₀·k0)          t₀ += lo(m₀·y)   (≡ 0 mod 2^52)
//! acc_i ← acc_(i+1) + lo(a_(i+1)·b_j) + lo(m_(i+1)·y) + hi(a_i·b_j) + hi(m_i·y)   (i < d − 1)
//! acc_(d−1) ← hi(a_(d−1)·b_j) + hi(m_(d−1)·y);   acc₀ += t₀ >> 52
//! ```
//!
//! which is acc += a·b_j + m·y, then acc /= 2^52, with the division (the move of every digit
//! down one vector) folded into the additions: no vector is copied. y is a `vpmadd52luq` into
//! zero, each lane with its own k0. After d steps acc = (a·b + Y·m)/R < 2m. A vector gains
//! less than 4·2^52 + 2^12 per step and keeps a digit for at most d ≤ 80 steps, so it stays
//! below 2^61: carries are propagated once, at the end, digit by digit (within each lane: no
//! lookahead is needed, unlike the horizontal layout).
//!
//! # Exponentiation
//!
//! A fixed window of five bits as in the single engine: a table of base^0 … base^31 per lane,
//! then per window five squarings and one AMM by the entry. Up to 20 digits (RSA-2048's halves)
//! a squaring is its own routine, `ams` (`batch_amm.rs`), with a quarter fewer multiply-adds than the AMM of
//! a number by itself; above, it is that AMM. The entry differs per lane (each lane has its
//! own exponent), so the gather reads every entry and adds it into each lane times that lane's
//! hit (1 or 0, found by carry arithmetic on the lane's index): the gather of `window.rs`,
//! which the single engine uses with one index in every lane.
//!
//! # Constant time
//!
//! Time and memory accesses depend on d and on the longest exponent bit length of the batch
//! only (a shorter exponent is zero-extended: its leading windows gather entry 0, i.e. 1).
//! The batch is generic over [`Ifma52`] with eight lanes, so `.ci/ct-check` runs it through
//! [`Model`] (`bignum/tests/ct/ifma_batch.rs`). Heap buffers holding secrets are wiped on drop.

// The hot loops index the digit vectors of several numbers in step.
#![allow(clippy::needless_range_loop)]

use alloc::{vec, vec::Vec};

use zeroize::Zeroizing;

use crate::limb::Limb;
#[cfg(feature = "test-hooks")]
use crate::mpn::ifma_model::Model;
use crate::mpn::ifma_model::{Ifma52, Task};

use super::super::pow::exp_bits_at;
use super::super::{Modulus, Residue};
use super::batch_amm::{amm, sqr};
use super::convert::finish;
use super::job::{PowJob, Prepared, Ready};
use super::shape::{digits, with_vectors};
use super::window::{Engine, Operand, gather, pow_window, store};
use crate::backend::{PowPath, ifma_supports, pow_path};
use crate::run_counters::{Counter, count};

/// Exponentiations per batch: the 64-bit lanes of a 512-bit register.
pub const BATCH_LANES: usize = 8;

/// The digit counts the batch engine is compiled for; a modulus takes the least with
/// 52·d ≥ bits + 2 (1024-bit moduli 20 digits, 1536-bit 30, 2048-bit 40).
pub(crate) const BATCH_DIGITS: [usize; 8] = [10, 20, 30, 40, 50, 60, 70, 80];

/// How many batches (of up to [`BATCH_LANES`] exponentiations each) the IFMA instructions ran
/// in this process: the proof for tests that the native batch path really ran. With the
/// `test-hooks` feature only.
#[cfg(feature = "test-hooks")]
pub fn ifma_batch_runs() -> u64 {
    crate::run_counters::read(Counter::IfmaBatchRuns)
}

/// The digit count of the batch engine for a modulus of `bits` bits, or none outside the
/// engine's sizes ([`ifma_supports`]).
pub fn batch_digits(bits: usize) -> Option<usize> {
    if !ifma_supports(bits) {
        return None;
    }
    let need = digits(bits);
    BATCH_DIGITS.iter().copied().find(|&d| d >= need)
}

/// The exponentiations `jobs` (base^exp mod modulus each), eight at a time on the IFMA lanes
/// where the path in use ([`pow_path`]) is IFMA and all moduli have one digit count
/// (of the counts the batch engine is compiled for: multiples of ten digits up to 80); else
/// each with [`Modulus::pow`]. Results in the order of `jobs`.
///
/// # Constant time
///
/// As [`Modulus::pow`], for each job: the time depends on the moduli's digit count, the
/// number of jobs and the longest exponent bit length of each group of eight.
///
/// # Panics
///
/// As [`Modulus::pow`], for each job.
pub fn pow_batch(jobs: &[PowJob<'_>]) -> Vec<Residue> {
    pow_batch_on(pow_path(), jobs).unwrap_or_else(|| {
        jobs.iter()
            .map(|j| j.modulus.pow(j.base, j.exp, j.exp_bits))
            .collect()
    })
}

/// [`pow_batch`] on a chosen path, or none if this CPU lacks it, or the moduli are outside the
/// engine or of different digit counts. On [`PowPath::Limbs`], the jobs one after the other
/// on the 64-bit limbs. Jobs go in groups of [`BATCH_LANES`]; a last, partial group fills its
/// free lanes with copies of its first job, whose results are discarded.
///
/// # Constant time
///
/// As [`pow_batch`]; whether a result comes back depends on sizes only.
///
/// # Panics
///
/// As [`Modulus::pow`], for each job.
pub fn pow_batch_on(path: PowPath, jobs: &[PowJob<'_>]) -> Option<Vec<Residue>> {
    for j in jobs {
        j.modulus.check_pow_args(j.base, j.exp, j.exp_bits);
    }
    if path == PowPath::Limbs {
        return Some(
            jobs.iter()
                .map(|j| j.modulus.pow_limbs(j.base, j.exp, j.exp_bits))
                .collect(),
        );
    }
    let Some(first) = jobs.first() else {
        return Some(Vec::new());
    };
    let d = batch_digits(first.modulus.bits())?;
    if jobs
        .iter()
        .any(|j| batch_digits(j.modulus.bits()) != Some(d))
        || !path.is_available()
    {
        return None;
    }
    let mut out = Vec::with_capacity(jobs.len());
    for chunk in jobs.chunks(BATCH_LANES) {
        out.extend(run_chunk(path, d, chunk)?);
    }
    Some(out)
}

/// The operands of the eight lanes, transposed (`[digit][lane]`, d·8 values each).
struct Lanes<'a> {
    m: &'a [u64],
    into: &'a [u64],
    out: &'a [u64],
    base: &'a [u64],
    /// −m⁻¹ mod 2^52 per lane.
    k0: [u64; BATCH_LANES],
    /// Each lane's exponent, all of one length, zero above the lane's own bit length.
    exps: [&'a [Limb]; BATCH_LANES],
}

/// `d` digits of each of the eight numbers, `[digit][lane]`.
fn transpose(nums: &[&[u64]; BATCH_LANES], d: usize) -> Zeroizing<Vec<u64>> {
    let mut t = Zeroizing::new(vec![0; d * BATCH_LANES]);
    for (k, num) in nums.iter().enumerate() {
        for j in 0..d {
            t[j * BATCH_LANES + k] = num[j];
        }
    }
    t
}

/// Calls `$body` with the const `$n` bound to the digit count `$d`, for each count of
/// [`BATCH_DIGITS`]; none for any other.
macro_rules! with_digits {
    ($d:expr, |$n:ident| $body:expr) => {
        with_vectors!($d, [10, 20, 30, 40, 50, 60, 70, 80], |$n| $body)
    };
}

/// Up to eight jobs of d-digit moduli on `path` (IFMA or its model).
fn run_chunk(path: PowPath, d: usize, chunk: &[PowJob<'_>]) -> Option<Vec<Residue>> {
    if chunk.iter().all(|j| j.exp_bits == 0) {
        return Some(chunk.iter().map(|j| j.modulus.one()).collect());
    }
    // Lane k runs job k; the free lanes of a partial chunk rerun job 0 (discarded).
    let jobs: [&PowJob; BATCH_LANES] = core::array::from_fn(|k| chunk.get(k).unwrap_or(&chunk[0]));
    let ready = Ready::new(&jobs, d, d);
    let (prepared, exp_bits) = (&ready.nums, ready.exp_bits);
    let nums = |f: for<'p, 'q> fn(&'p Prepared<'q>) -> &'p [u64]| -> [&[u64]; BATCH_LANES] {
        core::array::from_fn(|k| f(&prepared[k]))
    };
    let m = transpose(&nums(|p| p.c.m.as_slice()), d);
    let into = transpose(&nums(|p| p.c.into.as_slice()), d);
    let out_c = transpose(&nums(|p| p.c.out.as_slice()), d);
    let base = transpose(&nums(|p| p.base.as_slice()), d);
    let lanes = Lanes {
        m: &m,
        into: &into,
        out: &out_c,
        base: &base,
        k0: core::array::from_fn(|k| prepared[k].c.k0),
        exps: core::array::from_fn(|k| ready.exps[k].as_slice()),
    };
    let mut res = Zeroizing::new(vec![0u64; d * BATCH_LANES]);
    match path {
        #[cfg(feature = "test-hooks")]
        PowPath::IfmaModel => with_digits!(d, |D| pow_lanes::<Model<8>, D>(
            Model, &lanes, exp_bits, &mut res
        ))?,
        #[cfg(not(feature = "test-hooks"))]
        PowPath::IfmaModel => return None,
        PowPath::Ifma => native(d, &lanes, exp_bits, &mut res)?,
        PowPath::Limbs => return None,
    }
    let mut digits = Zeroizing::new(vec![0u64; d]);
    Some(
        chunk
            .iter()
            .enumerate()
            .map(|(k, j)| {
                for (v, dg) in digits.iter_mut().enumerate() {
                    *dg = res[v * BATCH_LANES + k];
                }
                finish(j.modulus, &digits)
            })
            .collect(),
    )
}

/// The native instructions (512-bit registers), where the CPU has them.
#[cfg(target_arch = "x86_64")]
fn native(d: usize, lanes: &Lanes<'_>, exp_bits: usize, out: &mut [u64]) -> Option<()> {
    use crate::mpn::Avx512Ifma512;
    let isa = Avx512Ifma512::new(crate::cpu::ifma()?);
    count(Counter::IfmaBatchRuns);
    with_digits!(d, |D| isa.run(BatchTask::<D> {
        lanes,
        exp_bits,
        out
    }))
}

#[cfg(not(target_arch = "x86_64"))]
fn native(_d: usize, _lanes: &Lanes<'_>, _exp_bits: usize, _out: &mut [u64]) -> Option<()> {
    None
}

/// [`pow_lanes`] as a [`Task`] for the native runner.
struct BatchTask<'a, 'b, const D: usize> {
    lanes: &'a Lanes<'b>,
    exp_bits: usize,
    out: &'a mut [u64],
}

impl<const D: usize> Task for BatchTask<'_, '_, D> {
    type Output = ();

    #[inline(always)]
    fn run<I: Ifma52>(self, isa: I) {
        pow_lanes::<I, D>(isa, self.lanes, self.exp_bits, self.out);
    }
}

/// The eight exponentiations base_k^exp_k·R' mod m_k (below 2·m_k, `[digit][lane]` into
/// `out`): see the module doc. `exp_bits` ≥ 1 is the longest exponent's bit length.
#[inline(always)]
fn pow_lanes<I: Ifma52, const D: usize>(i: I, ops: &Lanes<'_>, exp_bits: usize, out: &mut [u64]) {
    let k0 = i.load(&ops.k0);
    pow_window(&Vertical::<I, D> { i, ops, k0 }, exp_bits, out);
}

/// The eight lanes of D digits as an [`Engine`]: a block is D vectors, `[digit][lane]`.
struct Vertical<'a, 'b, I: Ifma52, const D: usize> {
    i: I,
    ops: &'a Lanes<'b>,
    /// −m⁻¹ mod 2^52 per lane.
    k0: I::V,
}

impl<'a, I: Ifma52, const D: usize> Vertical<'a, '_, I, D> {
    /// An operand as a block of the lanes' digits.
    #[inline(always)]
    fn block<'x>(&self, x: Operand<'x>) -> &'x [u64]
    where
        'a: 'x,
    {
        match x {
            Operand::Block(b) => b,
            Operand::Out => self.ops.out,
            Operand::Into => self.ops.into,
            Operand::Base => self.ops.base,
        }
    }
}

impl<I: Ifma52, const D: usize> Engine for Vertical<'_, '_, I, D> {
    type R = [I::V; D];
    const WORDS: usize = D * I::LANES;

    #[inline(always)]
    fn mul(&self, a: Operand<'_>, b: Operand<'_>) -> Self::R {
        amm::<I, D>(self.i, self.block(a), self.block(b), self.ops.m, self.k0)
    }

    const SQUARES_BY_MUL: bool = false;

    #[inline(always)]
    fn step(&self, acc: &[u64], b: Option<Operand<'_>>) -> Self::R {
        match b {
            None => sqr::<I, D>(self.i, acc, self.ops.m, self.k0),
            Some(b) => self.mul(Operand::Block(acc), b),
        }
    }

    /// Each lane's own entry: the lanes' windows as one vector of indices.
    #[inline(always)]
    fn gather(&self, table: &[u64], lo: usize, width: usize) -> Self::R {
        let (mut w, mut nw) = ([0u64; BATCH_LANES], [0u64; BATCH_LANES]);
        for k in 0..BATCH_LANES {
            w[k] = exp_bits_at(self.ops.exps[k], lo, width);
            nw[k] = (1 << 52) - w[k];
        }
        let i = self.i;
        gather::<I, D>(i, table, Self::WORDS, 0, i.load(&w), i.load(&nw))
    }

    #[inline(always)]
    fn store(&self, r: &Self::R, dst: &mut [u64]) {
        store(self.i, r, dst);
    }
}

impl Modulus {
    /// Whether [`pow_batch`] can group this modulus with `other` on the eight lanes (the same
    /// digit count, both within the engine's sizes).
    pub fn batches_with(&self, other: &Modulus) -> bool {
        batch_digits(self.bits()).is_some_and(|d| batch_digits(other.bits()) == Some(d))
    }
}
