//! Shapes: how many lanes and vectors (or digits) a modulus of a given size takes on the
//! engine, and the `with_*` macros that turn a shape into the const generics of the one
//! compiled instance for it.

use crate::backend::{self, Shape, Width};

pub(super) use crate::backend::digits;

/// The compiled instances, as (vectors, steps) for one number (K = 1) and for pairs (K = 2)
/// on each width: [`with_shapes`] instantiates exactly these (a test runs each on the model).
/// Singles: every count RSA needs on each width; 256-bit registers go up to RSA-4096's halves
/// (the shape OpenSSL's code takes on Intel), 512-bit ones up to RSA-8192's. Pairs: only up
/// to 5 vectors on 512-bit registers and 8 on 256-bit ones: above that the two accumulator
/// sets outgrow the 32 vector registers (a 4096-bit pair 6.2 ms against 2 × 2.4 ms as
/// singles on Zen 5).
pub(super) const SINGLE_256: [(usize, usize); 8] = [
    (3, 10),
    (3, 12),
    (4, 16),
    (5, 20),
    (6, 24),
    (8, 30),
    (8, 32),
    (10, 40),
];
/// See [`SINGLE_256`].
pub(super) const PAIR_256: [(usize, usize); 5] = [(3, 10), (3, 12), (4, 16), (5, 20), (8, 30)];
/// See [`SINGLE_256`].
pub(super) const SINGLE_512: [(usize, usize); 9] = [
    (3, 20),
    (4, 30),
    (4, 32),
    (5, 40),
    (6, 48),
    (7, 56),
    (8, 64),
    (9, 72),
    (10, 80),
];
/// See [`SINGLE_256`].
pub(super) const PAIR_512: [(usize, usize); 4] = [(3, 20), (4, 30), (4, 32), (5, 40)];

/// The shapes whose numbers span more lanes than they have digits and that have an instance
/// of their own taking one AMM step per digit, not per lane (lanes, vectors, steps): RSA-1024's
/// halves (10 digits on twelve lanes), RSA-2048's on 512-bit registers (20 on 24) and
/// RSA-3072's (30 on 32, on either width). The steps are the digits of R = 2^(52·steps).
const TIGHT: [(usize, usize, usize); 4] = [(4, 3, 10), (8, 3, 20), (8, 4, 30), (4, 8, 30)];

/// How the engine lays out numbers of one size: lanes a register, registers (vectors) a
/// number, AMM steps, and whether a pair runs interleaved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Layout {
    pub lanes: usize,
    pub nv: usize,
    pub steps: usize,
    pub interleave: bool,
}

impl Layout {
    /// The (lanes, vectors) pair the runners take.
    pub(super) fn lanes_nv(self) -> (usize, usize) {
        (self.lanes, self.nv)
    }
}

/// The layout of `shape` for moduli of `bits` bits, where an instance is compiled for it: an
/// interleaved pair without one runs as two singles; none where not even a single has one.
pub(super) fn layout_of(bits: usize, shape: Shape) -> Option<Layout> {
    let d = digits(bits);
    let lanes = shape.width.lanes();
    let nv = d.div_ceil(lanes).max(3);
    let steps = if TIGHT.contains(&(lanes, nv, d)) {
        d
    } else {
        lanes * nv
    };
    let (singles, pairs): (&[_], &[_]) = match shape.width {
        Width::Bits256 => (&SINGLE_256, &PAIR_256),
        Width::Bits512 => (&SINGLE_512, &PAIR_512),
    };
    singles.contains(&(nv, steps)).then_some(Layout {
        lanes,
        nv,
        steps,
        interleave: shape.interleave && pairs.contains(&(nv, steps)),
    })
}

/// The layout for moduli of `bits` bits: the shape [`backend::shape`] chooses (the CPU's
/// table, or a pin of `BIGNUM_SHAPE`), or the table's where a pinned shape has no instance.
/// None outside the engine's sizes.
pub(super) fn layout(bits: usize) -> Option<Layout> {
    let shape = backend::shape(bits)?;
    layout_of(bits, shape).or_else(|| layout_of(bits, backend::table_shape(digits(bits))))
}

/// The AMM's steps (R = 2^(52·steps)) for moduli of `bits` bits (each) on `lanes` × `nv`:
/// their digits where a [`TIGHT`] instance takes that count, else one per lane.
pub(super) fn steps((lanes, nv): (usize, usize), bits: &[usize]) -> usize {
    let d = bits.first().map_or(0, |&b| digits(b));
    let tight = bits.iter().all(|&b| digits(b) == d) && TIGHT.contains(&(lanes, nv, d));
    if tight { d } else { lanes * nv }
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

/// [`with_vectors_and_steps`] over the shapes compiled for K numbers on `lanes` lanes: the
/// lists [`SINGLE_256`], [`PAIR_256`], [`SINGLE_512`] and [`PAIR_512`], written out (a macro
/// needs literals; `every_compiled_shape_runs_on_the_model` proves the two agree).
macro_rules! with_shapes {
    ($k:ident, 4, $nv:expr, $steps:expr, |$n:ident, $s:ident| $body:expr) => {
        if const { $k == 1 } {
            with_vectors_and_steps!(
                $nv,
                $steps,
                [
                    (3, 10),
                    (3, 12),
                    (4, 16),
                    (5, 20),
                    (6, 24),
                    (8, 30),
                    (8, 32),
                    (10, 40)
                ],
                |$n, $s| $body
            )
        } else {
            with_vectors_and_steps!(
                $nv,
                $steps,
                [(3, 10), (3, 12), (4, 16), (5, 20), (8, 30)],
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
                    (3, 20),
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
            with_vectors_and_steps!(
                $nv,
                $steps,
                [(3, 20), (4, 30), (4, 32), (5, 40)],
                |$n, $s| $body
            )
        }
    };
}
pub(super) use with_shapes;
