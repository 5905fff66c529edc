//! x86-64 back ends: safe wrappers around the assembly kernels in `x86_64/`: `adx.rs` (the
//! one-row kernels), `mul.rs` (row loops of the product and of REDC), `sqr.rs` (the square's
//! row ring and its doubling-and-diagonal pass) and `window.rs` (REDC, product and square
//! eight rows per pass with a window of eight limbs in registers, for lengths that are
//! multiples of 8: the RSA sizes), and `mont8.rs` (the Montgomery product and square of eight
//! limbs in one pass each). The table select is in AVX2 intrinsics.
//!
//! The wrappers check the slice lengths with `assert!` before entering the assembly (which reads
//! and writes whole slices by raw pointer, so a mismatch must never reach it), and they are
//! private: the only way to reach them is the table returned by [`kernels`], which takes a
//! [`cpu::Adx`] token, and only `cpu` can make one after detecting BMI2 and ADX.

// Unsafe code is denied in the workspace; this module is one of the two places allowed to use
// it, to call the `#[target_feature]` assembly kernels once the CPU features are proved.
#![allow(unsafe_code)]

mod adx;
internal_mod!(pub(crate) ifma_instructions);
mod mont8;
mod mul;
mod sqr;
mod window;

use super::Kernels;
use crate::cpu;
use crate::limb::Limb;

/// The BMI2/ADX kernels (`mulx`, `adcx`, `adox`).
static ADX: Kernels = Kernels {
    name: "adx",
    add_n: adx_add_n,
    sub_n: adx_sub_n,
    mul_1: adx_mul_1,
    addmul_1: adx_addmul_1,
    submul_1: adx_submul_1,
    mont_mul: adx_mont_mul,
    redc_1: adx_redc_1,
    redc_1_below_r: adx_redc_1_below_r,
    mont_mul_below_r: adx_mont_mul_below_r,
    mont_sqr_below_r: adx_mont_sqr_below_r,
    mul_basecase: adx_mul_basecase,
    sqr_basecase: adx_sqr_basecase,
    tabselect: adx_tabselect,
};

/// The BMI2/ADX back end; the token proves this CPU can run it.
pub fn kernels(adx: cpu::Adx) -> &'static Kernels {
    let _ = adx;
    &ADX
}

fn adx_mul_basecase(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    assert!(
        !a.is_empty() && !b.is_empty() && r.len() == a.len() + b.len(),
        "mul_basecase: length mismatch"
    );
    // SAFETY: lengths checked just above; BMI2 and ADX are present because this function is
    // reachable only through `ADX`, which only `kernels(cpu::Adx)` hands out.
    unsafe { mul::mul_basecase(r, a, b) }
}

fn adx_sqr_basecase(r: &mut [Limb], a: &[Limb]) {
    assert!(
        !a.is_empty() && r.len() == 2 * a.len(),
        "sqr_basecase: length mismatch"
    );
    // SAFETY: lengths checked just above; BMI2 and ADX are present because this function is
    // reachable only through `ADX`, which only `kernels(cpu::Adx)` hands out.
    unsafe { sqr::sqr_basecase(r, a) }
}

/// The asm doubling-and-diagonal pass behind a length check and the CPU's ADX token, for the
/// tests: the kernels reach it inside the whole square.
#[cfg(feature = "test-hooks")]
pub fn adx_sqr_diag_addlsh1(_: cpu::Adx, r: &mut [Limb], a: &[Limb]) {
    assert_eq!(r.len(), 2 * a.len(), "sqr_diag_addlsh1: length mismatch");
    // SAFETY: lengths checked just above; BMI2 and ADX are present, since `cpu::adx()` gives
    // its token only where the CPU has them.
    unsafe { sqr::sqr_diag_addlsh1(r, a) }
}

