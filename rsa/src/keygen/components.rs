//! Keys from some of their integers, as RustCrypto's constructors take them: n, e, d and the
//! primes (the CRT values computed here), or the primes and e alone (d computed here too).
//! Every value derived from the primes is computed in constant time on `bignum::modular`.

use alloc::vec::Vec;

use bignum::modular::{self, Modulus};
use bignum::{Limb, Nat, mpn};
use zeroize::Zeroizing;

use super::{Declassify, Public, pad};
use crate::key::{PrivateValues, be_to_limbs, limbs_to_be, private_mul, strip_leading_zeros};
use crate::{Error, KeyError, MAX_PRIMES, PublicKeyParts, Result, RsaPrivateKey, RsaPublicKey};

/// A secret integer's limbs, wiped on drop.
type SecretLimbs = Zeroizing<Vec<Limb>>;

/// Which multiple of the group's exponent d inverts e modulo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Totient {
    /// λ(n) = lcm(r_i − 1), Carmichael's function (FIPS 186-5 A.1.1, SP 800-56B §6.2.1): the
    /// smallest d.
    Carmichael,
    /// φ(n) = ∏(r_i − 1), Euler's.
    Euler,
}

impl RsaPrivateKey {
    /// A private key from n, e, d and its 2 to [`MAX_PRIMES`] primes: the CRT exponents
    /// d mod (r_i − 1) and the coefficients (qInv, t_i) are computed, then the key is
    /// validated as [`RsaPrivateKey::from_parts`] validates it, with `min_bits` as the
    /// smallest modulus accepted.
    ///
    /// # Constant time
    ///
    /// The derived values are computed in constant time; the byte lengths of the integers
    /// and each check's verdict are public.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidKey`] with the [`KeyError`] of the first failed check.
    pub fn from_components(
        n: &[u8],
        e: &[u8],
        d: &[u8],
        primes: &[&[u8]],
        min_bits: usize,
    ) -> Result<Self> {
        let public = RsaPublicKey::from_parts_allowing_small(
            &PublicKeyParts {
                n: n.to_vec(),
                e: e.to_vec(),
            },
            min_bits,
        )?;
        let primes = prime_limbs(primes, strip_leading_zeros(n).len())?;
        let nl = public.n_mod.limb_len();
        let d = be_to_limbs(d, nl).ok_or(KeyError::PrivateExponentInvalid)?;
        let (exps, coeffs) = crt_values(&d, &primes, &Public)?;
        PrivateValues::from_limbs(public, d, &primes, &exps, &coeffs).map(Self::from_values)
    }
}

/// d = e⁻¹ mod λ(n) or φ(n) ([`Totient`]) for the primes r_i, big-endian.
///
/// # Constant time
///
/// Depends on the byte lengths of the primes and on e; the verdict (whether e is invertible)
/// is public.
///
/// # Errors
///
/// [`KeyError::PrimeCount`] outside 2..=[`MAX_PRIMES`] primes,
/// [`KeyError::PrimesNotCoprimeToE`] if e is even, below 3 or not invertible, or a prime is
/// below 3 or even.
pub fn private_exponent(primes: &[&[u8]], e: u64, totient: Totient) -> Result<Zeroizing<Vec<u8>>> {
    if e < 3 || e & 1 == 0 {
        return Err(KeyError::PublicExponentInvalid.into());
    }
    let longest = primes
        .iter()
        .map(|p| strip_leading_zeros(p).len())
        .max()
        .unwrap_or(0);
    let primes = prime_limbs(primes, longest)?;
    let d = private_exponent_limbs(&primes, e, totient, &Public)
        .ok_or(KeyError::PrimesNotCoprimeToE)?;
    Ok(limbs_to_be(&d))
}

