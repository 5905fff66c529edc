//! The fixed-window exponentiation by a secret exponent, shared by the engines: the table of
//! base^0 … base^31, the loop over the exponent's windows (five squarings and one product by a
//! table entry each), and the constant-time gather of the entry.
//!
//! An engine presents the numbers it runs at once (one or two numbers of the single engine,
//! the batch's eight lanes) as one block of [`Engine::WORDS`] words, in its own layout; the
//! driver stores and reads whole blocks and never looks inside them.

// The gather indexes the vectors of an entry and of the result in step.
#![allow(clippy::needless_range_loop)]

use alloc::vec;

use zeroize::Zeroizing;

use crate::mpn::ifma_model::Ifma52;

/// The window width of the exponentiation, in bits (a table of 2^5 entries, as OpenSSL's).
pub(super) const WINDOW: usize = 5;

/// An operand of an engine's product: a block in the engine's layout, or one of the values
/// each of its numbers holds (in its own layout).
#[derive(Clone, Copy)]
pub(super) enum Operand<'a> {
    /// A block of [`Engine::WORDS`] words.
    Block(&'a [u64]),
    /// R' mod m, whose product with x·R takes x out of radix-52 form (x·R').
    Out,
    /// 2^(104·d)/R', whose product with x·R' puts x in radix-52 form (x·R).
    Into,
    /// The base, times R'.
    Base,
}

/// One engine shape's products, as [`pow_window`] needs them. Implemented for one shape (lane
/// count, digit or vector count, numbers at once) and one instruction set, so the driver is
/// compiled once per shape, as each engine's own loop would be.
pub(super) trait Engine {
    /// A product in registers.
    type R;
    /// The words of one block (a table entry, the accumulator).
    const WORDS: usize;

    /// The almost-Montgomery product of two operands.
    fn mul(&self, a: Operand<'_>, b: Operand<'_>) -> Self::R;
    /// Whether the engine squares by its product ([`Engine::step`] is then one inlined AMM
    /// for both, and the loop has one place that steps, not two).
    const SQUARES_BY_MUL: bool;

