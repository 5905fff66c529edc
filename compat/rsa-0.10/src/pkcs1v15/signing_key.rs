//! [`SigningKey`]: a private key typed by its hash for RSASSA-PKCS1-v1_5.

use alloc::vec::Vec;
use core::marker::PhantomData;

use const_oid::AssociatedOid;
use digest::{Digest, FixedOutput, HashMarker, Update};
use rand_core::TryCryptoRng;
use signature::{
    DigestSigner, Keypair, MultipartSigner, RandomizedDigestSigner, RandomizedMultipartSigner,
    RandomizedSigner, Signer, hazmat::PrehashSigner,
};
use zeroize::ZeroizeOnDrop;

use super::{Signature, VerifyingKey, digest_info_prefix, sign};
use crate::bridge::NoRng;
use crate::{Generate, PrivateKey, Result};

#[cfg(feature = "encoding")]
use {
    super::oid::RsaSignatureAssociatedOid,
    pkcs8::{EncodePrivateKey, SecretDocument},
    spki::{
        AlgorithmIdentifierRef, AssociatedAlgorithmIdentifier, SignatureAlgorithmIdentifier,
        der::AnyRef,
    },
};

#[cfg(feature = "serde")]
use {
    pkcs8::DecodePrivateKey,
    serdect::serde::{Deserialize, Serialize, de, ser},
};

/// A private key that signs with RSASSA-PKCS1-v1_5 ([RFC 8017 §8.2]) over the hash `D`, T
/// being `D`'s DigestInfo ([`new`](Self::new)) or the digest alone
/// ([`new_unprefixed`](Self::new_unprefixed)).
///
/// The signature is deterministic. The RNG given to the randomized signers blinds the private
/// operation; the others blind with the operating system's RNG (feature `getrandom`) or a
/// stream keyed by the private key and the encoded message.
///
/// [RFC 8017 §8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
#[derive(Debug, Clone)]
pub struct SigningKey<D>
where
    D: Digest,
{
    inner: PrivateKey,
    prefix: Vec<u8>,
    phantom: PhantomData<D>,
}

impl<D> SigningKey<D>
where
    D: Digest + AssociatedOid,
{
    /// A signing key whose T is `D`'s DigestInfo.
    #[must_use]
    pub fn new(key: PrivateKey) -> Self {
        SigningKey {
            inner: key,
            prefix: digest_info_prefix::<D>(),
            phantom: PhantomData,
        }
    }

    /// A new key of `bit_size` bits (e = 65537) whose T is `D`'s DigestInfo.
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::new`].
    pub fn random<R: TryCryptoRng + ?Sized>(rng: &mut R, bit_size: usize) -> Result<Self> {
        Ok(Self::new(PrivateKey::new(rng, bit_size)?))
    }
}

impl<D> SigningKey<D>
where
    D: Digest,
{
    /// A signing key whose T is the digest alone, without a DigestInfo (uncommon: most
    /// protocols want [`new`](Self::new)).
    #[must_use]
    pub fn new_unprefixed(key: PrivateKey) -> Self {
        SigningKey {
            inner: key,
            prefix: Vec::new(),
            phantom: PhantomData,
        }
    }

    /// A new key of `bit_size` bits (e = 65537) whose T is the digest alone.
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::new`].
    pub fn random_unprefixed<R: TryCryptoRng + ?Sized>(
        rng: &mut R,
        bit_size: usize,
    ) -> Result<Self> {
        Ok(Self::new_unprefixed(PrivateKey::new(rng, bit_size)?))
    }

    /// Signs `hashed` (of any length: the prehash signers check none), blinded with `rng` or
    /// without one with the crate's own.
    fn sign_hash<R: TryCryptoRng + ?Sized>(
        &self,
        rng: Option<&mut R>,
        hashed: &[u8],
    ) -> signature::Result<Signature> {
        let sig = sign(rng, &self.inner, &self.prefix, hashed)?;
        Ok(Signature { inner: sig.into() })
    }
}

/// A new key of [`PrivateKey::DEFAULT_BITS`] bits (e = 65537) whose T is `D`'s DigestInfo.
impl<D> Generate for SigningKey<D>
where
    D: Digest + AssociatedOid,
{
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(
        rng: &mut R,
    ) -> core::result::Result<Self, R::Error> {
        PrivateKey::try_generate_from_rng(rng).map(Self::new)
    }
}

