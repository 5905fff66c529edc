//! A private key's values ([`PrivateValues`]: n, e, d, the primes with their CRT values), their
//! validation, and their conversion to and from [`PrivateKeyParts`]. What the private
//! operation keeps beside them (the blinding table, a meeting point for concurrent callers) is
//! `primitive`'s `CrtKey`, which is built from these values.

use alloc::{vec, vec::Vec};

use bignum::modular::{self, Modulus, Residue};
use bignum::{Limb, mpn};
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

use super::public::check_public;
use super::{
    MAX_PRIMES, PrivateKeyParts, RsaPublicKey, be_to_limbs, limbs_to_be, strip_leading_zeros,
};
use crate::{KeyError, Result};

/// A private key's values, validated ([`PrivateValues::from_parts`],
/// [`PrivateValues::from_limbs`]): the public key, d, and the primes (two, or up to
/// [`MAX_PRIMES`] for a multi-prime key per RFC 8017) with their CRT values, the Montgomery
/// contexts of n and of every prime computed once. Secret but the public key; its buffers wipe
/// themselves on drop.
pub(crate) struct PrivateValues {
    pub(crate) public: RsaPublicKey,
    /// d, as many limbs as n.
    pub(crate) d: Zeroizing<Vec<Limb>>,
    /// p, q, then r_3, … with their CRT values.
    pub(crate) primes: Vec<CrtPrime>,
}

/// One prime r_i of a private key with what the CRT needs of it.
#[derive(Clone)]
pub(crate) struct CrtPrime {
    /// The Montgomery context of r_i, a SECRET modulus.
    pub(crate) m: Modulus,
    /// d_i = d mod (r_i − 1), as many limbs as r_i.
    pub(crate) exp: Zeroizing<Vec<Limb>>,
    /// For p: qInv = q⁻¹ mod p; for r_i, i ≥ 3: t_i = (r_1·…·r_(i−1))⁻¹ mod r_i; for q: none.
    pub(crate) coeff: Option<Residue>,
    /// For r_i, i ≥ 3: R_i = r_1·…·r_(i−1) (as many limbs as those primes together); else empty.
    pub(crate) product: Zeroizing<Vec<Limb>>,
}

impl PrivateValues {
    /// A private key's values from its integers, fully validated: the checks of
    /// [`RsaPublicKey::from_parts`], then 2 to [`MAX_PRIMES`] distinct primes whose product is n,
    /// e·d ≡ 1 modulo every r_i − 1 (so modulo their lcm), each d_i = d mod (r_i − 1), and the
    /// coefficients qInv = q⁻¹ mod p and t_i = (r_1·…·r_(i−1))⁻¹ mod r_i, each below its prime.
    /// The primes are not tested for primality.
    ///
    /// # Constant time
    ///
    /// The checks on secrets run in constant time; only each check's verdict, the byte lengths
    /// of the integers and the bit lengths of the primes are public.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidKey`](crate::Error::InvalidKey) with the [`KeyError`] of the first
    /// failed check; moduli below `min_bits` bits are refused.
    pub(crate) fn from_parts(parts: &PrivateKeyParts, min_bits: usize) -> Result<Self> {
        // Sizes first, before any arithmetic.
        check_public(&parts.n, &parts.e, min_bits)?;
        let count = parts.primes.len();
        if !(2..=MAX_PRIMES).contains(&count) {
            return Err(KeyError::PrimeCount { count }.into());
        }
        if parts.exponents.len() != count || parts.coefficients.len() != count - 1 {
            return Err(KeyError::CrtValuesInconsistent.into());
        }
        let k = strip_leading_zeros(&parts.n).len();
        let nl = k.div_ceil(8);
        let d = be_to_limbs(&parts.d, nl).ok_or(KeyError::PrivateExponentInvalid)?;
        let mut primes = Vec::with_capacity(count);
        for p in &parts.primes {
            let len = strip_leading_zeros(p).len();
            if len == 0 || len > k {
                return Err(KeyError::PrimesProductMismatch.into());
            }
            primes.push(be_to_limbs(p, len.div_ceil(8)).ok_or(KeyError::PrimesProductMismatch)?);
        }
        let mut exps = Vec::with_capacity(count);
        for (x, p) in parts.exponents.iter().zip(&primes) {
            exps.push(be_to_limbs(x, p.len()).ok_or(KeyError::CrtValuesInconsistent)?);
        }
        let mut coeffs = Vec::with_capacity(count - 1);
        for (i, x) in parts.coefficients.iter().enumerate() {
            // Coefficient 0 (qInv) belongs to p, coefficient i ≥ 1 to prime i + 1.
            let target = if i == 0 { 0 } else { i + 1 };
            coeffs
                .push(be_to_limbs(x, primes[target].len()).ok_or(KeyError::CrtValuesInconsistent)?);
        }
        let public = RsaPublicKey::from_parts_allowing_small(
            &super::PublicKeyParts {
                n: parts.n.clone(),
                e: parts.e.clone(),
            },
            min_bits,
        )?;
        Self::from_limbs(public, d, &primes, &exps, &coeffs)
    }

