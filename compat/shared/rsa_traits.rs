//! The padding and encryption traits of `rsa::traits`, the same in both API generations but
//! for the RNG trait and the key types, written once (see `compat/shared/README.md`): 0.10
//! bounds the RNGs by `TryCryptoRng + ?Sized`, 0.9 by `CryptoRngCore` (`+ ?Sized` for the
//! keys' traits).

/// `PaddingScheme` and `SignatureScheme` over the keys `$private` and `$public`, their RNGs
/// bounded by `$rng`; `$no_rng` says how a decryption without an RNG is blinded.
macro_rules! padding_traits {
    (
        keys: $private:ty, $public:ty,
        rng: [$($rng:tt)+],
        $(#[$no_rng:meta])* $(,)?
    ) => {
        /// Padding scheme used for encryption.
        pub trait PaddingScheme {
            /// Decrypt the given message using the given private key.
            ///
            /// If an `rng` is passed, it uses RSA blinding to help mitigate timing
            /// side-channel attacks
            $(#[$no_rng])*
            ///
            /// # Errors
            ///
            /// [`Error::Decryption`](crate::Error::Decryption) for every rejected ciphertext.
            fn decrypt<Rng: $($rng)+>(
                self,
                rng: Option<&mut Rng>,
                priv_key: &$private,
                ciphertext: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>>;

            /// Encrypt the given message using the given public key.
            ///
            /// # Errors
            ///
            /// [`Error::MessageTooLong`](crate::Error::MessageTooLong) if the message does not
            /// fit, an invalid key, [`Error::Rng`](crate::Error::Rng) if `rng` fails.
            fn encrypt<Rng: $($rng)+>(
                self,
                rng: &mut Rng,
                pub_key: &$public,
                msg: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>>;
        }

        /// Digital signature scheme.
        pub trait SignatureScheme {
            /// Sign the given digest.
            ///
            /// # Errors
            ///
            /// The scheme's: [`Error::InputNotHashed`](crate::Error::InputNotHashed) for a
            /// digest of the wrong length, [`Error::MessageTooLong`](crate::Error::MessageTooLong)
            /// for a key too small.
            fn sign<Rng: $($rng)+>(
                self,
                rng: Option<&mut Rng>,
                priv_key: &$private,
                hashed: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>>;

            /// Verify a signed message.
            ///
            /// `hashed` must be the result of hashing the input using the hashing function
            /// passed in through `hash`. If the message is valid `Ok(())` is returned, otherwise
            /// an `Err` indicating failure.
            ///
            /// # Errors
            ///
            /// [`Error::Verification`](crate::Error::Verification) for an invalid signature
            /// (and the scheme's other errors).
            fn verify(self, pub_key: &$public, hashed: &[u8], sig: &[u8]) -> $crate::Result<()>;
        }
    };
}

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

pub(crate) use {encryption_traits, padding_traits};
