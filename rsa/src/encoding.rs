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
//! A PEM file may hold several blocks (a certificate and its key, as servers store them): the
//! block the caller needs is taken and the others are skipped. An X.509 certificate
//! (`CERTIFICATE`, or its DER) is read as its public key (its structure walked by `asn1`).
//!
//! The algorithm must be `rsaEncryption` (1.2.840.113549.1.1.1) with NULL or absent
//! parameters, or `id-RSASSA-PSS` (1.2.840.113549.1.1.10) with absent or SEQUENCE parameters,
//! whose restrictions (RFC 4055 §3.1) the `*_with` functions return as a [`KeyAlgorithm`].
//!
//! Everything else is refused with [`Error::Encoding`] saying what was wrong, never a panic:
//! negative INTEGERs (named: "the private exponent d is negative"), INTEGERs DER forbids
//! (empty, or with a superfluous leading byte), indefinite lengths, trailing data, truncation,
//! a wrong version, another algorithm, bad base64, mismatched or unknown PEM labels. An
//! INTEGER of more than 16384 bits is refused with
//! [`KeyError::ModulusTooLarge`](crate::KeyError::ModulusTooLarge), by its encoded length,
//! before it is copied. Memory use is bounded by the input's length.
//!
//! Encrypted private keys are read by [`decode_private_key_with`] given the password: PKCS #8
//! `EncryptedPrivateKeyInfo` (PBES2 with PBKDF2-HMAC-SHA-1/SHA-2 or scrypt, AES-CBC or
//! DES-EDE3-CBC, through the `pkcs8` crate; PKCS #12's `pbeWithSHAAnd3-KeyTripleDES-CBC` and
//! 2-key variant, OpenSSL 1.0's default, by hand) and OpenSSL's legacy PEM (`Proc-Type: 4,ENCRYPTED`, `DEK-Info:` AES-128/192/256-CBC
//! or DES-EDE3-CBC). Without a password they are [`Error::NeedPassword`] there, and
//! [`Error::Unsupported`] for [`decode_private_key`], which takes none.
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
//! `rsaEncryption` and NULL parameters (or `id-RSASSA-PSS` and its parameters), version 0;
//! PKCS #1 version 0 for two primes and 1 with `otherPrimeInfos` for more.
//! [`encode_private_key_with`] also writes encrypted PKCS #8: PBES2 with PBKDF2-HMAC-SHA256
//! and AES-256-CBC, as OpenSSL 3 does by default.
//!
//! # Constant time
//!
//! The parsers' time and memory depend on the input's bytes, lengths and structure: a key file
//! is not treated as secret while it is parsed (as in OpenSSL and RustCrypto). Base64 decoding
//! and encoding are constant-time in the data (`base64ct`). Every buffer that holds private key
//! bytes (decoded PEM, private key parts, encoded output) is wiped on drop.

mod asn1;
mod der_error;
mod legacy;
mod pem;
mod pkcs12;
mod pss_der;
mod traits;

use crate::pss::PssKeyParams;
use crate::{Error, PrivateKeyParts, PublicKeyParts, Result};
use alloc::vec::Vec;
use asn1::Shape;
use pem::{Block, Label};
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

/// What an encoded key is for, from its AlgorithmIdentifier (PKCS #8 and
/// SubjectPublicKeyInfo; PKCS #1 is always [`KeyAlgorithm::Rsa`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyAlgorithm {
    /// `rsaEncryption`: any RSA scheme.
    #[default]
    Rsa,
    /// `id-RSASSA-PSS` (RFC 4055 §3.1): PSS signatures only, within the parameters' limits
    /// if there are parameters.
    RsaPss(Option<PssKeyParams>),
}

/// Input as DER, or the PEM blocks of a text.
enum Source<'a> {
    Der(&'a [u8]),
    Pem(Vec<Block>),
}

fn read(input: &[u8]) -> Result<Source<'_>> {
    match input.first() {
        None => Err(Error::Encoding("empty input".into())),
        // 0x30: a constructed SEQUENCE, how every DER key starts; never the start of PEM text.
        Some(0x30) => Ok(Source::Der(input)),
        Some(_) if !input.windows(11).any(|w| w == b"-----BEGIN ") => Err(Error::Encoding(
            "neither DER (a SEQUENCE, first byte 0x30) nor PEM (no -----BEGIN line)".into(),
        )),
        Some(_) => Ok(Source::Pem(pem::blocks(input)?)),
    }
}

/// The key of a decoding made without a password: an encrypted key is unsupported there.
fn without_password<T>(decoded: Result<(T, KeyAlgorithm)>) -> Result<T> {
    match decoded {
        Ok((parts, _)) => Ok(parts),
        Err(Error::NeedPassword) => Err(Error::Unsupported("encrypted private keys".into())),
        Err(e) => Err(e),
    }
}

fn not_private() -> Error {
    Error::Encoding("expected a private key, found a public key".into())
}

/// The labels a private key may have, as listed in messages.
const PRIVATE_LABELS: &str = "PRIVATE KEY, ENCRYPTED PRIVATE KEY or RSA PRIVATE KEY";

