//! Supported padding schemes.

use alloc::vec::Vec;

use rand_core::CryptoRngCore;

use crate::errors::Result;
use crate::key::{RsaPrivateKey, RsaPublicKey};

/// Padding scheme used for encryption.
pub trait PaddingScheme {
    /// Decrypt the given message using the given private key; `rng` blinds the private
    /// operation (the operating system's RNG does without one, with the `std` feature).
    ///
    /// # Errors
    ///
    /// [`Error::Decryption`](crate::Error::Decryption) for every rejected ciphertext.
    fn decrypt<Rng: CryptoRngCore>(
        self,
        rng: Option<&mut Rng>,
        priv_key: &RsaPrivateKey,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>>;

    /// Encrypt the given message using the given public key.
    ///
    /// # Errors
    ///
    /// [`Error::MessageTooLong`](crate::Error::MessageTooLong), an invalid key,
    /// [`Error::Rng`](crate::Error::Rng).
    fn encrypt<Rng: CryptoRngCore>(
        self,
        rng: &mut Rng,
        pub_key: &RsaPublicKey,
        msg: &[u8],
    ) -> Result<Vec<u8>>;
}

/// Digital signature scheme.
pub trait SignatureScheme {
    /// Sign the given digest.
    ///
    /// # Errors
    ///
    /// [`Error::InputNotHashed`](crate::Error::InputNotHashed) for a digest of the wrong
    /// length, [`Error::MessageTooLong`](crate::Error::MessageTooLong) for a key too small.
    fn sign<Rng: CryptoRngCore>(
        self,
        rng: Option<&mut Rng>,
        priv_key: &RsaPrivateKey,
        hashed: &[u8],
    ) -> Result<Vec<u8>>;

    /// Verify a signed message.
    ///
    /// `hashed` must be the result of hashing the input using the hashing function
    /// passed in through `hash`.
    ///
    /// # Errors
    ///
    /// [`Error::Verification`](crate::Error::Verification) if the signature is invalid.
    fn verify(self, pub_key: &RsaPublicKey, hashed: &[u8], sig: &[u8]) -> Result<()>;
}