/// The table select in AVX2 when the CPU has it ([`tabselect_avx2`]), else the portable one.
/// Not an ADX kernel, but every CPU with ADX so far has AVX2, and this back end is the one such
/// CPUs use.
fn adx_tabselect(r: &mut [Limb], table: &[Limb], which: Limb) {
    assert!(
        !r.is_empty() && table.chunks_exact(r.len()).remainder().is_empty(),
        "tabselect: length mismatch"
    );
    match cpu::avx2() {
        // SAFETY: the token proves AVX2.
        Some(_) => unsafe { tabselect_avx2(r, table, which) },
        None => super::portable::tabselect(r, table, which),
    }
}

/// [`crate::mpn::tabselect`] in AVX2 for n = `r.len()` a multiple of 4 (else the portable
/// select with four lanes): r is gathered sixteen limbs at a time (four 256-bit accumulators),
/// or eight or four at its end, in one pass over the entries each. An entry's mask is a vector
/// compare of a running entry count with `which`, so no mask goes through a general register,
/// and every entry is read.
///
/// It is faster than the portable select compiled for AVX2 (scalar masks, opaque to the
/// optimiser, each broadcast per entry); measured: see docs/benchmarks-log.md, "The 64-bit path
/// without IFMA".
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
unsafe fn tabselect_avx2(r: &mut [Limb], table: &[Limb], which: Limb) {
    let n = r.len();
    if n & 3 != 0 {
        super::portable::tabselect_lanes::<4>(r, table, which);
        return;
    }
    let mut lo = 0;
    while lo < n {
        // n − lo is a non-zero multiple of 4, so each arm has lo + 4·V ≤ n.
        lo += match n - lo {
            // SAFETY: AVX2 as above; lo + 16 ≤ n.
            16.. => unsafe { select_vectors::<4>(r, table, which, lo) },
            // SAFETY: AVX2 as above; lo + 8 ≤ n.
            8..=15 => unsafe { select_vectors::<2>(r, table, which, lo) },
            // SAFETY: AVX2 as above; lo + 4 ≤ n.
            _ => unsafe { select_vectors::<1>(r, table, which, lo) },
        };
    }
}

/// r[lo..lo + 4·V] from the entry `which` of the table (n-limb entries, n = `r.len()`), V
/// 256-bit accumulators; returns 4·V.
///
/// # Safety
/// The CPU has AVX2; lo + 4·V ≤ n.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn select_vectors<const V: usize>(
    r: &mut [Limb],
    table: &[Limb],
    which: Limb,
    lo: usize,
) -> usize {
    use core::arch::x86_64::{
        __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_cmpeq_epi64, _mm256_loadu_si256,
        _mm256_or_si256, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_storeu_si256,
    };
    let n = r.len();
    let span = lo..lo + 4 * V;
    // Bit patterns: `which` and the count as lanes of i64.
    let want = _mm256_set1_epi64x(which.cast_signed());
    let one = _mm256_set1_epi64x(1);
    let mut count = _mm256_setzero_si256();
    let mut acc = [_mm256_setzero_si256(); V];
    for entry in table.chunks_exact(n) {
        let keep = _mm256_cmpeq_epi64(count, want);
        count = _mm256_add_epi64(count, one);
        for (a, e) in acc.iter_mut().zip(entry[span.clone()].chunks_exact(4)) {
            // SAFETY: e is four limbs, 32 bytes; the load is unaligned.
            let e = unsafe { _mm256_loadu_si256(e.as_ptr().cast::<__m256i>()) };
            *a = _mm256_or_si256(*a, _mm256_and_si256(e, keep));
        }
    }
    for (a, out) in acc.iter().zip(r[span].chunks_exact_mut(4)) {
        // SAFETY: out is four limbs, 32 bytes; the store is unaligned.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast::<__m256i>(), *a) };
    }
    4 * V
}

fn adx_add_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    assert!(
        r.len() == a.len() && a.len() == b.len(),
        "add_n: length mismatch"
    );
    // SAFETY: lengths checked just above; BMI2 and ADX are present because this function is
    // reachable only through `ADX`, which only `kernels(cpu::Adx)` hands out.
    unsafe { adx::add_n(r, a, b) }
}

