//! CPU feature detection, done once per process, and the proof tokens that gate the assembly.
//!
//! A token such as [`Adx`] is a zero-sized value that only this module can make, and only after
//! the CPU said it has the features. The assembly back ends in `mpn` can be reached only through
//! a function that takes the token, so no code path runs `mulx`/`adcx`/`adox` on a CPU without
//! them. Detection uses `std`'s run-time checks (CPUID), cached here in a [`OnceLock`].

use std::sync::OnceLock;

/// Proof that this CPU has BMI2 (`mulx`) and ADX (`adcx`, `adox`).
///
/// Only [`detect`] and [`adx`] construct it (the field is private).
#[derive(Clone, Copy, Debug)]
pub struct Adx {
    _proof: (),
}

/// Proof that this CPU has AVX2 (256-bit integer vectors).
///
/// Only [`detect`] and [`avx2`] construct it (the field is private).
#[derive(Clone, Copy, Debug)]
pub struct Avx2 {
    _proof: (),
}

/// Proof that this CPU has AVX-512 F, VL and IFMA (`vpmadd52luq` / `vpmadd52huq` on 256- and
/// 512-bit registers, with the AVX-512 mask registers), which the 52-bit engine of
/// `modular` needs.
///
/// Only [`detect`] and [`ifma`] construct it (the field is private). Valgrind does not execute
/// AVX-512 and its CPUID does not report it, so under valgrind there is no token.
#[derive(Clone, Copy, Debug)]
pub struct Ifma {
    _proof: (),
}

/// What this CPU offers to the `mpn` back ends, as found by [`detect`].
#[derive(Clone, Copy, Debug)]
pub struct Features {
    /// Set when the CPU has BMI2 and ADX.
    pub adx: Option<Adx>,
    /// Set when the CPU has AVX2.
    pub avx2: Option<Avx2>,
    /// Set when the CPU has AVX-512 F, VL and IFMA.
    pub ifma: Option<Ifma>,
}

/// The features of this CPU, detected on the first call and cached for the process.
pub fn detect() -> Features {
    static FEATURES: OnceLock<Features> = OnceLock::new();
    *FEATURES.get_or_init(|| Features {
        adx: detect_adx(),
        avx2: detect_avx2(),
        ifma: detect_ifma(),
    })
}

/// A proof token for AVX-512 F + VL + IFMA, if this CPU has all three.
pub fn ifma() -> Option<Ifma> {
    detect().ifma
}

#[cfg(target_arch = "x86_64")]
fn detect_ifma() -> Option<Ifma> {
    let has = std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512ifma");
    has.then_some(Ifma { _proof: () })
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_ifma() -> Option<Ifma> {
    None
}

/// A proof token for BMI2 + ADX, if this CPU has both.
pub fn adx() -> Option<Adx> {
    detect().adx
}

/// A proof token for AVX2, if this CPU has it (valgrind reports AVX2 truthfully, unlike ADX).
pub fn avx2() -> Option<Avx2> {
    detect().avx2
}

#[cfg(target_arch = "x86_64")]
fn detect_avx2() -> Option<Avx2> {
    std::arch::is_x86_feature_detected!("avx2").then_some(Avx2 { _proof: () })
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_avx2() -> Option<Avx2> {
    None
}

#[cfg(target_arch = "x86_64")]
fn detect_adx() -> Option<Adx> {
    let cpuid =
        std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("adx");
    (cpuid || kernel_reports_adx_under_valgrind()).then_some(Adx { _proof: () })
}

/// The environment variable that lets the constant-time check run the ADX kernels under
/// valgrind: see `kernel_reports_adx_under_valgrind` in this module.
pub const VALGRIND_ADX_ENV: &str = "BIGNUM_VALGRIND_ADX";

/// Valgrind executes `mulx`, `adcx` and `adox`, but its synthetic CPUID (3.19 up to at least
/// 3.23, valgrind bug 494162) does not report ADX, so under valgrind the detection above picks
/// the portable back end and the constant-time check would never see the assembly. When
/// [`VALGRIND_ADX_ENV`] is set to `1`, trust the kernel's view of the real CPU instead:
/// `/proc/cpuinfo` is written by Linux from the hardware's CPUID, which valgrind does not
/// intercept. The token stays a proof: the features are read from the hardware, only through
/// another door.
#[cfg(target_arch = "x86_64")]
fn kernel_reports_adx_under_valgrind() -> bool {
    if std::env::var_os(VALGRIND_ADX_ENV).is_none_or(|v| v != "1") {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
        return false;
    };
    // Every "flags" line must list both (one line per logical CPU).
    let mut lines = info.lines().filter(|l| l.starts_with("flags")).peekable();
    lines.peek().is_some()
        && lines.all(|l| {
            let flags: Vec<&str> = l.split_whitespace().collect();
            flags.contains(&"adx") && flags.contains(&"bmi2")
        })
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_adx() -> Option<Adx> {
    None
}

/// Reads the time-stamp counter: a constant-rate tick count on current x86-64 CPUs, which is not
/// the core clock when the frequency changes (callers calibrate it against the wall clock).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // the rdtsc intrinsic is an unsafe fn; see the SAFETY note
pub fn tsc() -> u64 {
    // SAFETY: rdtsc exists on every x86-64 CPU, reads no memory and has no preconditions.
    unsafe { core::arch::x86_64::_rdtsc() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adx_token_matches_std_detection() {
        #[cfg(target_arch = "x86_64")]
        let expected = std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("adx");
        #[cfg(not(target_arch = "x86_64"))]
        let expected = false;
        assert_eq!(adx().is_some(), expected);
        assert_eq!(detect().adx.is_some(), expected);
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            avx2().is_some(),
            std::arch::is_x86_feature_detected!("avx2")
        );
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            ifma().is_some(),
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vl")
                && std::arch::is_x86_feature_detected!("avx512ifma")
        );
    }
}
