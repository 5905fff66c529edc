//! [`Nat`]: an owned natural number for PUBLIC values, in variable time.
//!
//! A `Nat` is a little-endian vector of [`Limb`]s kept normalised: no high zero limbs, so zero
//! is the empty vector and two equal numbers have equal limbs. Every operation here branches on
//! the values and allocates by their size: use `Nat` for moduli, public exponents, ciphertexts,
//! signatures and parsing, never for a private key or any other secret (those live in
//! `modular`'s constant-time types).
//!
//! Operators: `+ - * / % << >>` on owned and borrowed operands, `+ - * / %` with a `u64`, and
//! their `op=` forms. Subtraction below zero and division by zero panic in every build (as std's
//! integers do in debug builds); [`Nat::checked_sub`], [`Nat::checked_div`] and [`Nat::checked_rem`] return
//! `None` instead.

internal_mod!(fmt);
internal_mod!(gcd);
internal_mod!(ops);
mod pow;
mod rand;

use alloc::{vec, vec::Vec};
use core::cmp::Ordering;

use crate::limb::{LIMB_BITS, LIMB_BYTES, Limb};
use crate::mpn;

/// An arbitrary-precision natural number (0, 1, 2, …) for public values.
///
/// # Constant time
/// No: every operation on a `Nat` takes time (and allocates memory) that depends on the values,
/// not only on their sizes. Use it for public values only.
///
/// # Examples
///
/// ```
/// use bignum::Nat;
///
/// let n: Nat = "0xC5A1".parse()?; // 50593
/// let e = Nat::from(65537u64);
/// let c = Nat::from(42u64).pow_mod(&e, &n);
/// assert!(c < n);
/// assert_eq!((&n * 2u64 + 1u64).to_string(), "101187");
/// assert_eq!(format!("{:#x}", n >> 8), "0xc5");
/// assert_eq!(Nat::from(12u64).gcd(&Nat::from(18u64)), Nat::from(6u64));
/// assert_eq!(Nat::from_be_bytes(&[1, 0]).to_be_bytes_padded(4), Some(vec![0, 0, 1, 0]));
/// # Ok::<(), bignum::Error>(())
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Nat {
    /// Little-endian limbs with no high zero limb (empty for zero).
    limbs: Vec<Limb>,
}

/// `x >> 6` and `x & 63` on a bit count: the limb index and the bit within it.
#[inline]
#[allow(clippy::cast_possible_truncation)] // n & 63 < 64
const fn split_bits(n: usize) -> (usize, u32) {
    (n >> 6, (n & 63) as u32)
}

impl Nat {
    /// Zero (no limbs).
    ///
    /// # Constant time
    /// Like every `Nat`: for public values only.
    pub const ZERO: Nat = Nat { limbs: Vec::new() };

    /// One.
    ///
    /// # Constant time
    /// Like every `Nat`: for public values only.
    pub fn one() -> Nat {
        Nat { limbs: vec![1] }
    }

    /// Takes ownership of little-endian limbs, dropping high zero limbs.
    fn from_vec(mut limbs: Vec<Limb>) -> Nat {
        let n = mpn::normalized_len_vartime(&limbs);
        limbs.truncate(n);
        Nat { limbs }
    }

    /// Drops high zero limbs after an in-place operation.
    fn normalize(&mut self) {
        let n = mpn::normalized_len_vartime(&self.limbs);
        self.limbs.truncate(n);
    }

    /// The number with these little-endian limbs (high zero limbs allowed).
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn from_limbs(limbs: &[Limb]) -> Nat {
        Nat::from_vec(limbs[..mpn::normalized_len_vartime(limbs)].to_vec())
    }

    /// The little-endian limbs, without high zero limbs (empty for zero).
    ///
    /// # Constant time
    /// No: the length depends on the value. For public values only.
    pub fn as_limbs(&self) -> &[Limb] {
        &self.limbs
    }

    /// The little-endian limbs, consuming the number (no high zero limbs; empty for zero).
    ///
    /// # Constant time
    /// No: the length depends on the value. For public values only.
    pub fn into_limbs(self) -> Vec<Limb> {
        self.limbs
    }

