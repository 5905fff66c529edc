//! [`RsaPublicKey`]: 0.9's `n` and `e` (`BigUint`s, which its accessors return by reference)
//! beside the rsatool-rsa key that every operation runs on.

use alloc::vec::Vec;
use core::fmt;
use core::hash::{Hash, Hasher};

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::ToPrimitive;
use rand_core::CryptoRngCore;

use crate::RsaPrivateKey;
use crate::bridge::with_rng;
use crate::errors::{Error, Result};
use crate::traits::PublicKeyParts;

/// Represents the public part of an RSA key.
///
/// `n` and `e` as 0.9 keeps them, and the rsatool-rsa key built from them (none if rsatool-rsa
/// refuses them, for a key made with [`RsaPublicKey::new_unchecked`]: its operations fail).
#[derive(Clone)]
pub struct RsaPublicKey {
    /// Modulus: product of prime numbers `p` and `q`
    pub(crate) n: BigUint,
    /// Public exponent: power to which a plaintext message is raised in
    /// order to encrypt it.
    ///
    /// Typically 0x10001 (65537)
    pub(crate) e: BigUint,
    /// rsatool-rsa's key of n and e.
    pub(crate) engine: Option<rsatool_rsa::RsaPublicKey>,
}

/// 0.9's checks of a public key's n and e (its `check_public`): the modulus size when `max_bits` is
/// given, then e below 2⁶⁴, e < n, n odd, e odd, 2 ≤ e ≤ 2³³ − 1.
///
/// # Errors
///
/// 0.9's: [`Error::ModulusTooLarge`], [`Error::PublicExponentTooLarge`],
/// [`Error::InvalidModulus`], [`Error::InvalidExponent`], [`Error::PublicExponentTooSmall`].
pub(crate) fn check_public(n: &BigUint, e: &BigUint, max_bits: Option<usize>) -> Result<()> {
    if max_bits.is_some_and(|max| n.bits() > max) {
        return Err(Error::ModulusTooLarge);
    }
    let small_e = e.to_u64().ok_or(Error::PublicExponentTooLarge)?;
    if e >= n || n.is_even() {
        return Err(Error::InvalidModulus);
    }
    if e.is_even() {
        return Err(Error::InvalidExponent);
    }
    if small_e < RsaPublicKey::MIN_PUB_EXPONENT {
        return Err(Error::PublicExponentTooSmall);
    }
    if small_e > RsaPublicKey::MAX_PUB_EXPONENT {
        return Err(Error::PublicExponentTooLarge);
    }
    Ok(())
}

impl RsaPublicKey {
    /// Minimum value of the public exponent `e`.
    pub const MIN_PUB_EXPONENT: u64 = 2;

    /// Maximum value of the public exponent `e`.
    pub const MAX_PUB_EXPONENT: u64 = (1 << 33) - 1;

    /// Maximum size of the modulus `n` in bits.
    pub const MAX_SIZE: usize = 4096;

    /// Create a new public key from its components.
    ///
    /// This function accepts public keys with a modulus size up to 4096-bits,
    /// i.e. [`RsaPublicKey::MAX_SIZE`].
    ///
    /// # Errors
    ///
    /// As [`RsaPublicKey::new_with_max_size`].
    pub fn new(n: BigUint, e: BigUint) -> Result<Self> {
        Self::new_with_max_size(n, e, Self::MAX_SIZE)
    }

    /// Create a new public key from its components.
    ///
    /// # Errors
    ///
    /// [`Error::ModulusTooLarge`] above `max_size` bits (or 16384, rsatool-rsa's limit); the
    /// errors of 0.9's checks on n and e (see [`RsaPrivateKey::validate`]).
    pub fn new_with_max_size(n: BigUint, e: BigUint, max_size: usize) -> Result<Self> {
        let key = Self::new_unchecked(n, e);
        check_public(&key.n, &key.e, Some(max_size))?;
        if key.engine.is_none() && key.n.bits() > rsatool_rsa::MAX_MODULUS_BITS {
            return Err(Error::ModulusTooLarge);
        }
        key.engine()?;
        Ok(key)
    }

