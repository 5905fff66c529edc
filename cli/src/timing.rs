//! Clocks and the measurement loop behind every benchmark report.
//!
//! Ticks come from the x86-64 time-stamp counter where there is one (`rdtsc`), else from the
//! monotonic clock in nanoseconds. A time-stamp counter runs at a constant rate, which is not
//! the core clock when the core speeds up or slows down; the calibration therefore also
//! estimates the core clock from a chain of dependent multiplications, and reports say which
//! clock they used.
//!
//! Reading the counter is the CLI's only unsafe code, an exception to the workspace's rule that
//! unsafe code lives in `bignum`'s `mpn::x86_64` and `cpu` only: the counter serves the
//! benchmark reports, not the arithmetic, so it lives with them. The benches crate's
//! `compare` binary reads it with its own one-line copy, having no way to reach this one.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// What one tick is worth, and how it was established.
#[derive(Debug, Clone)]
pub struct Clock {
    /// Ticks per second, measured against the wall clock.
    pub tick_hz: f64,
    /// The counter behind the ticks: "TSC" or "monotonic clock (ns)".
    pub source: &'static str,
    /// The core clock estimated from a dependent-multiply chain (3-cycle latency), in Hz.
    pub core_hz: f64,
    /// Ticks spent by the measurement loop itself per call (subtracted from every figure).
    pub overhead_ticks: f64,
}

/// The time-stamp counter: a constant-rate tick count on current x86-64 CPUs.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // the rdtsc intrinsic is an unsafe fn; see the module doc and SAFETY note
fn ticks() -> u64 {
    // SAFETY: rdtsc exists on every x86-64 CPU, reads no memory and has no preconditions.
    unsafe { core::arch::x86_64::_rdtsc() }
}

#[cfg(target_arch = "x86_64")]
const SOURCE: &str = "TSC";

#[cfg(not(target_arch = "x86_64"))]
fn ticks() -> u64 {
    use std::sync::OnceLock;
    static START: OnceLock<Instant> = OnceLock::new();
    let nanos = START.get_or_init(Instant::now).elapsed().as_nanos();
    u64::try_from(nanos).unwrap_or(u64::MAX)
}

#[cfg(not(target_arch = "x86_64"))]
const SOURCE: &str = "monotonic clock (ns)";

/// Multiplications per run of the core-clock probe (about 3 ms at 3 GHz), and runs.
const CORE_PROBE_MULS: u64 = 3_000_000;
const CORE_PROBE_RUNS: usize = 30;

impl Clock {
    /// Calibrates the tick counter against the wall clock (50 ms), estimates the core clock and
    /// the loop overhead.
    pub fn calibrate() -> Clock {
        let wall = Instant::now();
        let k0 = ticks();
        while wall.elapsed() < Duration::from_millis(50) {}
        let k1 = ticks();
        let tick_hz = (k1 - k0) as f64 / wall.elapsed().as_secs_f64();

        // imul r64 has a latency of 3 core cycles on current x86-64 cores (Intel's and AMD's
        // optimisation manuals); a chain of dependent multiplies therefore runs at a third of
        // the core clock.
        // Repeated squaring of an odd number: each multiply needs the previous result, stays
        // odd (never collapses to 0), and has no closed form the compiler could fold.
        // The best of many short runs is the one no other process interrupted.
        let mut x = black_box(0x9E37_79B9_7F4A_7C15u64);
        let mut best = f64::INFINITY;
        for _ in 0..CORE_PROBE_RUNS {
            let t = Instant::now();
            for _ in 0..CORE_PROBE_MULS {
                x = x.wrapping_mul(x);
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        black_box(x);
        let core_hz = 3.0 * CORE_PROBE_MULS as f64 / best;

        let mut clock = Clock {
            tick_hz,
            source: SOURCE,
            core_hz,
            overhead_ticks: 0.0,
        };
        clock.overhead_ticks = clock.raw_ticks_per_call(&mut || {});
        clock
    }

    /// Precision of one reading: the duration of one tick, in seconds.
    pub fn tick_seconds(&self) -> f64 {
        1.0 / self.tick_hz
    }

    /// Best (smallest) ticks per call of `f`, minus the loop overhead: repetitions are chosen so a
    /// run lasts at least about 1 ms, and the minimum over several runs is kept (the least
    /// disturbed by the other tenants of the machine).
    pub fn ticks_per_call(&self, f: &mut dyn FnMut()) -> f64 {
        (self.raw_ticks_per_call(f) - self.overhead_ticks).max(0.0)
    }

    fn raw_ticks_per_call(&self, f: &mut dyn FnMut()) -> f64 {
        const RUNS: usize = 9;
        let target = (self.tick_hz * 1e-3).max(1000.0);
        let mut reps: u64 = 1;
        loop {
            let t = time_reps(f, reps);
            if t as f64 >= target || reps >= 1 << 30 {
                break;
            }
            reps = reps.saturating_mul(if (t as f64) < target / 16.0 { 8 } else { 2 });
        }
        (0..RUNS)
            .map(|_| time_reps(f, reps) as f64 / reps as f64)
            .fold(f64::INFINITY, f64::min)
    }
}

fn time_reps(f: &mut dyn FnMut(), reps: u64) -> u64 {
    let start = ticks();
    for _ in 0..reps {
        f();
    }
    ticks().saturating_sub(start)
}

/// The smallest wall-clock seconds of `runs` calls of `f`: the run the machine's other tenants
/// disturbed least (for passes long enough to time one by one).
pub fn best_of(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| seconds_of(&mut f))
        .fold(f64::INFINITY, f64::min)
}

/// Wall-clock seconds of one call of `f` (for operations long enough to time one by one).
pub fn seconds_of(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}
