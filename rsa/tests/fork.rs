//! `fork()` with keys in use: a child process must never blind with a value its parent will
//! use too, must pass over a blinding slot held at the instant of the fork, and its callers of
//! a coalescing key must finish whatever the parent's threads were doing in the meeting point
//! (a pass running, callers queued, its mutex held). Each test really forks; the child reports
//! through a pipe and leaves with `_exit`, and a child that does not finish in time is killed
//! and fails the test. The blinding values are read through the `test-hooks` doors; the
//! oracle of every result is the message whose ciphertext was given (c = m^e by the public
//! operation, so the private operation must give m back).
#![cfg(unix)]
// Test code: `fork`, `pipe` and friends are the subject; `unwrap` is the assertion.
#![allow(unsafe_code, clippy::unwrap_used)]

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use rsatool_rsa::RsaPrivateKey;
use rsatool_rsa::hazmat::{PrivateOp, PublicOp};

/// One fork at a time in this binary: a child inherits only the forking thread, and another
/// test's threads could hold a lock that the child then needs.
static ONE_FORK_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Holds [`ONE_FORK_AT_A_TIME`] for the test that calls it (a test that failed while holding
/// it does not stop the others).
fn one_fork_at_a_time() -> MutexGuard<'static, ()> {
    ONE_FORK_AT_A_TIME
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

/// How long a child may take before it is killed and its test fails.
const CHILD_DEADLINE: Duration = Duration::from_secs(120);

/// A 1024-bit key from `seed`.
fn key(seed: u64) -> RsaPrivateKey {
    RsaPrivateKey::new(&mut ChaCha20Rng::seed_from_u64(seed), 1024).unwrap()
}

/// A message representative and its ciphertext.
type Case = (Vec<u8>, Vec<u8>);

/// A random message representative below n (from `seed`) and its ciphertext.
fn case(key: &RsaPrivateKey, seed: u64) -> Case {
    let mut m = vec![0u8; key.size()];
    ChaCha20Rng::seed_from_u64(seed).fill_bytes(&mut m[1..]);
    let c = key.public_key().public_op(&m).unwrap();
    (m, c)
}

/// Whether the private operation gives back the case's message (blinded from the operating
/// system's RNG, as a server's would be).
fn op(key: &RsaPrivateKey, (m, c): &Case) -> bool {
    key.private_op(&mut rsatool_rsa::os_rng(), c)
        .is_ok_and(|out| out == *m)
}

/// `key` and a [`case`] for it from `seed`, on which the parent has run the private operation
/// once (the key's first blinding slot holds the pair it drew).
fn used_once(key: RsaPrivateKey, seed: u64) -> (RsaPrivateKey, Case) {
    let case = case(&key, seed);
    assert!(op(&key, &case));
    (key, case)
}

/// The blinding pair in the key's first slot (the one the last operation used, when it took
/// that slot), as bytes: empty if the slot is empty or held.
fn first_pair(key: &RsaPrivateKey) -> Vec<u8> {
    let mut bytes = Vec::new();
    key.with_cached_blinding_for_ct_tests(|pair| {
        for limbs in pair {
            bytes.extend(limbs.iter().flat_map(|l| l.to_le_bytes()));
        }
    });
    bytes
}

/// A child's report that the meeting point's state could not be read (its mutex was held
/// at the fork).
const UNREADABLE: u8 = u8::MAX;

/// Waits until `done` holds (at most a minute).
fn wait_until(done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(60), "timed out");
        std::thread::yield_now();
    }
}

/// Runs `child` in a child process made by `fork()`: what it returned, or why there is none
/// (it panicked, or did not finish within [`CHILD_DEADLINE`] and was killed).
fn in_child(child: impl FnOnce() -> Vec<u8>) -> Result<Vec<u8>, String> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `pipe` writes two file descriptors into the two-element array it is given.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Err("pipe failed".into());
    }
    let [read_end, write_end] = fds;
    // SAFETY: the child runs only `child` (operations on keys of this test, whose locks the
    // test holds on purpose or not at all) and `write` on the pipe, then leaves with `_exit`,
    // which runs no destructor and no handler of the parent.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err("fork failed".into());
    }
    if pid == 0 {
        let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(child))
            .unwrap_or_else(|_| b"the child panicked".to_vec());
        let mut rest = report.as_slice();
        while !rest.is_empty() {
            // SAFETY: writes from a live slice, at most its length.
            let n = unsafe { libc::write(write_end, rest.as_ptr().cast(), rest.len()) };
            let Ok(n) = usize::try_from(n) else { break };
            rest = &rest[n.min(rest.len())..];
        }
        // SAFETY: ends the child at once (see the fork's comment).
        unsafe { libc::_exit(0) }
    }
    // SAFETY: the parent's copy of the write end, which it does not use.
    unsafe { libc::close(write_end) };
    let deadline = Instant::now() + CHILD_DEADLINE;
    let mut out = Vec::new();
    let finished = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break false;
        }
        let mut poll = libc::pollfd {
            fd: read_end,
            events: libc::POLLIN,
            revents: 0,
        };
        let wait = i32::try_from(left.as_millis().min(1000)).unwrap_or(1000);
        // SAFETY: one valid `pollfd`.
        if unsafe { libc::poll(&mut poll, 1, wait) } <= 0 {
            continue;
        }
        let mut buf = [0u8; 4096];
        // SAFETY: reads into a live buffer, at most its length.
        let n = unsafe { libc::read(read_end, buf.as_mut_ptr().cast(), buf.len()) };
        match usize::try_from(n) {
            Ok(0) => break true,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            // A signal interrupted the read: read again. Any other error ends the reading.
            Err(_) if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {
            }
            Err(_) => break true,
        }
    };
    if !finished {
        // SAFETY: the child this call made, which has not been waited for.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let mut status = 0;
    // SAFETY: waits for the child this call made, into a live integer.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    // SAFETY: the read end, no longer used.
    unsafe { libc::close(read_end) };
    if !finished {
        return Err("the child did not finish: killed".into());
    }
    if !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        return Err(format!("the child ended with status {status}"));
    }
    Ok(out)
}

