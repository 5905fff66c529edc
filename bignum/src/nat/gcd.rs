//! [`Nat::inv_mod_vartime`]: the modular inverse of PUBLIC values, by Lehmer's extended Euclid
//! (Knuth, TAOCP vol. 2, §4.5.2, Algorithm L) in the form of GMP's `mpn_gcdext_lehmer`: each
//! step reduces the leading two limbs of a and b by a run of quotients ([`hgcd2`], about 63
//! bits of progress), then applies the 2×2 matrix of that run to a, b and their cofactors with
//! two `mpn` kernel passes per number; where the leading limbs cannot give a step (one number
//! much shorter than the other, or the two almost equal) one division step instead; below two
//! limbs, Euclid on single words.
//!
//! Invariants, with a ≥ 0, b ≥ 0 and only the magnitudes sa, sb ≥ 0 stored:
//! a ≡ −sa·x and b ≡ sb·x (mod n), and sb·a + sa·b = n. Every matrix M has non-negative
//! entries and determinant 1, (a; b) = M·(a'; b'), so a' = u11·a − u01·b, b' = u00·b − u10·a,
//! and the cofactors grow by sums only: sa' = u11·sa + u01·sb, sb' = u00·sb + u10·sa; the
//! identity carries over unchanged. A matrix is applied only if both a' and b' come out
//! non-negative (checked from the carries; the leading-limb theory promises it, the check makes
//! the result independent of that promise), and then the identity bounds both cofactors by n,
//! so they fit n's limbs.

use crate::Nat;
use crate::limb::Limb;
use crate::mpn;
use alloc::vec;

impl Nat {
    /// self⁻¹ mod n, or none if gcd(self, n) ≠ 1 or n = 0; self may be n or more, n need not
    /// be odd, and n = 1 gives the inverse 0 of everything.
    ///
    /// # Constant time
    ///
    /// No: for public values only (an RSA private operation declassifies only a blinded value
    /// before inverting it here).
    ///
    /// # Examples
    ///
    /// ```
    /// use bignum::Nat;
    ///
    /// let n = Nat::from(1_000_003u64);
    /// assert_eq!(Nat::from(2u64).inv_mod_vartime(&n), Some(Nat::from(500_002u64)));
    /// assert_eq!(Nat::from(6u64).inv_mod_vartime(&Nat::from(9u64)), None);
    /// ```
    pub fn inv_mod_vartime(&self, n: &Nat) -> Option<Nat> {
        inv_mod_vartime(self, n)
    }
}

