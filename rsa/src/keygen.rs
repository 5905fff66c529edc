//! Key generation after FIPS 186-5 §A.1.3 (random probable primes), with Miller–Rabin rounds
//! from its Table B.1 (through `bignum::prime`), and multi-prime keys per RFC 8017.
//!
//! For a modulus of `nlen` bits and two primes: p and q of exactly nlen/2 bits with their two
//! top bits set (so n has exactly nlen bits), gcd(e, p − 1) = gcd(e, q − 1) = 1,
//! |p − q| > 2^(nlen/2 − 100), d = e⁻¹ mod lcm(p − 1, q − 1) with d > 2^(nlen/2) (else the
//! primes are drawn again), dP = d mod (p − 1), dQ = d mod (q − 1), qInv = q⁻¹ mod p. Sizes: any
//! even nlen from 1024 to 16384 bits.
//!
//! # Constant time
//!
//! The prime search leaks which candidates were rejected (see `bignum::prime`). Everything
//! after the primes are found runs in constant time on them: the |p − q| and d-size checks
//! (whose verdicts are public: a failure only means starting over), the lcm, the inverse of
//! the public e modulo the secret lcm, the reductions and the inverse modulo p. A pairwise
//! consistency test (a private operation with the CRT, checked by the public one) runs before
//! the key is returned.

mod components;
mod fips186;

use alloc::{format, vec, vec::Vec};
pub use components::{Totient, private_exponent, recover_primes_vartime};
pub use fips186::{PrimeMethod, fips186_primes_vartime, key_from_primes_vartime};

use bignum::prime::{PrimeOptions, random_prime_with};
use bignum::{Limb, mpn};
use rand_core::CryptoRng;
use zeroize::Zeroizing;

use crate::hazmat::{PrivateOp, PublicOp};
use crate::key::{
    MAX_MODULUS_BITS, MAX_PRIMES, MIN_MODULUS_BITS, PrivateValues, PublicKeyParts, RsaPublicKey,
    private_mul,
};
use crate::{Error, KeyError, Result, RsaPrivateKey};

/// The public exponent of generated keys unless another is asked for: 65537 = 2¹⁶ + 1.
pub const DEFAULT_EXPONENT: u64 = 65537;

impl RsaPrivateKey {
    /// A new two-prime key of exactly `bits` bits with e = 65537 (FIPS 186-5 §A.1.3).
    ///
    /// # Constant time
    ///
    /// See the module documentation of `keygen`: only the prime search's rejections leak.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidKey`] with [`KeyError::ModulusTooSmall`] or
    /// [`KeyError::ModulusTooLarge`] outside 1024..=16384 bits; [`Error::Unsupported`] for an
    /// odd size; [`Error::Fault`] if the pairwise consistency test fails.
    pub fn generate<R: CryptoRng + ?Sized>(bits: usize, rng: &mut R) -> Result<Self> {
        Self::generate_with_exponent(bits, DEFAULT_EXPONENT, rng)
    }

