//! RSA private key type.

use alloc::vec::Vec;
use core::fmt;

use crypto_bigint::modular::{BoxedMontyForm, BoxedMontyParams};
use crypto_bigint::{BoxedUint, Integer, NonZero, Odd, Resize};
use rand_core::TryCryptoRng;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::Generate;
use crate::bridge::SecretPrime;
use crate::bridge::{be_bytes, fallible_rng, uint};
use crate::errors::{Error, Result};
use crate::public_key::{self, PublicKey};
use crate::traits::{CrtValue, PublicKeyParts, SignatureScheme};

/// Represents a whole RSA key, public and private parts.
///
/// The integers are kept as upstream keeps them (`BoxedUint` at upstream's precisions), for
/// the accessors and the encodings; every operation runs on rsatool-rsa's key, built and
/// validated beside them, on our own constant-time arithmetic.
#[derive(Clone)]
pub struct PrivateKey {
    /// Public components of the private key.
    pubkey_components: PublicKey,
    /// Private exponent.
    pub(crate) d: BoxedUint,
    /// Prime factors of N, contains >= 2 elements.
    pub(crate) primes: Vec<Odd<BoxedUint>>,
    /// The CRT values, as upstream's accessors return them.
    pub(crate) precomputed: Option<PrecomputedValues>,
    /// rsatool-rsa's key, or why it refused these integers.
    engine: core::result::Result<rsatool_rsa::RsaPrivateKey, Error>,
}

#[derive(Clone)]
pub(crate) struct PrecomputedValues {
    /// Montgomery params for `p`
    pub(crate) p: SecretPrime,
    /// Montgomery params for `q`
    pub(crate) q: SecretPrime,
    /// D mod (P-1)
    pub(crate) dp: BoxedUint,
    /// D mod
    pub(crate) dq: BoxedUint,
    /// Q^-1 mod P
    pub(crate) qinv: BoxedMontyForm,
}

impl Zeroize for PrecomputedValues {
    fn zeroize(&mut self) {
        self.p.zeroize();
        self.q.zeroize();
        self.dp.zeroize();
        self.dq.zeroize();
    }
}

impl Drop for PrecomputedValues {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for PrecomputedValues {}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let precomputed = if self.precomputed.is_some() {
            "Some(...)"
        } else {
            "None"
        };
        f.debug_struct("PrivateKey")
            .field("pubkey_components", &self.pubkey_components)
            .field("d", &"...")
            .field("primes", &"&[...]")
            .field("precomputed", &precomputed)
            .finish()
    }
}

impl Eq for PrivateKey {}

impl PartialEq for PrivateKey {
    #[inline]
    fn eq(&self, other: &PrivateKey) -> bool {
        self.pubkey_components == other.pubkey_components
            && self.d == other.d
            && self.primes == other.primes
    }
}

impl Drop for PrivateKey {
    fn drop(&mut self) {
        self.d.zeroize();
        self.primes.zeroize();
        self.precomputed.zeroize();
    }
}

impl PublicKeyParts for PrivateKey {
    fn n(&self) -> &NonZero<BoxedUint> {
        &self.pubkey_components.n
    }

    fn e(&self) -> &BoxedUint {
        &self.pubkey_components.e
    }

    fn n_params(&self) -> &BoxedMontyParams {
        &self.pubkey_components.n_params
    }
}

impl PrivateKey {
    /// Default size of a key in bits.
    pub const DEFAULT_BITS: usize = 3072;

    /// The default public exponent.
    const EXP: u64 = 65537;

    /// Generate a new RSA key pair of the given bit size using the passed in `rng`, with
    /// rsatool-rsa's FIPS 186-5 key generation and e = 65537.
    ///
    /// # Errors
    ///
    /// [`Error::ModulusTooSmall`] below 1024 bits, [`Error::Rng`] if the RNG fails,
    /// [`Error::ModulusTooLarge`] above 16384 bits.
    pub fn new<R: TryCryptoRng + ?Sized>(rng: &mut R, bit_size: usize) -> Result<Self> {
        Self::new_with_exp(rng, bit_size, Self::EXP.into())
    }

