//! [`SigningKey`]: a private key typed by its hash for `RSASSA-PKCS1-v1_5`.

use alloc::vec::Vec;
use core::marker::PhantomData;

use digest::Digest;
use pkcs8::AssociatedOid;
use rand_core::CryptoRngCore;
use signature::hazmat::PrehashSigner;
use signature::{DigestSigner, RandomizedDigestSigner, RandomizedSigner, Signer};

use super::{Signature, VerifyingKey, digest_info_prefix, sign};
use crate::RsaPrivateKey;
use crate::bridge::NoRng;
use crate::errors::Result;

/// Signing key for `RSASSA-PKCS1-v1_5` signatures as described in [RFC8017 § 8.2].
///
/// [RFC8017 § 8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
#[derive(Debug, Clone)]
pub struct SigningKey<D>
where
    D: Digest,
{
    inner: RsaPrivateKey,
    prefix: Vec<u8>,
    phantom: PhantomData<D>,
}

impl<D> SigningKey<D>
where
    D: Digest + AssociatedOid,
{
    /// Create a new signing key with a prefix for the digest `D`.
    pub fn new(key: RsaPrivateKey) -> Self {
        Self {
            inner: key,
            prefix: digest_info_prefix::<D>(),
            phantom: PhantomData,
        }
    }

    /// Generate a new signing key with a prefix for the digest `D`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::new`].
    pub fn random<R: CryptoRngCore + ?Sized>(rng: &mut R, bit_size: usize) -> Result<Self> {
        Ok(Self::new(RsaPrivateKey::new(rng, bit_size)?))
    }

    /// Create a new signing key with a prefix for the digest `D`.
    #[deprecated(since = "0.9.0", note = "use SigningKey::new instead")]
    pub fn new_with_prefix(key: RsaPrivateKey) -> Self {
        Self::new(key)
    }

    /// Generate a new signing key with a prefix for the digest `D`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::new`].
    #[deprecated(since = "0.9.0", note = "use SigningKey::random instead")]
    pub fn random_with_prefix<R: CryptoRngCore + ?Sized>(
        rng: &mut R,
        bit_size: usize,
    ) -> Result<Self> {
        Self::random(rng, bit_size)
    }
}

impl<D> SigningKey<D>
where
    D: Digest,
{
    /// Create a new signing key from the give RSA private key with an empty prefix.
    ///
    /// ## Note: unprefixed signatures are uncommon
    ///
    /// In most cases you'll want to use [`SigningKey::new`].
    pub fn new_unprefixed(key: RsaPrivateKey) -> Self {
        Self {
            inner: key,
            prefix: Vec::new(),
            phantom: PhantomData,
        }
    }

    /// Generate a new signing key with an empty prefix.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::new`].
    pub fn random_unprefixed<R: CryptoRngCore + ?Sized>(
        rng: &mut R,
        bit_size: usize,
    ) -> Result<Self> {
        Ok(Self::new_unprefixed(RsaPrivateKey::new(rng, bit_size)?))
    }

    /// Signs a digest, blinded with `rng` (the operating system's RNG if `None`).
    fn sign_hash<R: CryptoRngCore + ?Sized>(
        &self,
        rng: Option<&mut R>,
        hashed: &[u8],
    ) -> signature::Result<Signature> {
        let sig = sign(rng, &self.inner, &self.prefix, hashed)?;
        Signature::try_from(sig.as_slice())
    }
}

impl<D> DigestSigner<D, Signature> for SigningKey<D>
where
    D: Digest,
{
    fn try_sign_digest(&self, digest: D) -> signature::Result<Signature> {
        self.sign_hash(None::<&mut NoRng>, &digest.finalize())
    }
}

impl<D> PrehashSigner<Signature> for SigningKey<D>
where
    D: Digest,
{
    fn sign_prehash(&self, prehash: &[u8]) -> signature::Result<Signature> {
        self.sign_hash(None::<&mut NoRng>, prehash)
    }
}

impl<D> RandomizedDigestSigner<D, Signature> for SigningKey<D>
where
    D: Digest,
{
    fn try_sign_digest_with_rng(
        &self,
        rng: &mut impl CryptoRngCore,
        digest: D,
    ) -> signature::Result<Signature> {
        self.sign_hash(Some(rng), &digest.finalize())
    }
}

impl<D> RandomizedSigner<Signature> for SigningKey<D>
where
    D: Digest,
{
    fn try_sign_with_rng(
        &self,
        rng: &mut impl CryptoRngCore,
        msg: &[u8],
    ) -> signature::Result<Signature> {
        self.sign_hash(Some(rng), &D::digest(msg))
    }
}

impl<D> Signer<Signature> for SigningKey<D>
where
    D: Digest,
{
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        self.sign_hash(None::<&mut NoRng>, &D::digest(msg))
    }
}

crate::typed_key::typed_key_impls!(
    private SigningKey(RsaPrivateKey) => VerifyingKey { prefix },
    from: new_unprefixed [Digest],
    #[cfg(all())],
    try_from: pkcs8::PrivateKeyInfo<'_> => pkcs8::Error,
    signature_oid: super::RsaSignatureAssociatedOid,
);
