//! PKCS#8 and SubjectPublicKeyInfo (pkcs8 0.10, spki 0.7), and through `pkcs1` 0.7's blanket
//! impls over them, PKCS#1, as in 0.9: the integers are read and written by the `pkcs1`
//! crate and handed to rsatool-rsa's key as they are.

use alloc::vec::Vec;

use pkcs8::der::{Decode, Encode};
use pkcs8::{Document, EncodePrivateKey, EncodePublicKey, SecretDocument};
use zeroize::Zeroizing;

use crate::bridge::uint;
use crate::public_key::check_public;
use crate::traits::PublicKeyParts;
use crate::{RsaPrivateKey, RsaPublicKey};

/// rsaEncryption with NULL parameters (RFC 8017 Appendix A.1).
fn verify_algorithm_id(algorithm: &pkcs8::AlgorithmIdentifierRef<'_>) -> pkcs8::spki::Result<()> {
    algorithm.assert_algorithm_oid(pkcs1::ALGORITHM_OID)?;
    if algorithm.parameters_any()? != pkcs8::der::asn1::Null.into() {
        return Err(pkcs8::spki::Error::KeyMalformed);
    }
    Ok(())
}

impl TryFrom<pkcs8::PrivateKeyInfo<'_>> for RsaPrivateKey {
    type Error = pkcs8::Error;

    /// A two-prime key, its CRT values checked against its primes and d by rsatool-rsa.
    fn try_from(info: pkcs8::PrivateKeyInfo<'_>) -> pkcs8::Result<Self> {
        verify_algorithm_id(&info.algorithm)?;
        let key = pkcs1::RsaPrivateKey::from_der(info.private_key)?;
        // Multi-prime keys are refused, as 0.9 does.
        if key.version() != pkcs1::Version::TwoPrime {
            return Err(pkcs1::Error::Version.into());
        }
        let secret = |x: pkcs1::UintRef<'_>| Zeroizing::new(x.as_bytes().to_vec());
        let parts = rsatool_rsa::PrivateKeyParts {
            n: key.modulus.as_bytes().to_vec(),
            e: key.public_exponent.as_bytes().to_vec(),
            d: secret(key.private_exponent),
            primes: alloc::vec![secret(key.prime1), secret(key.prime2)],
            exponents: alloc::vec![secret(key.exponent1), secret(key.exponent2)],
            coefficients: alloc::vec![secret(key.coefficient)],
        };
        check_public(&uint(&parts.n), &uint(&parts.e), None)
            .map_err(|_| pkcs8::Error::KeyMalformed)?;
        let inner = rsatool_rsa::RsaPrivateKey::from_parts_allowing_small(&parts, 0)
            .map_err(|_| pkcs8::Error::KeyMalformed)?;
        let primes = parts.primes.iter().map(|p| uint(p)).collect();
        Ok(RsaPrivateKey::from_parts(inner, uint(&parts.d), primes))
    }
}

impl TryFrom<pkcs8::SubjectPublicKeyInfoRef<'_>> for RsaPublicKey {
    type Error = pkcs8::spki::Error;

    /// A public key of at most 4096 bits ([`RsaPublicKey::new`]), as in 0.9.
    fn try_from(spki: pkcs8::SubjectPublicKeyInfoRef<'_>) -> pkcs8::spki::Result<Self> {
        verify_algorithm_id(&spki.algorithm)?;
        let bytes = spki
            .subject_public_key
            .as_bytes()
            .ok_or(pkcs8::spki::Error::KeyMalformed)?;
        let key = pkcs1::RsaPublicKey::from_der(bytes)?;
        RsaPublicKey::new(
            uint(key.modulus.as_bytes()),
            uint(key.public_exponent.as_bytes()),
        )
        .map_err(|_| pkcs8::spki::Error::KeyMalformed)
    }
}

impl EncodePrivateKey for RsaPrivateKey {
    /// PKCS#8 of a two-prime key (multi-prime keys are refused, as in 0.9).
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        let parts = self.engine().to_parts();
        let [p, q] = parts.primes.as_slice() else {
            return Err(pkcs1::Error::Version.into());
        };
        let der: Zeroizing<Vec<u8>> = Zeroizing::new(
            pkcs1::RsaPrivateKey {
                modulus: pkcs1::UintRef::new(&parts.n)?,
                public_exponent: pkcs1::UintRef::new(&parts.e)?,
                private_exponent: pkcs1::UintRef::new(&parts.d)?,
                prime1: pkcs1::UintRef::new(p)?,
                prime2: pkcs1::UintRef::new(q)?,
                exponent1: pkcs1::UintRef::new(&parts.exponents[0])?,
                exponent2: pkcs1::UintRef::new(&parts.exponents[1])?,
                coefficient: pkcs1::UintRef::new(&parts.coefficients[0])?,
                other_prime_infos: None,
            }
            .to_der()?,
        );
        pkcs8::PrivateKeyInfo::new(pkcs1::ALGORITHM_ID, &der).try_into()
    }
}

impl EncodePublicKey for RsaPublicKey {
    fn to_public_key_der(&self) -> pkcs8::spki::Result<Document> {
        let (n, e) = (self.n().to_bytes_be(), self.e().to_bytes_be());
        let der = pkcs1::RsaPublicKey {
            modulus: pkcs1::UintRef::new(&n)?,
            public_exponent: pkcs1::UintRef::new(&e)?,
        }
        .to_der()?;
        pkcs8::SubjectPublicKeyInfoRef {
            algorithm: pkcs1::ALGORITHM_ID,
            subject_public_key: pkcs8::der::asn1::BitStringRef::new(0, &der)?,
        }
        .try_into()
    }
}