    /// Generate a new RSA key pair of the given bit size, without the minimum size check.
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::new`], sizes aside.
    #[cfg(feature = "hazmat")]
    pub fn new_unchecked<R: TryCryptoRng + ?Sized>(rng: &mut R, bit_size: usize) -> Result<Self> {
        Self::new_with_exp_unchecked(rng, bit_size, Self::EXP.into())
    }

    /// Generate a new RSA key pair of the given bit size and the public exponent using the
    /// passed in `rng`.
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::new`]; [`Error::InvalidExponent`] for an even or too small exponent,
    /// [`Error::PublicExponentTooLarge`] above 2^33 − 1.
    pub fn new_with_exp<R: TryCryptoRng + ?Sized>(
        rng: &mut R,
        bit_size: usize,
        exp: BoxedUint,
    ) -> Result<PrivateKey> {
        if bit_size < PublicKey::MIN_SIZE {
            return Err(Error::ModulusTooSmall);
        }
        Self::generate_with(rng, bit_size, &exp)
    }

    /// Generate a new RSA key pair of the given bit size and exponent, without the minimum
    /// size check.
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::new_with_exp`], sizes aside.
    #[cfg(feature = "hazmat")]
    pub fn new_with_exp_unchecked<R: TryCryptoRng + ?Sized>(
        rng: &mut R,
        bit_size: usize,
        exp: BoxedUint,
    ) -> Result<PrivateKey> {
        Self::generate_with(rng, bit_size, &exp)
    }

    /// rsatool-rsa's key generation with the caller's RNG.
    fn generate_with<R: TryCryptoRng + ?Sized>(
        rng: &mut R,
        bit_size: usize,
        exp: &BoxedUint,
    ) -> Result<PrivateKey> {
        let e = small_exponent(exp)?;
        let mut rng = fallible_rng(rng);
        // Any size, odd ones and (for the hazmat forms) small ones included, as upstream.
        let key = rsatool_rsa::RsaPrivateKey::generate_allowing_small(bit_size, e, 0, &mut rng);
        let key = rng.finish(key)?;
        Self::from_engine(key)
    }

    /// The key of one rsatool-rsa generated (valid by construction), at upstream's
    /// precisions: n and d at n's bit length, each prime at half of it.
    pub(crate) fn from_engine(key: rsatool_rsa::RsaPrivateKey) -> Result<Self> {
        let parts = key.to_parts();
        let n_bits = bit_len(&parts.n);
        let n = uint(&parts.n, n_bits)?;
        let public = PublicKey::from_checked(n, uint(&parts.e, bit_len(&parts.e))?)?;
        let prime_bits = if parts.primes.len() > 2 {
            n_bits
        } else {
            n_bits.div_ceil(2)
        };
        let primes = parts
            .primes
            .iter()
            .map(|p| odd(uint(p, prime_bits)?))
            .collect::<Result<Vec<_>>>()?;
        let d = uint(&parts.d, public.n.bits_precision())?;
        let mut k = PrivateKey {
            pubkey_components: public,
            d,
            primes,
            precomputed: None,
            engine: Ok(key.without_blinding_cache()),
        };
        k.precompute()?;
        Ok(k)
    }

    /// Upstream's checks on the integers before validation, in its order, and the key
    /// (not yet validated or precomputed).
    fn from_components_inner(
        n: BoxedUint,
        e: BoxedUint,
        d: BoxedUint,
        mut primes: Vec<BoxedUint>,
        wide_primes: bool,
    ) -> Result<PrivateKey> {
        if !bool::from(n.is_odd()) {
            return Err(Error::InvalidModulus);
        }
        // A modulus padded with zeros is shortened to its bit length.
        let n_bits = n.bit_width_vartime();
        let n = n.resize_unchecked(n_bits);
        // d at n's (public) precision; an exponent wider than that is refused, not truncated.
        let d = d
            .try_resize(n.bits_precision())
            .ok_or(Error::InvalidExponent)?;
        let n_bytes = be_bytes(&n);
        match primes.len() {
            0 => {
                // Recover p and q from d (SP 800-56B C.2), as upstream.
                if e <= BoxedUint::from(1u64 << 16) {
                    return Err(Error::InvalidArguments);
                }
                let (p, q) =
                    rsatool_rsa::recover_primes_vartime(&n_bytes, &be_bytes(&e), &be_bytes(&d))
                        .ok_or(Error::InvalidArguments)?;
                let p = Zeroizing::new(p);
                let q = Zeroizing::new(q);
                primes.push(uint(&p, bit_len(&p))?);
                primes.push(uint(&q, bit_len(&q))?);
            }
            1 => return Err(Error::NprimesTooSmall),
            _ => {
                if !product_is(&primes, &n_bytes) {
                    return Err(Error::InvalidModulus);
                }
            }
        }
        // Every prime's precision follows a public policy: half of n's bits for two primes,
        // n's bits for wide or multi-prime keys.
        let prime_bits = if wide_primes || primes.len() > 2 {
            n_bits
        } else {
            n_bits.div_ceil(2)
        };
        let primes = primes
            .into_iter()
            .map(|p| {
                if p.bit_width() > prime_bits {
                    return Err(Error::InvalidPrime);
                }
                odd(p.resize_unchecked(prime_bits)).map_err(|_| Error::InvalidPrime)
            })
            .collect::<Result<Vec<_>>>()?;
        let public = PublicKey::from_checked(n, e)?;
        let engine = engine_of(&public, &d, &primes);
        Ok(PrivateKey {
            pubkey_components: public,
            d,
            primes,
            precomputed: None,
            engine,
        })
    }

    /// Constructs an RSA key pair from individual components, without the public exponent's
    /// size bounds.
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::from_components`], the exponent bounds aside.
    #[cfg(feature = "hazmat")]
    pub fn from_components_with_large_exponent(
        n: BoxedUint,
        e: BoxedUint,
        d: BoxedUint,
        primes: Vec<BoxedUint>,
    ) -> Result<PrivateKey> {
        let mut k = Self::from_components_inner(n, e, d, primes, false)?;
        public_key::check_public_skip_exponent_size(k.n().as_ref(), k.e())?;
        k.validate_private_parts()?;
        k.precompute()?;
        Ok(k)
    }

    /// Constructs an RSA key pair from individual components: n, e, d and the primes (none,
    /// to recover two from d, or at least two). The key is validated and its CRT values
    /// computed.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidModulus`], [`Error::InvalidExponent`], [`Error::InvalidPrime`],
    /// [`Error::NprimesTooSmall`], [`Error::InvalidArguments`] (primes not recoverable),
    /// [`Error::PublicExponentTooSmall`], [`Error::PublicExponentTooLarge`].
    pub fn from_components(
        n: BoxedUint,
        e: BoxedUint,
        d: BoxedUint,
        primes: Vec<BoxedUint>,
    ) -> Result<PrivateKey> {
        let mut k = Self::from_components_inner(n, e, d, primes, false)?;
        k.validate()?;
        k.precompute()?;
        Ok(k)
    }

    /// As [`PrivateKey::from_components`], with each prime kept at n's precision (primes of
    /// unequal sizes).
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::from_components`].
    pub fn from_components_with_wide_primes(
        n: BoxedUint,
        e: BoxedUint,
        d: BoxedUint,
        primes: Vec<BoxedUint>,
    ) -> Result<PrivateKey> {
        let mut k = Self::from_components_inner(n, e, d, primes, true)?;
        k.validate()?;
        k.precompute()?;
        Ok(k)
    }

    /// Constructs an RSA key pair from its two primes p and q, and the public exponent;
    /// d = e⁻¹ mod λ(n).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidPrime`] for primes below 2 or even, or an exponent not invertible;
    /// otherwise as [`PrivateKey::from_components`].
    pub fn from_p_q(p: BoxedUint, q: BoxedUint, public_exponent: BoxedUint) -> Result<PrivateKey> {
        Self::from_primes_with(
            vec![p, q],
            public_exponent,
            rsatool_rsa::Totient::Carmichael,
        )
    }

    /// Constructs an RSA key pair from its primes and the public exponent;
    /// d = e⁻¹ mod φ(n).
    ///
    /// # Errors
    ///
    /// [`Error::NprimesTooSmall`] for fewer than two primes; otherwise as
    /// [`PrivateKey::from_p_q`].
    pub fn from_primes(primes: Vec<BoxedUint>, public_exponent: BoxedUint) -> Result<PrivateKey> {
        if primes.len() < 2 {
            return Err(Error::NprimesTooSmall);
        }
        Self::from_primes_with(primes, public_exponent, rsatool_rsa::Totient::Euler)
    }

    fn from_primes_with(
        primes: Vec<BoxedUint>,
        e: BoxedUint,
        totient: rsatool_rsa::Totient,
    ) -> Result<PrivateKey> {
        let two = BoxedUint::from(2u64);
        // Leaks: whether some prime is below 2 or even, the verdict on a refused input.
        if primes.iter().any(|p| *p < two || !bool::from(p.is_odd())) {
            return Err(Error::InvalidPrime);
        }
        let bytes: Vec<Zeroizing<Vec<u8>>> = primes.iter().map(be_bytes).collect();
        let refs: Vec<&[u8]> = bytes.iter().map(|p| p.as_slice()).collect();
        let e_small = small_exponent(&e).map_err(|_| Error::InvalidPrime)?;
        let d = rsatool_rsa::private_exponent(&refs, e_small, totient)
            .map_err(|_| Error::InvalidPrime)?;
        let n = product(&refs);
        let n_bits = bit_len(&n);
        Self::from_components(uint(&n, n_bits)?, e, uint(&d, n_bits)?, primes)
    }

    /// Get the public key from the private key, cloning `n` and `e`.
    #[must_use]
    pub fn as_public_key(&self) -> &PublicKey {
        &self.pubkey_components
    }

    /// Get the public key from the private key, cloning `n` and `e`.
    #[must_use]
    pub fn to_public_key(&self) -> PublicKey {
        self.pubkey_components.clone()
    }

    /// Performs some calculations to speed up private key operations: here, makes the CRT
    /// values visible through [`PrivateKeyParts`] (rsatool-rsa's key always has them).
    ///
    /// # Errors
    ///
    /// Why rsatool-rsa refused the key, if it did.
    ///
    /// [`PrivateKeyParts`]: crate::traits::PrivateKeyParts
    pub fn precompute(&mut self) -> Result<()> {
        if self.precomputed.is_some() {
            return Ok(());
        }
        let parts = self.engine()?.to_parts();
        let (p, q) = (&self.primes[0], &self.primes[1]);
        let p_params = BoxedMontyParams::new(p.clone());
        let q_params = BoxedMontyParams::new(q.clone());
        let dp = uint(&parts.exponents[0], p.bits_precision())?;
        let dq = uint(&parts.exponents[1], q.bits_precision())?;
        let qinv =
            BoxedMontyForm::new(uint(&parts.coefficients[0], p.bits_precision())?, &p_params);
        self.precomputed = Some(PrecomputedValues {
            p: p_params.as_ref().clone(),
            q: q_params.as_ref().clone(),
            dp,
            dq,
            qinv,
        });
        Ok(())
    }

    /// Clears precomputed values by setting to None.
    pub fn clear_precomputed(&mut self) {
        self.precomputed = None;
    }

    /// Compute CRT coefficient: `(1/q) mod p`.
    #[must_use]
    pub fn crt_coefficient(&self) -> Option<BoxedUint> {
        let parts = self.engine.as_ref().ok()?.to_parts();
        uint(&parts.coefficients[0], self.primes[0].bits_precision()).ok()
    }

    /// Performs basic sanity checks on the key.
    ///
    /// # Errors
    ///
    /// `Ok(())` if everything is good, otherwise an appropriate error.
    pub fn validate(&self) -> Result<()> {
        public_key::check_public(self)?;
        self.validate_private_parts()
    }

    /// Upstream's private checks, in its order: d < n, the primes above 1 and distinct,
    /// their product n; then e·d ≡ 1 mod (r_i − 1), which rsatool-rsa's validation of the key
    /// decides in constant time.
    fn validate_private_parts(&self) -> Result<()> {
        // Leaks: each verdict, as upstream's checks do.
        if self.d >= *self.n().as_ref() {
            return Err(Error::InvalidExponent);
        }
        let two = BoxedUint::from(2u64);
        for (i, p) in self.primes.iter().enumerate() {
            if *p.as_ref() < two || self.primes[..i].iter().any(|o| o == p) {
                return Err(Error::InvalidPrime);
            }
        }
        if !product_is(self.primes.iter().map(|p| p.as_ref()), &be_bytes(self.n())) {
            return Err(Error::InvalidModulus);
        }
        self.engine().map(|_| ())
    }

    /// rsatool-rsa's key, on which every private operation runs.
    ///
    /// # Errors
    ///
    /// Why rsatool-rsa refused the integers.
    pub(crate) fn engine(&self) -> Result<&rsatool_rsa::RsaPrivateKey> {
        self.engine.as_ref().map_err(Clone::clone)
    }

    /// Sign the given digest.
    ///
    /// # Errors
    ///
    /// As the signature scheme's signing.
    pub fn sign<S: SignatureScheme>(&self, padding: S, digest_in: &[u8]) -> Result<Vec<u8>> {
        // The operating system's RNG with `getrandom`, as upstream; else none (this crate
        // then blinds with a stream keyed by the key and the input).
        #[cfg(feature = "getrandom")]
        {
            padding.sign(Some(&mut crypto_common::getrandom::SysRng), self, digest_in)
        }
        #[cfg(not(feature = "getrandom"))]
        {
            padding.sign(None::<&mut crate::bridge::NoRng>, self, digest_in)
        }
    }
}

