//! [`VerifyingKey`]: a public key typed by its hash for RSASSA-PKCS1-v1_5.

use alloc::vec::Vec;
use core::marker::PhantomData;

use const_oid::AssociatedOid;
use digest::{Digest, FixedOutput, HashMarker, Update};

use super::{Signature, digest_info_prefix, verify};
use crate::PublicKey;

/// A public key that verifies RSASSA-PKCS1-v1_5 signatures ([RFC 8017 §8.2]) over the hash
/// `D`, T being `D`'s DigestInfo ([`new`](Self::new)) or the digest alone
/// ([`new_unprefixed`](Self::new_unprefixed)).
///
/// [RFC 8017 §8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
#[derive(Debug)]
pub struct VerifyingKey<D>
where
    D: Digest,
{
    pub(super) inner: PublicKey,
    pub(super) prefix: Vec<u8>,
    pub(super) phantom: PhantomData<D>,
}

impl<D> VerifyingKey<D>
where
    D: Digest + AssociatedOid,
{
    /// A verifying key whose T is `D`'s DigestInfo.
    #[must_use]
    pub fn new(key: PublicKey) -> Self {
        VerifyingKey {
            inner: key,
            prefix: digest_info_prefix::<D>(),
            phantom: PhantomData,
        }
    }
}

impl<D> VerifyingKey<D>
where
    D: Digest,
{
    /// A verifying key whose T is the digest alone, without a DigestInfo (uncommon: most
    /// protocols want [`new`](Self::new)).
    #[must_use]
    pub fn new_unprefixed(key: PublicKey) -> Self {
        VerifyingKey {
            inner: key,
            prefix: Vec::new(),
            phantom: PhantomData,
        }
    }

    fn verify_hash(&self, hashed: &[u8], signature: &Signature) -> signature::Result<()> {
        Ok(verify(&self.inner, &self.prefix, hashed, &signature.inner)?)
    }
}

crate::key_traits::verifying_key_impls!(
    VerifyingKey { prefix },
    digest: [Default + FixedOutput + HashMarker + Update],
    [Digest],
    /// SubjectPublicKeyInfo DER, as [`Serialize`](serdect::serde::Serialize) writes it; T is
    /// `D`'s DigestInfo.
    deserialize: [Digest + AssociatedOid],
);

// A SubjectPublicKeyInfo of `rsaEncryption` (any other algorithm is refused).
crate::typed_key::typed_key_impls!(
    public VerifyingKey(PublicKey) { prefix },
    from: new [Digest + AssociatedOid],
    #[cfg(feature = "encoding")],
    try_from: pkcs8::SubjectPublicKeyInfoRef<'_> => spki::Error,
    check: crate::encoding::assert_rsa_encryption,
    signature_oid: super::oid::RsaSignatureAssociatedOid,
);
