//! PKCS#1 v1.5 support as described in [RFC8017 § 8.2].
//!
//! Encryption is rsatool-rsa's [`Pkcs1v15Encrypt`](rsatool_rsa::Pkcs1v15Encrypt) with explicit
//! rejection (an error for a bad padding, as 0.9 returned). Signatures take 0.9's DigestInfo
//! prefix as they are given (any hash, or none): the encoding (RFC 8017 §9.2) is built here
//! and signed by rsatool-rsa's private operation (blinded, with the fault check).
//!
//! # Usage
//!
//! See [code example in the toplevel rustdoc](../index.html#pkcs1-v15-signatures).
//!
//! [RFC8017 § 8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2

mod decrypting_key;
mod encrypting_key;
mod signature;
mod signing_key;
mod verifying_key;

pub use self::{
    decrypting_key::DecryptingKey, encrypting_key::EncryptingKey, signature::Signature,
    signing_key::SigningKey, verifying_key::VerifyingKey,
};

use alloc::vec::Vec;

use digest::Digest;
use pkcs8::AssociatedOid;
use rand_core::CryptoRngCore;
use subtle::ConstantTimeEq;

use crate::errors::{Error, Result, from_rsatool};
use crate::traits::PublicKeyParts;
use crate::{RsaPrivateKey, RsaPublicKey};

/// Encryption using PKCS#1 v1.5 padding.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub struct Pkcs1v15Encrypt;

/// rsatool-rsa's PKCS#1 v1.5 encryption, with 0.9's explicit rejection.
fn encryption() -> rsatool_rsa::Pkcs1v15Encrypt {
    rsatool_rsa::Pkcs1v15Encrypt::explicit_rejection()
}

/// RSAES-PKCS1-v1_5 encryption by rsatool-rsa.
fn encrypt<R: CryptoRngCore + ?Sized>(
    rng: &mut R,
    pub_key: &RsaPublicKey,
    msg: &[u8],
) -> Result<Vec<u8>> {
    pub_key.encrypt_with(rng, &encryption(), msg)
}

/// RSAES-PKCS1-v1_5 decryption by rsatool-rsa, blinded with `rng` (or without one as
/// [`RsaPrivateKey::decrypt`] says).
fn decrypt<R: CryptoRngCore + ?Sized>(
    rng: Option<&mut R>,
    priv_key: &RsaPrivateKey,
    ciphertext: &[u8],
) -> Result<Vec<u8>> {
    priv_key.decrypt_with(rng, &encryption(), ciphertext)
}

crate::pkcs1v15_impls::sign_padding!(
    /// `RSASSA-PKCS1-v1_5`: digital signatures using PKCS#1 v1.5 padding.
    Pkcs1v15Sign,
    /// Length of hash to use.
    hash_len,
    /// Prefix.
    prefix,
    /// Create new PKCS#1 v1.5 padding for the given digest.
    ///
    /// The digest must have an [`AssociatedOid`]. Make sure to enable the `oid`
    /// feature of the relevant digest crate.
    new,
    /// Create new PKCS#1 v1.5 padding for computing an unprefixed signature.
    ///
    /// This sets `hash_len` to `None` and uses an empty `prefix`.
    new_unprefixed,
);

impl Pkcs1v15Sign {
    /// Create new PKCS#1 v1.5 padding for computing an unprefixed signature.
    ///
    /// This sets `hash_len` to `None` and uses an empty `prefix`.
    #[deprecated(since = "0.9.0", note = "use Pkcs1v15Sign::new_unprefixed instead")]
    pub fn new_raw() -> Self {
        Self::new_unprefixed()
    }
}

crate::pkcs1v15_impls::scheme_impls!(
    Pkcs1v15Encrypt,
    Pkcs1v15Sign,
    keys: RsaPrivateKey, RsaPublicKey,
    rng: [CryptoRngCore],
);

/// The DER of DigestInfo up to the digest, for `D`'s OID and output size (RFC 8017 §9.2
/// note 1): SEQUENCE { SEQUENCE { OID, NULL }, OCTET STRING (hLen bytes) } without the digest.
pub(crate) fn digest_info_prefix<D: Digest + AssociatedOid>() -> Vec<u8> {
    rsatool_rsa::pkcs1v15::digest_info_prefix_of(D::OID.as_bytes(), <D as Digest>::output_size())
}

/// RSASSA-PKCS1-V1_5-SIGN (RFC 8017 §8.2.1) of a digest: rsatool-rsa's private operation on
/// the encoding.
///
/// # Errors
///
/// [`Error::MessageTooLong`] if the key is too small for the encoding, and the private
/// operation's.
pub(crate) fn sign<R: CryptoRngCore + ?Sized>(
    rng: Option<&mut R>,
    key: &RsaPrivateKey,
    prefix: &[u8],
    hashed: &[u8],
) -> Result<Vec<u8>> {
    let em =
        rsatool_rsa::pkcs1v15::emsa_pkcs1v15(prefix, hashed, key.size()).map_err(from_rsatool)?;
    key.private_op(rng, &em)
}

/// RSASSA-PKCS1-V1_5-VERIFY (RFC 8017 §8.2.2) of a digest: rsatool-rsa's public operation
/// (which refuses s ≥ n), and the whole encoding compared in constant time.
///
/// # Errors
///
/// [`Error::Verification`] for every invalid signature.
pub(crate) fn verify(key: &RsaPublicKey, prefix: &[u8], hashed: &[u8], sig: &[u8]) -> Result<()> {
    use rsatool_rsa::hazmat::PublicOp;
    let k = key.size();
    if sig.len() != k {
        return Err(Error::Verification);
    }
    let engine = key.engine().map_err(|_| Error::Verification)?;
    let em = engine.public_op(sig).map_err(|_| Error::Verification)?;
    let want =
        rsatool_rsa::pkcs1v15::emsa_pkcs1v15(prefix, hashed, k).map_err(|_| Error::Verification)?;
    if bool::from(em.ct_eq(&*want)) {
        Ok(())
    } else {
        Err(Error::Verification)
    }
}

/// The OIDs of the PKCS#1 v1.5 signature algorithms (RFC 8017 Appendix A.2.4) of the
/// digests 0.9 names.
mod oid {
    use const_oid::ObjectIdentifier;

    /// A digest algorithm with an associated `RSASSA-PKCS1-v1_5` signature algorithm OID.
    pub trait RsaSignatureAssociatedOid {
        /// OID of the `RSASSA-PKCS1-v1_5` signature algorithm with this digest.
        const OID: ObjectIdentifier;
    }

    /// Implements the trait for a digest type with the OID's dotted form.
    macro_rules! associated_oid {
        ($feature:literal, $ty:ty, $oid:literal) => {
            #[cfg(feature = $feature)]
            impl RsaSignatureAssociatedOid for $ty {
                const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap($oid);
            }
        };
    }

    associated_oid!("sha1", sha1::Sha1, "1.2.840.113549.1.1.5");
    associated_oid!("sha2", sha2::Sha224, "1.2.840.113549.1.1.14");
    associated_oid!("sha2", sha2::Sha256, "1.2.840.113549.1.1.11");
    associated_oid!("sha2", sha2::Sha384, "1.2.840.113549.1.1.12");
    associated_oid!("sha2", sha2::Sha512, "1.2.840.113549.1.1.13");
}

pub use oid::RsaSignatureAssociatedOid;
