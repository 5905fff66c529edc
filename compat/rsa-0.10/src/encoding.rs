//! PKCS #1 and PKCS #8 / SubjectPublicKeyInfo encodings of the keys, through the RustCrypto
//! formats crates' traits, as upstream: two-prime keys only, the same errors.

use crypto_bigint::BoxedUint;
use pkcs1::der::Decode;
use pkcs8::der::asn1::OctetStringRef;
use pkcs8::{Document, EncodePrivateKey, EncodePublicKey, ObjectIdentifier, SecretDocument};
use zeroize::Zeroizing;

use crate::bridge::be_bytes;
use crate::traits::{PrivateKeyParts, PublicKeyParts};
use crate::{PrivateKey, PublicKey};

/// ObjectID for the RSASSA-PSS. See <https://datatracker.ietf.org/doc/html/rfc8017#appendix-A.2.3>
pub const ID_RSASSA_PSS: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.10");

/// The algorithm check of the PKCS #1 v1.5 keys' `TryFrom`: `rsaEncryption` only.
#[cfg(all(feature = "encoding", feature = "pkcs1v15"))]
pub(crate) fn assert_rsa_encryption(
    algorithm: &spki::AlgorithmIdentifierRef<'_>,
) -> spki::Result<()> {
    algorithm
        .assert_algorithm_oid(pkcs1::ALGORITHM_OID)
        .map(drop)
}

/// The algorithm check of the PSS verifying key's `TryFrom`: `rsaEncryption` or
/// `id-RSASSA-PSS`.
#[cfg(feature = "encoding")]
pub(crate) fn assert_rsa_or_pss(algorithm: &spki::AlgorithmIdentifierRef<'_>) -> spki::Result<()> {
    let oid = algorithm.oid;
    if oid != ID_RSASSA_PSS && oid != pkcs1::ALGORITHM_OID {
        return Err(spki::Error::OidUnknown { oid });
    }
    Ok(())
}

/// An encoded integer as a `BoxedUint` of its encoded width (upstream's precision).
fn uint_from_slice(data: &[u8]) -> pkcs1::Result<BoxedUint> {
    let bits = u32::try_from(data.len())
        .ok()
        .and_then(|l| l.checked_mul(8))
        .ok_or(pkcs1::Error::KeyMalformed)?;
    BoxedUint::from_be_slice(data, bits).map_err(|_| pkcs1::Error::KeyMalformed)
}

impl pkcs1::DecodeRsaPrivateKey for PrivateKey {
    fn from_pkcs1_der(bytes: &[u8]) -> pkcs1::Result<Self> {
        pkcs1::RsaPrivateKeyRef::from_der(bytes)?.try_into()
    }
}

impl pkcs1::DecodeRsaPublicKey for PublicKey {
    fn from_pkcs1_der(bytes: &[u8]) -> pkcs1::Result<Self> {
        pkcs1::RsaPublicKeyRef::from_der(bytes)?.try_into()
    }
}

impl TryFrom<pkcs1::RsaPrivateKeyRef<'_>> for PrivateKey {
    type Error = pkcs1::Error;

    fn try_from(pkcs1_key: pkcs1::RsaPrivateKeyRef<'_>) -> pkcs1::Result<PrivateKey> {
        // Multi-prime keys are not read (as upstream).
        if pkcs1_key.version() != pkcs1::Version::TwoPrime {
            return Err(pkcs1::Error::Version);
        }
        let n = uint_from_slice(pkcs1_key.modulus.as_bytes())?;
        let width = n.bits_precision();
        let e = uint_from_slice(pkcs1_key.public_exponent.as_bytes())?;
        let at_width =
            |x: &[u8]| BoxedUint::from_be_slice(x, width).map_err(|_| pkcs1::Error::KeyMalformed);
        let d = at_width(pkcs1_key.private_exponent.as_bytes())?;
        let primes = alloc::vec![
            at_width(pkcs1_key.prime1.as_bytes())?,
            at_width(pkcs1_key.prime2.as_bytes())?,
        ];
        PrivateKey::from_components(n, e, d, primes).map_err(|_| pkcs1::Error::KeyMalformed)
    }
}

impl TryFrom<pkcs1::RsaPublicKeyRef<'_>> for PublicKey {
    type Error = pkcs1::Error;

    fn try_from(pkcs1_key: pkcs1::RsaPublicKeyRef<'_>) -> pkcs1::Result<Self> {
        let n = uint_from_slice(pkcs1_key.modulus.as_bytes())?;
        let e = uint_from_slice(pkcs1_key.public_exponent.as_bytes())?;
        PublicKey::new(n, e).map_err(|_| pkcs1::Error::KeyMalformed)
    }
}

