//! [`VerifyingKey`]: a public key typed by its hash for RSASSA-PSS.

use core::marker::PhantomData;

use digest::{Digest, FixedOutputReset, Update};
use signature::{DigestVerifier, Verifier, hazmat::PrehashVerifier};

use super::{Signature, verify_digest};
use crate::PublicKey;

#[cfg(feature = "encoding")]
use {
    crate::encoding::ID_RSASSA_PSS,
    const_oid::AssociatedOid,
    pkcs8::{Document, EncodePublicKey},
    spki::{AlgorithmIdentifierRef, AssociatedAlgorithmIdentifier, der::AnyRef},
};

#[cfg(feature = "serde")]
use {
    serdect::serde::{Deserialize, Serialize, de, ser},
    spki::DecodePublicKey,
};

/// A public key that verifies RSASSA-PSS signatures ([RFC 8017 §8.1]) over the hash `D` (and
/// MGF1 over `D`), with a salt of a fixed length or, made with
/// [`new_with_auto_salt_len`](Self::new_with_auto_salt_len), of any length.
///
/// [RFC 8017 §8.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.1
#[derive(Debug)]
pub struct VerifyingKey<D>
where
    D: Digest,
{
    pub(super) inner: PublicKey,
    pub(super) salt_len: Option<usize>,
    pub(super) phantom: PhantomData<D>,
}

impl<D> VerifyingKey<D>
where
    D: Digest,
{
    /// A verifying key expecting a salt of `D`'s output length.
    #[must_use]
    pub fn new(key: PublicKey) -> Self {
        Self::new_with_salt_len(key, <D as Digest>::output_size())
    }

    /// A verifying key expecting a salt of `salt_len` bytes.
    #[must_use]
    pub fn new_with_salt_len(key: PublicKey, salt_len: usize) -> Self {
        VerifyingKey {
            inner: key,
            salt_len: Some(salt_len),
            phantom: PhantomData,
        }
    }

    /// A verifying key accepting a salt of any length (found from the position of the 0x01
    /// separator in DB).
    #[must_use]
    pub fn new_with_auto_salt_len(key: PublicKey) -> Self {
        VerifyingKey {
            inner: key,
            salt_len: None,
            phantom: PhantomData,
        }
    }

    /// The salt length expected, or `None` for any.
    #[must_use]
    pub fn salt_len(&self) -> Option<usize> {
        self.salt_len
    }

    fn verify_hash(&self, hashed: &[u8], signature: &Signature) -> signature::Result<()> {
        Ok(verify_digest::<D>(
            &self.inner,
            hashed,
            &signature.inner,
            self.salt_len,
        )?)
    }
}

impl<D> DigestVerifier<D, Signature> for VerifyingKey<D>
where
    D: Digest + FixedOutputReset + Update,
{
    fn verify_digest<F: Fn(&mut D) -> signature::Result<()>>(
        &self,
        f: F,
        signature: &Signature,
    ) -> signature::Result<()> {
        let mut digest = D::new();
        f(&mut digest)?;
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
            salt_len: self.salt_len,
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
    D: Digest,
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

/// A SubjectPublicKeyInfo of `rsaEncryption` or `id-RSASSA-PSS`; the salt length is `D`'s
/// output length (the PSS parameters, if any, are not read).
#[cfg(feature = "encoding")]
impl<D> TryFrom<pkcs8::SubjectPublicKeyInfoRef<'_>> for VerifyingKey<D>
where
    D: Digest + AssociatedOid,
{
    type Error = spki::Error;

    fn try_from(spki: pkcs8::SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        let oid = spki.algorithm.oid;
        if oid != ID_RSASSA_PSS && oid != pkcs1::ALGORITHM_OID {
            return Err(spki::Error::OidUnknown { oid });
        }
        PublicKey::try_from(spki).map(Self::new)
    }
}

impl<D> PartialEq for VerifyingKey<D>
where
    D: Digest,
{
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner && self.salt_len == other.salt_len
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

/// SubjectPublicKeyInfo DER, as [`Serialize`] writes it; the salt length is `D`'s output
/// length.
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
