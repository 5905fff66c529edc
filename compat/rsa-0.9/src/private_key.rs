//! [`RsaPrivateKey`]: 0.9's integers (`BigUint`, which its accessors return by reference)
//! beside the rsatool-rsa key that every operation runs on.

use alloc::vec::Vec;
use core::fmt;

use core::mem::take;

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, ToPrimitive};
use rand_core::CryptoRngCore;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use crate::RsaPublicKey;
use crate::bridge::{NoRng, limbs_be, secret_bytes, uint, with_rng};
use crate::errors::{Error, Result, from_rsatool};
use crate::public_key::check_public;
use crate::traits::{PublicKeyParts, SignatureScheme};
use rsatool_rsa::Totient;

/// Represents a whole RSA key, public and private parts.
///
/// The private integers are kept twice: as 0.9's `BigUint`s, which [`PrivateKeyParts`]
/// returns by reference, and in rsatool-rsa's key, which does every operation. Both are wiped
/// on drop; `Debug` prints the public part only.
///
/// [`PrivateKeyParts`]: crate::traits::PrivateKeyParts
#[derive(Clone)]
pub struct RsaPrivateKey {
    /// Public components of the private key.
    pubkey_components: RsaPublicKey,
    /// Private exponent
    d: BigUint,
    /// Prime factors of N, contains >= 2 elements.
    primes: Vec<BigUint>,
    /// The CRT values as [`PrivateKeyParts`] shows them (cleared by `clear_precomputed`).
    precomputed: Option<PrecomputedValues>,
    /// rsatool-rsa's key, which always has its CRT values.
    engine: rsatool_rsa::RsaPrivateKey,
}

/// dP, dQ, qInv and the further primes' values, as 0.9 shows them.
#[derive(Clone)]
struct PrecomputedValues {
    /// D mod (P-1)
    dp: BigUint,
    /// D mod
    dq: BigUint,
    /// Q^-1 mod P
    qinv: BigInt,
    /// The values of the third and further primes.
    crt_values: Vec<CrtValue>,
}

impl Drop for PrecomputedValues {
    fn drop(&mut self) {
        self.dp.zeroize();
        self.dq.zeroize();
        self.qinv.zeroize();
    }
}

/// The precomputed Chinese remainder theorem values of the third and further primes of a
/// multi-prime key. Opaque, as in 0.9; wiped on drop, and `Debug` prints no secret.
#[derive(Clone)]
pub struct CrtValue {
    /// d mod (r_i − 1).
    pub(crate) exp: BigInt,
    /// (r_1·…·r_(i−1))⁻¹ mod r_i.
    pub(crate) coeff: BigInt,
}

impl fmt::Debug for CrtValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CrtValue(..)")
    }
}

impl Zeroize for CrtValue {
    fn zeroize(&mut self) {
        self.exp.zeroize();
        self.coeff.zeroize();
    }
}

impl Drop for CrtValue {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl RsaPrivateKey {
    /// Default exponent for RSA keys.
    const EXP: u64 = 65537;

    /// Generate a new Rsa key pair of the given bit size using the passed in `rng`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::new_with_exp`].
    pub fn new<R: CryptoRngCore + ?Sized>(rng: &mut R, bit_size: usize) -> Result<RsaPrivateKey> {
        Self::new_with_exp(rng, bit_size, &BigUint::from(Self::EXP))
    }