impl pkcs1::EncodeRsaPrivateKey for PrivateKey {
    fn to_pkcs1_der(&self) -> pkcs1::Result<SecretDocument> {
        if self.primes().len() > 2 {
            return Err(pkcs1::Error::Crypto);
        }
        let parts = self.engine().map_err(|_| pkcs1::Error::Crypto)?.to_parts();
        let modulus = be_bytes(self.n());
        let public_exponent = be_bytes(self.e());
        let d = Zeroizing::new(parts.d.to_vec());
        let p = be_bytes(&self.primes()[0]);
        let q = be_bytes(&self.primes()[1]);
        Ok(SecretDocument::encode_msg(&pkcs1::RsaPrivateKey {
            modulus: uint(&modulus)?,
            public_exponent: uint(&public_exponent)?,
            private_exponent: uint(&d)?,
            prime1: uint(&p)?,
            prime2: uint(&q)?,
            exponent1: uint(&parts.exponents[0])?,
            exponent2: uint(&parts.exponents[1])?,
            coefficient: uint(&parts.coefficients[0])?,
            other_prime_infos: None,
        })?)
    }
}

impl pkcs1::EncodeRsaPublicKey for PublicKey {
    fn to_pkcs1_der(&self) -> pkcs1::Result<Document> {
        let modulus = be_bytes(self.n());
        let public_exponent = be_bytes(self.e());
        Ok(Document::encode_msg(&pkcs1::RsaPublicKeyRef {
            modulus: pkcs1::UintRef::new(&modulus)?,
            public_exponent: pkcs1::UintRef::new(&public_exponent)?,
        })?)
    }
}

/// The algorithm identifiers a key may carry: rsaEncryption with NULL parameters, or
/// id-RSASSA-PSS without parameters (as upstream).
pub(crate) fn verify_algorithm_id(
    algorithm: &spki::AlgorithmIdentifierRef<'_>,
) -> spki::Result<()> {
    match algorithm.oid {
        pkcs1::ALGORITHM_OID => {
            if algorithm.parameters_any()? != pkcs8::der::asn1::Null.into() {
                return Err(spki::Error::KeyMalformed);
            }
        }
        ID_RSASSA_PSS => {
            if algorithm.parameters.is_some() {
                return Err(spki::Error::KeyMalformed);
            }
        }
        _ => return Err(spki::Error::OidUnknown { oid: algorithm.oid }),
    }
    Ok(())
}

impl TryFrom<pkcs8::PrivateKeyInfoRef<'_>> for PrivateKey {
    type Error = pkcs8::Error;

    fn try_from(private_key_info: pkcs8::PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        verify_algorithm_id(&private_key_info.algorithm)?;
        pkcs1::RsaPrivateKeyRef::try_from(private_key_info.private_key)
            .and_then(TryInto::try_into)
            .map_err(pkcs1_error_to_pkcs8)
    }
}

impl TryFrom<pkcs8::SubjectPublicKeyInfoRef<'_>> for PublicKey {
    type Error = spki::Error;

    fn try_from(spki: pkcs8::SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        verify_algorithm_id(&spki.algorithm)?;
        let bytes = spki
            .subject_public_key
            .as_bytes()
            .ok_or(spki::Error::KeyMalformed)?;
        pkcs1::RsaPublicKeyRef::try_from(bytes)
            .and_then(TryInto::try_into)
            .map_err(pkcs1_error_to_spki)
    }
}

impl EncodePrivateKey for PrivateKey {
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        let private_key =
            pkcs1::EncodeRsaPrivateKey::to_pkcs1_der(self).map_err(pkcs1_error_to_pkcs8)?;
        pkcs8::PrivateKeyInfoRef::new(
            pkcs1::ALGORITHM_ID,
            OctetStringRef::new(private_key.as_bytes())?,
        )
        .try_into()
    }
}

impl EncodePublicKey for PublicKey {
    fn to_public_key_der(&self) -> spki::Result<Document> {
        let subject_public_key =
            pkcs1::EncodeRsaPublicKey::to_pkcs1_der(self).map_err(pkcs1_error_to_spki)?;
        pkcs8::SubjectPublicKeyInfoRef {
            algorithm: pkcs1::ALGORITHM_ID,
            subject_public_key: pkcs8::der::asn1::BitStringRef::new(
                0,
                subject_public_key.as_ref(),
            )?,
        }
        .try_into()
    }
}

fn uint(x: &[u8]) -> pkcs1::Result<pkcs1::UintRef<'_>> {
    Ok(pkcs1::UintRef::new(x)?)
}

fn pkcs1_error_to_pkcs8(error: pkcs1::Error) -> pkcs8::Error {
    match error {
        pkcs1::Error::Asn1(e) => pkcs8::Error::Asn1(e),
        _ => pkcs8::KeyError::Invalid.into(),
    }
}

fn pkcs1_error_to_spki(error: pkcs1::Error) -> spki::Error {
    match error {
        pkcs1::Error::Asn1(e) => spki::Error::Asn1(e),
        _ => spki::Error::KeyMalformed,
    }
}
