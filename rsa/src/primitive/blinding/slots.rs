//! The table of slots that keeps a key's blinding pairs, generic over the pair: which slot an
//! operation takes, when its pair is used again, and when a fresh one is drawn (the parent
//! module's documentation has the rules). The locks come through `super::sync`, so that
//! `model-check/` can compile this same file against loom's mutex and explore every
//! interleaving of a few operations, with a counter in place of the pair.

use alloc::boxed::Box;

use super::sync::{Lock, try_lock};

/// Uses of one kept pair (the draw's own use and the squared ones) before a new one is
/// drawn: OpenSSL's `BN_BLINDING_COUNTER`.
pub(crate) const REFRESH_USES: u32 = 32;

/// Pairs kept per key: more than the threads that can be inside a slot's short critical
/// section at once (a microsecond of an operation's hundreds; twenty every
/// [`REFRESH_USES`] uses), with room to spare for many-core machines.
pub(crate) const SLOTS: usize = 8;

/// Where the pairs come from and how one moves on.
pub(crate) trait Source {
    /// A blinding pair.
    type Pair;

    /// The pair's next power, in place, and a copy of it for this operation.
    fn next(&mut self, pair: &mut Self::Pair) -> Self::Pair;

    /// A fresh pair for this operation, and a copy of it to keep for the next ones (none if it
    /// must not be kept: it may come from a stuck RNG).
    fn fresh(&mut self) -> (Self::Pair, Option<Self::Pair>);
}

/// The table: [`SLOTS`] slots, each empty or holding a pair.
pub(crate) struct Slots<P> {
    pub(super) slots: Box<[Slot<P>; SLOTS]>,
}

/// One slot of the table, on 128 bytes of its own (the parent module's documentation says
/// why), only ever taken with `try_lock`.
#[repr(align(128))]
pub(crate) struct Slot<P>(pub(super) Lock<Option<Kept<P>>>);

/// A kept pair, how many operations have used it, and the process that drew or last used it.
pub(crate) struct Kept<P> {
    pub(super) pair: P,
    pub(super) uses: u32,
    pub(super) pid: u32,
}

impl<P> Slots<P> {
    /// A table of empty slots.
    pub(crate) fn new() -> Self {
        Slots {
            slots: Box::new(core::array::from_fn(|_| Slot(Lock::new(None)))),
        }
    }

    /// The pair of one operation in process `pid`: the next power of the pair of the first
    /// slot that is free, if that pair has uses left and was last used by this process; else
    /// a fresh one from `source`, kept in that slot (if `source` allows). With every slot held
    /// by another operation (never waited for), a fresh one kept nowhere.
    pub(crate) fn take<S: Source<Pair = P>>(&self, source: &mut S, pid: u32) -> P {
        for slot in self.slots.iter() {
            let Some(mut slot) = try_lock(&slot.0) else {
                // Held by another operation for a moment (or, in a child process, forever):
                // the next slot.
                continue;
            };
            if let Some(kept) = slot
                .as_mut()
                .filter(|k| k.uses < REFRESH_USES && k.pid == pid)
            {
                kept.uses += 1;
                return source.next(&mut kept.pair);
            }
            // Empty, used up, or another process's: drop (and so wipe) the old pair first.
            *slot = None;
            let (pair, keep) = source.fresh();
            *slot = keep.map(|pair| Kept { pair, uses: 1, pid });
            return pair;
        }
        source.fresh().0
    }

    /// Drops the kept pairs, but those another operation holds at this moment.
    pub(crate) fn forget(&self) {
        for slot in self.slots.iter() {
            if let Some(mut slot) = try_lock(&slot.0) {
                *slot = None;
            }
        }
    }
}
