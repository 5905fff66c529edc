//! Concurrent callers batched: the CRT private operations that threads start on one key at the
//! same time run together on the eight lanes of the 52-bit engine
//! ([`RsaPrivateKey::coalescing`](crate::RsaPrivateKey::coalescing)).
//!
//! # How callers meet (group commit)
//!
//! Each caller does its own first stage on its own thread (input checks, blinding from the
//! key's table of pairs, reductions modulo the primes: `crt_prepare`), then takes a ticket and
//! joins the key's queue under a mutex. A caller whose request is still queued leads a pass
//! when fewer than `passes` passes are running: it takes its own request and up to three of
//! the oldest others (four 2-prime items fill the eight lanes, [`ITEMS_PER_GROUP`]), releases
//! the mutex, runs the exponentiations and each item's last stage (Garner, unblinding, fault
//! check: `crt_finish`), then hands each taken caller its result and wakes that caller's
//! thread alone (`Thread::unpark`: no herd of waiters woken to find nothing to do). While a
//! full group is queued at the end of a pass, the leader runs it too (up to four more passes)
//! before it returns its own result: its core is the one that is free. A caller waits
//! (parked) while its request is queued and either every allowed pass runs or callers that a
//! pass served have not yet picked up their results, unless a full group is queued: those
//! callers are threads that are runnable but without a core, about to come back with their
//! next requests, and leading now would run one request alone and keep them off the core. The
//! last of them to pick up, and every pass that ends, wakes the oldest queued caller to look
//! again.
//!
//! That wait for pick-ups is bounded by the time the last pass took: a queued caller that has
//! waited that long since the results were handed out leads anyway (it sleeps with a timeout,
//! after a few yields). A served caller that does not come back soon (a thread descheduled for
//! long, or stopped in a debugger or by a signal) so holds nobody for longer than a pass; its
//! result waits for it.
//!
//! So a caller alone runs alone and at once (a pass of one: the single operation's interleaved
//! pair); with no more calling threads than cores every call still runs at once, as on a plain
//! key; with more, the surplus callers wait and run four at a time, and their operations then
//! cost less than they would alone (at RSA-2048 on AVX-512 IFMA, four items on eight lanes
//! take much less than four single operations' time: docs/benchmarks-log.md, "Which keys'
//! callers meet", measured on 2 cores). No background thread and no timer thread:
//! the work runs on the callers' threads, and the only clock is each waiting caller's bounded
//! sleep. `passes` defaults to the machine's parallelism
//! ([`std::thread::available_parallelism`]).
//!
//! A coalescing key's [`CrtKey`] holds a [`Coalescer`] as its [`MeetingPoint`] and hands it each
//! operation after the first stage; the coalescer runs the rest with [`CrtKey`]'s stages. The
//! queue, the passes and the pick-ups are `coalesce/meeting.rs`, generic over the work;
//! `model-check/` runs that file under loom with trivial work and explores the interleavings
//! of two and three callers within a preemption bound of two, one pass at a time, with a pass
//! that panics and results left waiting.
//!
//! # What it trades
//!
//! Latency for throughput: a caller taken into a pass waits for the whole pass, longer than a
//! single operation and longer still where the eight lanes gain less (3072 and 4096 bits),
//! plus its time in the queue. With N callers always busy on C cores, a call takes
//! N / throughput (Little's law): coalescing shortens it exactly as much as it raises the
//! throughput, but a call that is taken into a pass never takes less than a pass.
//! BENCHMARKS.md has the figures.
//!
//! # Failures
//!
//! Each caller gets its own result: an input error from its own first stage (before it
//! joins), or [`Error::Fault`](crate::Error::Fault) from its own item's check. A pass that
//! panics (a bug: the arithmetic does not panic on valid keys) is caught by its leader, and
//! each request it took goes back to its own caller, who runs it alone on its own thread, as a
//! plain key would: a request whose arithmetic panics then panics on its own caller's thread
//! only, and the others get their results; the leader runs its own request alone too, so its
//! own panic stays its own. Requests are never put back in the queue, where the next leader
//! would run a poisoned one again with others. The mutex is never held while anything that
//! could panic runs, and a poisoned one is used as it is. A caller cannot be cancelled while
//! it waits (the call is synchronous), and the key outlives every call that borrows it, so a
//! key cannot be dropped under a waiting caller (behind an `Arc`, dropping a handle drops
//! nothing while calls hold theirs).
//!
//! # `fork()`
//!
//! A child process gets a copy of the meeting point as it was at the instant of the fork:
//! passes counted as running, requests queued and results waiting, all of threads that do not
//! exist in the child, and its mutex held forever if a thread of the parent held it then.
//! The meeting point records the id of the process whose threads use it, in the state and in
//! an atomic beside the mutex. Each call compares it with its own process id
//! ([`std::process::id`]: a `getpid` system call, whose cost BENCHMARKS.md measures); in a
//! child, the first caller clears the state (no pass running,
//! nothing queued or waiting) under `try_lock` only and records the child's id. Where the
//! mutex cannot be had (held at the fork by a thread that is gone, or for a moment by
//! another child thread clearing it), the call runs alone, which is always correct: no caller
//! in a child waits for a thread of its parent.
//!
//! # Constant time
//!
//! As [`Batch`](crate::Batch): each item's operation is that of a single CRT private
//! operation; who leads, who waits and how many items a pass takes depend on timing and other
//! threads, never on a secret.

