//! The lock of the table's slots (`slots.rs`): `spin`'s mutex, only ever asked with `try_lock`
//! (the parent module says why `spin`). `model-check/` compiles `slots.rs` against a module of
//! this name of its own, with loom's mutex, so nothing here may hold logic that the model would
//! then not see.

pub(crate) use spin::mutex::{SpinMutex as Lock, SpinMutexGuard as Guard};

/// The lock if it is free now; never spins or blocks.
pub(crate) fn try_lock<T>(lock: &Lock<T>) -> Option<Guard<'_, T>> {
    lock.try_lock()
}