fn adx_sub_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    assert!(
        r.len() == a.len() && a.len() == b.len(),
        "sub_n: length mismatch"
    );
    // SAFETY: lengths checked just above; BMI2 and ADX are present because this function is
    // reachable only through `ADX`, which only `kernels(cpu::Adx)` hands out.
    unsafe { adx::sub_n(r, a, b) }
}

fn adx_mul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    assert_eq!(r.len(), a.len(), "mul_1: length mismatch");
    // SAFETY: lengths checked just above; BMI2 and ADX are present because this function is
    // reachable only through `ADX`, which only `kernels(cpu::Adx)` hands out.
    unsafe { adx::mul_1(r, a, b) }
}

fn adx_addmul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    assert_eq!(r.len(), a.len(), "addmul_1: length mismatch");
    // SAFETY: lengths checked just above; BMI2 and ADX are present because this function is
    // reachable only through `ADX`, which only `kernels(cpu::Adx)` hands out.
    unsafe { adx::addmul_1(r, a, b) }
}

fn adx_submul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    assert_eq!(r.len(), a.len(), "submul_1: length mismatch");
    // SAFETY: lengths checked just above; BMI2 and ADX are present because this function is
    // reachable only through `ADX`, which only `kernels(cpu::Adx)` hands out.
    unsafe { adx::submul_1(r, a, b) }
}

/// At eight limbs [`mont8::mont_mul_8`] (CIOS with the accumulator in registers, faster than
/// the pair below; measured: see docs/benchmarks-log.md, "The 64-bit path without IFMA");
/// otherwise the product a·b by the asm [`mul::mul_basecase`] into 2n scratch limbs, then
/// [`adx_redc_1`]: a·b < m·R for a < m, so the result is below 2m. Against a CIOS through
/// memory (two `addmul_1` rows per limb of b), that pair is faster at 8 limbs and about even at
/// 16 and 32, as ratios to GMP's `mpn_mul_basecase` and `mpn_redc_1` in the same run
/// (`benches/src/bin/kernels.rs`; measured: see docs/benchmarks-log.md, "The ADX Montgomery
/// product: the product, then REDC").
fn adx_mont_mul(
    r: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
    m: &[Limb],
    minv: Limb,
    scratch: &mut [Limb],
) -> Limb {
    let n = m.len();
    assert!(
        n > 0 && r.len() == n && a.len() == n && b.len() == n,
        "mont_mul: length mismatch"
    );
    if let Some(c) = mont8_mul(r, a, b, m, minv, 0) {
        return c;
    }
    let t = &mut scratch[..2 * n];
    // SAFETY: t holds 2n = a.len() + b.len() limbs, a and b are non-empty (checked above);
    // BMI2 and ADX are present because this function is reachable only through `ADX`.
    unsafe { mul::mul_basecase(t, a, b) };
    adx_redc_1(r, t, m, minv)
}

/// [`mont8::mont_mul_8`] when the operands are eight limbs long (`sec` as there), else `None`.
fn mont8_mul(
    r: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
    m: &[Limb],
    minv: Limb,
    sec: Limb,
) -> Option<Limb> {
    let (Ok(r), Ok(a), Ok(b), Ok(m)) = (
        <&mut [Limb; 8]>::try_from(r),
        <&[Limb; 8]>::try_from(a),
        <&[Limb; 8]>::try_from(b),
        <&[Limb; 8]>::try_from(m),
    ) else {
        return None;
    };
    // SAFETY: BMI2 and ADX are present because this function is reachable only through `ADX`.
    Some(unsafe { mont8::mont_mul_8(r, a, b, m, minv, sec) })
}