use std::boxed::Box;
use std::num::NonZeroUsize;
use std::vec::Vec;

use crate::Result;
use crate::primitive::{CrtInput, CrtKey, ITEMS_PER_GROUP, MeetingPoint};

#[cfg(feature = "test-hooks")]
pub(crate) mod hooks;
mod meeting;
mod sync;

use meeting::{Meeting, Work};

/// A key's meeting point for concurrent CRT private operations (see the module documentation):
/// the [`MeetingPoint`] of a coalescing key's [`CrtKey`].
pub(crate) struct Coalescer {
    meeting: Meeting<CrtInput, Result<Vec<u8>>>,
}

/// The CRT private operations of one key, after their first stage: a pass is the middle of
/// [`Batch`](crate::Batch)'s groups (the eight lanes, then each item's last stage); alone, the
/// single operation's pair.
struct KeyWork<'a> {
    key: &'a CrtKey,
}

impl Work for KeyWork<'_> {
    type Input = CrtInput;
    type Output = Result<Vec<u8>>;

    fn pass(&self, inputs: &[&CrtInput]) -> Vec<Result<Vec<u8>>> {
        let items: Vec<(&CrtKey, &CrtInput)> =
            inputs.iter().map(|input| (self.key, *input)).collect();
        CrtKey::exponentiate_and_finish(&items)
    }

    fn alone(&self, input: CrtInput) -> Result<Vec<u8>> {
        let ms = self.key.crt_exponentiate(&input);
        self.key.crt_finish(&input, &ms)
    }
}

impl Coalescer {
    /// A meeting point that runs at most `passes` passes at once.
    pub(crate) fn new(passes: NonZeroUsize) -> Self {
        Coalescer {
            meeting: Meeting::new(passes.get(), ITEMS_PER_GROUP),
        }
    }
}

impl MeetingPoint for Coalescer {
    /// The exponentiations and last stage of `input` (`key`'s CRT private operation after its
    /// first stage), in a pass with other callers' where they are waiting.
    fn run(&self, key: &CrtKey, input: CrtInput) -> Result<Vec<u8>> {
        let work = KeyWork { key };
        if !worth_meeting(key) {
            // Nothing to gain from company: the pair, at once.
            return work.alone(input);
        }
        self.meeting.run(&work, input)
    }

    fn passes(&self) -> usize {
        self.meeting.passes()
    }

    /// A clone starts with no caller: keys never share a queue.
    fn for_clone(&self) -> Box<dyn MeetingPoint> {
        Box::new(Coalescer::new(passes_of(self)))
    }
}

/// The passes a meeting point allows, as a count of at least one.
fn passes_of(point: &dyn MeetingPoint) -> NonZeroUsize {
    NonZeroUsize::new(point.passes()).unwrap_or(NonZeroUsize::MIN)
}

