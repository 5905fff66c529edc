//! The PSS scheme's impls that are the same in both facades, written once: one text, two API
//! generations (see `compat/shared/README.md`).

/// `SignatureScheme` for `$pss` (generic over `$g`, bounded by `$bounds`), keys of types
/// `$private` and `$public`, RNGs bounded by `$rng`, by the facade's own
/// `$pss::sign_prehash(self, rng, key, hashed)` and `$pss::verify_prehash(self, key, hashed,
/// sig)`; and `Debug` (any `$g`), as upstream prints it: the name `PSS`, `blinded`, the digest
/// as `"..."`, and the salt length.
macro_rules! pss_impls {
    (
        <$($g:ident),*> $pss:ty where [$($bounds:tt)*],
        keys: $private:ty, $public:ty,
        rng: [$($rng:tt)+] $(,)?
    ) => {
        impl<$($g),*> $crate::traits::SignatureScheme for $pss
        where
            $($bounds)*
        {
            /// Signs `hashed` (a digest computed with the scheme's hash) with a fresh salt from
            /// `rng`, then blinds the private operation.
            ///
            /// # Errors
            ///
            /// [`Error::InvalidPaddingScheme`](crate::Error::InvalidPaddingScheme) without an
            /// RNG (PSS needs a salt); [`Error::Rng`](crate::Error::Rng) if `rng` fails; the
            /// scheme's errors for a digest of the wrong length or a key too small.
            fn sign<Rng: $($rng)+>(
                self,
                rng: Option<&mut Rng>,
                priv_key: &$private,
                hashed: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>> {
                let rng = rng.ok_or($crate::Error::InvalidPaddingScheme)?;
                self.sign_prehash(rng, priv_key, hashed)
            }

            /// Verifies `sig` over `hashed` with the configured salt length.
            ///
            /// # Errors
            ///
            /// [`Error::Verification`](crate::Error::Verification) for every invalid signature.
            fn verify(self, pub_key: &$public, hashed: &[u8], sig: &[u8]) -> $crate::Result<()> {
                self.verify_prehash(pub_key, hashed, sig)
            }
        }

        impl<$($g),*> ::core::fmt::Debug for $pss {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("PSS")
                    .field("blinded", &self.blinded)
                    .field("digest", &"...")
                    .field("salt_len", &self.salt_len)
                    .finish()
            }
        }
    };
}

pub(crate) use pss_impls;