#[test]
fn parent_and_child_never_blind_with_the_same_value() {
    let _one = one_fork_at_a_time();
    // The parent signs once: its first slot holds the pair r it drew, whose next use would be
    // r². Without fork detection, parent and child would each blind with that r².
    let (key, case) = used_once(key(1), 2);
    let child = in_child(|| {
        let mut report = vec![u8::from(op(&key, &case))];
        report.extend(first_pair(&key));
        report
    })
    .unwrap();
    assert!(op(&key, &case));
    let parent = first_pair(&key);
    assert_eq!(child.first(), Some(&1), "the child's result");
    assert!(!parent.is_empty() && child.len() == parent.len() + 1);
    assert_ne!(
        child[1..],
        parent[..],
        "parent and child blinded with one value"
    );
}

#[test]
fn a_blinding_slot_held_at_the_fork_is_passed_over_in_the_child() {
    let _one = one_fork_at_a_time();
    let (key, case) = used_once(key(3), 4);
    // The first slot is held at the instant of the fork (an operation of another thread is
    // inside it): in the child it stays held forever, and operations must take the next
    // slots rather than wait for it (a wait would never end: the child is killed and the
    // test fails).
    let child = key
        .with_blinding_slot_held_for_tests(0, || {
            in_child(|| vec![u8::from((0..3).all(|_| op(&key, &case)))])
        })
        .unwrap();
    assert_eq!(child, [1], "the child's results");
    assert!(op(&key, &case));
}

#[test]
fn a_fork_while_another_thread_runs_a_pass_leaves_the_childs_callers_free() {
    let _one = one_fork_at_a_time();
    let key = Arc::new(key(5).coalescing_everywhere_for_tests(NonZeroUsize::MIN));
    let cases: Vec<Case> = (0..6).map(|i| case(&key, 10 + i)).collect();
    assert!(op(&key, &cases[0]));
    // In the parent: a pass running (held before it computes) and two callers queued behind
    // it, which the one pass allowed keeps waiting.
    key.hold_coalesced_passes_for_tests(true);
    let (child, leader, queued) = std::thread::scope(|s| {
        let leader = s.spawn(|| op(&key, &cases[0]));
        wait_until(|| key.coalescing_state_for_tests().is_some_and(|s| s[0] == 1));
        let queued: Vec<_> = cases[1..3]
            .iter()
            .map(|c| s.spawn(|| op(&key, c)))
            .collect();
        wait_until(|| key.coalescing_state_for_tests().is_some_and(|s| s[1] == 2));
        // The child's copy counts that pass as running and holds those requests: its own
        // three callers (fewer than a group of four) must not wait for them, and the first
        // clears what the parent's threads left. The queued callers take the mutex for a
        // moment each time they wake; a fork at such a moment leaves it held in the child,
        // whose callers then run alone and whose state cannot be read: fork again.
        let child = (0..8)
            .map(|_| {
                in_child(|| {
                    let ok = std::thread::scope(|s| {
                        let callers: Vec<_> = cases[3..]
                            .iter()
                            .map(|c| s.spawn(|| (0..2).all(|_| op(&key, c))))
                            .collect();
                        callers.into_iter().all(|c| c.join().unwrap_or(false))
                    });
                    let left = key.coalescing_state_for_tests().map_or(
                        UNREADABLE,
                        |[_, queued, running, done]| {
                            u8::try_from(queued + running + done).unwrap_or(u8::MAX - 1)
                        },
                    );
                    vec![u8::from(ok), left]
                })
            })
            .find(|child| {
                child
                    .as_ref()
                    .map_or(true, |c| c.get(1) != Some(&UNREADABLE))
            });
        key.hold_coalesced_passes_for_tests(false);
        let queued: Vec<bool> = queued.into_iter().map(|q| q.join().unwrap()).collect();
        (child, leader.join().unwrap(), queued)
    });
    let child = child.expect("a child found the meeting point's mutex free in one of 8 forks");
    assert_eq!(child.unwrap(), [1, 0], "(results right, state left)");
    assert!(leader && queued == [true, true], "the parent's callers");
    assert_eq!(
        key.coalescing_state_for_tests().map(|s| s[1..].to_vec()),
        Some(vec![0, 0, 0])
    );
}

#[test]
fn a_fork_while_the_meeting_points_mutex_is_held_leaves_the_childs_callers_free() {
    let _one = one_fork_at_a_time();
    let (key, case) = used_once(key(7).coalescing_everywhere_for_tests(NonZeroUsize::MIN), 8);
    // A thread of the parent holds the mutex at the instant of the fork: in the child nobody
    // ever releases it, and the child's calls run alone.
    let child = key.with_coalescer_locked_for_tests(|| {
        in_child(|| vec![u8::from((0..3).all(|_| op(&key, &case)))])
    });
    assert_eq!(child.unwrap(), [1]);
    assert!(op(&key, &case));
}