    /// Builds and validates a key from limbs: `d` as many limbs as n, each exponent as many
    /// limbs as its prime, coefficient 0 as many as p, coefficient i ≥ 1 as many as prime
    /// i + 1.
    pub(crate) fn from_limbs(
        public: RsaPublicKey,
        d: Zeroizing<Vec<Limb>>,
        primes: &[Zeroizing<Vec<Limb>>],
        exps: &[Zeroizing<Vec<Limb>>],
        coeffs: &[Zeroizing<Vec<Limb>>],
    ) -> Result<Self> {
        let count = primes.len();
        if !(2..=MAX_PRIMES).contains(&count) {
            return Err(KeyError::PrimeCount { count }.into());
        }
        if exps.len() != count || coeffs.len() != count - 1 {
            return Err(KeyError::CrtValuesInconsistent.into());
        }
        let nl = public.n_mod.limb_len();
        assert_eq!(d.len(), nl, "d must have as many limbs as n");

        // Distinct primes.
        let mut distinct = Choice::from(1);
        for i in 0..count {
            for j in i + 1..count {
                let len = primes[i].len().max(primes[j].len());
                let a = pad(&primes[i], len);
                let b = pad(&primes[j], len);
                distinct &= !a.ct_eq(&b);
            }
        }
        // Leaks: whether two primes are equal, the verdict of the check.
        if !bool::from(distinct) {
            return Err(KeyError::PrimesNotDistinct.into());
        }

        // n = r_1·…·r_u, keeping the partial products R_i for the CRT.
        let mut products: Vec<Zeroizing<Vec<Limb>>> = Vec::with_capacity(count);
        let mut acc = Zeroizing::new(primes[0].to_vec());
        products.push(Zeroizing::new(Vec::new()));
        for p in &primes[1..] {
            products.push(acc.clone());
            acc = mul(&acc, p);
        }
        let len = acc.len().max(nl);
        let product_ok = pad(&acc, len).ct_eq(&pad(public.n.as_limbs(), len));
        // Leaks: the verdict.
        if !bool::from(product_ok) {
            return Err(KeyError::PrimesProductMismatch.into());
        }

        // Montgomery contexts of the (secret) primes; they are odd as divisors of the odd n,
        // and none is 1 unless another one equals n, which is not a factorisation.
        let mut moduli = Vec::with_capacity(count);
        for p in primes {
            let m: Option<Modulus> = Modulus::new(p).into();
            // Leaks: the verdict.
            moduli.push(m.ok_or(KeyError::PrimesProductMismatch)?);
        }

        // e·d ≡ 1 (mod r_i − 1) for every i: e·d ≡ 1 modulo their lcm.
        let e = public.e.as_limbs();
        let ed = mul(&d, e);
        let mut ed_ok = Choice::from(1);
        let mut crt_ok = Choice::from(1);
        let mut pm1s = Vec::with_capacity(count);
        for (p, x) in primes.iter().zip(exps) {
            let mut pm1 = Zeroizing::new(p.to_vec());
            // p is odd and ≥ 3: no borrow.
            mpn::sub_assign_1(&mut pm1, 1);
            let one = pad(&[1], pm1.len());
            let r = rem(&ed, &pm1);
            ed_ok &= r.ct_eq(&one);
            // d_i = d mod (r_i − 1).
            let di = rem(&d, &pm1);
            crt_ok &= di.ct_eq(x);
            pm1s.push(pm1);
        }
        // Leaks: the verdict.
        if !bool::from(ed_ok) {
            // Tell a prime that shares a factor with e apart (possible to decide only for an
            // e of one limb; a larger e shows up as a bad d).
            if let Some(e) = public.e.to_u64() {
                for pm1 in &pm1s {
                    let inv: Option<Zeroizing<Vec<Limb>>> =
                        modular::inv_public_mod_secret(e, pm1).into();
                    if inv.is_none() {
                        return Err(KeyError::PrimesNotCoprimeToE.into());
                    }
                }
            }
            return Err(KeyError::PrivateExponentInvalid.into());
        }

        // Coefficients: qInv·q ≡ 1 (mod p), t_i·R_i ≡ 1 (mod r_i), each below its prime.
        let mut coeff_res: Vec<Option<Residue>> = (0..count).map(|_| None).collect();
        for (i, c) in coeffs.iter().enumerate() {
            let (target, other) = if i == 0 {
                (0, &primes[1])
            } else {
                (i + 1, &products[i + 1])
            };
            let m = &moduli[target];
            let x = m.reduce(c);
            crt_ok &= m.retrieve(&x).ct_eq(c);
            let o = m.reduce(other);
            crt_ok &= m.mul(&x, &o).ct_eq(&m.one());
            coeff_res[target] = Some(x);
        }
        // Leaks: the verdict.
        if !bool::from(crt_ok) {
            return Err(KeyError::CrtValuesInconsistent.into());
        }

        let primes = moduli
            .into_iter()
            .zip(exps)
            .zip(coeff_res)
            .zip(products)
            .enumerate()
            .map(|(i, (((mut m, exp), coeff), product))| {
                // Every private operation exponentiates modulo each prime several times.
                m.keep_engine_constants();
                CrtPrime {
                    m,
                    exp: exp.clone(),
                    coeff,
                    product: if i >= 2 {
                        product
                    } else {
                        Zeroizing::new(Vec::new())
                    },
                }
            })
            .collect();
        Ok(PrivateValues { public, d, primes })
    }
}

