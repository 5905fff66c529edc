//! What the meeting point (`meeting.rs`) takes from the platform: std's mutex, atomics,
//! threads and clock, and the process id. `model-check/` compiles `meeting.rs` against a module
//! of this name of its own, with loom's versions, so nothing here may hold logic that the model
//! would then not see.

pub(crate) use std::process::id as process_id;
pub(crate) use std::sync::atomic::{AtomicU32, Ordering};
pub(crate) use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};
pub(crate) use std::thread::{Thread, current, park, park_timeout, yield_now};
pub(crate) use std::time::Instant;

/// Called by a waiting caller each time it wakes, before it looks at the state again: nothing,
/// but in the workspace's tests, where it can hold a thread there (`coalesce`'s hooks) as the
/// operating system could hold a descheduled or stopped one.
#[cfg(not(feature = "test-hooks"))]
#[inline(always)]
pub(crate) fn after_wait() {}

#[cfg(feature = "test-hooks")]
pub(crate) use super::hooks::after_wait;