    /// [`RsaPrivateKey::generate`] with RustCrypto `rsa`'s name and argument order:
    /// `RsaPrivateKey::new(&mut rng, bits)`.
    ///
    /// The RNG must be infallible ([`CryptoRng`]), where RustCrypto takes a fallible
    /// `TryCryptoRng`: key generation draws until it finds primes, so it has no way to
    /// continue once the RNG fails. Wrap a fallible one in [`rand_core::UnwrapErr`] (as
    /// [`crate::os_rng`] does with the operating system's).
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::generate`].
    pub fn new<R: CryptoRng + ?Sized>(rng: &mut R, bits: usize) -> Result<Self> {
        Self::generate(bits, rng)
    }

    /// A new two-prime key of exactly `bits` bits with the public exponent `e` (odd, ≥ 3).
    ///
    /// # Constant time
    ///
    /// As [`RsaPrivateKey::generate`].
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::generate`], and [`KeyError::PublicExponentInvalid`] for an even e or
    /// e < 3.
    pub fn generate_with_exponent<R: CryptoRng + ?Sized>(
        bits: usize,
        e: u64,
        rng: &mut R,
    ) -> Result<Self> {
        generate(bits, 2, e, rng, Sizes::Fips)
    }

    /// [`RsaPrivateKey::generate_with_exponent`] for the sizes RustCrypto `rsa` generates:
    /// any size from `min_bits` up, odd ones included, down to [`SMALLEST_GENERATED_BITS`].
    /// The method is the same (FIPS 186-5 A.1.3's conditions on the primes and d), the
    /// primes of an odd size one bit apart. For compatibility and tests: keys below 2048 bits
    /// are weak, below 1024 broken.
    ///
    /// # Constant time
    ///
    /// As [`RsaPrivateKey::generate`].
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::generate_with_exponent`], with `min_bits` (or
    /// [`SMALLEST_GENERATED_BITS`], if larger) as the lower bound and odd sizes allowed.
    pub fn generate_allowing_small<R: CryptoRng + ?Sized>(
        bits: usize,
        e: u64,
        min_bits: usize,
        rng: &mut R,
    ) -> Result<Self> {
        generate(bits, 2, e, rng, Sizes::Any { min_bits })
    }

    /// A new multi-prime key (RFC 8017) of exactly `bits` bits with `nprimes` primes (3 to 5;
    /// 2 gives an ordinary key) and e = 65537. The primes have about bits/nprimes bits each,
    /// their top two bits set, pairwise more than 2^(b − 100) apart; the primes are drawn
    /// again until their product has exactly `bits` bits.
    ///
    /// # Constant time
    ///
    /// As [`RsaPrivateKey::generate`].
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::generate`], and [`KeyError::PrimeCount`] outside 2..=5.
    pub fn generate_multi_prime<R: CryptoRng + ?Sized>(
        bits: usize,
        nprimes: usize,
        rng: &mut R,
    ) -> Result<Self> {
        generate(bits, nprimes, DEFAULT_EXPONENT, rng, Sizes::Fips)
    }
}

/// The smallest key [`RsaPrivateKey::generate_allowing_small`] makes: its primes must exceed
/// the 100 bits of FIPS 186-5's |p − q| > 2^(b − 100) bound with room to spare.
pub const SMALLEST_GENERATED_BITS: usize = 256;

/// The sizes a generation accepts.
#[derive(Clone, Copy)]
enum Sizes {
    /// Even sizes from [`MIN_MODULUS_BITS`].
    Fips,
    /// Any size from `min_bits` (and [`SMALLEST_GENERATED_BITS`]).
    Any { min_bits: usize },
}

fn generate<R: CryptoRng + ?Sized>(
    bits: usize,
    nprimes: usize,
    e: u64,
    rng: &mut R,
    accepted: Sizes,
) -> Result<RsaPrivateKey> {
    let min = match accepted {
        Sizes::Fips => MIN_MODULUS_BITS,
        Sizes::Any { min_bits } => min_bits.max(SMALLEST_GENERATED_BITS),
    };
    if bits < min {
        return Err(KeyError::ModulusTooSmall { bits, min }.into());
    }
    if bits > MAX_MODULUS_BITS {
        return Err(KeyError::ModulusTooLarge { bits }.into());
    }
    if bits & 1 == 1 && matches!(accepted, Sizes::Fips) {
        return Err(Error::Unsupported(format!(
            "a key size of {bits} bits (the size must be even)"
        )));
    }
    if !(2..=MAX_PRIMES).contains(&nprimes) {
        return Err(KeyError::PrimeCount { count: nprimes }.into());
    }
    if e < 3 || e & 1 == 0 {
        return Err(KeyError::PublicExponentInvalid.into());
    }
    // Prime sizes: bits split as evenly as possible, the larger ones first.
    // Public sizes only: the division is on public values.
    #[allow(clippy::integer_division_remainder_used)]
    let (base, extra) = (bits / nprimes, bits % nprimes);
    let sizes: Vec<usize> = (0..nprimes)
        .map(|i| base + usize::from(i < extra))
        .collect();
    let opts = PrimeOptions {
        top_two_bits: true,
        rounds: None,
        coprime_to_p_minus_1: Some(e),
    };
    loop {
        let primes: Vec<Zeroizing<Vec<Limb>>> = sizes
            .iter()
            .map(|&b| random_prime_with(b, &opts, rng))
            .collect();
        if let Some(key) = assemble(bits, &sizes, &primes, e)? {
            pairwise_consistency_test(&key, rng)?;
            return Ok(key);
        }
    }
}

