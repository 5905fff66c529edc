//! What the CPU can do, detected once, and its time-stamp counter.
#![allow(unsafe_code)] // rdtsc is an intrinsic; see the SAFETY note

/// Reads the time-stamp counter: a constant-rate tick count on current x86-64 CPUs (not the
/// core clock when the frequency changes; callers calibrate it against the wall clock).
#[cfg(target_arch = "x86_64")]
pub fn tsc() -> u64 {
    // SAFETY: rdtsc exists on every x86-64 CPU, reads no memory and has no preconditions.
    unsafe { core::arch::x86_64::_rdtsc() }
}