/// d = e⁻¹ mod λ(n) or φ(n) ([`Totient`]) of odd primes above 2, as limbs (as many as the
/// totient); none if e is not invertible.
///
/// # Constant time
///
/// Depends on the limb counts and e; the verdict is declassified through `declassify`.
pub(crate) fn private_exponent_limbs<D: Declassify>(
    primes: &[SecretLimbs],
    e: u64,
    totient: Totient,
    declassify: &D,
) -> Option<SecretLimbs> {
    let pm1s = minus_one(primes);
    let mut t = pm1s[0].clone();
    for pm1 in &pm1s[1..] {
        t = match totient {
            Totient::Carmichael => {
                // lcm(a, b) fits the sum of its operands' lengths.
                let len = t.len().max(pm1.len());
                let mut l = modular::lcm(&pad(&t, len), &pad(pm1, len));
                l.truncate(t.len() + pm1.len());
                l
            }
            Totient::Euler => private_mul(&t, pm1),
        };
    }
    let mut d = modular::inv_public_mod_secret(e, &t);
    // Leaks: whether e is invertible, the verdict (the key or the primes are refused
    // otherwise).
    declassify.declassify(&mut d);
    d.into()
}

/// p and q (p > q) from n, e and d (NIST SP 800-56B rev. 2, Appendix C.2), or none where
/// the method fails (it needs e > 2^16; d·e − 1 a multiple of λ(n) of a usable size).
///
/// # Constant time
///
/// None: variable-time arithmetic on `Nat`, for importing a key given without its primes,
/// where the secret d is handled once.
pub fn recover_primes_vartime(n: &[u8], e: &[u8], d: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let (n, e, d) = (
        Nat::from_be_bytes(n),
        Nat::from_be_bytes(e),
        Nat::from_be_bytes(d),
    );
    let one = Nat::one();
    if e.bits() <= 16 || e == Nat::from_be_bytes(&[1, 0, 0]) || n.is_zero() {
        return None;
    }
    // 1. a = (de − 1)·gcd(n − 1, de − 1).
    let a1 = (&d * &e).checked_sub(&one)?;
    let a = &a1 * &n.checked_sub(&one)?.gcd(&a1);
    // 2. m = ⌊a / n⌋, r = a − m·n.
    let (m, r) = a.div_rem(&n);
    // 3. b = (n − r)/(m + 1) + 1, which must be whole, with b² > 4n.
    let (b, rest) = n.checked_sub(&r)?.div_rem(&(&m + &one));
    if !rest.is_zero() {
        return None;
    }
    let b = &b + &one;
    let four_n = &n * &Nat::from_be_bytes(&[4]);
    let disc = b.square().checked_sub(&four_n)?;
    if disc.is_zero() {
        return None;
    }
    // 4. γ = √(b² − 4n), which must be whole; p = (b + γ)/2, q = (b − γ)/2.
    let y = disc.sqrt();
    if y.square() != disc {
        return None;
    }
    let two = Nat::from_be_bytes(&[2]);
    let p = (&b + &y).checked_div(&two)?;
    let q = b.checked_sub(&y)?.checked_div(&two)?;
    Some((p.to_be_bytes(), q.to_be_bytes()))
}

/// The primes as limbs (each as many as its own bytes need), checked for count, size and
/// being odd and at least 3.
fn prime_limbs(primes: &[&[u8]], max_len: usize) -> Result<Vec<Zeroizing<Vec<Limb>>>> {
    if !(2..=MAX_PRIMES).contains(&primes.len()) {
        return Err(KeyError::PrimeCount {
            count: primes.len(),
        }
        .into());
    }
    primes
        .iter()
        .map(|p| {
            let len = strip_leading_zeros(p).len();
            if len == 0 || len > max_len {
                return Err(Error::from(KeyError::PrimesProductMismatch));
            }
            let p = be_to_limbs(p, len.div_ceil(8)).ok_or(KeyError::PrimesProductMismatch)?;
            // Leaks: whether the prime is odd and above 1, the verdict on an input that is
            // refused when it fails.
            if p[0] & 1 == 0 || (p.len() == 1 && p[0] < 3) {
                return Err(KeyError::PrimesProductMismatch.into());
            }
            Ok(p)
        })
        .collect()
}

