//! Concurrent callers batched: the CRT private operations that threads start on one key at the
//! same time run together on the eight lanes of the 52-bit engine ([`RsaPrivateKey::coalescing`]).
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
//! full group is queued at the end of a pass, the leader runs it too (up to [`EXTRA_PASSES`]
//! more) before it returns its own result: its core is the one that is free. A caller waits
//! (parked) while its request is queued and either every allowed pass runs or callers that a
//! pass served have not yet picked up their results, unless a full group is queued: those
//! callers are threads that are runnable but without a core, about to come back with their
//! next requests, and leading now would run one request alone and keep them off the core. The
//! last of them to pick up, and every pass that ends, wakes the oldest queued caller to look
//! again.
//!
//! So a caller alone runs alone and at once (a pass of one: the single operation's interleaved
//! pair); with no more calling threads than cores every call still runs at once, as on a plain
//! key; with more, the surplus callers wait and run four at a time, and their operations then
//! cost about half of what they would alone (at RSA-2048 on AVX-512 IFMA, four items on eight
//! lanes take about two single operations' time). No timer and no background thread: the work
//! runs on the callers' threads. `passes` defaults to the machine's parallelism
//! ([`std::thread::available_parallelism`]).
//!
//! # What it trades
//!
//! Latency for throughput: a caller taken into a pass waits for the whole pass, about twice
//! a single operation at RSA-2048 and more where the eight lanes gain less (3072 and 4096
//! bits), plus its time in the queue. With N callers always busy on C cores, a call takes
//! N / throughput (Little's law): coalescing shortens it exactly as much as it raises the
//! throughput, but a call that is taken into a pass never takes less than a pass.
//! BENCHMARKS.md has the figures.
//!
//! # Failures
//!
//! Each caller gets its own result: an input error from its own first stage (before it
//! joins), or [`Error::Fault`](crate::Error::Fault) from its own item's check. A leader that
//! panics in its pass (a bug: the arithmetic does not panic on valid keys) puts the other
//! callers' requests back at the head of the queue, where the next leader takes them, and the
//! panic goes on to the leader's own caller only. The mutex is never held while anything that
//! could panic runs, and a poisoned one is used as it is. A caller cannot be cancelled while it
//! waits (the call is synchronous), and the key outlives every call that borrows it, so a key
//! cannot be dropped under a waiting caller (behind an `Arc`, dropping a handle drops nothing
//! while calls hold theirs).
//!
//! # Constant time
//!
//! As [`Batch`](crate::Batch): each item's operation is that of a single CRT private
//! operation; who leads, who waits and how many items a pass takes depend on timing and other
//! threads, never on a secret.

use std::collections::VecDeque;
use std::num::NonZeroUsize;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread::{self, Thread};
use std::vec::Vec;

use crate::batch::{ITEMS_PER_GROUP, exponentiate_and_finish, key_fills_lanes};
use crate::primitive::CrtInput;
use crate::{Result, RsaPrivateKey};

/// A key's meeting point for concurrent CRT private operations (see the module documentation).
pub(crate) struct Coalescer {
    state: Mutex<State>,
    /// The most passes that run at once.
    passes: usize,
    /// The tests' hooks.
    #[cfg(test)]
    hooks: tests::Hooks,
}

/// What the callers share under the mutex.
#[derive(Default)]
struct State {
    /// Requests not yet taken into a pass, oldest first.
    queue: VecDeque<Request>,
    /// Results of requests that a pass of another caller ran, by ticket, not yet picked up.
    done: Vec<(u64, Result<Vec<u8>>)>,
    /// Passes running.
    running: usize,
    /// The next ticket.
    next: u64,
}

/// One caller's request after its first stage.
struct Request {
    ticket: u64,
    input: CrtInput,
    /// The caller's thread, parked while it waits: woken alone when its result is there, or
    /// when it is the oldest queued and may lead.
    caller: Thread,
}

impl Coalescer {
    /// A meeting point that runs at most `passes` passes at once.
    pub(crate) fn new(passes: NonZeroUsize) -> Self {
        Coalescer {
            state: Mutex::new(State::default()),
            passes: passes.get(),
            #[cfg(test)]
            hooks: tests::Hooks::default(),
        }
    }

