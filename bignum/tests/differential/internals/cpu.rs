//! `bignum::cpu`: its internals.

use bignum::cpu::*;

/// The identity against Linux's reading of the same CPUID leaves, where there is one.
#[test]
#[cfg(target_arch = "x86_64")]
fn identity_matches_proc_cpuinfo() {
    let id = Identity::of_this_cpu().unwrap();
    let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
        std::println!("skipped: no /proc/cpuinfo");
        return;
    };
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split(':').nth(1))
            .map(|v| std::string::String::from(v.trim()))
    };
    assert_eq!(field("vendor_id").as_deref(), Some(id.vendor_str()));
    assert_eq!(field("cpu family"), Some(std::format!("{}", id.family)));
    assert_eq!(field("model"), Some(std::format!("{}", id.model)));
}

/// The detection of the `no_std` build (CPUID and XCR0 by hand) against `std`'s, on
/// whatever machine runs the tests: the bits must be equal.
#[test]
#[cfg(target_arch = "x86_64")]
fn cpuid_detection_equals_std_detection() {
    let (ours, std) = (cpuid_bits(), std_bits());
    let name = |b: u8| {
        [(ADX, "bmi2+adx"), (AVX2, "avx2"), (IFMA, "avx512f+vl+ifma")]
            .iter()
            .filter(|(f, _)| b & f != 0)
            .map(|(_, n)| *n)
            .collect::<std::vec::Vec<_>>()
    };
    assert_eq!(
        name(ours),
        name(std),
        "CPUID by hand against is_x86_feature_detected!"
    );
    std::println!("CPUID and std agree: {:?}", name(ours));
}

#[test]
fn adx_token_matches_std_detection() {
    #[cfg(target_arch = "x86_64")]
    let expected =
        std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("adx");
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
