//! The strong Lucas probable-prime test with Selfridge's parameters, for PUBLIC numbers.
//!
//! Baillie & Wagstaff, "Lucas pseudoprimes", 1980: pick D from 5, −7, 9, −11, … as the first
//! with Jacobi symbol (D/n) = −1, set P = 1 and Q = (1 − D)/4, write n + 1 = d·2ˢ with d odd.
//! n is a strong Lucas probable prime when U_d ≡ 0, or V_(d·2ʳ) ≡ 0 for some 0 ≤ r < s (mod n).
//! Together with a base-2 Miller–Rabin round this is the Baillie–PSW test, for which no
//! composite that passes is known.
//!
//! # Constant time
//!
//! Not constant-time: the parameter search and the loop structure depend on n, which must be
//! public. Key generation does not use this test.

use alloc::vec;
use core::cmp::Ordering;

use crate::limb::{LIMB_BITS, Limb};
use crate::modular::{Modulus, Residue};
use crate::mpn;

use super::miller_rabin::{shift_right, trailing_zeros_vartime};

/// Whether the odd n ≥ 3 (normalised limbs) is a strong Lucas probable prime.
pub fn is_strong_lucas_probable_prime(n: &[Limb]) -> bool {
    let Some(d) = selfridge_d(n) else {
        return false;
    };
    let Ok(m) = Modulus::new_vartime(n) else {
        return false;
    };
    let residue = |v: i64| -> Residue {
        let r = m.reduce(&[v.unsigned_abs()]);
        if v < 0 { m.neg(&r) } else { r }
    };
    let dd = residue(d);
    // Q = (1 − D)/4 exactly, since D ≡ 1 mod 4.
    let q = residue((1 - d) >> 2);
    // Halving mod n is multiplying by (n + 1)/2.
    let mut half = n.to_vec();
    half.push(0);
    mpn::add_assign_1(&mut half, 1);
    mpn::rshift_assign(&mut half, 1);
    let half = m.reduce(&half);

    // n + 1 = k·2ˢ with k odd.
    let mut k = n.to_vec();
    k.push(0);
    mpn::add_assign_1(&mut k, 1);
    let s = trailing_zeros_vartime(&k);
    shift_right(&mut k, s);
    let k_bits = bit_len(&k);

    // Left to right over the bits of k, from U_1 = 1, V_1 = P = 1, Q^1.
    let mut u = m.one();
    let mut v = m.one();
    let mut qk = q.clone();
    for i in (0..k_bits - 1).rev() {
        // k → 2k: U₂ₖ = Uₖ·Vₖ, V₂ₖ = Vₖ² − 2Qᵏ, Q²ᵏ = (Qᵏ)².
        u = m.mul(&u, &v);
        v = m.sub(&m.sqr(&v), &m.add(&qk, &qk));
        qk = m.sqr(&qk);
        if k[i >> 6] >> (i & 63) & 1 == 1 {
            // 2k → 2k + 1 with P = 1: U = (U + V)/2, V = (D·U + V)/2.
            let u1 = m.mul(&m.add(&u, &v), &half);
            let v1 = m.mul(&m.add(&m.mul(&dd, &u), &v), &half);
            u = u1;
            v = v1;
            qk = m.mul(&qk, &q);
        }
    }
    if bool::from(u.is_zero() | v.is_zero()) {
        return true;
    }
    for _ in 1..s {
        // V₂ₖ = Vₖ² − 2Qᵏ.
        v = m.sub(&m.sqr(&v), &m.add(&qk, &qk));
        qk = m.sqr(&qk);
        if bool::from(v.is_zero()) {
            return true;
        }
    }
    false
}

/// Selfridge's D: the first of 5, −7, 9, −11, … with (D/n) = −1; `None` when n is composite
/// because it shares a factor with some D, or is a perfect square (then no such D exists).
fn selfridge_d(n: &[Limb]) -> Option<i64> {
    let mut d: i64 = 5;
    for attempt in 0.. {
        match jacobi_small(d, n) {
            -1 => return Some(d),
            0 if !equals_small(n, d.unsigned_abs()) => return None,
            _ => {}
        }
        if attempt == 20 && is_perfect_square_vartime(n) {
            return None;
        }
        d = if d > 0 { -(d + 2) } else { -d + 2 };
    }
    None
}

fn equals_small(n: &[Limb], v: u64) -> bool {
    mpn::normalized_len_vartime(n) <= 1 && n.first().copied().unwrap_or(0) == v
}

/// n mod k for a public n and a small k > 0.
#[allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation
)] // public values
fn rem_small(n: &[Limb], k: u64) -> u64 {
    n.iter().rev().fold(0u64, |acc, &limb| {
        ((u128::from(acc) << 64 | u128::from(limb)) % u128::from(k)) as u64
    })
}