/// [`Nat::inv_mod_vartime`] of x modulo n (the module doc says how).
pub fn inv_mod_vartime(x: &Nat, n: &Nat) -> Option<Nat> {
    let nl = n.as_limbs();
    let l = nl.len();
    if l == 0 {
        return None;
    }
    // Eight buffers in one allocation: a, b and the scratch for their next values (l limbs
    // each), sa, sb and their scratch (l + 2 limbs: a carry limb, and one more for the
    // two-limb quotient of a division step).
    let mut buf = vec![0; 4 * l + 4 * (l + 2)];
    let (ab, s) = buf.split_at_mut(4 * l);
    let (a, rest) = ab.split_at_mut(l);
    let (mut b, rest) = rest.split_at_mut(l);
    let (mut ta, mut tb) = rest.split_at_mut(l);
    let (mut sa, rest) = s.split_at_mut(l + 2);
    let (mut sb, rest) = rest.split_at_mut(l + 2);
    let (mut tsa, mut tsb) = rest.split_at_mut(l + 2);
    let mut a = a;
    a.copy_from_slice(nl);
    if x.as_limbs().len() < l || (x.as_limbs().len() == l && x < n) {
        b[..x.as_limbs().len()].copy_from_slice(x.as_limbs());
    } else {
        let x = x % n;
        b[..x.as_limbs().len()].copy_from_slice(x.as_limbs());
    }
    sb[0] = 1;
    // The limbs of sa and sb that may be non-zero; every limb above is zero.
    let mut slen = 1;
    let mut len = l;
    loop {
        let la = mpn::normalized_len_vartime(&a[..len]);
        let lb = mpn::normalized_len_vartime(&b[..len]);
        if la == 0 || lb == 0 {
            break;
        }
        len = la.max(lb);
        if len == 1 {
            // Both fit a word: Euclid to the end there, then one cofactor update.
            let (m, a1, b1) = euclid_1(a[0], b[0]);
            (a[0], b[0]) = (a1, b1);
            slen = cofactors(&m, &mut sa, &mut sb, &mut tsa, &mut tsb, slen);
            continue;
        }
        let m = hgcd2(
            top_bits(&a[..len]),
            top_bits(&b[..len]),
            leading_shift(a, b, len),
        );
        if let Some(m) = m
            && mat_vec(&m, &a[..len], &b[..len], &mut ta[..len], &mut tb[..len])
        {
            core::mem::swap(&mut a, &mut ta);
            core::mem::swap(&mut b, &mut tb);
            slen = cofactors(&m, &mut sa, &mut sb, &mut tsa, &mut tsb, slen);
        } else {
            slen = div_step(&mut a[..len], &mut b[..len], sa, sb, slen);
        }
    }
    // One of a and b is zero, the other gcd(x, n).
    let one = |v: &[Limb]| v[0] == 1 && v[1..].iter().all(|&w| w == 0);
    let mut inv = vec![0; l];
    if mpn::normalized_len_vartime(&a[..len]) != 0 {
        if !one(&a[..len]) {
            return None;
        }
        // 1 = a ≡ −sa·x: x⁻¹ = n − sa, as 0 < sa ≤ n (sa = 0 only for n = 1, where x⁻¹ = 0).
        if slen <= l {
            let borrow = mpn::sub_n(&mut inv[..slen], &nl[..slen], &sa[..slen]);
            mpn::sub_1(&mut inv[slen..], &nl[slen..], borrow);
        }
    } else {
        if !one(&b[..len]) {
            return None;
        }
        // 1 = b ≡ sb·x, sb ≤ n.
        inv[..slen.min(l)].copy_from_slice(&sb[..slen.min(l)]);
    }
    // n − sa and sb are below n but when they equal n (n = 1).
    let inv = Nat::from_limbs(&inv);
    Some(if inv == *n { Nat::ZERO } else { inv })
}

/// A 2×2 matrix (u00 u01; u10 u11) of non-negative entries and determinant 1, a product of
/// elementary steps (1 q; 0 1) (a ← a − q·b) and (1 0; q 1) (b ← b − q·a): (a; b) = M·(a'; b').
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Matrix {
    u00: u64,
    u01: u64,
    u10: u64,
    u11: u64,
}

impl Matrix {
    const ONE: Matrix = Matrix {
        u00: 1,
        u01: 0,
        u10: 0,
        u11: 1,
    };
}

/// The shift that brings the top bit of the longer of a and b (`len` limbs, `len` ≥ 2) to bit
/// 63 of limb `len` − 1, or 0 when there are just two limbs (nothing below to shift in).
fn leading_shift(a: &[Limb], b: &[Limb], len: usize) -> u32 {
    if len == 2 {
        0
    } else {
        (a[len - 1] | b[len - 1]).leading_zeros()
    }
}

/// The top three limbs of `a` (`a.len()` ≥ 2 limbs, top limb possibly zero; a zero third
/// limb for two), from which [`hgcd2`] takes 128 bits at the shift of [`leading_shift`].
fn top_bits(a: &[Limb]) -> [Limb; 3] {
    let n = a.len();
    [a[n - 1], a[n - 2], if n >= 3 { a[n - 3] } else { 0 }]
}

/// Bits [2⁶⁵, 2¹²⁸) of the double-limb phase: a reduction stops once the number it reduces
/// falls below this (GMP's hgcd2: the high limb below 2).
const STOP2: u128 = 1 << 65;
/// The single-limb phase, on the leading 64 of 96 bits: the same bound shifted by 32.
const STOP1: u64 = 1 << 33;