    /// Generate a new RSA key pair of the given bit size and the public exponent
    /// using the passed in `rng`.
    ///
    /// Unless you have specific needs, you should use `RsaPrivateKey::new` instead.
    ///
    /// Even sizes from 1024 to 16384 bits are rsatool-rsa's FIPS 186-5 key generation (d mod
    /// λ(n), |p − q| and d size checks, a pairwise consistency test); other sizes (below 1024
    /// bits: insecure, for tests) take two primes from bignum's prime search and d mod φ(n),
    /// as 0.9 does.
    ///
    /// # Errors
    ///
    /// [`Error::TooFewPrimes`] below 16 bits, [`Error::ModulusTooLarge`] above 16384, 0.9's
    /// errors for an exponent it refuses, [`Error::Rng`] if `rng` failed.
    pub fn new_with_exp<R: CryptoRngCore + ?Sized>(
        rng: &mut R,
        bit_size: usize,
        exp: &BigUint,
    ) -> Result<RsaPrivateKey> {
        let e = exp.to_u64().ok_or(Error::PublicExponentTooLarge)?;
        if e & 1 == 0 {
            return Err(Error::InvalidExponent);
        }
        if e < 3 {
            return Err(Error::PublicExponentTooSmall);
        }
        if e > RsaPublicKey::MAX_PUB_EXPONENT {
            return Err(Error::PublicExponentTooLarge);
        }
        if bit_size < 16 {
            return Err(Error::TooFewPrimes);
        }
        if bit_size > rsatool_rsa::MAX_MODULUS_BITS {
            return Err(Error::ModulusTooLarge);
        }
        if bit_size >= rsatool_rsa::MIN_MODULUS_BITS && bit_size & 1 == 0 {
            let engine = with_rng(Some(rng), |rng| {
                rsatool_rsa::RsaPrivateKey::generate_with_exponent(bit_size, e, rng)
            })?;
            return Ok(Self::from_engine(engine));
        }
        let sizes = [bit_size >> 1, bit_size - (bit_size >> 1)];
        let opts = bignum::prime::PrimeOptions {
            top_two_bits: true,
            rounds: None,
            coprime_to_p_minus_1: Some(e),
        };
        loop {
            let primes = with_rng(Some(&mut *rng), |rng| {
                Ok(sizes.map(|bits| bignum::prime::random_prime_with(bits, &opts, rng)))
            })?;
            // Leaks: whether the two primes are equal (they are drawn again then).
            if !bool::from(primes[0].ct_eq(&primes[1])) {
                let primes: Vec<BigUint> = primes.iter().map(|p| uint(&limbs_be(p))).collect();
                return Self::from_primes(primes, exp.clone());
            }
        }
    }

    /// Constructs an RSA key pair from individual components:
    ///
    /// - `n`: RSA modulus
    /// - `e`: public exponent (i.e. encrypting exponent)
    /// - `d`: private exponent (i.e. decrypting exponent)
    /// - `primes`: prime factors of `n`: typically two primes `p` and `q`. More than two primes
    ///   (up to 5 here) can be provided for multiprime RSA. If no `primes` are provided, they
    ///   are recovered as described in NIST SP 800-56B Revision 2, Appendix C.2 (two primes,
    ///   `e` between 2^16 and 2^256; in variable time).
    ///
    /// The CRT values are computed from the primes in constant time and the key is validated
    /// by rsatool-rsa (n = ∏primes, e·d ≡ 1 mod every prime − 1, distinct primes).
    ///
    /// # Errors
    ///
    /// [`Error::NprimesTooSmall`] for one prime; [`Error::InvalidArguments`] if the primes
    /// cannot be recovered or there are more than 5; [`Error::InvalidPrime`] for a prime below
    /// 2, even, or equal to another; [`Error::InvalidModulus`] if n is not their product;
    /// [`Error::InvalidExponent`] if d does not invert e; 0.9's errors for n and e.
    pub fn from_components(
        n: BigUint,
        e: BigUint,
        d: BigUint,
        primes: Vec<BigUint>,
    ) -> Result<RsaPrivateKey> {
        // Wiped on every return, the errors included.
        let (mut d, mut primes) = (Zeroizing::new(d), Zeroizing::new(primes));
        if primes.len() == 1 {
            return Err(Error::NprimesTooSmall);
        }
        if primes.is_empty() {
            let (p, q) = recover_primes(&n, &e, &d).ok_or(Error::InvalidArguments)?;
            primes.extend([p, q]);
        }
        let engine = engine_of(&n, &e, &d, &primes)?;
        Ok(Self::from_parts(engine, take(&mut d), take(&mut primes)))
    }

    /// A key of another [`PrivateKeyParts`] implementor's integers (for `hazmat`'s generic
    /// functions), through [`RsaPrivateKey::from_components`].
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::from_components`].
    #[cfg(feature = "hazmat")]
    pub(crate) fn of_parts(parts: &impl crate::traits::PrivateKeyParts) -> Result<Self> {
        let (n, e) = (parts.n().clone(), parts.e().clone());
        Self::from_components(n, e, parts.d().clone(), parts.primes().to_vec())
    }

    /// Constructs an RSA key pair from its two primes p and q, with d = e⁻¹ mod
    /// lcm(p − 1, q − 1) (NIST SP 800-56B Rev. 2 §6.2.1).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidPrime`] if p = q or e is not invertible; as
    /// [`RsaPrivateKey::from_components`].
    pub fn from_p_q(p: BigUint, q: BigUint, public_exponent: BigUint) -> Result<RsaPrivateKey> {
        if p == q {
            return Err(Error::InvalidPrime);
        }
        Self::from_primes_with(alloc::vec![p, q], public_exponent, Totient::Carmichael)
    }

