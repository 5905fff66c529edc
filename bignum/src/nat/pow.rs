//! Modular exponentiation of [`Nat`]s, variable time (public values only).
//!
//! A left-to-right fixed window of 4 bits: precompute x⁰ … x¹⁵, then per window four squarings
//! and at most one multiplication. For an odd modulus m of n limbs the products are reduced by
//! Montgomery's REDC (P. L. Montgomery, "Modular multiplication without trial division", 1985):
//! with R = 2^(64·n) and m' = -m⁻¹ mod 2⁶⁴, REDC(t) = t·R⁻¹ mod m for t < m·R, and it needs no
//! division. For an even modulus each product is reduced by [`mpn::div_qr_vartime`].
//!
//! This is not the constant-time `modular` exponentiation: it skips work on zero window digits
//! and on leading squarings of one, and it branches on the final subtraction.

use alloc::{vec, vec::Vec};
use core::cmp::Ordering;

use super::{Nat, division_by_zero};
use crate::limb::{self, Limb};
use crate::mpn;

/// Window width in bits.
const WINDOW: usize = 4;

/// Window digit `i` of `exp` (bits 4i … 4i + 3).
fn window_digit(exp: &Nat, i: usize) -> usize {
    (0..WINDOW).fold(0, |acc, b| {
        acc | (usize::from(exp.bit(WINDOW * i + b)) << b)
    })
}

impl Nat {
    /// self^exp mod m. 0⁰ is 1 (so the result is 1 mod m).
    ///
    /// A 4-bit fixed window; products are reduced by Montgomery multiplication when `m` is odd,
    /// by division otherwise.
    ///
    /// # Constant time
    /// No: variable time in the base, the exponent and the modulus; for public values only (an
    /// RSA public operation, checking a signature, a test on a public number). For a secret
    /// exponent or base use the constant-time `modular` exponentiation.
    ///
    /// # Panics
    /// If `m` is zero.
    pub fn pow_mod(&self, exp: &Nat, m: &Nat) -> Nat {
        if m.is_zero() {
            division_by_zero();
        }
        if m.is_one() {
            return Nat::ZERO;
        }
        let base = self % m;
        if m.is_odd() {
            Montgomery::new(m).pow(&base, exp)
        } else {
            pow_mod_by_division(&base, exp, m)
        }
    }
}

/// base^exp mod m with `base < m`, each product reduced by division.
fn pow_mod_by_division(base: &Nat, exp: &Nat, m: &Nat) -> Nat {
    let mut table = Vec::with_capacity(1 << WINDOW);
    table.push(Nat::one());
    for i in 1..1 << WINDOW {
        let next = &(&table[i - 1] * base) % m;
        table.push(next);
    }
    let mut r = Nat::one();
    for i in (0..exp.bits().div_ceil(WINDOW)).rev() {
        if !r.is_one() {
            for _ in 0..WINDOW {
                r = &r.square() % m;
            }
        }
        let digit = window_digit(exp, i);
        if digit != 0 {
            r = &(&r * &table[digit]) % m;
        }
    }
    r
}

/// Montgomery arithmetic modulo an odd public `m` of n limbs: values are n-limb slices below m.
struct Montgomery {
    m: Vec<Limb>,
    /// m' = -m⁻¹ mod 2⁶⁴.
    m_inv: Limb,
    /// R² mod m, R = 2^(64·n).
    r2: Vec<Limb>,
}

impl Montgomery {
    fn new(m: &Nat) -> Montgomery {
        let n = m.limbs.len();
        debug_assert!(m.is_odd());
        let r2 = (Nat::one() << (2 * 64 * n)) % m;
        Montgomery {
            m: m.limbs.clone(),
            m_inv: limb::inv(m.limbs[0]).wrapping_neg(),
            r2: r2.to_limbs_padded(n).unwrap_or_default(),
        }
    }

    /// r = t·R⁻¹ mod m for t < m·R (2n limbs, overwritten): the back end's REDC
    /// ([`mpn::redc_1`], r + hi·R < 2m), then at most one subtraction, by a branch.
    fn redc(&self, r: &mut [Limb], t: &mut [Limb]) {
        let hi = mpn::redc_1(r, t, &self.m, self.m_inv);
        if hi != 0 || mpn::cmp_vartime(r, &self.m) != Ordering::Less {
            // The borrow out of the subtraction cancels `hi`.
            let _ = mpn::sub_assign_n(r, &self.m);
        }
    }

    /// r = a·b·R⁻¹ mod m; `t` is 2n limbs of scratch.
    fn mul(&self, r: &mut [Limb], a: &[Limb], b: &[Limb], t: &mut [Limb]) {
        mpn::mul(t, a, b);
        self.redc(r, t);
    }

    /// base^exp mod m for `base < m`.
    fn pow(&self, base: &Nat, exp: &Nat) -> Nat {
        let n = self.m.len();
        let mut t = vec![0; 2 * n];
        let base = base.to_limbs_padded(n).unwrap_or_default();
        // table[i] = baseⁱ·R mod m; table[0] = R mod m = REDC(R² mod m).
        let mut table = vec![vec![0; n]; 1 << WINDOW];
        t[..n].copy_from_slice(&self.r2);
        t[n..].fill(0);
        self.redc(&mut table[0], &mut t);
        let mut x = vec![0; n];
        self.mul(&mut x, &base, &self.r2, &mut t);
        table[1] = x;
        for i in 2..1 << WINDOW {
            let (done, rest) = table.split_at_mut(i);
            self.mul(&mut rest[0], &done[i - 1], &done[1], &mut t);
        }
        let mut acc = table[0].clone();
        let mut started = false;
        for i in (0..exp.bits().div_ceil(WINDOW)).rev() {
            if started {
                for _ in 0..WINDOW {
                    mpn::sqr(&mut t, &acc);
                    self.redc(&mut acc, &mut t);
                }
            }
            let digit = window_digit(exp, i);
            if digit != 0 {
                if started {
                    mpn::mul(&mut t, &acc, &table[digit]);
                    self.redc(&mut acc, &mut t);
                } else {
                    acc.copy_from_slice(&table[digit]);
                    started = true;
                }
            }
        }
        // Out of Montgomery form: REDC(acc) = acc·R⁻¹.
        t[..n].copy_from_slice(&acc);
        t[n..].fill(0);
        self.redc(&mut acc, &mut t);
        Nat::from_vec(acc)
    }
}
