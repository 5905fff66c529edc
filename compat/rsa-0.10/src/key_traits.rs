//! The traits of 0.10's keys typed by their hash that only this facade has (`signature` 3's
//! signers and verifiers, `Generate`, `PartialEq`, serde), written once for the PKCS #1 v1.5
//! and the PSS keys; the ones 0.9 has too are in `compat/shared/typed_key.rs`. The serde of
//! [`PrivateKey`](crate::PrivateKey) and [`PublicKey`](crate::PublicKey) is the typed keys'.
//!
//! A signing key has `fn sign_hash(&self, rng: Option<&mut R>, hashed: &[u8])` (the RNG-less
//! signers pass `None`), a verifying key `fn verify_hash(&self, hashed: &[u8], signature)`;
//! both hold their key in `inner` and the scheme's one parameter in a field `$field`.

/// `D` of the concatenation of `parts`.
pub(crate) fn hash_parts<D: digest::Digest>(parts: &[&[u8]]) -> digest::Output<D> {
    let mut digest = D::new();
    for part in parts {
        digest::Digest::update(&mut digest, part);
    }
    digest.finalize()
}

/// For the signing key `$key<D>`: `Generate` (`D` bounded by `$generate`, making the key with
/// `new`), the randomized signers (`D` bounded by `$randomized`, the digest signer's by
/// `$digest`), under `#[$unrandomized_cfg]` the RNG-less `Signer`, `MultipartSigner` and
/// `PrehashSigner` (`D` bounded by `$unrandomized`), and `PartialEq` and serde.
macro_rules! signing_key_impls {
    (
        $key:ident { $field:ident },
        $(#[$generate_doc:meta])* generate: [$($generate:tt)+],
        randomized: [$($randomized:tt)+],
        randomized_digest: [$($digest:tt)+],
        #[$unrandomized_cfg:meta] unrandomized: [$($unrandomized:tt)+],
        $(#[$de_doc:meta])* deserialize: [$($de:tt)+] $(,)?
    ) => {
        $(#[$generate_doc])*
        impl<D> $crate::Generate for $key<D>
        where
            D: $($generate)+,
        {
            fn try_generate_from_rng<R: ::rand_core::TryCryptoRng + ?Sized>(
                rng: &mut R,
            ) -> ::core::result::Result<Self, R::Error> {
                $crate::PrivateKey::try_generate_from_rng(rng).map(Self::new)
            }
        }

        impl<D> ::signature::RandomizedDigestSigner<D, Signature> for $key<D>
        where
            D: $($digest)+,
        {
            fn try_sign_digest_with_rng<
                R: ::rand_core::TryCryptoRng + ?Sized,
                F: Fn(&mut D) -> ::signature::Result<()>,
            >(
                &self,
                rng: &mut R,
                f: F,
            ) -> ::signature::Result<Signature> {
                let mut digest = <D as ::digest::Digest>::new();
                f(&mut digest)?;
                self.sign_hash(Some(rng), &::digest::Digest::finalize(digest))
            }
        }

        impl<D> ::signature::RandomizedSigner<Signature> for $key<D>
        where
            D: $($randomized)+,
        {
            fn try_sign_with_rng<R: ::rand_core::TryCryptoRng + ?Sized>(
                &self,
                rng: &mut R,
                msg: &[u8],
            ) -> ::signature::Result<Signature> {
                ::signature::RandomizedMultipartSigner::try_multipart_sign_with_rng(
                    self,
                    rng,
                    &[msg],
                )
            }
        }

        impl<D> ::signature::RandomizedMultipartSigner<Signature> for $key<D>
        where
            D: $($randomized)+,
        {
            fn try_multipart_sign_with_rng<R: ::rand_core::TryCryptoRng + ?Sized>(
                &self,
                rng: &mut R,
                msg: &[&[u8]],
            ) -> ::signature::Result<Signature> {
                self.sign_hash(Some(rng), &$crate::key_traits::hash_parts::<D>(msg))
            }
        }

        #[$unrandomized_cfg]
        impl<D> ::signature::hazmat::PrehashSigner<Signature> for $key<D>
        where
            D: $($unrandomized)+,
        {
            fn sign_prehash(&self, prehash: &[u8]) -> ::signature::Result<Signature> {
                self.sign_hash(None::<&mut $crate::bridge::NoRng>, prehash)
            }
        }

        #[$unrandomized_cfg]
        impl<D> ::signature::Signer<Signature> for $key<D>
        where
            D: $($unrandomized)+,
        {
            fn try_sign(&self, msg: &[u8]) -> ::signature::Result<Signature> {
                ::signature::MultipartSigner::try_multipart_sign(self, &[msg])
            }
        }

        #[$unrandomized_cfg]
        impl<D> ::signature::MultipartSigner<Signature> for $key<D>
        where
            D: $($unrandomized)+,
        {
            fn try_multipart_sign(&self, msg: &[&[u8]]) -> ::signature::Result<Signature> {
                let hashed = $crate::key_traits::hash_parts::<D>(msg);
                self.sign_hash(None::<&mut $crate::bridge::NoRng>, &hashed)
            }
        }

        $crate::key_traits::typed_key_eq!($key { $field });
        $crate::key_traits::der_serde_impls!(private $key<D> $(#[$de_doc])* [$($de)+]);
    };
}

/// For the verifying key `$key<D>`: `DigestVerifier` (`D` bounded by `$digest`),
/// `PrehashVerifier` and `Verifier` (`D` bounded by `$bounds`), and `PartialEq` and serde.
macro_rules! verifying_key_impls {
    (
        $key:ident { $field:ident },
        digest: [$($digest:tt)+],
        [$($bounds:tt)+],
        $(#[$de_doc:meta])* deserialize: [$($de:tt)+] $(,)?
    ) => {
        impl<D> ::signature::DigestVerifier<D, Signature> for $key<D>
        where
            D: $($digest)+,
        {
            fn verify_digest<F: Fn(&mut D) -> ::signature::Result<()>>(
                &self,
                f: F,
                signature: &Signature,
            ) -> ::signature::Result<()> {
                let mut digest = <D as ::digest::Digest>::new();
                f(&mut digest)?;
                self.verify_hash(&::digest::Digest::finalize(digest), signature)
            }
        }

        /// Verifies over `prehash` of any length (a wrong length simply does not verify).
        impl<D> ::signature::hazmat::PrehashVerifier<Signature> for $key<D>
        where
            D: $($bounds)+,
        {
            fn verify_prehash(
                &self,
                prehash: &[u8],
                signature: &Signature,
            ) -> ::signature::Result<()> {
                self.verify_hash(prehash, signature)
            }
        }

        impl<D> ::signature::Verifier<Signature> for $key<D>
        where
            D: $($bounds)+,
        {
            fn verify(&self, msg: &[u8], signature: &Signature) -> ::signature::Result<()> {
                self.verify_hash(&<D as ::digest::Digest>::digest(msg), signature)
            }
        }

        $crate::key_traits::typed_key_eq!($key { $field });
        $crate::key_traits::der_serde_impls!(public $key<D> $(#[$de_doc])* [$($de)+]);
    };
}

/// `PartialEq` of a typed key: the key and `$field`.
macro_rules! typed_key_eq {
    ($key:ident { $field:ident }) => {
        impl<D> PartialEq for $key<D>
        where
            D: ::digest::Digest,
        {
            fn eq(&self, other: &Self) -> bool {
                self.inner == other.inner && self.$field == other.$field
            }
        }
    };
}

/// With the feature `serde`, `Serialize` (the key's DER, PKCS #8 for a `private` key and
/// SubjectPublicKeyInfo for a `public` one, as `serdect` writes bytes) and `Deserialize` (the
/// same DER) of `PrivateKey` and `PublicKey` and of the keys typed by a hash `D` (their
/// `Deserialize` with `D` bounded by `$de`).
macro_rules! der_serde_impls {
    (private $($rest:tt)*) => {
        $crate::key_traits::der_serde_impls!(
            @ "PKCS #8",
            ::pkcs8::EncodePrivateKey::to_pkcs8_der,
            ::pkcs8::DecodePrivateKey::from_pkcs8_der,
            $($rest)*
        );
    };
    (public $($rest:tt)*) => {
        $crate::key_traits::der_serde_impls!(
            @ "SubjectPublicKeyInfo",
            ::pkcs8::EncodePublicKey::to_public_key_der,
            ::pkcs8::DecodePublicKey::from_public_key_der,
            $($rest)*
        );
    };
    (
        @ $format:literal,
        $encode:path,
        $decode:path,
        $key:ident $(<$d:ident> $(#[$de_doc:meta])* [$($de:tt)+])? $(,)?
    ) => {
        #[doc = concat!(
            "The key as ", $format, " DER: lower-case hexadecimal in human-readable formats, ",
            "bytes in others."
        )]
        #[cfg(feature = "serde")]
        impl$(<$d>)? ::serdect::serde::Serialize for $key$(<$d>)?
        where
            $($d: ::digest::Digest,)?
        {
            fn serialize<S>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error>
            where
                S: ::serdect::serde::Serializer,
            {
                let der = $encode(self).map_err(::serdect::serde::ser::Error::custom)?;
                ::serdect::slice::serialize_hex_lower_or_bin(&der.as_bytes(), serializer)
            }
        }

        $($(#[$de_doc])*)?
        #[cfg(feature = "serde")]
        impl<'de $(, $d)?> ::serdect::serde::Deserialize<'de> for $key$(<$d>)?
        where
            $($d: $($de)+,)?
        {
            fn deserialize<De>(deserializer: De) -> ::core::result::Result<Self, De::Error>
            where
                De: ::serdect::serde::Deserializer<'de>,
            {
                let der = ::zeroize::Zeroizing::new(
                    ::serdect::slice::deserialize_hex_or_bin_vec(deserializer)?,
                );
                $decode(&der).map_err(::serdect::serde::de::Error::custom)
            }
        }
    };
}

pub(crate) use {der_serde_impls, signing_key_impls, typed_key_eq, verifying_key_impls};