/// The Jacobi symbol (a/n) for a small signed a and an odd n ≥ 3.
#[allow(clippy::integer_division_remainder_used)] // public values
pub fn jacobi_small(a: i64, n: &[Limb]) -> i32 {
    let n_mod_8 = n[0] & 7;
    let mut j = 1;
    let mut a = if a < 0 {
        // (−1/n) = −1 exactly when n ≡ 3 mod 4.
        if n_mod_8 & 3 == 3 {
            j = -j;
        }
        a.unsigned_abs()
    } else {
        a.unsigned_abs()
    };
    // (2/n) = −1 exactly when n ≡ 3, 5 mod 8.
    while a != 0 && a & 1 == 0 {
        a >>= 1;
        if n_mod_8 == 3 || n_mod_8 == 5 {
            j = -j;
        }
    }
    if a == 0 {
        return 0;
    }
    if a == 1 {
        return j;
    }
    // Reciprocity for odd a: (a/n) = (n/a), negated when a ≡ n ≡ 3 mod 4.
    if a & 3 == 3 && n_mod_8 & 3 == 3 {
        j = -j;
    }
    j * jacobi_u64(rem_small(n, a), a)
}

/// The Jacobi symbol (a/n) for word-sized a and odd n.
#[allow(clippy::integer_division_remainder_used)] // public values
fn jacobi_u64(mut a: u64, mut n: u64) -> i32 {
    let mut j = 1;
    a %= n;
    while a != 0 {
        while a & 1 == 0 {
            a >>= 1;
            if n & 7 == 3 || n & 7 == 5 {
                j = -j;
            }
        }
        core::mem::swap(&mut a, &mut n);
        if a & 3 == 3 && n & 3 == 3 {
            j = -j;
        }
        a %= n;
    }
    if n == 1 { j } else { 0 }
}

fn bit_len(a: &[Limb]) -> usize {
    let len = mpn::normalized_len_vartime(a);
    if len == 0 {
        return 0;
    }
    (len - 1) * LIMB_BITS as usize + (LIMB_BITS - a[len - 1].leading_zeros()) as usize
}

/// Whether n is a perfect square: Newton's iteration x ← ⌊(x + ⌊n/x⌋)/2⌋ from above converges
/// to ⌊√n⌋; then compare its square with n.
pub fn is_perfect_square_vartime(n: &[Limb]) -> bool {
    let len = mpn::normalized_len_vartime(n);
    if len == 0 {
        return true;
    }
    let n = &n[..len];
    // Squares are 0, 1, 4 or 9 mod 16: a cheap first filter.
    if !matches!(n[0] & 15, 0 | 1 | 4 | 9) {
        return false;
    }
    // x₀ = 2^⌈bits/2⌉ ≥ √n.
    let half_bits = bit_len(n).div_ceil(2);
    let mut x = vec![0 as Limb; (half_bits >> 6) + 1];
    x[half_bits >> 6] = 1 << (half_bits & 63);
    loop {
        let xl = mpn::normalized_len_vartime(&x);
        let xs = &x[..xl];
        // y = (x + ⌊n/x⌋) / 2, where ⌊n/x⌋ = 0 when x has more limbs than n.
        let mut y = if xl > n.len() {
            xs.to_vec()
        } else {
            let mut q = vec![0; n.len() - xl + 1];
            let mut r = vec![0; xl];
            mpn::div_qr_vartime(&mut q, &mut r, n, xs);
            let width = q.len().max(xl) + 1;
            let (mut a, mut b) = (xs.to_vec(), q);
            a.resize(width, 0);
            b.resize(width, 0);
            mpn::add_assign_n(&mut a, &b);
            a
        };
        mpn::rshift_assign(&mut y, 1);
        let yl = mpn::normalized_len_vartime(&y);
        y.truncate(yl.max(1));
        if cmp_vartime_any(&y, xs) != Ordering::Less {
            break;
        }
        x = y;
    }
    let xl = mpn::normalized_len_vartime(&x).max(1);
    let mut sq = vec![0; 2 * xl];
    mpn::sqr(&mut sq, &x[..xl]);
    cmp_vartime_any(&sq, n) == Ordering::Equal
}

/// Compares numbers of any lengths.
fn cmp_vartime_any(a: &[Limb], b: &[Limb]) -> Ordering {
    let (la, lb) = (
        mpn::normalized_len_vartime(a),
        mpn::normalized_len_vartime(b),
    );
    la.cmp(&lb)
        .then_with(|| mpn::cmp_vartime(&a[..la], &b[..lb]))
}
