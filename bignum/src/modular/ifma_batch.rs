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
//! single engine (`ifma.rs`), whose conversion constants, digit conversions and final
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
//! a squaring is its own routine, [`ams`], with a quarter fewer multiply-adds than the AMM of
//! a number by itself; above, it is that AMM. The entry differs per lane (each lane has its
//! own exponent), so the gather reads every entry and adds it into each lane times that lane's
//! hit (1 or 0, found by carry arithmetic on the lane's index; see `gather`).
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
#[cfg(any(test, feature = "test-hooks"))]
use core::sync::atomic::{AtomicU64, Ordering};

use zeroize::Zeroizing;

use crate::limb::Limb;
#[cfg(any(test, feature = "test-hooks"))]
use crate::mpn::ifma::Model;
use crate::mpn::ifma::{Ifma52, MASK52, Task};

use super::ifma::{
    PowJob, PowPath, Prepared, WINDOW, clear_bits_from, finish, ifma_supports, pow_path,
    with_vectors,
};
use super::pow::exp_bits_at;
use super::{Modulus, Residue};

/// Exponentiations per batch: the 64-bit lanes of a 512-bit register.
pub const BATCH_LANES: usize = 8;

/// The digit counts the batch engine is compiled for; a modulus takes the least with
/// 52·d ≥ bits + 2 (1024-bit moduli 20 digits, 1536-bit 30, 2048-bit 40).
pub const BATCH_DIGITS: [usize; 8] = [10, 20, 30, 40, 50, 60, 70, 80];

/// How many batches (of up to [`BATCH_LANES`] exponentiations each) the IFMA instructions ran
/// in this process: the proof for tests that the native batch path really ran. With the
/// `test-hooks` feature only.
#[cfg(any(test, feature = "test-hooks"))]
pub fn ifma_batch_runs() -> u64 {
    BATCH_RUNS.load(Ordering::Relaxed)
}

#[cfg(any(test, feature = "test-hooks"))]
static BATCH_RUNS: AtomicU64 = AtomicU64::new(0);

/// The digit count of the batch engine for a modulus of `bits` bits, or none outside the
/// engine's sizes ([`ifma_supports`]).
pub fn batch_digits(bits: usize) -> Option<usize> {
    if !ifma_supports(bits) {
        return None;
    }
    let need = (bits + 2).div_ceil(52);
    BATCH_DIGITS.iter().copied().find(|&d| d >= need)
}