    /// The most passes that run at once.
    pub(crate) fn passes(&self) -> usize {
        self.passes
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing that can panic runs under the mutex; a poisoned one is still consistent.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The exponentiations and last stage of `input` (`key`'s CRT private operation after its
    /// first stage), in a pass with other callers' where they are waiting.
    pub(crate) fn run(&self, key: &RsaPrivateKey, input: CrtInput) -> Result<Vec<u8>> {
        #[cfg(test)]
        let (input, groups_anyway) = self.hooks.arrive(key, input);
        #[cfg(not(test))]
        let groups_anyway = false;
        if !groups_anyway && !worth_meeting(key) {
            // Nothing to gain from company: the pair, at once.
            let ms = key.crt_exponentiate(&input);
            return key.crt_finish(&input, &ms);
        }
        let mut state = self.lock();
        let ticket = state.next;
        state.next += 1;
        state.queue.push_back(Request {
            ticket,
            input,
            caller: thread::current(),
        });
        let mut yields = 0;
        loop {
            if let Some(at) = state.done.iter().position(|(t, _)| *t == ticket) {
                let result = state.done.swap_remove(at).1;
                if state.done.is_empty() {
                    // The last result picked up: the oldest queued caller may lead now.
                    wake_oldest(&state);
                }
                return result;
            }
            // Lead when a pass is free, unless callers served by a pass have not yet picked
            // up their results: they are runnable threads without a core (more callers than
            // cores), about to come back with their next requests, and leading now would run
            // this request alone and keep them off the core. Waiting instead gives them the
            // core; the last of them to pick up wakes the oldest queued caller, which then
            // leads them all. A full group leads at once.
            let lead = state.running < self.passes
                && (state.done.is_empty() || state.queue.len() >= ITEMS_PER_GROUP);
            let queued = state.queue.iter().position(|r| r.ticket == ticket);
            if let Some(at) = queued.filter(|_| lead) {
                let group = take_group(&mut state, at);
                state.running += 1;
                if state.running < self.passes {
                    // Requests left over while another pass is free.
                    wake_oldest(&state);
                }
                drop(state);
                return self.lead(key, group);
            }
            // Waiting only for served callers to pick up (a pass is free): they are runnable,
            // likely on this core's queue, so this thread gives them the core a few times
            // before it sleeps; being woken from sleep by another core costs more (about 17 µs
            // on the 2-vCPU VMs of BENCHMARKS.md) than the wait.
            let for_pickups = queued.is_some() && state.running < self.passes;
            drop(state);
            if for_pickups && yields < YIELDS {
                yields += 1;
                thread::yield_now();
            } else {
                // Woken by the pass that ran this request, or as the oldest queued caller when
                // a pass may start; a spurious wake only checks again.
                thread::park();
            }
            state = self.lock();
        }
    }

    /// Runs the pass of `group` (the leader's request first) and hands the others their
    /// results; then, while full groups are queued, up to [`EXTRA_PASSES`] more passes of the
    /// oldest; returns the leader's own result.
    fn lead(&self, key: &RsaPrivateKey, group: Vec<Request>) -> Result<Vec<u8>> {
        let mut pass = Pass {
            coalescer: self,
            group,
            leaders_own: true,
        };
        let mut own = Err(crate::Error::Fault);
        for extra in 0..=EXTRA_PASSES {
            #[cfg(test)]
            self.hooks.pass(pass.group.len());
            let items: Vec<(&RsaPrivateKey, &CrtInput)> =
                pass.group.iter().map(|r| (key, &r.input)).collect();
            let mut results = exponentiate_and_finish(&items).into_iter();
            drop(items);
            let group = core::mem::take(&mut pass.group);
            let mut others = group.iter();
            if core::mem::take(&mut pass.leaders_own) {
                own = results.next().unwrap_or(Err(crate::Error::Fault));
                others.next();
            }
            let mut state = self.lock();
            let served: Vec<Thread> = others.clone().map(|r| r.caller.clone()).collect();
            state.done.extend(others.map(|r| r.ticket).zip(results));
            // A full group queued while this pass ran: the next pass, on this thread, which is
            // running already (the callers it served are waking up to queue their next). Fewer
            // wait for the callers just served to come back and fill their group.
            let more = extra < EXTRA_PASSES && state.queue.len() >= ITEMS_PER_GROUP;
            if more {
                pass.group = take_oldest(&mut state);
            }
            if state.running < self.passes {
                // Requests left over while another pass is free.
                wake_oldest(&state);
            }
            drop(state);
            for caller in served {
                caller.unpark();
            }
            if !more {
                break;
            }
        }
        // `pass` ends the pass (and wakes the oldest queued caller) as it drops.
        drop(pass);
        own
    }
}

/// Passes a leader runs after its own while full groups are queued, so that a core that has
/// just finished a pass goes on with the callers that queued meanwhile instead of returning to
/// its caller and leaving them to whichever of them wakes first. Bounds how long a leader's own
/// result waits.
const EXTRA_PASSES: usize = 4;

/// The request at `at` in the queue and up to [`ITEMS_PER_GROUP`] − 1 of the oldest others.
fn take_group(state: &mut State, at: usize) -> Vec<Request> {
    let mut group = Vec::with_capacity(ITEMS_PER_GROUP);
    group.extend(state.queue.remove(at));
    fill(state, &mut group);
    group
}

/// Up to [`ITEMS_PER_GROUP`] of the oldest requests.
fn take_oldest(state: &mut State) -> Vec<Request> {
    let mut group = Vec::with_capacity(ITEMS_PER_GROUP);
    fill(state, &mut group);
    group
}

/// `group` filled up to [`ITEMS_PER_GROUP`] from the head of the queue.
fn fill(state: &mut State, group: &mut Vec<Request>) {
    while group.len() < ITEMS_PER_GROUP {
        let Some(r) = state.queue.pop_front() else {
            break;
        };
        group.push(r);
    }
}

/// A leader's passes: when it drops, the pass is over (one more may start) and the oldest
/// queued caller is woken; if it drops with requests not yet run (the leader panicked), the
/// other callers' requests go back to the head of the queue for the next leader.
struct Pass<'a> {
    coalescer: &'a Coalescer,
    /// The requests of the pass in progress.
    group: Vec<Request>,
    /// Whether the first of `group` is the leader's own request.
    leaders_own: bool,
}

impl Drop for Pass<'_> {
    fn drop(&mut self) {
        let mut state = self.coalescer.lock();
        // Empty unless the leader panicked; its own request goes with its panic.
        let skip = usize::from(self.leaders_own);
        for r in self.group.drain(..).skip(skip).rev() {
            state.queue.push_front(r);
        }
        state.running -= 1;
        // A pass is free: the oldest queued caller may lead.
        wake_oldest(&state);
    }
}