    /// The loop's step on the accumulator `acc`: its almost-Montgomery square where `b` is
    /// none, else its product by `b`.
    fn step(&self, acc: &[u64], b: Option<Operand<'_>>) -> Self::R;
    /// The entry of `table` (2^WINDOW blocks) at each number's window of `width` bits at bit
    /// `lo` of its exponent, reading every entry (with [`gather`]).
    fn gather(&self, table: &[u64], lo: usize, width: usize) -> Self::R;
    /// A product into a block.
    fn store(&self, r: &Self::R, dst: &mut [u64]);
}

/// The exponentiations base^exp·R' mod m of an engine's numbers (below 2m, a block into
/// `out`), by a fixed window of [`WINDOW`] bits over exponents of `exp_bits` ≥ 1 bits
/// (public): see the module doc of `ifma_engine`.
///
/// Two places in the code multiply, each inlined whole into the shape's instance: the table's
/// product and the loop's step (squarings, the entry's product, and the last product, which
/// takes the result out of radix-52 form). Where the engine squares by code of its own, the
/// loop's squaring, its product and the way out are three places.
/// Each further place is another copy of the AMM to compile, in every instance
/// (docs/benchmarks-log.md, "The window exponentiation's products in two places").
#[inline(always)]
pub(super) fn pow_window<E: Engine>(e: &E, exp_bits: usize, out: &mut [u64]) {
    let n = E::WORDS;
    let size = 1 << WINDOW;
    let mut table = Zeroizing::new(vec![0u64; size * n]);
    // Entry j is base^j in radix-52 form: R mod m (AMM(R', 2^(104·d)/R')), the base
    // (AMM(b·R', 2^(104·d)/R')), then, j public, base^j = (base^(j/2))² or base^(j−1)·base (the
    // squares by the product: 15 of about 1,250 products at 1024 bits).
    for j in 0..size {
        let (a, b) = match j {
            0 => (Operand::Out, Operand::Into),
            1 => (Operand::Base, Operand::Into),
            _ if j & 1 == 0 => {
                let half = Operand::Block(&table[(j >> 1) * n..((j >> 1) + 1) * n]);
                (half, half)
            }
            _ => (
                Operand::Block(&table[(j - 1) * n..j * n]),
                Operand::Block(&table[n..2 * n]),
            ),
        };
        let r = e.mul(a, b);
        e.store(&r, &mut table[j * n..(j + 1) * n]);
    }

    let mut acc = Zeroizing::new(vec![0u64; n]);
    let mut entry = Zeroizing::new(vec![0u64; n]);
    let windows = exp_bits.div_ceil(WINDOW);
    let top_lo = (windows - 1) * WINDOW;
    e.store(&e.gather(&table, top_lo, exp_bits - top_lo), &mut acc);
    // Window w − 1 at step w (its squarings, then its entry's product), then, at step 0, the
    // way out of radix-52 form, AMM(x·R, R' mod m) = x·R' (w public).
    for w in (0..windows).rev() {
        let squares = if w == 0 {
            0
        } else {
            // The entry first: it does not depend on the squarings, which can run beside it.
            e.store(&e.gather(&table, (w - 1) * WINDOW, WINDOW), &mut entry);
            WINDOW
        };
        if const { E::SQUARES_BY_MUL } {
            // The squarings, the product and the way out at one place in the code.
            let last = if w == 0 {
                Operand::Out
            } else {
                Operand::Block(&entry)
            };
            for s in 0..=squares {
                let r = e.step(&acc, (s == squares).then_some(last));
                if w == 0 {
                    e.store(&r, out);
                } else {
                    e.store(&r, &mut acc);
                }
            }
        } else if w > 0 {
            for _ in 0..squares {
                let r = e.step(&acc, None);
                e.store(&r, &mut acc);
            }
            let r = e.step(&acc, Some(Operand::Block(&entry)));
            e.store(&r, &mut acc);
        }
    }
    if const { !E::SQUARES_BY_MUL } {
        // The way out at a place of its own: the loop's product keeps its one operand, since
        // folding the way out into it slows the pairs that square by `ams`
        // (docs/benchmarks-log.md, "The window exponentiation's products in two places").
        e.store(&e.mul(Operand::Block(&acc), Operand::Out), out);
    }
}

/// The constant-time gather: the N vectors at word `at` of the table entry whose number
/// equals, lane by lane, `idx` (`nidx` is 2^52 − idx), reading every entry; entry e starts at
/// word e·`stride`. The entries' digits must be below 2^52.
///
/// Lane k's hit on entry e is 1 or 0 by carry arithmetic (idx_k ≥ e: bit 52 of
/// idx_k + 2^52 − e; e ≥ idx_k: bit 52 of 2^52 − idx_k + e), and the entry is added times its
/// hit by a multiply-add (lo52(digit·hit) is the digit or 0). No mask register and no blend:
/// the model's compare and blend are plain integer code in which LLVM may recognise the
/// selection and make a branch of it (which `.ci/ct-check` reports), and the hit goes through
/// an optimisation barrier so that the multiply by a 0/1 value is not turned into a select
/// either. The barrier costs one register's store and load per entry natively.
#[inline(always)]
pub(super) fn gather<I: Ifma52, const N: usize>(
    i: I,
    table: &[u64],
    stride: usize,
    at: usize,
    idx: I::V,
    nidx: I::V,
) -> [I::V; N] {
    let l = I::LANES;
    let mut out = [i.zero(); N];
    for e in 0..1u64 << WINDOW {
        let ge = i.srl52(i.add(idx, i.splat((1 << 52) - e)));
        let le = i.srl52(i.add(nidx, i.splat(e)));
        let hit = core::hint::black_box(i.and(ge, le));
        let from = usize::try_from(e).unwrap_or(0) * stride + at;
        let entry = &table[from..from + N * l];
        for v in 0..N {
            out[v] = i.madd52lo(out[v], i.load(&entry[v * l..]), hit);
        }
    }
    out
}

/// The N vectors of `r` into `dst`.
#[inline(always)]
pub(super) fn store<I: Ifma52, const N: usize>(i: I, r: &[I::V; N], dst: &mut [u64]) {
    let l = I::LANES;
    for v in 0..N {
        i.store(&mut dst[v * l..], r[v]);
    }
}