fn is_private(label: Option<Label>) -> bool {
    matches!(
        label,
        Some(Label::PrivateKey | Label::EncryptedPrivateKey | Label::RsaPrivateKey)
    )
}

/// Whether the private key in `input` (the one [`decode_private_key_with`] would take) is
/// encrypted, so that a password is needed. False for anything else, malformed input
/// included.
pub fn is_encrypted_private_key(input: &[u8]) -> bool {
    match read(input) {
        Ok(Source::Der(der)) => asn1::shape(der) == Ok(Shape::EncryptedPkcs8),
        Ok(Source::Pem(blocks)) => blocks
            .iter()
            .find(|b| is_private(b.label))
            .is_some_and(block_is_encrypted),
        Err(_) => false,
    }
}

fn block_is_encrypted(block: &Block) -> bool {
    block.label == Some(Label::EncryptedPrivateKey)
        || block
            .header("Proc-Type")
            .is_some_and(|v| v.to_ascii_uppercase().contains("ENCRYPTED"))
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
    without_password(decode_private_key_with(input, None))
}

/// Decodes an RSA private key as [`decode_private_key`] does, encrypted ones too (given the
/// password), with what its AlgorithmIdentifier says it is for.
///
/// # Errors
///
/// As [`decode_private_key`]; for an encrypted key, [`Error::NeedPassword`] without a
/// password, [`Error::BadPassword`] when it does not decrypt, [`Error::Unsupported`] for an
/// encryption scheme that is not read.
pub fn decode_private_key_with(
    input: &[u8],
    password: Option<&[u8]>,
) -> Result<(PrivateKeyParts, KeyAlgorithm)> {
    match read(input)? {
        Source::Der(der) => match asn1::shape(der)? {
            Shape::Pkcs8 => asn1::decode_pkcs8(der),
            Shape::Pkcs1Private => Ok((asn1::decode_pkcs1_private(der)?, KeyAlgorithm::Rsa)),
            Shape::EncryptedPkcs8 => {
                let plain = asn1::decrypt_pkcs8(der, password.ok_or(Error::NeedPassword)?)?;
                decrypted(asn1::decode_pkcs8(&plain))
            }
            Shape::Spki | Shape::Pkcs1Public | Shape::Certificate => Err(not_private()),
        },
        Source::Pem(blocks) => match blocks.iter().find(|b| is_private(b.label)) {
            Some(block) => decode_private_block(block, password),
            None if blocks
                .iter()
                .any(|b| matches!(b.label, Some(Label::PublicKey | Label::RsaPublicKey))) =>
            {
                Err(not_private())
            }
            None => Err(pem::no_wanted_block(&blocks, PRIVATE_LABELS)),
        },
    }
}

/// A decrypted key that does not decode means the password was wrong (CBC padding is right
/// by chance for about one wrong password in 256).
fn decrypted<T>(result: Result<T>) -> Result<T> {
    result.map_err(|e| match e {
        Error::Encoding(_) => Error::BadPassword,
        other => other,
    })
}

