//! [`SigningKey`]: a private key typed by its hash for RSASSA-PSS.

use core::marker::PhantomData;

use digest::{Digest, FixedOutputReset, Update};
use rand_core::TryCryptoRng;
use signature::{
    Keypair, RandomizedDigestSigner, RandomizedMultipartSigner, RandomizedSigner,
    hazmat::RandomizedPrehashSigner,
};
use zeroize::ZeroizeOnDrop;

use super::{Signature, VerifyingKey, sign_digest};
use crate::{Generate, PrivateKey, Result};

#[cfg(feature = "getrandom")]
use {
    crypto_common::getrandom::SysRng,
    signature::{MultipartSigner, Signer, hazmat::PrehashSigner},
};

#[cfg(feature = "encoding")]
use {
    super::get_pss_signature_algo_id,
    const_oid::AssociatedOid,
    pkcs8::{EncodePrivateKey, SecretDocument},
    spki::{
        AlgorithmIdentifierOwned, AlgorithmIdentifierRef, AssociatedAlgorithmIdentifier,
        DynSignatureAlgorithmIdentifier, der::AnyRef,
    },
};

#[cfg(feature = "serde")]
use {
    pkcs8::DecodePrivateKey,
    serdect::serde::{Deserialize, Serialize, de, ser},
};

/// A private key that signs with RSASSA-PSS ([RFC 8017 §8.1]) over the hash `D` (and MGF1
/// over `D`), with a salt of a fixed length (`D`'s output length unless said otherwise).
///
/// The RNG given to the randomized signers supplies the salt, then the blinding of the
/// private operation; [`Signer`](signature::Signer) and the other RNG-less signers (feature
/// `getrandom`) take both from the operating system.
///
/// [RFC 8017 §8.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.1
#[derive(Debug, Clone)]
pub struct SigningKey<D>
where
    D: Digest,
{
    inner: PrivateKey,
    salt_len: usize,
    phantom: PhantomData<D>,
}

impl<D> SigningKey<D>
where
    D: Digest,
{
    /// A signing key with a salt of `D`'s output length.
    #[must_use]
    pub fn new(key: PrivateKey) -> Self {
        Self::new_with_salt_len(key, <D as Digest>::output_size())
    }

    /// A signing key with a salt of `salt_len` bytes.
    #[must_use]
    pub fn new_with_salt_len(key: PrivateKey, salt_len: usize) -> Self {
        SigningKey {
            inner: key,
            salt_len,
            phantom: PhantomData,
        }
    }

    /// A new key of `bit_size` bits (e = 65537) with a salt of `D`'s output length.
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::new`].
    pub fn random<R: TryCryptoRng + ?Sized>(rng: &mut R, bit_size: usize) -> Result<Self> {
        Self::random_with_salt_len(rng, bit_size, <D as Digest>::output_size())
    }

    /// A new key of `bit_size` bits (e = 65537) with a salt of `salt_len` bytes.
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::new`].
    pub fn random_with_salt_len<R: TryCryptoRng + ?Sized>(
        rng: &mut R,
        bit_size: usize,
        salt_len: usize,
    ) -> Result<Self> {
        Ok(Self::new_with_salt_len(
            PrivateKey::new(rng, bit_size)?,
            salt_len,
        ))
    }

    /// The salt length, in bytes.
    #[must_use]
    pub fn salt_len(&self) -> usize {
        self.salt_len
    }

    fn sign_hash<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        hashed: &[u8],
    ) -> signature::Result<Signature> {
        let sig = sign_digest::<R, D>(rng, true, &self.inner, hashed, self.salt_len)?;
        Ok(Signature { inner: sig.into() })
    }
}

/// A new key of [`PrivateKey::DEFAULT_BITS`] bits (e = 65537) with a salt of `D`'s output
/// length.
impl<D> Generate for SigningKey<D>
where
    D: Digest,
{
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(
        rng: &mut R,
    ) -> core::result::Result<Self, R::Error> {
        PrivateKey::try_generate_from_rng(rng).map(Self::new)
    }
}

impl<D> RandomizedDigestSigner<D, Signature> for SigningKey<D>
where
    D: Digest + FixedOutputReset + Update,
{
    fn try_sign_digest_with_rng<
        R: TryCryptoRng + ?Sized,
        F: Fn(&mut D) -> signature::Result<()>,
    >(
        &self,
        rng: &mut R,
        f: F,
    ) -> signature::Result<Signature> {
        let mut digest = D::new();
        f(&mut digest)?;
        self.sign_hash(rng, &digest.finalize())
    }
}

impl<D> RandomizedSigner<Signature> for SigningKey<D>
where
    D: Digest + FixedOutputReset + Update,
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
    D: Digest + FixedOutputReset + Update,
{
    fn try_multipart_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[&[u8]],
    ) -> signature::Result<Signature> {
        let mut digest = D::new();
        for part in msg {
            Digest::update(&mut digest, part);
        }
        self.sign_hash(rng, &digest.finalize())
    }
}

impl<D> RandomizedPrehashSigner<Signature> for SigningKey<D>
where
    D: Digest + FixedOutputReset + Update,
{
    fn sign_prehash_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        prehash: &[u8],
    ) -> signature::Result<Signature> {
        self.sign_hash(rng, prehash)
    }
}

#[cfg(feature = "getrandom")]
impl<D> PrehashSigner<Signature> for SigningKey<D>
where
    D: Digest + FixedOutputReset,
{
    fn sign_prehash(&self, prehash: &[u8]) -> signature::Result<Signature> {
        self.sign_hash(&mut SysRng, prehash)
    }
}

#[cfg(feature = "getrandom")]
impl<D> Signer<Signature> for SigningKey<D>
where
    D: Digest + FixedOutputReset,
{
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        self.try_multipart_sign(&[msg])
    }
}

#[cfg(feature = "getrandom")]
impl<D> MultipartSigner<Signature> for SigningKey<D>
where
    D: Digest + FixedOutputReset,
{
    fn try_multipart_sign(&self, msg: &[&[u8]]) -> signature::Result<Signature> {
        let mut digest = D::new();
        for part in msg {
            Digest::update(&mut digest, part);
        }
        self.sign_hash(&mut SysRng, &digest.finalize())
    }
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

/// RSASSA-PSS with `D`, MGF1 over `D` and this key's salt length.
#[cfg(feature = "encoding")]
impl<D> DynSignatureAlgorithmIdentifier for SigningKey<D>
where
    D: Digest + AssociatedOid,
{
    fn signature_algorithm_identifier(&self) -> spki::Result<AlgorithmIdentifierOwned> {
        get_pss_signature_algo_id::<D>(self.salt_len)
    }
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
    D: Digest,
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

    /// The public key, expecting this key's salt length.
    fn verifying_key(&self) -> Self::VerifyingKey {
        VerifyingKey {
            inner: self.inner.to_public_key(),
            salt_len: Some(self.salt_len),
            phantom: PhantomData,
        }
    }
}

#[cfg(feature = "encoding")]
impl<D> TryFrom<pkcs8::PrivateKeyInfoRef<'_>> for SigningKey<D>
where
    D: Digest + AssociatedOid,
{
    type Error = pkcs8::Error;

    fn try_from(private_key_info: pkcs8::PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
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
        self.inner == other.inner && self.salt_len == other.salt_len
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

/// PKCS #8 DER, as [`Serialize`] writes it; the salt length is `D`'s output length.
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
