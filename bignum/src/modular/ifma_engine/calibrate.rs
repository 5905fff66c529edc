//! The calibration: where `crate::backend` says this process chooses the engine's shapes by
//! measuring them (a CPU its table has no row for, or `BIGNUM_SHAPE=calibrate`), the first use
//! of a size times every candidate shape on a pair of exponentiations of PUBLIC dummy values
//! and records the verdict (`backend::calibration_verdict`: the fastest, if it clearly beats
//! the table's). Once per size and process, a few milliseconds; never on a secret, so the
//! choice it makes says nothing about any key.

use alloc::string::String;

use crate::backend;
#[cfg(feature = "std")]
use crate::backend::{PowPath, Shape};

use super::shape::{Layout, chosen_layout};

/// The layout for moduli of `bits` bits, after the calibration of that size where one is due:
/// what the engine's entry points (`api.rs`) lay their numbers out by.
pub(super) fn layout(bits: usize) -> Option<Layout> {
    calibrate_if_needed(bits);
    chosen_layout(bits)
}

/// The engine's shapes for RSA-2048, 3072 and 4096's halves as it lays them out (after their
/// calibration, where one is due), with where each came from: for reports
/// (`backend::describe_shapes_of` words it).
pub fn describe_shapes() -> String {
    backend::describe_shapes_of(|bits| layout(bits).map(Layout::shape))
}

/// Runs now the calibration that the first use of each size in `sizes` (modulus bits) would
/// run, where the backend asks for one (`bignum::backend::calibrates`), so that a report can
/// name the shapes before it times anything; elsewhere does nothing.
pub fn calibrate_shapes(sizes: &[usize]) {
    for &bits in sizes {
        calibrate_if_needed(bits);
    }
}

/// Calibrates the shape for moduli of `bits` bits if the backend asks for it and none is
/// recorded yet; otherwise returns at once (two relaxed loads).
pub(super) fn calibrate_if_needed(bits: usize) {
    #[cfg(feature = "std")]
    if backend::needs_calibration(bits) {
        // One calibration at a time: two at once would time each other's noise.
        static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _turn = ONE_AT_A_TIME
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if backend::needs_calibration(bits) {
            let shape =
                measure(bits).unwrap_or_else(|| backend::table_shape(backend::digits(bits)));
            backend::record_calibration(bits, shape);
        }
    }
    #[cfg(not(feature = "std"))]
    let _ = bits;
}

/// Each candidate's best time over three interleaved rounds, for a pair of exponentiations by
/// a 256-bit exponent modulo two fixed public moduli of `bits` bits, and the verdict.
#[cfg(feature = "std")]
fn measure(bits: usize) -> Option<Shape> {
    use super::super::Modulus;
    use super::job::PowJob;
    use super::shape::layout_of;
    use super::single::{Exponent, run_pair};
    use alloc::vec::Vec;
    use std::time::Instant;

    // Public dummy values from a fixed xorshift: two odd moduli of exactly `bits` bits, bases
    // below them, one exponent of exactly 256 bits.
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
    let (ma, mb) = (modulus()?, modulus()?);
    let (xa, xb) = (ma.reduce(&limbs(n)), mb.reduce(&limbs(n)));
    let mut e = limbs(4);
    e[3] |= 1 << 63;
    let (a, b) = (
        PowJob {
            modulus: &ma,
            base: &xa,
            exp: &e,
            exp_bits: 256,
        },
        PowJob {
            modulus: &mb,
            base: &xb,
            exp: &e,
            exp_bits: 256,
        },
    );
    let candidates = backend::shape_candidates(backend::digits(bits));
    let lays: Vec<_> = candidates
        .iter()
        .map(|&s| layout_of(bits, s).filter(|l| l.interleave == s.interleave))
        .collect();
    let mut best = [f64::INFINITY; 4];
    for _ in 0..3 {
        for (t, lay) in best.iter_mut().zip(&lays) {
            if let Some(lay) = *lay {
                // The pair as `pow_pair_on` runs it in this layout.
                let start = Instant::now();
                core::hint::black_box(run_pair(PowPath::Ifma, lay, [&a, &b], Exponent::Secret));
                *t = t.min(start.elapsed().as_secs_f64());
            }
        }
    }
    let times: Vec<(Shape, Option<f64>)> = candidates
        .iter()
        .zip(&lays)
        .zip(best)
        .map(|((&s, lay), t)| (s, lay.map(|_| t)))
        .collect();
    backend::calibration_verdict(&times)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the CPU has IFMA, a calibration of each RSA size gives one of the candidates,
    /// and one that has an instance for the size (the verdict picks among timed shapes only);
    /// elsewhere there is nothing to time.
    #[test]
    fn calibration_picks_a_runnable_candidate() {
        if !PowPath::Ifma.is_available() {
            std::eprintln!("skipped: no avx512ifma on this CPU (nothing to calibrate)");
            return;
        }
        for bits in [1024, 1536, 2048] {
            let got = measure(bits).expect("a verdict");
            let candidates = backend::shape_candidates(backend::digits(bits));
            assert!(candidates.contains(&got), "{bits}: {got:?}");
            let lay = super::super::shape::layout_of(bits, got).expect("an instance");
            assert_eq!(lay.interleave, got.interleave, "{bits}: {got:?}");
            std::println!("{bits} bits: calibrated {got}");
        }
    }
}
