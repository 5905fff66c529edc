//! The ASN.1 structures (through the `der`, `pkcs1`, `pkcs8` and `spki` crates) and the
//! conversions between them and the byte-string key parts.
//!
//! Integers are decoded as signed `IntRef`s borrowed from the input, so that a negative value is
//! reported by name ("the modulus n is negative") instead of as a generic DER error; the
//! non-minimal encodings DER forbids (empty, a superfluous 0x00 or 0xFF byte) are refused by
//! `der` itself. Each integer's length is checked against [`MAX_INT_BITS`] before anything is
//! copied out of the input.

use super::KeyAlgorithm;
use super::der_error::der_error;
use crate::{Error, KeyError, PrivateKeyParts, PublicKeyParts, Result};
use alloc::{format, vec, vec::Vec};
use der::asn1::{AnyRef, BitStringRef, IntRef, ObjectIdentifier, OctetStringRef, UintRef};
use der::{Decode, Encode, ErrorKind, Reader, SliceReader, Tag, TagMode, TagNumber, Tagged};
use pkcs1::{OtherPrimeInfo, RsaPrivateKey, RsaPublicKey};
use pkcs8::PrivateKeyInfoRef;
use spki::{AlgorithmIdentifierRef, SubjectPublicKeyInfoRef};
use zeroize::Zeroizing;

/// The largest integer accepted in a key, in bits (the largest modulus the crate supports).
pub(super) const MAX_INT_BITS: usize = 16384;

/// `rsaEncryption` (RFC 8017 A.1): the algorithm of an ordinary RSA key.
const RSA_ENCRYPTION: ObjectIdentifier = pkcs1::ALGORITHM_OID;

/// `id-RSASSA-PSS` (RFC 8017 A.2.3, RFC 4055 §3.1): an RSA key restricted to PSS signatures.
const ID_RSASSA_PSS: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.10");

/// What a DER key looks like from its outer SEQUENCE's first two elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// `PrivateKeyInfo`: INTEGER version, SEQUENCE algorithm, OCTET STRING key, ...
    Pkcs8,
    /// `EncryptedPrivateKeyInfo`: SEQUENCE algorithm, OCTET STRING ciphertext.
    EncryptedPkcs8,
    /// `RSAPrivateKey`: INTEGER version, INTEGER n, INTEGER e, ... (at least three INTEGERs).
    Pkcs1Private,
    /// `SubjectPublicKeyInfo`: SEQUENCE algorithm, BIT STRING key.
    Spki,
    /// `RSAPublicKey`: exactly two INTEGERs, n and e.
    Pkcs1Public,
    /// An X.509 `Certificate`: SEQUENCE tbsCertificate, SEQUENCE signatureAlgorithm, ...
    Certificate,
}

/// Classifies a DER key by peeking at the tags inside its outer SEQUENCE. Also checks the
/// framing: a definite-length SEQUENCE whose elements fill it exactly, and nothing after it.
pub(super) fn shape(der: &[u8]) -> Result<Shape> {
    let context = "DER key";
    let mut reader = SliceReader::new(der).map_err(|e| der_error(context, e))?;
    let (first, second, count) = reader
        .sequence(|inner| {
            let mut tags = [None, None];
            let mut count = 0usize;
            while !inner.is_finished() {
                let tag = Tag::peek(inner)?;
                inner.tlv_bytes()?;
                if let Some(slot) = tags.get_mut(count) {
                    *slot = Some(tag);
                }
                count = count.saturating_add(1);
            }
            Ok::<_, der::Error>((tags[0], tags[1], count))
        })
        .map_err(|e| der_error(context, e))?;
    reader.finish().map_err(|e| der_error(context, e))?;
    match (first, second) {
        (Some(Tag::Integer), Some(Tag::Sequence)) => Ok(Shape::Pkcs8),
        (Some(Tag::Sequence), Some(Tag::OctetString)) => Ok(Shape::EncryptedPkcs8),
        (Some(Tag::Sequence), Some(Tag::BitString)) => Ok(Shape::Spki),
        (Some(Tag::Sequence), Some(Tag::Sequence)) => Ok(Shape::Certificate),
        (Some(Tag::Integer), Some(Tag::Integer)) if count == 2 => Ok(Shape::Pkcs1Public),
        (Some(Tag::Integer), Some(Tag::Integer)) => Ok(Shape::Pkcs1Private),
        _ => Err(Error::Encoding(
            "the DER SEQUENCE is not a PKCS #8, PKCS #1 or SubjectPublicKeyInfo key".into(),
        )),
    }
}