/// The exponentiations `jobs` (base^exp mod modulus each), eight at a time on the IFMA lanes
/// where the path in use ([`pow_path`]) is IFMA and all moduli have one digit count
/// ([`batch_digits`]); else each with [`Modulus::pow`]. Results in the order of `jobs`.
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
    let job = |k: usize| chunk.get(k).unwrap_or(&chunk[0]);
    let prepared: Vec<Prepared> = (0..BATCH_LANES).map(|k| Prepared::new(job(k), d)).collect();
    let exp_len = chunk.iter().map(|j| j.exp.len()).max().unwrap_or(0);
    let exps: Vec<Zeroizing<Vec<Limb>>> = (0..BATCH_LANES)
        .map(|k| {
            let j = job(k);
            let mut e = Zeroizing::new(vec![0; exp_len]);
            e[..j.exp.len()].copy_from_slice(j.exp);
            clear_bits_from(&mut e, j.exp_bits);
            e
        })
        .collect();
    let exp_bits = chunk.iter().map(|j| j.exp_bits).max().unwrap_or(0);
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
        exps: core::array::from_fn(|k| exps[k].as_slice()),
    };
    let mut res = Zeroizing::new(vec![0u64; d * BATCH_LANES]);
    match path {
        #[cfg(any(test, feature = "test-hooks"))]
        PowPath::IfmaModel => with_digits!(d, |D| pow_lanes::<Model<8>, D>(
            Model, &lanes, exp_bits, &mut res
        ))?,
        #[cfg(not(any(test, feature = "test-hooks")))]
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
    #[cfg(any(test, feature = "test-hooks"))]
    BATCH_RUNS.fetch_add(1, Ordering::Relaxed);
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

/// Eight AMMs: a_k·b_k·2^(−52·D) mod m_k below 2·m_k per lane k, normalised digits, for
/// a_k, b_k < 2·m_k in D normalised digits (`[digit][lane]`), D even. See the module doc.
///
/// Two steps (digits j and j + 1 of b) per pass over the accumulator: y_(j+1) depends only on
/// digit 0 after step j, which is formed first, so the pass adds both steps' products to each
/// digit at once, and each accumulator digit and each digit of a and m is loaded once per two
/// steps (the loads, not the multipliers, bound a pass done one step at a time). The sums are
/// the one-step sums reassociated: wrapping lane additions that never wrap, so the result is
/// the same.
#[inline(always)]
fn amm<I: Ifma52, const D: usize>(i: I, a: &[u64], b: &[u64], m: &[u64], k0: I::V) -> [I::V; D] {
    let l = I::LANES;
    let (a, b, m) = (&a[..D * l], &b[..D * l], &m[..D * l]);
    let zero = i.zero();
    let mut acc = [zero; D];
    for j in (0..D).step_by(2) {
        let (b0, b1) = (i.load(&b[j * l..]), i.load(&b[(j + 1) * l..]));
        let (mut a0, mut a1) = (i.load(a), i.load(&a[l..]));
        let (mut m0, mut m1) = (i.load(m), i.load(&m[l..]));
        // Step j on digit 0: t ≡ 0 mod 2^52 after m₀·y₀.
        let t = i.madd52lo(acc[0], a0, b0);
        let y0 = i.madd52lo(zero, t, k0);
        let t = i.madd52lo(t, m0, y0);
        // Digit 0 after step j, then step j + 1 on it.
        let mut u = i.add(acc[1], i.srl52(t));
        u = i.madd52lo(u, a1, b0);
        u = i.madd52lo(u, m1, y0);
        u = i.madd52hi(u, a0, b0);
        u = i.madd52hi(u, m0, y0);
        let u = i.madd52lo(u, a0, b1);
        let y1 = i.madd52lo(zero, u, k0);
        let u = i.madd52lo(u, m0, y1);
        // Digit v after both steps: digit v + 2 before them, the low halves of digit v + 2's
        // and high halves of digit v + 1's products of step j, the low halves of digit
        // v + 1's and high halves of digit v's of step j + 1.
        for v in 0..D - 2 {
            let (a2, m2) = (i.load(&a[(v + 2) * l..]), i.load(&m[(v + 2) * l..]));
            let mut t = acc[v + 2];
            t = i.madd52lo(t, a2, b0);
            t = i.madd52lo(t, m2, y0);
            t = i.madd52hi(t, a1, b0);
            t = i.madd52hi(t, m1, y0);
            t = i.madd52lo(t, a1, b1);
            t = i.madd52lo(t, m1, y1);
            t = i.madd52hi(t, a0, b1);
            acc[v] = i.madd52hi(t, m0, y1);
            (a0, a1, m0, m1) = (a1, a2, m1, m2);
        }
        // Now a0, a1 (m0, m1) are digits D − 2 and D − 1.
        let mut t = i.madd52hi(zero, a1, b0);
        t = i.madd52hi(t, m1, y0);
        t = i.madd52lo(t, a1, b1);
        t = i.madd52lo(t, m1, y1);
        t = i.madd52hi(t, a0, b1);
        acc[D - 2] = i.madd52hi(t, m0, y1);
        let t = i.madd52hi(zero, a1, b1);
        acc[D - 1] = i.madd52hi(t, m1, y1);
        // Step j + 1's digit 0 is ≡ 0 mod 2^52: its carry into the new digit 0.
        acc[0] = i.add(acc[0], i.srl52(u));
    }
    carry_digits(i, &mut acc);
    acc
}

/// Propagates each digit's bits above 52 into the next digit, lane by lane, for a product
/// below 2m < 2^(52·D) (no carry leaves the top digit).
#[inline(always)]
fn carry_digits<I: Ifma52, const D: usize>(i: I, acc: &mut [I::V; D]) {
    let mask = i.splat(MASK52);
    for v in 0..D - 1 {
        let c = i.srl52(acc[v]);
        acc[v] = i.and(acc[v], mask);
        acc[v + 1] = i.add(acc[v + 1], c);
    }
}

/// The largest digit count with a dedicated squaring ([`ams`]): its steps are straight code, D
/// of them of D digits each. Measured on AMD Zen 5 (a batch of eight, against the AMM as the
/// squaring, in one process): 0.75x the time at 10 digits, 0.83x at 20, 1.84x at 30, where the
/// code outgrows the instruction cache (and takes minutes to compile).
const AMS_MAX_DIGITS: usize = 20;

/// Eight squarings a_k²·2^(−52·D) mod m_k below 2·m_k, as [`amm`] of a by itself: by [`ams`]
/// up to [`AMS_MAX_DIGITS`] digits, by the AMM above.
#[inline(always)]
fn sqr<I: Ifma52, const D: usize>(i: I, a: &[u64], m: &[u64], k0: I::V) -> [I::V; D] {
    if const { D <= AMS_MAX_DIGITS } {
        ams::<I, D>(i, a, m, k0)
    } else {
        amm::<I, D>(i, a, a, m, k0)
    }
}

/// Eight almost-Montgomery squarings (AMS): the AMM of a by itself with the products a_j·a_p,
/// p < j, left out and those with p > j doubled: a quarter fewer multiply-adds.
///
/// Step j adds 2·a_j·a_p for p > j and a_j² (the diagonal) where the AMM adds a·b_j: each
/// doubled pair's low and high halves are formed into zero and added twice (a doubled digit
/// would not fit the multiplier's 52 bits). The reduction is the AMM's, one step at a time.
/// Which products a step forms depends on j and the digit, both constants: the steps are
/// unrolled (one function per j), so that nothing is decided at run time and the accumulator
/// stays in registers. A lane gains less than 6·2^52 per step, D ≤ 20 steps: no overflow.
#[inline(always)]
fn ams<I: Ifma52, const D: usize>(i: I, a: &[u64], m: &[u64], k0: I::V) -> [I::V; D] {
    // The steps below go to 20 (a constant test: no code where it holds).
    assert!(D <= AMS_MAX_DIGITS, "ams: at most {AMS_MAX_DIGITS} digits");
    let l = I::LANES;
    let (a, m) = (&a[..D * l], &m[..D * l]);
    let mut acc = [i.zero(); D];
    macro_rules! steps {
        ($($j:literal)*) => {$(
            if const { $j < D } {
                ams_step::<I, D, $j>(i, &mut acc, a, m, k0);
            }
        )*};
    }
    steps!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19);
    carry_digits(i, &mut acc);
    acc
}

