//! The machine a run measured on (CPU, flags, cores, load, date) and the rate of its
//! time-stamp counter, for the report's header and the ticks-per-limb columns.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// TSC ticks per second, from a short spin against the monotonic clock.
pub fn tsc_hz() -> f64 {
    let (t0, c0) = (Instant::now(), tsc());
    while t0.elapsed() < Duration::from_millis(50) {}
    let (t1, c1) = (t0.elapsed(), tsc());
    c1.wrapping_sub(c0) as f64 / t1.as_secs_f64()
}

/// The time-stamp counter, for the ticks-per-limb columns. A copy of the `rsatool` CLI's
/// (`cli/src/timing.rs`), whose binary-only crate this one cannot depend on.
#[allow(unsafe_code)] // the rdtsc intrinsic is an unsafe fn; see the SAFETY note
fn tsc() -> u64 {
    // SAFETY: rdtsc exists on every x86-64 CPU, reads no memory and has no preconditions.
    unsafe { core::arch::x86_64::_rdtsc() }
}

/// The machine, for the report: CPU model, the flags that matter, cores, load, date.
pub fn machine() -> Value {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        cpuinfo
            .lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_owned())
            .unwrap_or_default()
    };
    let flags = field("flags");
    let has: Vec<&str> = ["bmi2", "adx", "avx512ifma"]
        .into_iter()
        .filter(|f| flags.split_whitespace().any(|x| x == *f))
        .collect();
    let lacks: Vec<&str> = ["bmi2", "adx", "avx512ifma"]
        .into_iter()
        .filter(|f| !has.contains(f))
        .collect();
    let cores = cpuinfo
        .lines()
        .filter(|l| l.starts_with("processor"))
        .count();
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_default();
    let date = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    json!({
        "cpu": field("model name"),
        "family": field("cpu family"),
        "model": field("model"),
        "logical_cpus": cores,
        "flags": has,
        "lacks": lacks,
        "load_average_1min": load,
        "date": date,
    })
}
