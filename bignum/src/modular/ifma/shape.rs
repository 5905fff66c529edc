//! Shapes: how many lanes and vectors (or digits) a modulus of a given size takes on the
//! engine, and the `with_*` macros that turn a shape into the const generics of the one
//! compiled instance for it.

use super::policy::ifma_supports;

/// Moduli of up to this many digits run on 256-bit registers (four lanes), larger ones on
/// 512-bit registers (eight lanes). Measured on AMD Zen 5 (`bignum/examples/pow_paths.rs`,
/// best of 7): a 1024-bit pair took 180 µs on four lanes (20 digits) and 197 µs on eight
/// (24); at 1536 bits 607 against 387 µs, at 2048 bits 1434 against 728: from there eight
/// lanes do half the instructions, and four lanes run out of registers.
const MAX_DIGITS_ON_4_LANES: usize = 24;

/// The most vectors per number with which two exponentiations interleave: above it the two
/// accumulator sets of a pair (4·NV registers) and its operands outgrow the 32 vector
/// registers, and the pair runs slower than two single exponentiations (a 4096-bit pair 6.2 ms
/// against 2 × 2.4 ms on Zen 5).
pub(super) const MAX_PAIR_VECTORS: usize = 5;

/// The least digit count d with 52·d ≥ bits + 2 (so that 4m < 2^(52·d)) for a modulus of
/// `bits` bits.
pub(super) fn digits(bits: usize) -> usize {
    (bits + 2).div_ceil(52)
}

/// The shapes whose numbers span more lanes than they have digits and that have an instance
/// of their own taking one AMM step per digit, not per lane (lanes, vectors, steps): RSA-1024's
/// halves, 10 digits on twelve lanes, and RSA-3072's, 30 on 32. The steps are the digits of
/// R = 2^(52·steps). Each has its instances in [`with_shapes`].
const TIGHT: [(usize, usize, usize); 2] = [(4, 3, 10), (8, 4, 30)];

/// The AMM's steps (R = 2^(52·steps)) for moduli of `bits` bits on `shape`: their digits
/// where a [`TIGHT`] instance takes that count, else one per lane.
pub(super) fn steps((lanes, nv): (usize, usize), bits: &[usize]) -> usize {
    let d = bits.first().map_or(0, |&b| digits(b));
    let tight = bits.iter().all(|&b| digits(b) == d) && TIGHT.contains(&(lanes, nv, d));
    if tight { d } else { lanes * nv }
}

/// The lane count for a modulus of `bits` bits, the same for the instructions and the model.
fn lanes_for(bits: usize) -> usize {
    if digits(bits) <= MAX_DIGITS_ON_4_LANES {
        4
    } else {
        8
    }
}

/// The lane and vector counts for a modulus of `bits` bits: d = ⌈(bits + 2)/52⌉ digits
/// rounded up to whole vectors, and up to the next count instantiated (see [`run`]). None
/// outside [`ifma_supports`].
pub(super) fn shape(bits: usize) -> Option<(usize, usize)> {
    if !ifma_supports(bits) {
        return None;
    }
    let lanes = lanes_for(bits);
    let nv = digits(bits).div_ceil(lanes);
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

/// Calls `$body` with the consts `$n` and `$s` bound to the vector count `$nv` and the step
/// count `$steps`, for each pair in the list; none for any other pair.
macro_rules! with_vectors_and_steps {
    ($nv:expr, $steps:expr, [$(($c:literal, $t:literal)),*], |$n:ident, $s:ident| $body:expr) => {
        match ($nv, $steps) {
            $(($c, $t) => {
                const $n: usize = $c;
                const $s: usize = $t;
                Some($body)
            })*
            _ => None,
        }
    };
}
pub(super) use with_vectors_and_steps;

/// [`with_vectors_and_steps`] over the shapes compiled for K numbers on `lanes` lanes: 3 to 6
/// vectors on four lanes, 4 to 10 on eight, each with a step per lane, and the [`TIGHT`] ones;
/// for pairs only those up to [`MAX_PAIR_VECTORS`] (larger pairs run as two singles), so that
/// no pair shape that never runs is compiled.
macro_rules! with_shapes {
    ($k:ident, 4, $nv:expr, $steps:expr, |$n:ident, $s:ident| $body:expr) => {
        if const { $k == 1 } {
            with_vectors_and_steps!(
                $nv,
                $steps,
                [(3, 10), (3, 12), (4, 16), (5, 20), (6, 24)],
                |$n, $s| $body
            )
        } else {
            with_vectors_and_steps!(
                $nv,
                $steps,
                [(3, 10), (3, 12), (4, 16), (5, 20)],
                |$n, $s| $body
            )
        }
    };
    ($k:ident, 8, $nv:expr, $steps:expr, |$n:ident, $s:ident| $body:expr) => {
        if const { $k == 1 } {
            with_vectors_and_steps!(
                $nv,
                $steps,
                [
                    (4, 30),
                    (4, 32),
                    (5, 40),
                    (6, 48),
                    (7, 56),
                    (8, 64),
                    (9, 72),
                    (10, 80)
                ],
                |$n, $s| $body
            )
        } else {
            with_vectors_and_steps!($nv, $steps, [(4, 30), (4, 32), (5, 40)], |$n, $s| $body)
        }
    };
}
pub(super) use with_shapes;