/// Decodes a PKCS #1 `RSAPrivateKey` (RFC 8017 A.1.2), two-prime (version 0) or multi-prime
/// (version 1, with `otherPrimeInfos`).
pub(super) fn decode_pkcs1_private(der: &[u8]) -> Result<PrivateKeyParts> {
    let context = "PKCS #1 RSAPrivateKey";
    check_version(der, context, 1)?;
    let key = RsaPrivateKey::<IntRef<'_>>::from_der(der).map_err(|e| match e.kind() {
        // The version is known to be 0 or 1 and negative integers decode as IntRef, so the
        // only INTEGER value error left is the version check of `pkcs1`.
        ErrorKind::Value { tag: Tag::Integer } => Error::Encoding(format!(
            "{context}: the version (0: two primes, 1: more) does not match \
             the presence of otherPrimeInfos"
        )),
        _ => der_error(context, e),
    })?;
    let others = key.other_prime_infos.as_deref().unwrap_or_default();
    let mut primes = Vec::with_capacity(others.len().saturating_add(2));
    let mut exponents = Vec::with_capacity(primes.capacity());
    let mut coefficients = Vec::with_capacity(others.len().saturating_add(1));
    primes.push(secret(key.prime1, context, "the prime p")?);
    primes.push(secret(key.prime2, context, "the prime q")?);
    exponents.push(secret(key.exponent1, context, "the exponent dP")?);
    exponents.push(secret(key.exponent2, context, "the exponent dQ")?);
    coefficients.push(secret(key.coefficient, context, "the coefficient qInv")?);
    for info in others {
        primes.push(secret(info.prime, context, "a prime r_i")?);
        exponents.push(secret(info.exponent, context, "an exponent d_i")?);
        coefficients.push(secret(info.coefficient, context, "a coefficient t_i")?);
    }
    Ok(PrivateKeyParts {
        n: unsigned(key.modulus, context, "the modulus n")?.to_vec(),
        e: unsigned(key.public_exponent, context, "the public exponent e")?.to_vec(),
        d: secret(key.private_exponent, context, "the private exponent d")?,
        primes,
        exponents,
        coefficients,
    })
}

/// Decodes a PKCS #8 `PrivateKeyInfo` (RFC 5208; version 2 `OneAsymmetricKey` of RFC 5958 too)
/// holding an RSA key.
pub(super) fn decode_pkcs8(der: &[u8]) -> Result<(PrivateKeyParts, KeyAlgorithm)> {
    let context = "PKCS #8 PrivateKeyInfo";
    check_version(der, context, 1)?;
    let info = PrivateKeyInfoRef::from_der(der).map_err(|e| der_error(context, e))?;
    pkcs8_parts(&info)
}

/// The key and the algorithm of a decoded `PrivateKeyInfo`: for [`decode_pkcs8`] and for the
/// `pkcs8` crate's `DecodePrivateKey`, which parses the structure itself.
pub(super) fn pkcs8_parts(info: &PrivateKeyInfoRef<'_>) -> Result<(PrivateKeyParts, KeyAlgorithm)> {
    let algorithm = check_algorithm(&info.algorithm, "PKCS #8 PrivateKeyInfo")?;
    Ok((
        decode_pkcs1_private(info.private_key.as_bytes())?,
        algorithm,
    ))
}

