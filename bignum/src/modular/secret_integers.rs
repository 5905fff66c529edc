//! Constant-time helpers on secret integers that are not residues of an odd modulus: what RSA
//! key generation needs with secret even moduli (p - 1, lcm(p - 1, q - 1)) and a public e.
//!
//! # Constant time
//!
//! Every function here takes time that depends on the lengths of its inputs (and on the public
//! `e`) only: bit-serial shift-and-conditional-subtract division, a binary gcd with a fixed
//! step count, and exact division by a public limb through its inverse modulo 2⁶⁴. No `/` or
//! `%` touches a secret.

use alloc::{vec, vec::Vec};
use subtle::CtOption;
use zeroize::Zeroizing;

use crate::limb::{self, Limb};
use crate::mpn;

use super::{ct, inv::inv_odd};

/// gcd(a, b) of two secret numbers of equal length (gcd(0, 0) = 0), `a.len()` limbs.
///
/// Binary gcd (Stein) made constant-time: 64·n masked halvings strip the common power of two
/// 2^k, then 128·n steps of "if a is odd, a ← |a - b| (b ← min); a ← a/2" with b odd reach
/// a = 0, b = odd part of the gcd; finally 64·n masked doublings restore 2^k.
///
/// # Constant time
///
/// Depends on `a.len()` only.
///
/// # Panics
///
/// If `a` and `b` differ in length.
pub fn gcd(a: &[Limb], b: &[Limb]) -> Zeroizing<Vec<Limb>> {
    assert_eq!(a.len(), b.len(), "gcd: length mismatch");
    let n = a.len();
    let mut a = Zeroizing::new(a.to_vec());
    let mut b = Zeroizing::new(b.to_vec());
    if n == 0 {
        return b;
    }
    let mut k: Limb = 0;
    for _ in 0..64 * n {
        let both_even = ((a[0] | b[0]) & 1) ^ 1;
        let m = limb::mask(both_even);
        ct::cnd_rshift1(m, &mut a);
        ct::cnd_rshift1(m, &mut b);
        k = k.wrapping_add(both_even);
    }
    // At least one is odd now (unless both are zero): make it b.
    ct::cnd_swap(limb::mask((b[0] & 1) ^ 1), &mut a, &mut b);
    for _ in 0..2 * 64 * n {
        let odd = limb::mask(a[0] & 1);
        let swap = limb::mask(ct::cnd_sub_assign(odd, &mut a, &b));
        ct::cnd_add_assign(swap, &mut b, &a);
        ct::cnd_neg_assign(swap, &mut a);
        mpn::rshift_assign(&mut a, 1);
    }
    for i in 0..64 * n as Limb {
        // The gcd divides both inputs, so it fits in n limbs: nothing shifts out.
        ct::cnd_lshift1(limb::mask(limb::lt(i, k)), &mut b);
    }
    b
}

/// lcm(a, b) of two secret numbers of equal length n, as 2n limbs (lcm(0, x) = 0):
/// a·b / gcd(a, b), the division exact and bit-serial.
///
/// # Constant time
///
/// Depends on `a.len()` only.
///
/// # Panics
///
/// If `a` and `b` differ in length or are empty.
pub fn lcm(a: &[Limb], b: &[Limb]) -> Zeroizing<Vec<Limb>> {
    assert_eq!(a.len(), b.len(), "lcm: length mismatch");
    assert!(!a.is_empty(), "lcm: empty operands");
    let g = gcd(a, b);
    let mut prod = Zeroizing::new(vec![0; 2 * a.len()]);
    mpn::mul(&mut prod, a, b);
    let (mut q, _) = div_rem_unchecked(&prod, &g);
    // g = 0 only when a = b = 0, whose lcm is 0 (the quotient of a division by zero is all-ones).
    let nonzero = limb::mask(ct::is_zero(&g) ^ 1);
    for q in q.iter_mut() {
        *q &= nonzero;
    }
    q
}

/// (a / d, a mod d) for secret `a` and `d`, or none if d = 0: quotient `a.len()` limbs,
/// remainder `d.len()` limbs.
///
/// Bit-serial restoring division: for each of the 64·`a.len()` bits of `a`, from the top,
/// r ← 2r + bit and r ← r - d by mask when r ≥ d.
///
/// # Constant time
///
/// Depends on `a.len()` and `d.len()` only, including whether d = 0.
///
/// # Panics
///
/// If `d` is empty.
#[allow(clippy::type_complexity)]
pub fn div_rem(a: &[Limb], d: &[Limb]) -> CtOption<(Zeroizing<Vec<Limb>>, Zeroizing<Vec<Limb>>)> {
    assert!(!d.is_empty(), "div_rem: empty divisor");
    let nonzero = ct::is_zero(d) ^ 1;
    CtOption::new(div_rem_unchecked(a, d), ct::choice_of(nonzero))
}

