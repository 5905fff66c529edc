//! The almost-Montgomery squaring of one or two interleaved numbers: what [`amm`] gives for
//! b = a, with about half of the a·a multiply-adds and none of their lane shifts.
//!
//! The AMM adds a·b_j and y_j·m at every step and shifts both sums down a lane. Here the
//! square comes first, as a whole, on 2·NV accumulators that do not move: each product
//! a_i·a_j with i < j once (from copies of a shifted by 0 to LANES − 1 lanes, so that a
//! broadcast digit times a copy lands on whole vectors), then the sum doubled and the squares
//! a_i² added. The Montgomery reduction follows: S steps of y·m alone on the square's low
//! half, whose high half is added at the end.
//!
//! The result is the AMM's, digit for digit: both add to a·a the one multiple M·m with
//! 0 ≤ M < R = 2^(52·S) that makes the sum divisible by R, divide by R and normalise.
//!
//! Only the step count S, the shape and the digit index decide which multiply-adds run and
//! under which lane mask: nothing here depends on a value.
//!
//! [`amm`]: super::amm::amm

// The loops index several arrays of vectors in step: one index reads closer to the
// instructions than zipped iterators.
#![allow(clippy::needless_range_loop)]

use crate::mpn::ifma_model::{Ifma52, MASK52};

use super::amm::{Operands, normalize};

/// The most lanes of a vector: the shifted copies of a are kept for up to this many shifts.
const MAX_LANES: usize = 8;

