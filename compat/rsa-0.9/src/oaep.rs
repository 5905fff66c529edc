//! Encryption and Decryption using [OAEP padding](https://datatracker.ietf.org/doc/html/rfc8017#section-7.1),
//! on rsatool-rsa's [`Oaep`](rsatool_rsa::Oaep).
//!
//! # Usage
//!
//! See [code example in the toplevel rustdoc](../index.html#oaep-encryption).

mod keys;

pub use self::keys::{DecryptingKey, EncryptingKey};

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use digest::{Digest, DynDigest};
use rand_core::CryptoRngCore;

use crate::bridge::{hash_of, hash_of_dyn};
use crate::errors::Result;
use crate::traits::PaddingScheme;
use crate::{RsaPrivateKey, RsaPublicKey};

/// Encryption and Decryption using [OAEP padding](https://datatracker.ietf.org/doc/html/rfc8017#section-7.1).
///
/// - `digest` is used to hash the label. The maximum possible plaintext length is `m = k - 2 * h_len - 2`,
///   where `k` is the size of the RSA modulus.
/// - `mgf_digest` specifies the hash function that is used in the [MGF1](https://datatracker.ietf.org/doc/html/rfc8017#appendix-B.2).
/// - `label` is optional data that can be associated with the message.
///
/// The two hash functions can, but don't need to be the same. They must be SHA-1, SHA-2 or
/// SHA-3 (rsatool-rsa's); another gives [`Error::InvalidPaddingScheme`](crate::Error).
pub struct Oaep {
    /// Digest type to use.
    pub digest: Box<dyn DynDigest + Send + Sync>,

    /// Digest to use for Mask Generation Function (MGF).
    pub mgf_digest: Box<dyn DynDigest + Send + Sync>,

    /// Optional label.
    pub label: Option<String>,
}

impl Oaep {
    /// Create a new OAEP `PaddingScheme`, using `T` as the hash function for both the default (empty) label and for MGF1.
    pub fn new<T: 'static + Digest + DynDigest + Send + Sync>() -> Self {
        Self::new_with_mgf_hash::<T, T>()
    }

    /// Create a new OAEP `PaddingScheme` with an associated `label`, using `T` as the hash function for both the label and for MGF1.
    pub fn new_with_label<T: 'static + Digest + DynDigest + Send + Sync, S: AsRef<str>>(
        label: S,
    ) -> Self {
        Self::new_with_mgf_hash_and_label::<T, T, S>(label)
    }

    /// Create a new OAEP `PaddingScheme`, using `T` as the hash function for the default (empty) label, and `U` as the hash function for MGF1.
    pub fn new_with_mgf_hash<
        T: 'static + Digest + DynDigest + Send + Sync,
        U: 'static + Digest + DynDigest + Send + Sync,
    >() -> Self {
        Self {
            digest: Box::new(<T as Digest>::new()),
            mgf_digest: Box::new(<U as Digest>::new()),
            label: None,
        }
    }

    /// Create a new OAEP `PaddingScheme` with an associated `label`, using `T` as the hash function for the label, and `U` as the hash function for MGF1.
    pub fn new_with_mgf_hash_and_label<
        T: 'static + Digest + DynDigest + Send + Sync,
        U: 'static + Digest + DynDigest + Send + Sync,
        S: AsRef<str>,
    >(
        label: S,
    ) -> Self {
        Self {
            label: Some(label.as_ref().to_string()),
            ..Self::new_with_mgf_hash::<T, U>()
        }
    }

    /// rsatool-rsa's scheme of these hashes and label.
    fn scheme(&self) -> Result<rsatool_rsa::Oaep> {
        let (hash, mgf_hash) = (hash_of_dyn(&*self.digest)?, hash_of_dyn(&*self.mgf_digest)?);
        Ok(scheme(hash, mgf_hash, self.label.as_deref()))
    }
}

/// rsatool-rsa's OAEP with `hash`, MGF1 over `mgf_hash` and `label`.
fn scheme(
    hash: rsatool_rsa::HashAlg,
    mgf_hash: rsatool_rsa::HashAlg,
    label: Option<&str>,
) -> rsatool_rsa::Oaep {
    rsatool_rsa::Oaep::new(hash)
        .with_mgf1_hash(mgf_hash)
        .with_label(label.unwrap_or_default().as_bytes())
}

/// RSAES-OAEP-ENCRYPT by rsatool-rsa with the digest types `D` (label) and `MGD` (MGF1), for
/// the typed keys.
pub(crate) fn encrypt<R: CryptoRngCore + ?Sized, D: Digest, MGD: Digest>(
    rng: &mut R,
    pub_key: &RsaPublicKey,
    msg: &[u8],
    label: Option<&str>,
) -> Result<Vec<u8>> {
    let scheme = scheme(hash_of::<D>()?, hash_of::<MGD>()?, label);
    pub_key.encrypt_with(rng, &scheme, msg)
}

/// RSAES-OAEP-DECRYPT by rsatool-rsa with the digest types `D` and `MGD`, blinded with `rng`
/// (the operating system's RNG if `None`), for the typed keys.
pub(crate) fn decrypt<R: CryptoRngCore + ?Sized, D: Digest, MGD: Digest>(
    rng: Option<&mut R>,
    priv_key: &RsaPrivateKey,
    ciphertext: &[u8],
    label: Option<&str>,
) -> Result<Vec<u8>> {
    let scheme = scheme(hash_of::<D>()?, hash_of::<MGD>()?, label);
    priv_key.decrypt_with(rng, &scheme, ciphertext)
}

impl PaddingScheme for Oaep {
    fn decrypt<Rng: CryptoRngCore>(
        self,
        rng: Option<&mut Rng>,
        priv_key: &RsaPrivateKey,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        priv_key.decrypt_with(rng, &self.scheme()?, ciphertext)
    }

    fn encrypt<Rng: CryptoRngCore>(
        self,
        rng: &mut Rng,
        pub_key: &RsaPublicKey,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        pub_key.encrypt_with(rng, &self.scheme()?, msg)
    }
}

crate::oaep_impls::oaep_debug_impl!(<> Oaep);
