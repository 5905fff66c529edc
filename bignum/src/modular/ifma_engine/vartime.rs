//! Exponentiation by a PUBLIC exponent on the one- and two-number engine: square-and-multiply
//! for pairs and short exponents, a sliding window for one long exponent. Branches on the
//! exponent's bits.

use alloc::vec;

use zeroize::Zeroizing;

use crate::mpn::ifma_model::Ifma52;

use super::amm::{Operands, amm, amm_rare, load_m, parts, store};

/// [`pow_k`] for PUBLIC exponents (all of bit length `exp_bits`, the longest): left-to-right
/// square-and-multiply, branching on the bits, with no table. A job whose exponent is shorter
/// multiplies by its radix-52 one (R mod m) where the other has bits: its product stays
/// correct, and the steps stay in lockstep.
#[inline(always)]
pub(super) fn pow_public_k<I: Ifma52, const NV: usize, const S: usize, const K: usize>(
    i: I,
    ops: &[Operands<'_>; K],
    exp_bits: usize,
    out: &mut [u64],
) {
    let d = NV * I::LANES;
    let mv = load_m::<I, NV, K>(i, ops);
    let outs: [&[u64]; K] = core::array::from_fn(|k| ops[k].out);
    let intos: [&[u64]; K] = core::array::from_fn(|k| ops[k].into);
    let bases: [&[u64]; K] = core::array::from_fn(|k| ops[k].base);
    // x·R for each base, and R (the radix-52 one). The products outside the loop are called
    // ([`amm_rare`]), the loop's inlined.
    let mut xr = Zeroizing::new(vec![0u64; K * d]);
    let r = amm_rare::<I, NV, S, K>(i, bases, intos, ops);
    store(i, &r, &mut xr);
    let mut one = Zeroizing::new(vec![0u64; K * d]);
    let r = amm_rare::<I, NV, S, K>(i, outs, intos, ops);
    store(i, &r, &mut one);
    let mut acc = Zeroizing::new(vec![0u64; K * d]);
    let mut factor = Zeroizing::new(vec![0u64; K * d]);
    acc.copy_from_slice(&one);
    let bit = |k: usize, b: usize| (ops[k].exp[b >> 6] >> (b & 63)) & 1 == 1;
    for b in (0..exp_bits).rev() {
        // Public bits: branch freely.
        let with_factor = (0..K).any(|k| bit(k, b));
        if with_factor {
            for k in 0..K {
                let src = if bit(k, b) { &xr } else { &one };
                factor[k * d..(k + 1) * d].copy_from_slice(&src[k * d..(k + 1) * d]);
            }
        }
        // The squaring, then the product by the factor where a bit is set: one place in the
        // code for both (one inlined AMM).
        for product in 0..=usize::from(with_factor) {
            let by: &[u64] = if product == 0 { &acc } else { &factor };
            let r = amm::<I, NV, S, K>(i, parts(&acc, d), parts(by, d), ops, &mv);
            store(i, &r, &mut acc);
        }
    }
    let r = amm_rare::<I, NV, S, K>(i, parts(&acc, d), outs, ops);
    store(i, &r, out);
}

/// The shortest public exponent, in bits, that one exponentiation ([`pow_public_sliding`])
/// runs by sliding window rather than square-and-multiply: the table of 16 odd powers costs 16
/// products, which a window saves back from about 64 bits on.
pub const SLIDING_MIN_BITS: usize = 64;

/// The sliding window's width, in bits: a table of the 2^(W − 1) odd powers x, x³, …, x^(2^W − 1).
const SLIDING_WINDOW: usize = 5;

/// [`pow_k`] for ONE public exponent of `exp_bits` bits (its top bit set): left-to-right
/// sliding window over the odd powers of the base, branching on the bits and indexing the
/// table by them (public). About exp_bits squarings and exp_bits / 6 products, against
/// square-and-multiply's exp_bits / 2 products: for long public exponents (Miller-Rabin's
/// candidate − 1 is public, `metime`'s variable-time row).
#[inline(always)]
pub(super) fn pow_public_sliding<I: Ifma52, const NV: usize, const S: usize>(
    i: I,
    ops: &[Operands<'_>; 1],
    exp_bits: usize,
    out: &mut [u64],
) {
    let d = NV * I::LANES;
    let mv = load_m::<I, NV, 1>(i, ops);
    let op = &ops[0];
    let size = 1 << (SLIDING_WINDOW - 1);
    let bit = |b: usize| (op.exp[b >> 6] >> (b & 63)) & 1 == 1;
    // Entry t: x^(2t + 1)·R; x² for the steps between entries. The products outside the loop
    // are called ([`amm_rare`]), the loop's inlined.
    let mut table = Zeroizing::new(vec![0u64; size * d]);
    let r = amm_rare::<I, NV, S, 1>(i, [op.base], [op.into], ops);
    store(i, &r, &mut table);
    let mut square = Zeroizing::new(vec![0u64; d]);
    let r = amm_rare::<I, NV, S, 1>(i, [&table[..d]], [&table[..d]], ops);
    store(i, &r, &mut square);
    for t in 1..size {
        let r = amm_rare::<I, NV, S, 1>(i, [&table[(t - 1) * d..t * d]], [&square[..]], ops);
        store(i, &r, &mut table[t * d..]);
    }
    let mut acc = Zeroizing::new(vec![0u64; d]);
    // The top bit is set: the first window starts the accumulator without a product.
    let mut started = false;
    let mut top = exp_bits;
    while top > 0 {
        let hi = top - 1;
        // Bits hi down to lo: a window where bit hi is set (lo its lowest set bit within
        // SLIDING_WINDOW bits), else the one clear bit hi. A squaring per bit, then the
        // window's product by its entry.
        let mut lo = hi;
        if bit(hi) {
            lo = hi.saturating_sub(SLIDING_WINDOW - 1);
            while !bit(lo) {
                lo += 1;
            }
        }
        let entry = bit(hi).then(|| {
            let value = (lo..=hi)
                .rev()
                .fold(0usize, |v, b| (v << 1) | usize::from(bit(b)));
            &table[(value >> 1) * d..((value >> 1) + 1) * d]
        });
        if started {
            // The squarings, then the entry's product: one place in the code for both (one
            // inlined AMM).
            let squares = hi - lo + 1;
            for p in 0..squares + usize::from(entry.is_some()) {
                let by: &[u64] = match entry {
                    Some(entry) if p == squares => entry,
                    _ => &acc,
                };
                let r = amm::<I, NV, S, 1>(i, [&acc[..]], [by], ops, &mv);
                store(i, &r, &mut acc);
            }
        } else if let Some(entry) = entry {
            acc.copy_from_slice(entry);
            started = true;
        }
        top = lo;
    }
    // Out of radix-52 form: AMM(x^e·R, R' mod m) = x^e·R'.
    let r = amm_rare::<I, NV, S, 1>(i, [&acc[..]], [op.out], ops);
    store(i, &r, out);
}
