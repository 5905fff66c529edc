//! The Miller–Rabin probabilistic primality test, on the constant-time exponentiation.
//!
//! Write n − 1 = 2ˢ·d with d odd. A base a passes when a^d ≡ 1, or a^(d·2ʲ) ≡ −1 for some
//! 0 ≤ j < s. A prime passes for every base; an odd composite for at most a quarter of them
//! (Rabin, "Probabilistic algorithm for testing primality", 1980), and for far fewer when n is a
//! random candidate (Damgård, Landrock, Pomerance, "Average case error estimates for the strong
//! probable prime test", 1993), which is what FIPS 186-5's round counts rest on.

use alloc::{vec, vec::Vec};
use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

use crate::limb::{LIMB_BITS, Limb};
use crate::modular::{Modulus, Residue};
use crate::mpn;

/// Miller–Rabin rounds for a random candidate of `bits` bits.
///
/// - From 1024 bits: FIPS 186-5 Table B.1 for RSA primes, in the column whose error probability
///   matches the key's security strength (2⁻¹¹² for 1024-bit primes: 5 rounds; 2⁻¹²⁸ for 1536:
///   4; 2⁻¹⁴⁴ for 2048 and more: 4).
/// - From 256 to 1023 bits: the smallest t ≥ 3 for which the average-case bound of Damgård,
///   Landrock and Pomerance (1993), p(k, t) < k^(3/2)·2ᵗ·t^(−1/2)·4^(2−√(tk)) for k ≥ 21 and
///   t ≤ k/9, is at most 2⁻¹⁰⁰ (the kind of bound FIPS 186-5 Appendix C.1 derives its table
///   from; at 1024 and 1536 bits it gives the table's 2⁻¹⁰⁰ column exactly).
/// - Below 256 bits, where that bound does not reach 2⁻¹⁰⁰: 50 rounds, since 4⁻⁵⁰ = 2⁻¹⁰⁰
///   bounds the error for ANY odd number (Rabin).
pub fn rounds_for_bits(bits: usize) -> usize {
    match bits {
        2048.. => 4,
        1536.. => 4,
        1024.. => 5,
        256.. => dlp_rounds(bits, 100.0).unwrap_or(WORST_CASE_ROUNDS),
        _ => WORST_CASE_ROUNDS,
    }
}

/// Rounds that bound the error by 4⁻ᵗ for any odd number: 2⁻¹⁰⁰.
const WORST_CASE_ROUNDS: usize = 50;

/// The smallest t ≥ 3 with log₂ p(k, t) ≤ −`log2_error` by the Damgård–Landrock–Pomerance bound,
/// if one exists within its range of validity (t ≤ k/9).
#[allow(clippy::integer_division_remainder_used)] // k is a public bit length
pub fn dlp_rounds(k: usize, log2_error: f64) -> Option<usize> {
    let kf = k as f64;
    (3..=k / 9).find(|&t| {
        let tf = t as f64;
        let log2_p = 1.5 * log2(kf) + tf - 0.5 * log2(tf) + 2.0 * (2.0 - sqrt(tf * kf));
        log2_p <= -log2_error
    })
}

/// log₂ x for a finite x ≥ 1, in `core` only (`f64::log2` is `std`'s): x = 2ᵉ·m with
/// 1 ≤ m < 2, and ln m = 2·atanh(z) = 2·Σ z²ⁱ⁺¹/(2i + 1), z = (m − 1)/(m + 1) ≤ 1/3, whose
/// 24th term is below 9⁻²³ ≈ 10⁻²² of the first. Within a few ulps of `f64::log2`; a test
/// proves that `rounds_for_bits` is the same either way.
pub fn log2(x: f64) -> f64 {
    let bits = x.to_bits();
    // The biased exponent is 11 bits: the cast to i32 is exact.
    #[allow(clippy::cast_possible_truncation)]
    let e = ((bits >> 52) & 0x7ff) as i32 - 1023;
    let m = f64::from_bits((bits & ((1 << 52) - 1)) | (1023 << 52));
    let z = (m - 1.0) / (m + 1.0);
    let (z2, mut power, mut sum) = (z * z, z, 0.0);
    for i in 0..24 {
        sum += power / f64::from(2 * i + 1);
        power *= z2;
    }
    f64::from(e) + 2.0 * sum / core::f64::consts::LN_2
}

/// √x for a finite x ≥ 1, in `core` only: Newton's iteration from above, until it stops
/// falling.
pub fn sqrt(x: f64) -> f64 {
    let mut y = x;
    loop {
        let next = 0.5 * (y + x / y);
        if next >= y {
            return y;
        }
        y = next;
    }
}

