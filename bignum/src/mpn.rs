//! Kernels on limb slices (least significant limb first), in GMP's vocabulary.
//!
//! Output first, lengths from the slices: `add_n(r, a, b)` computes r = a + b and returns the carry.
//! `_1` means a one-limb operand, `_n` equal lengths. Everything here is constant-time (its time
//! depends on slice lengths only) unless its name ends in `_vartime`.
//!
//! The hot kernels go through a dispatch table, [`Kernels`], chosen once per process: the
//! portable Rust one, or a faster back end the CPU supports. Every back end gives bit-identical
//! results to [`PORTABLE`]; `bignum/tests/differential/backends.rs` proves it on this machine.
//!
//! # Panics
//!
//! The public functions here `assert!` their length preconditions (documented on each) and panic
//! when a caller breaks them; they never read or write out of bounds.

internal_mod!(div);
internal_mod!(pub(crate) ifma_model);
internal_mod!(mul);
internal_mod!(portable);
internal_mod!(sqr);
internal_mod!(tune);
internal_mod!(
    #[cfg(target_arch = "x86_64")]
    x86_64
);
// The instructions' implementation of `ifma_model::Ifma52`, for `modular`'s engines: re-exported here
// rather than by `ifma_model.rs`, which `x86_64/ifma_instructions.rs` imports the trait from.
#[cfg(target_arch = "x86_64")]
pub(crate) use x86_64::ifma_instructions::{Avx512Ifma256, Avx512Ifma512};

use alloc::vec::Vec;
pub use mul::mul_karatsuba;
pub use sqr::sqr_karatsuba;
pub use tune::{KARATSUBA_MUL_THRESHOLD, KARATSUBA_SQR_THRESHOLD};

use crate::backend::{self, KernelTable};
use core::cmp::Ordering;

use crate::limb::{self, Limb};

/// The signature of [`mont_mul`]: (r, a, b, m, m', scratch) → high limb.
pub type MontMulKernel = fn(&mut [Limb], &[Limb], &[Limb], &[Limb], Limb, &mut [Limb]) -> Limb;
/// The signature of [`mont_mul_below_r`]: (r, a, b, m, m', scratch).
pub type MontMulBelowRKernel = fn(&mut [Limb], &[Limb], &[Limb], &[Limb], Limb, &mut [Limb]);
/// The signature of [`mont_sqr_below_r`]: (r, a, squarings, m, m', scratch).
pub type MontSqrBelowRKernel = fn(&mut [Limb], &[Limb], usize, &[Limb], Limb, &mut [Limb]);

/// One back end: a function pointer per hot kernel, all with the contracts of the functions of
/// the same name in this module (lengths already checked by the caller).
#[derive(Debug)]
pub struct Kernels {
    /// Back-end name, as `BIGNUM_BACKEND` and reports spell it.
    pub name: &'static str,
    /// See [`add_n`].
    pub add_n: fn(&mut [Limb], &[Limb], &[Limb]) -> Limb,
    /// See [`sub_n`].
    pub sub_n: fn(&mut [Limb], &[Limb], &[Limb]) -> Limb,
    /// See [`mul_1`].
    pub mul_1: fn(&mut [Limb], &[Limb], Limb) -> Limb,
    /// See [`addmul_1`].
    pub addmul_1: fn(&mut [Limb], &[Limb], Limb) -> Limb,
    /// See [`submul_1`].
    pub submul_1: fn(&mut [Limb], &[Limb], Limb) -> Limb,
    /// See [`mont_mul`].
    pub mont_mul: MontMulKernel,
    /// See [`redc_1`].
    pub redc_1: fn(&mut [Limb], &mut [Limb], &[Limb], Limb) -> Limb,
    /// See [`redc_1_below_r`].
    pub redc_1_below_r: fn(&mut [Limb], &mut [Limb], &[Limb], Limb),
    /// See [`mont_mul_below_r`].
    pub mont_mul_below_r: MontMulBelowRKernel,
    /// See [`mont_sqr_below_r`].
    pub mont_sqr_below_r: MontSqrBelowRKernel,
    /// See [`mul_basecase`] (any `a.len()`, `b.len() ≥ 1`).
    pub mul_basecase: fn(&mut [Limb], &[Limb], &[Limb]),
    /// See [`sqr_basecase`].
    pub sqr_basecase: fn(&mut [Limb], &[Limb]),
    /// See [`tabselect`].
    pub tabselect: fn(&mut [Limb], &[Limb], Limb),
}

