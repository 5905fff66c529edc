//! The calibration: where `crate::backend` says this process chooses the engine's shapes by
//! measuring them (a CPU its table has no row for, or `BIGNUM_SHAPE=calibrate`), the first use
//! of a size times every candidate shape on a pair of exponentiations of PUBLIC dummy values
//! and records the verdict (`backend::calibration_verdict`: the fastest, if it clearly beats
//! the table's). Once per size and process, a few milliseconds; never on a secret, so the
//! choice it makes says nothing about any key.

//! The calibration's measurement: where `crate::backend` decides that this process chooses
//! the engine's shapes by timing them (a CPU its table has no row for, or
//! `BIGNUM_SHAPE=calibrate`), the first use of a size hands this module each candidate shape
//! in turn, and it times one pair of exponentiations of PUBLIC dummy values in that shape. The
//! backend keeps the rounds, the verdict and the state; this module only runs the engine.
//! Once per size and process, a few milliseconds; never on a secret, so the choice says
//! nothing about any key.

use alloc::vec::Vec;

use crate::backend::{self, Shape, ShapeSource};

use super::shape::{Layout, layout_of};

/// The layout for moduli of `bits` bits in the shape the backend decides, after the
/// calibration of that size where one is due (what the engine's entry points lay their
/// numbers out by); the table's shape where the decided one has no compiled instance.
pub fn layout(bits: usize) -> Option<Layout> {
    let shape = backend::shape_calibrated(bits, timer(bits))?;
    laid_out(bits, shape)
}

/// The layout of `shape` for `bits`, or of the table's shape where `shape` has no instance.
fn laid_out(bits: usize, shape: Shape) -> Option<Layout> {
    layout_of(bits, shape).or_else(|| layout_of(bits, backend::table_shape(backend::digits(bits))))
}

/// The engine's shape for one size, as it lays the size out, and where the shape comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineShape {
    /// The modulus size, in bits.
    pub bits: usize,
    /// The shape the engine runs.
    pub shape: Shape,
    /// Where the decided shape comes from (a pinned shape without an instance runs another:
    /// [`ShapeSource::Pinned`] then holds the one asked for).
    pub source: ShapeSource,
}

/// The shapes for RSA-2048, 3072 and 4096's halves (1024, 1536 and 2048 bits) as the engine
/// lays them out, after their calibration where one is due; none where the engine does not
/// run (the limbs path).
pub fn engine_shapes() -> Vec<EngineShape> {
    [1024, 1536, 2048]
        .into_iter()
        .filter_map(|bits| {
            let shape = layout(bits)?.shape();
            let source = backend::shape_source(bits)?;
            Some(EngineShape {
                bits,
                shape,
                source,
            })
        })
        .collect()
}

/// Runs now the calibration that the first use of each size in `sizes` (modulus bits) would
/// run, where the backend asks for one, so that a report can name the shapes before it times
/// anything; elsewhere does nothing.
pub fn calibrate_shapes(sizes: &[usize]) {
    for &bits in sizes {
        // Only the calibration's side effect is wanted here.
        let _ = layout(bits);
    }
}

/// The timer a calibration of `bits` calls with each candidate: seconds for one pair in that
/// shape, none where it has no instance (or without `std`: no clock, and no calibration).
pub fn timer(bits: usize) -> impl FnMut(Shape) -> Option<f64> {
    #[cfg(feature = "std")]
    {
        let mut pair = None;
        move |shape| {
            let pair = pair.get_or_insert_with(|| DummyPair::new(bits));
            pair.as_ref()?.time(bits, shape)
        }
    }
    #[cfg(not(feature = "std"))]
    {
        let _ = bits;
        |_| None
    }
}

/// Two fixed public moduli of one size, a base below each and a 256-bit exponent: what a
/// calibration times.
#[cfg(feature = "std")]
struct DummyPair {
    moduli: [super::super::Modulus; 2],
    bases: [super::super::Residue; 2],
    exp: Vec<u64>,
}

#[cfg(feature = "std")]
impl DummyPair {
    /// The values for moduli of `bits` bits, from a fixed xorshift: two odd moduli of exactly
    /// `bits` bits, bases below them, one exponent of exactly 256 bits.
    fn new(bits: usize) -> Option<DummyPair> {
        use super::super::Modulus;

        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut limbs = |n: usize| -> Vec<u64> {
            (0..n)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state
                })
                .collect()
        };
        let n = bits.div_ceil(64);
        let top = (bits - 1) & 63;
        let mut modulus = || {
            let mut m = limbs(n);
            m[0] |= 1;
            m[n - 1] &= u64::MAX >> (63 - top);
            m[n - 1] |= 1 << top;
            Modulus::new_vartime(&m).ok()
        };
        let moduli = [modulus()?, modulus()?];
        let bases = [moduli[0].reduce(&limbs(n)), moduli[1].reduce(&limbs(n))];
        let mut exp = limbs(4);
        exp[3] |= 1 << 63;
        Some(DummyPair { moduli, bases, exp })
    }

    /// Seconds for the pair as `pow_pair_on` runs it in `shape`'s layout; none where `shape`
    /// has no instance of exactly that shape for `bits`.
    fn time(&self, bits: usize, shape: Shape) -> Option<f64> {
        use super::job::PowJob;
        use super::single::{Exponent, run_pair};
        use crate::backend::PowPath;

        let lay = layout_of(bits, shape).filter(|l| l.interleave == shape.interleave)?;
        let job = |i: usize| PowJob {
            modulus: &self.moduli[i],
            base: &self.bases[i],
            exp: &self.exp,
            exp_bits: 256,
        };
        let (a, b) = (job(0), job(1));
        let start = std::time::Instant::now();
        core::hint::black_box(run_pair(PowPath::Ifma, lay, [&a, &b], Exponent::Secret));
        Some(start.elapsed().as_secs_f64())
    }
}
