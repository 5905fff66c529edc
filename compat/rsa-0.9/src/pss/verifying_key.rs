//! [`VerifyingKey`]: a public key typed by its hash for RSASSA-PSS.

use digest::{Digest, FixedOutputReset};
use signature::hazmat::PrehashVerifier;
use signature::{DigestVerifier, Verifier};

use super::{Signature, scheme};
use crate::RsaPublicKey;
use crate::bridge::hash_of;

crate::pss_impls::pss_key!(
    /// Verifying key for checking the validity of RSASSA-PSS signatures as
    /// described in [RFC8017 § 8.1].
    ///
    /// [RFC8017 § 8.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.1
    public VerifyingKey(RsaPublicKey) { salt_len: usize },
    /// Create a new RSASSA-PSS verifying key.
    /// Digest output size is used as a salt length.
    new,
    /// Create a new RSASSA-PSS verifying key.
    new_with_salt_len,
);

impl<D> VerifyingKey<D>
where
    D: Digest,
{
    /// Verifies a signature over a digest.
    fn verify_hash(&self, hashed: &[u8], signature: &Signature) -> signature::Result<()> {
        let scheme = scheme(hash_of::<D>()?, self.salt_len);
        Ok(self.inner.verify_with(&scheme, hashed, &signature.inner)?)
    }
}

impl<D> DigestVerifier<D, Signature> for VerifyingKey<D>
where
    D: Digest + FixedOutputReset,
{
    fn verify_digest(&self, digest: D, signature: &Signature) -> signature::Result<()> {
        self.verify_hash(&digest.finalize(), signature)
    }
}

impl<D> PrehashVerifier<Signature> for VerifyingKey<D>
where
    D: Digest + FixedOutputReset,
{
    fn verify_prehash(&self, prehash: &[u8], signature: &Signature) -> signature::Result<()> {
        self.verify_hash(prehash, signature)
    }
}

impl<D> Verifier<Signature> for VerifyingKey<D>
where
    D: Digest + FixedOutputReset,
{
    fn verify(&self, msg: &[u8], signature: &Signature) -> signature::Result<()> {
        self.verify_hash(&D::digest(msg), signature)
    }
}

crate::typed_key::typed_key_impls!(
    public VerifyingKey(RsaPublicKey) { salt_len },
    from: new [Digest],
    #[cfg(all())]
);
