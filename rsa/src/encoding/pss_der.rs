//! `RSASSA-PSS-params` (RFC 4055 §3.1; RFC 8017 A.2.3), the parameters of an `id-RSASSA-PSS`
//! key's AlgorithmIdentifier, both ways:
//!
//! ```text
//! RSASSA-PSS-params ::= SEQUENCE {
//!     hashAlgorithm      [0] HashAlgorithm     DEFAULT sha1,
//!     maskGenAlgorithm   [1] MaskGenAlgorithm  DEFAULT mgf1SHA1,
//!     saltLength         [2] INTEGER           DEFAULT 20,
//!     trailerField       [3] TrailerField      DEFAULT trailerFieldBC }
//! ```
//!
//! Written as OpenSSL writes it: fields equal to their DEFAULT omitted (DER), hashes with
//! NULL parameters.

use alloc::{format, vec::Vec};
use der::asn1::ContextSpecific;
use der::asn1::{AnyRef, ObjectIdentifier};
use der::{Decode, Encode, Reader, SliceReader, Tag, TagMode, TagNumber};
use spki::AlgorithmIdentifierRef;

use super::der_error::der_error;
use crate::pss::PssKeyParams;
use crate::{Error, HashAlg, Result};

/// `id-mgf1` (RFC 8017 B.2.1).
const ID_MGF1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.8");

/// The hashes an RSA-PSS key may name (RFC 8017 A.2.4: SHA-1 and SHA-2); any other OID is
/// an unknown hash.
const PSS_HASHES: [HashAlg; 7] = HashAlg::ALL;

/// The four fields, each `None` where absent (at its DEFAULT).
struct Params<'a> {
    hash: Option<AlgorithmIdentifierRef<'a>>,
    mask_gen: Option<AlgorithmIdentifierRef<'a>>,
    salt_len: Option<u32>,
    trailer: Option<u32>,
}

impl<'a> Params<'a> {
    /// Reads the SEQUENCE: its fields in tag order, each optional, nothing after them.
    fn from_der(der: &'a [u8]) -> der::Result<Self> {
        let mut reader = SliceReader::new(der)?;
        let p = reader.sequence(|r| -> der::Result<Params<'a>> {
            Ok(Params {
                hash: r.context_specific(TagNumber(0), TagMode::Explicit)?,
                mask_gen: r.context_specific(TagNumber(1), TagMode::Explicit)?,
                salt_len: r.context_specific(TagNumber(2), TagMode::Explicit)?,
                trailer: r.context_specific(TagNumber(3), TagMode::Explicit)?,
            })
        })?;
        reader.finish()?;
        Ok(p)
    }

    /// Writes the SEQUENCE with the fields present.
    fn to_der(&self) -> der::Result<Vec<u8>> {
        fn field<T: der::EncodeValue + der::Tagged + Clone>(
            body: &mut Vec<u8>,
            number: u32,
            value: Option<&T>,
        ) -> der::Result<()> {
            if let Some(value) = value {
                ContextSpecific {
                    tag_number: TagNumber(number),
                    tag_mode: TagMode::Explicit,
                    value: value.clone(),
                }
                .encode_to_vec(body)?;
            }
            Ok(())
        }
        let mut body = Vec::new();
        field(&mut body, 0, self.hash.as_ref())?;
        field(&mut body, 1, self.mask_gen.as_ref())?;
        field(&mut body, 2, self.salt_len.as_ref())?;
        field(&mut body, 3, self.trailer.as_ref())?;
        AnyRef::new(Tag::Sequence, &body)?.to_der()
    }
}

fn bad(what: &str) -> Error {
    Error::Encoding(format!("RSASSA-PSS parameters: {what}"))
}

fn hash_of(alg: &AlgorithmIdentifierRef<'_>) -> Result<HashAlg> {
    if alg.parameters.is_some_and(|p| !p.is_null()) {
        return Err(bad("a hash's parameters must be NULL or absent"));
    }
    PSS_HASHES
        .into_iter()
        .find(|h| h.oid_content() == alg.oid.as_bytes())
        .ok_or_else(|| Error::Unsupported(format!("RSA-PSS key with hash {}", alg.oid)))
}

