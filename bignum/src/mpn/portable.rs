//! Plain-Rust kernels: the reference every other back end must equal, limb for limb.
//!
//! Every function here runs in time that depends only on the slice lengths.
//! Length preconditions are checked by the callers in [`crate::mpn`]; here they are
//! `debug_assert!`s, and a violation can at worst give a wrong result, never unsafety.

use crate::limb::{self, Limb};

/// r = a + b, returns the carry (0 or 1). Equal lengths.
pub fn add_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    debug_assert!(r.len() == a.len() && a.len() == b.len());
    let mut c = 0;
    for ((r, &a), &b) in r.iter_mut().zip(a).zip(b) {
        (*r, c) = limb::adc(a, b, c);
    }
    c
}

/// r = a - b, returns the borrow (0 or 1). Equal lengths.
pub fn sub_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    debug_assert!(r.len() == a.len() && a.len() == b.len());
    let mut c = 0;
    for ((r, &a), &b) in r.iter_mut().zip(a).zip(b) {
        (*r, c) = limb::sbb(a, b, c);
    }
    c
}

/// r = a · b, returns the high limb. Equal lengths of `r` and `a`.
pub fn mul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    debug_assert!(r.len() == a.len());
    let mut c = 0;
    for (r, &a) in r.iter_mut().zip(a) {
        (*r, c) = limb::mac(0, a, b, c);
    }
    c
}

/// r += a · b, returns the high limb. Equal lengths of `r` and `a`.
pub fn addmul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    debug_assert!(r.len() == a.len());
    let mut c = 0;
    for (r, &a) in r.iter_mut().zip(a) {
        (*r, c) = limb::mac(*r, a, b, c);
    }
    c
}

/// r -= a · b, returns the high limb of what could not be subtracted (the borrow, up to `b`).
pub fn submul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    debug_assert!(r.len() == a.len());
    let mut c = 0;
    for (r, &a) in r.iter_mut().zip(a) {
        let (lo, hi) = limb::mac(0, a, b, c);
        let (d, borrow) = limb::sbb(*r, lo, 0);
        *r = d;
        // hi ≤ 2⁶⁴ - 2 because a·b + c < 2¹²⁸ - 2⁶⁴, so adding the borrow cannot wrap.
        c = hi + borrow;
    }
    c
}

/// Montgomery product without the final subtraction (see [`crate::mpn::mont_mul`]): fused
/// CIOS (Koç, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication algorithms",
/// 1996). For each b_i, one pass over j adds a_j·b_i (carry `c`) and m_j·q (carry `d`) into the
/// running sum and shifts it down one limb as it goes, with q = (t_0 + a_0·b_i)·m' from the
/// first limb. The running sum lives in `r` plus one top limb `hi`; no scratch is used.
pub fn mont_mul(
    r: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
    m: &[Limb],
    minv: Limb,
    _scratch: &mut [Limb],
) -> Limb {
    let n = m.len();
    debug_assert!(n > 0 && r.len() == n && a.len() == n && b.len() == n);
    // Equal-length views, so the indexing below compiles without bounds checks.
    let (r, a) = (&mut r[..n], &a[..n]);
    r.fill(0);
    let mut hi: Limb = 0;
    for &bi in b {
        let (t0, mut c) = limb::mac(r[0], a[0], bi, 0);
        let q = t0.wrapping_mul(minv);
        // t0 + m_0·q ≡ 0 (mod 2⁶⁴) by the choice of q: only the carry matters.
        let (_, mut d) = limb::mac(t0, m[0], q, 0);
        for j in 1..n {
            let (t, c1) = limb::mac(r[j], a[j], bi, c);
            let (t, d1) = limb::mac(t, m[j], q, d);
            r[j - 1] = t;
            (c, d) = (c1, d1);
        }
        let (s, c1) = limb::adc(hi, c, 0);
        let (s, c2) = limb::adc(s, d, 0);
        r[n - 1] = s;
        // The sum is < 2m < 2R, so at most one of the two carries is set.
        hi = c1 + c2;
    }
    hi
}

/// Montgomery reduction without the final subtraction (see [`crate::mpn::redc_1`]): n rows
/// t += q_i·m·2^(64·i) with q_i = t_i·m', inlined. Row i's carry belongs at limb i+n; it is
/// parked in the limb the row just zeroed, t_i, and all n carries are added at the end (as
/// GMP's `mpn_redc_1`).
pub fn redc_1(r: &mut [Limb], t: &mut [Limb], m: &[Limb], minv: Limb) -> Limb {
    let n = m.len();
    debug_assert!(n > 0 && r.len() == n && t.len() == 2 * n);
    for i in 0..n {
        let row = &mut t[i..i + n];
        let q = row[0].wrapping_mul(minv);
        let mut c = 0;
        for (t, &mj) in row.iter_mut().zip(m) {
            (*t, c) = limb::mac(*t, mj, q, c);
        }
        row[0] = c;
    }
    let (carries, high) = t.split_at(n);
    add_n(r, high, carries)
}
