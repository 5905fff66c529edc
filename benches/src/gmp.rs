//! GMP through its C ABI, linked statically against a build configured for this CPU (see
//! `benches/gmp/build-tuned.sh` and `benches/build.rs`): the peer every `mpn` and exponentiation
//! figure is compared with.
//!
//! Only the few symbols the benchmarks call are declared, by their real (`__gmpn_`, `__gmpz_`)
//! names; `gmp.h` spells them as macros. Every safe wrapper checks the lengths GMP's contract
//! needs before the call.

// GMP is C, so calling it is unsafe by definition. Each call sits in a small wrapper that
// checks lengths first.
#![allow(unsafe_code)]

use std::ffi::{CStr, c_char, c_int, c_long, c_void};

/// GMP's limb (`mp_limb_t`): 64 bits on every target this crate benchmarks.
type MpLimb = u64;
/// GMP's size type (`mp_size_t`): a C `long`.
type MpSize = c_long;

/// GMP's `__mpz_struct`: allocated limbs, signed used size, limb pointer.
#[repr(C)]
struct MpzStruct {
    alloc: c_int,
    size: c_int,
    d: *mut MpLimb,
}

// SAFETY: these declarations match the prototypes in GMP 6.3's gmp.h (mpn: rp, up, [vp,] n,
// [v]; mpz: pointers to initialised __mpz_struct), for a build with 64-bit limbs and no nails,
// which is what build-tuned.sh configures on x86-64.
unsafe extern "C" {
    static __gmp_version: *const c_char;
    fn __gmpn_addmul_1(rp: *mut MpLimb, up: *const MpLimb, n: MpSize, v: MpLimb) -> MpLimb;
    fn __gmpn_submul_1(rp: *mut MpLimb, up: *const MpLimb, n: MpSize, v: MpLimb) -> MpLimb;
    fn __gmpn_mul_n(rp: *mut MpLimb, up: *const MpLimb, vp: *const MpLimb, n: MpSize);
    fn __gmpn_sqr(rp: *mut MpLimb, up: *const MpLimb, n: MpSize);
    fn __gmpn_sqr_basecase(rp: *mut MpLimb, up: *const MpLimb, n: MpSize);
    fn __gmpn_mul_basecase(
        rp: *mut MpLimb,
        up: *const MpLimb,
        un: MpSize,
        vp: *const MpLimb,
        vn: MpSize,
    );
    fn __gmpn_redc_1(
        rp: *mut MpLimb,
        up: *mut MpLimb,
        mp: *const MpLimb,
        n: MpSize,
        invm: MpLimb,
    ) -> MpLimb;
    fn __gmpn_redc_2(
        rp: *mut MpLimb,
        up: *mut MpLimb,
        mp: *const MpLimb,
        n: MpSize,
        mip: *const MpLimb,
    ) -> MpLimb;
    fn __gmpn_tdiv_qr(
        qp: *mut MpLimb,
        rp: *mut MpLimb,
        qxn: MpSize,
        np: *const MpLimb,
        nn: MpSize,
        dp: *const MpLimb,
        dn: MpSize,
    );
    fn __gmpz_init(x: *mut MpzStruct);
    fn __gmpz_clear(x: *mut MpzStruct);
    fn __gmpz_import(
        rop: *mut MpzStruct,
        count: usize,
        order: c_int,
        size: usize,
        endian: c_int,
        nails: usize,
        op: *const c_void,
    );
    fn __gmpz_powm(
        rop: *mut MpzStruct,
        base: *const MpzStruct,
        exp: *const MpzStruct,
        m: *const MpzStruct,
    );
    fn __gmpz_powm_sec(
        rop: *mut MpzStruct,
        base: *const MpzStruct,
        exp: *const MpzStruct,
        m: *const MpzStruct,
    );
}

/// The linked GMP's version string (`gmp_version`, e.g. `"6.3.0"`).
pub fn version() -> &'static str {
    // SAFETY: `__gmp_version` is a constant pointer to a static NUL-terminated string in the
    // linked library, never written.
    let s = unsafe { CStr::from_ptr(__gmp_version) };
    s.to_str().unwrap_or("?")
}

/// The `--host` the linked GMP was configured with (from `host.txt` beside the build, recorded
/// by `build.rs`), e.g. `"zen3-pc-linux-gnu"`.
pub fn configure_host() -> &'static str {
    env!("GMP_TUNED_HOST")
}

