//! Key encodings, both ways: PKCS #1 (`RSAPrivateKey`, `RSAPublicKey`; RFC 8017 A.1), PKCS #8
//! (`PrivateKeyInfo`; RFC 5208, RFC 5958) and `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7 with
//! RFC 3279 §2.3.1), each in DER or PEM (RFC 7468), through the RustCrypto `der` family.
//!
//! # Reading
//!
//! [`decode_private_key`] and [`decode_public_key`] detect the format: input whose first byte
//! is 0x30 (a DER SEQUENCE) is DER, classified by the tags inside the outer SEQUENCE
//! (INTEGER, SEQUENCE: PKCS #8; SEQUENCE, BIT STRING: SubjectPublicKeyInfo; two INTEGERs:
//! PKCS #1 public; more INTEGERs: PKCS #1 private); anything else is PEM, decoded by its label
//! (`PRIVATE KEY`, `RSA PRIVATE KEY`, `PUBLIC KEY`, `RSA PUBLIC KEY`). PEM may have text before
//! the block, CRLF line endings and any fixed base64 line width.
//!
//! The algorithm must be `rsaEncryption` (1.2.840.113549.1.1.1) with NULL or absent
//! parameters, or `id-RSASSA-PSS` (1.2.840.113549.1.1.10) with absent or SEQUENCE parameters.
//! A PSS key is returned as a plain RSA key: the hash and salt restrictions in its parameters
//! are not decoded or enforced.
//!
//! Everything else is refused with [`Error::Encoding`] saying what was wrong, never a panic:
//! negative INTEGERs (named: "the private exponent d is negative"), INTEGERs DER forbids
//! (empty, or with a superfluous leading byte), indefinite lengths, trailing data, truncation,
//! a wrong version, another algorithm, bad base64, mismatched or unknown PEM labels. An
//! INTEGER of more than 16384 bits is refused with
//! [`KeyError::ModulusTooLarge`](crate::KeyError::ModulusTooLarge), by its encoded length,
//! before it is copied. Memory use is bounded by the input's length. Encrypted private keys
//! (PKCS #8 `ENCRYPTED PRIVATE KEY`, or PEM with `Proc-Type: 4,ENCRYPTED`) are
//! [`Error::Unsupported`].
//!
//! A PKCS #8 version 2 key (`OneAsymmetricKey`, RFC 5958) is accepted; its optional
//! `publicKey` and `attributes` fields are ignored. A multi-prime key may have any number of
//! `otherPrimeInfos` (bounded by the input's length); how many primes are supported is the key
//! types' decision.
//!
//! Decoding checks structure only: that n is odd, e in range, n the product of the primes and
//! so on is the key types' validation.
//!
//! # Writing
//!
//! [`encode_private_key`] and [`encode_public_key`] write DER, or PEM with LF line endings and
//! 64-column base64, byte for byte as OpenSSL 3 does (`openssl pkey`, `openssl rsa
//! -traditional`, `openssl pkey -pubout`, `openssl rsa -RSAPublicKey_out`): PKCS #8 with
//! `rsaEncryption` and NULL parameters, version 0; PKCS #1 version 0 for two primes and 1 with
//! `otherPrimeInfos` for more.
//!
//! # Constant time
//!
//! The parsers' time and memory depend on the input's bytes, lengths and structure: a key file
//! is not treated as secret while it is parsed (as in OpenSSL and RustCrypto). Base64 decoding
//! and encoding are constant-time in the data (`base64ct`). Every buffer that holds private key
//! bytes (decoded PEM, private key parts, encoded output) is wiped on drop.

mod asn1;
mod pem;

use crate::{Error, PrivateKeyParts, PublicKeyParts, Result};
use asn1::Shape;
use pem::Label;
use zeroize::Zeroizing;

/// The container of an encoded private key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyFormat {
    /// PKCS #8 `PrivateKeyInfo` (PEM label `PRIVATE KEY`); OpenSSL's default.
    #[default]
    Pkcs8,
    /// PKCS #1 `RSAPrivateKey` (PEM label `RSA PRIVATE KEY`), OpenSSL's "traditional" format.
    Pkcs1,
}

/// The container of an encoded public key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PublicFormat {
    /// `SubjectPublicKeyInfo` (PEM label `PUBLIC KEY`), as in X.509 certificates.
    #[default]
    Spki,
    /// PKCS #1 `RSAPublicKey` (PEM label `RSA PUBLIC KEY`).
    Pkcs1,
}

/// Binary DER or textual PEM.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// PEM (RFC 7468): base64 DER between `-----BEGIN label-----` and `-----END label-----`.
    #[default]
    Pem,
    /// ASN.1 DER.
    Der,
}

/// Input as DER: borrowed if it was DER, decoded (and wiped on drop) if it was PEM.
enum Source<'a> {
    Der(&'a [u8]),
    Pem(Label, Zeroizing<Vec<u8>>),
}

fn read(input: &[u8]) -> Result<Source<'_>> {
    match input.first() {
        None => Err(Error::Encoding("empty input".into())),
        // 0x30: a constructed SEQUENCE, how every DER key starts; never the start of PEM text.
        Some(0x30) => Ok(Source::Der(input)),
        Some(_) if !input.windows(11).any(|w| w == b"-----BEGIN ") => Err(Error::Encoding(
            "neither DER (a SEQUENCE, first byte 0x30) nor PEM (no -----BEGIN line)".into(),
        )),
        Some(_) => {
            let (label, der) = pem::decode(input)?;
            Ok(Source::Pem(label, der))
        }
    }
}

