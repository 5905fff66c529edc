//! The encryption traits of `rsa::traits`, the same in both API generations but for the RNG
//! trait, written once (see `compat/shared/README.md`): 0.10 bounds the RNGs by
//! `TryCryptoRng + ?Sized`, 0.9 by `CryptoRngCore + ?Sized`.

/// `RandomizedEncryptor`, `Decryptor`, `RandomizedDecryptor` and `EncryptingKeypair`, their
/// RNGs bounded by `$rng`.
macro_rules! encryption_traits {
    (rng: [$($rng:tt)+] $(,)?) => {
        /// Encrypt the message using provided random source
        pub trait RandomizedEncryptor {
            /// Encrypt the given message.
            ///
            /// # Errors
            ///
            /// The scheme's: [`Error::MessageTooLong`](crate::Error::MessageTooLong) if the
            /// message does not fit, an invalid key, [`Error::Rng`](crate::Error::Rng) if `rng`
            /// fails.
            fn encrypt_with_rng<R: $($rng)+>(
                &self,
                rng: &mut R,
                msg: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>>;
        }

        /// Decrypt the given message
        pub trait Decryptor {
            /// Decrypt the given message.
            ///
            /// # Errors
            ///
            /// [`Error::Decryption`](crate::Error::Decryption) for every ciphertext the scheme
            /// rejects.
            fn decrypt(&self, ciphertext: &[u8]) -> $crate::Result<::alloc::vec::Vec<u8>>;
        }

        /// Decrypt the given message using provided random source
        pub trait RandomizedDecryptor {
            /// Decrypt the given message (`rng` blinds the private operation).
            ///
            /// # Errors
            ///
            /// As [`Decryptor::decrypt`], and [`Error::Rng`](crate::Error::Rng) if `rng` fails.
            fn decrypt_with_rng<R: $($rng)+>(
                &self,
                rng: &mut R,
                ciphertext: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>>;
        }

        /// Encryption keypair with an associated encryption key.
        pub trait EncryptingKeypair {
            /// Encrypting key type for this keypair.
            type EncryptingKey: Clone;

            /// Get the encrypting key which can encrypt messages to be decrypted by the
            /// decryption key portion of this keypair.
            fn encrypting_key(&self) -> Self::EncryptingKey;
        }
    };
}

pub(crate) use encryption_traits;
