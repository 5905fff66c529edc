//! CPU feature detection, done once per process, and the proof tokens that gate the assembly.
//!
//! A token such as [`Adx`] is a zero-sized value that only this module can make, and only after
//! the CPU said it has the features. The assembly back ends in `mpn` can be reached only through
//! a function that takes the token, so no code path runs `mulx`/`adcx`/`adox` on a CPU without
//! them.
//!
//! # How, with and without `std`
//!
//! The result is cached in one `core::sync::atomic::AtomicU8` (a bit per feature and a bit
//! that says "detected"), in both builds: a relaxed load on every call, no lock, nothing from
//! `std`. Two threads that race on the first call both run the detection and store the same
//! byte, so the race is harmless and needs no `OnceLock`.
//!
//! With the `std` feature (the default), the features come from `std`'s
//! `is_x86_feature_detected!`, and `BIGNUM_VALGRIND_ADX` may add ADX under valgrind (see
//! [`VALGRIND_ADX_ENV`]). Without `std` that macro does not exist, so this module asks the CPU
//! itself: CPUID leaf 7 for BMI2, ADX, AVX2, AVX-512 F, VL and IFMA, and for the vector
//! features CPUID leaf 1's OSXSAVE bit and then XCR0 (`xgetbv`), which says whether the
//! operating system saves the YMM state (bits 1 and 2, for AVX2) and the AVX-512 state (bits 5
//! to 7: the mask registers and the upper ZMM halves). A CPU that has AVX-512 under an OS that
//! does not save its registers must not use it, which is the check `std` makes too; a test
//! proves the two detections agree on the machine it runs on. Run-time detection rather than
//! a compile-time choice (`cfg(target_feature)`): a `no_std` firmware or bootloader image is
//! usually built once for a family of CPUs, and compile-time features would either leave the
//! fast paths out or run them where they fault.
//!
//! [`VALGRIND_ADX_ENV`]: crate::cpu::VALGRIND_ADX_ENV

use core::sync::atomic::{AtomicU8, Ordering};

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

internal! {
    /// Bits of the cached feature byte.
    const ADX: u8 = 1;
    const AVX2: u8 = 1 << 1;
    const IFMA: u8 = 1 << 2;
}

/// Set once the other bits hold the detected features.
const DETECTED: u8 = 1 << 7;

/// The cached feature byte of [`detect`]: 0 until the first call.
static FEATURES: AtomicU8 = AtomicU8::new(0);

/// The features of this CPU, detected on the first call and cached for the process.
///
/// Every kernel call of the dispatch table passes through here (`mpn::kernels()` rebuilds its
/// ADX token from it), so the cached path is inlined and the detection kept out of line: with
/// the detection inlined here, each call paid its frame (six pushes and pops and a 248-byte
/// stack frame), a few percent of an exponentiation on the ADX back end (measured: see
/// docs/benchmarks-log.md, "The ADX kernels' profile").
#[inline]
pub fn detect() -> Features {
    // Relaxed: the byte is the whole message, no other memory is published with it.
    let mut bits = FEATURES.load(Ordering::Relaxed);
    if bits & DETECTED == 0 {
        bits = detect_first();
    }
    Features {
        adx: (bits & ADX != 0).then_some(Adx { _proof: () }),
        avx2: (bits & AVX2 != 0).then_some(Avx2 { _proof: () }),
        ifma: (bits & IFMA != 0).then_some(Ifma { _proof: () }),
    }
}

/// The first call of [`detect`]: detects and caches the feature byte.
#[cold]
#[inline(never)]
fn detect_first() -> u8 {
    let bits = DETECTED | detect_bits();
    FEATURES.store(bits, Ordering::Relaxed);
    bits
}

/// A proof token for AVX-512 F + VL + IFMA, if this CPU has all three.
#[inline]
pub fn ifma() -> Option<Ifma> {
    detect().ifma
}

/// The feature bits, through `std`'s detection (and the valgrind override for ADX).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn detect_bits() -> u8 {
    let mut bits = std_bits();
    if kernel_reports_adx_under_valgrind() {
        bits |= ADX;
    }
    bits
}

