//! Random probable primes of an exact bit length, found by an incremental sieve.
//!
//! A random odd start x₀ of the wanted length is drawn; its residues modulo the 3511 odd primes
//! below 2¹⁵ are computed once; then the candidates x₀, x₀ + 2, x₀ + 4, … are walked with the
//! residues updated by addition (r ← r + 2 mod q). A candidate none of whose residues is zero,
//! and which passes the public-exponent condition, goes to Miller–Rabin with random bases.
//!
//! # Constant time
//!
//! The per-candidate sieve touches every residue with the same operations whatever their
//! values (no early exit, no memory index that depends on a residue), so it leaks only its
//! verdict per candidate: which of the candidates before the prime had a small factor. The
//! number of Miller–Rabin runs reveals that anyway. A bitmap sieve that marks multiples would
//! instead leak x₀ mod q for every small q through its memory accesses, which by the Chinese
//! remainder theorem could give away the prime; this design avoids that. Miller–Rabin on a
//! candidate runs on the constant-time exponentiation and stops early only for composites.
//!
//! Walking from a random start favours primes that follow long gaps a little (the same as
//! OpenSSL's incremental search); every prime of the length remains possible.

use alloc::{vec, vec::Vec};
use rand_core::CryptoRng;
use zeroize::Zeroizing;

use crate::limb::{self, LIMB_BITS, Limb};
use crate::mpn;

use super::miller_rabin::{self, MillerRabin};
use super::small::{self, COUNT, SMALL_PRIMES};

/// How [`random_prime_with`] chooses and checks candidates.
#[derive(Clone, Debug, Default)]
pub struct PrimeOptions {
    /// Set the two top bits, so that the product of two such primes of b bits has exactly 2b bits
    /// (RSA). Otherwise only the top bit is set.
    pub top_two_bits: bool,
    /// Miller–Rabin rounds with random bases; `None` takes
    /// [`rounds_for_bits`](super::rounds_for_bits) of the bit length (FIPS 186-5 Table B.1).
    pub rounds: Option<usize>,
    /// An odd public exponent e ≥ 3: only primes p with gcd(p − 1, e) = 1 are returned, as RSA
    /// needs. Checked in constant time on each candidate that survives the sieve.
    pub coprime_to_p_minus_1: Option<u64>,
}

/// A random probable prime of exactly `bits` bits (top bit set), with the default options.
///
/// # Panics
///
/// If `bits` is below 2 or above 16384.
pub fn random_prime<R: CryptoRng + ?Sized>(bits: usize, rng: &mut R) -> Zeroizing<Vec<Limb>> {
    random_prime_with(bits, &PrimeOptions::default(), rng)
}

/// A random probable prime of exactly `bits` bits, as `opts` asks; its limbs (⌈bits/64⌉ of them,
/// little-endian), wiped on drop.
///
/// # Constant time
///
/// See the module documentation: leaks which candidates were rejected, not the prime.
///
/// # Panics
///
/// If `bits` is below 2 (below 3 with `top_two_bits`: 3 = 0b11 is the only such 2-bit prime, and
/// it is allowed) or above 16384, or the exponent is even or below 3.
pub fn random_prime_with<R: CryptoRng + ?Sized>(
    bits: usize,
    opts: &PrimeOptions,
    rng: &mut R,
) -> Zeroizing<Vec<Limb>> {
    assert!(
        (2..=16384).contains(&bits),
        "random_prime: bits must be in 2..=16384"
    );
    if let Some(e) = opts.coprime_to_p_minus_1 {
        assert!(
            e >= 3 && e & 1 == 1,
            "random_prime: the public exponent must be odd and >= 3"
        );
    }
    let rounds = opts
        .rounds
        .unwrap_or_else(|| miller_rabin::rounds_for_bits(bits));
    let limbs = bits.div_ceil(LIMB_BITS as usize);
    let mut x = Zeroizing::new(vec![0 as Limb; limbs]);
    let mut residues = Zeroizing::new(vec![0u16; COUNT]);
    loop {
        random_start(&mut x, bits, opts.top_two_bits, rng);
        if bits <= 15 {
            // The candidates are themselves small primes' size: test them directly.
            if super::is_probable_prime(&x) && e_condition(&x, opts) {
                return x;
            }
            continue;
        }
        for (r, i) in residues.iter_mut().zip(0..) {
            // Residues are below 2¹⁵.
            #[allow(clippy::cast_possible_truncation)]
            let v = small::residue(&x, i) as u16;
            *r = v;
        }
        let mut e_residue = opts.coprime_to_p_minus_1.map(|e| rem_u64(&x, e));
        loop {
            let sieved_out = step_residues(&mut residues);
            // Leaks: whether this candidate has a small factor (see the module docs).
            if sieved_out == 0 && e_residue.is_none_or(|(r, e)| gcd_odd(sub_one_mod(r, e), e) == 1)
            {
                let Some(test) = MillerRabin::new(&x, bits) else {
                    break;
                };
                // Leaks: whether the candidate is composite (it is then discarded).
                if test.passes_random_rounds(rounds, rng) {
                    return x;
                }
            }
            // Next candidate: x += 2, the residues follow (step_residues already added 2).
            mpn::add_assign_1(&mut x, 2);
            if let Some((r, e)) = e_residue.as_mut() {
                *r = add_two_mod(*r, *e);
            }
            // Leaks: that the walk left the bit length (then a new start is drawn), which
            // happens with probability below 2⁻¹⁰⁰ for the lengths RSA uses.
            if bit_overflow(&x, bits) != 0 {
                break;
            }
        }
    }
}