/// a mod d for secret `a` and `d` (`d.len()` limbs), or none if d = 0. For d mod (p - 1).
///
/// # Constant time
///
/// Depends on `a.len()` and `d.len()` only.
///
/// # Panics
///
/// If `d` is empty.
pub fn rem(a: &[Limb], d: &[Limb]) -> CtOption<Zeroizing<Vec<Limb>>> {
    assert!(!d.is_empty(), "rem: empty divisor");
    let nonzero = ct::is_zero(d) ^ 1;
    let (_, r) = div_rem_unchecked(a, d);
    CtOption::new(r, ct::choice_of(nonzero))
}

/// The division of [`div_rem`]; for d = 0 the quotient is all-ones and the remainder garbage.
fn div_rem_unchecked(a: &[Limb], d: &[Limb]) -> (Zeroizing<Vec<Limb>>, Zeroizing<Vec<Limb>>) {
    let nd = d.len();
    let mut q = Zeroizing::new(vec![0; a.len()]);
    let mut dd = Zeroizing::new(vec![0; nd + 1]);
    dd[..nd].copy_from_slice(d);
    let mut r = Zeroizing::new(vec![0; nd + 1]);
    let mut t = Zeroizing::new(vec![0; nd + 1]);
    for i in (0..a.len()).rev() {
        for j in (0..64).rev() {
            // r < d before, so 2r + 1 < 2d fits nd + 1 limbs.
            mpn::lshift_assign(&mut r, 1);
            r[0] |= (a[i] >> j) & 1;
            let borrow = mpn::sub_n(&mut t, &r, &dd);
            let take = limb::mask(borrow ^ 1);
            ct::cnd_copy(take, &mut r, &t);
            q[i] |= (take & 1) << j;
        }
    }
    let rem = Zeroizing::new(r[..nd].to_vec());
    (q, rem)
}

/// a mod e for a secret `a` and a public non-zero `e`, bit-serially (no `div` on the secret).
fn rem_1(a: &[Limb], e: Limb) -> Limb {
    let mut r: Limb = 0;
    for &x in a.iter().rev() {
        for j in (0..64).rev() {
            // 2r + bit < 2e ≤ 2⁶⁵: the bit shifted out of r is `top`.
            let top = r >> 63;
            let t = (r << 1) | ((x >> j) & 1);
            let (d, borrow) = limb::sbb(t, e, 0);
            r = limb::select(limb::mask(top | (borrow ^ 1)), d, t);
        }
    }
    r
}

/// r = a / d for an exact division by a public odd limb `d` (Hensel division, as GMP's
/// `mpn_divexact_1`): q_i = (a_i - c)·d⁻¹ mod 2⁶⁴, c = high(q_i·d) + borrow.
fn divexact_1(r: &mut [Limb], a: &[Limb], d: Limb) {
    let dinv = limb::inv(d);
    let mut c = 0;
    for (r, &a) in r.iter_mut().zip(a) {
        let (s, borrow) = limb::sbb(a, c, 0);
        let q = s.wrapping_mul(dinv);
        *r = q;
        c = limb::mul_wide(q, d).1.wrapping_add(borrow);
    }
}

/// e⁻¹ mod m for a PUBLIC odd e ≥ 3 and a SECRET m ≥ 2 (even or odd: p - 1, lcm(p - 1, q - 1)),
/// as `m.len()` limbs; none if gcd(e, m) ≠ 1, m < 2, or e is even or 1.
///
/// With t = -m⁻¹ mod e (m mod e found bit-serially, inverted modulo the public e by the
/// constant-time binary gcd), 1 + m·t ≡ 0 (mod e), and d = (1 + m·t)/e satisfies
/// d·e = 1 + m·t ≡ 1 (mod m) with d < m. The division by e is exact and done by multiplying with
/// e⁻¹ mod 2⁶⁴, never by a `div` on secret data.
///
/// # Constant time
///
/// Depends on `m.len()` and `e` only.
///
/// # Panics
///
/// If `m` is empty.
pub fn inv_public_mod_secret(e: Limb, m: &[Limb]) -> CtOption<Zeroizing<Vec<Limb>>> {
    assert!(!m.is_empty(), "inv_public_mod_secret: empty modulus");
    let n = m.len();
    if e < 3 || e & 1 == 0 {
        // e is public.
        return CtOption::new(Zeroizing::new(vec![0; n]), subtle::Choice::from(0));
    }
    let r = rem_1(m, e);
    let mut x = [0];
    let ok = inv_odd(&mut x, &[r], &[e]);
    // t = -r⁻¹ mod e (x ∈ [1, e) when r is invertible).
    let t = limb::select(limb::mask(limb::is_zero(x[0])), 0, e.wrapping_sub(x[0]));
    let mut num = Zeroizing::new(vec![0; n + 1]);
    num[n] = mpn::mul_1(&mut num[..n], m, t);
    // 1 + m·t < 2^(64·n)·e: no carry out of n + 1 limbs.
    mpn::add_assign_1(&mut num, 1);
    let mut d = Zeroizing::new(vec![0; n + 1]);
    divexact_1(&mut d, &num, e);
    // m ≥ 2 ⟺ m >> 1 ≠ 0.
    let big_enough = ct::is_zero(&m[1..]) & limb::is_zero(m[0] >> 1) ^ 1;
    d.truncate(n);
    CtOption::new(d, ct::choice_of(ok & big_enough))
}
