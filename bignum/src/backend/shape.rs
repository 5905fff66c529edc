//! The engine's shape for each size, decided in one place, top to bottom: a pin of
//! [`SHAPE_ENV`](super::SHAPE_ENV) where one covers the size; else, where this process
//! calibrates (a CPU the table lacks, or `BIGNUM_SHAPE=calibrate`; with `std`, on the real
//! instructions), the calibration's verdict for the size, timed on its first use; else the
//! table's shape for this CPU. The calibration's state (which sizes are done, their verdicts,
//! one calibration at a time) lives here and nowhere else; the engine only times the
//! candidates it is handed.

use core::sync::atomic::{AtomicU8, Ordering};

use super::engine::{Shape, cpu_is_listed, digits, ifma_supports, table_shape};
use super::env::{Pin, ShapeRequest, shape_request};
use super::path::{PowPath, pow_path};

/// Where the shape of a size comes from, for reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeSource {
    /// The table of measured CPUs (or its default rule), with no calibration in this process.
    Table,
    /// A pin of [`SHAPE_ENV`](super::SHAPE_ENV), which asked for this shape (the engine may
    /// lay the size out otherwise where the shape has no compiled instance).
    Pinned(Shape),
    /// This process's calibration.
    Calibrated,
    /// This process calibrates, and has not used the size yet: the table's shape until then.
    ToBeCalibrated,
}

/// The shape the engine takes for moduli of `bits` bits as decided now (none outside
/// [`ifma_supports`]): a size still to be calibrated has the table's shape until it is. The
/// engine falls back to the table's shape where the decided one has no compiled instance.
pub fn shape(bits: usize) -> Option<Shape> {
    decide(bits, None::<fn(Shape) -> Option<f64>>)
}

/// [`shape`], after the calibration of the size where one is due: `time` runs one pair of
/// exponentiations of public dummy values in a candidate shape and gives its seconds (none
/// where the shape has no instance for the size). Called by the engine's entry points.
pub(crate) fn shape_calibrated(
    bits: usize,
    time: impl FnMut(Shape) -> Option<f64>,
) -> Option<Shape> {
    decide(bits, Some(time))
}

/// Where the shape of `bits` comes from in this process (none outside [`ifma_supports`]).
pub fn shape_source(bits: usize) -> Option<ShapeSource> {
    if !ifma_supports(bits) {
        return None;
    }
    let d = digits(bits);
    Some(match pin_for(d) {
        Some(pinned) => ShapeSource::Pinned(pinned),
        None if !calibrates() => ShapeSource::Table,
        None if calibrated(d).is_some() => ShapeSource::Calibrated,
        None => ShapeSource::ToBeCalibrated,
    })
}

/// The decision, with `time` where a due calibration may run.
fn decide(bits: usize, time: Option<impl FnMut(Shape) -> Option<f64>>) -> Option<Shape> {
    if !ifma_supports(bits) {
        return None;
    }
    let d = digits(bits);
    if let Some(pinned) = pin_for(d) {
        return Some(pinned);
    }
    if calibrates() {
        if let Some(s) = calibrated(d) {
            return Some(s);
        }
        if let Some(time) = time {
            return Some(calibrate(d, time));
        }
    }
    Some(table_shape(d))
}

/// The shape the last pin covering `d` digits asks for (a pin without `-pair`/`-single` keeps
/// the table's choice of that).
fn pin_for(d: usize) -> Option<Shape> {
    let pins: &[Pin] = match shape_request() {
        ShapeRequest::Pins(p) => p,
        _ => &[],
    };
    let pin = pins
        .iter()
        .rev()
        .find(|p| p.digits.is_none_or(|pd| pd == d))?;
    Some(Shape {
        width: pin.width,
        interleave: pin.interleave.unwrap_or(table_shape(d).interleave),
    })
}

/// Whether this process chooses the engine's shapes by calibrating: where the CPU has no row
/// in the table of measured CPUs (unless [`SHAPE_ENV`](super::SHAPE_ENV) is `table` or pins
/// shapes), or where it is `calibrate`; only with `std` (a clock) and on the real instructions
/// (the model's times say nothing of the CPU's).
fn calibrates() -> bool {
    let asked = match shape_request() {
        ShapeRequest::Default => !cpu_is_listed(),
        ShapeRequest::Calibrate => true,
        ShapeRequest::Table | ShapeRequest::Pins(_) => false,
    };
    asked && cfg!(feature = "std") && pow_path() == PowPath::Ifma
}

/// A calibrated shape must take less than this fraction of the table shape's time: the margin
/// keeps a noisy timing from moving a process off the measured rule for less than it could
/// win.
const CALIBRATION_MARGIN: f64 = 0.95;

/// Rounds of the calibration: each candidate's best of this many, the candidates interleaved.
pub const CALIBRATION_ROUNDS: usize = 3;

/// The calibrated shape per digit count (index d, up to the engine's 80): 0 not calibrated,
/// else 1 + the shape's index in [`Shape::ALL`].
static CALIBRATED: [AtomicU8; 81] = [const { AtomicU8::new(0) }; 81];

/// The calibrated shape for `d` digits, if a calibration chose one.
pub fn calibrated(d: usize) -> Option<Shape> {
    let code = CALIBRATED.get(d)?.load(Ordering::Relaxed);
    usize::from(code)
        .checked_sub(1)
        .and_then(|i| Shape::ALL.get(i).copied())
}

/// Calibrates `d` digits (unless another thread has meanwhile), records the verdict and
/// returns it. One calibration at a time: two at once would time each other's noise.
pub fn calibrate(d: usize, mut time: impl FnMut(Shape) -> Option<f64>) -> Shape {
    #[cfg(feature = "std")]
    let _turn = {
        static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
        ONE_AT_A_TIME
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if let Some(s) = calibrated(d) {
        return s;
    }
    let candidates = candidates(d);
    let mut best = [None::<f64>; 4];
    for _ in 0..CALIBRATION_ROUNDS {
        for (b, &s) in best.iter_mut().zip(&candidates) {
            if let Some(t) = time(s) {
                *b = Some(b.map_or(t, |b| b.min(t)));
            }
        }
    }
    let times: [(Shape, Option<f64>); 4] = core::array::from_fn(|i| (candidates[i], best[i]));
    let shape = verdict(&times).unwrap_or_else(|| table_shape(d));
    let at = Shape::ALL.iter().position(|&s| s == shape).unwrap_or(0);
    if let Some(slot) = CALIBRATED.get(d) {
        slot.store(u8::try_from(at + 1).unwrap_or(0), Ordering::Relaxed);
    }
    shape
}

/// The shapes a calibration times, in order: the table's first (ties go to it).
pub fn candidates(d: usize) -> [Shape; 4] {
    let mut all = Shape::ALL;
    if let Some(at) = all.iter().position(|&s| s == table_shape(d)) {
        all.swap(0, at);
    }
    all
}

/// A calibration's verdict from each candidate's best time (seconds; none where a shape has no
/// instance for the size), the table's shape first: the fastest, where it beats the table's
/// by more than [`CALIBRATION_MARGIN`], else the table's.
pub fn verdict(times: &[(Shape, Option<f64>)]) -> Option<Shape> {
    let (best, best_time) = times
        .iter()
        .filter_map(|&(s, t)| Some((s, t?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    match times.first() {
        Some(&(table, Some(table_time))) if best_time >= CALIBRATION_MARGIN * table_time => {
            Some(table)
        }
        _ => Some(best),
    }
}