impl<D> DigestSigner<D, Signature> for SigningKey<D>
where
    D: Default + FixedOutput + HashMarker + Update,
{
    fn try_sign_digest<F: Fn(&mut D) -> signature::Result<()>>(
        &self,
        f: F,
    ) -> signature::Result<Signature> {
        let mut digest = D::default();
        f(&mut digest)?;
        self.sign_hash(None::<&mut NoRng>, &digest.finalize_fixed())
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
    D: Default + FixedOutput + HashMarker + Update,
{
    fn try_sign_digest_with_rng<
        R: TryCryptoRng + ?Sized,
        F: Fn(&mut D) -> signature::Result<()>,
    >(
        &self,
        rng: &mut R,
        f: F,
    ) -> signature::Result<Signature> {
        let mut digest = D::default();
        f(&mut digest)?;
        self.sign_hash(Some(rng), &digest.finalize_fixed())
    }
}

impl<D> RandomizedSigner<Signature> for SigningKey<D>
where
    D: Digest,
{
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> signature::Result<Signature> {
        self.try_multipart_sign_with_rng(rng, &[msg])
    }
}

impl<D> RandomizedMultipartSigner<Signature> for SigningKey<D>
where
    D: Digest,
{
    fn try_multipart_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[&[u8]],
    ) -> signature::Result<Signature> {
        self.sign_hash(Some(rng), &hash_parts::<D>(msg))
    }
}

impl<D> Signer<Signature> for SigningKey<D>
where
    D: Digest,
{
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        self.try_multipart_sign(&[msg])
    }
}

impl<D> MultipartSigner<Signature> for SigningKey<D>
where
    D: Digest,
{
    fn try_multipart_sign(&self, msg: &[&[u8]]) -> signature::Result<Signature> {
        self.sign_hash(None::<&mut NoRng>, &hash_parts::<D>(msg))
    }
}

/// `D` of the concatenation of `parts`.
fn hash_parts<D: Digest>(parts: &[&[u8]]) -> digest::Output<D> {
    let mut digest = D::new();
    for part in parts {
        Digest::update(&mut digest, part);
    }
    digest.finalize()
}

impl<D> AsRef<PrivateKey> for SigningKey<D>
where
    D: Digest,
{
    fn as_ref(&self) -> &PrivateKey {
        &self.inner
    }
}

#[cfg(feature = "encoding")]
impl<D> AssociatedAlgorithmIdentifier for SigningKey<D>
where
    D: Digest,
{
    type Params = AnyRef<'static>;

    const ALGORITHM_IDENTIFIER: AlgorithmIdentifierRef<'static> = pkcs1::ALGORITHM_ID;
}

#[cfg(feature = "encoding")]
impl<D> EncodePrivateKey for SigningKey<D>
where
    D: Digest,
{
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        self.inner.to_pkcs8_der()
    }
}

impl<D> From<PrivateKey> for SigningKey<D>
where
    D: Digest + AssociatedOid,
{
    fn from(key: PrivateKey) -> Self {
        Self::new(key)
    }
}

impl<D> From<SigningKey<D>> for PrivateKey
where
    D: Digest,
{
    fn from(key: SigningKey<D>) -> Self {
        key.inner
    }
}

impl<D> Keypair for SigningKey<D>
where
    D: Digest,
{
    type VerifyingKey = VerifyingKey<D>;

    /// The public key, with this key's prefix.
    fn verifying_key(&self) -> Self::VerifyingKey {
        VerifyingKey {
            inner: self.inner.to_public_key(),
            prefix: self.prefix.clone(),
            phantom: PhantomData,
        }
    }
}

/// `sha256WithRSAEncryption` and the like, with NULL parameters (RFC 8017 appendix A.2.4).
#[cfg(feature = "encoding")]
impl<D> SignatureAlgorithmIdentifier for SigningKey<D>
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

/// A PKCS #8 `rsaEncryption` key (any other algorithm is refused).
#[cfg(feature = "encoding")]
impl<D> TryFrom<pkcs8::PrivateKeyInfoRef<'_>> for SigningKey<D>
where
    D: Digest + AssociatedOid,
{
    type Error = pkcs8::Error;

    fn try_from(private_key_info: pkcs8::PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        private_key_info
            .algorithm
            .assert_algorithm_oid(pkcs1::ALGORITHM_OID)?;
        PrivateKey::try_from(private_key_info).map(Self::new)
    }
}

/// The inner [`PrivateKey`] zeroizes its secrets when dropped.
impl<D> ZeroizeOnDrop for SigningKey<D> where D: Digest {}

impl<D> PartialEq for SigningKey<D>
where
    D: Digest,
{
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner && self.prefix == other.prefix
    }
}

/// The key as PKCS #8 DER: lower-case hexadecimal in human-readable formats, bytes in others.
#[cfg(feature = "serde")]
impl<D> Serialize for SigningKey<D>
where
    D: Digest,
{
    fn serialize<S>(&self, serializer: S) -> core::result::Result<S::Ok, S::Error>
    where
        S: serdect::serde::Serializer,
    {
        let der = self.to_pkcs8_der().map_err(ser::Error::custom)?;
        serdect::slice::serialize_hex_lower_or_bin(&der.as_bytes(), serializer)
    }
}

/// PKCS #8 DER, as [`Serialize`] writes it; T is `D`'s DigestInfo.
#[cfg(feature = "serde")]
impl<'de, D> Deserialize<'de> for SigningKey<D>
where
    D: Digest + AssociatedOid,
{
    fn deserialize<De>(deserializer: De) -> core::result::Result<Self, De::Error>
    where
        De: serdect::serde::Deserializer<'de>,
    {
        let der =
            zeroize::Zeroizing::new(serdect::slice::deserialize_hex_or_bin_vec(deserializer)?);
        Self::from_pkcs8_der(&der).map_err(de::Error::custom)
    }
}
