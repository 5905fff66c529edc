//! The almost-Montgomery multiplication of one or two interleaved numbers ("horizontal":
//! a number's digits across the lanes of NV vectors), and its final carry propagation.

// The hot loops index several arrays of vectors in step (a, m, the accumulators of K
// products): one index reads closer to the instructions than zipped iterators.
#![allow(clippy::needless_range_loop)]

use crate::limb::Limb;
use crate::mpn::ifma_model::{Call, Ifma52, MASK52};

use super::window;

/// The operands of one exponentiation of [`pow_k`], all d = NV·LANES digits.
pub struct Operands<'a> {
    pub m: &'a [u64],
    pub into: &'a [u64],
    pub out: &'a [u64],
    pub base: &'a [u64],
    pub k0: u64,
    pub exp: &'a [Limb],
}

/// K interleaved almost-Montgomery multiplications: a_k·b_k·2^(−52·S) mod m_k, below 2·m_k,
/// with normalised digits, for a_k, b_k < 2·m_k of d = NV·LANES ≥ S normalised digits (zero
/// above S: S steps, one per digit of b that may be non-zero); `mv` holds the m_k in vectors
/// ([`load_m`]).
///
/// Two accumulators per number, for the a·b and the m·y halves, and digit 1 carried in
/// scalars: both serial chains of a step (through the accumulator's dependent multiply-adds,
/// and from one y to the next through a vector and back, slow between the register files on
/// AMD) are shorter, at the price of twice the lane shifts, which is the faster trade on AMD
/// (measured by `bignum/examples/pow_paths.rs` against one accumulator: see
/// docs/benchmarks-log.md, "AVX-512 IFMA").
#[inline(always)]
pub fn amm<I: Ifma52, const NV: usize, const S: usize, const K: usize>(
    i: I,
    a: [&[u64]; K],
    b: [&[u64]; K],
    ops: &[Operands<'_>; K],
    mv: &[[I::V; NV]; K],
) -> [[I::V; NV]; K] {
    if const { I::OUTLINE } {
        amm_call::<I, NV, S, K>(i, a, b, ops, mv)
    } else {
        amm_inline::<I, NV, S, K>(i, a, b, ops, mv)
    }
}

/// [`amm`] in one function per shape ([`Ifma52::call`]), which loads the moduli itself: for
/// the products outside an exponentiation's loop (conversions into and out of radix 2^52,
/// tables of powers), a few dozen in a whole exponentiation, so that a call each costs nothing
/// measurable, where a copy of the AMM inlined at each of them made the engine's instances,
/// most of the crate's build, longer to compile (docs/benchmarks-log.md, "The public
/// exponentiations' rare products called"). The moduli in registers of the caller's loop
/// ([`load_m`]) are not passed: their address would escape into the call and keep them in
/// memory in the loop.
#[inline(always)]
pub(super) fn amm_rare<I: Ifma52, const NV: usize, const S: usize, const K: usize>(
    i: I,
    a: [&[u64]; K],
    b: [&[u64]; K],
    ops: &[Operands<'_>; K],
) -> [[I::V; NV]; K] {
    i.call(AmmRare::<'_, '_, '_, NV, S, K> { a, b, ops })
}

/// The operands of [`amm_rare`]'s call.
struct AmmRare<'a, 'o, 'p, const NV: usize, const S: usize, const K: usize> {
    a: [&'a [u64]; K],
    b: [&'a [u64]; K],
    ops: &'o [Operands<'p>; K],
}

impl<I: Ifma52, const NV: usize, const S: usize, const K: usize> Call<I>
    for AmmRare<'_, '_, '_, NV, S, K>
{
    type Output = [[I::V; NV]; K];

    #[inline(always)]
    fn run(self, i: I) -> Self::Output {
        let mv = load_m::<I, NV, K>(i, self.ops);
        amm::<I, NV, S, K>(i, self.a, self.b, self.ops, &mv)
    }
}

/// [`amm`] as a function of its own, for implementations that call it ([`Ifma52::OUTLINE`]).
#[inline(never)]
fn amm_call<I: Ifma52, const NV: usize, const S: usize, const K: usize>(
    i: I,
    a: [&[u64]; K],
    b: [&[u64]; K],
    ops: &[Operands<'_>; K],
    mv: &[[I::V; NV]; K],
) -> [[I::V; NV]; K] {
    amm_inline::<I, NV, S, K>(i, a, b, ops, mv)
}

/// The body of [`amm`].
#[inline(always)]
fn amm_inline<I: Ifma52, const NV: usize, const S: usize, const K: usize>(
    i: I,
    a: [&[u64]; K],
    b: [&[u64]; K],
    ops: &[Operands<'_>; K],
    mv: &[[I::V; NV]; K],
) -> [[I::V; NV]; K] {
    let l = I::LANES;
    let d = NV * l;
    let zero = i.zero();
    let mut av = [[zero; NV]; K];
    for k in 0..K {
        for v in 0..NV {
            av[k][v] = i.load(&a[k][v * l..]);
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
    const { assert!(S <= NV * I::LANES) };
    for j in 0..S {
        split_step_of(i, 0, &mut xs, &mut ys, &mut acc0, &av, mv, &b, &scalars, j);
        if K == 2 {
            split_step_of(
                i,
                K - 1,
                &mut xs,
                &mut ys,
                &mut acc0,
                &av,
                mv,
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
pub(super) fn normalize<I: Ifma52, const NV: usize>(i: I, acc: &mut [I::V; NV]) {
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
    // Top vector first, one shift and one or a vector: a serial chain, which LLVM keeps in
    // general registers (the same masks or-ed at their offsets, independently, it gathers
    // through vector inserts and shuffles, a longer latency at the end of every product).
    let (mut g, mut p) = (0u128, 0u128);
    for v in (0..NV).rev() {
        g = (g << l) | u128::from(i.cmpgt_mask(acc[v], mask));
        p = (p << l) | u128::from(i.cmpeq_mask(acc[v], mask));
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

/// The K moduli in registers, for [`amm`]: loaded once per exponentiation rather than per
/// product (LLVM copies spilled operands to the stack at every product otherwise).
#[inline(always)]
pub fn load_m<I: Ifma52, const NV: usize, const K: usize>(
    i: I,
    ops: &[Operands<'_>; K],
) -> [[I::V; NV]; K] {
    let l = I::LANES;
    let mut mv = [[i.zero(); NV]; K];
    for k in 0..K {
        for v in 0..NV {
            mv[k][v] = i.load(&ops[k].m[v * l..]);
        }
    }
    mv
}

/// The K numbers of d digits one after the other in `buf`.
#[inline(always)]
pub fn parts<const K: usize>(buf: &[u64], d: usize) -> [&[u64]; K] {
    core::array::from_fn(|k| &buf[k * d..(k + 1) * d])
}

/// Stores K results (NV vectors each), result k at word k·d of `dst`.
#[inline(always)]
pub(super) fn store<I: Ifma52, const NV: usize, const K: usize>(
    i: I,
    r: &[[I::V; NV]; K],
    dst: &mut [u64],
) {
    let d = NV * I::LANES;
    for k in 0..K {
        window::store(i, &r[k], &mut dst[k * d..]);
    }
}
