//! [`VerifyingKey`]: a public key typed by its hash for `RSASSA-PKCS1-v1_5`.

use alloc::vec::Vec;
use core::marker::PhantomData;

use digest::Digest;
use pkcs8::AssociatedOid;
use signature::hazmat::PrehashVerifier;
use signature::{DigestVerifier, Verifier};

use super::{Signature, digest_info_prefix, verify};
use crate::RsaPublicKey;

/// Verifying key for `RSASSA-PKCS1-v1_5` signatures as described in [RFC8017 § 8.2].
///
/// [RFC8017 § 8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
#[derive(Debug)]
pub struct VerifyingKey<D>
where
    D: Digest,
{
    pub(super) inner: RsaPublicKey,
    pub(super) prefix: Vec<u8>,
    pub(super) phantom: PhantomData<D>,
}

impl<D> VerifyingKey<D>
where
    D: Digest + AssociatedOid,
{
    /// Create a new verifying key with a prefix for the digest `D`.
    pub fn new(key: RsaPublicKey) -> Self {
        Self {
            inner: key,
            prefix: digest_info_prefix::<D>(),
            phantom: PhantomData,
        }
    }

    /// Create a new verifying key with a prefix for the digest `D`.
    #[deprecated(since = "0.9.0", note = "use VerifyingKey::new instead")]
    pub fn new_with_prefix(key: RsaPublicKey) -> Self {
        Self::new(key)
    }
}

impl<D> VerifyingKey<D>
where
    D: Digest,
{
    /// Create a new verifying key from an RSA public key with an empty prefix.
    ///
    /// ## Note: unprefixed signatures are uncommon
    ///
    /// In most cases you'll want to use [`VerifyingKey::new`] instead.
    pub fn new_unprefixed(key: RsaPublicKey) -> Self {
        Self {
            inner: key,
            prefix: Vec::new(),
            phantom: PhantomData,
        }
    }

    /// Verifies a signature over a digest.
    fn verify_hash(&self, hashed: &[u8], signature: &Signature) -> signature::Result<()> {
        verify(&self.inner, &self.prefix, hashed, &signature.inner).map_err(Into::into)
    }
}

impl<D> DigestVerifier<D, Signature> for VerifyingKey<D>
where
    D: Digest,
{
    fn verify_digest(&self, digest: D, signature: &Signature) -> signature::Result<()> {
        self.verify_hash(&digest.finalize(), signature)
    }
}

impl<D> PrehashVerifier<Signature> for VerifyingKey<D>
where
    D: Digest,
{
    fn verify_prehash(&self, prehash: &[u8], signature: &Signature) -> signature::Result<()> {
        self.verify_hash(prehash, signature)
    }
}

impl<D> Verifier<Signature> for VerifyingKey<D>
where
    D: Digest,
{
    fn verify(&self, msg: &[u8], signature: &Signature) -> signature::Result<()> {
        self.verify_hash(&D::digest(msg), signature)
    }
}

crate::typed_key::typed_key_impls!(
    public VerifyingKey(RsaPublicKey) { prefix },
    from: new_unprefixed [Digest],
    #[cfg(all())],
    try_from: pkcs8::SubjectPublicKeyInfoRef<'_> => pkcs8::spki::Error,
    signature_oid: super::RsaSignatureAssociatedOid,
);
