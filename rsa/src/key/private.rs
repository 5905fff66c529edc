//! [`RsaPrivateKey`]: the private key, its validation, and its conversion to and from
//! [`PrivateKeyParts`].

use alloc::string::ToString;
use alloc::{vec, vec::Vec};
use core::fmt;

use bignum::modular::{self, Modulus, Residue};
use bignum::{Limb, mpn};
use subtle::{Choice, ConstantTimeEq};
use zeroize::{ZeroizeOnDrop, Zeroizing};

use super::public::check_public;
use super::{
    MAX_PRIMES, MIN_MODULUS_BITS, PrivateKeyParts, RsaPublicKey, be_to_limbs, limbs_to_be,
    strip_leading_zeros,
};
use crate::primitive::BlindingCache;
use crate::{KeyError, Result};

/// An RSA private key: n, e, d, the primes (two, or up to [`MAX_PRIMES`] for a multi-prime key
/// per RFC 8017) and the CRT values, with the Montgomery contexts of n and of every prime
/// computed once at construction.
///
/// The private parts are held in `bignum::modular` types and `Zeroizing` buffers and are wiped
/// on drop; `Debug` shows only n's bit length and e. `Send + Sync`; every operation takes
/// `&self`.
///
/// The key also keeps a blinding pair for its CRT private operations, updated by squaring and
/// drawn afresh every 32 uses (the `primitive::blinding` module explains it and why it is
/// safe). It is wiped on drop and never cloned: a clone starts without one, and so does, in
/// effect, a child process after `fork()` (a pair last used by another process is dropped for a
/// fresh one).
#[derive(Clone)]
pub struct RsaPrivateKey {
    pub(crate) public: RsaPublicKey,
    /// d, as many limbs as n.
    pub(crate) d: Zeroizing<Vec<Limb>>,
    /// p, q, then r_3, … with their CRT values.
    pub(crate) primes: Vec<CrtPrime>,
    /// The cached blinding pairs of the CRT private operation (empty in a new key and in
    /// every clone).
    pub(crate) blinding: BlindingCache,
    /// Where concurrent callers meet, if the key coalesces their operations
    /// ([`RsaPrivateKey::coalescing`]); none in a new key. Without `std`, nothing.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) coalescer: CoalescerSlot,
}

/// A key's meeting point for concurrent callers (`coalesce`), if it has one; a clone gets a
/// meeting point of its own.
#[cfg(feature = "std")]
#[derive(Clone, Default)]
pub(crate) struct CoalescerSlot(pub(crate) Option<alloc::boxed::Box<crate::coalesce::Coalescer>>);

/// Without `std` there are no threads to meet.
#[cfg(not(feature = "std"))]
#[derive(Clone, Default)]
pub(crate) struct CoalescerSlot;

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

impl RsaPrivateKey {
    /// A private key from its integers, fully validated: the checks of
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
    /// failed check.
    pub fn from_parts(parts: &PrivateKeyParts) -> Result<Self> {
        Self::from_parts_allowing_small(parts, MIN_MODULUS_BITS)
    }

    /// [`RsaPrivateKey::from_parts`], accepting moduli down to `min_bits` bits. For tests and
    /// legacy data only: keys below 1024 bits are insecure.
    ///
    /// # Constant time
    ///
    /// As [`RsaPrivateKey::from_parts`].
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::from_parts`], with `min_bits` as the lower bound.
    pub fn from_parts_allowing_small(parts: &PrivateKeyParts, min_bits: usize) -> Result<Self> {
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
        Ok(RsaPrivateKey {
            public,
            d,
            primes,
            blinding: BlindingCache::new(),
            coalescer: CoalescerSlot::default(),
        })
    }

    /// The integers of this key, big-endian without leading zeros (PKCS #1 order).
    ///
    /// # Constant time
    ///
    /// The conversions depend on the limb counts; the byte length of each value leaks, as it
    /// does in any DER encoding.
    pub fn to_parts(&self) -> PrivateKeyParts {
        let mut coefficients = Vec::with_capacity(self.primes.len() - 1);
        for (i, p) in self.primes.iter().enumerate() {
            if i == 1 {
                continue;
            }
            if let Some(c) = &p.coeff {
                coefficients.push(limbs_to_be(&p.m.retrieve(c)));
            }
        }
        PrivateKeyParts {
            n: self.public.n.to_be_bytes(),
            e: self.public.e.to_be_bytes(),
            d: limbs_to_be(&self.d),
            primes: self
                .primes
                .iter()
                .map(|p| limbs_to_be(p.m.as_limbs()))
                .collect(),
            exponents: self.primes.iter().map(|p| limbs_to_be(&p.exp)).collect(),
            coefficients,
        }
    }

    /// The public half of this key.
    pub fn public_key(&self) -> &RsaPublicKey {
        &self.public
    }

    /// The public half of this key, cloned (RustCrypto's name; also
    /// `RsaPublicKey::from(&key)`).
    pub fn to_public_key(&self) -> RsaPublicKey {
        self.public.clone()
    }

    /// The modulus n.
    pub fn n(&self) -> &bignum::Nat {
        &self.public.n
    }

    /// The public exponent e.
    pub fn e(&self) -> &bignum::Nat {
        &self.public.e
    }

    /// k, the length of n in bytes.
    pub fn size(&self) -> usize {
        self.public.k
    }

    /// The bit length of n.
    pub fn bits(&self) -> usize {
        self.public.bits()
    }

    /// How many primes the key has (2, or more for a multi-prime key).
    pub fn prime_count(&self) -> usize {
        self.primes.len()
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

impl ZeroizeOnDrop for RsaPrivateKey {}

impl From<&RsaPrivateKey> for RsaPublicKey {
    fn from(key: &RsaPrivateKey) -> Self {
        key.public.clone()
    }
}

impl From<RsaPrivateKey> for RsaPublicKey {
    fn from(key: RsaPrivateKey) -> Self {
        key.public.clone()
    }
}

impl AsRef<RsaPublicKey> for RsaPrivateKey {
    fn as_ref(&self) -> &RsaPublicKey {
        &self.public
    }
}

impl fmt::Debug for RsaPrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RsaPrivateKey")
            .field("bits", &self.public.n.bits())
            .field("e", &self.public.e.to_string())
            .finish_non_exhaustive()
    }
}