/// How many times a caller that waits only for served callers to pick up their results yields
/// its core before it sleeps.
const YIELDS: usize = 16;

/// The largest prime, in bits, whose key's callers meet: 30 digits of 52 bits less the two
/// spare bits (RSA-3072's halves). Four items on the eight lanes take about two single
/// operations' time at 2048 bits, 3.1 at 3072 and 3.4 at 4096 (`rsatool_rsa::Batch` against
/// the single operation, BENCHMARKS.md); the meeting has costs of its own (a wake-up for every
/// caller served, passes not full). Measured with 16 threads on 2 cores of Zen 5 (`rsatool
/// speedtest --threads 16 --coalesce`), meeting gave 2.1x a plain key's throughput at 2048
/// bits, 1.13x at 3072 and 0.80x at 4096.
const MAX_PRIME_BITS: usize = 52 * 30 - 2;

/// Whether `key`'s callers gain by meeting: four of its items fill the eight lanes, and its
/// primes are at most [`MAX_PRIME_BITS`].
fn worth_meeting(key: &RsaPrivateKey) -> bool {
    key_fills_lanes(key) && key.primes.iter().all(|p| p.m.bits() <= MAX_PRIME_BITS)
}

/// Wakes the oldest queued caller, if any, to see whether it may lead.
fn wake_oldest(state: &State) {
    if let Some(r) = state.queue.front() {
        r.caller.unpark();
    }
}

/// A clone starts with no caller: keys never share a queue.
impl Clone for Coalescer {
    fn clone(&self) -> Self {
        Coalescer::new(NonZeroUsize::new(self.passes).unwrap_or(NonZeroUsize::MIN))
    }
}

