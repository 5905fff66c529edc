//! [`DecryptingKey`]: a private key for RSAES-PKCS1-v1_5 with implicit rejection.

use alloc::vec::Vec;

use rand_core::TryCryptoRng;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use zeroize::ZeroizeOnDrop;

use super::{EncryptingKey, decrypt};
use crate::bridge::NoRng;
use crate::{
    PrivateKey, Result,
    traits::{Decryptor, EncryptingKeypair, RandomizedDecryptor},
};

/// A private key that decrypts RSAES-PKCS1-v1_5 ([RFC 8017 §7.2]) with implicit rejection
/// (see [`Pkcs1v15Encrypt`](super::Pkcs1v15Encrypt)): a bad padding gives a synthetic
/// message, so `Ok` does not mean the message is authentic.
///
/// [`Decryptor::decrypt`] blinds the private operation with the operating system's RNG
/// (feature `getrandom`) or a stream keyed by the key and the ciphertext;
/// [`RandomizedDecryptor::decrypt_with_rng`] with the RNG given.
///
/// [RFC 8017 §7.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.2
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

impl Decryptor for DecryptingKey {
    /// As [`PrivateKey::pkcs1v15_decrypt`].
    fn decrypt(&self, ciphertext: &[u8]) -> Result<Vec<u8>> {
        decrypt(None::<&mut NoRng>, &self.inner, ciphertext)
    }
}

impl RandomizedDecryptor for DecryptingKey {
    /// As [`PrivateKey::pkcs1v15_decrypt_with_rng`].
    fn decrypt_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        decrypt(Some(rng), &self.inner, ciphertext)
    }
}

impl EncryptingKeypair for DecryptingKey {
    type EncryptingKey = EncryptingKey;

    fn encrypting_key(&self) -> EncryptingKey {
        EncryptingKey {
            inner: self.inner.to_public_key(),
        }
    }
}

/// The inner [`PrivateKey`] zeroizes its secrets when dropped.
impl ZeroizeOnDrop for DecryptingKey {}
