//! The one- and two-number engine's runner: jobs prepared, the shape's instance chosen (on
//! the instructions or the model), the secret-exponent window exponentiation, the results
//! made residues.

// The hot loops index several arrays of vectors in step.
#![allow(clippy::needless_range_loop)]

use alloc::vec;

use zeroize::Zeroizing;

#[cfg(feature = "test-hooks")]
use crate::mpn::ifma_model::Model;
use crate::mpn::ifma_model::{Ifma52, Task};

use super::super::Residue;
use super::super::pow::exp_bits_at;
use super::amm::{Operands, amm, load_m, parts, store};
use super::ams::ams;
use super::convert::finish;
use super::job::{PowJob, Ready};
use super::shape::{
    Layout, steps, with_pair_256, with_pair_512, with_shapes, with_single_256, with_single_512,
    with_vectors_and_steps,
};
use super::vartime::{SLIDING_MIN_BITS, pow_public_k, pow_public_sliding};
use super::window::{Engine, Operand, gather, pow_window};
use crate::backend::PowPath;
use crate::run_counters::{Counter, count};

/// How many exponentiations (single or interleaved pairs, one each) the IFMA instructions ran
/// in this process: the proof for tests that the native path really ran. With the
/// `test-hooks` feature only.
#[cfg(feature = "test-hooks")]
pub fn ifma_runs() -> u64 {
    crate::run_counters::read(Counter::IfmaRuns)
}

/// Whether [`pow_k`] may branch on the exponent's bits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Exponent {
    /// Secret: fixed window, masked gather.
    Secret,
    /// Public: left-to-right square-and-multiply.
    Public,
}

/// [`run`] for one number and for a pair, as functions of this crate, for the tests: a test
/// crate calling the generic `run` compiles every instance of the engine again. With the
/// `test-hooks` feature only.
#[cfg(feature = "test-hooks")]
pub fn run_one(
    path: PowPath,
    lanes_nv: (usize, usize),
    job: &PowJob<'_>,
    kind: Exponent,
) -> Option<Residue> {
    run(path, lanes_nv, [job], kind).map(|[r]| r)
}