/// GMP's hgcd2 (Möller, "On Schönhage's algorithm and subquadratic integer gcd computation",
/// 2008), written anew: from the leading 128 bits A, B of a and b (the same shift for both,
/// the longer normalised), the matrix of the run of Euclid's quotients that keeps the reduced
/// numbers at 2⁶⁵ or more, so that it is also a correct run for the full a and b; none if not
/// even one quotient qualifies. Double precision while the number being reduced is 2⁹⁶ or
/// more, then single precision on bits [32, 96), as GMP; one division per quotient in both
/// (faster than GMP's trial subtractions, and than running the double precision to the end:
/// docs/benchmarks-log.md, "The blinded inverse of the CRT operation" and "hgcd2: one division
/// per quotient").
fn hgcd2(a: [Limb; 3], b: [Limb; 3], shift: u32) -> Option<Matrix> {
    let lead = |v: [Limb; 3]| -> u128 {
        let hi = (u128::from(v[0]) << 64) | u128::from(v[1]);
        if shift == 0 {
            hi
        } else {
            (hi << shift) | u128::from(v[2] >> (64 - shift))
        }
    };
    let (a, b) = (lead(a), lead(b));
    if a < STOP2 || b < STOP2 || a == b {
        return None;
    }
    // The larger number and the smaller, each with its column of M: a ← a − q·b adds q times
    // a's column (u00, u10) to b's (u01, u11), and the other way round. `b_big` says which
    // is which, the rest of the way the two just trade places after each division.
    let mut b_big = b > a;
    let (mut big, mut small) = if b_big { (b, a) } else { (a, b) };
    let (mut cbig, mut csmall) = if b_big {
        ([0, 1], [1, 0])
    } else {
        ([1, 0], [0, 1])
    };
    // Double precision while the number to reduce is 2⁹⁶ or more.
    loop {
        if big < 1 << 96 {
            break;
        }
        let (q, r) = quot_rem_128(big, small);
        if r < STOP2 {
            // big − q·small is too small; big − (q − 1)·small ≥ small is not.
            return matrix(b_big, cbig, add_mul(csmall, q - 1, cbig).unwrap_or(csmall));
        }
        let Some(c) = add_mul(csmall, q, cbig) else {
            return matrix(b_big, cbig, csmall);
        };
        (big, small, cbig, csmall, b_big) = (small, r, c, cbig, !b_big);
    }
    // Single precision on bits [32, 96) (both below 2⁹⁶ now).
    #[allow(clippy::cast_possible_truncation)] // below 2⁹⁶ before the shift
    let (mut big, mut small) = ((big >> 32) as u64, (small >> 32) as u64);
    loop {
        // Public values (the leading bits of public a and b); small ≥ 2³³. A division every
        // step: faster than trying small quotients first (GMP's HGCD2_DIV1_METHOD 1; measured:
        // see docs/benchmarks-log.md, "hgcd2: one division per quotient").
        #[allow(clippy::integer_division_remainder_used)]
        let q = big / small;
        let r = big - q * small;
        if r < STOP1 {
            return matrix(b_big, cbig, add_mul(csmall, q - 1, cbig).unwrap_or(csmall));
        }
        let Some(c) = add_mul(csmall, q, cbig) else {
            return matrix(b_big, cbig, csmall);
        };
        (big, small, cbig, csmall, b_big) = (small, r, c, cbig, !b_big);
    }
}

/// c + q·d (columns of a matrix), or none on overflow.
#[inline]
fn add_mul(c: [u64; 2], q: u64, d: [u64; 2]) -> Option<[u64; 2]> {
    Some([
        c[0].checked_add(q.checked_mul(d[0])?)?,
        c[1].checked_add(q.checked_mul(d[1])?)?,
    ])
}

/// The matrix from the columns of the larger and the smaller number; none if it is the
/// identity (no step was taken).
fn matrix(b_big: bool, cbig: [u64; 2], csmall: [u64; 2]) -> Option<Matrix> {
    let (c0, c1) = if b_big {
        (csmall, cbig)
    } else {
        (cbig, csmall)
    };
    let m = Matrix {
        u00: c0[0],
        u10: c0[1],
        u01: c1[0],
        u11: c1[1],
    };
    (m != Matrix::ONE).then_some(m)
}

