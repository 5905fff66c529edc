//! The batch engine's almost-Montgomery multiplication and squaring of eight numbers, one per
//! 64-bit lane ("vertical": digit j of every number in vector j).

// The hot loops index the digit vectors of several numbers in step.
#![allow(clippy::needless_range_loop)]

use crate::mpn::ifma_model::{Ifma52, MASK52};

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
pub(super) fn amm<I: Ifma52, const D: usize>(
    i: I,
    a: &[u64],
    b: &[u64],
    m: &[u64],
    k0: I::V,
) -> [I::V; D] {
    if const { I::OUTLINE } {
        amm_call::<I, D>(i, a, b, m, k0)
    } else {
        amm_inline::<I, D>(i, a, b, m, k0)
    }
}

/// [`amm`] as a function of its own, for implementations that call it ([`Ifma52::OUTLINE`]).
#[inline(never)]
fn amm_call<I: Ifma52, const D: usize>(
    i: I,
    a: &[u64],
    b: &[u64],
    m: &[u64],
    k0: I::V,
) -> [I::V; D] {
    amm_inline::<I, D>(i, a, b, m, k0)
}

/// The body of [`amm`].
#[inline(always)]
fn amm_inline<I: Ifma52, const D: usize>(
    i: I,
    a: &[u64],
    b: &[u64],
    m: &[u64],
    k0: I::V,
) -> [I::V; D] {
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
/// of them of D digits each. Up to 20 digits it is faster than the AMM as the squaring; at 30
/// it is slower, where the code outgrows the instruction cache (and takes minutes to compile).
/// Measured: see docs/benchmarks-log.md, "The batch's dedicated squaring".
const AMS_MAX_DIGITS: usize = 20;

/// Eight squarings a_k²·2^(−52·D) mod m_k below 2·m_k, as [`amm`] of a by itself: by [`ams`]
/// up to [`AMS_MAX_DIGITS`] digits, by the AMM above.
#[inline(always)]
pub(super) fn sqr<I: Ifma52, const D: usize>(i: I, a: &[u64], m: &[u64], k0: I::V) -> [I::V; D] {
    if const { I::OUTLINE } {
        sqr_call::<I, D>(i, a, m, k0)
    } else {
        sqr_inline::<I, D>(i, a, m, k0)
    }
}

/// [`sqr`] as a function of its own, for implementations that call it ([`Ifma52::OUTLINE`]).
#[inline(never)]
fn sqr_call<I: Ifma52, const D: usize>(i: I, a: &[u64], m: &[u64], k0: I::V) -> [I::V; D] {
    sqr_inline::<I, D>(i, a, m, k0)
}

/// The body of [`sqr`].
#[inline(always)]
fn sqr_inline<I: Ifma52, const D: usize>(i: I, a: &[u64], m: &[u64], k0: I::V) -> [I::V; D] {
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
            if const { $j < D && I::OUTLINE } {
                ams_step_call::<I, D, $j>(i, &mut acc, a, m, k0);
            } else if const { $j < D } {
                ams_step::<I, D, $j>(i, &mut acc, a, m, k0);
            }
        )*};
    }
    steps!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19);
    carry_digits(i, &mut acc);
    acc
}

/// [`ams_step`] as a function of its own, for implementations that call it
/// ([`Ifma52::OUTLINE`]: at 20 digits, the model's squaring inlined whole is one function of
/// 400 digit steps, which LLVM takes minutes over).
#[inline(never)]
fn ams_step_call<I: Ifma52, const D: usize, const J: usize>(
    i: I,
    acc: &mut [I::V; D],
    a: &[u64],
    m: &[u64],
    k0: I::V,
) {
    ams_step::<I, D, J>(i, acc, a, m, k0);
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
