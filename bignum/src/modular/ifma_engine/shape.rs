//! Shapes: how many lanes and vectors (or digits) a modulus of a given size takes on the
//! engine, and the `with_*` macros that turn a shape into the const generics of the one
//! compiled instance for it.

use crate::backend::{Shape, Width};

pub(super) use crate::backend::digits;

/// Defines `$list`, a list of (vectors, steps) instances, and the macro `$with` that calls a
/// body with the consts bound to one of exactly those pairs ([`with_vectors_and_steps`]): one
/// literal list serves both, so the instances the code asks about are the ones compiled. (`$d`
/// is a `$` passed in, for the inner macro's own variables.)
macro_rules! instances {
    ($d:tt $(#[$doc:meta])* $list:ident, $with:ident, [$(($c:literal, $t:literal)),* $(,)?]) => {
        $(#[$doc])*
        pub const $list: &[(usize, usize)] = &[$(($c, $t)),*];
        macro_rules! $with {
            ($d nv:expr, $d steps:expr, |$d n:ident, $d s:ident| $d body:expr) => {
                with_vectors_and_steps!($d nv, $d steps, [$(($c, $t)),*], |$d n, $d s| $d body)
            };
        }
    };
}

instances!($
    /// The compiled instances of one number (K = 1) on 256-bit registers, as (vectors, steps):
    /// every count up to 24 digits, and RSA-3072's and RSA-4096's halves (30 and 40 digits:
    /// the width OpenSSL's and AWS-LC's code takes there, the candidates a calibration tries on
    /// CPUs where 512-bit operations are split). [`with_shapes`] instantiates exactly the four
    /// lists; a test runs each on the model. Each instance costs build time (measured: see
    /// docs/benchmarks-log.md, "The engine's compiled shapes"), so no count without a
    /// candidate is compiled.
    SINGLE_256, with_single_256,
    [(3, 10), (3, 12), (4, 16), (5, 20), (6, 24), (8, 30), (10, 40)]
);
instances!($
    /// Pairs (K = 2) on 256-bit registers: up to 8 vectors a number; above that the two
    /// accumulator sets outgrow the 32 vector registers.
    PAIR_256, with_pair_256,
    [(3, 10), (3, 12), (4, 16), (5, 20), (8, 30)]
);
instances!($
    /// One number on 512-bit registers: from 25 digits up to RSA-8192's halves. (RSA-2048's
    /// halves on three 512-bit registers at best tie with five 256-bit ones, and lose wherever
    /// 512-bit operations are slower: not compiled; BENCHMARKS.md, "Engine shapes by CPU".)
    SINGLE_512, with_single_512,
    [(4, 30), (4, 32), (5, 40), (6, 48), (7, 56), (8, 64), (9, 72), (10, 80)]
);
instances!($
    /// Pairs on 512-bit registers: up to 5 vectors a number (more registers a number spill,
    /// slower than two singles: docs/benchmarks-log.md, "The engine's compiled shapes").
    PAIR_512, with_pair_512,
    [(4, 30), (4, 32), (5, 40)]
);

/// The shapes whose numbers span more lanes than they have digits and that have an instance
/// of their own taking one AMM step per digit, not per lane (lanes, vectors, steps): RSA-1024's
/// halves (10 digits on twelve lanes) and RSA-3072's (30 on 32, on either width). The steps
/// are the digits of R = 2^(52·steps).
const TIGHT: [(usize, usize, usize); 3] = [(4, 3, 10), (8, 4, 30), (4, 8, 30)];

/// How the engine lays out numbers of one size: lanes a register, registers (vectors) a
/// number, AMM steps, and whether a pair runs interleaved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub lanes: usize,
    pub nv: usize,
    pub steps: usize,
    pub interleave: bool,
}

impl Layout {
    /// The (lanes, vectors) pair the runners take.
    pub fn lanes_nv(self) -> (usize, usize) {
        (self.lanes, self.nv)
    }

    /// The shape this layout runs.
    pub(super) fn shape(self) -> Shape {
        Shape {
            width: if self.lanes == 4 {
                Width::Bits256
            } else {
                Width::Bits512
            },
            interleave: self.interleave,
        }
    }
}

/// The layout of `shape` for moduli of `bits` bits, where an instance is compiled for it: an
/// interleaved pair without one runs as two singles; none where not even a single has one.
pub fn layout_of(bits: usize, shape: Shape) -> Option<Layout> {
    let d = digits(bits);
    let lanes = shape.width.lanes();
    let nv = d.div_ceil(lanes).max(3);
    let steps = if TIGHT.contains(&(lanes, nv, d)) {
        d
    } else {
        lanes * nv
    };
    let (singles, pairs): (&[_], &[_]) = match shape.width {
        Width::Bits256 => (SINGLE_256, PAIR_256),
        Width::Bits512 => (SINGLE_512, PAIR_512),
    };
    singles.contains(&(nv, steps)).then_some(Layout {
        lanes,
        nv,
        steps,
        interleave: shape.interleave && pairs.contains(&(nv, steps)),
    })
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

/// [`with_vectors_and_steps`] over the instances compiled for K numbers on `lanes` lanes:
/// [`SINGLE_256`], [`PAIR_256`], [`SINGLE_512`] or [`PAIR_512`].
macro_rules! with_shapes {
    ($k:ident, 4, $nv:expr, $steps:expr, |$n:ident, $s:ident| $body:expr) => {
        if const { $k == 1 } {
            with_single_256!($nv, $steps, |$n, $s| $body)
        } else {
            with_pair_256!($nv, $steps, |$n, $s| $body)
        }
    };
    ($k:ident, 8, $nv:expr, $steps:expr, |$n:ident, $s:ident| $body:expr) => {
        if const { $k == 1 } {
            with_single_512!($nv, $steps, |$n, $s| $body)
        } else {
            with_pair_512!($nv, $steps, |$n, $s| $body)
        }
    };
}
pub(super) use {with_pair_256, with_pair_512, with_shapes, with_single_256, with_single_512};
