//! [`EncryptingKey`]: a public key typed by its hashes for RSAES-OAEP.

use alloc::string::{String, ToString};
use core::marker::PhantomData;

use digest::{Digest, FixedOutputReset};

use crate::RsaPublicKey;

/// Encryption key for OAEP encryption as described in [RFC8017 § 7.1].
///
/// [RFC8017 § 7.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.1
#[derive(Debug, Clone)]
pub struct EncryptingKey<D, MGD = D>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
    pub(super) inner: RsaPublicKey,
    pub(super) label: Option<String>,
    phantom: PhantomData<(D, MGD)>,
}

impl<D, MGD> EncryptingKey<D, MGD>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
    /// Create a new encrypting key from an RSA public key.
    pub fn new(key: RsaPublicKey) -> Self {
        Self {
            inner: key,
            label: None,
            phantom: PhantomData,
        }
    }

    /// Create a new encrypting key from an RSA public key using provided label
    pub fn new_with_label<S: AsRef<str>>(key: RsaPublicKey, label: S) -> Self {
        Self {
            label: Some(label.as_ref().to_string()),
            ..Self::new(key)
        }
    }
}