    /// Constructs an RSA key pair from its primes, with d = e⁻¹ mod ∏(r_i − 1).
    ///
    /// # Errors
    ///
    /// [`Error::NprimesTooSmall`] for fewer than 2 primes, [`Error::InvalidPrime`] if two are
    /// equal or e is not invertible; as [`RsaPrivateKey::from_components`].
    pub fn from_primes(primes: Vec<BigUint>, public_exponent: BigUint) -> Result<RsaPrivateKey> {
        if primes.len() < 2 {
            return Err(Error::NprimesTooSmall);
        }
        for (i, p) in primes.iter().enumerate() {
            // Leaks: whether two primes are equal, an invalid key.
            if primes[..i]
                .iter()
                .any(|q| bool::from(secret_bytes(p).ct_eq(&secret_bytes(q))))
            {
                return Err(Error::InvalidPrime);
            }
        }
        Self::from_primes_with(primes, public_exponent, Totient::Euler)
    }

    /// The key of `primes` and e, with d modulo `totient`.
    fn from_primes_with(primes: Vec<BigUint>, e: BigUint, totient: Totient) -> Result<Self> {
        let mut primes = Zeroizing::new(primes);
        check_primes(&primes)?;
        let bytes: Vec<Zeroizing<Vec<u8>>> = primes.iter().map(secret_bytes).collect();
        let refs: Vec<&[u8]> = bytes.iter().map(|p| p.as_slice()).collect();
        let small_e = e.to_u64().ok_or(Error::PublicExponentTooLarge)?;
        let d = rsatool_rsa::private_exponent(&refs, small_e, totient)
            .map_err(|_| Error::InvalidPrime)?;
        // n, public: the product of the primes on bignum's Nat.
        let n = refs.iter().fold(bignum::Nat::one(), |acc, p| {
            &acc * &bignum::Nat::from_be_bytes(p)
        });
        let n = uint(&n.to_be_bytes());
        let mut d = Zeroizing::new(uint(&d));
        let engine = engine_of(&n, &e, &d, &primes)?;
        Ok(Self::from_parts(engine, take(&mut d), take(&mut primes)))
    }

    /// A key of rsatool-rsa's, with 0.9's integers taken from it.
    fn from_engine(engine: rsatool_rsa::RsaPrivateKey) -> Self {
        let parts = engine.to_parts();
        let primes = parts.primes.iter().map(|p| uint(p)).collect();
        Self::from_parts(engine, uint(&parts.d), primes)
    }

    /// A key of rsatool-rsa's with 0.9's `d` and `primes` as given (the same values).
    pub(crate) fn from_parts(
        engine: rsatool_rsa::RsaPrivateKey,
        d: BigUint,
        primes: Vec<BigUint>,
    ) -> Self {
        let pubkey_components = RsaPublicKey {
            n: uint(&engine.n().to_be_bytes()),
            e: uint(&engine.e().to_be_bytes()),
            engine: Some(engine.to_public_key()),
        };
        let mut key = RsaPrivateKey {
            pubkey_components,
            d,
            primes,
            precomputed: None,
            // 0.9's contract: every blinded operation draws from the RNG it is given (and
            // fails with it); a pair kept between operations would not.
            engine: engine.without_blinding_cache(),
        };
        key.fill_precomputed();
        key
    }

    /// [`PrivateKeyParts`]'s CRT values, from rsatool-rsa's key.
    fn fill_precomputed(&mut self) {
        let parts = self.engine.to_parts();
        let signed = |x: &[u8]| BigInt::from_biguint(Sign::Plus, uint(x));
        let crt_values = parts.exponents[2..]
            .iter()
            .zip(&parts.coefficients[1..])
            .map(|(exp, coeff)| CrtValue {
                exp: signed(exp),
                coeff: signed(coeff),
            })
            .collect();
        self.precomputed = Some(PrecomputedValues {
            dp: uint(&parts.exponents[0]),
            dq: uint(&parts.exponents[1]),
            qinv: signed(&parts.coefficients[0]),
            crt_values,
        });
    }

    /// Get the public key from the private key, cloning `n` and `e`.
    ///
    /// Generally this is not needed since `RsaPrivateKey` implements the `PublicKey` trait,
    /// but it can occasionally be useful to discard the private information entirely.
    pub fn to_public_key(&self) -> RsaPublicKey {
        self.pubkey_components.clone()
    }