/// The key of these primes, or none if they fail a FIPS 186-5 condition (|p − q| or d too
/// small, or a multi-prime product one bit short), in which case new primes are drawn.
fn assemble(
    bits: usize,
    sizes: &[usize],
    primes: &[Zeroizing<Vec<Limb>>],
    e: u64,
) -> Result<Option<RsaPrivateKey>> {
    let Some(v) = key_values(bits, sizes, primes, e, &Public)? else {
        return Ok(None);
    };
    PrivateValues::from_limbs(v.public, v.d, primes, &v.exps, &v.coeffs)
        .map(|values| Some(RsaPrivateKey::from_values(values)))
}

/// Where key generation makes a value derived from the secret primes public on purpose (n,
/// and the verdicts of checks whose failure only means drawing new primes). Production code
/// does nothing there ([`Public`]); the constant-time drivers (`rsa/tests/ct/keygen.rs`) mark
/// the value defined for valgrind's memcheck, so that everything else stays checked. Not part
/// of the API.
#[doc(hidden)]
pub trait Declassify {
    /// Called on a value, in place, at the moment it becomes public.
    fn declassify<T: ?Sized>(&self, x: &mut T);
}

/// The production [`Declassify`]: nothing to do.
struct Public;

impl Declassify for Public {
    fn declassify<T: ?Sized>(&self, _: &mut T) {}
}

/// The values key generation computes from the primes: the public key (n, e), d (as many
/// limbs as n), d_i = d mod (r_i − 1) (as many limbs as r_i) and the CRT coefficients qInv,
/// t_i (as many limbs as their prime). Not part of the API.
#[doc(hidden)]
pub struct KeyValues {
    /// n and e.
    pub public: RsaPublicKey,
    /// d = e⁻¹ mod λ(n).
    pub d: Zeroizing<Vec<Limb>>,
    /// d_i = d mod (r_i − 1): dP, dQ, then the others.
    pub exps: Vec<Zeroizing<Vec<Limb>>>,
    /// qInv = q⁻¹ mod p, then t_i = (r_1·…·r_(i−1))⁻¹ mod r_i.
    pub coeffs: Vec<Zeroizing<Vec<Limb>>>,
}

