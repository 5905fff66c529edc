//! [`DecryptingKey`]: a private key typed by its hashes for RSAES-OAEP.

use alloc::string::{String, ToString};
use core::marker::PhantomData;

use digest::{Digest, FixedOutputReset};

use super::EncryptingKey;
use crate::RsaPrivateKey;

/// Decryption key for OAEP decryption as described in [RFC8017 § 7.1].
///
/// [RFC8017 § 7.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.1
#[derive(Debug, Clone)]
pub struct DecryptingKey<D, MGD = D>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
    inner: RsaPrivateKey,
    label: Option<String>,
    phantom: PhantomData<(D, MGD)>,
}

impl<D, MGD> DecryptingKey<D, MGD>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
    /// Create a new decrypting key from an RSA private key.
    pub fn new(key: RsaPrivateKey) -> Self {
        Self {
            inner: key,
            label: None,
            phantom: PhantomData,
        }
    }

    /// Create a new decrypting key from an RSA private key using provided label
    pub fn new_with_label<S: AsRef<str>>(key: RsaPrivateKey, label: S) -> Self {
        Self {
            label: Some(label.as_ref().to_string()),
            ..Self::new(key)
        }
    }
}

crate::oaep_impls::oaep_key_impls!(
    EncryptingKey,
    DecryptingKey,
    rng: rand_core::CryptoRngCore,
    encrypt: super::encrypt,
    decrypt: super::decrypt,
);
