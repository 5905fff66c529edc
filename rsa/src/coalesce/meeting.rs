//! The meeting point of a coalescing key, generic over the work it runs: the queue of requests,
//! who leads a pass, the results that wait to be picked up, and what a panic, a caller that
//! does not come back for its result, or a `fork()` leaves behind. The parent module runs it
//! with RSA's CRT private operations and documents the rules. Everything it takes from the
//! platform (mutex, atomics, threads, clock, process id) comes through `super::sync`, so that
//! `model-check/` can compile this same file against loom's versions and explore every
//! interleaving of a few callers with trivial work.

use core::mem;
use core::time::Duration;
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::vec::Vec;

use super::sync::{
    self, AtomicU32, Instant, Mutex, MutexGuard, Ordering, PoisonError, Thread, TryLockError,
};

/// What the callers of a meeting point want done: a pass over several inputs at once, or one
/// input alone.
pub(crate) trait Work {
    /// One caller's request.
    type Input;
    /// One caller's result.
    type Output;

    /// The outputs of one pass over `inputs`, one per input, in order. If it panics (or gives
    /// a wrong count) every input of the pass runs again, alone, on its own caller's thread.
    fn pass(&self, inputs: &[&Self::Input]) -> Vec<Self::Output>;

    /// The output of `input` run alone, on its caller's thread.
    fn alone(&self, input: Self::Input) -> Self::Output;

    /// Called by a waiting caller each time it wakes, before it looks at the state again:
    /// nothing, unless the work is a test's that holds the thread there, as the operating
    /// system could hold a descheduled or stopped one.
    fn after_wait(&self) {}
}

/// A meeting point (see the parent module's documentation). Every operation writes its mutex
/// and state, so they have cache lines of their own, as the blinding table's slots do, away
/// from whatever the allocator puts beside them (the key's values, read by every pass).
#[repr(align(128))]
pub(crate) struct Meeting<I, O> {
    state: Mutex<State<I, O>>,
    /// The process whose threads the state belongs to ([`State::pid`]), readable without the
    /// mutex: a child process after `fork()` sees another process's id here before it asks
    /// for a mutex that a thread of the parent may have held at the instant of the fork.
    pid: AtomicU32,
    /// The most passes that run at once.
    passes: usize,
    /// The most requests one pass takes.
    group: usize,
}

/// What the callers share under the mutex.
pub(crate) struct State<I, O> {
    /// Requests not yet taken into a pass, oldest first.
    pub(crate) queue: VecDeque<Request<I>>,
    /// Outcomes of requests that another caller's pass took, by ticket, not yet picked up.
    pub(crate) done: Vec<(u64, Outcome<I, O>)>,
    /// Passes running.
    pub(crate) running: usize,
    /// The next ticket.
    next: u64,
    /// When outcomes were last added to `done` (none while it is empty).
    posted: Option<Instant>,
    /// How long the last pass took: how long queued callers wait for served callers to pick
    /// up their outcomes before one of them leads anyway.
    pass_time: Duration,
    /// The process whose threads queued these requests and wait for these outcomes.
    pid: u32,
}

/// What a pass leaves for a caller it took.
pub(crate) enum Outcome<I, O> {
    /// The caller's result.
    Output(O),
    /// The pass panicked: the caller's input, to run alone on its own thread.
    Alone(I),
}

/// One caller's request.
pub(crate) struct Request<I> {
    ticket: u64,
    input: I,
    /// The caller's thread, parked while it waits: woken alone when its outcome is there, or
    /// when it is the oldest queued and may lead.
    caller: Thread,
}

impl<I, O> State<I, O> {
    fn new(pid: u32) -> Self {
        State {
            queue: VecDeque::new(),
            done: Vec::new(),
            running: 0,
            next: 0,
            posted: None,
            pass_time: Duration::ZERO,
            pid,
        }
    }

