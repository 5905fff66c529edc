//! RSA public key type.

use core::hash::{Hash, Hasher};
use core::ops::RangeInclusive;

use crypto_bigint::modular::BoxedMontyParams;
use crypto_bigint::{BoxedUint, Integer, NonZero, Odd};
use rand_core::TryCryptoRng;

use crate::bridge::be_bytes;
use crate::traits::PublicKeyParts;
use crate::{Error, PrivateKey, Result};

/// Represents the public part of an RSA key.
///
/// The integers are kept as upstream keeps them (`BoxedUint`, at the caller's precision),
/// for the accessors; every operation runs on rsatool-rsa's key, built beside them.
#[derive(Debug, Clone)]
pub struct PublicKey {
    pub(crate) n: NonZero<BoxedUint>,
    pub(crate) e: BoxedUint,
    pub(crate) n_params: BoxedMontyParams,
    /// rsatool-rsa's key, or why it refused these integers (a key upstream accepts unchecked).
    pub(crate) engine: core::result::Result<rsatool_rsa::RsaPublicKey, Error>,
}

impl PublicKey {
    /// Minimum value of the modulus in bits.
    pub const MIN_SIZE: usize = 1024;

    /// Maximum value of the modulus in bits.
    pub const MAX_SIZE: usize = 8192;

    /// Minimum value of the public exponent `e`.
    pub const MIN_PUB_EXPONENT: u64 = 2;

    /// Maximum value of the public exponent `e`.
    pub const MAX_PUB_EXPONENT: u64 = (1 << 33) - 1;

    /// Create a new public key from its components: a modulus of 1024 to 8192 bits, an odd
    /// exponent from 3 to 2^33 − 1 below n.
    ///
    /// # Errors
    ///
    /// [`Error::ModulusTooSmall`], [`Error::ModulusTooLarge`], [`Error::InvalidModulus`],
    /// [`Error::InvalidExponent`], [`Error::PublicExponentTooSmall`],
    /// [`Error::PublicExponentTooLarge`].
    pub fn new(n: BoxedUint, e: BoxedUint) -> Result<Self> {
        Self::new_with_size_limits(n, e, Self::MIN_SIZE..=Self::MAX_SIZE)
    }

    /// Create a new public key, bounding the modulus size by `size_range_bits`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArguments`] for an empty range, otherwise as [`PublicKey::new`].
    pub fn new_with_size_limits(
        n: BoxedUint,
        e: BoxedUint,
        size_range_bits: RangeInclusive<usize>,
    ) -> Result<Self> {
        if size_range_bits.is_empty() {
            return Err(Error::InvalidArguments);
        }
        if (n.bit_width_vartime() as usize) < *size_range_bits.start() {
            return Err(Error::ModulusTooSmall);
        }
        check_public_with_max_size(&n, &e, Some(*size_range_bits.end()))?;
        Self::from_checked(n, e)
    }

    /// Create a new public key, bounding the modulus size by `max_size` bits.
    ///
    /// # Errors
    ///
    /// As [`PublicKey::new_with_size_limits`].
    #[deprecated(since = "0.10.0", note = "please use `new_with_size_limits` instead")]
    pub fn new_with_max_size(n: BoxedUint, e: BoxedUint, max_size: usize) -> Result<Self> {
        Self::new_with_size_limits(n, e, Self::MIN_SIZE..=max_size)
    }

    /// Create a new public key, bypassing checks around the modulus and public exponent size.
    ///
    /// This method is not recommended, and only intended for unusual use cases.
    ///
    /// # Panics
    ///
    /// If `n` is even (as upstream).
    #[must_use]
    #[allow(clippy::expect_used)]
    pub fn new_unchecked(n: BoxedUint, e: BoxedUint) -> Self {
        Self::from_checked(n, e).expect("n must be odd")
    }

    /// The key of an odd `n` (checked here) and `e`, with rsatool-rsa's key beside it.
    pub(crate) fn from_checked(n: BoxedUint, e: BoxedUint) -> Result<Self> {
        let n_odd = Odd::new(n.clone())
            .into_option()
            .ok_or(Error::InvalidModulus)?;
        let n_params = BoxedMontyParams::new_vartime(n_odd);
        let n = NonZero::new(n).into_option().ok_or(Error::InvalidModulus)?;
        let engine = rsatool_rsa::RsaPublicKey::from_parts_allowing_small(
            &rsatool_rsa::PublicKeyParts {
                n: be_bytes(&n).to_vec(),
                e: be_bytes(&e).to_vec(),
            },
            0,
        )
        .map_err(Error::from);
        Ok(PublicKey {
            n,
            e,
            n_params,
            engine,
        })
    }

    /// rsatool-rsa's key, on which every operation runs.
    ///
    /// # Errors
    ///
    /// Why rsatool-rsa refused the integers (a key made by `new_unchecked` with an exponent
    /// or size our library does not take).
    pub(crate) fn engine(&self) -> Result<&rsatool_rsa::RsaPublicKey> {
        self.engine.as_ref().map_err(Clone::clone)
    }
}

crate::public_key_ops::public_key_ops!(PublicKey, TryCryptoRng + ?Sized);

impl Eq for PublicKey {}

impl PartialEq for PublicKey {
    #[inline]
    fn eq(&self, other: &PublicKey) -> bool {
        self.n == other.n && self.e == other.e
    }
}

impl From<PrivateKey> for PublicKey {
    fn from(private_key: PrivateKey) -> Self {
        (&private_key).into()
    }
}

impl From<&PrivateKey> for PublicKey {
    fn from(private_key: &PrivateKey) -> Self {
        private_key.to_public_key()
    }
}

impl Hash for PublicKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Domain separator for RSA public keys
        state.write(b"PublicKey");
        Hash::hash(&self.n.as_limbs(), state);
        Hash::hash(&self.e.as_limbs(), state);
    }
}

impl PublicKeyParts for PublicKey {
    fn n(&self) -> &NonZero<BoxedUint> {
        &self.n
    }

    fn e(&self) -> &BoxedUint {
        &self.e
    }

    fn n_params(&self) -> &BoxedMontyParams {
        &self.n_params
    }
}

crate::key_traits::der_serde_impls!(public PublicKey);

/// The checks of upstream's `check_public`, in its order: the exponent's size bounds too.
pub(crate) fn check_public(public_key: &impl PublicKeyParts) -> Result<()> {
    check_public_with_max_size(public_key.n(), public_key.e(), None)
}

fn check_public_with_max_size(n: &BoxedUint, e: &BoxedUint, max_size: Option<usize>) -> Result<()> {
    if let Some(max_size) = max_size
        && n.bit_width_vartime() as usize > max_size
    {
        return Err(Error::ModulusTooLarge);
    }
    check_public_skip_exponent_size(n, e)?;
    if e < &BoxedUint::from(PublicKey::MIN_PUB_EXPONENT) {
        return Err(Error::PublicExponentTooSmall);
    }
    if e > &BoxedUint::from(PublicKey::MAX_PUB_EXPONENT) {
        return Err(Error::PublicExponentTooLarge);
    }
    Ok(())
}

/// e < n, n odd and non-zero, e odd.
pub(crate) fn check_public_skip_exponent_size(n: &BoxedUint, e: &BoxedUint) -> Result<()> {
    if e >= n || bool::from(n.is_even()) || bool::from(n.is_zero()) {
        return Err(Error::InvalidModulus);
    }
    if bool::from(e.is_even()) {
        return Err(Error::InvalidExponent);
    }
    Ok(())
}
