//! The PKCS #1 v1.5 trait impls that are the same in both facades, written once: one text,
//! two API generations (see `compat/shared/README.md`). Each facade's `pkcs1v15` module
//! expands them over its own `encrypt`, `decrypt`, `sign` and `verify` (rsatool-rsa's scheme
//! behind that facade's types and errors) and its own traits.

/// `PaddingScheme for $encrypt_padding` and `SignatureScheme for $sign_padding` (with its
/// `check_len`), by the calling module's `encrypt(rng, key, msg)`,
/// `decrypt(rng, key, ciphertext)`, `sign(rng, key, prefix, hashed)` and
/// `verify(key, prefix, hashed, sig)`; keys of types `$private` and `$public`, RNGs bounded by
/// `$rng`.
macro_rules! scheme_impls {
    (
        $encrypt_padding:ident,
        $sign_padding:ident,
        keys: $private:ty, $public:ty,
        rng: [$($rng:tt)+] $(,)?
    ) => {
        impl $crate::traits::PaddingScheme for $encrypt_padding {
            fn decrypt<Rng: $($rng)+>(
                self,
                rng: Option<&mut Rng>,
                priv_key: &$private,
                ciphertext: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>> {
                decrypt(rng, priv_key, ciphertext)
            }

            fn encrypt<Rng: $($rng)+>(
                self,
                rng: &mut Rng,
                pub_key: &$public,
                msg: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>> {
                encrypt(rng, pub_key, msg)
            }
        }

        impl $sign_padding {
            /// `Err(InputNotHashed)` unless `hashed` has the hash's length (any, unprefixed).
            fn check_len(&self, hashed: &[u8]) -> $crate::Result<()> {
                match self.hash_len {
                    Some(len) if len != hashed.len() => Err($crate::Error::InputNotHashed),
                    _ => Ok(()),
                }
            }
        }

        impl $crate::traits::SignatureScheme for $sign_padding {
            /// Signs `hashed`, blinded with `rng` (or, without one, as the facade's decryption
            /// is).
            ///
            /// # Errors
            ///
            /// [`Error::InputNotHashed`](crate::Error::InputNotHashed) if `hashed` is not
            /// `hash_len` bytes; [`Error::MessageTooLong`](crate::Error::MessageTooLong) if the
            /// key is too small for T; [`Error::Rng`](crate::Error::Rng) if `rng` fails;
            /// [`Error::Internal`](crate::Error::Internal) if the private operation fails its
            /// check.
            fn sign<Rng: $($rng)+>(
                self,
                rng: Option<&mut Rng>,
                priv_key: &$private,
                hashed: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>> {
                self.check_len(hashed)?;
                sign(rng, priv_key, &self.prefix, hashed)
            }

            /// Verifies `sig` over `hashed`.
            ///
            /// # Errors
            ///
            /// [`Error::InputNotHashed`](crate::Error::InputNotHashed) if `hashed` is not
            /// `hash_len` bytes; [`Error::Verification`](crate::Error::Verification) for every
            /// invalid signature.
            fn verify(self, pub_key: &$public, hashed: &[u8], sig: &[u8]) -> $crate::Result<()> {
                self.check_len(hashed)?;
                verify(pub_key, &self.prefix, hashed, sig)
            }
        }
    };
}

/// For `$enc`, holding a public key in `inner`, and `$dec`, holding a private one:
/// `RandomizedEncryptor` by `$encrypt(rng, key, msg)`; `Decryptor` and `RandomizedDecryptor` by
/// `$decrypt(rng, key, ciphertext)`, `rng` an `Option` (`None` of `$no_rng` when none is
/// given); the RNGs bounded by `$rng`; `EncryptingKeypair`; and `ZeroizeOnDrop` for `$dec`.
macro_rules! encryption_key_impls {
    (
        $enc:ident,
        $dec:ident,
        rng: $rng:path,
        no_rng: $no_rng:ty,
        encrypt: $encrypt:path,
        decrypt: $decrypt:path $(,)?
    ) => {
        impl $crate::traits::RandomizedEncryptor for $enc {
            fn encrypt_with_rng<R: $rng + ?Sized>(
                &self,
                rng: &mut R,
                msg: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>> {
                $encrypt(rng, &self.inner, msg)
            }
        }

        impl $crate::traits::Decryptor for $dec {
            fn decrypt(&self, ciphertext: &[u8]) -> $crate::Result<::alloc::vec::Vec<u8>> {
                $decrypt(None::<&mut $no_rng>, &self.inner, ciphertext)
            }
        }

        impl $crate::traits::RandomizedDecryptor for $dec {
            fn decrypt_with_rng<R: $rng + ?Sized>(
                &self,
                rng: &mut R,
                ciphertext: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>> {
                $decrypt(Some(rng), &self.inner, ciphertext)
            }
        }

        impl $crate::traits::EncryptingKeypair for $dec {
            type EncryptingKey = $enc;

            fn encrypting_key(&self) -> $enc {
                $enc::new(self.inner.to_public_key())
            }
        }

        /// The inner private key zeroizes its secrets when dropped.
        impl ::zeroize::ZeroizeOnDrop for $dec {}
    };
}

pub(crate) use {encryption_key_impls, scheme_impls};
