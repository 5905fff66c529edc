//! [`EncryptingKey`]: a public key for RSAES-PKCS1-v1_5.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::PublicKey;

/// A public key that encrypts with RSAES-PKCS1-v1_5 ([RFC 8017 §7.2]); see the
/// [module](crate::pkcs1v15)'s warning.
///
/// [RFC 8017 §7.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.2
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct EncryptingKey {
    pub(super) inner: PublicKey,
}

impl EncryptingKey {
    /// An encrypting key of `key`.
    #[must_use]
    pub fn new(key: PublicKey) -> Self {
        EncryptingKey { inner: key }
    }
}