/// Decrypts a PKCS #8 `EncryptedPrivateKeyInfo` (RFC 5208 §6): PBES2 of RFC 8018 (PBKDF2
/// with HMAC-SHA-1 or SHA-2, or scrypt; AES-CBC or DES-EDE3-CBC) through the `pkcs8` crate,
/// PKCS #12's Triple-DES PBE (RFC 7292, OpenSSL 1.0's default) by [`super::pkcs12`]: the DER
/// of the `PrivateKeyInfo` inside, wiped on drop.
///
/// # Errors
///
/// [`Error::Encoding`] if the structure does not decode, [`Error::Unsupported`] for a scheme
/// `pkcs5` does not implement (PBES1, for one), [`Error::BadPassword`] if the decryption
/// fails (a wrong password, or damaged data: CBC padding or the DER inside is wrong).
pub(super) fn decrypt_pkcs8(der: &[u8], password: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let context = "PKCS #8 EncryptedPrivateKeyInfo";
    if super::pkcs12::is_pkcs12_pbe(der) {
        return super::pkcs12::decrypt(der, password);
    }
    let info =
        pkcs8::EncryptedPrivateKeyInfoRef::from_der(der).map_err(|e| der_error(context, e))?;
    match info.decrypt(password) {
        Ok(doc) => Ok(Zeroizing::new(doc.as_bytes().to_vec())),
        Err(pkcs8::Error::EncryptedPrivateKey(
            e @ (pkcs8::pkcs5::Error::UnsupportedAlgorithm { .. }
            | pkcs8::pkcs5::Error::NoPbes1CryptSupport
            | pkcs8::pkcs5::Error::AlgorithmParametersInvalid { .. }),
        )) => Err(Error::Unsupported(format!("encrypted private key: {e}"))),
        Err(_) => Err(Error::BadPassword),
    }
}

/// PBKDF2-HMAC-SHA256 iterations of the keys written encrypted: more than OpenSSL's 2048
/// default, fewer than OWASP's 600,000 so that a key still opens in a fraction of a second.
#[cfg(feature = "std")]
pub(super) const PBKDF2_ITERATIONS: u32 = 100_000;

/// Encrypts the DER of a `PrivateKeyInfo` as PKCS #8 `EncryptedPrivateKeyInfo` with PBES2:
/// PBKDF2-HMAC-SHA256 ([`PBKDF2_ITERATIONS`], a 16-byte random salt) and AES-256-CBC (a
/// random IV), the scheme OpenSSL 3 and `cryptography` write by default, through `pkcs8`.
#[cfg(feature = "std")]
pub(super) fn encrypt_pkcs8(der: &[u8], password: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    use rand_core::Rng;
    let mut rng = crate::os_rng();
    let mut salt = [0u8; 16];
    let mut iv = [0u8; 16];
    rng.fill_bytes(&mut salt);
    rng.fill_bytes(&mut iv);
    let params = pkcs8::pkcs5::pbes2::Parameters::generate_pbkdf2_sha256_aes256cbc(
        PBKDF2_ITERATIONS,
        &salt,
        iv,
    )
    .map_err(|e| Error::Encoding(format!("PBES2 parameters: {e}")))?;
    let info = PrivateKeyInfoRef::from_der(der).map_err(encode_error)?;
    let doc = info
        .encrypt_with_params(params, password)
        .map_err(|e| Error::Encoding(format!("PKCS #8 encryption failed: {e}")))?;
    Ok(Zeroizing::new(doc.as_bytes().to_vec()))
}

/// Without `std` there is no operating-system RNG for the salt and IV: writing encrypted
/// PKCS #8 is unsupported (reading it works).
#[cfg(not(feature = "std"))]
pub(super) fn encrypt_pkcs8(_der: &[u8], _password: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    Err(crate::Error::Unsupported(
        "writing encrypted PKCS #8 without the std feature (no OS RNG for its salt and IV)".into(),
    ))
}

/// The SubjectPublicKeyInfo of an X.509 certificate (RFC 5280 §4.1) as an RSA public key.
pub(super) fn decode_certificate(der: &[u8]) -> Result<(PublicKeyParts, KeyAlgorithm)> {
    let context = "X.509 certificate";
    let spki = certificate_spki(der).map_err(|e| der_error(context, e))?;
    decode_spki(spki).map_err(|e| match e {
        Error::Encoding(what) => Error::Encoding(format!("{context}'s key: {what}")),
        other => other,
    })
}