impl RsaPrivateKey {
    /// The same key, whose CRT private operations from threads that call it at the same time
    /// run together on the eight lanes of the AVX-512 IFMA engine: every signature, decryption
    /// and raw private operation (the typed keys' too, and through `Arc`s or references shared
    /// by any number of threads). A call that finds no other waiting runs alone and at once;
    /// calls that arrive while as many passes run as the machine has cores wait for the next
    /// pass, which takes up to four of them. No background thread: the work runs on the
    /// callers' threads.
    ///
    /// Worth it where more threads sign or decrypt with one key than there are cores (a
    /// server's pool of request threads): each operation then costs about half of a single
    /// one at RSA-2048 (four on eight lanes take two single operations' time; measured with 8
    /// threads on 2 cores, not yet on a many-core machine). What it trades
    /// is latency: a call taken into a pass returns when the whole pass ends, about twice a
    /// single operation at 2048 bits. The `coalesce` module's documentation has the details
    /// (failures, panics, fairness). Where the eight lanes do not run or do not pay (no
    /// AVX-512 IFMA, a `BIGNUM_BACKEND` that names another back end, a key of more than two
    /// primes, or of primes over 1558 bits: RSA-4096 and up, where four items on the lanes
    /// take 3.4 single operations' time and meeting cost more than it gave) every call runs
    /// alone, as on a plain key.
    ///
    /// The result of each call is the one a plain key gives, with the same blinding, fault
    /// check and constant time ([`Batch`](crate::Batch)'s). Clones keep the choice, each with
    /// its own meeting point. Needs the `std` feature.
    ///
    /// # Example
    ///
    /// ```
    /// use std::sync::Arc;
    /// use rsatool_rsa::pkcs1v15::SigningKey;
    /// use rsatool_rsa::sha2::Sha256;
    /// use rsatool_rsa::signature::{RandomizedSigner, SignatureEncoding};
    ///
    /// # let key = rsatool_rsa::RsaPrivateKey::new(&mut rsatool_rsa::os_rng(), 2048)?;
    /// // A key read once at start-up, shared by the request threads.
    /// let signer = Arc::new(SigningKey::<Sha256>::new(key.coalescing()));
    /// let threads: Vec<_> = (0..4)
    ///     .map(|i| {
    ///         let signer = Arc::clone(&signer);
    ///         std::thread::spawn(move || {
    ///             let msg = format!("request {i}");
    ///             signer.sign_with_rng(&mut rsatool_rsa::os_rng(), msg.as_bytes()).to_vec()
    ///         })
    ///     })
    ///     .collect();
    /// for t in threads {
    ///     assert_eq!(t.join().unwrap().len(), 256);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn coalescing(self) -> Self {
        let passes = std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN);
        self.coalescing_passes(passes)
    }

    /// [`RsaPrivateKey::coalescing`] with at most `passes` passes at once instead of one per
    /// core: fewer leave cores to other work, and make callers meet (and wait) sooner.
    #[must_use]
    pub fn coalescing_passes(mut self, passes: NonZeroUsize) -> Self {
        self.coalescer =
            crate::key::CoalescerSlot(Some(std::boxed::Box::new(Coalescer::new(passes))));
        self
    }

    /// Whether the key's private operations are coalesced ([`RsaPrivateKey::coalescing`]), and
    /// then how many passes may run at once.
    pub fn coalescing_passes_allowed(&self) -> Option<NonZeroUsize> {
        self.coalescer
            .0
            .as_ref()
            .and_then(|c| NonZeroUsize::new(c.passes()))
    }
}

#[cfg(test)]
mod tests {
    //! Coalesced results against the public operation under many threads; callers queued on
    //! purpose (a pass held "running") to prove grouping, per-caller errors and faults, a
    //! leader's panic and a key dropped while callers wait. The hooks make callers group even
    //! where the eight lanes do not run (no IFMA), so that the meeting logic is tested on every
    //! machine; where they run, the passes are real eight-lane batches.
    // Test code: `unwrap` is the assertion.
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::Error;
    use crate::hazmat::{PrivateOp, PublicOp};
    use rand_chacha::ChaCha20Rng;
    use rand_core::{Rng, SeedableRng};
    use std::boxed::Box;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
    use std::sync::{Arc, OnceLock};
    use std::vec;

    /// What the tests steer and observe.
    #[derive(Default)]
    pub(super) struct Hooks {
        /// Group callers even where the eight lanes do not run.
        pub(super) group_anyway: AtomicBool,
        /// The next this many passes panic before they compute.
        pub(super) panics: AtomicUsize,
        /// The next this many requests are corrupted (a wrong half: a fault).
        pub(super) corrupt: AtomicUsize,
        /// The size of every pass that ran.
        pub(super) passes: Mutex<Vec<usize>>,
    }