fn encrypted() -> Error {
    Error::Unsupported("encrypted private keys".into())
}

/// Decodes an RSA private key: PKCS #8 or PKCS #1, PEM or DER, detected from the input.
///
/// # Errors
///
/// [`Error::Encoding`] if the input is not a well-formed RSA private key in one of these
/// formats (a public key included), [`Error::InvalidKey`] with
/// [`KeyError::ModulusTooLarge`](crate::KeyError::ModulusTooLarge) for an integer over 16384
/// bits, [`Error::Unsupported`] for an encrypted key. The module docs list what is refused.
pub fn decode_private_key(input: &[u8]) -> Result<PrivateKeyParts> {
    let not_private = || Error::Encoding("expected a private key, found a public key".into());
    match read(input)? {
        Source::Pem(label, der) => match label {
            Label::PrivateKey => asn1::decode_pkcs8(&der),
            Label::RsaPrivateKey => asn1::decode_pkcs1_private(&der),
            Label::EncryptedPrivateKey => Err(encrypted()),
            Label::PublicKey | Label::RsaPublicKey => Err(not_private()),
        },
        Source::Der(der) => match asn1::shape(der)? {
            Shape::Pkcs8 => asn1::decode_pkcs8(der),
            Shape::Pkcs1Private => asn1::decode_pkcs1_private(der),
            Shape::EncryptedPkcs8 => Err(encrypted()),
            Shape::Spki | Shape::Pkcs1Public => Err(not_private()),
        },
    }
}

/// Decodes an RSA public key: SubjectPublicKeyInfo or PKCS #1, PEM or DER, detected from the
/// input; or a private key in any format [`decode_private_key`] reads, giving its public half
/// (as `rsatool verify -k` takes either).
///
/// # Errors
///
/// As [`decode_private_key`].
pub fn decode_public_key(input: &[u8]) -> Result<PublicKeyParts> {
    let public_half = |key: PrivateKeyParts| PublicKeyParts { n: key.n, e: key.e };
    match read(input)? {
        Source::Pem(label, der) => match label {
            Label::PublicKey => asn1::decode_spki(&der),
            Label::RsaPublicKey => asn1::decode_pkcs1_public(&der),
            Label::PrivateKey => asn1::decode_pkcs8(&der).map(public_half),
            Label::RsaPrivateKey => asn1::decode_pkcs1_private(&der).map(public_half),
            Label::EncryptedPrivateKey => Err(encrypted()),
        },
        Source::Der(der) => match asn1::shape(der)? {
            Shape::Spki => asn1::decode_spki(der),
            Shape::Pkcs1Public => asn1::decode_pkcs1_public(der),
            Shape::Pkcs8 => asn1::decode_pkcs8(der).map(public_half),
            Shape::Pkcs1Private => asn1::decode_pkcs1_private(der).map(public_half),
            Shape::EncryptedPkcs8 => Err(encrypted()),
        },
    }
}

/// Encodes a private key as PKCS #8 or PKCS #1, in PEM or DER, byte for byte as OpenSSL 3
/// writes the same key. The output is wiped on drop.
///
/// The parts are taken as they are (big-endian, leading zero bytes ignored, empty for zero);
/// only their counts are checked: at least two primes, as many exponents, one coefficient
/// fewer.
///
/// # Errors
///
/// [`Error::InvalidKey`] with [`KeyError::PrimeCount`](crate::KeyError::PrimeCount) for fewer
/// than two primes or with
/// [`KeyError::ModulusTooLarge`](crate::KeyError::ModulusTooLarge) for an integer over 16384
/// bits; [`Error::Encoding`] if the counts of exponents or coefficients do not match.
pub fn encode_private_key(
    key: &PrivateKeyParts,
    format: KeyFormat,
    encoding: Encoding,
) -> Result<Zeroizing<Vec<u8>>> {
    let (label, der) = match format {
        KeyFormat::Pkcs8 => (Label::PrivateKey, asn1::encode_pkcs8(key)?),
        KeyFormat::Pkcs1 => (Label::RsaPrivateKey, asn1::encode_pkcs1_private(key)?),
    };
    match encoding {
        Encoding::Der => Ok(der),
        Encoding::Pem => pem::encode(label, &der),
    }
}

/// Encodes a public key as SubjectPublicKeyInfo or PKCS #1, in PEM or DER, byte for byte as
/// OpenSSL 3 writes the same key.
///
/// # Errors
///
/// [`Error::InvalidKey`] with [`KeyError::ModulusTooLarge`](crate::KeyError::ModulusTooLarge)
/// for an integer over 16384 bits.
pub fn encode_public_key(
    key: &PublicKeyParts,
    format: PublicFormat,
    encoding: Encoding,
) -> Result<Vec<u8>> {
    let (label, der) = match format {
        PublicFormat::Spki => (Label::PublicKey, asn1::encode_spki(key)?),
        PublicFormat::Pkcs1 => (Label::RsaPublicKey, asn1::encode_pkcs1_public(key)?),
    };
    match encoding {
        Encoding::Der => Ok(der),
        Encoding::Pem => Ok(pem::encode(label, &der)?.to_vec()),
    }
}