/// The integers of the key of these values, big-endian without leading zeros (PKCS #1 order).
///
/// # Constant time
///
/// The conversions depend on the limb counts; the byte length of each value leaks, as it does
/// in any DER encoding.
pub(crate) fn to_parts(public: &RsaPublicKey, d: &[Limb], primes: &[CrtPrime]) -> PrivateKeyParts {
    let mut coefficients = Vec::with_capacity(primes.len() - 1);
    for (i, p) in primes.iter().enumerate() {
        if i == 1 {
            continue;
        }
        if let Some(c) = &p.coeff {
            coefficients.push(limbs_to_be(&p.m.retrieve(c)));
        }
    }
    PrivateKeyParts {
        n: public.n.to_be_bytes(),
        e: public.e.to_be_bytes(),
        d: limbs_to_be(d),
        primes: primes.iter().map(|p| limbs_to_be(p.m.as_limbs())).collect(),
        exponents: primes.iter().map(|p| limbs_to_be(&p.exp)).collect(),
        coefficients,
    }
}

/// `a` zero-extended to `len` limbs (`len ≥ a.len()`).
fn pad(a: &[Limb], len: usize) -> Zeroizing<Vec<Limb>> {
    let mut v = Zeroizing::new(vec![0; len]);
    v[..a.len()].copy_from_slice(a);
    v
}

/// a·b (constant time in the lengths), `a.len() + b.len()` limbs.
pub(crate) fn mul(a: &[Limb], b: &[Limb]) -> Zeroizing<Vec<Limb>> {
    let mut r = Zeroizing::new(vec![0; a.len() + b.len()]);
    if a.len() >= b.len() {
        mpn::mul(&mut r, a, b);
    } else {
        mpn::mul(&mut r, b, a);
    }
    r
}

/// a mod m for a non-zero secret m (`m.len()` limbs).
fn rem(a: &[Limb], m: &[Limb]) -> Zeroizing<Vec<Limb>> {
    let r: Option<_> = modular::rem(a, m).into();
    // m = r_i − 1 ≥ 2 here.
    r.unwrap_or_else(|| Zeroizing::new(vec![0; m.len()]))
}
