//! The public key's `encrypt` and `verify`, the same in both facades, written once: one text,
//! two API generations (see `compat/shared/README.md`).

/// `encrypt` and `verify` of the public key `$key`, over the facade's `PaddingScheme` and
/// `SignatureScheme`; `$rng` is the facade's bound on the RNG (0.10: `TryCryptoRng + ?Sized`,
/// 0.9: `CryptoRngCore`).
macro_rules! public_key_ops {
    ($key:ty, $($rng:tt)+) => {
        impl $key {
            /// Encrypt the given message.
            ///
            /// # Errors
            ///
            /// As the padding scheme's encryption.
            pub fn encrypt<R: $($rng)+, P: crate::traits::PaddingScheme>(
                &self,
                rng: &mut R,
                padding: P,
                msg: &[u8],
            ) -> crate::errors::Result<::alloc::vec::Vec<u8>> {
                padding.encrypt(rng, self, msg)
            }

            /// Verify a signed message.
            ///
            /// `hashed` must be the result of hashing the input using the hashing function
            /// passed in through `hash`. If the message is valid `Ok(())` is returned,
            /// otherwise an `Err` indicating failure.
            ///
            /// # Errors
            ///
            /// [`Error::Verification`](crate::errors::Error::Verification) for an invalid
            /// signature (and the scheme's other errors).
            pub fn verify<S: crate::traits::SignatureScheme>(
                &self,
                scheme: S,
                hashed: &[u8],
                sig: &[u8],
            ) -> crate::errors::Result<()> {
                scheme.verify(self, hashed, sig)
            }
        }
    };
}

pub(crate) use public_key_ops;