/// r_i − 1 for each prime (odd and at least 3: no borrow).
fn minus_one(primes: &[Zeroizing<Vec<Limb>>]) -> Vec<Zeroizing<Vec<Limb>>> {
    primes
        .iter()
        .map(|p| {
            let mut v = p.clone();
            mpn::sub_assign_1(&mut v, 1);
            v
        })
        .collect()
}

/// The CRT values of d (as many limbs as n) and the primes: d_i = d mod (r_i − 1), each as
/// many limbs as r_i, and the coefficients qInv = q⁻¹ mod p, t_i = (r_1·…·r_(i−1))⁻¹ mod r_i,
/// each as many limbs as its prime (RFC 8017 §3.2).
///
/// # Errors
///
/// [`KeyError::CrtValuesInconsistent`] where an inverse does not exist (primes not coprime).
pub(crate) fn crt_values<D: Declassify>(
    d: &[Limb],
    primes: &[Zeroizing<Vec<Limb>>],
    declassify: &D,
) -> Result<(Vec<SecretLimbs>, Vec<SecretLimbs>)> {
    let pm1s = minus_one(primes);
    let mut exps = Vec::with_capacity(primes.len());
    for pm1 in &pm1s {
        let mut r = modular::rem(d, pm1);
        // Leaks: whether r_i − 1 is non-zero (checked above: always).
        declassify.declassify(&mut r);
        let r: Option<Zeroizing<Vec<Limb>>> = r.into();
        exps.push(r.ok_or(KeyError::CrtValuesInconsistent)?);
    }
    // R_i = r_1·…·r_(i−1) for i ≥ 3 (index 2 onwards).
    let mut products = Vec::with_capacity(primes.len());
    let mut acc = primes[0].clone();
    for p in &primes[1..] {
        products.push(acc.clone());
        acc = private_mul(&acc, p);
    }
    let mut coeffs = Vec::with_capacity(primes.len() - 1);
    // qInv's "other" is q (for p); t_i's is R_i (for r_i, i ≥ 3).
    let others = core::iter::once(&primes[1]).chain(products[1..].iter());
    for (i, other) in others.enumerate() {
        let target = if i == 0 { 0 } else { i + 1 };
        let mut m = Modulus::new(&primes[target]);
        // Leaks: whether the prime is a valid (odd, > 1) modulus: checked above.
        declassify.declassify(&mut m);
        let m: Option<Modulus> = m.into();
        let m = m.ok_or(KeyError::PrimesProductMismatch)?;
        let mut inv = m.inv(&m.reduce(other));
        // Leaks: whether the inverse exists, the verdict (the key is refused otherwise).
        declassify.declassify(&mut inv);
        let inv: Option<_> = inv.into();
        let inv: modular::Residue = inv.ok_or(KeyError::CrtValuesInconsistent)?;
        coeffs.push(m.retrieve(&inv));
    }
    Ok((exps, coeffs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;
    use num_integer::Integer;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    fn key() -> RsaPrivateKey {
        RsaPrivateKey::new(&mut ChaCha8Rng::from_seed([7; 32]), 1024).unwrap()
    }

    #[test]
    fn from_components_computes_the_crt_values_of_the_key() {
        let key = key();
        let parts = key.to_parts();
        let primes: Vec<&[u8]> = parts.primes.iter().map(|p| p.as_slice()).collect();
        let again = RsaPrivateKey::from_components(&parts.n, &parts.e, &parts.d, &primes, 1024)
            .unwrap()
            .to_parts();
        // The CRT values against num-bigint: d mod (p − 1), d mod (q − 1), q⁻¹ mod p.
        let big = |b: &[u8]| BigUint::from_bytes_be(b);
        let (d, p, q) = (big(&parts.d), big(&parts.primes[0]), big(&parts.primes[1]));
        let one = BigUint::from(1u8);
        assert_eq!(big(&again.exponents[0]), &d % (&p - &one));
        assert_eq!(big(&again.exponents[1]), &d % (&q - &one));
        let qinv = big(&again.coefficients[0]);
        assert_eq!((&q * &qinv) % &p, one);
    }

    #[test]
    fn from_components_refuses_a_wrong_d_and_bad_primes() {
        let parts = key().to_parts();
        let primes: Vec<&[u8]> = parts.primes.iter().map(|p| p.as_slice()).collect();
        let mut d = parts.d.to_vec();
        *d.last_mut().unwrap() ^= 2;
        assert!(RsaPrivateKey::from_components(&parts.n, &parts.e, &d, &primes, 1024).is_err());
        let even = [4u8];
        assert_eq!(
            RsaPrivateKey::from_components(&parts.n, &parts.e, &parts.d, &[primes[0], &even], 1024)
                .unwrap_err(),
            Error::InvalidKey(KeyError::PrimesProductMismatch)
        );
        assert_eq!(
            RsaPrivateKey::from_components(&parts.n, &parts.e, &parts.d, &[primes[0]], 1024)
                .unwrap_err(),
            Error::InvalidKey(KeyError::PrimeCount { count: 1 })
        );
    }

    #[test]
    fn generate_allowing_small_makes_odd_and_small_sizes_exactly() {
        let mut rng = ChaCha8Rng::from_seed([9; 32]);
        for bits in [512, 1025] {
            let key = RsaPrivateKey::generate_allowing_small(bits, 65537, 0, &mut rng).unwrap();
            let n = BigUint::from_bytes_be(&key.to_parts().n);
            assert_eq!(n.bits(), bits as u64);
        }
        assert!(RsaPrivateKey::generate_allowing_small(255, 65537, 0, &mut rng).is_err());
        // The FIPS form keeps its bounds.
        assert!(RsaPrivateKey::generate(1025, &mut rng).is_err());
        assert!(RsaPrivateKey::generate(512, &mut rng).is_err());
    }

    #[test]
    fn recover_primes_finds_p_and_q_from_d() {
        let parts = key().to_parts();
        let (p, q) = recover_primes_vartime(&parts.n, &parts.e, &parts.d).unwrap();
        let mut want = [parts.primes[0].to_vec(), parts.primes[1].to_vec()];
        want.sort_by_key(|x| core::cmp::Reverse(BigUint::from_bytes_be(x)));
        assert_eq!([p, q], want);
        // e = 3 is below the method's bound.
        assert_eq!(recover_primes_vartime(&parts.n, &[3], &parts.d), None);
    }

    #[test]
    fn private_exponent_inverts_e_modulo_lambda_or_phi() {
        let parts = key().to_parts();
        let primes: Vec<&[u8]> = parts.primes.iter().map(|p| p.as_slice()).collect();
        let one = BigUint::from(1u8);
        let pm1 = |b: &[u8]| BigUint::from_bytes_be(b) - &one;
        let (p1, q1) = (pm1(primes[0]), pm1(primes[1]));
        let e = BigUint::from(65537u32);
        for (totient, modulus) in [
            (Totient::Carmichael, p1.lcm(&q1)),
            (Totient::Euler, &p1 * &q1),
        ] {
            let d = BigUint::from_bytes_be(&private_exponent(&primes, 65537, totient).unwrap());
            assert!(d < modulus);
            assert_eq!((&d * &e) % &modulus, one);
        }
        // e = 3 divides neither of these p − 1 only by chance; an e sharing a factor with
        // p − 1 is refused: p − 1 is even, and e must be odd, so use e = a factor of p − 1.
        let small = (3u64..1000)
            .step_by(2)
            .find(|&f| (&p1 % f) == BigUint::from(0u8));
        if let Some(f) = small {
            assert!(private_exponent(&primes, f, Totient::Carmichael).is_err());
        }
        assert!(private_exponent(&primes, 4, Totient::Euler).is_err());
    }
}
