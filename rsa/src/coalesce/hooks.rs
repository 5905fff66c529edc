//! The tests' hooks into a coalescing key (feature `test-hooks`: never in a user's build):
//! callers made to meet on every machine, requests corrupted or poisoned as they arrive, passes
//! that panic, held at a gate or counted, and callers held after they wake. Each is read only
//! where the test-hooks build calls it; a release build has none of it.

use core::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};
use std::vec::Vec;

use crate::RsaPrivateKey;
use crate::primitive::CrtInput;

/// What the tests steer and observe on one coalescing key.
#[derive(Default)]
pub(crate) struct Hooks {
    /// Make callers meet even where the eight lanes do not run.
    pub(crate) meet_anyway: AtomicBool,
    /// The next this many passes panic before they compute.
    pub(crate) panics: AtomicUsize,
    /// The next this many requests are corrupted (a wrong half: a fault).
    pub(crate) corrupt: AtomicUsize,
    /// The size of every pass that ran (or started, if it panicked).
    pub(crate) passes: Mutex<Vec<usize>>,
    /// While this is the id of the running process (0: never), passes wait before they
    /// compute; a child process after `fork()` has another id, so its passes do not wait.
    pub(crate) gate: AtomicU32,
    /// Passes waiting at the gate.
    pub(crate) at_gate: AtomicUsize,
}

/// Takes one from `n` if it is not zero.
fn take(n: &AtomicUsize) -> bool {
    n.fetch_update(Relaxed, Relaxed, |n| n.checked_sub(1))
        .is_ok()
}

std::thread_local! {
    /// Whether this thread's requests are poisoned: their exponentiations panic.
    static POISONED: Cell<bool> = const { Cell::new(false) };
    /// While set and false, this thread waits after each wake-up ([`after_wait`]).
    static HELD: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// From now on, this thread's requests panic in their exponentiations, in a pass or alone.
#[cfg(test)]
pub(crate) fn poison_this_thread() {
    POISONED.with(|p| p.set(true));
}

/// From now on, this thread stops each time it wakes in a coalescing call, until `release`
/// is true: a thread that the operating system deschedules or stops for that long.
#[cfg(test)]
pub(crate) fn hold_this_thread_after_waits(release: Arc<AtomicBool>) {
    HELD.with(|h| *h.borrow_mut() = Some(release));
}

/// The meeting point's `sync::after_wait` in test-hooks builds: waits while this thread is
/// held ([`hold_this_thread_after_waits`]).
pub(crate) fn after_wait() {
    let release = HELD.with(|h| h.borrow().clone());
    if let Some(release) = release {
        while !release.load(Relaxed) {
            std::thread::sleep(core::time::Duration::from_millis(1));
        }
    }
}

impl Hooks {
    /// A request as it arrives: corrupted or poisoned if asked; and whether callers meet
    /// anyway.
    pub(crate) fn arrive(&self, key: &RsaPrivateKey, mut input: CrtInput) -> (CrtInput, bool) {
        if take(&self.corrupt) {
            input.corrupt_for_tests(key);
        }
        if POISONED.with(Cell::get) {
            input.poison_for_tests();
        }
        (input, self.meet_anyway.load(Relaxed))
    }

    /// A pass of `size` requests, before it computes: counted, held at the gate, or made to
    /// panic.
    pub(crate) fn pass(&self, size: usize) {
        self.passes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(size);
        if self.gate.load(Relaxed) == std::process::id() {
            self.at_gate.fetch_add(1, Relaxed);
            while self.gate.load(Relaxed) == std::process::id() {
                std::thread::sleep(core::time::Duration::from_millis(1));
            }
            self.at_gate.fetch_sub(1, Relaxed);
        }
        if take(&self.panics) {
            panic!("coalesce: a pass's test panic");
        }
    }
}