/// The portable Rust kernels: the reference for every other back end.
pub const PORTABLE: Kernels = Kernels {
    name: "portable",
    add_n: portable::add_n,
    sub_n: portable::sub_n,
    mul_1: portable::mul_1,
    addmul_1: portable::addmul_1,
    submul_1: portable::submul_1,
    mont_mul: portable::mont_mul,
    redc_1: portable::redc_1,
    redc_1_below_r: portable::redc_1_below_r,
    mont_mul_below_r: portable::mont_mul_below_r,
    mont_sqr_below_r: portable::mont_sqr_below_r,
    mul_basecase: portable::mul_basecase,
    sqr_basecase: portable::sqr_basecase,
    tabselect: portable::tabselect,
};

/// Every back end this CPU can run, portable first, then faster ones in order of preference
/// (the tables of [`KernelTable::available`], in its order).
pub fn all_available() -> Vec<&'static Kernels> {
    KernelTable::available()
        .into_iter()
        .filter_map(table)
        .collect()
}

/// The back end called `name` (`"portable"`, `"adx"`), if this CPU can run it: for tests and
/// benchmarks that compare back ends. Ordinary code uses [`kernels`] (or the functions here).
pub fn by_name(name: &str) -> Option<&'static Kernels> {
    KernelTable::from_name(name).and_then(table)
}

/// The back end in use: the functions of the table [`backend::kernel_table`] chooses
/// (`BIGNUM_BACKEND`, else the fastest; chosen once and cached there).
pub fn kernels() -> &'static Kernels {
    table(backend::kernel_table()).unwrap_or(&PORTABLE_TABLE)
}

/// [`PORTABLE`] at one address: every `&PORTABLE` may be a constant of its own (one per
/// crate that inlines it), and callers compare tables by address.
static PORTABLE_TABLE: Kernels = PORTABLE;

/// The functions of `t`, where this CPU runs it (each table at one address).
pub fn table(t: KernelTable) -> Option<&'static Kernels> {
    match t {
        KernelTable::Portable => Some(&PORTABLE_TABLE),
        #[cfg(target_arch = "x86_64")]
        KernelTable::Adx => crate::cpu::adx().map(x86_64::kernels),
        #[cfg(not(target_arch = "x86_64"))]
        KernelTable::Adx => None,
    }
}

/// r = a + b; returns the carry (0 or 1).
///
/// # Panics
/// If `r`, `a` and `b` differ in length.
#[inline]
pub fn add_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    assert!(
        r.len() == a.len() && a.len() == b.len(),
        "add_n: length mismatch"
    );
    (kernels().add_n)(r, a, b)
}

/// r = a - b; returns the borrow (0 or 1).
///
/// # Panics
/// If `r`, `a` and `b` differ in length.
#[inline]
pub fn sub_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    assert!(
        r.len() == a.len() && a.len() == b.len(),
        "sub_n: length mismatch"
    );
    (kernels().sub_n)(r, a, b)
}

/// r = a · b; returns the high limb of the product.
///
/// # Panics
/// If `r` and `a` differ in length.
#[inline]
pub fn mul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    assert_eq!(r.len(), a.len(), "mul_1: length mismatch");
    (kernels().mul_1)(r, a, b)
}

/// r += a · b; returns the high limb (the carry out, any value up to `b`).
///
/// # Panics
/// If `r` and `a` differ in length.
#[inline]
pub fn addmul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    assert_eq!(r.len(), a.len(), "addmul_1: length mismatch");
    (kernels().addmul_1)(r, a, b)
}

/// r -= a · b; returns the high limb still to subtract (the borrow out, any value up to `b`).
///
/// # Panics
/// If `r` and `a` differ in length.
#[inline]
pub fn submul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    assert_eq!(r.len(), a.len(), "submul_1: length mismatch");
    (kernels().submul_1)(r, a, b)
}

/// Scratch limbs [`mont_mul`] needs for an n-limb modulus (every back end accepts this much).
pub const fn mont_mul_scratch_len(n: usize) -> usize {
    2 * n + 1
}