/// Step J of [`ams`]: acc ← (acc + a_J·(a_J + 2·Σ_(p>J) a_p·2^(52·(p−J))) + m·y)/2^52, with
/// acc's digit v standing for digit J + v of the square.
#[inline(always)]
fn ams_step<I: Ifma52, const D: usize, const J: usize>(
    i: I,
    acc: &mut [I::V; D],
    a: &[u64],
    m: &[u64],
    k0: I::V,
) {
    let l = I::LANES;
    let zero = i.zero();
    let aj = i.load(&a[J * l..]);
    // Digit 0 is digit J of the square: only the diagonal of step 0 lands there.
    let mut t = acc[0];
    if J == 0 {
        t = i.madd52lo(t, aj, aj);
    }
    let y = i.madd52lo(zero, t, k0);
    let carry = i.srl52(i.madd52lo(t, i.load(m), y));
    // Digit v after the step: digit v + 1 before it, the low halves of digit v + 1's products
    // and the high halves of digit v's. One function per digit too: a loop over v, with its
    // tests of v against J, is not unrolled by LLVM at 20 digits, and the accumulator then
    // lives in memory.
    macro_rules! digits {
        ($($v:literal)*) => {$(
            if const { $v < D } {
                ams_digit::<I, D, J, $v>(i, acc, a, m, aj, y);
            }
        )*};
    }
    digits!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19);
    acc[0] = i.add(acc[0], carry);
}