/// The largest prime, in bits, whose key's callers meet: 30 digits of 52 bits less the two
/// spare bits (RSA-3072's halves). Four items on the eight lanes gain most at 2048 bits, less
/// at 3072 and lose at 4096, once the meeting's own costs (a wake-up for every caller served,
/// passes not full) are paid (measured: see docs/benchmarks-log.md, "Which keys' callers
/// meet").
const MAX_PRIME_BITS: usize = 52 * 30 - 2;

/// Whether `key`'s callers gain by meeting: four of its items fill the eight lanes, and its
/// primes are at most [`MAX_PRIME_BITS`].
fn worth_meeting(key: &CrtKey) -> bool {
    key.fills_lanes() && key.largest_prime_bits() <= MAX_PRIME_BITS
}

#[cfg(test)]
mod tests {
    //! Coalesced results against the public operation under many threads; callers queued on
    //! purpose (a pass held "running") to prove grouping, per-caller errors and faults, panics
    //! (a pass's, and a poisoned request's, which reach its own caller only), a served caller
    //! that does not come back for its result, and a key dropped while callers wait. The hooks
    //! make callers meet even where the eight lanes do not run (no IFMA), so that the meeting
    //! logic is tested on every machine; where they run, the passes are real eight-lane
    //! batches.
    // Test code: `unwrap` is the assertion.
    #![allow(clippy::unwrap_used)]

    use super::hooks::Hooked;
    use super::*;
    use crate::hazmat::{PrivateOp, PublicOp};
    use crate::{Error, RsaPrivateKey};
    use rand_chacha::ChaCha20Rng;
    use rand_core::{Rng, SeedableRng};
    use std::boxed::Box;
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    use std::sync::{Arc, OnceLock};
    use std::time::Duration;
    use std::vec;

    /// A 1024-bit key (made once; four items of its 512-bit primes fill the eight lanes where
    /// IFMA runs), coalescing with at most `passes` passes and meeting on every machine.
    fn key(passes: usize) -> RsaPrivateKey {
        static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
        KEY.get_or_init(|| RsaPrivateKey::new(&mut ChaCha20Rng::seed_from_u64(48), 1024).unwrap())
            .clone()
            .coalescing_everywhere_for_tests(NonZeroUsize::new(passes).unwrap())
    }

    /// The key's coalescer, with the tests' hooks.
    fn hooked(key: &RsaPrivateKey) -> &Hooked {
        Hooked::of(key.crt()).unwrap()
    }

    fn coalescer(key: &RsaPrivateKey) -> &Coalescer {
        &hooked(key).coalescer
    }

    fn hooks(key: &RsaPrivateKey) -> &hooks::Hooks {
        &hooked(key).hooks
    }

    fn passes(key: &RsaPrivateKey) -> Vec<usize> {
        hooks(key).passes.lock().unwrap().clone()
    }

    /// A message representative and its ciphertext.
    type Case = (Vec<u8>, Vec<u8>);

    /// A random message representative below n and its ciphertext: the private operation
    /// must give the message back.
    fn case(key: &RsaPrivateKey, rng: &mut ChaCha20Rng) -> Case {
        let mut m = vec![0u8; key.size()];
        rng.fill_bytes(&mut m[1..]);
        let c = key.public_key().public_op(&m).unwrap();
        (m, c)
    }

    /// A key shared by the callers' threads and `n` [`case`]s for it, drawn from `seed`.
    fn shared_key_and_cases(seed: u64, n: usize) -> (Arc<RsaPrivateKey>, Vec<Case>) {
        let key = Arc::new(key(1));
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let cases = (0..n).map(|_| case(&key, &mut rng)).collect();
        (key, cases)
    }

    /// Requests queued.
    fn queued(key: &RsaPrivateKey) -> usize {
        coalescer(key).meeting.lock().queue.len()
    }

    /// Nothing is left behind: no request queued, no result uncollected, no pass running.
    fn assert_idle(key: &RsaPrivateKey) {
        let state = coalescer(key).meeting.lock();
        assert!(state.queue.is_empty() && state.done.is_empty() && state.running == 0);
    }

    /// One caller's call.
    type Call<'a> = Box<dyn FnOnce(&RsaPrivateKey) -> Result<Vec<u8>> + Send + 'a>;