/// Montgomery multiplication without the final subtraction: r + c·R = a·b·R⁻¹ (mod m) with
/// r + c·R < 2m, where R = 2^(64·n), n = `m.len()`, `minv` = -m⁻¹ mod 2⁶⁴ and c (0 or 1) is
/// returned. One conditional subtraction of m (by mask) then gives the reduced result.
///
/// Preconditions, not checked (they decide the value, never memory safety): `m` odd, `a` < m;
/// any n-limb `b` is fine. The bound: after each limb of `b` the running sum is < 2m, since
/// (2m + (2⁶⁴-1)·m + (2⁶⁴-1)·m) / 2⁶⁴ < 2m. With any n-limb `a` too (both < R), the same
/// argument gives r + c·R < R + m; every back end keeps that bound (`tests/differential/backends.rs`), so a
/// caller may keep its values below R only and subtract m on the carry alone.
///
/// # Constant time
/// Time and memory accesses depend on n only.
///
/// # Panics
/// If `r`, `a`, `b` differ in length from `m`, `m` is empty, or
/// `scratch.len() < mont_mul_scratch_len(n)`.
#[inline]
pub fn mont_mul(
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
    assert!(
        scratch.len() >= mont_mul_scratch_len(n),
        "mont_mul: scratch too short"
    );
    (kernels().mont_mul)(r, a, b, m, minv, scratch)
}

/// Montgomery reduction (REDC) without the final subtraction: r + c·R = t·R⁻¹ (mod m) with
/// r + c·R < 2m for a 2n-limb t < m·R, which is destroyed; c (0 or 1) is returned. R, n and
/// `minv` as in [`mont_mul`]. (t + Q·m)/R < (m·R + R·m)/R = 2m.
///
/// # Constant time
/// Time and memory accesses depend on n only.
///
/// # Panics
/// If `r.len() != m.len()`, `t.len() != 2·m.len()`, or `m` is empty.
#[inline]
pub fn redc_1(r: &mut [Limb], t: &mut [Limb], m: &[Limb], minv: Limb) -> Limb {
    let n = m.len();
    assert!(
        n > 0 && r.len() == n && t.len() == 2 * n,
        "redc_1: length mismatch"
    );
    (kernels().redc_1)(r, t, m, minv)
}

/// Montgomery reduction for values kept below R instead of below m (as GMP's `mpn_sec_powm`
/// does, its `MPN_REDC_1_SEC`): r = t·R⁻¹ (mod m) with r < R, for any 2n-limb t, which is
/// destroyed. R, n and `minv` as in [`mont_mul`]: [`redc_1`]'s r + c·R is below R + m for
/// t < R², and r − c·m (mod R) is the value itself, below R; the subtraction is done by
/// mask. Operands below R multiply to t < R², so a chain of Montgomery products can stay
/// below R with no comparison with m; one product by a value below m at the end brings the
/// result below 2m, where one conditional subtraction finishes it. It differs from [`redc_1`]
/// in its result only (below R, with no carry out); both are constant-time.
///
/// # Constant time
/// Time and memory accesses depend on n only.
///
/// # Panics
/// If `r.len() != m.len()`, `t.len() != 2·m.len()`, or `m` is empty.
#[inline]
pub fn redc_1_below_r(r: &mut [Limb], t: &mut [Limb], m: &[Limb], minv: Limb) {
    let n = m.len();
    assert!(
        n > 0 && r.len() == n && t.len() == 2 * n,
        "redc_1_below_r: length mismatch"
    );
    (kernels().redc_1_below_r)(r, t, m, minv);
}

/// Scratch limbs [`mont_sqr_below_r`] needs for an n-limb modulus (every back end accepts this
/// much): the 2n-limb square and the squaring's own scratch ([`sqr_scratch_len`]).
pub const fn mont_sqr_scratch_len(n: usize) -> usize {
    2 * n + sqr_scratch_len(n)
}

/// Montgomery multiplication for values kept below R (see [`redc_1_below_r`]): r ≡ a·b·R⁻¹
/// (mod m) with r < R, for any n-limb a and b. R, n and `minv` as in [`mont_mul`]. The
/// product of a chain of Montgomery products (an exponentiation's), with no comparison with m.
///
/// # Constant time
/// Time and memory accesses depend on n only.
///
/// # Panics
/// If `r`, `a`, `b` differ in length from `m`, `m` is empty, or
/// `scratch.len() < mont_mul_scratch_len(n)`.
#[inline]
pub fn mont_mul_below_r(
    r: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
    m: &[Limb],
    minv: Limb,
    scratch: &mut [Limb],
) {
    let n = m.len();
    assert!(
        n > 0 && r.len() == n && a.len() == n && b.len() == n,
        "mont_mul_below_r: length mismatch"
    );
    assert!(
        scratch.len() >= mont_mul_scratch_len(n),
        "mont_mul_below_r: scratch too short"
    );
    (kernels().mont_mul_below_r)(r, a, b, m, minv, scratch);
}