/// Digit V of step J of [`ams`] (digit V + 1 read before it is written: V in increasing order).
#[inline(always)]
fn ams_digit<I: Ifma52, const D: usize, const J: usize, const V: usize>(
    i: I,
    acc: &mut [I::V; D],
    a: &[u64],
    m: &[u64],
    aj: I::V,
    y: I::V,
) {
    let l = I::LANES;
    let zero = i.zero();
    let top = V + 1 == D;
    let (a_v, m_v) = (i.load(&a[V * l..]), i.load(&m[V * l..]));
    let (a_up, m_up) = if top {
        (zero, zero)
    } else {
        (i.load(&a[(V + 1) * l..]), i.load(&m[(V + 1) * l..]))
    };
    let mut x = if top { zero } else { acc[V + 1] };
    x = i.madd52lo(x, m_up, y);
    x = i.madd52hi(x, m_v, y);
    if V > J {
        // 2·(lo(a_(V+1)·a_J) + hi(a_V·a_J)).
        let u = i.madd52hi(i.madd52lo(zero, a_up, aj), a_v, aj);
        x = i.add(x, i.add(u, u));
    } else if V == J {
        // 2·lo(a_(J+1)·a_J) + hi(a_J²).
        let u = i.madd52lo(zero, a_up, aj);
        x = i.madd52hi(i.add(x, i.add(u, u)), aj, aj);
    } else if V + 1 == J {
        // lo(a_J²).
        x = i.madd52lo(x, aj, aj);
    }
    acc[V] = x;
}

/// The entry of the table (32 entries of D·8 values) at each lane's index, reading every
/// entry: lane k of the result is lane k of entry idx_k. `nidx` is 2^52 − idx per lane.
///
/// Lane k's hit on entry e is 1 or 0 by carry arithmetic (idx_k ≥ e: bit 52 of
/// idx_k + 2^52 − e; e ≥ idx_k: bit 52 of 2^52 − idx_k + e), and the entry is added times its
/// hit by a multiply-add (digits are below 2^52, so lo52(digit·hit) is the digit or 0). No
/// mask register and no blend: the model's compare and blend are plain integer code in which
/// LLVM recognises the selection and makes a branch of it (which `.ci/ct-check` reports), and
/// the hit goes through an optimisation barrier so that the multiply by a 0/1 value is not
/// turned into a select either. The barrier costs one register's store and load per entry
/// natively.
#[inline(always)]
fn gather<I: Ifma52, const D: usize>(i: I, table: &[u64], idx: I::V, nidx: I::V) -> [I::V; D] {
    let l = I::LANES;
    let mut out = [i.zero(); D];
    for e in 0..1u64 << WINDOW {
        let ge = i.srl52(i.add(idx, i.splat((1 << 52) - e)));
        let le = i.srl52(i.add(nidx, i.splat(e)));
        let hit = core::hint::black_box(i.and(ge, le));
        let at = usize::try_from(e).unwrap_or(0) * D * l;
        let entry = &table[at..at + D * l];
        for v in 0..D {
            out[v] = i.madd52lo(out[v], i.load(&entry[v * l..]), hit);
        }
    }
    out
}

/// The D vectors of `r` into `dst`.
#[inline(always)]
fn store<I: Ifma52, const D: usize>(i: I, r: &[I::V; D], dst: &mut [u64]) {
    let l = I::LANES;
    for v in 0..D {
        i.store(&mut dst[v * l..], r[v]);
    }
}

/// Each lane's window of `width` bits at `lo` of its exponent, and 2^52 minus it, as vectors.
#[inline(always)]
fn window<I: Ifma52>(i: I, exps: &[&[Limb]; BATCH_LANES], lo: usize, width: usize) -> (I::V, I::V) {
    let (mut w, mut nw) = ([0u64; BATCH_LANES], [0u64; BATCH_LANES]);
    for k in 0..BATCH_LANES {
        w[k] = exp_bits_at(exps[k], lo, width);
        nw[k] = (1 << 52) - w[k];
    }
    (i.load(&w), i.load(&nw))
}