/// ⌊a / b⌋ and a mod b for a ≥ b ≥ 2⁶⁵ (so the quotient fits a word).
///
/// By one word division of the leading bits and a correction of at most one: a 128-bit
/// division is a library call several times slower, and trying small quotients by
/// subtraction first costs more in mispredicted branches than the division (docs/benchmarks-log.md,
/// "hgcd2: one division per quotient"). With s such that ah = ⌊a/2ˢ⌋ < 2⁶⁴, and bh = ⌊b/2ˢ⌋:
/// q·bh ≤ ah (a ≥ q·b), so ⌊ah/bh⌋ ≥ q; and ah/bh − a/b < ah/(bh·(bh + 1)) < 1 once
/// bh ≥ 2³², so ⌊ah/bh⌋ ≤ q + 1. Quotients of about 2³¹ and more (bh < 2³²: almost never in
/// Euclid's sequence) take the 128-bit division.
pub fn quot_rem_128(a: u128, b: u128) -> (u64, u128) {
    let s = (128 - a.leading_zeros()).saturating_sub(64);
    #[allow(clippy::cast_possible_truncation)] // below 2⁶⁴ after the shift
    let (ah, bh) = ((a >> s) as u64, (b >> s) as u64);
    if bh >> 32 != 0 {
        // Public values; bh ≠ 0.
        #[allow(clippy::integer_division_remainder_used)]
        let mut q = ah / bh;
        // a − q·b modulo 2¹²⁸ (q·b may exceed 2¹²⁸ by less than b): it is in [−b, b), and
        // b < 2¹²⁷ unless a and b share their top bit and q = 1 exactly, so the top bit
        // says negative.
        let mut r = a.wrapping_sub(u128::from(q).wrapping_mul(b));
        if r >> 127 != 0 {
            q -= 1;
            r = r.wrapping_add(b);
        }
        return (q, r);
    }
    // Public values; a < 2¹²⁸ and b ≥ 2⁶⁵, so the quotient is below 2⁶³.
    #[allow(
        clippy::integer_division_remainder_used,
        clippy::cast_possible_truncation
    )]
    let q = (a / b) as u64;
    (q, a - u128::from(q) * b)
}

/// Euclid on single words to the end: (M, a', b') with (a; b) = M·(a'; b') and one of a', b'
/// zero, the other gcd(a, b). The entries stay below 2⁶⁴: before the last step both reduced
/// numbers are at least 1, so a = u00·a' + u01·b' bounds the entries, and the last step
/// makes one column a/g or b/g.
fn euclid_1(mut a: u64, mut b: u64) -> (Matrix, u64, u64) {
    let mut m = Matrix::ONE;
    while a != 0 && b != 0 {
        if a >= b {
            let q = quot(a, b);
            a -= q * b;
            m.u01 += q * m.u00;
            m.u11 += q * m.u10;
        } else {
            let q = quot(b, a);
            b -= q * a;
            m.u00 += q * m.u01;
            m.u10 += q * m.u11;
        }
    }
    (m, a, b)
}

/// (ta; tb) = M⁻¹·(a; b) = (u11·a − u01·b; u00·b − u10·a), if both come out non-negative
/// (then they fit: a' ≤ a, b' ≤ b as M's entries are non-negative with u00, u11 ≥ 1); false
/// otherwise, with `ta` and `tb` garbage.
fn mat_vec(m: &Matrix, a: &[Limb], b: &[Limb], ta: &mut [Limb], tb: &mut [Limb]) -> bool {
    // The high limbs of the two products must cancel exactly: a borrow beyond the carry means
    // a negative result, a carry beyond the borrow a result longer than a.
    mpn::mul_1(ta, a, m.u11) == mpn::submul_1(ta, b, m.u01)
        && mpn::mul_1(tb, b, m.u00) == mpn::submul_1(tb, a, m.u10)
}

/// (sa; sb) ← (u11·sa + u01·sb; u00·sb + u10·sa) over the first `slen` limbs (the others are
/// zero), through the scratch `tsa`, `tsb` (swapped in); returns the new length. Both stay at
/// most n (the invariant of [`inv_mod_vartime`]), so they fit `sa.len()` − 1 limbs and the
/// carry limb written at `slen` is in bounds.
fn cofactors<'s>(
    m: &Matrix,
    sa: &mut &'s mut [Limb],
    sb: &mut &'s mut [Limb],
    tsa: &mut &'s mut [Limb],
    tsb: &mut &'s mut [Limb],
    slen: usize,
) -> usize {
    let s = slen;
    // The top limbs cannot overflow while the invariant holds; wrapping keeps a broken one
    // from panicking.
    let c = mpn::mul_1(&mut tsa[..s], &sa[..s], m.u11);
    tsa[s] = c.wrapping_add(mpn::addmul_1(&mut tsa[..s], &sb[..s], m.u01));
    let c = mpn::mul_1(&mut tsb[..s], &sb[..s], m.u00);
    tsb[s] = c.wrapping_add(mpn::addmul_1(&mut tsb[..s], &sa[..s], m.u10));
    core::mem::swap(sa, tsa);
    core::mem::swap(sb, tsb);
    if s + 2 < sa.len() && (sa[s] | sb[s]) != 0 {
        s + 1
    } else {
        s
    }
}

