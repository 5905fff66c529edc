//! [`SigningKey`]: a private key typed by its hash for `RSASSA-PKCS1-v1_5`.

use digest::Digest;
use pkcs8::AssociatedOid;
use rand_core::CryptoRngCore;
use signature::hazmat::PrehashSigner;
use signature::{DigestSigner, RandomizedDigestSigner, RandomizedSigner, Signer};

use super::{Signature, VerifyingKey};
use crate::RsaPrivateKey;
use crate::bridge::NoRng;
use crate::errors::Result;

crate::pkcs1v15_impls::pkcs1v15_key!(
    /// Signing key for `RSASSA-PKCS1-v1_5` signatures as described in [RFC8017 § 8.2].
    ///
    /// [RFC8017 § 8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
    private SigningKey(RsaPrivateKey),
    /// Create a new signing key with a prefix for the digest `D`.
    new,
    /// Create a new signing key from the give RSA private key with an empty prefix.
    ///
    /// ## Note: unprefixed signatures are uncommon
    ///
    /// In most cases you'll want to use [`SigningKey::new`].
    new_unprefixed,
    rng: CryptoRngCore,
    /// Generate a new signing key with a prefix for the digest `D`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::new`].
    random,
    /// Generate a new signing key with an empty prefix.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::new`].
    random_unprefixed,
);

impl<D> SigningKey<D>
where
    D: Digest + AssociatedOid,
{
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