/// One prepared test: the Montgomery context of n and the split n − 1 = 2ˢ·d.
pub struct MillerRabin {
    modulus: Modulus,
    /// d, as many limbs as n.
    d: Zeroizing<Vec<Limb>>,
    /// s, the number of trailing zero bits of n − 1.
    s: usize,
    bits: usize,
    one: Residue,
    minus_one: Residue,
}

impl MillerRabin {
    /// Prepares the test for an odd n ≥ 3 (its limbs, with the public bit length `bits`).
    ///
    /// # Constant time
    ///
    /// Leaks s, the number of trailing zero bits of n − 1 (the loop count of each round). For a
    /// candidate that turns out composite that is harmless; for an RSA prime it is on average two
    /// bits of information about p − 1 that no known attack uses (BoringSSL makes the same choice).
    pub(crate) fn new(n: &[Limb], bits: usize) -> Option<MillerRabin> {
        // Leaks: whether n is a valid modulus (odd, ≥ 3), which the caller already knows.
        let modulus = Option::<Modulus>::from(Modulus::new(n))?;
        let mut d = Zeroizing::new(n.to_vec());
        mpn::sub_assign_1(&mut d, 1);
        // Leaks: s, see above.
        let s = trailing_zeros_vartime(&d);
        shift_right(&mut d, s);
        let one = modulus.one();
        let minus_one = modulus.neg(&one);
        Some(MillerRabin {
            modulus,
            d,
            s,
            bits,
            one,
            minus_one,
        })
    }

    /// Whether n passes the round with base `a` (a residue mod n).
    ///
    /// # Constant time
    ///
    /// Depends on the bit length of n and on s only; the verdict is returned as a `Choice`.
    pub(crate) fn passes(&self, a: &Residue) -> Choice {
        let m = &self.modulus;
        let mut x = m.pow(a, &self.d, self.bits);
        let mut ok = x.ct_eq(&self.one) | x.ct_eq(&self.minus_one);
        for _ in 1..self.s {
            x = m.sqr(&x);
            ok |= x.ct_eq(&self.minus_one);
        }
        ok
    }

    /// Whether n passes the round with base 2 (the base Baillie–PSW prescribes).
    pub(crate) fn passes_base_two(&self) -> Choice {
        let two = self.modulus.add(&self.one, &self.one);
        self.passes(&two)
    }

    /// Whether n passes `rounds` rounds with bases drawn uniformly from [2, n − 2].
    ///
    /// # Constant time
    ///
    /// Stops at the first failed round. Leaks: that n is composite, which is public once the
    /// caller discards it; a prime always runs every round.
    pub(crate) fn passes_random_rounds<R: CryptoRng + ?Sized>(
        &self,
        rounds: usize,
        rng: &mut R,
    ) -> bool {
        for _ in 0..rounds {
            let a = self.random_base(rng);
            if !bool::from(self.passes(&a)) {
                return false;
            }
        }
        true
    }

    /// A base drawn from [2, n − 2]: 64 more random bits than n has, reduced mod n (bias below
    /// 2⁻⁶⁴), redrawn while it is 0, 1 or n − 1 (whether a random base was redrawn is public).
    fn random_base<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> Residue {
        let mut raw = Zeroizing::new(vec![0 as Limb; self.modulus.limb_len() + 1]);
        loop {
            for limb in raw.iter_mut() {
                *limb = rng.next_u64();
            }
            let a = self.modulus.reduce(&raw);
            let bad = a.is_zero() | a.ct_eq(&self.one) | a.ct_eq(&self.minus_one);
            if !bool::from(bad) {
                return a;
            }
        }
    }
}

/// The number of trailing zero bits of a non-zero `a`.
pub fn trailing_zeros_vartime(a: &[Limb]) -> usize {
    let i = a.iter().position(|&x| x != 0).unwrap_or(a.len());
    let t = a.get(i).map_or(0, |x| x.trailing_zeros());
    i * LIMB_BITS as usize + t as usize
}

/// a >>= s in place, for any s (whole limbs, then bits).
pub fn shift_right(a: &mut [Limb], s: usize) {
    let limbs = (s >> 6).min(a.len());
    a.copy_within(limbs.., 0);
    let n = a.len();
    a[n - limbs..].fill(0);
    // s & 63 < 64: rshift_assign's contract.
    #[allow(clippy::cast_possible_truncation)]
    mpn::rshift_assign(a, (s & 63) as u32);
}
