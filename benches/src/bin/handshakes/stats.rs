//! The best and the median of a few windows' rates, and the threads' and the process's CPU
//! clocks.

use std::time::Duration;

/// Rates over the windows of one row.
#[derive(Clone, Copy, Default)]
pub struct Spread {
    /// The highest rate.
    pub best: f64,
    /// The median rate (the mean of the middle two for an even count).
    pub median: f64,
}

/// The spread of `rates` (all zero for none).
pub fn spread(rates: &[f64]) -> Spread {
    if rates.is_empty() {
        return Spread::default();
    }
    let mut v = rates.to_vec();
    v.sort_by(f64::total_cmp);
    let (n, mid) = (v.len(), v.len() >> 1);
    let median = if n & 1 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    };
    Spread {
        best: v[n - 1],
        median,
    }
}

/// The CPU time this thread has used: unlike the wall clock, it does not count the time the
/// thread waits for a core that another process holds (the machine may be shared).
pub fn thread_cpu_time() -> Duration {
    cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// The CPU time all threads of this process have used (kernel time included).
pub fn process_cpu_time() -> Duration {
    cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// A CPU-time clock's reading (zero if the kernel refuses it).
#[allow(unsafe_code)] // clock_gettime through libc; see the SAFETY note
fn cpu_clock(clock: libc::clockid_t) -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call's duration; `clock` is one of
    // the CPU-time clocks every Linux kernel has.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        u64::try_from(ts.tv_sec).unwrap_or(0),
        u32::try_from(ts.tv_nsec).unwrap_or(0),
    )
}
