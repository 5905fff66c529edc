//! The OAEP impls, and the typed keys' structs and constructors, that are the same in both
//! facades, written once: one text, two API generations (see `compat/shared/README.md`).

/// `Debug` for `Oaep` (generic over `$g` in 0.10, over none in 0.9), as upstream prints it:
/// the name `OAEP`, the digests as `"..."` and the label.
macro_rules! oaep_debug_impl {
    (<$($g:ident),*> $oaep:ty) => {
        impl<$($g),*> ::core::fmt::Debug for $oaep {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("OAEP")
                    .field("digest", &"...")
                    .field("mgf_digest", &"...")
                    .field("label", &self.label)
                    .finish()
            }
        }
    };
}

/// For `$enc<D, MGD>`, holding a public key in `inner`, and `$dec<D, MGD>`, holding a private
/// one, each with its label in `label` (an `Option`; `D` hashes the label, `MGD` is MGF1's hash):
/// `RandomizedEncryptor` by `$($encrypt)::+::<R, D, MGD>(rng, key, msg, label)`; `Decryptor` and
/// `RandomizedDecryptor` by `$($decrypt)::+::<R, D, MGD>(rng, key, ciphertext, label)`, `rng` an
/// `Option` (`None` of the facade's `bridge::NoRng` when none is given); the RNGs bounded by
/// `$rng`; and `ZeroizeOnDrop` for `$dec`.
macro_rules! oaep_key_impls {
    (
        $enc:ident,
        $dec:ident,
        rng: $rng:path,
        encrypt: $($encrypt:ident)::+,
        decrypt: $($decrypt:ident)::+ $(,)?
    ) => {
        impl<D, MGD> $crate::traits::RandomizedEncryptor for $enc<D, MGD>
        where
            D: ::digest::Digest,
            MGD: ::digest::Digest + ::digest::FixedOutputReset,
        {
            /// Encrypts `msg` with this key's hashes and label, the seed from `rng`.
            fn encrypt_with_rng<R: $rng + ?Sized>(
                &self,
                rng: &mut R,
                msg: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>> {
                $($encrypt)::+::<R, D, MGD>(rng, &self.inner, msg, self.label.as_deref())
            }
        }

        impl<D, MGD> $crate::traits::Decryptor for $dec<D, MGD>
        where
            D: ::digest::Digest,
            MGD: ::digest::Digest + ::digest::FixedOutputReset,
        {
            /// Decrypts with this key's hashes and label, the private operation blinded as the
            /// facade blinds it without an RNG.
            fn decrypt(&self, ciphertext: &[u8]) -> $crate::Result<::alloc::vec::Vec<u8>> {
                let label = self.label.as_deref();
                $($decrypt)::+::<$crate::bridge::NoRng, D, MGD>(None, &self.inner, ciphertext, label)
            }
        }

        impl<D, MGD> $crate::traits::RandomizedDecryptor for $dec<D, MGD>
        where
            D: ::digest::Digest,
            MGD: ::digest::Digest + ::digest::FixedOutputReset,
        {
            /// Decrypts with this key's hashes and label, blinded with `rng`.
            fn decrypt_with_rng<R: $rng + ?Sized>(
                &self,
                rng: &mut R,
                ciphertext: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>> {
                let label = self.label.as_deref();
                $($decrypt)::+::<R, D, MGD>(Some(rng), &self.inner, ciphertext, label)
            }
        }

        /// The inner private key zeroizes its secrets when dropped.
        impl<D, MGD> ::zeroize::ZeroizeOnDrop for $dec<D, MGD>
        where
            D: ::digest::Digest,
            MGD: ::digest::Digest + ::digest::FixedOutputReset,
        {
        }
    };
}

/// The two OAEP keys, the encrypting one holding a public key and the decrypting one a private
/// key (each `$key<D, MGD = D>`: `D` hashes the label, `MGD` is MGF1's hash), from one text per
/// facade: the facade's `label` type and `PhantomData` fields (`$fields`, the same for both keys)
/// and how `new_with_label` stores its `$arg: S` (`S` bounded by `$bound`, stored as `$conv`) are
/// given once. Each key: its struct, with its attributes and `Debug` and `Clone` derived, our key
/// in `inner` and those fields, all private to the module that expands this (the facade's
/// `oaep`, whose child modules implement the keys' traits); then its constructors, each with
/// the attributes given, `new` (no label) and `new_with_label`.
macro_rules! oaep_keys {
    (
        @key $(#[$attr:meta])* $key:ident($inner:ty)
        { label: Option<$label:ty>, $($phantom:ident: $phantom_ty:ty),+ $(,)? }
        [$(#[$new:meta])*] [$(#[$with_label:meta])*] ($arg:ident: $bound:path) => $conv:expr
    ) => {
        $(#[$attr])*
        #[derive(Debug, Clone)]
        pub struct $key<D, MGD = D>
        where
            D: ::digest::Digest,
            MGD: ::digest::Digest + ::digest::FixedOutputReset,
        {
            inner: $inner,
            label: Option<$label>,
            $($phantom: $phantom_ty,)+
        }

        impl<D, MGD> $key<D, MGD>
        where
            D: ::digest::Digest,
            MGD: ::digest::Digest + ::digest::FixedOutputReset,
        {
            $(#[$new])*
            pub fn new(key: $inner) -> Self {
                Self {
                    inner: key,
                    label: None,
                    $($phantom: ::core::marker::PhantomData,)+
                }
            }

            $(#[$with_label])*
            pub fn new_with_label<S: $bound>(key: $inner, $arg: S) -> Self {
                Self {
                    label: Some($conv),
                    ..Self::new(key)
                }
            }
        }
    };

    (
        $fields:tt,
        new_with_label<S: $bound:path>($arg:ident) => $conv:expr,
        $(
            $(#[$attr:meta])*
            $key:ident($inner:ty) {
                $(#[$new:meta])* new,
                $(#[$with_label:meta])* new_with_label $(,)?
            }
        ),+ $(,)?
    ) => {
        $($crate::oaep_impls::oaep_keys!(
            @key $(#[$attr])* $key($inner) $fields
            [$(#[$new])*] [$(#[$with_label])*] ($arg: $bound) => $conv
        );)+
    };
}

pub(crate) use {oaep_debug_impl, oaep_key_impls, oaep_keys};