/// `squarings` ≥ 1 Montgomery squarings in a row, kept below R: r ≡ a^(2^k)·R^(1−2^k) (mod m)
/// with r < R, k = `squarings`, for any n-limb a; each squaring is [`mont_mul_below_r`] of the
/// value by itself. An exponentiation's run of squarings between two products is one call,
/// which a back end may run in one loop with no call between the squarings.
///
/// # Constant time
/// Time and memory accesses depend on n and `squarings` only.
///
/// # Panics
/// If `r` or `a` differs in length from `m`, `m` is empty, `squarings` is 0, or
/// `scratch.len() < mont_sqr_scratch_len(n)`.
#[inline]
pub fn mont_sqr_below_r(
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
    assert!(
        scratch.len() >= mont_sqr_scratch_len(n),
        "mont_sqr_below_r: scratch too short"
    );
    (kernels().mont_sqr_below_r)(r, a, squarings, m, minv, scratch);
}

/// `squarings` times: the square into the scratch's first 2n limbs (by [`sqr_with_scratch`]'s
/// choice, on the chosen back end), then the back end's `redc_below_r` into r: every back
/// end's [`mont_sqr_below_r`] where it has nothing faster.
pub(crate) fn sqr_then_redc_below_r(
    r: &mut [Limb],
    a: &[Limb],
    squarings: usize,
    m: &[Limb],
    minv: Limb,
    scratch: &mut [Limb],
    redc_below_r: fn(&mut [Limb], &mut [Limb], &[Limb], Limb),
) {
    let (t, rest) = scratch.split_at_mut(2 * a.len());
    sqr::sqr_with_scratch(t, a, rest);
    redc_below_r(r, t, m, minv);
    for _ in 1..squarings {
        // r is read whole into t before the reduction writes it.
        sqr::sqr_with_scratch(t, r, rest);
        redc_below_r(r, t, m, minv);
    }
}

/// r −= b & `mask` (`mask` all-ones or zero); returns the borrow (0 or 1). Equal lengths. The
/// conditional subtraction of [`redc_1_below_r`] for the back ends that do it apart from the
/// reduction, and of `modular`'s constant-time helpers.
///
/// # Constant time
/// Time and memory accesses depend on the length only.
pub(crate) fn cnd_sub_assign_n(mask: Limb, r: &mut [Limb], b: &[Limb]) -> Limb {
    invariant!(r.len() == b.len());
    let mut borrow = 0;
    for (r, &b) in r.iter_mut().zip(b) {
        (*r, borrow) = limb::sbb(*r, b & mask, borrow);
    }
    borrow
}

/// r = entry `which` of `table`, a table of `table.len() / r.len()` entries of `r.len()`
/// limbs each (GMP's `mpn_sec_tabselect`): every entry is read and the one wanted kept by
/// mask, so which one was wanted does not show in the memory accesses. r is zero if `which`
/// is not below the number of entries.
///
/// # Constant time
/// Time and memory accesses depend on the lengths only, not on `which`.
///
/// # Panics
/// If `r` is empty or `table.len()` is not a multiple of `r.len()`.
#[inline]
pub fn tabselect(r: &mut [Limb], table: &[Limb], which: Limb) {
    let n = r.len();
    assert!(
        n > 0 && table.chunks_exact(n).remainder().is_empty(),
        "tabselect: table length is not a multiple of the entry length"
    );
    (kernels().tabselect)(r, table, which);
}

/// r += b in place; returns the carry (0 or 1).
///
/// # Panics
/// If `r` and `b` differ in length.
pub fn add_assign_n(r: &mut [Limb], b: &[Limb]) -> Limb {
    assert_eq!(r.len(), b.len(), "add_assign_n: length mismatch");
    let mut c = 0;
    for (r, &b) in r.iter_mut().zip(b) {
        (*r, c) = limb::adc(*r, b, c);
    }
    c
}

