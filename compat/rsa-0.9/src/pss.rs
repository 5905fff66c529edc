//! Support for the [Probabilistic Signature Scheme] (PSS) a.k.a. RSASSA-PSS, on rsatool-rsa's
//! [`Pss`](rsatool_rsa::Pss) with the salt length exact, as 0.9 verifies it.
//!
//! Designed by Mihir Bellare and Phillip Rogaway. Specified in [RFC8017 § 8.1].
//!
//! # Usage
//!
//! See [code example in the toplevel rustdoc](../index.html#pss-signatures).
//!
//! [Probabilistic Signature Scheme]: https://en.wikipedia.org/wiki/Probabilistic_signature_scheme
//! [RFC8017 § 8.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.1

mod signature;
mod signing_key;
mod verifying_key;

pub(crate) use self::signature::{hex, signature_type};
pub use self::{
    signature::Signature,
    signing_key::{BlindedSigningKey, SigningKey},
    verifying_key::VerifyingKey,
};

use alloc::boxed::Box;

use const_oid::{AssociatedOid, ObjectIdentifier};
use digest::{Digest, DynDigest};
use pkcs1::RsaPssParams;
use pkcs8::spki::AlgorithmIdentifierOwned;
use pkcs8::spki::der::Any;
use rand_core::CryptoRngCore;
use rsatool_rsa::{HashAlg, SaltLen};

use crate::bridge::{hash_of, hash_of_dyn};
use crate::{RsaPrivateKey, RsaPublicKey};

/// Digital signatures using PSS padding.
pub struct Pss {
    /// Create blinded signatures (here every private operation is blinded: no effect).
    pub blinded: bool,

    /// Digest type to use.
    pub digest: Box<dyn DynDigest + Send + Sync>,

    /// Salt length.
    pub salt_len: usize,
}

impl Pss {
    /// New PSS padding for the given digest.
    /// Digest output size is used as a salt length.
    pub fn new<T: 'static + Digest + DynDigest + Send + Sync>() -> Self {
        Self::new_with_salt::<T>(<T as Digest>::output_size())
    }

    /// New PSS padding for the given digest with a salt value of the given length.
    pub fn new_with_salt<T: 'static + Digest + DynDigest + Send + Sync>(len: usize) -> Self {
        Self {
            blinded: false,
            digest: Box::new(<T as Digest>::new()),
            salt_len: len,
        }
    }

    /// New PSS padding for blinded signatures (RSA-BSSA) for the given digest.
    /// Digest output size is used as a salt length.
    pub fn new_blinded<T: 'static + Digest + DynDigest + Send + Sync>() -> Self {
        Self::new_blinded_with_salt::<T>(<T as Digest>::output_size())
    }

    /// New PSS padding for blinded signatures (RSA-BSSA) for the given digest
    /// with a salt value of the given length.
    pub fn new_blinded_with_salt<T: 'static + Digest + DynDigest + Send + Sync>(
        len: usize,
    ) -> Self {
        Self {
            blinded: true,
            ..Self::new_with_salt::<T>(len)
        }
    }
}

/// rsatool-rsa's PSS with `hash` (message and MGF1) and exactly `salt_len` bytes of salt.
pub(crate) fn scheme(hash: HashAlg, salt_len: usize) -> rsatool_rsa::Pss {
    rsatool_rsa::Pss::new(hash).with_salt_len(SaltLen::Exact(salt_len))
}

crate::pss_impls::pss_impls!(
    <> Pss where [],
    keys: RsaPrivateKey, RsaPublicKey,
    rng: [CryptoRngCore],
    // The salt, and the blinding.
    sign: |pss, rng, priv_key, hashed| {
        let scheme = scheme(hash_of_dyn(&*pss.digest)?, pss.salt_len);
        priv_key.sign_with(Some(rng), &scheme, hashed)
    },
    verify: |pss, pub_key, hashed, sig| {
        let scheme = scheme(hash_of_dyn(&*pss.digest)?, pss.salt_len);
        pub_key.verify_with(&scheme, hashed, sig)
    },
);

/// The AlgorithmIdentifier of RSASSA-PSS with `D` (as hash and MGF1 hash) and a salt of `D`'s
/// output size (RFC 4055 §3.1).
///
/// # Errors
///
/// If the parameters do not encode.
pub fn get_default_pss_signature_algo_id<D>() -> pkcs8::spki::Result<AlgorithmIdentifierOwned>
where
    D: Digest + AssociatedOid,
{
    // Digest output sizes are at most 64 bytes.
    #[allow(clippy::cast_possible_truncation)]
    get_pss_signature_algo_id::<D>(<D as Digest>::output_size() as u8)
}

/// The AlgorithmIdentifier of RSASSA-PSS with `D` and `salt_len`.
pub(crate) fn get_pss_signature_algo_id<D>(
    salt_len: u8,
) -> pkcs8::spki::Result<AlgorithmIdentifierOwned>
where
    D: Digest + AssociatedOid,
{
    const ID_RSASSA_PSS: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.10");
    Ok(AlgorithmIdentifierOwned {
        oid: ID_RSASSA_PSS,
        parameters: Some(Any::encode_from(&RsaPssParams::new::<D>(salt_len))?),
    })
}

/// Signs a digest with `D` and `salt_len`, blinded with `rng`.
pub(crate) fn sign_digest<D: Digest, R: CryptoRngCore + ?Sized>(
    key: &RsaPrivateKey,
    rng: &mut R,
    hashed: &[u8],
    salt_len: usize,
) -> ::signature::Result<Signature> {
    let sig = key.sign_with(Some(rng), &scheme(hash_of::<D>()?, salt_len), hashed)?;
    Signature::try_from(sig.as_slice())
}