impl Generate for PrivateKey {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(
        rng: &mut R,
    ) -> core::result::Result<Self, R::Error> {
        let mut adapter = fallible_rng(rng);
        let key = rsatool_rsa::RsaPrivateKey::generate_with_exponent(
            Self::DEFAULT_BITS,
            Self::EXP,
            &mut adapter,
        );
        if let Some(err) = adapter.take_error() {
            return Err(err);
        }
        match key.map_err(Error::from).and_then(Self::from_engine) {
            Ok(key) => Ok(key),
            // rsatool-rsa's generation of a 3072-bit key with e = 65537 does not fail but
            // for the RNG, handled above.
            Err(err) => unreachable!("key generation failed: {err}"),
        }
    }
}

crate::private_key_impls::private_key_impls!(
    PrivateKey, PublicKey,
    rng: [TryCryptoRng + ?Sized],
    /// Without an RNG the private operation is blinded all the same: with the operating
    /// system's RNG (feature `getrandom`), else with a stream keyed by the key and the input.
    hash_domain: b"PrivateKey",
    parts: {
        uint: BoxedUint,
        prime: Odd<BoxedUint>,
        qinv: BoxedMontyForm,
        fn crt_values(&self) -> Option<&[CrtValue]> {
            None
        }

        fn p(&self) -> Option<&SecretPrime> {
            self.precomputed.as_ref().map(|p| &p.p)
        }

        fn q(&self) -> Option<&SecretPrime> {
            self.precomputed.as_ref().map(|p| &p.q)
        }
    },
);