/// The eight exponentiations base_k^exp_k·R' mod m_k (below 2·m_k, `[digit][lane]` into
/// `out`): see the module doc. `exp_bits` ≥ 1 is the longest exponent's bit length.
#[inline(always)]
fn pow_lanes<I: Ifma52, const D: usize>(i: I, ops: &Lanes<'_>, exp_bits: usize, out: &mut [u64]) {
    let l = I::LANES;
    let n = D * l;
    let size = 1 << WINDOW;
    let k0 = i.load(&ops.k0);
    let mut table = Zeroizing::new(vec![0u64; size * n]);
    // Entry 0: R mod m = AMM(R', 2^(104·d)/R'); entry 1: b·R = AMM(b·R', 2^(104·d)/R').
    let r = amm::<I, D>(i, ops.out, ops.into, ops.m, k0);
    store(i, &r, &mut table[..n]);
    let r = amm::<I, D>(i, ops.base, ops.into, ops.m, k0);
    store(i, &r, &mut table[n..2 * n]);
    for e in 2..size {
        // e is public: base^e = (base^(e/2))² or base^(e−1)·base.
        let r = if e & 1 == 0 {
            sqr::<I, D>(i, &table[(e >> 1) * n..((e >> 1) + 1) * n], ops.m, k0)
        } else {
            amm::<I, D>(i, &table[(e - 1) * n..e * n], &table[n..2 * n], ops.m, k0)
        };
        store(i, &r, &mut table[e * n..(e + 1) * n]);
    }

    let mut acc = Zeroizing::new(vec![0u64; n]);
    let mut entry = Zeroizing::new(vec![0u64; n]);
    let windows = exp_bits.div_ceil(WINDOW);
    let top_lo = (windows - 1) * WINDOW;
    let (idx, nidx) = window(i, &ops.exps, top_lo, exp_bits - top_lo);
    let g = gather::<I, D>(i, &table, idx, nidx);
    store(i, &g, &mut acc);
    for w in (0..windows - 1).rev() {
        for _ in 0..WINDOW {
            let r = sqr::<I, D>(i, &acc, ops.m, k0);
            store(i, &r, &mut acc);
        }
        let (idx, nidx) = window(i, &ops.exps, w * WINDOW, WINDOW);
        let g = gather::<I, D>(i, &table, idx, nidx);
        store(i, &g, &mut entry);
        let r = amm::<I, D>(i, &acc, &entry, ops.m, k0);
        store(i, &r, &mut acc);
    }
    // Out of radix-52 form: AMM(b^e·R, R' mod m) = b^e·R'.
    let r = amm::<I, D>(i, &acc, ops.out, ops.m, k0);
    store(i, &r, out);
}

impl Modulus {
    /// Whether [`pow_batch`] can group this modulus with `other` on the eight lanes (the same
    /// digit count, both within the engine's sizes).
    pub fn batches_with(&self, other: &Modulus) -> bool {
        batch_digits(self.bits()).is_some_and(|d| batch_digits(other.bits()) == Some(d))
    }
}

#[cfg(test)]
// The oracle reduces public test values; casts pick test values.
#[allow(
    clippy::integer_division_remainder_used,
    clippy::unwrap_used,
    clippy::cast_possible_truncation
)]
mod tests {
    use super::super::ifma::tests::{big, padded, random_limbs};
    use super::*;
    use num_bigint::BigUint;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    /// An odd modulus of exactly `bits` bits: random, or (`kind` 1) 2^(bits−1) + 1, or
    /// (`kind` 2) 2^bits − 1.
    fn modulus(rng: &mut ChaCha8Rng, bits: usize, kind: usize) -> Vec<Limb> {
        let n = bits.div_ceil(64);
        let top = BigUint::from(1u8) << (bits - 1);
        let m = match kind {
            1 => &top + 1u8,
            2 => (BigUint::from(1u8) << bits) - 1u8,
            _ => (big(&random_limbs(rng, n)) % &top + &top) | BigUint::from(1u8),
        };
        padded(&m, n)
    }

    /// One test job: modulus, plain base, exponent, exponent bit length.
    struct Case {
        m: Vec<Limb>,
        x: Vec<Limb>,
        e: Vec<Limb>,
        eb: usize,
    }