/// K interleaved almost-Montgomery squarings: a_k·a_k·2^(−52·S) mod m_k, below 2·m_k, with
/// normalised digits, for a_k < 2·m_k of d = NV·LANES ≥ S normalised digits (zero above S);
/// `mv` holds the m_k in vectors ([`super::amm::load_m`]).
#[inline(always)]
pub fn ams<I: Ifma52, const NV: usize, const S: usize, const K: usize>(
    i: I,
    a: [&[u64]; K],
    ops: &[Operands<'_>; K],
    mv: &[[I::V; NV]; K],
) -> [[I::V; NV]; K] {
    if const { I::OUTLINE } {
        ams_call::<I, NV, S, K>(i, a, ops, mv)
    } else {
        ams_inline::<I, NV, S, K>(i, a, ops, mv)
    }
}

/// [`ams`] as a function of its own, for implementations that call it ([`Ifma52::OUTLINE`]).
#[inline(never)]
fn ams_call<I: Ifma52, const NV: usize, const S: usize, const K: usize>(
    i: I,
    a: [&[u64]; K],
    ops: &[Operands<'_>; K],
    mv: &[[I::V; NV]; K],
) -> [[I::V; NV]; K] {
    ams_inline::<I, NV, S, K>(i, a, ops, mv)
}

/// The body of [`ams`].
#[inline(always)]
fn ams_inline<I: Ifma52, const NV: usize, const S: usize, const K: usize>(
    i: I,
    a: [&[u64]; K],
    ops: &[Operands<'_>; K],
    mv: &[[I::V; NV]; K],
) -> [[I::V; NV]; K] {
    const { assert!(K == 1 || K == 2) };
    const { assert!(S <= NV * I::LANES && I::LANES <= MAX_LANES) };
    let (l, zero) = (I::LANES, i.zero());
    let d = NV * l;
    // The squares' digits 0 to d − 1 (the reduction's window) and d to 2·d − 1.
    let (mut lo, mut hi) = square::<I, NV, S, K>(i, a);
    // Digit 0 of a square is that of a_0² alone; the reduction keeps it exact in a scalar.
    let mut acc0: [u64; K] = core::array::from_fn(|k| a[k][0].wrapping_mul(a[k][0]) & MASK52);
    let consts: [Reduction; K] = core::array::from_fn(|k| Reduction {
        m0: ops[k].m[0],
        m1: ops[k].m[1],
        k0: ops[k].k0,
    });
    // The numbers by constant index, as in the AMM: the window stays in registers.
    for _ in 0..S {
        reduce_step(i, &mut lo[0], &mut acc0[0], &mv[0], consts[0]);
        if K == 2 {
            reduce_step(
                i,
                &mut lo[K - 1],
                &mut acc0[K - 1],
                &mv[K - 1],
                consts[K - 1],
            );
        }
    }
    for k in 0..K {
        // The window now starts at digit S: the square's digits from d on go to lanes d − S
        // on (the lanes below keep what the window carried down).
        for _ in 0..d - S {
            for v in (0..NV).rev() {
                let below = if v == 0 { zero } else { hi[k][v - 1] };
                hi[k][v] = i.shift_up(hi[k][v], below);
            }
        }
        lo[k][0] = i.set_lane0(lo[k][0], acc0[k]);
        for v in 0..NV {
            lo[k][v] = i.add(lo[k][v], hi[k][v]);
        }
        normalize(i, &mut lo[k]);
    }
    lo
}

/// a_k·a_k of d = NV·LANES digits (zero from S on) for the K numbers, into `lo` (digits 0 to
/// d − 1) and `hi` (d to 2·d − 1), one digit a lane, not normalised: each lane below 2^61 for
/// S ≤ 80 (a digit takes at most two halves of products a row, 2·S in all, doubled, and a
/// square's half). The K numbers' rows alternate, so that the accumulators' chains of
/// dependent multiply-adds (up to about 2·S long) overlap.
#[inline(always)]
#[allow(clippy::type_complexity)]
fn square<I: Ifma52, const NV: usize, const S: usize, const K: usize>(
    i: I,
    a: [&[u64]; K],
) -> ([[I::V; NV]; K], [[I::V; NV]; K]) {
    let (l, zero) = (I::LANES, i.zero());
    let (mut lo, mut hi) = ([[zero; NV]; K], [[zero; NV]; K]);
    // The copies of a shifted up by s lanes: sh.v[s][u] lane x holds digit l·u + x − s (zero
    // below 0), sh.top[s] the digits pushed out of the top vector.
    let mut sh = [Shifted {
        v: [[zero; NV]; MAX_LANES],
        top: [zero; MAX_LANES],
    }; K];
    for k in 0..K {
        let sh = &mut sh[k];
        for v in 0..NV {
            sh.v[0][v] = i.load(&a[k][v * l..]);
        }
        for s in 1..l {
            sh.top[s] = i.shift_up(sh.top[s - 1], sh.v[s - 1][NV - 1]);
            for v in (0..NV).rev() {
                let below = if v == 0 { zero } else { sh.v[s - 1][v - 1] };
                sh.v[s][v] = i.shift_up(sh.v[s - 1][v], below);
            }
        }
    }
    // Row j of every number (the numbers by constant index, as in the AMM; a macro, not a
    // closure, which would not be compiled with the native runner's CPU features).
    macro_rules! rows_at {
        ($j:expr) => {
            row::<I, NV, S>(i, $j, a[0], &sh[0], &mut lo[0], &mut hi[0]);
            if K == 2 {
                row::<I, NV, S>(i, $j, a[K - 1], &sh[K - 1], &mut lo[K - 1], &mut hi[K - 1]);
            }
        };
    }
    if const { I::OUTLINE } {
        // The model: one copy of a row, j at run time.
        for j in 0..S {
            rows_at!(j);
        }
    } else {
        // The instructions: each row inlined with j a constant, so that the skipped vectors,
        // the masks and the accumulators' indices are all decided at compile time.
        macro_rules! rows {
            ($($j:literal)*) => {
                $(if $j < S {
                    rows_at!($j);
                })*
            };
        }
        rows!(
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29
            30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56
            57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79
        );
        const { assert!(S <= 80) };
    }
    // Each product with i < j counted once: doubled, plus the squares a_i² (low halves at
    // digit 2·i, high halves at 2·i + 1).
    for k in 0..K {
        for v in 0..NV {
            let x = sh[k].v[0][v];
            let (sq_lo, sq_hi) = (i.madd52lo(zero, x, x), i.madd52hi(zero, x, x));
            let halves = [i.interleave_lo(sq_lo, sq_hi), i.interleave_hi(sq_lo, sq_hi)];
            for h in 0..2 {
                let p = at(&mut lo[k], &mut hi[k], 2 * v + h);
                *p = i.add(i.add(*p, *p), halves[h]);
            }
        }
    }
    (lo, hi)
}

/// The shifted copies of a ([`square`]).
#[derive(Clone, Copy)]
struct Shifted<V, const NV: usize> {
    v: [[V; NV]; MAX_LANES],
    top: [V; MAX_LANES],
}

/// Row j of the square: a_i·a_j for every i > j, low halves at digit i + j, high halves at
/// i + j + 1.
#[inline(always)]
fn row<I: Ifma52, const NV: usize, const S: usize>(
    i: I,
    j: usize,
    a: &[u64],
    sh: &Shifted<I::V, NV>,
    lo: &mut [I::V; NV],
    hi: &mut [I::V; NV],
) {
    let b = i.splat(a[j]);
    row_half::<I, NV, S>(i, j, false, b, sh, lo, hi);
    row_half::<I, NV, S>(i, j, true, b, sh, lo, hi);
}

/// The low (or high) halves of row j. With q = ⌊j/L⌋ and r = j mod L, digit i + j lies in
/// accumulator w = u + q, in the lane x of the copy shifted by s = r whose digit is a_i
/// (i = L·u + x − s); the high halves lie one digit up: the copy shifted by s = r + 1 (by L:
/// the unshifted copy one vector up). The mask keeps the lanes with j < i < S.
#[inline(always)]
fn row_half<I: Ifma52, const NV: usize, const S: usize>(
    i: I,
    j: usize,
    high: bool,
    b: I::V,
    sh: &Shifted<I::V, NV>,
    lo: &mut [I::V; NV],
    hi: &mut [I::V; NV],
) {
    let l = I::LANES;
    // Lanes are a power of two.
    let (q, r) = (j >> l.trailing_zeros(), j & (l - 1));
    let s = r + usize::from(high);
    let all = (1u32 << l) - 1;
    // t = u − q ≥ 0; u ≤ NV, the last vector a copy fills. Exclusive ranges in these loops:
    // LLVM does not unroll `0..=n`, and the accumulators' indices then become run-time selects.
    for t in 0..NV + 2 {
        let u = q + t;
        // Lanes from `first` (i > j: L·t + x > r + s) up to `end` (i < S: L·u + x < S + s).
        let first = (r + s + 1).saturating_sub(l * t);
        let end = (S + s).saturating_sub(l * u).min(l);
        if u > NV || first >= end {
            continue;
        }
        #[allow(clippy::cast_possible_truncation)] // at most eight lanes
        let mask = ((1u32 << end) - (1u32 << first)) as u8;
        let src = if s == l {
            sh.v[0][u - 1]
        } else if u == NV {
            sh.top[s]
        } else {
            sh.v[s][u]
        };
        let p = at(lo, hi, u + q);
        *p = match (high, u32::from(mask) == all) {
            (false, true) => i.madd52lo(*p, src, b),
            (false, false) => i.madd52lo_mask(*p, mask, src, b),
            (true, true) => i.madd52hi(*p, src, b),
            (true, false) => i.madd52hi_mask(*p, mask, src, b),
        };
    }
}

/// Accumulator w of the square's 2·NV.
#[inline(always)]
fn at<'a, V, const NV: usize>(lo: &'a mut [V; NV], hi: &'a mut [V; NV], w: usize) -> &'a mut V {
    if w < NV { &mut lo[w] } else { &mut hi[w - NV] }
}

/// The scalar digits and constant of one modulus for [`reduce_step`].
#[derive(Clone, Copy)]
struct Reduction {
    m0: u64,
    m1: u64,
    k0: u64,
}

/// One step of the reduction: y = digit 0·k0 mod 2^52, y·m into `ys`, divided by 2^52;
/// `acc0` the exact digit 0 (the vectors' lane 0 lacks the carries).
#[inline(always)]
fn reduce_step<I: Ifma52, const NV: usize>(
    i: I,
    ys: &mut [I::V; NV],
    acc0: &mut u64,
    mv: &[I::V; NV],
    c: Reduction,
) {
    // Digit 1 as the previous step left it.
    let digit1 = i.lane1(ys[0]);
    // y·2^12 in one product (k0·2^12 < 2^64): the high word of m0·y·2^12 is ⌊m0·y / 2^52⌋,
    // the low word of m1·y·2^12 is (m1·y mod 2^52)·2^12. And digit 0 + (m0·y mod 2^52) is a
    // multiple of 2^52, ⌈digit 0 / 2^52⌉ of them, so the carry ⌊(digit 0 + m0·y) / 2^52⌋ is
    // ⌈digit 0 / 2^52⌉ + ⌊m0·y / 2^52⌋. From one digit 0 to the next: a product, a high
    // product and two adds, against a product, a mask, a double-width product and add and a
    // double shift (a shorter step in llvm-mca's Intel model; docs/benchmarks-log.md, "Where
    // the rows stop").
    let y12 = acc0.wrapping_mul(c.k0 << 12);
    #[allow(clippy::cast_possible_truncation)] // the high word
    let hi = ((u128::from(c.m0) * u128::from(y12)) >> 64) as u64;
    let up = (*acc0 + MASK52) >> 52;
    *acc0 = digit1 + (c.m1.wrapping_mul(y12) >> 12) + hi + up;
    let yv = i.splat(y12 >> 12);
    for v in 0..NV {
        ys[v] = i.madd52lo(ys[v], mv[v], yv);
    }
    for v in 0..NV - 1 {
        ys[v] = i.shift_down(ys[v + 1], ys[v]);
    }
    ys[NV - 1] = i.shift_down(i.zero(), ys[NV - 1]);
    for v in 0..NV {
        ys[v] = i.madd52hi(ys[v], mv[v], yv);
    }
}