fn decode_private_block(
    block: &Block,
    password: Option<&[u8]>,
) -> Result<(PrivateKeyParts, KeyAlgorithm)> {
    let der = block.decode()?;
    match block.label {
        Some(Label::EncryptedPrivateKey) => {
            let plain = asn1::decrypt_pkcs8(&der, password.ok_or(Error::NeedPassword)?)?;
            decrypted(asn1::decode_pkcs8(&plain))
        }
        Some(Label::RsaPrivateKey) if block_is_encrypted(block) => {
            let dek = block.header("DEK-Info").ok_or_else(|| {
                Error::Encoding("PEM: Proc-Type ENCRYPTED without a DEK-Info header".into())
            })?;
            let password = password.ok_or(Error::NeedPassword)?;
            let plain = legacy::decrypt(dek, password, &der)?;
            decrypted(asn1::decode_pkcs1_private(&plain)).map(|p| (p, KeyAlgorithm::Rsa))
        }
        _ if !block.headers.is_empty() => Err(Error::Encoding(
            "PEM: encapsulated headers (RFC 1421) are not supported".into(),
        )),
        Some(Label::PrivateKey) => asn1::decode_pkcs8(&der),
        _ => Ok((asn1::decode_pkcs1_private(&der)?, KeyAlgorithm::Rsa)),
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
    without_password(decode_public_key_with(input, None))
}

/// Decodes an RSA public key as [`decode_public_key`] does, and from an X.509 certificate
/// (PEM `CERTIFICATE` or DER) too, with what its AlgorithmIdentifier says it is for. In a PEM
/// file of several blocks, a public key is taken first, then a certificate, then a private
/// key (an encrypted one only with the password).
///
/// # Errors
///
/// As [`decode_private_key_with`]; a certificate whose key is not RSA is
/// [`Error::Encoding`].
pub fn decode_public_key_with(
    input: &[u8],
    password: Option<&[u8]>,
) -> Result<(PublicKeyParts, KeyAlgorithm)> {
    let public_half = |(key, alg): (PrivateKeyParts, KeyAlgorithm)| {
        (
            PublicKeyParts {
                n: key.n.clone(),
                e: key.e.clone(),
            },
            alg,
        )
    };
    match read(input)? {
        Source::Der(der) => match asn1::shape(der)? {
            Shape::Spki => asn1::decode_spki(der),
            Shape::Pkcs1Public => Ok((asn1::decode_pkcs1_public(der)?, KeyAlgorithm::Rsa)),
            Shape::Certificate => asn1::decode_certificate(der),
            Shape::Pkcs8 | Shape::Pkcs1Private | Shape::EncryptedPkcs8 => {
                decode_private_key_with(der, password).map(public_half)
            }
        },
        Source::Pem(blocks) => {
            let pick = |want: &[Label]| {
                blocks
                    .iter()
                    .find(|b| b.label.is_some_and(|l| want.contains(&l)))
            };
            if let Some(block) = pick(&[Label::PublicKey, Label::RsaPublicKey]) {
                if !block.headers.is_empty() {
                    return Err(Error::Encoding(
                        "PEM: encapsulated headers (RFC 1421) are not supported".into(),
                    ));
                }
                let der = block.decode()?;
                return if block.label == Some(Label::PublicKey) {
                    asn1::decode_spki(&der)
                } else {
                    Ok((asn1::decode_pkcs1_public(&der)?, KeyAlgorithm::Rsa))
                };
            }
            if let Some(block) = pick(&[Label::Certificate]) {
                return asn1::decode_certificate(&block.decode()?);
            }
            match blocks.iter().find(|b| is_private(b.label)) {
                Some(block) => decode_private_block(block, password).map(public_half),
                None => Err(pem::no_wanted_block(
                    &blocks,
                    "PRIVATE KEY, RSA PRIVATE KEY, PUBLIC KEY, RSA PUBLIC KEY or CERTIFICATE",
                )),
            }
        }
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
    encode_private_key_with(key, &KeyAlgorithm::Rsa, format, encoding, None)
}

/// Encodes a private key as [`encode_private_key`] does, for an RSA-PSS key with its
/// AlgorithmIdentifier, and encrypted (PKCS #8 `ENCRYPTED PRIVATE KEY`, PBES2 with
/// PBKDF2-HMAC-SHA256 and AES-256-CBC) when a password is given.
///
/// # Errors
///
/// As [`encode_private_key`]; [`Error::Unsupported`] for PKCS #1 with an RSA-PSS key (it has
/// no AlgorithmIdentifier to say so) or with a password (only PKCS #8 is written encrypted).
pub fn encode_private_key_with(
    key: &PrivateKeyParts,
    algorithm: &KeyAlgorithm,
    format: KeyFormat,
    encoding: Encoding,
    password: Option<&[u8]>,
) -> Result<Zeroizing<Vec<u8>>> {
    let (label, der) = match (format, password) {
        (KeyFormat::Pkcs8, None) => (Label::PrivateKey, asn1::encode_pkcs8(key, algorithm)?),
        (KeyFormat::Pkcs8, Some(password)) => {
            let plain = asn1::encode_pkcs8(key, algorithm)?;
            (
                Label::EncryptedPrivateKey,
                asn1::encrypt_pkcs8(&plain, password)?,
            )
        }
        (KeyFormat::Pkcs1, Some(_)) => {
            return Err(Error::Unsupported(
                "encrypting PKCS #1 (OpenSSL's legacy PEM encryption); write PKCS #8".into(),
            ));
        }
        (KeyFormat::Pkcs1, None) if *algorithm != KeyAlgorithm::Rsa => {
            return Err(Error::Unsupported(
                "an RSA-PSS key in PKCS #1, which cannot say so; write PKCS #8".into(),
            ));
        }
        (KeyFormat::Pkcs1, None) => (Label::RsaPrivateKey, asn1::encode_pkcs1_private(key)?),
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
    encode_public_key_with(key, &KeyAlgorithm::Rsa, format, encoding)
}

/// Encodes a public key as [`encode_public_key`] does, an RSA-PSS key's SubjectPublicKeyInfo
/// with its AlgorithmIdentifier and parameters (as `openssl pkey -pubout` keeps them).
///
/// # Errors
///
/// As [`encode_public_key`]; [`Error::Unsupported`] for PKCS #1 with an RSA-PSS key.
pub fn encode_public_key_with(
    key: &PublicKeyParts,
    algorithm: &KeyAlgorithm,
    format: PublicFormat,
    encoding: Encoding,
) -> Result<Vec<u8>> {
    let (label, der) = match format {
        PublicFormat::Spki => (Label::PublicKey, asn1::encode_spki(key, algorithm)?),
        PublicFormat::Pkcs1 if *algorithm != KeyAlgorithm::Rsa => {
            return Err(Error::Unsupported(
                "an RSA-PSS key in PKCS #1, which cannot say so; write SubjectPublicKeyInfo".into(),
            ));
        }
        PublicFormat::Pkcs1 => (Label::RsaPublicKey, asn1::encode_pkcs1_public(key)?),
    };
    match encoding {
        Encoding::Der => Ok(der),
        Encoding::Pem => Ok(pem::encode(label, &der)?.to_vec()),
    }
}