/// [`assemble`]'s arithmetic, without the final validation: key generation after the prime
/// search, on given primes of the given (public) bit sizes. The |r_i − r_j| checks, n, λ, d
/// and its size check, the d_i and the coefficients, with `declassify` called on each value
/// made public. `None` if a FIPS 186-5 condition fails (generation would draw new primes).
/// With the feature `test-hooks`, the constant-time drivers (`rsa/tests/ct/keygen.rs`) call
/// it as `rsatool_rsa::key_values_from_primes_for_ct_tests`.
///
/// # Errors
///
/// [`Error::InvalidKey`](crate::Error::InvalidKey) if the primes cannot make a key at all
/// (an even prime, a modulus out of range).
pub fn key_values<D: Declassify>(
    bits: usize,
    sizes: &[usize],
    primes: &[Zeroizing<Vec<Limb>>],
    e: u64,
    declassify: &D,
) -> Result<Option<KeyValues>> {
    let count = primes.len();
    // |r_i − r_j| > 2^(b − 100), b the smaller size of the two (FIPS 186-5 §A.1.3 step 5.4
    // for two primes).
    for i in 0..count {
        for j in i + 1..count {
            let len = primes[i].len().max(primes[j].len());
            let bound = sizes[i].min(sizes[j]) - 100;
            // Leaks: the verdict, public (the primes are discarded on failure).
            let mut far = greater_than_pow2(&abs_diff(&primes[i], &primes[j], len), bound);
            declassify.declassify(&mut far);
            if !far {
                return Ok(None);
            }
        }
    }
    // n = r_1·…·r_u.
    let mut n = primes[0].clone();
    for p in &primes[1..] {
        n = private_mul(&n, p);
    }
    // Leaks: n, the public modulus.
    declassify.declassify(n.as_mut_slice());
    let n_limbs = mpn::normalized_len_vartime(&n);
    let n_nat = bignum::Nat::from_limbs(&n[..n_limbs]);
    // n is public from here on; a multi-prime product may be a bit short.
    if n_nat.bits() != bits {
        return Ok(None);
    }
    // The size was checked by the caller (generation allows small keys on request).
    let public = RsaPublicKey::from_parts_allowing_small(
        &PublicKeyParts {
            n: n_nat.to_be_bytes(),
            e: e.to_be_bytes().to_vec(),
        },
        0,
    )?;
    let nl = public.n_mod.limb_len();

    // λ = lcm(r_i − 1), folded; each lcm fits the sum of its operands' lengths.
    // d = e⁻¹ mod λ (gcd(e, r_i − 1) = 1 was ensured by the prime search; otherwise the
    // primes are discarded).
    let Some(d) = components::private_exponent_limbs(primes, e, Totient::Carmichael, declassify)
    else {
        return Ok(None);
    };
    // d > 2^(nlen/2) (FIPS 186-5 §A.1.1 step 3); d < λ < n fits n's limbs.
    // Leaks: the verdict, public (the primes are discarded on failure).
    let mut large = greater_than_pow2(&d, bits >> 1);
    declassify.declassify(&mut large);
    if !large {
        return Ok(None);
    }
    let mut d_n = Zeroizing::new(vec![0; nl]);
    let common = nl.min(d.len());
    d_n[..common].copy_from_slice(&d[..common]);

    let (exps, coeffs) = components::crt_values(&d_n, primes, declassify)?;
    Ok(Some(KeyValues {
        public,
        d: d_n,
        exps,
        coeffs,
    }))
}

/// The pairwise consistency test: a private operation with the CRT (itself checked with e)
/// on a random value, then the public operation, which must give the value back.
fn pairwise_consistency_test<R: CryptoRng + ?Sized>(
    key: &RsaPrivateKey,
    rng: &mut R,
) -> Result<()> {
    let mut m = vec![0u8; key.size()];
    rng.fill_bytes(&mut m[1..]);
    // The top byte is 0 and n has exactly 8(k − 1) + 1 or more bits: m < n.
    let s = key.private_op(rng, &m)?;
    if key.public_key().public_op(&s)? != m {
        return Err(Error::Fault);
    }
    Ok(())
}

/// `a` zero-extended to `len` limbs.
fn pad(a: &[Limb], len: usize) -> Zeroizing<Vec<Limb>> {
    let mut v = Zeroizing::new(vec![0; len]);
    v[..a.len()].copy_from_slice(a);
    v
}

/// |a − b| as `len` limbs (`len` at least both lengths).
///
/// # Constant time
///
/// Depends on `len` only.
fn abs_diff(a: &[Limb], b: &[Limb], len: usize) -> Zeroizing<Vec<Limb>> {
    let (a, b) = (pad(a, len), pad(b, len));
    let mut r = Zeroizing::new(vec![0; len]);
    let borrow = mpn::sub_n(&mut r, &a, &b);
    // On a borrow r = a − b + 2^(64·len): negate it (two's complement) by mask.
    let mask = borrow.wrapping_neg();
    for x in r.iter_mut() {
        *x ^= mask;
    }
    mpn::add_assign_1(&mut r, borrow);
    r
}

/// Whether a > 2^k, i.e. a − (2^k + 1) does not borrow. Returns the verdict as a `bool`: every
/// caller's verdict is public (a failure discards the candidate).
///
/// # Constant time
///
/// The subtraction depends on `a.len()` and `k` only.
fn greater_than_pow2(a: &[Limb], k: usize) -> bool {
    if k >= 64 * a.len() {
        return false;
    }
    let mut t = Zeroizing::new(vec![0; a.len()]);
    t[k >> 6] |= 1 << (k & 63);
    t[0] |= 1;
    let mut r = Zeroizing::new(vec![0; a.len()]);
    mpn::sub_n(&mut r, a, &t) == 0
}