    /// Takes one from `n` if it is not zero.
    fn take(n: &AtomicUsize) -> bool {
        n.fetch_update(Relaxed, Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }

    impl Hooks {
        pub(super) fn arrive(&self, key: &RsaPrivateKey, mut input: CrtInput) -> (CrtInput, bool) {
            if take(&self.corrupt) {
                input.corrupt_for_tests(key);
            }
            (input, self.group_anyway.load(Relaxed))
        }

        pub(super) fn pass(&self, size: usize) {
            self.passes.lock().unwrap().push(size);
            if take(&self.panics) {
                panic!("coalesce: a leader's test panic");
            }
        }
    }

    /// A 1024-bit key (made once; four items of its 512-bit primes fill the eight lanes where
    /// IFMA runs), coalescing with at most `passes` passes and grouping on every machine.
    fn key(passes: usize) -> RsaPrivateKey {
        static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
        let key = KEY
            .get_or_init(|| RsaPrivateKey::new(&mut ChaCha20Rng::seed_from_u64(48), 1024).unwrap())
            .clone()
            .coalescing_passes(NonZeroUsize::new(passes).unwrap());
        hooks(&key).group_anyway.store(true, Relaxed);
        key
    }

    fn coalescer(key: &RsaPrivateKey) -> &Coalescer {
        key.coalescer.0.as_ref().unwrap()
    }

    fn hooks(key: &RsaPrivateKey) -> &Hooks {
        &coalescer(key).hooks
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

    /// Nothing is left behind: no request queued, no result uncollected, no pass running.
    fn assert_idle(key: &RsaPrivateKey) {
        let state = coalescer(key).lock();
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

    /// Holds a pass running on `c` (a key allowed one), so that every caller queues.
    fn hold(c: &Coalescer) {
        c.lock().running += 1;
    }

    /// Once `queued` requests wait, ends the held pass as a pass that ends does: one more may
    /// start, the oldest queued caller is woken.
    fn release_when_queued(c: &Coalescer, queued: usize) {
        while c.lock().queue.len() < queued {
            std::thread::yield_now();
        }
        let mut state = c.lock();
        state.running -= 1;
        wake_oldest(&state);
    }

    /// Runs `calls` (one thread each) while a pass is held running ([`hold`]), and releases it
    /// once `queued` requests wait. Returns each thread's outcome (a panic as `Err`).
    fn queued_calls(
        key: &Arc<RsaPrivateKey>,
        queued: usize,
        calls: Vec<Call<'_>>,
    ) -> Vec<std::thread::Result<Result<Vec<u8>>>> {
        let c = coalescer(key);
        hold(c);
        std::thread::scope(|s| {
            let handles: Vec<_> = calls
                .into_iter()
                .map(|call| {
                    let key = Arc::clone(key);
                    s.spawn(move || {
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| call(&key)))
                    })
                })
                .collect();
            release_when_queued(c, queued);
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
        let passes = hooks(&key).passes.lock().unwrap();
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
        let out = queued_calls(&key, 6, private_op_calls(&cases, 10));
        for ((m, _), r) in cases.iter().zip(out) {
            assert_eq!(&r.unwrap().unwrap(), m);
        }
        // Six queued: the oldest leads four; the last two (not a full group, so no extra pass)
        // wait for the served callers to pick up, then the older of them leads both.
        assert_eq!(*hooks(&key).passes.lock().unwrap(), [4, 2]);
    }

    #[test]
    fn a_caller_alone_runs_alone_at_once() {
        let key = key(1);
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        for _ in 0..3 {
            let (m, c) = case(&key, &mut rng);
            assert_eq!(key.private_op(&mut rng, &c).unwrap(), m);
        }
        assert_eq!(*hooks(&key).passes.lock().unwrap(), [1, 1, 1]);
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
        let out = queued_calls(&key, 3, calls);
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
        assert_eq!(*hooks(&key).passes.lock().unwrap(), [3]);
    }

    #[test]
    fn a_leader_that_panics_leaves_the_others_their_results() {
        let (key, cases) = shared_key_and_cases(6, 4);
        hooks(&key).panics.store(1, Relaxed);
        let out = queued_calls(&key, 4, private_op_calls(&cases, 7));
        let mut panicked = 0;
        for ((m, _), r) in cases.iter().zip(out) {
            match r {
                Ok(r) => assert_eq!(&r.unwrap(), m),
                Err(_) => panicked += 1,
            }
        }
        assert_eq!(panicked, 1, "the leader's caller alone sees the panic");
        // The panicked pass of four, then the three others again, led by the next oldest.
        assert_eq!(*hooks(&key).passes.lock().unwrap(), [4, 3]);
        assert_idle(&key);
    }

    #[test]
    fn dropping_a_handle_of_the_key_while_callers_wait_harms_none() {
        let (key, cases) = shared_key_and_cases(8, 3);
        let c = coalescer(&key);
        hold(c);
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
        release_when_queued(c, 3);
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
        assert!(!core::ptr::eq(coalescer(&key), coalescer(&clone)));
        let plain = RsaPrivateKey::new(&mut ChaCha20Rng::seed_from_u64(9), 1024).unwrap();
        assert_eq!(plain.coalescing_passes_allowed(), None);
    }
}