/// Decodes the parameters (the DER of the SEQUENCE).
pub(super) fn decode(der: &[u8]) -> Result<PssKeyParams> {
    let p = Params::from_der(der).map_err(|e| der_error("RSASSA-PSS parameters", e))?;
    let defaults = PssKeyParams::default();
    let hash = p.hash.as_ref().map_or(Ok(defaults.hash), hash_of)?;
    let mgf1_hash = match &p.mask_gen {
        None => defaults.mgf1_hash,
        Some(mg) if mg.oid == ID_MGF1 => {
            let inner = mg
                .parameters
                .ok_or_else(|| bad("MGF1 without its hash"))?
                .decode_as::<AlgorithmIdentifierRef<'_>>()
                .map_err(|e| der_error("RSASSA-PSS MGF1 hash", e))?;
            hash_of(&inner)?
        }
        Some(mg) => {
            return Err(Error::Unsupported(format!(
                "RSA-PSS key with mask generation {}",
                mg.oid
            )));
        }
    };
    if p.trailer.is_some_and(|t| t != 1) {
        return Err(bad("the trailer field must be 1 (0xbc)"));
    }
    let min_salt_len = p
        .salt_len
        .map_or(Ok(defaults.min_salt_len), usize::try_from)
        .map_err(|_| bad("salt length too large"))?;
    Ok(PssKeyParams {
        hash,
        mgf1_hash,
        min_salt_len,
    })
}

/// Encodes the parameters as OpenSSL does (DEFAULT fields omitted).
pub(super) fn encode(params: &PssKeyParams) -> Result<Vec<u8>> {
    let enc = |e: der::Error| Error::Encoding(format!("DER encoding failed: {e}"));
    let oid = |h: HashAlg| {
        if !PSS_HASHES.contains(&h) {
            return Err(Error::Unsupported(format!("RSA-PSS key with hash {h}")));
        }
        ObjectIdentifier::from_bytes(&h.oid_content())
            .map_err(|e| Error::Encoding(format!("hash OID of {h}: {e}")))
    };
    let hash_alg = |h: HashAlg| -> Result<AlgorithmIdentifierRef<'static>> {
        Ok(AlgorithmIdentifierRef {
            oid: oid(h)?,
            parameters: Some(AnyRef::NULL),
        })
    };
    let defaults = PssKeyParams::default();
    let mgf1_inner = hash_alg(params.mgf1_hash)?.to_der().map_err(enc)?;
    let p = Params {
        hash: (params.hash != defaults.hash)
            .then(|| hash_alg(params.hash))
            .transpose()?,
        mask_gen: (params.mgf1_hash != defaults.mgf1_hash)
            .then(|| -> Result<_> {
                Ok(AlgorithmIdentifierRef {
                    oid: ID_MGF1,
                    parameters: Some(AnyRef::from_der(&mgf1_inner).map_err(enc)?),
                })
            })
            .transpose()?,
        salt_len: (params.min_salt_len != defaults.min_salt_len)
            .then(|| u32::try_from(params.min_salt_len))
            .transpose()
            .map_err(|_| bad("salt length too large"))?,
        trailer: None,
    };
    p.to_der().map_err(enc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openssl_sha256_salt_32_parameters_decode_and_encode_back() {
        // `openssl genpkey -algorithm RSA-PSS -pkeyopt rsa_pss_keygen_md:sha256 -pkeyopt
        // rsa_pss_keygen_saltlen:32` (OpenSSL 3.0): [0] sha256 with NULL, [2] 32, MGF1 left
        // at its default (SHA-1).
        let der = [
            0x30, 0x16, 0xa0, 0x0f, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03,
            0x04, 0x02, 0x01, 0x05, 0x00, 0xa2, 0x03, 0x02, 0x01, 0x20,
        ];
        let p = decode(&der).unwrap();
        assert_eq!(
            p,
            PssKeyParams {
                hash: HashAlg::Sha256,
                mgf1_hash: HashAlg::Sha1,
                min_salt_len: 32
            }
        );
        assert_eq!(encode(&p).unwrap(), der);
        assert_eq!(decode(&[0x30, 0x00]).unwrap(), PssKeyParams::default());
        assert_eq!(encode(&PssKeyParams::default()).unwrap(), [0x30, 0x00]);
    }

    #[test]
    fn every_pss_hash_round_trips() {
        // The OIDs themselves are RFC 8017's (and NIST's): `HashAlg::oid_content` is checked
        // against RFC 8017's DigestInfo prefixes in `pkcs1v15::sign`.
        for hash in PSS_HASHES {
            let p = PssKeyParams {
                hash,
                mgf1_hash: hash,
                min_salt_len: hash.output_len(),
            };
            assert_eq!(decode(&encode(&p).unwrap()).unwrap(), p, "{hash}");
        }
        // A hash RFC 8017 does not name for RSA-PSS keys is refused.
        let sha3 = PssKeyParams {
            hash: HashAlg::Sha3_256,
            ..PssKeyParams::default()
        };
        assert!(matches!(encode(&sha3), Err(Error::Unsupported(_))));
    }
}