    /// Exactly `n` little-endian limbs (zero-padded at the top), or `None` if the value needs
    /// more than `n` limbs.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn to_limbs_padded(&self, n: usize) -> Option<Vec<Limb>> {
        if self.limbs.len() > n {
            return None;
        }
        let mut v = self.limbs.clone();
        v.resize(n, 0);
        Some(v)
    }

    /// The number with these big-endian bytes (leading zero bytes allowed; empty gives zero).
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn from_be_bytes(bytes: &[u8]) -> Nat {
        let mut limbs = vec![0; bytes.len().div_ceil(LIMB_BYTES)];
        mpn::from_be_bytes(&mut limbs, bytes);
        Nat::from_vec(limbs)
    }

    /// The number with these little-endian bytes (trailing zero bytes allowed; empty gives zero).
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn from_le_bytes(bytes: &[u8]) -> Nat {
        let limbs = bytes
            .chunks(LIMB_BYTES)
            .map(|chunk| {
                chunk
                    .iter()
                    .rev()
                    .fold(0, |acc, &b| (acc << 8) | Limb::from(b))
            })
            .collect();
        Nat::from_vec(limbs)
    }

    /// The shortest big-endian encoding: no leading zero byte, and empty for zero.
    ///
    /// # Constant time
    /// No: the length depends on the value. For public values only.
    pub fn to_be_bytes(&self) -> Vec<u8> {
        let mut v = self.to_le_bytes();
        v.reverse();
        v
    }

    /// The shortest little-endian encoding: no trailing zero byte, and empty for zero.
    ///
    /// # Constant time
    /// No: the length depends on the value. For public values only.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        let mut v: Vec<u8> = self.limbs.iter().flat_map(|l| l.to_le_bytes()).collect();
        v.truncate(self.byte_len());
        v
    }

    /// Exactly `len` big-endian bytes, zero-padded at the front (I2OSP of RFC 8017 §4.1), or
    /// `None` if the value needs more than `len` bytes.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn to_be_bytes_padded(&self, len: usize) -> Option<Vec<u8>> {
        let mut v = self.to_le_bytes_padded(len)?;
        v.reverse();
        Some(v)
    }

    /// Exactly `len` little-endian bytes, zero-padded at the end, or `None` if the value needs
    /// more than `len` bytes.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn to_le_bytes_padded(&self, len: usize) -> Option<Vec<u8>> {
        if self.byte_len() > len {
            return None;
        }
        let mut v = self.to_le_bytes();
        v.resize(len, 0);
        Some(v)
    }

    /// The value as a `u64`, or `None` if it does not fit.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn to_u64(&self) -> Option<u64> {
        match self.limbs[..] {
            [] => Some(0),
            [x] => Some(x),
            _ => None,
        }
    }

    /// The number of significant bits: 0 for zero, else ⌊log₂ self⌋ + 1.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn bits(&self) -> usize {
        self.limbs.last().map_or(0, |&top| {
            self.limbs.len() * LIMB_BITS as usize - top.leading_zeros() as usize
        })
    }

    /// The number of significant bytes: ⌈bits / 8⌉ (0 for zero).
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn byte_len(&self) -> usize {
        self.bits().div_ceil(8)
    }

    /// Whether the value is zero.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// Whether the value is one.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn is_one(&self) -> bool {
        self.limbs[..] == [1]
    }

    /// Whether the value is odd.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn is_odd(&self) -> bool {
        self.limbs.first().is_some_and(|&l| l & 1 == 1)
    }

    /// Whether the value is even (zero is even).
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn is_even(&self) -> bool {
        !self.is_odd()
    }

    /// Bit `i` (bit 0 is the least significant); false beyond the top.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn bit(&self, i: usize) -> bool {
        let (limb, bit) = split_bits(i);
        self.limbs.get(limb).is_some_and(|&l| (l >> bit) & 1 == 1)
    }

    /// Sets bit `i` to `value`, growing or shrinking the number as needed.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn set_bit(&mut self, i: usize, value: bool) {
        let (limb, bit) = split_bits(i);
        if value {
            if self.limbs.len() <= limb {
                self.limbs.resize(limb + 1, 0);
            }
            self.limbs[limb] |= 1 << bit;
        } else if let Some(l) = self.limbs.get_mut(limb) {
            *l &= !(1 << bit);
            self.normalize();
        }
    }

    /// The number of low zero bits (the largest k with 2ᵏ dividing self), or `None` for zero.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn trailing_zeros(&self) -> Option<usize> {
        let i = self.limbs.iter().position(|&l| l != 0)?;
        Some(i * LIMB_BITS as usize + self.limbs[i].trailing_zeros() as usize)
    }

    /// self - rhs, or `None` if rhs > self.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn checked_sub(&self, rhs: &Nat) -> Option<Nat> {
        let mut r = self.clone();
        r.try_sub_assign(rhs).then_some(r)
    }

    /// ⌊self / rhs⌋, or `None` if rhs is zero.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn checked_div(&self, rhs: &Nat) -> Option<Nat> {
        self.checked_div_rem(rhs).map(|(q, _)| q)
    }

    /// self mod rhs, or `None` if rhs is zero.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn checked_rem(&self, rhs: &Nat) -> Option<Nat> {
        self.checked_div_rem(rhs).map(|(_, r)| r)
    }

    /// (⌊self / rhs⌋, self mod rhs), or `None` if rhs is zero.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn checked_div_rem(&self, rhs: &Nat) -> Option<(Nat, Nat)> {
        let (a, d) = (&self.limbs[..], &rhs.limbs[..]);
        if d.is_empty() {
            return None;
        }
        if self < rhs {
            return Some((Nat::ZERO, self.clone()));
        }
        if let [d] = *d {
            let mut q = vec![0; a.len()];
            let r = mpn::div_1_vartime(&mut q, a, d);
            return Some((Nat::from_vec(q), Nat::from(r)));
        }
        let mut q = vec![0; a.len() - d.len() + 1];
        let mut r = vec![0; d.len()];
        mpn::div_qr_vartime(&mut q, &mut r, a, d);
        Some((Nat::from_vec(q), Nat::from_vec(r)))
    }

    /// (⌊self / rhs⌋, self mod rhs).
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    ///
    /// # Panics
    /// If `rhs` is zero.
    pub fn div_rem(&self, rhs: &Nat) -> (Nat, Nat) {
        self.checked_div_rem(rhs)
            .unwrap_or_else(|| division_by_zero())
    }

    /// (⌊self / rhs⌋, self mod rhs) for a one-limb divisor.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    ///
    /// # Panics
    /// If `rhs` is zero.
    pub fn div_rem_u64(&self, rhs: u64) -> (Nat, u64) {
        if rhs == 0 {
            division_by_zero();
        }
        let mut q = vec![0; self.limbs.len()];
        let r = mpn::div_1_vartime(&mut q, &self.limbs, rhs);
        (Nat::from_vec(q), r)
    }

    /// The greatest common divisor (gcd(0, 0) = 0), by the binary algorithm (Stein, 1967).
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn gcd(&self, other: &Nat) -> Nat {
        let (Some(za), Some(zb)) = (self.trailing_zeros(), other.trailing_zeros()) else {
            // gcd(a, 0) = a.
            return if self.is_zero() {
                other.clone()
            } else {
                self.clone()
            };
        };
        let mut a = self >> za;
        let mut b = other >> zb;
        // Both odd from here: a - b is even, so each round removes at least one bit.
        loop {
            match a.cmp(&b) {
                Ordering::Equal => break,
                Ordering::Less => core::mem::swap(&mut a, &mut b),
                Ordering::Greater => {}
            }
            a.sub_assign_unchecked(&b);
            let z = a.trailing_zeros().unwrap_or(0);
            a >>= z;
        }
        a << za.min(zb)
    }

    /// self².
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn square(&self) -> Nat {
        if self.is_zero() {
            return Nat::ZERO;
        }
        let mut r = vec![0; 2 * self.limbs.len()];
        mpn::sqr(&mut r, &self.limbs);
        Nat::from_vec(r)
    }

    /// ⌊√self⌋, by Newton's iteration from above.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    pub fn sqrt(&self) -> Nat {
        if self.is_zero() {
            return Nat::ZERO;
        }
        // x₀ = 2^⌈bits/2⌉ > √self; x ↦ ⌊(x + ⌊self/x⌋)/2⌋ decreases strictly until ⌊√self⌋.
        let mut x = Nat::one() << self.bits().div_ceil(2);
        loop {
            let y = (&x + self / &x) >> 1;
            if y >= x {
                return x;
            }
            x = y;
        }
    }

    /// self += rhs in place.
    fn add_assign_nat(&mut self, rhs: &Nat) {
        if self.limbs.len() < rhs.limbs.len() {
            self.limbs.resize(rhs.limbs.len(), 0);
        }
        let n = rhs.limbs.len();
        let mut carry = mpn::add_assign_n(&mut self.limbs[..n], &rhs.limbs);
        if carry != 0 {
            // Vartime: stop at the first limb that does not overflow.
            carry = 1;
            for l in &mut self.limbs[n..] {
                (*l, carry) = (l.wrapping_add(1), Limb::from(*l == Limb::MAX));
                if carry == 0 {
                    break;
                }
            }
        }
        if carry != 0 {
            self.limbs.push(1);
        }
    }

    /// self -= rhs in place if rhs ≤ self (returns true); otherwise leaves self and returns false.
    fn try_sub_assign(&mut self, rhs: &Nat) -> bool {
        if *self < *rhs {
            return false;
        }
        self.sub_assign_unchecked(rhs);
        true
    }

    /// self -= rhs in place; rhs ≤ self.
    fn sub_assign_unchecked(&mut self, rhs: &Nat) {
        debug_assert!(*self >= *rhs);
        let n = rhs.limbs.len();
        let borrow = mpn::sub_assign_n(&mut self.limbs[..n], &rhs.limbs);
        if borrow != 0 {
            for l in &mut self.limbs[n..] {
                let was_zero = *l == 0;
                *l = l.wrapping_sub(1);
                if !was_zero {
                    break;
                }
            }
        }
        self.normalize();
    }

    /// self · rhs.
    fn mul_nat(&self, rhs: &Nat) -> Nat {
        if self.is_zero() || rhs.is_zero() {
            return Nat::ZERO;
        }
        if core::ptr::eq(self, rhs) {
            return self.square();
        }
        let (a, b) = if self.limbs.len() >= rhs.limbs.len() {
            (&self.limbs, &rhs.limbs)
        } else {
            (&rhs.limbs, &self.limbs)
        };
        let mut r = vec![0; a.len() + b.len()];
        mpn::mul(&mut r, a, b);
        Nat::from_vec(r)
    }

    /// self · 2ⁿ.
    fn shl_bits(&self, n: usize) -> Nat {
        if self.is_zero() {
            return Nat::ZERO;
        }
        let (limbs, bits) = split_bits(n);
        let mut r = vec![0; limbs + self.limbs.len() + 1];
        let top = mpn::lshift(&mut r[limbs..limbs + self.limbs.len()], &self.limbs, bits);
        r[limbs + self.limbs.len()] = top;
        Nat::from_vec(r)
    }

    /// self >>= n in place.
    fn shr_assign_bits(&mut self, n: usize) {
        let (limbs, bits) = split_bits(n);
        if limbs >= self.limbs.len() {
            self.limbs.clear();
            return;
        }
        self.limbs.drain(..limbs);
        let _ = mpn::rshift_assign(&mut self.limbs, bits);
        self.normalize();
    }
}

/// The panic of a division or reduction by zero.
#[cold]
#[track_caller]
pub fn division_by_zero() -> ! {
    panic!("Nat: division by zero")
}

impl Ord for Nat {
    fn cmp(&self, other: &Nat) -> Ordering {
        // Normalised: more limbs means larger.
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| mpn::cmp_vartime(&self.limbs, &other.limbs))
    }
}

impl PartialOrd for Nat {
    fn partial_cmp(&self, other: &Nat) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl From<u64> for Nat {
    fn from(x: u64) -> Nat {
        Nat::from_vec(vec![x])
    }
}

impl From<u128> for Nat {
    #[allow(clippy::cast_possible_truncation)] // splitting into limbs is the point
    fn from(x: u128) -> Nat {
        Nat::from_vec(vec![x as Limb, (x >> 64) as Limb])
    }
}

impl From<&[Limb]> for Nat {
    fn from(limbs: &[Limb]) -> Nat {
        Nat::from_limbs(limbs)
    }
}