/// The DER of a certificate's `subjectPublicKeyInfo`. The structure is walked as RFC 5280
/// §4.1 lays it out, every element read as one DER TLV of the tag it must have and nothing
/// allowed after the last, at each level:
///
/// ```text
/// Certificate ::= SEQUENCE { tbsCertificate TBSCertificate, signatureAlgorithm
///     AlgorithmIdentifier, signatureValue BIT STRING }
/// TBSCertificate ::= SEQUENCE { version [0] EXPLICIT Version DEFAULT v1,
///     serialNumber INTEGER, signature AlgorithmIdentifier, issuer Name, validity Validity,
///     subject Name, subjectPublicKeyInfo SubjectPublicKeyInfo,
///     issuerUniqueID [1] IMPLICIT BIT STRING OPTIONAL,
///     subjectUniqueID [2] IMPLICIT BIT STRING OPTIONAL, extensions [3] EXPLICIT OPTIONAL }
/// ```
///
/// The elements other than the key (names, validity, extensions, the signature) are taken as
/// whole TLVs and not decoded further: a certificate is read here for its key only, and
/// neither its signature nor its contents are checked (the key itself is decoded in full by
/// [`decode_spki`]).
fn certificate_spki(der: &[u8]) -> der::Result<&[u8]> {
    let mut reader = SliceReader::new(der)?;
    let spki = reader.sequence(|cert| -> der::Result<&[u8]> {
        let spki = cert.sequence(|tbs| -> der::Result<&[u8]> {
            let version = tbs.context_specific::<u8>(TagNumber(0), TagMode::Explicit)?;
            if version.is_some_and(|v| v > 2) {
                return Err(der::Error::from(Tag::Integer.value_error()));
            }
            for tag in [
                Tag::Integer,
                Tag::Sequence,
                Tag::Sequence,
                Tag::Sequence,
                Tag::Sequence,
            ] {
                tlv_of(tbs, tag)?;
            }
            let spki = tlv_of(tbs, Tag::Sequence)?;
            for (number, constructed) in [(1, false), (2, false), (3, true)] {
                let tag = Tag::ContextSpecific {
                    constructed,
                    number: TagNumber(number),
                };
                if !tbs.is_finished() && Tag::peek(tbs)? == tag {
                    tbs.tlv_bytes()?;
                }
            }
            Ok(spki)
        })?;
        tlv_of(cert, Tag::Sequence)?;
        tlv_of(cert, Tag::BitString)?;
        Ok(spki)
    })?;
    reader.finish()?;
    Ok(spki)
}

/// The next element of `reader` as a whole TLV, which must have the tag `tag`.
fn tlv_of<'a>(reader: &mut SliceReader<'a>, tag: Tag) -> der::Result<&'a [u8]> {
    Tag::peek(reader)?.assert_eq(tag)?;
    reader.tlv_bytes()
}

/// Decodes a PKCS #1 `RSAPublicKey` (RFC 8017 A.1.1).
pub(super) fn decode_pkcs1_public(der: &[u8]) -> Result<PublicKeyParts> {
    let context = "PKCS #1 RSAPublicKey";
    let key = RsaPublicKey::<IntRef<'_>>::from_der(der).map_err(|e| der_error(context, e))?;
    Ok(PublicKeyParts {
        n: unsigned(key.modulus, context, "the modulus n")?.to_vec(),
        e: unsigned(key.public_exponent, context, "the public exponent e")?.to_vec(),
    })
}

/// Decodes a `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7) holding an RSA key (RFC 3279 §2.3.1).
pub(super) fn decode_spki(der: &[u8]) -> Result<(PublicKeyParts, KeyAlgorithm)> {
    let context = "SubjectPublicKeyInfo";
    let spki = SubjectPublicKeyInfoRef::from_der(der).map_err(|e| der_error(context, e))?;
    spki_parts(&spki)
}

/// The key and the algorithm of a decoded `SubjectPublicKeyInfo`: for [`decode_spki`] and for
/// the `spki` crate's `DecodePublicKey`, which parses the structure itself.
pub(super) fn spki_parts(
    spki: &SubjectPublicKeyInfoRef<'_>,
) -> Result<(PublicKeyParts, KeyAlgorithm)> {
    let context = "SubjectPublicKeyInfo";
    let algorithm = check_algorithm(&spki.algorithm, context)?;
    let key = spki.subject_public_key.as_bytes().ok_or_else(|| {
        Error::Encoding(format!(
            "{context}: the key BIT STRING is not a whole number of bytes"
        ))
    })?;
    Ok((decode_pkcs1_public(key)?, algorithm))
}

