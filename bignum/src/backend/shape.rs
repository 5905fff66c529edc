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
const CALIBRATION_ROUNDS: usize = 3;

/// The calibrated shape per digit count (index d, up to the engine's 80): 0 not calibrated,
/// else 1 + the shape's index in [`Shape::ALL`].
static CALIBRATED: [AtomicU8; 81] = [const { AtomicU8::new(0) }; 81];

/// The calibrated shape for `d` digits, if a calibration chose one.
fn calibrated(d: usize) -> Option<Shape> {
    let code = CALIBRATED.get(d)?.load(Ordering::Relaxed);
    usize::from(code)
        .checked_sub(1)
        .and_then(|i| Shape::ALL.get(i).copied())
}

/// Calibrates `d` digits (unless another thread has meanwhile), records the verdict and
/// returns it. One calibration at a time: two at once would time each other's noise.
fn calibrate(d: usize, mut time: impl FnMut(Shape) -> Option<f64>) -> Shape {
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
fn candidates(d: usize) -> [Shape; 4] {
    let mut all = Shape::ALL;
    if let Some(at) = all.iter().position(|&s| s == table_shape(d)) {
        all.swap(0, at);
    }
    all
}

/// A calibration's verdict from each candidate's best time (seconds; none where a shape has no
/// instance for the size), the table's shape first: the fastest, where it beats the table's
/// by more than [`CALIBRATION_MARGIN`], else the table's.
fn verdict(times: &[(Shape, Option<f64>)]) -> Option<Shape> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_keeps_the_table_unless_clearly_beaten() {
        let shapes = candidates(30);
        assert_eq!(shapes[0], table_shape(30), "the table's shape first");
        let mut all = shapes.to_vec();
        all.sort_by_key(|s| Shape::ALL.iter().position(|a| a == s));
        all.dedup();
        assert_eq!(all.len(), 4, "each shape once: {shapes:?}");
        let [t, a, b, c] = shapes;
        // 4% faster: within the margin, the table's stays.
        let close = [(t, Some(1.0)), (a, Some(0.96)), (b, None), (c, Some(1.5))];
        assert_eq!(verdict(&close), Some(t));
        // 10% faster: the calibration moves.
        let clear = [(t, Some(1.0)), (a, Some(1.2)), (b, Some(0.9)), (c, None)];
        assert_eq!(verdict(&clear), Some(b));
        // The table's shape without an instance: the fastest of the others.
        let none = [(t, None), (a, Some(2.0)), (b, Some(1.0)), (c, None)];
        assert_eq!(verdict(&none), Some(b));
        assert_eq!(verdict(&[(t, None)]), None);
    }

    /// A calibration takes each candidate's best time over its rounds, asks every candidate in
    /// every round, and records its verdict for the digit count, which later decisions return
    /// without timing again.
    #[test]
    fn calibration_times_every_candidate_and_records_the_verdict() {
        // A digit count no other test of this process calibrates.
        let d = 77;
        let table = table_shape(d);
        let faster = candidates(d)[3];
        let mut asked = alloc::vec::Vec::new();
        let got = calibrate(d, |s| {
            asked.push(s);
            Some(if s == faster { 0.5 } else { 1.0 })
        });
        assert_eq!(got, faster);
        assert_eq!(asked.len(), 4 * CALIBRATION_ROUNDS);
        assert_eq!(calibrated(d), Some(faster));
        let again = calibrate(d, |_| panic!("timed again"));
        assert_eq!(again, faster);
        assert_ne!(table, faster);
    }
}