    /// Lane `k`'s edge case for a modulus m: bases with all-ones digits (lanes of 2^52 − 1,
    /// the carry ripple), m − 1, 0, 1 and random; exponents zero, zero bits, all ones, short
    /// and random of the modulus's size.
    fn case(rng: &mut ChaCha8Rng, m: Vec<Limb>, k: usize) -> Case {
        let n = m.len();
        let bits = big(&m).bits() as usize;
        let bm = big(&m);
        let ones = (BigUint::from(1u8) << (52 * ((64 * n - 2) / 52))) - 1u8;
        let x = match k % 5 {
            0 => ones % &bm,
            1 => &bm - 1u8,
            2 => BigUint::from(0u8),
            3 => BigUint::from(1u8),
            _ => big(&random_limbs(rng, n)) % &bm,
        };
        let (e, eb) = match k % 6 {
            0 => (vec![0; n], bits),
            1 => (vec![u64::MAX; n], bits),
            2 => (vec![0b1011], 4),
            3 => (vec![u64::MAX], 0),
            _ => (random_limbs(rng, n), bits),
        };
        Case {
            m,
            x: padded(&x, n),
            e,
            eb,
        }
    }

    /// The cases through `path` as one batch, each against num-bigint and the 64-bit
    /// exponentiation (canonical Montgomery limbs).
    fn check(path: PowPath, cases: &[Case]) {
        let ctxs: Vec<Modulus> = cases
            .iter()
            .map(|c| Modulus::new_vartime(&c.m).unwrap())
            .collect();
        let bases: Vec<Residue> = ctxs
            .iter()
            .zip(cases)
            .map(|(m, c)| m.reduce(&c.x))
            .collect();
        let jobs: Vec<PowJob<'_>> = (0..cases.len())
            .map(|k| PowJob {
                modulus: &ctxs[k],
                base: &bases[k],
                exp: &cases[k].e,
                exp_bits: cases[k].eb,
            })
            .collect();
        let got = pow_batch_on(path, &jobs).expect("one digit count");
        assert_eq!(got.len(), cases.len());
        for (k, c) in cases.iter().enumerate() {
            let be = big(&c.e) % (BigUint::from(1u8) << c.eb);
            let want = padded(&big(&c.x).modpow(&be, &big(&c.m)), c.m.len());
            assert_eq!(*ctxs[k].retrieve(&got[k]), want, "{path:?} lane {k}");
            let limbs = ctxs[k].pow_limbs(&bases[k], &c.e, c.eb);
            assert_eq!(
                got[k].as_montgomery_limbs(),
                limbs.as_montgomery_limbs(),
                "{path:?} lane {k}: not the canonical residue"
            );
        }
    }

    /// Eight lanes of different moduli (random and extreme) with mixed edge cases.
    fn mixed(rng: &mut ChaCha8Rng, bits: usize, jobs: usize) -> Vec<Case> {
        (0..jobs)
            .map(|k| {
                let m = modulus(rng, bits, k % 3);
                case(rng, m, k)
            })
            .collect()
    }