/// Encodes a PKCS #1 `RSAPrivateKey`: version 0 with two primes, version 1 with
/// `otherPrimeInfos` for more (RFC 8017 A.1.2).
pub(super) fn encode_pkcs1_private(key: &PrivateKeyParts) -> Result<Zeroizing<Vec<u8>>> {
    let count = key.primes.len();
    if count < 2 {
        return Err(KeyError::PrimeCount { count }.into());
    }
    if key.exponents.len() != count || key.coefficients.len() != count - 1 {
        return Err(Error::Encoding(format!(
            "inconsistent private key parts: {count} primes, {} exponents and {} coefficients \
             (expected one exponent per prime and one coefficient fewer)",
            key.exponents.len(),
            key.coefficients.len()
        )));
    }
    let others = key.primes[2..]
        .iter()
        .zip(&key.exponents[2..])
        .zip(&key.coefficients[1..])
        .map(|((prime, exponent), coefficient)| {
            Ok(OtherPrimeInfo {
                prime: uint(prime, "a prime r_i")?,
                exponent: uint(exponent, "an exponent d_i")?,
                coefficient: uint(coefficient, "a coefficient t_i")?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let rsa = RsaPrivateKey {
        modulus: uint(&key.n, "the modulus n")?,
        public_exponent: uint(&key.e, "the public exponent e")?,
        private_exponent: uint(&key.d, "the private exponent d")?,
        prime1: uint(&key.primes[0], "the prime p")?,
        prime2: uint(&key.primes[1], "the prime q")?,
        exponent1: uint(&key.exponents[0], "the exponent dP")?,
        exponent2: uint(&key.exponents[1], "the exponent dQ")?,
        coefficient: uint(&key.coefficients[0], "the coefficient qInv")?,
        other_prime_infos: (!others.is_empty()).then_some(others),
    };
    to_der_secret(&rsa)
}

/// Encodes a PKCS #8 `PrivateKeyInfo`, version 0 (v1), algorithm `rsaEncryption` with NULL
/// parameters (or `id-RSASSA-PSS` with its parameters), as OpenSSL writes it.
pub(super) fn encode_pkcs8(
    key: &PrivateKeyParts,
    algorithm: &KeyAlgorithm,
) -> Result<Zeroizing<Vec<u8>>> {
    let rsa = encode_pkcs1_private(key)?;
    let octets = OctetStringRef::new(&rsa).map_err(encode_error)?;
    let params = algorithm_params(algorithm)?;
    let info = PrivateKeyInfoRef::new(algorithm_id(algorithm, params.as_deref())?, octets);
    to_der_secret(&info)
}

/// Encodes a PKCS #1 `RSAPublicKey`.
pub(super) fn encode_pkcs1_public(key: &PublicKeyParts) -> Result<Vec<u8>> {
    let rsa = RsaPublicKey {
        modulus: uint(&key.n, "the modulus n")?,
        public_exponent: uint(&key.e, "the public exponent e")?,
    };
    rsa.to_der().map_err(encode_error)
}

/// Encodes a `SubjectPublicKeyInfo` with algorithm `rsaEncryption` and NULL parameters (or
/// `id-RSASSA-PSS` with its parameters).
pub(super) fn encode_spki(key: &PublicKeyParts, algorithm: &KeyAlgorithm) -> Result<Vec<u8>> {
    let rsa = encode_pkcs1_public(key)?;
    let params = algorithm_params(algorithm)?;
    let spki = SubjectPublicKeyInfoRef {
        algorithm: algorithm_id(algorithm, params.as_deref())?,
        subject_public_key: BitStringRef::from_bytes(&rsa).map_err(encode_error)?,
    };
    spki.to_der().map_err(encode_error)
}

/// The DER of an RSA-PSS key's parameters, if it has any.
fn algorithm_params(algorithm: &KeyAlgorithm) -> Result<Option<Vec<u8>>> {
    match algorithm {
        KeyAlgorithm::RsaPss(Some(p)) => super::pss_der::encode(p).map(Some),
        _ => Ok(None),
    }
}

/// The AlgorithmIdentifier: `rsaEncryption` with NULL, or `id-RSASSA-PSS` with the
/// parameters' DER (absent for a PSS key without restrictions).
fn algorithm_id<'a>(
    algorithm: &KeyAlgorithm,
    params: Option<&'a [u8]>,
) -> Result<AlgorithmIdentifierRef<'a>> {
    Ok(match algorithm {
        KeyAlgorithm::Rsa => AlgorithmIdentifierRef {
            oid: RSA_ENCRYPTION,
            parameters: Some(AnyRef::NULL),
        },
        KeyAlgorithm::RsaPss(_) => AlgorithmIdentifierRef {
            oid: ID_RSASSA_PSS,
            parameters: params
                .map(AnyRef::from_der)
                .transpose()
                .map_err(encode_error)?,
        },
    })
}

/// Accepts `rsaEncryption` with NULL or absent parameters (RFC 3279 §2.3.1 says NULL; some
/// writers omit it), and `id-RSASSA-PSS` with absent or SEQUENCE parameters (RFC 4055 §3.1),
/// whose restrictions are decoded.
fn check_algorithm(algorithm: &AlgorithmIdentifierRef<'_>, context: &str) -> Result<KeyAlgorithm> {
    if algorithm.oid == RSA_ENCRYPTION {
        match algorithm.parameters {
            None => Ok(KeyAlgorithm::Rsa),
            Some(p) if p.is_null() => Ok(KeyAlgorithm::Rsa),
            Some(_) => Err(Error::Encoding(format!(
                "{context}: rsaEncryption parameters must be NULL or absent"
            ))),
        }
    } else if algorithm.oid == ID_RSASSA_PSS {
        match algorithm.parameters {
            None => Ok(KeyAlgorithm::RsaPss(None)),
            Some(p) if p.tag() == Tag::Sequence => {
                let der = p.to_der().map_err(encode_error)?;
                Ok(KeyAlgorithm::RsaPss(Some(super::pss_der::decode(&der)?)))
            }
            Some(_) => Err(Error::Encoding(format!(
                "{context}: RSASSA-PSS parameters must be a SEQUENCE or absent"
            ))),
        }
    } else {
        Err(Error::Encoding(format!(
            "{context}: algorithm {} is not RSA (expected rsaEncryption, {RSA_ENCRYPTION})",
            algorithm.oid
        )))
    }
}

/// Checks the leading `version` INTEGER of a SEQUENCE, so that a wrong version gets a message
/// of its own rather than a generic DER error.
fn check_version(der: &[u8], context: &str, max: u8) -> Result<()> {
    let mut reader = SliceReader::new(der).map_err(|e| der_error(context, e))?;
    let header = der::Header::decode(&mut reader).map_err(|e| der_error(context, e))?;
    if header.tag() != Tag::Sequence {
        return Err(Error::Encoding(format!(
            "{context}: expected a SEQUENCE, found {}",
            header.tag()
        )));
    }
    let version = IntRef::decode(&mut reader).map_err(|e| der_error(context, e))?;
    match version.as_bytes() {
        [v] if *v <= max => Ok(()),
        _ => Err(Error::Encoding(format!(
            "{context}: unsupported version (expected 0{})",
            if max > 0 { " or 1" } else { "" }
        ))),
    }
}

/// The magnitude of a non-negative INTEGER without leading zero bytes (zero is empty). Refuses
/// negative values and values over [`MAX_INT_BITS`], by length, before anything is copied.
fn unsigned<'a>(int: IntRef<'a>, context: &str, name: &str) -> Result<&'a [u8]> {
    let bytes = int.as_bytes();
    // DER is minimal (checked by `der`): a non-negative value has at most one leading 0x00,
    // present only when the next byte has its top bit set.
    let magnitude = match bytes {
        [first, ..] if first & 0x80 != 0 => {
            return Err(Error::Encoding(format!("{context}: {name} is negative")));
        }
        [0, rest @ ..] => rest,
        _ => bytes,
    };
    check_size(magnitude)?;
    Ok(magnitude)
}