    /// How much longer queued callers wait for the outcomes in `done` to be picked up: zero
    /// once a pass's time has gone by since the last were posted.
    fn pickup_left(&self) -> Duration {
        self.posted.map_or(Duration::ZERO, |at| {
            self.pass_time.saturating_sub(at.elapsed())
        })
    }
}

impl<I, O> Meeting<I, O> {
    /// A meeting point that runs at most `passes` passes at once, each of at most `group`
    /// requests (both at least one).
    pub(crate) fn new(passes: usize, group: usize) -> Self {
        let pid = sync::process_id();
        Meeting {
            state: Mutex::new(State::new(pid)),
            pid: AtomicU32::new(pid),
            passes: passes.max(1),
            group: group.max(1),
        }
    }

    /// The most passes that run at once.
    pub(crate) fn passes(&self) -> usize {
        self.passes
    }

    /// The state, under the mutex. Nothing that can panic runs under it; a poisoned one is
    /// still consistent.
    pub(crate) fn lock(&self) -> MutexGuard<'_, State<I, O>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The state if no thread holds the mutex now, or none. (In a child process after
    /// `fork()` a mutex held at the instant of the fork stays held forever.)
    pub(crate) fn try_lock(&self) -> Option<MutexGuard<'_, State<I, O>>> {
        match self.state.try_lock() {
            Ok(state) => Some(state),
            Err(TryLockError::Poisoned(p)) => Some(p.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        }
    }

    /// The state for a caller of this process, or none if it cannot be had without waiting in
    /// a child process that has not yet cleared its parent's state.
    ///
    /// After `fork()` the child holds a copy of the state: passes counted as running, queued
    /// requests and outcomes of threads that do not exist in it. The first caller that sees
    /// the recorded process id differ from its own clears them. It only tries the mutex: a
    /// thread of the parent may have held it at the instant of the fork, and then no thread
    /// of the child will ever release it, so that caller (and every later one, if so) runs
    /// alone instead.
    fn enter(&self) -> Option<MutexGuard<'_, State<I, O>>> {
        let pid = sync::process_id();
        if self.pid.load(Ordering::Relaxed) == pid {
            return Some(self.lock());
        }
        let mut state = self.try_lock()?;
        if state.pid != pid {
            // Another process's threads: none of them will take, run or pick up anything here.
            let pass_time = state.pass_time;
            *state = State::new(pid);
            state.pass_time = pass_time;
        }
        self.pid.store(pid, Ordering::Relaxed);
        Some(state)
    }

    /// `work`'s output for `input`, from a pass with other callers' inputs where they are
    /// waiting (the parent module's documentation has the rules).
    pub(crate) fn run<W: Work<Input = I, Output = O>>(&self, work: &W, input: I) -> O {
        let Some(mut state) = self.enter() else {
            return work.alone(input);
        };
        let ticket = state.next;
        state.next += 1;
        state.queue.push_back(Request {
            ticket,
            input,
            caller: sync::current(),
        });
        let mut yields = 0;
        loop {
            if let Some(at) = state.done.iter().position(|(t, _)| *t == ticket) {
                let (_, outcome) = state.done.swap_remove(at);
                if state.done.is_empty() {
                    // The last outcome picked up: the oldest queued caller may lead now.
                    state.posted = None;
                    wake_oldest(&state);
                }
                drop(state);
                return match outcome {
                    Outcome::Output(output) => output,
                    Outcome::Alone(input) => work.alone(input),
                };
            }
            // Lead when a pass is free, unless callers served by a pass have not yet picked
            // up their outcomes: they are runnable threads without a core (more callers than
            // cores), about to come back with their next requests, and leading now would run
            // this request alone and keep them off the core. Waiting instead gives them the
            // core; the last of them to pick up wakes the oldest queued caller, which then
            // leads them all. A full group leads at once, and so does a caller that has
            // waited a pass's time for them: a served caller that is not coming back soon (a
            // thread descheduled or stopped) holds nobody for longer than that.
            let free = state.running < self.passes;
            let pickups = (!state.done.is_empty()).then(|| state.pickup_left());
            let full = state.queue.len() >= self.group;
            let lead = free && (full || pickups.is_none_or(|left| left.is_zero()));
            let queued = state.queue.iter().position(|r| r.ticket == ticket);
            if let Some(own) = queued
                .filter(|_| lead)
                .and_then(|at| state.queue.remove(at))
            {
                let others = take_oldest(&mut state, self.group - 1);
                state.running += 1;
                if state.running < self.passes {
                    // Requests left over while another pass is free.
                    wake_oldest(&state);
                }
                drop(state);
                return self.lead(work, own.input, others);
            }
            // Not leading. Taken into a pass: its leader hands this caller its outcome and
            // wakes it. Still queued: woken as the oldest when a pass may start or the last
            // outcome is picked up; but that oldest may be a thread that does not run soon
            // (descheduled, stopped), so a queued caller never sleeps longer than a pass's
            // time before it looks again, and leads if it may. Waiting only for served
            // callers to pick up (a pass is free): they are runnable, likely on this core's
            // queue, so this thread first gives them the core a few times, then sleeps no
            // longer than what is left of the bound.
            let wait = match pickups.filter(|_| free) {
                Some(left) => left,
                None => state.pass_time.max(MIN_WAIT),
            };
            let yield_first = queued.is_some() && free && pickups.is_some() && yields < YIELDS;
            drop(state);
            if queued.is_none() {
                // A spurious wake only checks again.
                sync::park();
            } else if yield_first {
                yields += 1;
                sync::yield_now();
            } else {
                sync::park_timeout(wait);
            }
            work.after_wait();
            state = self.lock();
        }
    }
}