/// One division step where the leading limbs give no matrix: the larger of a and b becomes
/// its remainder by the smaller, and its cofactor grows by the quotient times the other's
/// (a ← a − q·b: sa ← sa + q·sb; b ← b − q·a: sb ← sb + q·sa). Both a and b non-zero.
/// Returns the new cofactor length. Two-limb a and b go to [`div_step_2`].
fn div_step(
    a: &mut [Limb],
    b: &mut [Limb],
    sa: &mut [Limb],
    sb: &mut [Limb],
    slen: usize,
) -> usize {
    if a.len() == 2 {
        let (av, bv) = (wide(a), wide(b));
        let (big, small, s_big, s_small) = larger_first(a, b, sa, sb, av, bv);
        return div_step_2(big, small, s_big, s_small, slen);
    }
    let (an, bn) = (Nat::from_limbs(a), Nat::from_limbs(b));
    let (big, small, s_big, s_small) = larger_first(a, b, sa, sb, an, bn);
    let (q, r) = Nat::from_limbs(big).div_rem(&small);
    store(big, &r);
    let s = &Nat::from_limbs(&s_big[..slen]) + &(&q * &Nat::from_limbs(&s_small[..slen]));
    store(s_big, &s);
    slen.max(s.as_limbs().len())
}

/// Of a and b (values `va`, `vb`) and their cofactors: the larger, the smaller's value, the
/// larger's cofactor and the smaller's.
fn larger_first<'x, V: PartialOrd>(
    a: &'x mut [Limb],
    b: &'x mut [Limb],
    sa: &'x mut [Limb],
    sb: &'x mut [Limb],
    va: V,
    vb: V,
) -> (&'x mut [Limb], V, &'x mut [Limb], &'x [Limb]) {
    if va >= vb {
        (a, vb, sa, sb)
    } else {
        (b, va, sb, sa)
    }
}

/// Two limbs as one value.
fn wide(v: &[Limb]) -> u128 {
    (u128::from(v[1]) << 64) | u128::from(v[0])
}

/// [`div_step`] on two-limb a and b without allocating, `big` the larger of them and `small`
/// the smaller's value: the quotient has at most two limbs, so the cofactor takes two
/// `addmul_1` passes (`s_big`, `s_small` have two limbs beyond `slen`).
fn div_step_2(
    big: &mut [Limb],
    small: u128,
    s_big: &mut [Limb],
    s_small: &[Limb],
    slen: usize,
) -> usize {
    let bigv = wide(big);
    // Public values; small ≠ 0 (both a and b are non-zero here).
    #[allow(clippy::integer_division_remainder_used)]
    let (q, r) = (bigv / small, bigv % small);
    #[allow(clippy::cast_possible_truncation)] // the two halves
    let (q0, q1, r0, r1) = (q as u64, (q >> 64) as u64, r as u64, (r >> 64) as u64);
    (big[0], big[1]) = (r0, r1);
    let s = slen;
    let c = mpn::addmul_1(&mut s_big[..s], &s_small[..s], q0);
    s_big[s] = c;
    let c = mpn::addmul_1(&mut s_big[1..=s], &s_small[..s], q1);
    s_big[s + 1] = s_big[s + 1].wrapping_add(c);
    // sa and sb stay at most n, so at most `s_big.len()` − 2 limbs are non-zero.
    let n = mpn::normalized_len_vartime(&s_big[..s + 2]);
    slen.max(n).min(s_big.len() - 2)
}

/// `v` into `dst`, zero-padded (`v` fits: the invariants bound it).
fn store(dst: &mut [Limb], v: &Nat) {
    dst.fill(0);
    for (d, &w) in dst.iter_mut().zip(v.as_limbs()) {
        *d = w;
    }
}

/// ⌊n / d⌋ for d > 0: by subtraction for quotients up to 3 (about two thirds of the
/// quotients of the Euclidean algorithm, after the Gauss–Kuzmin distribution), which is
/// cheaper than the division instruction; by division beyond.
#[inline]
pub fn quot(n: u64, d: u64) -> u64 {
    let mut r = n;
    for q in 0..4 {
        if r < d {
            return q;
        }
        r -= d;
    }
    // Public values (the leading bits of a public a and b): `/` is fine.
    #[allow(clippy::integer_division_remainder_used)]
    let q = n / d;
    q
}