    #[test]
    fn model_batch_lanes_equal_pow_and_num_bigint() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for bits in [3, 64, 520, 1000, 1024, 1536, 2048] {
            check(PowPath::IfmaModel, &mixed(&mut rng, bits, 8));
        }
    }

    /// The same edge case in every lane but one, so each lane's value meets its neighbours'
    /// opposite extreme; and moduli of different bit lengths but one digit count.
    #[test]
    fn model_batch_edge_lanes_and_mixed_lengths() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for k in 0..6 {
            let mut cases: Vec<Case> = (0..8)
                .map(|_| {
                    let m = modulus(&mut rng, 1024, 2);
                    case(&mut rng, m, k)
                })
                .collect();
            let m = modulus(&mut rng, 1024, 0);
            cases[k] = case(&mut rng, m, 4);
            check(PowPath::IfmaModel, &cases);
        }
        let cases: Vec<Case> = [1000, 1010, 1024, 1018]
            .iter()
            .enumerate()
            .map(|(k, &bits)| {
                let m = modulus(&mut rng, bits, 0);
                case(&mut rng, m, k + 4)
            })
            .collect();
        check(PowPath::IfmaModel, &cases);
    }

    #[test]
    fn model_partial_and_multi_chunk_batches() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for jobs in [1, 3, 7, 8, 11] {
            check(PowPath::IfmaModel, &mixed(&mut rng, 1024, jobs));
        }
        check(PowPath::IfmaModel, &[]);
    }

    /// Moduli of different digit counts are refused by the batch, and done one by one by
    /// `pow_batch`; the limbs path takes anything.
    #[test]
    fn different_digit_counts_fall_back() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let mut cases = mixed(&mut rng, 1024, 2);
        cases.extend(mixed(&mut rng, 2048, 1));
        check(PowPath::Limbs, &cases);
        let ctxs: Vec<Modulus> = cases
            .iter()
            .map(|c| Modulus::new_vartime(&c.m).unwrap())
            .collect();
        assert!(ctxs[0].batches_with(&ctxs[1]));
        assert!(!ctxs[0].batches_with(&ctxs[2]));
        let bases: Vec<Residue> = ctxs
            .iter()
            .zip(&cases)
            .map(|(m, c)| m.reduce(&c.x))
            .collect();
        let jobs: Vec<PowJob<'_>> = (0..3)
            .map(|k| PowJob {
                modulus: &ctxs[k],
                base: &bases[k],
                exp: &cases[k].e,
                exp_bits: cases[k].eb,
            })
            .collect();
        assert!(pow_batch_on(PowPath::IfmaModel, &jobs).is_none());
        let got = pow_batch(&jobs);
        for k in 0..3 {
            let want = ctxs[k].pow_limbs(&bases[k], &cases[k].e, cases[k].eb);
            assert_eq!(got[k].as_montgomery_limbs(), want.as_montgomery_limbs());
        }
    }

    #[test]
    fn digit_counts() {
        assert_eq!(batch_digits(1024), Some(20));
        assert_eq!(batch_digits(1536), Some(30));
        assert_eq!(batch_digits(2048), Some(40));
        assert_eq!(batch_digits(4096), Some(80));
        assert_eq!(batch_digits(3), Some(10));
        assert_eq!(batch_digits(52 * 80 - 1), None);
        assert_eq!(batch_digits(2), None);
    }

    /// Where the CPU has IFMA: whole batches on the instructions equal the model's bit for
    /// bit, and the batch counter proves the instructions ran.
    #[test]
    fn native_batch_equals_the_model() {
        if !PowPath::Ifma.is_available() {
            eprintln!("skipped: no avx512ifma on this CPU (the model tests ran instead)");
            return;
        }
        let before = ifma_batch_runs();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for (bits, jobs) in [
            (520, 8),
            (1024, 8),
            (1024, 5),
            (1536, 8),
            (2048, 8),
            (3072, 3),
            (4096, 8),
        ] {
            let cases = mixed(&mut rng, bits, jobs);
            check(PowPath::Ifma, &cases);
            let ctxs: Vec<Modulus> = cases
                .iter()
                .map(|c| Modulus::new_vartime(&c.m).unwrap())
                .collect();
            let bases: Vec<Residue> = ctxs
                .iter()
                .zip(&cases)
                .map(|(m, c)| m.reduce(&c.x))
                .collect();
            let jobs: Vec<PowJob<'_>> = (0..cases.len())
                .map(|k| PowJob {
                    modulus: &ctxs[k],
                    base: &bases[k],
                    exp: &cases[k].e,
                    exp_bits: cases[k].eb,
                })
                .collect();
            let native = pow_batch_on(PowPath::Ifma, &jobs).unwrap();
            let model = pow_batch_on(PowPath::IfmaModel, &jobs).unwrap();
            for (a, b) in native.iter().zip(&model) {
                assert_eq!(
                    a.as_montgomery_limbs(),
                    b.as_montgomery_limbs(),
                    "{bits} bits"
                );
            }
        }
        assert!(ifma_batch_runs() > before, "the IFMA batch did not run");
    }
}
