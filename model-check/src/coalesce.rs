//! The coalescing key's meeting point (`rsa/src/coalesce/meeting.rs`) under loom: two and
//! three callers, one pass at a time, groups of two (so that full groups, extra passes and
//! results left to pick up all occur with this few callers) and of four (the real size), and a
//! pass that panics on a poisoned request. In every interleaving (within a preemption bound of
//! two) each caller must end with its own result (its input times ten; a poisoned one's panic
//! on its own thread only) and the meeting point idle: nothing queued, nothing left to pick up,
//! no pass counted as running.

mod sync;

#[path = "../../rsa/src/coalesce/meeting.rs"]
// What the production code uses and the model does not: `passes`.
#[allow(dead_code)]
mod meeting;

use loom::sync::Arc;
use loom::thread;
use meeting::{Meeting, Work};
use std::vec::Vec;

/// An input that panics, in a pass or alone.
const POISON: u32 = 0;

/// Each input times ten; a pass takes a second of the model's clock.
struct TimesTen;

impl Work for TimesTen {
    type Input = u32;
    type Output = u32;

    fn pass(&self, inputs: &[&u32]) -> Vec<u32> {
        sync::pass_takes_a_second();
        inputs.iter().map(|&&x| times_ten(x)).collect()
    }

    fn alone(&self, input: u32) -> u32 {
        times_ten(input)
    }
}

fn times_ten(x: u32) -> u32 {
    assert_ne!(x, POISON, "poisoned input");
    x * 10
}

/// Nothing left behind.
fn assert_idle(m: &Meeting<u32, u32>) {
    let state = m.lock();
    assert!(state.queue.is_empty(), "a request left queued");
    assert!(state.done.is_empty(), "a result left to pick up");
    assert_eq!(state.running, 0, "a pass left running");
}

/// Runs `inputs` as callers of one meeting point (one pass at a time, at most `group`
/// requests a pass), the first on the model's main thread and each other on a thread of its
/// own, with the clock; checks each caller's outcome and that the meeting point ends idle.
///
/// The clock: timed waits are parks that an unpark or the clock's one tick ends; the tick
/// comes at any moment, moves the clock past every bound and unparks every caller. Before it
/// and after it, only unparks wake anyone: so the model also proves that no caller depends on
/// a timeout to be woken, the one tick aside.
fn callers(group: usize, inputs: &[u32]) {
    let m = Arc::new(Meeting::<u32, u32>::new(1, group));
    // The callers' handles, as the meeting point sees them.
    let callers: Vec<sync::Thread> = inputs.iter().map(|_| sync::Thread::new()).collect();
    let threads: Vec<_> = inputs
        .iter()
        .zip(&callers)
        .skip(1)
        .map(|(&x, me)| {
            let (m, me) = (Arc::clone(&m), me.clone());
            thread::spawn(move || {
                sync::adopt(me);
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| m.run(&TimesTen, x)))
            })
        })
        .collect();
    let all = callers.clone();
    let clock = thread::spawn(move || {
        sync::tick();
        all.iter().for_each(sync::Thread::unpark);
    });
    sync::adopt(callers[0].clone());
    let mut outcomes = vec![std::panic::catch_unwind(std::panic::AssertUnwindSafe(
        || m.run(&TimesTen, inputs[0]),
    ))];
    outcomes.extend(threads.into_iter().map(|t| t.join().unwrap()));
    clock.join().unwrap();
    for (x, outcome) in inputs.iter().zip(outcomes) {
        match outcome {
            Ok(y) => assert_eq!(y, x * 10, "a caller got another's result"),
            Err(_) => assert_eq!(*x, POISON, "an innocent caller got a panic"),
        }
    }
    assert_idle(&m);
}

/// A panic hook that stays silent for the poisoned inputs' panics (loom runs thousands of
/// interleavings) and reports every other.
fn quiet_poison() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let poison = info
            .payload()
            .downcast_ref::<String>()
            .is_some_and(|m| m.contains("poisoned input"));
        if !poison {
            default(info);
        }
    }));
}

fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(2);
    builder.check(f);
}

#[test]
fn two_callers_in_groups_of_two() {
    model(|| callers(2, &[1, 2]));
}

#[test]
fn three_callers_in_groups_of_two() {
    model(|| callers(2, &[1, 2, 3]));
}

#[test]
fn three_callers_in_groups_of_four() {
    model(|| callers(4, &[1, 2, 3]));
}

#[test]
fn three_callers_one_poisoned() {
    quiet_poison();
    model(|| callers(4, &[1, POISON, 3]));
}

#[test]
fn three_callers_the_first_poisoned() {
    quiet_poison();
    model(|| callers(2, &[POISON, 2, 3]));
}
