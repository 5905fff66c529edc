//! [`VerifyingKey`]: a public key typed by its hash for `RSASSA-PKCS1-v1_5`.

use digest::Digest;
use pkcs8::AssociatedOid;
use signature::hazmat::PrehashVerifier;
use signature::{DigestVerifier, Verifier};

use super::Signature;
use crate::RsaPublicKey;

crate::pkcs1v15_impls::pkcs1v15_key!(
    /// Verifying key for `RSASSA-PKCS1-v1_5` signatures as described in [RFC8017 § 8.2].
    ///
    /// [RFC8017 § 8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
    public VerifyingKey(RsaPublicKey),
    /// Create a new verifying key with a prefix for the digest `D`.
    new,
    /// Create a new verifying key from an RSA public key with an empty prefix.
    ///
    /// ## Note: unprefixed signatures are uncommon
    ///
    /// In most cases you'll want to use [`VerifyingKey::new`] instead.
    new_unprefixed,
);

impl<D> VerifyingKey<D>
where
    D: Digest + AssociatedOid,
{
    /// Create a new verifying key with a prefix for the digest `D`.
    #[deprecated(since = "0.9.0", note = "use VerifyingKey::new instead")]
    pub fn new_with_prefix(key: RsaPublicKey) -> Self {
        Self::new(key)
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
