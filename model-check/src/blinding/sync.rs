//! The lock of `rsa/src/primitive/blinding/slots.rs` under the model: loom's mutex, asked
//! with `try_lock` only.

pub(crate) use loom::sync::{Mutex as Lock, MutexGuard as Guard};

/// The lock if it is free now.
pub(crate) fn try_lock<T>(lock: &Lock<T>) -> Option<Guard<'_, T>> {
    lock.try_lock().ok()
}