/// [`unsigned`] copied into a buffer that is wiped on drop.
fn secret(int: IntRef<'_>, context: &str, name: &str) -> Result<Zeroizing<Vec<u8>>> {
    Ok(Zeroizing::new(unsigned(int, context, name)?.to_vec()))
}

/// Refuses a big-endian magnitude (no leading zero byte) of more than [`MAX_INT_BITS`] bits.
fn check_size(magnitude: &[u8]) -> Result<()> {
    let bits = match magnitude.first() {
        None => 0,
        Some(first) => magnitude
            .len()
            .saturating_mul(8)
            .saturating_sub(first.leading_zeros() as usize),
    };
    if bits > MAX_INT_BITS {
        return Err(KeyError::ModulusTooLarge { bits }.into());
    }
    Ok(())
}

/// A key part as an unsigned DER INTEGER (an empty slice is zero; leading zeros are dropped).
fn uint<'a>(bytes: &'a [u8], name: &str) -> Result<UintRef<'a>> {
    let start = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
    let magnitude = &bytes[start..];
    check_size(magnitude)?;
    if magnitude.is_empty() {
        // An INTEGER has at least one content byte (X.690 §8.3.1): zero is 02 01 00.
        return UintRef::new(&[0]).map_err(encode_error);
    }
    UintRef::new(magnitude).map_err(|e| Error::Encoding(format!("cannot encode {name}: {e}")))
}

