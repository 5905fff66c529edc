//! [`VerifyingKey`]: a public key typed by its hash for RSASSA-PKCS1-v1_5.

use alloc::vec::Vec;
use core::marker::PhantomData;

use const_oid::AssociatedOid;
use digest::{Digest, FixedOutput, HashMarker, Update};
use signature::{DigestVerifier, Verifier, hazmat::PrehashVerifier};

use super::{Signature, digest_info_prefix, verify};
use crate::PublicKey;

#[cfg(feature = "encoding")]
use {
    super::oid::RsaSignatureAssociatedOid,
    spki::{
        AlgorithmIdentifierRef, AssociatedAlgorithmIdentifier, Document, EncodePublicKey,
        SignatureAlgorithmIdentifier, der::AnyRef,
    },
};

#[cfg(feature = "serde")]
use {
    serdect::serde::{Deserialize, Serialize, de, ser},
    spki::DecodePublicKey,
};

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

impl<D> DigestVerifier<D, Signature> for VerifyingKey<D>
where
    D: Default + FixedOutput + HashMarker + Update,
{
    fn verify_digest<F: Fn(&mut D) -> signature::Result<()>>(
        &self,
        f: F,
        signature: &Signature,
    ) -> signature::Result<()> {
        let mut digest = D::default();
        f(&mut digest)?;
        self.verify_hash(&digest.finalize_fixed(), signature)
    }
}

/// Verifies over `prehash` of any length (a wrong length simply does not verify).
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

impl<D> AsRef<PublicKey> for VerifyingKey<D>
where
    D: Digest,
{
    fn as_ref(&self) -> &PublicKey {
        &self.inner
    }
}

#[cfg(feature = "encoding")]
impl<D> AssociatedAlgorithmIdentifier for VerifyingKey<D>
where
    D: Digest,
{
    type Params = AnyRef<'static>;

    const ALGORITHM_IDENTIFIER: AlgorithmIdentifierRef<'static> = pkcs1::ALGORITHM_ID;
}

// By hand: a derive would ask for `D: Clone`.
impl<D> Clone for VerifyingKey<D>
where
    D: Digest,
{
    fn clone(&self) -> Self {
        VerifyingKey {
            inner: self.inner.clone(),
            prefix: self.prefix.clone(),
            phantom: PhantomData,
        }
    }
}

#[cfg(feature = "encoding")]
impl<D> EncodePublicKey for VerifyingKey<D>
where
    D: Digest,
{
    fn to_public_key_der(&self) -> spki::Result<Document> {
        self.inner.to_public_key_der()
    }
}

impl<D> From<PublicKey> for VerifyingKey<D>
where
    D: Digest + AssociatedOid,
{
    fn from(key: PublicKey) -> Self {
        Self::new(key)
    }
}

impl<D> From<VerifyingKey<D>> for PublicKey
where
    D: Digest,
{
    fn from(key: VerifyingKey<D>) -> Self {
        key.inner
    }
}

/// `sha256WithRSAEncryption` and the like, with NULL parameters (RFC 8017 appendix A.2.4).
#[cfg(feature = "encoding")]
impl<D> SignatureAlgorithmIdentifier for VerifyingKey<D>
where
    D: Digest + RsaSignatureAssociatedOid,
{
    type Params = AnyRef<'static>;

    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifierRef<'static> =
        AlgorithmIdentifierRef {
            oid: <D as RsaSignatureAssociatedOid>::OID,
            parameters: Some(AnyRef::NULL),
        };
}

/// A SubjectPublicKeyInfo of `rsaEncryption` (any other algorithm is refused).
#[cfg(feature = "encoding")]
impl<D> TryFrom<pkcs8::SubjectPublicKeyInfoRef<'_>> for VerifyingKey<D>
where
    D: Digest + AssociatedOid,
{
    type Error = spki::Error;

    fn try_from(spki: pkcs8::SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        spki.algorithm.assert_algorithm_oid(pkcs1::ALGORITHM_OID)?;
        PublicKey::try_from(spki).map(Self::new)
    }
}

impl<D> PartialEq for VerifyingKey<D>
where
    D: Digest,
{
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner && self.prefix == other.prefix
    }
}

/// The key as SubjectPublicKeyInfo DER: lower-case hexadecimal in human-readable formats,
/// bytes in others.
#[cfg(feature = "serde")]
impl<D> Serialize for VerifyingKey<D>
where
    D: Digest,
{
    fn serialize<S>(&self, serializer: S) -> core::result::Result<S::Ok, S::Error>
    where
        S: serdect::serde::Serializer,
    {
        let der = self.to_public_key_der().map_err(ser::Error::custom)?;
        serdect::slice::serialize_hex_lower_or_bin(&der, serializer)
    }
}

/// SubjectPublicKeyInfo DER, as [`Serialize`] writes it; T is `D`'s DigestInfo.
#[cfg(feature = "serde")]
impl<'de, D> Deserialize<'de> for VerifyingKey<D>
where
    D: Digest + AssociatedOid,
{
    fn deserialize<De>(deserializer: De) -> core::result::Result<Self, De::Error>
    where
        De: serdect::serde::Deserializer<'de>,
    {
        let der = serdect::slice::deserialize_hex_or_bin_vec(deserializer)?;
        Self::from_public_key_der(&der).map_err(de::Error::custom)
    }
}
