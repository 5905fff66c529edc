//! The platform of `rsa/src/coalesce/meeting.rs` under the model: loom's mutex and atomics,
//! parking tokens on loom's condition variable, a clock that moves when a pass runs and when
//! the model's clock thread ticks, and one process.

use core::time::Duration;

pub(crate) use loom::sync::atomic::{AtomicU32, Ordering};
pub(crate) use loom::sync::{Mutex, MutexGuard};
pub(crate) use loom::thread::yield_now;
pub(crate) use std::sync::{PoisonError, TryLockError};

/// A thread's parking token, behind loom's mutex and condition variable: loom's own `unpark`
/// also wakes a thread blocked on a mutex (which loom then reports as an error), and the
/// meeting point unparks callers that may be blocked on its mutex at that moment.
pub(crate) struct Parker {
    token: Mutex<bool>,
    wake: loom::sync::Condvar,
}

/// A handle to a caller's thread: its parker.
#[derive(Clone)]
pub(crate) struct Thread(loom::sync::Arc<Parker>);

impl Thread {
    /// A new handle, for a thread that adopts it ([`adopt`]) before it calls the meeting point.
    pub(crate) fn new() -> Thread {
        Thread(loom::sync::Arc::new(Parker {
            token: Mutex::new(false),
            wake: loom::sync::Condvar::new(),
        }))
    }

    /// Makes the thread's token available (its next park returns at once).
    pub(crate) fn unpark(&self) {
        *self.0.token.lock().unwrap() = true;
        self.0.wake.notify_one();
    }
}

loom::thread_local! {
    static PARKER: core::cell::RefCell<Option<Thread>> = core::cell::RefCell::new(None);
}

/// From now on `thread` is this thread's handle.
pub(crate) fn adopt(thread: Thread) {
    PARKER.with(|p| *p.borrow_mut() = Some(thread));
}

/// This thread's handle ([`adopt`]).
pub(crate) fn current() -> Thread {
    PARKER
        .with(|p| p.borrow().clone())
        .expect("a caller adopts a handle first")
}

/// Waits for this thread's token, and takes it.
pub(crate) fn park() {
    let me = current();
    let mut token = me.0.token.lock().unwrap();
    while !*token {
        token = me.0.wake.wait(token).unwrap();
    }
    *token = false;
}

/// A timed wait: a park that an unpark or a tick of the model's clock ([`tick`], which also
/// unparks every caller) ends.
pub(crate) fn park_timeout(_wait: Duration) {
    park();
}

loom::lazy_static! {
    /// The model's time, in whole seconds.
    static ref CLOCK: loom::sync::atomic::AtomicU64 = loom::sync::atomic::AtomicU64::new(0);
}

/// A moment of the model's clock.
#[derive(Clone, Copy)]
pub(crate) struct Instant(u64);

impl Instant {
    pub(crate) fn now() -> Instant {
        Instant(CLOCK.load(Ordering::SeqCst))
    }

    pub(crate) fn elapsed(&self) -> Duration {
        Duration::from_secs(CLOCK.load(Ordering::SeqCst) - self.0)
    }
}

/// A pass takes one second.
pub(crate) fn pass_takes_a_second() {
    CLOCK.fetch_add(1, Ordering::SeqCst);
}

/// Time goes by, longer than any bound of the meeting point: that bound is the time a pass
/// took, at most the clock's value before (a tick may fall inside a pass), so the clock
/// doubles, plus a thousand passes.
pub(crate) fn tick() {
    let _ = CLOCK.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |now| {
        Some(now.saturating_mul(2).saturating_add(1000))
    });
}

/// One process: `fork()` is not modelled (`rsa/tests/fork.rs` forks for real).
pub(crate) fn process_id() -> u32 {
    1
}