crate::key_traits::der_serde_impls!(private PrivateKey);

/// rsatool-rsa's key of these integers: built and validated in constant time.
fn engine_of(
    public: &PublicKey,
    d: &BoxedUint,
    primes: &[Odd<BoxedUint>],
) -> core::result::Result<rsatool_rsa::RsaPrivateKey, Error> {
    let bytes: Vec<Zeroizing<Vec<u8>>> = primes.iter().map(|p| be_bytes(p)).collect();
    let refs: Vec<&[u8]> = bytes.iter().map(|p| p.as_slice()).collect();
    rsatool_rsa::RsaPrivateKey::from_components(
        &be_bytes(&public.n),
        &be_bytes(&public.e),
        &be_bytes(d),
        &refs,
        0,
    )
    // Upstream's contract: every blinded operation draws from the RNG it is given (its
    // tests check it), which a pair kept between operations would not.
    .map(rsatool_rsa::RsaPrivateKey::without_blinding_cache)
    .map_err(Error::from)
}

/// The exponent as a `u64`, as rsatool-rsa's generation and `private_exponent` take it.
fn small_exponent(e: &BoxedUint) -> Result<u64> {
    let bytes = be_bytes(e);
    if bytes.len() > 8 {
        return Err(Error::PublicExponentTooLarge);
    }
    let mut b = [0u8; 8];
    b[8 - bytes.len()..].copy_from_slice(&bytes);
    let e = u64::from_be_bytes(b);
    if e > PublicKey::MAX_PUB_EXPONENT {
        return Err(Error::PublicExponentTooLarge);
    }
    if e < 3 || e & 1 == 0 {
        return Err(Error::InvalidExponent);
    }
    Ok(e)
}

fn odd(x: BoxedUint) -> Result<Odd<BoxedUint>> {
    Odd::new(x).into_option().ok_or(Error::InvalidPrime)
}

/// The bit length of a big-endian integer, as crypto-bigint's precision (at least 1).
fn bit_len(be: &[u8]) -> u32 {
    let n = bignum::Nat::from_be_bytes(be);
    u32::try_from(n.bits().max(1)).unwrap_or(u32::MAX)
}

/// The product of big-endian integers, on bignum.
fn product(factors: &[&[u8]]) -> Zeroizing<Vec<u8>> {
    let mut acc = bignum::Nat::one();
    for f in factors {
        acc = &acc * &bignum::Nat::from_be_bytes(f);
    }
    Zeroizing::new(acc.to_be_bytes())
}

/// Whether the primes multiply to n (big-endian), on bignum.
fn product_is<'a>(primes: impl IntoIterator<Item = &'a BoxedUint>, n: &[u8]) -> bool {
    let bytes: Vec<Zeroizing<Vec<u8>>> = primes.into_iter().map(be_bytes).collect();
    let refs: Vec<&[u8]> = bytes.iter().map(|p| p.as_slice()).collect();
    product(&refs).as_slice() == n
}
