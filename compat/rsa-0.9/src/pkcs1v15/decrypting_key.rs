//! [`DecryptingKey`]: a private key for RSAES-PKCS1-v1_5.

use super::EncryptingKey;
use crate::RsaPrivateKey;

/// Decryption key for PKCS#1 v1.5 decryption as described in [RFC8017 § 7.2].
///
/// [RFC8017 § 7.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.2
#[derive(Debug, Clone)]
pub struct DecryptingKey {
    inner: RsaPrivateKey,
}

impl DecryptingKey {
    /// Create a new decrypting key from an RSA private key.
    pub fn new(key: RsaPrivateKey) -> Self {
        Self { inner: key }
    }
}

crate::pkcs1v15_impls::encryption_key_impls!(
    EncryptingKey,
    DecryptingKey,
    rng: rand_core::CryptoRngCore,
    no_rng: crate::bridge::NoRng,
    encrypt: super::encrypt,
    decrypt: super::decrypt,
);
