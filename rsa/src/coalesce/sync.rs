//! What the meeting point (`meeting.rs`) takes from the platform: std's mutex, atomics,
//! threads and clock, and the process id. `model-check/` compiles `meeting.rs` against a module
//! of this name of its own, with loom's versions, so nothing here may hold logic that the model
//! would then not see.

pub(crate) use std::process::id as process_id;
pub(crate) use std::sync::atomic::{AtomicU32, Ordering};
pub(crate) use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};
pub(crate) use std::thread::{Thread, current, park, park_timeout, yield_now};
pub(crate) use std::time::Instant;