    /// A call per case: the private operation on its ciphertext, blinded from its own seed
    /// (`first_seed`, then the next ones).
    fn private_op_calls(cases: &[Case], first_seed: u64) -> Vec<Call<'_>> {
        (first_seed..)
            .zip(cases)
            .map(|(seed, (_, c))| {
                Box::new(move |key: &RsaPrivateKey| {
                    key.private_op(&mut ChaCha20Rng::seed_from_u64(seed), c)
                }) as Call<'_>
            })
            .collect()
    }

    /// `call`, after poisoning its thread: its request's exponentiations panic.
    fn poisoned(call: Call<'_>) -> Call<'_> {
        Box::new(move |key: &RsaPrivateKey| {
            hooks::poison_this_thread();
            call(key)
        })
    }

    /// Holds a pass running on `key` (allowed one), so that every caller queues.
    fn hold(key: &RsaPrivateKey) {
        coalescer(key).meeting.lock().running += 1;
    }

    /// Waits until `n` requests are queued.
    fn wait_queued(key: &RsaPrivateKey, n: usize) {
        while queued(key) < n {
            std::thread::yield_now();
        }
    }

    /// Ends the held pass as a pass that ends does: one more may start, the oldest queued
    /// caller is woken.
    fn release(key: &RsaPrivateKey) {
        let mut state = coalescer(key).meeting.lock();
        state.running -= 1;
        meeting::wake_oldest(&state);
    }

    /// A thread's outcome: its result, or its panic as `Err`.
    type Outcome = std::thread::Result<Result<Vec<u8>>>;

    /// Runs `calls` (one thread each) while a pass is held running ([`hold`]), and releases it
    /// once `queued` requests wait; with `in_order`, each call's thread starts once the one
    /// before has queued, so that the queue holds them in the order given. Returns each
    /// thread's outcome.
    fn queued_calls(
        key: &Arc<RsaPrivateKey>,
        queued: usize,
        in_order: bool,
        calls: Vec<Call<'_>>,
    ) -> Vec<Outcome> {
        queued_calls_then(key, queued, in_order, calls, || ())
    }

    /// [`queued_calls`], running `meanwhile` on this thread once the held pass is released,
    /// while the callers' threads run.
    fn queued_calls_then(
        key: &Arc<RsaPrivateKey>,
        queued: usize,
        in_order: bool,
        calls: Vec<Call<'_>>,
        meanwhile: impl FnOnce(),
    ) -> Vec<Outcome> {
        hold(key);
        std::thread::scope(|s| {
            let handles: Vec<_> = calls
                .into_iter()
                .enumerate()
                .map(|(i, call)| {
                    if in_order {
                        wait_queued(key, i);
                    }
                    let key = Arc::clone(key);
                    s.spawn(move || {
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| call(&key)))
                    })
                })
                .collect();
            wait_queued(key, queued);
            release(key);
            meanwhile();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    }

    #[test]
    fn coalesced_results_equal_the_message_under_many_threads() {
        let key = key(2);
        std::thread::scope(|s| {
            for t in 0..16u64 {
                let key = &key;
                s.spawn(move || {
                    let mut rng = ChaCha20Rng::seed_from_u64(t);
                    for _ in 0..20 {
                        let (m, c) = case(key, &mut rng);
                        assert_eq!(key.private_op(&mut rng, &c).unwrap(), m);
                    }
                });
            }
        });
        let passes = passes(&key);
        assert_eq!(
            passes.iter().sum::<usize>(),
            16 * 20,
            "every call ran in one pass"
        );
        assert!(passes.iter().all(|&n| (1..=ITEMS_PER_GROUP).contains(&n)));
        assert_idle(&key);
    }

    #[test]
    fn callers_that_find_every_pass_busy_run_together_four_at_a_time() {
        let (key, cases) = shared_key_and_cases(1, 6);
        let out = queued_calls(&key, 6, false, private_op_calls(&cases, 10));
        for ((m, _), r) in cases.iter().zip(out) {
            assert_eq!(&r.unwrap().unwrap(), m);
        }
        // Six queued: the oldest leads four; the last two (not a full group, so no extra pass)
        // wait for the served callers to pick up (or a pass's time), then one of them leads
        // both.
        assert_eq!(passes(&key), [4, 2]);
        assert_idle(&key);
    }

    #[test]
    fn a_caller_alone_runs_alone_at_once() {
        let key = key(1);
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        for _ in 0..3 {
            let (m, c) = case(&key, &mut rng);
            assert_eq!(key.private_op(&mut rng, &c).unwrap(), m);
        }
        assert_eq!(passes(&key), [1, 1, 1]);
    }

    #[test]
    fn each_caller_gets_its_own_error_and_its_own_fault() {
        let (key, good) = shared_key_and_cases(3, 3);
        // One request is corrupted as it arrives (whichever thread arrives first): its fault
        // check fails, and only its caller sees Error::Fault.
        hooks(&key).corrupt.store(1, Relaxed);
        let mut calls = private_op_calls(&good, 4);
        // Input errors come from the caller's own first stage, before it joins the queue.
        let short = vec![1u8; key.size() - 1];
        calls.push(Box::new(move |key: &RsaPrivateKey| {
            key.private_op(&mut ChaCha20Rng::seed_from_u64(5), &short)
        }));
        let out = queued_calls(&key, 3, false, calls);
        let out: Vec<Result<Vec<u8>>> = out.into_iter().map(|r| r.unwrap()).collect();
        assert!(
            matches!(out[3], Err(Error::InvalidLength { .. })),
            "{:?}",
            out[3]
        );
        let faults = out[..3].iter().filter(|r| **r == Err(Error::Fault)).count();
        assert_eq!(faults, 1, "{out:?}");
        for ((m, _), r) in good.iter().zip(&out) {
            assert!(r.as_ref().is_ok_and(|r| r == m) || *r == Err(Error::Fault));
        }
        assert_eq!(passes(&key), [3]);
    }

    /// How the calls ended: those at the indices `panicked_calls` panicked and every other
    /// one's result is its case's message; the passes took `pass_sizes` requests each, in
    /// order; nothing is left behind ([`assert_idle`]).
    fn assert_ended(
        key: &RsaPrivateKey,
        cases: &[Case],
        out: Vec<Outcome>,
        panicked_calls: &[usize],
        pass_sizes: &[usize],
    ) {
        let mut panicked = Vec::new();
        for (i, ((m, _), r)) in cases.iter().zip(out).enumerate() {
            match r {
                Ok(r) => assert_eq!(&r.unwrap(), m, "call {i}"),
                Err(_) => panicked.push(i),
            }
        }
        assert_eq!(panicked, panicked_calls, "the calls that panicked");
        assert_eq!(passes(key), pass_sizes);
        assert_idle(key);
    }

    #[test]
    fn a_pass_that_panics_leaves_every_caller_its_result() {
        let (key, cases) = shared_key_and_cases(6, 4);
        hooks(&key).panics.store(1, Relaxed);
        let out = queued_calls(&key, 4, false, private_op_calls(&cases, 7));
        // No request caused the panic: each runs again alone on its own thread and succeeds.
        assert_ended(&key, &cases, out, &[], &[4]);
    }

    #[test]
    fn a_poisoned_request_panics_on_its_own_callers_thread_only() {
        // One held pass, four callers queued in order, the last one's request poisoned: the
        // oldest leads all four, the pass panics, and each request runs again alone on its
        // own caller's thread. Before, the pass's requests went back to the queue and each
        // next leader ran the poisoned one again: all three innocent callers got the panic.
        let (key, cases) = shared_key_and_cases(20, 4);
        let mut calls = private_op_calls(&cases, 21);
        let last = calls.pop().unwrap();
        calls.push(poisoned(last));
        let out = queued_calls(&key, 4, true, calls);
        assert_ended(&key, &cases, out, &[3], &[4]);
    }

    #[test]
    fn a_leaders_own_poisoned_request_panics_on_its_thread_only() {
        // The oldest caller, which leads (woken first), is the poisoned one.
        let (key, cases) = shared_key_and_cases(22, 4);
        let mut calls = private_op_calls(&cases, 23);
        let first = calls.remove(0);
        calls.insert(0, poisoned(first));
        let out = queued_calls(&key, 4, true, calls);
        assert_ended(&key, &cases, out, &[0], &[4]);
    }

    /// `n` callers, drawn as [`shared_key_and_cases`] and [`private_op_calls`] draw them from
    /// `seed` and `seed + 1`, queued in order behind a held pass, the one at index `held`
    /// held each time it wakes (a thread descheduled or stopped): the last caller must finish
    /// while the held one is still held (a generous bound: a pass of four and one alone take
    /// milliseconds); the held one is released then. Returns the key, the cases and each
    /// caller's outcome.
    fn last_caller_finishes_while_one_is_held(
        seed: u64,
        n: usize,
        held: usize,
    ) -> (Arc<RsaPrivateKey>, Vec<Case>, Vec<Outcome>) {
        let (key, cases) = shared_key_and_cases(seed, n);
        let release_held = Arc::new(AtomicBool::new(false));
        let mut calls = private_op_calls(&cases, seed + 1);
        let held_call = calls.remove(held);
        let flag = Arc::clone(&release_held);
        calls.insert(
            held,
            Box::new(move |key: &RsaPrivateKey| {
                hooks::hold_this_thread_after_waits(flag);
                held_call(key)
            }),
        );
        let last = calls.pop().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        calls.push(Box::new(move |key: &RsaPrivateKey| {
            let r = last(key);
            tx.send(r.clone()).unwrap();
            r
        }));
        let out = queued_calls_then(&key, n, true, calls, || {
            let last = rx.recv_timeout(Duration::from_secs(60));
            let still_held = !release_held.load(Relaxed);
            release_held.store(true, Relaxed);
            assert!(
                last.is_ok() && still_held,
                "the last caller (of {n}) waited for the held one (index {held})"
            );
        });
        (key, cases, out)
    }

    #[test]
    fn a_served_caller_that_does_not_pick_up_holds_no_other_caller() {
        // Five callers queued in order behind a held pass; the second is held each time it
        // wakes. The oldest leads the first four; the fifth, queued alone, waits for the
        // served callers to pick up, and the held one never does while the fifth waits: the
        // fifth must lead anyway once a pass's time has gone by.
        let (key, cases, out) = last_caller_finishes_while_one_is_held(24, 5, 1);
        assert_ended(&key, &cases, out, &[], &[4, 1]);
    }

    #[test]
    fn a_queued_caller_woken_to_lead_that_does_not_come_holds_no_other_caller() {
        // Two callers queued in order behind a held pass; the first is held each time it
        // wakes. The end of the held pass wakes the oldest, the held one, to lead: the second
        // must not wait for it, but lead once its own sleep (a pass's time at most) ends,
        // taking the held caller's request too.
        let (key, cases, out) = last_caller_finishes_while_one_is_held(26, 2, 0);
        assert_ended(&key, &cases, out, &[], &[2]);
    }

    #[test]
    fn dropping_a_handle_of_the_key_while_callers_wait_harms_none() {
        let (key, cases) = shared_key_and_cases(8, 3);
        hold(&key);
        let (tx, rx) = std::sync::mpsc::channel();
        let threads: Vec<_> = cases
            .iter()
            .cloned()
            .map(|(m, c)| {
                let (key, tx) = (Arc::clone(&key), tx.clone());
                std::thread::spawn(move || {
                    let r = key.private_op(&mut ChaCha20Rng::seed_from_u64(9), &c);
                    tx.send(r.unwrap() == m).unwrap();
                })
            })
            .collect();
        // The callers hold their own handles: this one goes, the key stays until they end.
        let weak = Arc::downgrade(&key);
        wait_queued(&key, 3);
        release(&key);
        drop(key);
        for t in threads {
            t.join().unwrap();
        }
        assert!(rx.iter().take(3).all(|ok| ok));
        assert!(weak.upgrade().is_none(), "the last caller dropped the key");
    }

    #[test]
    fn clones_keep_the_choice_with_a_meeting_point_of_their_own() {
        let key = key(3);
        let clone = key.clone();
        assert_eq!(clone.coalescing_passes_allowed(), NonZeroUsize::new(3));
        assert!(!core::ptr::eq(hooked(&key), hooked(&clone)));
        let plain = RsaPrivateKey::new(&mut ChaCha20Rng::seed_from_u64(9), 1024).unwrap();
        assert_eq!(plain.coalescing_passes_allowed(), None);
    }
}