/// r -= b in place; returns the borrow (0 or 1).
///
/// # Panics
/// If `r` and `b` differ in length.
pub fn sub_assign_n(r: &mut [Limb], b: &[Limb]) -> Limb {
    assert_eq!(r.len(), b.len(), "sub_assign_n: length mismatch");
    let mut c = 0;
    for (r, &b) in r.iter_mut().zip(b) {
        (*r, c) = limb::sbb(*r, b, c);
    }
    c
}

/// r = a + b for a one-limb `b`; returns the carry (0 or 1). Runs over the whole length.
///
/// # Panics
/// If `r` and `a` differ in length.
pub fn add_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    assert_eq!(r.len(), a.len(), "add_1: length mismatch");
    let mut c = b;
    for (r, &a) in r.iter_mut().zip(a) {
        (*r, c) = limb::adc(a, c, 0);
    }
    c
}

/// r = a - b for a one-limb `b`; returns the borrow (0 or 1). Runs over the whole length.
///
/// # Panics
/// If `r` and `a` differ in length.
pub fn sub_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    assert_eq!(r.len(), a.len(), "sub_1: length mismatch");
    let mut c = b;
    for (r, &a) in r.iter_mut().zip(a) {
        (*r, c) = limb::sbb(a, c, 0);
    }
    c
}

/// r += b in place for a one-limb `b`; returns the carry (0 or 1). Runs over the whole length.
pub fn add_assign_1(r: &mut [Limb], b: Limb) -> Limb {
    let mut c = b;
    for r in r.iter_mut() {
        (*r, c) = limb::adc(*r, c, 0);
    }
    c
}

/// r -= b in place for a one-limb `b`; returns the borrow (0 or 1). Runs over the whole length.
pub fn sub_assign_1(r: &mut [Limb], b: Limb) -> Limb {
    let mut c = b;
    for r in r.iter_mut() {
        (*r, c) = limb::sbb(*r, c, 0);
    }
    c
}

/// r = a << cnt (0 ≤ cnt < 64); returns the bits shifted out of the top, in the low bits.
///
/// # Panics
/// If `r` and `a` differ in length or `cnt` ≥ 64.
pub fn lshift(r: &mut [Limb], a: &[Limb], cnt: u32) -> Limb {
    assert_eq!(r.len(), a.len(), "lshift: length mismatch");
    r.copy_from_slice(a);
    lshift_assign(r, cnt)
}

/// r = a >> cnt (0 ≤ cnt < 64); returns the bits shifted out of the bottom, in the high bits.
///
/// # Panics
/// If `r` and `a` differ in length or `cnt` ≥ 64.
pub fn rshift(r: &mut [Limb], a: &[Limb], cnt: u32) -> Limb {
    assert_eq!(r.len(), a.len(), "rshift: length mismatch");
    r.copy_from_slice(a);
    rshift_assign(r, cnt)
}

/// r <<= cnt in place (0 ≤ cnt < 64); returns the bits shifted out, in the low bits.
///
/// # Panics
/// If `cnt` ≥ 64.
pub fn lshift_assign(r: &mut [Limb], cnt: u32) -> Limb {
    assert!(
        cnt < limb::LIMB_BITS,
        "lshift: shift count {cnt} out of range"
    );
    if cnt == 0 {
        return 0;
    }
    let mut out = 0;
    for r in r.iter_mut() {
        let v = *r;
        *r = (v << cnt) | out;
        out = v >> (limb::LIMB_BITS - cnt);
    }
    out
}

/// r >>= cnt in place (0 ≤ cnt < 64); returns the bits shifted out, in the high bits.
///
/// # Panics
/// If `cnt` ≥ 64.
pub fn rshift_assign(r: &mut [Limb], cnt: u32) -> Limb {
    assert!(
        cnt < limb::LIMB_BITS,
        "rshift: shift count {cnt} out of range"
    );
    if cnt == 0 {
        return 0;
    }
    let mut out = 0;
    for r in r.iter_mut().rev() {
        let v = *r;
        *r = (v >> cnt) | out;
        out = v << (limb::LIMB_BITS - cnt);
    }
    out
}