impl<I, O> Meeting<I, O> {
    /// Runs the pass of the leader's `own` input and the requests of `others`, hands the others
    /// their outcomes; then, while full groups are queued, up to [`EXTRA_PASSES`] more passes
    /// of the oldest; returns the leader's own output. A pass that panics hands each of its
    /// requests back to its own caller to run alone, the leader's own included (run alone
    /// here, after the passes): a panic reaches only the caller whose input causes it.
    fn lead<W: Work<Input = I, Output = O>>(&self, work: &W, own: I, others: Vec<Request<I>>) -> O {
        let mut pass = Pass {
            meeting: self,
            group: others,
        };
        let (outputs, took) = compute(work, Some(&own), &pass.group);
        let mut outputs = outputs.map(Vec::into_iter);
        let own = match outputs.as_mut().and_then(Iterator::next) {
            Some(output) => Outcome::Output(output),
            None => Outcome::Alone(own),
        };
        let mut more = self.post(&mut pass, outputs, took, 0);
        for extra in 1..=EXTRA_PASSES {
            if !more {
                break;
            }
            let (outputs, took) = compute(work, None, &pass.group);
            more = self.post(&mut pass, outputs.map(Vec::into_iter), took, extra);
        }
        // `pass` ends the passes (and wakes the oldest queued caller) as it drops.
        drop(pass);
        match own {
            Outcome::Output(output) => output,
            Outcome::Alone(own) => work.alone(own),
        }
    }