    /// Performs some calculations to speed up private key operations: here, only makes
    /// [`PrivateKeyParts`]'s `dp`, `dq`, `qinv` and `crt_values` return them again (rsatool-rsa
    /// keeps them always).
    ///
    /// # Errors
    ///
    /// None: always `Ok`.
    ///
    /// [`PrivateKeyParts`]: crate::traits::PrivateKeyParts
    pub fn precompute(&mut self) -> Result<()> {
        if self.precomputed.is_none() {
            self.fill_precomputed();
        }
        Ok(())
    }

    /// Clears precomputed values by setting to None (private operations still use the CRT).
    pub fn clear_precomputed(&mut self) {
        self.precomputed = None;
    }

    /// Compute CRT coefficient: `(1/q) mod p`.
    pub fn crt_coefficient(&self) -> Option<BigUint> {
        self.engine.to_parts().coefficients.first().map(|c| uint(c))
    }

    /// Performs basic sanity checks on the key.
    /// Returns `Ok(())` if everything is good, otherwise an appropriate error.
    ///
    /// The private parts were validated by rsatool-rsa when the key was built (it cannot
    /// change since); this repeats 0.9's checks of n and e.
    ///
    /// # Errors
    ///
    /// 0.9's errors for n and e.
    pub fn validate(&self) -> Result<()> {
        check_public(self.n(), self.e(), None)
    }

    /// Sign the given digest.
    ///
    /// # Errors
    ///
    /// The scheme's ([`Pss`](crate::Pss) needs an RNG: [`Error::InvalidPaddingScheme`]).
    pub fn sign<S: SignatureScheme>(&self, padding: S, digest_in: &[u8]) -> Result<Vec<u8>> {
        padding.sign(None::<&mut NoRng>, self, digest_in)
    }

    /// rsatool-rsa's key.
    pub(crate) fn engine(&self) -> &rsatool_rsa::RsaPrivateKey {
        &self.engine
    }

    /// The raw private operation on exactly k bytes: blinded with `rng`, or with the
    /// operating system's RNG where there is none; without `std` and without an RNG, the
    /// unblinded (still constant-time) operation.
    ///
    /// # Errors
    ///
    /// [`Error::Decryption`] if the input is not below n, [`Error::Internal`] on a fault,
    /// [`Error::Rng`].
    pub(crate) fn private_op<R: CryptoRngCore + ?Sized>(
        &self,
        rng: Option<&mut R>,
        input: &[u8],
    ) -> Result<Vec<u8>> {
        use rsatool_rsa::hazmat::PrivateOp;
        #[cfg(not(feature = "std"))]
        if rng.is_none() {
            return self.engine.private_op_plain(input).map_err(from_rsatool);
        }
        with_rng(rng, |rng| self.engine.private_op(rng, input))
    }

    /// Decrypts with an rsatool-rsa scheme, after 0.9's checks of the key.
    ///
    /// # Errors
    ///
    /// As [`check_public`], and the scheme's.
    pub(crate) fn decrypt_with<S: rsatool_rsa::EncryptionScheme, R: CryptoRngCore + ?Sized>(
        &self,
        rng: Option<&mut R>,
        scheme: &S,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        self.validate()?;
        with_rng(rng, |rng| self.engine.decrypt(rng, scheme, ciphertext))
    }

    /// Signs a digest with an rsatool-rsa scheme.
    ///
    /// # Errors
    ///
    /// The scheme's, and [`Error::Rng`].
    pub(crate) fn sign_with<S: rsatool_rsa::SignatureScheme, R: CryptoRngCore + ?Sized>(
        &self,
        rng: Option<&mut R>,
        scheme: &S,
        digest: &[u8],
    ) -> Result<Vec<u8>> {
        with_rng(rng, |rng| self.engine.sign_prehashed(rng, scheme, digest))
    }
}

/// 0.9's refusal of primes below 2, before any arithmetic on them.
fn check_primes(primes: &[BigUint]) -> Result<()> {
    // Leaks: whether a prime is below 2, an invalid key.
    if primes.iter().any(|p| *p <= BigUint::one()) {
        return Err(Error::InvalidPrime);
    }
    Ok(())
}

/// rsatool-rsa's key of 0.9's components, after 0.9's checks of n and e; rsatool-rsa computes
/// the CRT values from the primes in constant time and validates the key.
///
/// # Errors
///
/// As [`RsaPrivateKey::from_components`].
pub(crate) fn engine_of(
    n: &BigUint,
    e: &BigUint,
    d: &BigUint,
    primes: &[BigUint],
) -> Result<rsatool_rsa::RsaPrivateKey> {
    check_public(n, e, None)?;
    check_primes(primes)?;
    let bytes: Vec<Zeroizing<Vec<u8>>> = primes.iter().map(secret_bytes).collect();
    let refs: Vec<&[u8]> = bytes.iter().map(|p| p.as_slice()).collect();
    rsatool_rsa::RsaPrivateKey::from_components(
        &n.to_bytes_be(),
        &e.to_bytes_be(),
        &secret_bytes(d),
        &refs,
        0,
    )
    .map_err(from_rsatool)
}