/// r = a · b, schoolbook below the Karatsuba threshold and Karatsuba above it.
///
/// # Panics
/// Unless `a.len() ≥ b.len() ≥ 1` and `r.len() == a.len() + b.len()`.
pub fn mul(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    assert!(
        a.len() >= b.len() && !b.is_empty(),
        "mul: need a.len() >= b.len() >= 1"
    );
    assert_eq!(
        r.len(),
        a.len() + b.len(),
        "mul: r must hold a.len() + b.len() limbs"
    );
    mul::mul(r, a, b);
}

/// Scratch limbs [`mul_with_scratch`] needs for an `an`-limb by `bn`-limb product
/// (`an ≥ bn`); 0 below [`KARATSUBA_MUL_THRESHOLD`].
pub const fn mul_scratch_len(an: usize, bn: usize) -> usize {
    mul::mul_scratch_len(an, bn)
}

/// r = a · b like [`mul()`], with caller-provided scratch instead of an allocation. The scratch
/// holds secret intermediate values afterwards: wipe it (e.g. keep it in
/// `zeroize::Zeroizing`).
///
/// # Constant time
/// Time and memory accesses depend on the lengths only.
///
/// # Panics
/// Unless `a.len() ≥ b.len() ≥ 1`, `r.len() == a.len() + b.len()` and
/// `scratch.len() ≥ mul_scratch_len(a.len(), b.len())`.
pub fn mul_with_scratch(r: &mut [Limb], a: &[Limb], b: &[Limb], scratch: &mut [Limb]) {
    assert!(
        a.len() >= b.len() && !b.is_empty(),
        "mul_with_scratch: need a.len() >= b.len() >= 1"
    );
    assert_eq!(
        r.len(),
        a.len() + b.len(),
        "mul_with_scratch: r must hold a.len() + b.len() limbs"
    );
    assert!(
        scratch.len() >= mul_scratch_len(a.len(), b.len()),
        "mul_with_scratch: scratch too short"
    );
    mul::mul_with_scratch(r, a, b, scratch);
}

/// Scratch limbs [`sqr_with_scratch`] needs for an `n`-limb square; 0 below
/// [`KARATSUBA_SQR_THRESHOLD`].
pub const fn sqr_scratch_len(n: usize) -> usize {
    sqr::sqr_scratch_len(n)
}

/// r = a² like [`sqr()`], with caller-provided scratch instead of an allocation. The scratch holds
/// secret intermediate values afterwards: wipe it (e.g. keep it in `zeroize::Zeroizing`).
///
/// # Constant time
/// Time and memory accesses depend on the length only.
///
/// # Panics
/// Unless `a` is non-empty, `r.len() == 2·a.len()` and `scratch.len() ≥ sqr_scratch_len(a.len())`.
pub fn sqr_with_scratch(r: &mut [Limb], a: &[Limb], scratch: &mut [Limb]) {
    assert!(!a.is_empty(), "sqr_with_scratch: a must be non-empty");
    assert_eq!(
        r.len(),
        2 * a.len(),
        "sqr_with_scratch: r must hold 2·a.len() limbs"
    );
    assert!(
        scratch.len() >= sqr_scratch_len(a.len()),
        "sqr_with_scratch: scratch too short"
    );
    sqr::sqr_with_scratch(r, a, scratch);
}

/// r = a · b by schoolbook rows, whatever the size.
///
/// # Panics
/// Unless `a.len() ≥ b.len() ≥ 1` and `r.len() == a.len() + b.len()`.
pub fn mul_basecase(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    assert!(
        a.len() >= b.len() && !b.is_empty(),
        "mul_basecase: need a.len() >= b.len() >= 1"
    );
    assert_eq!(
        r.len(),
        a.len() + b.len(),
        "mul_basecase: r must hold a.len() + b.len() limbs"
    );
    mul::mul_basecase(r, a, b);
}

/// r = a², faster than `mul(r, a, a)`.
///
/// # Panics
/// Unless `a` is non-empty and `r.len() == 2·a.len()`.
pub fn sqr(r: &mut [Limb], a: &[Limb]) {
    assert!(!a.is_empty(), "sqr: a must be non-empty");
    assert_eq!(r.len(), 2 * a.len(), "sqr: r must hold 2·a.len() limbs");
    sqr::sqr(r, a);
}