    /// Create a new public key, bypassing checks around the modulus and public
    /// exponent size.
    ///
    /// This method is not recommended, and only intended for unusual use cases.
    /// Most applications should use [`RsaPublicKey::new`] or
    /// [`RsaPublicKey::new_with_max_size`] instead. A key rsatool-rsa refuses (even n, e
    /// even or not below n, n above 16384 bits) is kept, but every operation with it fails.
    pub fn new_unchecked(n: BigUint, e: BigUint) -> Self {
        let parts = rsatool_rsa::PublicKeyParts {
            n: n.to_bytes_be(),
            e: e.to_bytes_be(),
        };
        let engine = rsatool_rsa::RsaPublicKey::from_parts_allowing_small(&parts, 0).ok();
        Self { n, e, engine }
    }

    /// rsatool-rsa's key.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidModulus`] if rsatool-rsa refused n and e.
    pub(crate) fn engine(&self) -> Result<&rsatool_rsa::RsaPublicKey> {
        self.engine.as_ref().ok_or(Error::InvalidModulus)
    }

    /// Encrypts with an rsatool-rsa scheme, after 0.9's checks of the key.
    ///
    /// # Errors
    ///
    /// As [`check_public`], and the scheme's.
    pub(crate) fn encrypt_with<S: rsatool_rsa::EncryptionScheme, R: CryptoRngCore + ?Sized>(
        &self,
        rng: &mut R,
        scheme: &S,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        check_public(&self.n, &self.e, None)?;
        let engine = self.engine()?;
        with_rng(Some(rng), |rng| engine.encrypt(rng, scheme, msg))
    }

    /// Verifies a signature over a digest with an rsatool-rsa scheme.
    ///
    /// # Errors
    ///
    /// [`Error::Verification`] for every failure.
    pub(crate) fn verify_with<S: rsatool_rsa::SignatureScheme>(
        &self,
        scheme: &S,
        digest: &[u8],
        sig: &[u8],
    ) -> Result<()> {
        self.engine()?
            .verify_prehashed(scheme, digest, sig)
            .map_err(|_| Error::Verification)
    }
}

crate::public_key_ops::public_key_ops!(RsaPublicKey, CryptoRngCore);

impl PublicKeyParts for RsaPublicKey {
    fn n(&self) -> &BigUint {
        &self.n
    }

    fn e(&self) -> &BigUint {
        &self.e
    }
}

impl PartialEq for RsaPublicKey {
    fn eq(&self, other: &Self) -> bool {
        self.n == other.n && self.e == other.e
    }
}

impl Eq for RsaPublicKey {}

impl Hash for RsaPublicKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.n.hash(state);
        self.e.hash(state);
    }
}

impl fmt::Debug for RsaPublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RsaPublicKey")
            .field("n", &self.n)
            .field("e", &self.e)
            .finish()
    }
}

impl From<RsaPrivateKey> for RsaPublicKey {
    fn from(private_key: RsaPrivateKey) -> Self {
        private_key.to_public_key()
    }
}

impl From<&RsaPrivateKey> for RsaPublicKey {
    fn from(private_key: &RsaPrivateKey) -> Self {
        private_key.to_public_key()
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    //! 0.9's serde form, `RsaPublicKey { n, e }`, the integers as `num-bigint-dig` writes them.

    use num_bigint::BigUint;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::RsaPublicKey;

    #[derive(Serialize, Deserialize)]
    #[serde(rename = "RsaPublicKey")]
    struct PublicForm<N> {
        n: N,
        e: N,
    }

    impl Serialize for RsaPublicKey {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            PublicForm {
                n: &self.n,
                e: &self.e,
            }
            .serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for RsaPublicKey {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let form = PublicForm::<BigUint>::deserialize(d)?;
            Ok(RsaPublicKey::new_unchecked(form.n, form.e))
        }
    }
}