/// The directory the linked `libgmp.a` came from.
pub fn build_dir() -> &'static str {
    env!("GMP_TUNED_DIR")
}

fn size(n: usize) -> MpSize {
    MpSize::try_from(n).expect("length fits GMP's mp_size_t")
}

/// `mpn_addmul_1`: r += a · b, returns the high limb.
///
/// # Panics
/// Unless `r.len() == a.len() ≥ 1`.
pub fn addmul_1(r: &mut [u64], a: &[u64], b: u64) -> u64 {
    assert!(r.len() == a.len() && !a.is_empty(), "addmul_1: lengths");
    // SAFETY: r and a are distinct (one is &mut), both hold n ≥ 1 limbs, as GMP requires.
    unsafe { __gmpn_addmul_1(r.as_mut_ptr(), a.as_ptr(), size(a.len()), b) }
}

/// `mpn_sqr_basecase` (internal to GMP, exported as `__gmpn_sqr_basecase`): r = a² by
/// GMP's schoolbook square for this CPU, whatever the size.
///
/// # Panics
/// Unless `r.len() == 2·a.len()` and `a` is non-empty.
pub fn sqr_basecase(r: &mut [u64], a: &[u64]) {
    assert!(
        r.len() == 2 * a.len() && !a.is_empty(),
        "sqr_basecase: lengths"
    );
    // SAFETY: r (2n limbs) and a (n ≥ 1) are distinct, as GMP requires.
    unsafe { __gmpn_sqr_basecase(r.as_mut_ptr(), a.as_ptr(), size(a.len())) }
}

/// `mpn_mul_basecase` (internal, `__gmpn_mul_basecase`): r = a · b by schoolbook rows.
///
/// # Panics
/// Unless `a.len() ≥ b.len() ≥ 1` and `r.len() == a.len() + b.len()`.
pub fn mul_basecase(r: &mut [u64], a: &[u64], b: &[u64]) {
    assert!(
        a.len() >= b.len() && !b.is_empty() && r.len() == a.len() + b.len(),
        "mul_basecase: lengths"
    );
    // SAFETY: lengths as GMP requires (un ≥ vn ≥ 1, rp of un + vn limbs, distinct from both).
    unsafe {
        __gmpn_mul_basecase(
            r.as_mut_ptr(),
            a.as_ptr(),
            size(a.len()),
            b.as_ptr(),
            size(b.len()),
        );
    }
}

/// `mpn_redc_1` (internal, `__gmpn_redc_1`): r + carry·Bⁿ = t·B⁻ⁿ mod m, up to one m, for a
/// 2n-limb t (destroyed) and `minv` = -m⁻¹ mod B (GMP's `invm`); returns the carry.
///
/// # Panics
/// Unless `r.len() == m.len() ≥ 1` and `t.len() == 2·m.len()`.
pub fn redc_1(r: &mut [u64], t: &mut [u64], m: &[u64], minv: u64) -> u64 {
    assert!(
        r.len() == m.len() && t.len() == 2 * m.len() && !m.is_empty(),
        "redc_1: lengths"
    );
    // SAFETY: lengths as GMP requires; r, t and m are distinct.
    unsafe {
        __gmpn_redc_1(
            r.as_mut_ptr(),
            t.as_mut_ptr(),
            m.as_ptr(),
            size(m.len()),
            minv,
        )
    }
}

/// `mpn_redc_2` (internal, `__gmpn_redc_2`): as [`redc_1`], two quotient limbs per row, with
/// `minv2` = -m⁻¹ mod B² (two limbs, least significant first).
///
/// # Panics
/// Unless `r.len() == m.len() ≥ 2` and `t.len() == 2·m.len()`.
pub fn redc_2(r: &mut [u64], t: &mut [u64], m: &[u64], minv2: [u64; 2]) -> u64 {
    assert!(
        r.len() == m.len() && t.len() == 2 * m.len() && m.len() >= 2,
        "redc_2: lengths"
    );
    // SAFETY: lengths as GMP requires; r, t and m are distinct; minv2 holds two limbs.
    unsafe {
        __gmpn_redc_2(
            r.as_mut_ptr(),
            t.as_mut_ptr(),
            m.as_ptr(),
            size(m.len()),
            minv2.as_ptr(),
        )
    }
}

