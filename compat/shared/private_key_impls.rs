//! The private key's impls that are the same in both facades, written once: one text, two API
//! generations (see `compat/shared/README.md`).

/// For the private key `$private` (its public key, a `$public`, in `pubkey_components`; `d`,
/// `primes` and the `precomputed` CRT values as the accessors return them):
///
/// - `decrypt` (documented by `$decrypt_doc`: how the facade blinds without an RNG),
///   `decrypt_blinded` and `sign_with_rng`, over the facade's `PaddingScheme` and
///   `SignatureScheme`, the RNGs bounded by `$rng`;
/// - `AsRef<$public>`; `Hash` (the domain separator `$domain`, then the public key only, as
///   upstream); `ZeroizeOnDrop` (the facade's `Drop` wipes the secrets);
/// - `PrivateKeyParts`' accessors of d, the primes (`$prime`), dP, dQ (`$uint`) and qInv
///   (`$qinv`), and `$more`, the facade's other accessors.
macro_rules! private_key_impls {
    (
        $private:ty, $public:ty,
        rng: [$($rng:tt)+],
        $(#[$decrypt_doc:meta])*
        hash_domain: $domain:literal,
        parts: { uint: $uint:ty, prime: $prime:ty, qinv: $qinv:ty, $($more:tt)* } $(,)?
    ) => {
        impl $private {
            /// Decrypt the given message.
            ///
            $(#[$decrypt_doc])*
            ///
            /// # Errors
            ///
            /// As the padding scheme's decryption.
            pub fn decrypt<P: $crate::traits::PaddingScheme>(
                &self,
                padding: P,
                ciphertext: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>> {
                padding.decrypt(None::<&mut $crate::bridge::NoRng>, self, ciphertext)
            }

            /// Decrypt the given message, blinding the private operation with `rng`.
            ///
            /// # Errors
            ///
            /// As the padding scheme's decryption, and [`Error::Rng`](crate::Error::Rng) if
            /// `rng` fails.
            pub fn decrypt_blinded<R: $($rng)+, P: $crate::traits::PaddingScheme>(
                &self,
                rng: &mut R,
                padding: P,
                ciphertext: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>> {
                padding.decrypt(Some(rng), self, ciphertext)
            }

            /// Sign the given digest using the provided `rng`, which is used in the following
            /// ways depending on the [`SignatureScheme`](crate::traits::SignatureScheme):
            /// PKCS#1 v1.5 uses it for blinding, PSS for the salt and blinding.
            ///
            /// # Errors
            ///
            /// As the signature scheme's signing, and [`Error::Rng`](crate::Error::Rng) if
            /// `rng` fails.
            pub fn sign_with_rng<R: $($rng)+, S: $crate::traits::SignatureScheme>(
                &self,
                rng: &mut R,
                padding: S,
                digest_in: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>> {
                padding.sign(Some(rng), self, digest_in)
            }
        }

        impl AsRef<$public> for $private {
            fn as_ref(&self) -> &$public {
                &self.pubkey_components
            }
        }

        impl ::core::hash::Hash for $private {
            fn hash<H: ::core::hash::Hasher>(&self, state: &mut H) {
                // Domain separator for RSA private keys, then the public key only, as upstream.
                state.write($domain);
                ::core::hash::Hash::hash(&self.pubkey_components, state);
            }
        }

        impl ::zeroize::ZeroizeOnDrop for $private {}

        impl $crate::traits::PrivateKeyParts for $private {
            fn d(&self) -> &$uint {
                &self.d
            }

            fn primes(&self) -> &[$prime] {
                &self.primes
            }

            fn dp(&self) -> Option<&$uint> {
                self.precomputed.as_ref().map(|p| &p.dp)
            }

            fn dq(&self) -> Option<&$uint> {
                self.precomputed.as_ref().map(|p| &p.dq)
            }

            fn qinv(&self) -> Option<&$qinv> {
                self.precomputed.as_ref().map(|p| &p.qinv)
            }

            $($more)*
        }
    };
}

pub(crate) use private_key_impls;