/// Draws a random odd x of exactly `bits` bits (the top one or two set).
fn random_start<R: CryptoRng + ?Sized>(x: &mut [Limb], bits: usize, top_two: bool, rng: &mut R) {
    for limb in x.iter_mut() {
        *limb = rng.next_u64();
    }
    let top = bits - 1;
    let last = x.len() - 1;
    let used = bits - last * LIMB_BITS as usize; // bits in the top limb, 1..=64
    if used < LIMB_BITS as usize {
        x[last] &= (1 << used) - 1;
    }
    x[last] |= 1 << (top & 63);
    if top_two && bits >= 2 {
        let second = top - 1;
        x[second >> 6] |= 1 << (second & 63);
    }
    x[0] |= 1;
}

/// Returns 1 if any residue is zero (the current candidate has a small factor), then adds 2 to
/// every residue modulo its prime. Every entry gets the same operations; no early exit.
pub fn step_residues(residues: &mut [u16]) -> u16 {
    let mut any_zero = 0u16;
    for (r, &q) in residues.iter_mut().zip(SMALL_PRIMES.iter()) {
        // q < 2¹⁵, so the narrowing is exact.
        #[allow(clippy::cast_possible_truncation)]
        let q = q as u16;
        any_zero |= u16::from(*r == 0);
        let t = *r + 2;
        // t − q if t ≥ q, else t: a mask from the comparison, no branch.
        let ge = 0u16.wrapping_sub(u16::from(t >= q));
        *r = t - (q & ge);
    }
    any_zero
}

/// 1 if x has a bit at or above position `bits` (x no longer has the wanted length).
pub fn bit_overflow(x: &[Limb], bits: usize) -> Limb {
    let last = x.len() - 1;
    let used = bits - last * LIMB_BITS as usize;
    if used == LIMB_BITS as usize {
        // The top limb is full: overflow shows as the top limb wrapping to a small value, i.e.
        // its top bit (always set on a valid candidate) cleared.
        return (x[last] >> (LIMB_BITS - 1)) ^ 1;
    }
    limb::is_zero(x[last] >> used) ^ 1
}

/// x mod e and e, for the public exponent condition; by Horner with Barrett-free 128-bit
/// arithmetic on the constant e.
pub fn rem_u64(x: &[Limb], e: u64) -> (u64, u64) {
    // A division by the PUBLIC e of a secret dividend: to keep the secret out of the divider,
    // reduce bit by bit with a conditional subtraction instead.
    let mut r: u64 = 0;
    for &limb in x.iter().rev() {
        for bit in (0..LIMB_BITS).rev() {
            // r < e < 2⁶⁴, so 2r + 1 < 2⁶⁵: keep the carry out of the doubling.
            let (d, carry) = limb::adc(r, r, (limb >> bit) & 1);
            let (s, borrow) = limb::sbb(d, e, 0);
            // Subtract when 2r + b ≥ e: there was a carry, or no borrow.
            r = limb::select(limb::mask(carry | (borrow ^ 1)), s, d);
        }
    }
    (r, e)
}

/// (r + 2) mod e for r < e, without a branch.
pub fn add_two_mod(r: u64, e: u64) -> u64 {
    let (t, carry) = limb::adc(r, 2, 0);
    let (s, borrow) = limb::sbb(t, e, 0);
    limb::select(limb::mask(carry | (borrow ^ 1)), s, t)
}

/// (r − 1) mod e for r < e, without a branch.
pub fn sub_one_mod(r: u64, e: u64) -> u64 {
    let (t, borrow) = limb::sbb(r, 1, 0);
    t.wrapping_add(e & limb::mask(borrow))
}

/// gcd(a, b) for an odd b, by the binary algorithm with a fixed 128 iterations and masks.
pub fn gcd_odd(mut a: u64, mut b: u64) -> u64 {
    // Invariant: b odd, gcd(a, b) unchanged. If a is odd: swap so that a ≥ b, then a −= b (now
    // even). Then halve a. Each step takes at least one bit off bits(a) + bits(b) until a = 0,
    // so 128 steps leave a = 0 and b = gcd.
    for _ in 0..2 * LIMB_BITS {
        let a_odd = limb::mask(a & 1);
        let swap = limb::mask(limb::lt(a, b)) & a_odd;
        let (na, nb) = (limb::select(swap, b, a), limb::select(swap, a, b));
        a = na.wrapping_sub(nb & a_odd) >> 1;
        b = nb;
    }
    b
}

/// Whether x satisfies the public-exponent condition (small-bit path).
fn e_condition(x: &[Limb], opts: &PrimeOptions) -> bool {
    opts.coprime_to_p_minus_1.is_none_or(|e| {
        let (r, e) = rem_u64(x, e);
        gcd_odd(sub_one_mod(r, e), e) == 1
    })
}