    /// Hands each request of `pass` its outcome: its output, or its input back if the pass
    /// gave none (`outputs`: none); wakes the callers. Then takes the next group into `pass`
    /// if the pass ran, it was not the last extra one (`extra` of [`EXTRA_PASSES`]) and a full
    /// group is queued, and says whether it did.
    fn post(
        &self,
        pass: &mut Pass<'_, I, O>,
        outputs: Option<impl Iterator<Item = O>>,
        took: Duration,
        extra: usize,
    ) -> bool {
        let group = mem::take(&mut pass.group);
        let ran = outputs.is_some();
        let mut callers = Vec::with_capacity(group.len());
        let finished: Vec<(u64, Outcome<I, O>)> = match outputs {
            Some(outputs) => group
                .into_iter()
                .zip(outputs)
                .map(|(r, output)| {
                    callers.push(r.caller);
                    (r.ticket, Outcome::Output(output))
                })
                .collect(),
            None => group
                .into_iter()
                .map(|r| {
                    callers.push(r.caller);
                    (r.ticket, Outcome::Alone(r.input))
                })
                .collect(),
        };
        let mut state = self.lock();
        state.pass_time = took;
        if !finished.is_empty() {
            state.done.extend(finished);
            state.posted = Some(Instant::now());
        }
        // A full group queued while this pass ran: the next pass, on this thread, which is
        // running already (the callers it served are waking up to queue their next). Fewer
        // wait for the callers just served to come back and fill their group.
        let more = ran && extra < EXTRA_PASSES && state.queue.len() >= self.group;
        if more {
            pass.group = take_oldest(&mut state, self.group);
        }
        if state.running < self.passes {
            // Requests left over while another pass is free.
            wake_oldest(&state);
        }
        drop(state);
        for caller in callers {
            caller.unpark();
        }
        more
    }
}

/// `work`'s pass over `first` (the leader's own input, in its first pass) and the inputs of
/// `group`: the outputs, one per input, or none if the pass panicked or gave another count;
/// and how long it took.
fn compute<W: Work>(
    work: &W,
    first: Option<&W::Input>,
    group: &[Request<W::Input>],
) -> (Option<Vec<W::Output>>, Duration) {
    let inputs: Vec<&W::Input> = first
        .into_iter()
        .chain(group.iter().map(|r| &r.input))
        .collect();
    let started = Instant::now();
    // The work may panic (a bug); the meeting point's state is not touched inside, so nothing
    // is left half-done, and each input then runs again alone on its own caller's thread.
    let outputs = catch_unwind(AssertUnwindSafe(|| work.pass(&inputs)))
        .ok()
        .filter(|outputs| outputs.len() == inputs.len());
    (outputs, started.elapsed())
}

/// Passes a leader runs after its own while full groups are queued, so that a core that has
/// just finished a pass goes on with the callers that queued meanwhile instead of returning to
/// its caller and leaving them to whichever of them wakes first. Bounds how long a leader's own
/// result waits.
pub(crate) const EXTRA_PASSES: usize = 4;

/// How many times a caller that waits only for served callers to pick up their outcomes yields
/// its core before it sleeps.
pub(crate) const YIELDS: usize = 16;

/// The shortest sleep of a queued caller, while no pass has been timed yet.
const MIN_WAIT: Duration = Duration::from_micros(50);

/// Up to `n` of the oldest requests.
fn take_oldest<I, O>(state: &mut State<I, O>, n: usize) -> Vec<Request<I>> {
    let n = n.min(state.queue.len());
    state.queue.drain(..n).collect()
}

/// A leader's passes: when it drops, the passes are over (one more may start) and the oldest
/// queued caller is woken. Requests still in `group` then (something outside the work
/// panicked; the work's own panics are caught) go back to their callers to run alone.
struct Pass<'a, I, O> {
    meeting: &'a Meeting<I, O>,
    /// The requests of the pass in progress, the leader's own aside.
    group: Vec<Request<I>>,
}

impl<I, O> Drop for Pass<'_, I, O> {
    fn drop(&mut self) {
        let mut state = self.meeting.lock();
        let mut callers = Vec::with_capacity(self.group.len());
        for r in self.group.drain(..) {
            callers.push(r.caller);
            state.done.push((r.ticket, Outcome::Alone(r.input)));
        }
        if !callers.is_empty() {
            state.posted = Some(Instant::now());
        }
        state.running = state.running.saturating_sub(1);
        // A pass is free: the oldest queued caller may lead.
        wake_oldest(&state);
        drop(state);
        for caller in callers {
            caller.unpark();
        }
    }
}

/// Wakes the oldest queued caller, if any, to see whether it may lead.
pub(crate) fn wake_oldest<I, O>(state: &State<I, O>) {
    if let Some(r) = state.queue.front() {
        r.caller.unpark();
    }
}