/// `mpn_submul_1`: r -= a · b, returns the borrow limb.
///
/// # Panics
/// Unless `r.len() == a.len() ≥ 1`.
pub fn submul_1(r: &mut [u64], a: &[u64], b: u64) -> u64 {
    assert!(r.len() == a.len() && !a.is_empty(), "submul_1: lengths");
    // SAFETY: r and a are distinct (one is &mut), both hold n ≥ 1 limbs, as GMP requires.
    unsafe { __gmpn_submul_1(r.as_mut_ptr(), a.as_ptr(), size(a.len()), b) }
}

/// `mpn_mul_n`: r = a · b with `a`, `b` of n limbs, `r` of 2n.
///
/// # Panics
/// Unless `a.len() == b.len() ≥ 1` and `r.len() == 2·a.len()`.
pub fn mul_n(r: &mut [u64], a: &[u64], b: &[u64]) {
    assert!(a.len() == b.len() && !a.is_empty(), "mul_n: lengths");
    assert_eq!(r.len(), 2 * a.len(), "mul_n: r holds 2n limbs");
    // SAFETY: r (2n limbs) does not overlap a or b (n limbs each, n ≥ 1), as GMP requires.
    unsafe { __gmpn_mul_n(r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), size(a.len())) }
}

/// `mpn_sqr`: r = a² with `a` of n limbs, `r` of 2n.
///
/// # Panics
/// Unless `a.len() ≥ 1` and `r.len() == 2·a.len()`.
pub fn sqr(r: &mut [u64], a: &[u64]) {
    assert!(!a.is_empty(), "sqr: a non-empty");
    assert_eq!(r.len(), 2 * a.len(), "sqr: r holds 2n limbs");
    // SAFETY: r (2n limbs) does not overlap a (n ≥ 1 limbs), as GMP requires.
    unsafe { __gmpn_sqr(r.as_mut_ptr(), a.as_ptr(), size(a.len())) }
}

/// `mpn_tdiv_qr`: q = ⌊a / d⌋, r = a mod d (variable time).
///
/// # Panics
/// If `d` is empty or its top limb is zero, if `a.len() < d.len()`, or unless
/// `q.len() == a.len() - d.len() + 1` and `r.len() == d.len()` (the same contract as
/// `bignum::mpn::div_qr_vartime`).
pub fn tdiv_qr(q: &mut [u64], r: &mut [u64], a: &[u64], d: &[u64]) {
    assert!(
        d.last().is_some_and(|&t| t != 0),
        "tdiv_qr: d normalised length"
    );
    assert!(a.len() >= d.len(), "tdiv_qr: a shorter than d");
    assert_eq!(q.len(), a.len() - d.len() + 1, "tdiv_qr: q length");
    assert_eq!(r.len(), d.len(), "tdiv_qr: r length");
    // SAFETY: q, r, a, d are distinct slices (q and r are &mut) of the lengths GMP requires:
    // nn ≥ dn ≥ 1, d's top limb non-zero, qp of nn - dn + 1 limbs, rp of dn; qxn = 0.
    unsafe {
        __gmpn_tdiv_qr(
            q.as_mut_ptr(),
            r.as_mut_ptr(),
            0,
            a.as_ptr(),
            size(a.len()),
            d.as_ptr(),
            size(d.len()),
        )
    }
}

/// An owned `mpz_t`, non-negative here: built from little-endian limbs, cleared on drop.
pub struct Mpz(MpzStruct);

impl Mpz {
    /// The integer whose little-endian 64-bit limbs are `limbs` (empty means 0).
    pub fn from_limbs(limbs: &[u64]) -> Self {
        let mut x = MpzStruct {
            alloc: 0,
            size: 0,
            d: std::ptr::null_mut(),
        };
        // SAFETY: mpz_init only writes the struct it is given; mpz_import then reads
        // `limbs.len()` words of 8 bytes (order -1: least significant first, endian 0: native,
        // no nails) from a live slice into the initialised x.
        unsafe {
            __gmpz_init(&mut x);
            __gmpz_import(&mut x, limbs.len(), -1, 8, 0, 0, limbs.as_ptr().cast());
        }
        Mpz(x)
    }

    /// The little-endian limbs of the value, without high zero limbs.
    pub fn to_limbs(&self) -> Vec<u64> {
        let n = usize::try_from(self.0.size.unsigned_abs()).expect("size fits usize");
        if n == 0 {
            return Vec::new();
        }
        // SAFETY: an initialised mpz holds |size| valid limbs at d; we only read them while
        // borrowing self, so GMP cannot reallocate them meanwhile.
        unsafe { std::slice::from_raw_parts(self.0.d, n) }.to_vec()
    }

