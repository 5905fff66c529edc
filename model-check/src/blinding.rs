//! The blinding table (`rsa/src/primitive/blinding/slots.rs`) under loom: operations on
//! several threads take pairs from one table, the pair a counter (its draw and its power) in
//! place of (r^e, r⁻¹). In every interleaving each power of each draw must serve one operation
//! only, and an operation of another process (after `fork()`) must never get a power of a
//! draw made in the first.

mod sync;

#[path = "../../rsa/src/primitive/blinding/slots.rs"]
// What the production code uses and the model does not: `forget`.
#[allow(dead_code)]
mod slots;

use loom::sync::Arc;
use loom::sync::atomic::{AtomicU32, Ordering};
use loom::thread;
use slots::{Slots, Source};
use std::vec::Vec;

/// A pair: (the draw it comes from, its power: r^(2^power)).
type Pair = (u32, u32);

/// Fresh pairs numbered from a shared counter; `process` notes which process drew each.
struct Counter<'a> {
    draws: &'a AtomicU32,
    process: u32,
    drawn_by: Vec<(u32, u32)>,
}

impl Source for Counter<'_> {
    type Pair = Pair;

    fn next(&mut self, pair: &mut Pair) -> Pair {
        pair.1 += 1;
        *pair
    }

    fn fresh(&mut self) -> (Pair, Option<Pair>) {
        let draw = self.draws.fetch_add(1, Ordering::SeqCst);
        self.drawn_by.push((draw, self.process));
        ((draw, 0), Some((draw, 0)))
    }
}

/// `ops` operations of process `pid` on `slots`: the pairs they used, and the draws made.
fn operations(
    slots: &Slots<Pair>,
    draws: &AtomicU32,
    pid: u32,
    ops: usize,
) -> (Vec<Pair>, Vec<(u32, u32)>) {
    let mut source = Counter {
        draws,
        process: pid,
        drawn_by: Vec::new(),
    };
    let used = (0..ops).map(|_| slots.take(&mut source, pid)).collect();
    (used, source.drawn_by)
}

/// `threads` threads of process 1 with `ops` operations each, then `child_ops` operations of
/// process 2 (a child after `fork()`, with a copy of the table: here the same table, which is
/// what the copy holds), against one table.
fn table(threads: usize, ops: usize, child_ops: usize) {
    let slots = Arc::new(Slots::<Pair>::new());
    let draws = Arc::new(AtomicU32::new(0));
    let handles: Vec<_> = (1..threads)
        .map(|_| {
            let (slots, draws) = (Arc::clone(&slots), Arc::clone(&draws));
            thread::spawn(move || operations(&slots, &draws, 1, ops))
        })
        .collect();
    let mut results = vec![operations(&slots, &draws, 1, ops)];
    results.extend(handles.into_iter().map(|h| h.join().unwrap()));
    let (child_used, _) = operations(&slots, &draws, 2, child_ops);
    let mut used: Vec<Pair> = results.iter().flat_map(|(u, _)| u.clone()).collect();
    let parent_draws: Vec<u32> = results
        .iter()
        .flat_map(|(_, d)| d.iter().map(|&(draw, _)| draw))
        .collect();
    for pair in &child_used {
        assert!(
            !parent_draws.contains(&pair.0),
            "the child used a power of its parent's draw"
        );
    }
    used.extend(child_used);
    let all = used.len();
    used.sort_unstable();
    used.dedup();
    assert_eq!(used.len(), all, "one power served two operations");
}

#[test]
fn two_threads_two_operations_each_then_a_child() {
    loom::model(|| table(2, 2, 2));
}

#[test]
fn three_threads_one_operation_each_then_a_child() {
    loom::model(|| table(3, 1, 1));
}
