//! The tests' coalescer (feature `test-hooks`: never in a user's build): [`Hooked`], a
//! [`Coalescer`] with hooks around it, which the test doors install in a key in place of the
//! plain one. Callers made to meet on every machine, requests corrupted or poisoned as they
//! arrive, passes that panic, held at a gate or counted, and callers held after they wake. The
//! production coalescer carries none of it: the hooks wrap its work ([`Work`]) and its entry
//! point ([`MeetingPoint::run`]), and the rest is the production code itself.

use core::any::Any;
use core::cell::{Cell, RefCell};
use std::boxed::Box;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::vec::Vec;

use super::meeting::{State, Work};
use super::{Coalescer, KeyWork, passes_of, worth_meeting};
use crate::Result;
use crate::primitive::{CrtInput, CrtKey, MeetingPoint};

/// A coalescer with the tests' hooks: the meeting point of a key made by the test doors.
pub(crate) struct Hooked {
    /// The production coalescer, whose meeting point the callers really use.
    pub(crate) coalescer: Coalescer,
    /// What the tests steer and observe.
    pub(crate) hooks: Hooks,
}

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
    /// While set and false, this thread waits after each wake-up ([`HookedWork::after_wait`]).
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

impl Hooked {
    /// A hooked coalescer of at most `passes` passes at once whose callers meet even where the
    /// eight lanes do not run.
    pub(crate) fn everywhere(passes: NonZeroUsize) -> Self {
        let hooked = Hooked {
            coalescer: Coalescer::new(passes),
            hooks: Hooks::default(),
        };
        hooked.hooks.meet_anyway.store(true, Relaxed);
        hooked
    }

    /// `key`'s meeting point, if it is a hooked coalescer.
    pub(crate) fn of(key: &CrtKey) -> Option<&Hooked> {
        let point: &dyn Any = key.meeting_point()?;
        point.downcast_ref()
    }

    /// While `held`, the passes of this process wait before they compute (those of a child
    /// process after `fork()` do not).
    pub(crate) fn hold_passes(&self, held: bool) {
        let pid = if held { std::process::id() } else { 0 };
        self.hooks.gate.store(pid, Relaxed);
    }

    /// The meeting point's state under its mutex.
    pub(crate) fn lock(&self) -> MutexGuard<'_, State<CrtInput, Result<Vec<u8>>>> {
        self.coalescer.meeting.lock()
    }

    /// Passes held at the gate ([`hold_passes`](Self::hold_passes)), requests queued, passes
    /// running, results waiting to be picked up; none while another thread holds the mutex
    /// (a look must not wait: in a child process, a mutex held at the fork is never freed).
    pub(crate) fn state(&self) -> Option<[usize; 4]> {
        let held = self.hooks.at_gate.load(Relaxed);
        let state = self.coalescer.meeting.try_lock()?;
        Some([held, state.queue.len(), state.running, state.done.len()])
    }
}

impl MeetingPoint for Hooked {
    /// As the plain coalescer's, with the request corrupted or poisoned if asked, callers
    /// meeting anyway if asked, and the hooked work.
    fn run(&self, key: &CrtKey, mut input: CrtInput) -> Result<Vec<u8>> {
        if take(&self.hooks.corrupt) {
            input.corrupt_for_tests(key);
        }
        if POISONED.with(Cell::get) {
            input.poison_for_tests();
        }
        let work = HookedWork {
            work: KeyWork { key },
            hooks: &self.hooks,
        };
        if !self.hooks.meet_anyway.load(Relaxed) && !worth_meeting(key) {
            return work.alone(input);
        }
        self.coalescer.meeting.run(&work, input)
    }

    fn passes(&self) -> usize {
        self.coalescer.passes()
    }

    /// A clone starts with no caller and with hooks of its own, all off (as a plain
    /// coalescer's clone).
    fn for_clone(&self) -> Box<dyn MeetingPoint> {
        Box::new(Hooked {
            coalescer: Coalescer::new(passes_of(self)),
            hooks: Hooks::default(),
        })
    }
}

/// A key's work with the hooks: each pass counted, held at the gate or made to panic before it
/// computes; each caller held after it wakes if its thread is.
struct HookedWork<'a> {
    work: KeyWork<'a>,
    hooks: &'a Hooks,
}

impl Work for HookedWork<'_> {
    type Input = CrtInput;
    type Output = Result<Vec<u8>>;

    fn pass(&self, inputs: &[&CrtInput]) -> Vec<Result<Vec<u8>>> {
        self.hooks.pass(inputs.len());
        self.work.pass(inputs)
    }

    fn alone(&self, input: CrtInput) -> Result<Vec<u8>> {
        self.work.alone(input)
    }

    /// Waits while this thread is held ([`hold_this_thread_after_waits`]).
    fn after_wait(&self) {
        let release = HELD.with(|h| h.borrow().clone());
        if let Some(release) = release {
            while !release.load(Relaxed) {
                std::thread::sleep(core::time::Duration::from_millis(1));
            }
        }
    }
}

impl Hooks {
    /// A pass of `size` requests, before it computes: counted, held at the gate, or made to
    /// panic.
    fn pass(&self, size: usize) {
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