/// p and q from n, e and d (NIST SP 800-56B Rev. 2 Appendix C.2, in variable time), for
/// 2^16 < e < 2^256 as 0.9 takes them.
fn recover_primes(n: &BigUint, e: &BigUint, d: &BigUint) -> Option<(BigUint, BigUint)> {
    if *e <= BigUint::from(1u64 << 16) || e.bits() > 256 {
        return None;
    }
    let (p, q) =
        rsatool_rsa::recover_primes_vartime(&n.to_bytes_be(), &e.to_bytes_be(), &secret_bytes(d))?;
    Some((uint(&Zeroizing::new(p)), uint(&Zeroizing::new(q))))
}

impl PublicKeyParts for RsaPrivateKey {
    fn n(&self) -> &BigUint {
        &self.pubkey_components.n
    }

    fn e(&self) -> &BigUint {
        &self.pubkey_components.e
    }
}

impl PartialEq for RsaPrivateKey {
    /// Equal public parts, d and primes; the secrets compared in constant time (their byte
    /// lengths aside).
    fn eq(&self, other: &RsaPrivateKey) -> bool {
        let same = |a: &BigUint, b: &BigUint| bool::from(secret_bytes(a).ct_eq(&secret_bytes(b)));
        self.pubkey_components == other.pubkey_components
            && same(&self.d, &other.d)
            && self.primes.len() == other.primes.len()
            && self
                .primes
                .iter()
                .zip(&other.primes)
                .all(|(a, b)| same(a, b))
    }
}

impl Eq for RsaPrivateKey {}

impl fmt::Debug for RsaPrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RsaPrivateKey")
            .field("pubkey_components", &self.pubkey_components)
            .finish_non_exhaustive()
    }
}

impl Drop for RsaPrivateKey {
    fn drop(&mut self) {
        self.d.zeroize();
        self.primes.zeroize();
        self.precomputed = None;
    }
}

crate::private_key_impls::private_key_impls!(
    RsaPrivateKey, RsaPublicKey,
    rng: [CryptoRngCore],
    /// Unlike 0.9, the private operation is blinded all the same, with the operating
    /// system's RNG (with the `std` feature; without it, use
    /// [`decrypt_blinded`](Self::decrypt_blinded)).
    hash_domain: b"RsaPrivateKey",
    parts: {
        uint: BigUint,
        prime: BigUint,
        qinv: BigInt,
        fn crt_values(&self) -> Option<&[CrtValue]> {
            self.precomputed.as_ref().map(|p| p.crt_values.as_slice())
        }
    },
);

#[cfg(feature = "serde")]
mod serde_impls {
    //! 0.9's serde form: `RsaPrivateKey { pubkey_components, d, primes }`, the integers as
    //! `num-bigint-dig` writes them. A deserialized private key is validated (0.9 did not).

    use alloc::vec::Vec;

    use num_bigint::BigUint;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use zeroize::Zeroize;

    use super::RsaPrivateKey;
    use crate::RsaPublicKey;

    #[derive(Serialize)]
    #[serde(rename = "RsaPrivateKey")]
    struct PrivateRef<'a> {
        pubkey_components: &'a RsaPublicKey,
        d: &'a BigUint,
        primes: &'a [BigUint],
    }

    #[derive(Deserialize)]
    #[serde(rename = "RsaPrivateKey")]
    struct PrivateForm {
        pubkey_components: RsaPublicKey,
        d: BigUint,
        primes: Vec<BigUint>,
    }

    impl Drop for PrivateForm {
        fn drop(&mut self) {
            self.d.zeroize();
            self.primes.zeroize();
        }
    }

    impl Serialize for RsaPrivateKey {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            PrivateRef {
                pubkey_components: &self.pubkey_components,
                d: &self.d,
                primes: &self.primes,
            }
            .serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for RsaPrivateKey {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let form = PrivateForm::deserialize(d)?;
            let key = RsaPrivateKey::from_components(
                form.pubkey_components.n.clone(),
                form.pubkey_components.e.clone(),
                form.d.clone(),
                form.primes.clone(),
            );
            key.map_err(serde::de::Error::custom)
        }
    }
}
