//! The `pkcs8`, `spki` and `pkcs1` crates' key traits on [`RsaPrivateKey`] and
//! [`RsaPublicKey`], on the same parsers and writers as [`decode_private_key`] and
//! [`encode_private_key`] (module `asn1`): one implementation of each structure.
//!
//! Decoding goes through the crates' blanket impls where they have them (`DecodePrivateKey`
//! for every `TryFrom<PrivateKeyInfoRef>`, `DecodePublicKey` for every
//! `TryFrom<SubjectPublicKeyInfoRef>`), so that every provided method (PEM, files, encrypted
//! PKCS #8) works as it does for RustCrypto's key types. Keys are validated as
//! [`RsaPrivateKey::from_parts`] does.
//!
//! The crates' error types carry no text: a key that is refused is `KeyMalformed` (with
//! `TooShort` or `TooLong` for a modulus out of range). For the reason in words, decode with
//! [`decode_private_key`] / [`decode_public_key`].
//!
//! [`decode_private_key`]: crate::decode_private_key
//! [`decode_public_key`]: crate::decode_public_key
//! [`encode_private_key`]: crate::encode_private_key

use alloc::format;
use der::{Document, SecretDocument};
use pkcs8::{EncodePrivateKey, PrivateKeyInfoRef};
use spki::{EncodePublicKey, SubjectPublicKeyInfoRef};

use super::{KeyAlgorithm, asn1};
use crate::{Error, KeyError, RsaPrivateKey, RsaPublicKey};

/// The `pkcs8` crate's key error for one of ours.
fn pkcs8_key_error(e: &Error) -> pkcs8::KeyError {
    match e {
        Error::InvalidKey(KeyError::ModulusTooSmall { .. }) => pkcs8::KeyError::TooShort,
        Error::InvalidKey(KeyError::ModulusTooLarge { .. }) => pkcs8::KeyError::TooLong,
        _ => pkcs8::KeyError::Invalid,
    }
}

fn to_pkcs8(e: Error) -> pkcs8::Error {
    pkcs8::Error::KeyMalformed(pkcs8_key_error(&e))
}

fn to_spki(_: Error) -> spki::Error {
    spki::Error::KeyMalformed
}

fn to_pkcs1(e: Error) -> pkcs1::Error {
    match e {
        Error::InvalidKey(_) => pkcs1::Error::Crypto,
        _ => pkcs1::Error::KeyMalformed,
    }
}

/// Our DER output as the `der` crate's wiped-on-drop document.
fn secret_document(der: &[u8]) -> der::Result<SecretDocument> {
    SecretDocument::try_from(der)
}

impl TryFrom<PrivateKeyInfoRef<'_>> for RsaPrivateKey {
    type Error = pkcs8::Error;

    /// A PKCS #8 key with algorithm `rsaEncryption` or `id-RSASSA-PSS` (whose parameters are
    /// checked, then not kept: the key signs with whatever scheme it is given).
    fn try_from(info: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        let (parts, _) = asn1::pkcs8_parts(&info).map_err(to_pkcs8)?;
        RsaPrivateKey::from_parts(&parts).map_err(to_pkcs8)
    }
}

impl EncodePrivateKey for RsaPrivateKey {
    /// PKCS #8 with `rsaEncryption`, byte for byte as [`crate::encode_private_key`] and
    /// `openssl pkey` write it.
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        let der = asn1::encode_pkcs8(&self.to_parts(), &KeyAlgorithm::Rsa).map_err(to_pkcs8)?;
        Ok(secret_document(&der)?)
    }
}

impl TryFrom<SubjectPublicKeyInfoRef<'_>> for RsaPublicKey {
    type Error = spki::Error;

    /// A SubjectPublicKeyInfo with algorithm `rsaEncryption` or `id-RSASSA-PSS`.
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        let (parts, _) = asn1::spki_parts(&spki).map_err(to_spki)?;
        RsaPublicKey::from_parts(&parts).map_err(to_spki)
    }
}

impl EncodePublicKey for RsaPublicKey {
    /// SubjectPublicKeyInfo with `rsaEncryption`, as `openssl pkey -pubout` writes it.
    fn to_public_key_der(&self) -> spki::Result<Document> {
        let der = asn1::encode_spki(&self.to_parts(), &KeyAlgorithm::Rsa).map_err(to_spki)?;
        Ok(Document::try_from(der)?)
    }
}

impl pkcs1::DecodeRsaPrivateKey for RsaPrivateKey {
    /// A PKCS #1 `RSAPrivateKey`, two-prime or multi-prime.
    fn from_pkcs1_der(der: &[u8]) -> pkcs1::Result<Self> {
        let parts = asn1::decode_pkcs1_private(der).map_err(to_pkcs1)?;
        RsaPrivateKey::from_parts(&parts).map_err(to_pkcs1)
    }
}

impl pkcs1::EncodeRsaPrivateKey for RsaPrivateKey {
    /// PKCS #1, as `openssl rsa -traditional` writes it.
    fn to_pkcs1_der(&self) -> pkcs1::Result<SecretDocument> {
        let der = asn1::encode_pkcs1_private(&self.to_parts()).map_err(to_pkcs1)?;
        Ok(secret_document(&der)?)
    }
}

impl pkcs1::DecodeRsaPublicKey for RsaPublicKey {
    /// A PKCS #1 `RSAPublicKey`.
    fn from_pkcs1_der(der: &[u8]) -> pkcs1::Result<Self> {
        let parts = asn1::decode_pkcs1_public(der).map_err(to_pkcs1)?;
        RsaPublicKey::from_parts(&parts).map_err(to_pkcs1)
    }
}

impl pkcs1::EncodeRsaPublicKey for RsaPublicKey {
    /// PKCS #1, as `openssl rsa -RSAPublicKey_out` writes it.
    fn to_pkcs1_der(&self) -> pkcs1::Result<Document> {
        let der = asn1::encode_pkcs1_public(&self.to_parts()).map_err(to_pkcs1)?;
        Ok(Document::try_from(der)?)
    }
}

impl From<pkcs1::Error> for Error {
    fn from(e: pkcs1::Error) -> Self {
        Error::Encoding(format!("PKCS #1: {e}"))
    }
}

impl From<pkcs8::Error> for Error {
    fn from(e: pkcs8::Error) -> Self {
        Error::Encoding(format!("PKCS #8: {e}"))
    }
}

impl From<spki::Error> for Error {
    fn from(e: spki::Error) -> Self {
        Error::Encoding(format!("SubjectPublicKeyInfo: {e}"))
    }
}