/// r = a² by the schoolbook square, whatever the size.
///
/// # Panics
/// Unless `a` is non-empty and `r.len() == 2·a.len()`.
pub fn sqr_basecase(r: &mut [Limb], a: &[Limb]) {
    assert!(!a.is_empty(), "sqr_basecase: a must be non-empty");
    assert_eq!(
        r.len(),
        2 * a.len(),
        "sqr_basecase: r must hold 2·a.len() limbs"
    );
    sqr::sqr_basecase(r, a);
}

/// q = ⌊a / d⌋ and r = a mod d, by Knuth's Algorithm D with a normalised divisor and
/// Möller–Granlund 3-by-2 reciprocal steps.
///
/// `q` gets `a.len() - d.len() + 1` limbs (high zero limbs included), `r` gets `d.len()` limbs.
/// `a` may have high zero limbs; `d` must not.
///
/// # Constant time
/// No: variable time, for public values only. Time and memory access depend on the values of
/// `a` and `d` (the normalising shift, rare correction steps), not only their lengths. Never use
/// it with a secret dividend or divisor.
///
/// # Panics
/// If `d` is empty or its top limb is zero, if `a.len() < d.len()`, or unless
/// `q.len() == a.len() - d.len() + 1` and `r.len() == d.len()`.
pub fn div_qr_vartime(q: &mut [Limb], r: &mut [Limb], a: &[Limb], d: &[Limb]) {
    assert!(
        d.last().is_some_and(|&top| top != 0),
        "div_qr_vartime: divisor must be non-empty with a non-zero top limb"
    );
    assert!(
        a.len() >= d.len(),
        "div_qr_vartime: need a.len() >= d.len()"
    );
    assert_eq!(
        q.len(),
        a.len() - d.len() + 1,
        "div_qr_vartime: q must hold a.len() - d.len() + 1 limbs"
    );
    assert_eq!(
        r.len(),
        d.len(),
        "div_qr_vartime: r must hold d.len() limbs"
    );
    div::div_qr(q, r, a, d);
}

/// q = ⌊a / d⌋ for a one-limb divisor; returns a mod d.
///
/// # Constant time
/// No: variable time, for public values only (the normalising shift and correction steps depend
/// on the values).
///
/// # Panics
/// If `d` is zero or `q` and `a` differ in length.
pub fn div_1_vartime(q: &mut [Limb], a: &[Limb], d: Limb) -> Limb {
    assert!(d != 0, "div_1_vartime: division by zero");
    assert_eq!(q.len(), a.len(), "div_1_vartime: length mismatch");
    div::div_1(q, a, d)
}

/// Compares two equal-length numbers, most significant limb first; stops at the first difference.
///
/// # Panics
/// If `a` and `b` differ in length.
pub fn cmp_vartime(a: &[Limb], b: &[Limb]) -> Ordering {
    assert_eq!(a.len(), b.len(), "cmp_vartime: length mismatch");
    a.iter().rev().cmp(b.iter().rev())
}

/// The length of `a` without its high zero limbs.
pub fn normalized_len_vartime(a: &[Limb]) -> usize {
    a.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1)
}

/// r = the big-endian bytes `bytes` as little-endian limbs, zero-padded to `r.len()`: the one
/// byte-to-limb conversion (secret values included).
///
/// # Constant time
/// Depends on the lengths only.
///
/// # Panics
/// If `bytes.len() > 8·r.len()`.
pub fn from_be_bytes(r: &mut [Limb], bytes: &[u8]) {
    assert!(
        bytes.len() <= limb::LIMB_BYTES * r.len(),
        "from_be_bytes: more bytes than r holds"
    );
    r.fill(0);
    for (r, chunk) in r.iter_mut().zip(bytes.rchunks(limb::LIMB_BYTES)) {
        *r = chunk.iter().fold(0, |acc, &b| (acc << 8) | Limb::from(b));
    }
}

/// out = `a` as exactly `out.len()` big-endian bytes: zero-padded, or with the high bytes of a
/// longer value dropped. The one limb-to-byte conversion (secret values included).
///
/// # Constant time
/// Depends on the lengths only.
pub fn to_be_bytes(out: &mut [u8], a: &[Limb]) {
    out.fill(0);
    for (chunk, l) in out.rchunks_mut(limb::LIMB_BYTES).zip(a) {
        let bytes = l.to_be_bytes();
        chunk.copy_from_slice(&bytes[limb::LIMB_BYTES - chunk.len()..]);
    }
}
