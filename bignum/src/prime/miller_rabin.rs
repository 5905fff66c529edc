//! The Miller–Rabin probabilistic primality test, on the constant-time exponentiation.
//!
//! Write n − 1 = 2ˢ·d with d odd. A base a passes when a^d ≡ 1, or a^(d·2ʲ) ≡ −1 for some
//! 0 ≤ j < s. A prime passes for every base; an odd composite for at most a quarter of them
//! (Rabin, "Probabilistic algorithm for testing primality", 1980), and for far fewer when n is a
//! random candidate (Damgård, Landrock, Pomerance, "Average case error estimates for the strong
//! probable prime test", 1993), which is what FIPS 186-5's round counts rest on.

use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

use crate::limb::{LIMB_BITS, Limb};
use crate::modular::{Modulus, Residue};
use crate::mpn;

/// Miller–Rabin rounds for a random candidate of `bits` bits, as FIPS 186-5 asks when generating
/// RSA primes (Table B.1, the column with the error probability matching the key's security
/// strength: 2⁻¹¹² for 1024-bit primes, 2⁻¹²⁸ for 1536, 2⁻¹⁴⁴ for 2048 and more). Below 1024
/// bits the table has no row: from 512 bits, 7 rounds as FIPS 186-4 Table C.2 gave for 2⁻¹⁰⁰;
/// below that 50 rounds, which bounds the error by 4⁻⁵⁰ = 2⁻¹⁰⁰ for ANY odd number (Rabin's
/// bound), so no average-case estimate is needed there.
pub fn rounds_for_bits(bits: usize) -> usize {
    match bits {
        2048.. => 4,
        1536.. => 4,
        1024.. => 5,
        512.. => 7,
        _ => 50,
    }
}

/// One prepared test: the Montgomery context of n and the split n − 1 = 2ˢ·d.
pub(crate) struct MillerRabin {
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
pub(crate) fn trailing_zeros_vartime(a: &[Limb]) -> usize {
    let i = a.iter().position(|&x| x != 0).unwrap_or(a.len());
    let t = a.get(i).map_or(0, |x| x.trailing_zeros());
    i * LIMB_BITS as usize + t as usize
}

/// a >>= s in place, for any s (whole limbs, then bits).
pub(crate) fn shift_right(a: &mut [Limb], s: usize) {
    let limbs = (s >> 6).min(a.len());
    a.copy_within(limbs.., 0);
    let n = a.len();
    a[n - limbs..].fill(0);
    // s & 63 < 64: rshift_assign's contract.
    #[allow(clippy::cast_possible_truncation)]
    mpn::rshift_assign(a, (s & 63) as u32);
}