/// See [`run_one`].
#[cfg(feature = "test-hooks")]
pub fn run_two(
    path: PowPath,
    lanes_nv: (usize, usize),
    jobs: [&PowJob<'_>; 2],
    kind: Exponent,
) -> Option<[Residue; 2]> {
    run(path, lanes_nv, jobs, kind)
}

/// The K exponentiations on `path` with numbers of `nv` vectors of `lanes` lanes, as
/// residues; the AMM takes [`steps`] steps.
pub fn run<const K: usize>(
    path: PowPath,
    (lanes, nv): (usize, usize),
    jobs: [&PowJob<'_>; K],
    kind: Exponent,
) -> Option<[Residue; K]> {
    if jobs.iter().all(|j| j.exp_bits == 0) {
        return Some(core::array::from_fn(|k| jobs[k].modulus.one()));
    }
    let d = nv * lanes;
    let steps = steps((lanes, nv), &jobs.map(|j| j.modulus.bits()));
    let ready = Ready::new(&jobs, steps, d);
    let exp_bits = ready.exp_bits;
    let ops: [Operands<'_>; K] = core::array::from_fn(|k| {
        let p = &ready.nums[k];
        Operands {
            m: &p.c.m,
            into: &p.c.into,
            out: &p.c.out,
            base: &p.base,
            k0: p.c.k0,
            exp: &ready.exps[k],
        }
    });
    let mut digits = Zeroizing::new(vec![0u64; K * d]);
    let ran = match (path, lanes) {
        #[cfg(feature = "test-hooks")]
        (PowPath::IfmaModel, 4) => with_shapes!(K, 4, nv, steps, |N, S| {
            pow_k::<Model<4>, N, S, K>(Model, &ops, exp_bits, kind, &mut digits)
        }),
        #[cfg(feature = "test-hooks")]
        (PowPath::IfmaModel, _) => with_shapes!(K, 8, nv, steps, |N, S| {
            pow_k::<Model<8>, N, S, K>(Model, &ops, exp_bits, kind, &mut digits)
        }),
        #[cfg(not(feature = "test-hooks"))]
        (PowPath::IfmaModel, _) => None,
        (PowPath::Ifma, _) => native((lanes, nv, steps), &ops, exp_bits, kind, &mut digits),
        (PowPath::Limbs, _) => None,
    };
    ran?;
    Some(core::array::from_fn(|k| {
        finish(jobs[k].modulus, &digits[k * d..(k + 1) * d])
    }))
}

/// The two exponentiations of a pair on `path` in layout `lay`: interleaved in one loop where
/// the layout says so, else one after the other; none where the path or instance is missing.
pub(super) fn run_pair(
    path: PowPath,
    lay: Layout,
    [a, b]: [&PowJob<'_>; 2],
    kind: Exponent,
) -> Option<[Residue; 2]> {
    let shape = lay.lanes_nv();
    if lay.interleave {
        return run(path, shape, [a, b], kind);
    }
    let [ra] = run(path, shape, [a], kind)?;
    let [rb] = run(path, shape, [b], kind)?;
    Some([ra, rb])
}

/// The native instructions, where the CPU has them.
#[cfg(target_arch = "x86_64")]
fn native<const K: usize>(
    (lanes, nv, steps): (usize, usize, usize),
    ops: &[Operands<'_>; K],
    exp_bits: usize,
    kind: Exponent,
    digits: &mut [u64],
) -> Option<()> {
    use crate::mpn::{Avx512Ifma256, Avx512Ifma512};
    let tok = crate::cpu::ifma()?;
    count(Counter::IfmaRuns);
    // One text for both widths: the shapes compiled for `$lanes` lanes, on that width's
    // instructions.
    macro_rules! run_on {
        ($isa:ident, $lanes:tt) => {{
            let isa = $isa::new(tok);
            with_shapes!(K, $lanes, nv, steps, |N, S| {
                let task = PowTask::<N, S, K> {
                    ops,
                    exp_bits,
                    kind,
                    out: digits,
                };
                if const { K == 1 } {
                    isa.run(task)
                } else {
                    isa.run_pair(task)
                }
            })
        }};
    }
    if lanes == 8 {
        run_on!(Avx512Ifma512, 8)
    } else {
        run_on!(Avx512Ifma256, 4)
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn native<const K: usize>(
    _shape: (usize, usize, usize),
    _ops: &[Operands<'_>; K],
    _exp_bits: usize,
    _kind: Exponent,
    _digits: &mut [u64],
) -> Option<()> {
    None
}

/// [`pow_k`] as a [`Task`] for the native runners.
struct PowTask<'a, 'b, const NV: usize, const S: usize, const K: usize> {
    ops: &'a [Operands<'b>; K],
    exp_bits: usize,
    kind: Exponent,
    out: &'a mut [u64],
}

impl<const NV: usize, const S: usize, const K: usize> Task for PowTask<'_, '_, NV, S, K> {
    type Output = ();

    #[inline(always)]
    fn run<I: Ifma52>(self, isa: I) {
        pow_k::<I, NV, S, K>(isa, self.ops, self.exp_bits, self.kind, self.out);
    }
}

/// The K exponentiations base_k^exp_k·R' mod m_k (below 2·m_k, digits into `out`, K·d):
/// see the module doc.
#[inline(always)]
fn pow_k<I: Ifma52, const NV: usize, const S: usize, const K: usize>(
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
            return pow_public_sliding::<I, NV, S>(i, op, exp_bits, out);
        }
        return pow_public_k::<I, NV, S, K>(i, ops, exp_bits, out);
    }
    let mv = load_m::<I, NV, K>(i, ops);
    pow_window(&Horizontal::<I, NV, S, K> { i, ops, mv }, exp_bits, out);
}

/// Pairs of at least this many steps square by [`ams`], the others by the AMM: [`ams`] is
/// faster for the pairs of 20 steps (1024 bits) and more, slightly slower for those of 10 (512
/// bits), and slower for single numbers at every size (one chain of dependent multiply-adds per
/// accumulator, not two). Measured by `bignum/examples/pow_paths.rs` against the AMM's build:
/// see docs/benchmarks-log.md, "Which numbers square by ams".
const SQUARE_MIN_STEPS: usize = 16;

/// K interleaved numbers of NV vectors as an [`Engine`]: a block is the K numbers one after
/// the other (d digits each).
struct Horizontal<'a, 'b, I: Ifma52, const NV: usize, const S: usize, const K: usize> {
    i: I,
    ops: &'a [Operands<'b>; K],
    /// The moduli in registers ([`load_m`]).
    mv: [[I::V; NV]; K],
}

impl<'a, I: Ifma52, const NV: usize, const S: usize, const K: usize>
    Horizontal<'a, '_, I, NV, S, K>
{
    /// An operand as the K numbers' digits: a block's parts, or each number's own value.
    #[inline(always)]
    fn numbers<'x>(&self, x: Operand<'x>) -> [&'x [u64]; K]
    where
        'a: 'x,
    {
        let ops = self.ops;
        match x {
            Operand::Block(b) => parts(b, NV * I::LANES),
            Operand::Out => core::array::from_fn(|k| ops[k].out),
            Operand::Into => core::array::from_fn(|k| ops[k].into),
            Operand::Base => core::array::from_fn(|k| ops[k].base),
        }
    }
}

impl<I: Ifma52, const NV: usize, const S: usize, const K: usize> Engine
    for Horizontal<'_, '_, I, NV, S, K>
{
    type R = [[I::V; NV]; K];
    const WORDS: usize = K * NV * I::LANES;

    #[inline(always)]
    fn mul(&self, a: Operand<'_>, b: Operand<'_>) -> Self::R {
        amm::<I, NV, S, K>(self.i, self.numbers(a), self.numbers(b), self.ops, &self.mv)
    }

    const SQUARES_BY_MUL: bool = !(K == 2 && S >= SQUARE_MIN_STEPS);

    #[inline(always)]
    fn step(&self, acc: &[u64], b: Option<Operand<'_>>) -> Self::R {
        if const { !Self::SQUARES_BY_MUL } {
            match b {
                None => ams::<I, NV, S, K>(self.i, parts(acc, NV * I::LANES), self.ops, &self.mv),
                Some(b) => self.mul(Operand::Block(acc), b),
            }
        } else {
            self.mul(Operand::Block(acc), b.unwrap_or(Operand::Block(acc)))
        }
    }

    #[inline(always)]
    fn gather(&self, table: &[u64], lo: usize, width: usize) -> Self::R {
        let (i, d) = (self.i, NV * I::LANES);
        // A loop, not `array::from_fn`: its closure would not be compiled with the native
        // runner's CPU features.
        let mut r = [[i.zero(); NV]; K];
        for k in 0..K {
            let idx = exp_bits_at(self.ops[k].exp, lo, width);
            let (idx, nidx) = (i.splat(idx), i.splat((1 << 52) - idx));
            r[k] = gather::<I, NV>(i, table, Self::WORDS, k * d, idx, nidx);
        }
        r
    }

    #[inline(always)]
    fn store(&self, r: &Self::R, dst: &mut [u64]) {
        store(self.i, r, dst);
    }
}
