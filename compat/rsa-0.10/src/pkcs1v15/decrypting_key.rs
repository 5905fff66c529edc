//! [`DecryptingKey`]: a private key for RSAES-PKCS1-v1_5 with implicit rejection.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use super::EncryptingKey;
use crate::PrivateKey;

/// A private key that decrypts RSAES-PKCS1-v1_5 ([RFC 8017 §7.2]) with implicit rejection
/// (see [`Pkcs1v15Encrypt`](super::Pkcs1v15Encrypt)): a bad padding gives a synthetic
/// message, so `Ok` does not mean the message is authentic.
///
/// [`Decryptor::decrypt`] blinds the private operation with the operating system's RNG
/// (feature `getrandom`) or a stream keyed by the key and the ciphertext;
/// [`RandomizedDecryptor::decrypt_with_rng`] with the RNG given.
///
/// [RFC 8017 §7.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.2
/// [`Decryptor::decrypt`]: crate::traits::Decryptor::decrypt
/// [`RandomizedDecryptor::decrypt_with_rng`]: crate::traits::RandomizedDecryptor::decrypt_with_rng
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct DecryptingKey {
    inner: PrivateKey,
}

impl DecryptingKey {
    /// A decrypting key of `key`.
    #[must_use]
    pub fn new(key: PrivateKey) -> Self {
        DecryptingKey { inner: key }
    }
}

crate::pkcs1v15_impls::encryption_key_impls!(
    EncryptingKey,
    DecryptingKey,
    rng: rand_core::TryCryptoRng,
    no_rng: crate::bridge::NoRng,
    encrypt: super::encrypt,
    decrypt: super::decrypt,
);