/// [`crate::mpn::mont_mul_below_r`]: at eight limbs [`mont8::mont_mul_8`] (product and
/// reduction in one pass, the accumulator in registers), otherwise the product and
/// [`adx_redc_1_below_r`].
fn adx_mont_mul_below_r(
    r: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
    m: &[Limb],
    minv: Limb,
    scratch: &mut [Limb],
) {
    let n = m.len();
    assert!(
        n > 0 && r.len() == n && a.len() == n && b.len() == n && scratch.len() >= 2 * n,
        "mont_mul_below_r: length mismatch"
    );
    if mont8_mul(r, a, b, m, minv, Limb::MAX).is_some() {
        return;
    }
    let t = &mut scratch[..2 * n];
    // SAFETY: as in `adx_mont_mul`.
    unsafe { mul::mul_basecase(t, a, b) };
    adx_redc_1_below_r(r, t, m, minv);
}

/// [`crate::mpn::mont_sqr_below_r`]: at eight limbs [`mont8::mont_sqr_8`] (each square and
/// its reduction in one asm loop), otherwise the square and [`adx_redc_1_below_r`].
fn adx_mont_sqr_below_r(
    r: &mut [Limb],
    a: &[Limb],
    squarings: usize,
    m: &[Limb],
    minv: Limb,
    scratch: &mut [Limb],
) {
    let n = m.len();
    assert!(
        n > 0 && r.len() == n && a.len() == n && squarings > 0,
        "mont_sqr_below_r: length mismatch or no squaring"
    );
    if let (Ok(r8), Ok(a8), Ok(m8)) = (
        <&mut [Limb; 8]>::try_from(&mut *r),
        <&[Limb; 8]>::try_from(a),
        <&[Limb; 8]>::try_from(m),
    ) {
        // SAFETY: BMI2 and ADX are present because this function is reachable only through
        // `ADX`; `squarings` ≥ 1 (checked above).
        unsafe { mont8::mont_sqr_8(r8, a8, squarings, m8, minv, Limb::MAX) };
        return;
    }
    crate::mpn::sqr_then_redc_below_r(r, a, squarings, m, minv, scratch, adx_redc_1_below_r);
}

/// For n a multiple of 8, the asm [`window::redc_blocks`] (eight rows per pass over t, the
/// window in registers: faster than the rows, and than GMP's `mpn_redc_1`, at n = 16 and 24;
/// docs/benchmarks-log.md, "Kernels against GMP"); otherwise the n rows of the asm
/// [`mul::redc_rows`] (each row's carry parked in the limb it zeroed), then one `add_n` of all
/// carries (as GMP's `mpn_redc_1`).
fn adx_redc_1(r: &mut [Limb], t: &mut [Limb], m: &[Limb], minv: Limb) -> Limb {
    let n = m.len();
    assert!(
        n > 0 && r.len() == n && t.len() == 2 * n,
        "redc_1: length mismatch"
    );
    if window::fits(n) {
        // SAFETY: n is a non-zero multiple of 8, r holds n limbs and t 2n (checked above);
        // BMI2 and ADX are present because this function is reachable only through `ADX`.
        return unsafe { window::redc_blocks(r, t, m, minv, 0) };
    }
    // SAFETY: t holds 2n limbs for the n-limb m (checked above); BMI2 and ADX are present
    // because this function is reachable only through `ADX`.
    unsafe { mul::redc_rows(t, m, minv) };
    let (carries, high) = t.split_at(n);
    // SAFETY: r, high and carries all have n limbs; features as above.
    unsafe { adx::add_n(r, high, carries) }
}

/// [`crate::mpn::redc_1_below_r`]: for n a multiple of 8, [`window::redc_blocks`] with the
/// subtraction of m by mask in its last pass; otherwise [`adx_redc_1`], then the subtraction.
fn adx_redc_1_below_r(r: &mut [Limb], t: &mut [Limb], m: &[Limb], minv: Limb) {
    let n = m.len();
    assert!(
        n > 0 && r.len() == n && t.len() == 2 * n,
        "redc_1_below_r: length mismatch"
    );
    if window::fits(n) {
        // SAFETY: as in `adx_redc_1`.
        unsafe { window::redc_blocks(r, t, m, minv, Limb::MAX) };
    } else {
        let c = adx_redc_1(r, t, m, minv);
        _ = super::cnd_sub_assign_n(c.wrapping_neg(), r, m);
    }
}
