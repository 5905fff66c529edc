//! Prime numbers: trial division by small primes, Miller–Rabin, the strong Lucas test
//! (together, Baillie–PSW), and random probable primes of an exact bit length.
//!
//! - [`is_probable_prime`] decides for a PUBLIC number (variable time): trial division by the odd
//!   primes below 2¹⁵, a base-2 Miller–Rabin round, and a strong Lucas test. No composite is
//!   known to pass this combination, and none exists below 2⁶⁴.
//! - [`random_prime`] / [`random_prime_with`] draw SECRET primes (for RSA): an incremental sieve
//!   whose work does not depend on the residues it tracks, then Miller–Rabin on the constant-time
//!   exponentiation with [`rounds_for_bits`] random bases (FIPS 186-5, Appendix B.3.1 and
//!   Table B.1). See the `generate` module docs for exactly what leaks (which candidates were
//!   rejected, never the prime's value).
//!
//! - [`st_random_prime`], [`provable_prime`], [`probable_prime_from_auxiliary`] and
//!   [`first_probable_prime_from`]: FIPS 186-5's constructions from a seed or a given start
//!   (Shawe–Taylor provable primes, primes with auxiliary primes), in variable time, to
//!   reproduce keys from a seed (see the `provable` module).
//!
//! Sieve parameters: the 3511 odd primes below 2¹⁵; their residues are kept as 16-bit values
//! and advanced by 2 per candidate. For a 1024-bit prime about 11% of odd candidates survive
//! the sieve (∏(1 − 1/q) ≈ 2e^(−γ)/ln 2¹⁵), so about 40 Miller–Rabin runs on composites are
//! expected (each stopped after one round) besides the full set of rounds on the prime.

internal_mod!(generate);
internal_mod!(lucas);
internal_mod!(miller_rabin);
internal_mod!(provable);
internal_mod!(small);

pub use generate::{PrimeOptions, random_prime, random_prime_with};
pub use miller_rabin::rounds_for_bits;
pub use provable::{
    HashFn, ProvablePrime, StPrime, first_probable_prime_from, probable_prime_from_auxiliary,
    provable_prime, sqrt2_times_pow2, st_random_prime,
};
pub use small::SMALL_PRIMES;

use crate::limb::Limb;
use crate::mpn;

/// Whether `n` (little-endian limbs) is a probable prime by the Baillie–PSW test.
///
/// # Constant time
///
/// No: for public numbers only (its running time depends on n's value).
pub fn is_probable_prime(n: &[Limb]) -> bool {
    let len = mpn::normalized_len_vartime(n);
    let n = &n[..len];
    match n {
        [] => return false,
        [v] if *v < 4 => return *v >= 2,
        _ => {}
    }
    if n[0] & 1 == 0 {
        return false;
    }
    for (i, &q) in SMALL_PRIMES.iter().enumerate() {
        if small::residue(n, i) == 0 {
            return n == [u64::from(q)];
        }
    }
    // No factor below 2¹⁵: anything below 2¹⁵·2¹⁵ = 2³⁰ is prime.
    if n.len() == 1 && n[0] < 1 << 30 {
        return true;
    }
    let bits = mpn_bits(n);
    let Some(mr) = miller_rabin::MillerRabin::new(n, bits) else {
        return false;
    };
    bool::from(mr.passes_base_two()) && lucas::is_strong_lucas_probable_prime(n)
}

fn mpn_bits(n: &[Limb]) -> usize {
    let last = n.len() - 1;
    last * 64 + (64 - n[last].leading_zeros() as usize)
}
