//! Counters of paths that a test must see taken (the native IFMA engines ran; long division
//! met its rare steps), kept here rather than in the code they count: the code calls
//! [`count`] unconditionally, which compiles to nothing outside builds with the `test-hooks`
//! feature (the tests').

#[cfg(feature = "test-hooks")]
use core::sync::atomic::{AtomicU64, Ordering};

/// What is counted.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "test-hooks"), allow(dead_code))]
pub enum Counter {
    /// Exponentiations (a single, or an interleaved pair) on the native IFMA instructions.
    IfmaRuns,
    /// Batches of up to eight exponentiations on the native IFMA instructions.
    IfmaBatchRuns,
    /// Long division's add-back steps (a quotient limb one too large).
    DivAddBacks,
    /// Long division's quotient limbs taken as B - 1 (the top limbs equal the divisor's).
    DivAllOnesSteps,
}

#[cfg(feature = "test-hooks")]
static COUNTS: [AtomicU64; 4] = [const { AtomicU64::new(0) }; 4];

// The same counts for the calling thread alone: a test that runs the code on its own thread
// reads what it ran itself, whatever the tests beside it run.
#[cfg(all(feature = "test-hooks", feature = "std"))]
std::thread_local! {
    static THIS_THREAD: [core::cell::Cell<u64>; 4] =
        const { [const { core::cell::Cell::new(0) }; 4] };
}

/// Counts one `c` with `test-hooks`; nothing otherwise.
#[inline(always)]
pub fn count(c: Counter) {
    #[cfg(all(feature = "test-hooks", feature = "std"))]
    THIS_THREAD.with(|t| t[c as usize].set(t[c as usize].get() + 1));
    #[cfg(feature = "test-hooks")]
    COUNTS[c as usize].fetch_add(1, Ordering::Relaxed);
    #[cfg(not(feature = "test-hooks"))]
    let _ = c;
}

/// How many `c` this process has counted.
#[cfg(feature = "test-hooks")]
pub fn read(c: Counter) -> u64 {
    COUNTS[c as usize].load(Ordering::Relaxed)
}

/// How many `c` the calling thread has counted.
#[cfg(all(feature = "test-hooks", feature = "std"))]
pub fn read_this_thread(c: Counter) -> u64 {
    THIS_THREAD.with(|t| t[c as usize].get())
}