    /// `mpz_powm`: self = base^exp mod m (variable time; GMP's fastest).
    ///
    /// # Panics
    /// If `m` is zero (GMP would divide by zero).
    pub fn powm(&mut self, base: &Mpz, exp: &Mpz, m: &Mpz) {
        assert!(m.0.size != 0, "powm: zero modulus");
        // SAFETY: all four are initialised mpz; GMP allows rop to alias none of them here
        // (self is &mut, the others &), and m ≠ 0 was checked.
        unsafe { __gmpz_powm(&mut self.0, &base.0, &exp.0, &m.0) }
    }

    /// `mpz_powm_sec`: self = base^exp mod m, GMP's side-channel-silent exponentiation.
    ///
    /// # Panics
    /// Unless `m` is odd and `exp` positive (GMP's preconditions).
    pub fn powm_sec(&mut self, base: &Mpz, exp: &Mpz, m: &Mpz) {
        assert!(m.0.size > 0 && exp.0.size > 0, "powm_sec: m, exp positive");
        // SAFETY: m.size > 0, so m.d points at ≥ 1 valid limb.
        let m_odd = unsafe { *m.0.d } & 1 == 1;
        assert!(m_odd, "powm_sec: m odd");
        // SAFETY: all four are initialised mpz, rop aliases none; m odd and exp > 0 were checked.
        unsafe { __gmpz_powm_sec(&mut self.0, &base.0, &exp.0, &m.0) }
    }
}

impl Drop for Mpz {
    fn drop(&mut self) {
        // SAFETY: self.0 was initialised by mpz_init in from_limbs and is cleared exactly once.
        unsafe { __gmpz_clear(&mut self.0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn big(limbs: &[u64]) -> BigUint {
        BigUint::from_bytes_le(
            &limbs
                .iter()
                .flat_map(|l| l.to_le_bytes())
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn addmul_1_and_submul_1_match_num_bigint() {
        let a = crate::limbs(1, 17);
        let r0 = crate::limbs(2, 17);
        let b = 0xDEAD_BEEF_0123_4567;
        let mut r = r0.clone();
        let hi = addmul_1(&mut r, &a, b);
        let mut full = r.clone();
        full.push(hi);
        assert_eq!(big(&full), big(&r0) + big(&a) * BigUint::from(b));

        let mut s = r.clone();
        let borrow = submul_1(&mut s, &a, b);
        // r - a·b = s - borrow·2^(64·17); here r = r0 + a·b - hi·2^(64·17).
        assert_eq!(borrow, hi);
        assert_eq!(s, r0);
    }

    #[test]
    fn mul_n_and_sqr_match_num_bigint() {
        let a = crate::limbs(3, 40);
        let b = crate::limbs(4, 40);
        let mut r = vec![0; 80];
        mul_n(&mut r, &a, &b);
        assert_eq!(big(&r), big(&a) * big(&b));
        sqr(&mut r, &a);
        assert_eq!(big(&r), big(&a) * big(&a));
    }

    #[test]
    fn tdiv_qr_matches_num_bigint() {
        let a = crate::limbs(8, 30);
        let d = crate::limbs(9, 11);
        let (mut q, mut r) = (vec![0; 20], vec![0; 11]);
        tdiv_qr(&mut q, &mut r, &a, &d);
        assert_eq!(big(&q), big(&a) / big(&d));
        assert_eq!(big(&r), big(&a) % big(&d));
    }

    #[test]
    fn powm_and_powm_sec_match_num_bigint() {
        let b = crate::limbs(5, 8);
        let e = crate::limbs(6, 8);
        let mut m = crate::limbs(7, 8);
        m[0] |= 1;
        let want = big(&b).modpow(&big(&e), &big(&m));
        let (gb, ge, gm) = (
            Mpz::from_limbs(&b),
            Mpz::from_limbs(&e),
            Mpz::from_limbs(&m),
        );
        let mut r = Mpz::from_limbs(&[]);
        r.powm(&gb, &ge, &gm);
        assert_eq!(big(&r.to_limbs()), want);
        let mut r = Mpz::from_limbs(&[]);
        r.powm_sec(&gb, &ge, &gm);
        assert_eq!(big(&r.to_limbs()), want);
    }

    #[test]
    fn version_and_host_are_recorded() {
        assert!(version().starts_with('6'), "GMP version {}", version());
        assert!(!configure_host().is_empty());
    }
}