/// The feature bits, from CPUID and XCR0 (no `std`).
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn detect_bits() -> u8 {
    cpuid_bits()
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_bits() -> u8 {
    0
}

internal! {
    /// The feature bits as `std`'s `is_x86_feature_detected!` sees them.
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    fn std_bits() -> u8 {
        use std::arch::is_x86_feature_detected as has;
        let mut bits = 0;
        if has!("bmi2") && has!("adx") {
            bits |= ADX;
        }
        if has!("avx2") {
            bits |= AVX2;
        }
        if has!("avx512f") && has!("avx512vl") && has!("avx512ifma") {
            bits |= IFMA;
        }
        bits
    }

    /// The feature bits from the CPU itself: CPUID leaves 0, 1 and 7, and XCR0 for the vector
    /// registers the operating system saves (see the module documentation).
    #[cfg(target_arch = "x86_64")]
    #[cfg_attr(all(feature = "std", not(feature = "test-hooks")), allow(dead_code))]
    fn cpuid_bits() -> u8 {
        use core::arch::x86_64::{__cpuid, __cpuid_count};
        let bit = |reg: u32, n: u32| (reg >> n) & 1 == 1;
        if __cpuid(0).eax < 7 {
            return 0;
        }
        let leaf1 = __cpuid(1);
        let leaf7 = __cpuid_count(7, 0).ebx;
        // XSAVE (ECX bit 26) and OSXSAVE (bit 27): xgetbv exists and the OS enabled it.
        let xcr0 = if bit(leaf1.ecx, 26) && bit(leaf1.ecx, 27) {
            xcr0()
        } else {
            0
        };
        // XMM and YMM state (bits 1, 2); opmask, ZMM_Hi256 and Hi16_ZMM state (bits 5, 6, 7).
        let os_ymm = xcr0 & 0x06 == 0x06;
        let os_zmm = os_ymm && xcr0 & 0xe0 == 0xe0;
        let mut bits = 0;
        // Leaf 7 EBX: BMI2 is bit 8, ADX 19, AVX2 5, AVX-512 F 16, IFMA 21, VL 31.
        if bit(leaf7, 8) && bit(leaf7, 19) {
            bits |= ADX;
        }
        if os_ymm && bit(leaf7, 5) {
            bits |= AVX2;
        }
        if os_zmm && bit(leaf7, 16) && bit(leaf7, 21) && bit(leaf7, 31) {
            bits |= IFMA;
        }
        bits
    }
}

/// XCR0, the register of the state components the operating system saves.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(all(feature = "std", not(feature = "test-hooks")), allow(dead_code))]
#[allow(unsafe_code)] // xgetbv is an unsafe fn of the xsave feature; see the SAFETY note
fn xcr0() -> u64 {
    #[target_feature(enable = "xsave")]
    unsafe fn xgetbv0() -> u64 {
        // SAFETY: xgetbv(0) reads XCR0 and touches no memory; the caller checked the feature.
        unsafe { core::arch::x86_64::_xgetbv(0) }
    }
    // SAFETY: only called after CPUID leaf 1 reported XSAVE and OSXSAVE, so the CPU has the
    // instruction and the OS has enabled it (CR4.OSXSAVE).
    unsafe { xgetbv0() }
}

/// A proof token for BMI2 + ADX, if this CPU has both.
#[inline]
pub fn adx() -> Option<Adx> {
    detect().adx
}

/// A proof token for AVX2, if this CPU has it (valgrind reports AVX2 truthfully, unlike ADX).
#[inline]
pub fn avx2() -> Option<Avx2> {
    detect().avx2
}

/// Who made this CPU and which one it is, from CPUID leaves 0 and 1: what the choice of the
/// 52-bit engine's shape (`backend`) keys its table by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The vendor string of leaf 0 (`AuthenticAMD`, `GenuineIntel`), as bytes.
    pub vendor: [u8; 12],
    /// The display family: the base family, plus the extended family where the base is 15.
    pub family: u32,
    /// The display model: the base model, plus the extended model × 16 for families 6 and 15
    /// and above.
    pub model: u32,
}

impl Identity {
    /// The vendor string as text (`?` where a byte is not ASCII).
    pub fn vendor_str(&self) -> &str {
        core::str::from_utf8(&self.vendor).unwrap_or("?")
    }

    /// The identity of this CPU (none off x86-64). CPUID is cheap on bare metal but traps to
    /// the hypervisor in a VM: callers cache what they derive from it.
    pub fn of_this_cpu() -> Option<Identity> {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::__cpuid;
            let leaf0 = __cpuid(0);
            let mut vendor = [0u8; 12];
            for (i, reg) in [leaf0.ebx, leaf0.edx, leaf0.ecx].into_iter().enumerate() {
                vendor[4 * i..4 * i + 4].copy_from_slice(&reg.to_le_bytes());
            }
            let eax = __cpuid(1).eax;
            let base_family = (eax >> 8) & 0xf;
            let family = if base_family == 0xf {
                base_family + ((eax >> 20) & 0xff)
            } else {
                base_family
            };
            let base_model = (eax >> 4) & 0xf;
            let model = if family == 6 || family >= 0xf {
                base_model + (((eax >> 16) & 0xf) << 4)
            } else {
                base_model
            };
            Some(Identity {
                vendor,
                family,
                model,
            })
        }
        #[cfg(not(target_arch = "x86_64"))]
        None
    }
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
#[cfg(all(target_arch = "x86_64", feature = "std"))]
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
            let mut flags = l.split_whitespace();
            flags.clone().any(|f| f == "adx") && flags.any(|f| f == "bmi2")
        })
}