/// Encodes into a buffer sized exactly beforehand and wiped on drop, so that no copy of the
/// secret is left behind by a growing `Vec`.
fn to_der_secret<T: Encode>(msg: &T) -> Result<Zeroizing<Vec<u8>>> {
    let len = usize::try_from(msg.encoded_len().map_err(encode_error)?).map_err(encode_error)?;
    let mut buf = Zeroizing::new(vec![0u8; len]);
    let written = msg.encode_to_slice(&mut buf).map_err(encode_error)?.len();
    buf.truncate(written);
    Ok(buf)
}

fn encode_error(e: der::Error) -> Error {
    Error::Encoding(format!("DER encoding failed: {e}"))
}

#[cfg(test)]
mod tests {
    use super::certificate_spki;
    use alloc::vec::Vec;

    /// One DER TLV (contents shorter than 128 bytes).
    fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
        let mut out = alloc::vec![tag, u8::try_from(content.len()).unwrap()];
        out.extend_from_slice(content);
        out
    }

    /// A certificate of the given TBS fields, with a signature algorithm and value after it.
    fn certificate(tbs_fields: &[Vec<u8>]) -> Vec<u8> {
        let tbs = tlv(0x30, &tbs_fields.concat());
        let alg = tlv(0x30, &tlv(0x06, &[0x2a, 0x03]));
        tlv(0x30, &[tbs, alg, tlv(0x03, &[0x00, 0xaa])].concat())
    }

    #[test]
    fn the_certificate_walk_finds_the_key_around_every_optional_field() {
        let spki = tlv(
            0x30,
            &[tlv(0x30, &[0x06, 0x01, 0x2a]), tlv(0x03, &[0, 1])].concat(),
        );
        let serial = tlv(0x02, &[0x01]);
        let seq = tlv(0x30, &[]);
        let v3 = tlv(0xa0, &tlv(0x02, &[0x02]));
        let issuer_uid = tlv(0x81, &[0x00]);
        let subject_uid = tlv(0x82, &[0x00]);
        let extensions = tlv(0xa3, &tlv(0x30, &[]));
        let head = |version: Option<&Vec<u8>>| {
            let mut fields: Vec<Vec<u8>> = version.into_iter().cloned().collect();
            fields.extend([&serial, &seq, &seq, &seq, &seq, &spki].map(Clone::clone));
            fields
        };
        let with = |version, tail: &[&Vec<u8>]| {
            let mut fields = head(version);
            fields.extend(tail.iter().map(|f| (*f).clone()));
            certificate(&fields)
        };
        // Version 1 (no version field) and version 3 with every optional field: the key.
        for cert in [
            with(None, &[]),
            with(Some(&v3), &[]),
            with(Some(&v3), &[&extensions]),
            with(Some(&v3), &[&issuer_uid, &subject_uid, &extensions]),
            with(Some(&v3), &[&subject_uid]),
        ] {
            assert_eq!(certificate_spki(&cert).unwrap(), spki.as_slice());
        }
        // Optional fields out of order, twice, or of another tag; a version above 3.
        let v4 = tlv(0xa0, &tlv(0x02, &[0x03]));
        for cert in [
            with(Some(&v3), &[&extensions, &issuer_uid]),
            with(Some(&v3), &[&issuer_uid, &issuer_uid]),
            with(Some(&v3), &[&tlv(0x84, &[0x00])]),
            with(Some(&v4), &[]),
        ] {
            assert!(certificate_spki(&cert).is_err());
        }
        // A field missing before the key (the key then stands where the subject should, and
        // nothing of the key's tag follows), or of the wrong tag.
        let mut short = head(None);
        short.remove(1);
        assert!(certificate_spki(&certificate(&short)).is_err());
        let mut wrong = head(None);
        wrong[0] = tlv(0x04, &[0x01]);
        assert!(certificate_spki(&certificate(&wrong)).is_err());
    }
}
