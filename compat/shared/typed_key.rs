//! The impls and the struct that every key typed by its hash (the PKCS #1 v1.5 and PSS signing
//! and verifying keys) has in both facades, written once.
//!
//! One text, two API generations: RustCrypto `rsa` 0.9 and 0.10 give those keys the same
//! conversions and PKCS #8 / SubjectPublicKeyInfo traits, but of different major versions of
//! `digest`, `pkcs8`, `spki` and `signature`, so the two facades cannot share a crate. They
//! share this source instead: each brings it in with
//! `#[path = "../../shared/typed_key.rs"] mod typed_key;`, and every path in the macro
//! (`::digest::Digest`, `::pkcs8::EncodePrivateKey`, ...) resolves against the dependencies of
//! the facade that expands it.

/// The impls of `$key<D>`, a key holding a `$inner` in a field `inner` and its scheme's
/// parameter (PKCS #1 v1.5's prefix, PSS's salt length) in `$field`:
///
/// - `AsRef<$inner>`, `From<$key<D>> for $inner`, and `From<$inner>` by `$key::$from` (`D`
///   bounded by `$from_bounds`);
/// - under `#[$encoding]` (`#[cfg(feature = "encoding")]` in 0.10, `#[cfg(all())]`, always, in
///   0.9): the `AssociatedAlgorithmIdentifier` of the key, `rsaEncryption`; `TryFrom<$info>`
///   (the algorithm checked by `$check`, if given, before `$inner`'s own conversion, then
///   `$key::new`); with `signature_oid`, PKCS #1 v1.5's `SignatureAlgorithmIdentifier`;
/// - for a `private` key: `Keypair` (the `$verifying_key` with this key's `$field`),
///   `ZeroizeOnDrop`, and under `#[$encoding]` `EncodePrivateKey`;
/// - for a `public` key: `Clone` (by hand: a derive would ask for `D: Clone`), and under
///   `#[$encoding]` `EncodePublicKey`.
macro_rules! typed_key_impls {
    (
        $kind:ident $key:ident($inner:ty) $(=> $verifying_key:ident)? { $field:ident },
        from: $from:ident [$($from_bounds:tt)+],
        #[$encoding:meta]
        $(, try_from: $info:ty => $error:ty $(, check: $check:path)?)?
        $(, signature_oid: $oid:path)? $(,)?
    ) => {
        impl<D> AsRef<$inner> for $key<D>
        where
            D: ::digest::Digest,
        {
            fn as_ref(&self) -> &$inner {
                &self.inner
            }
        }

        impl<D> From<$inner> for $key<D>
        where
            D: $($from_bounds)+,
        {
            fn from(key: $inner) -> Self {
                Self::$from(key)
            }
        }

        impl<D> From<$key<D>> for $inner
        where
            D: ::digest::Digest,
        {
            fn from(key: $key<D>) -> Self {
                key.inner
            }
        }

        #[$encoding]
        impl<D> ::pkcs8::spki::AssociatedAlgorithmIdentifier for $key<D>
        where
            D: ::digest::Digest,
        {
            type Params = ::pkcs8::spki::der::AnyRef<'static>;

            const ALGORITHM_IDENTIFIER: ::pkcs8::spki::AlgorithmIdentifierRef<'static> =
                ::pkcs1::ALGORITHM_ID;
        }

        $(
            #[$encoding]
            impl<D> TryFrom<$info> for $key<D>
            where
                D: ::digest::Digest + ::const_oid::AssociatedOid,
            {
                type Error = $error;

                fn try_from(info: $info) -> ::core::result::Result<Self, $error> {
                    $($check(&info.algorithm)?;)?
                    <$inner>::try_from(info).map(Self::new)
                }
            }
        )?

        $(
            /// `sha256WithRSAEncryption` and the like, with NULL parameters (RFC 8017
            /// appendix A.2.4).
            #[$encoding]
            impl<D> ::pkcs8::spki::SignatureAlgorithmIdentifier for $key<D>
            where
                D: ::digest::Digest + $oid,
            {
                type Params = ::pkcs8::spki::der::AnyRef<'static>;

                const SIGNATURE_ALGORITHM_IDENTIFIER:
                    ::pkcs8::spki::AlgorithmIdentifierRef<'static> =
                    ::pkcs8::spki::AlgorithmIdentifierRef {
                        oid: <D as $oid>::OID,
                        parameters: Some(::pkcs8::spki::der::AnyRef::NULL),
                    };
            }
        )?

        $crate::typed_key::typed_key_impls!(
            @$kind $key($inner) $(=> $verifying_key)? { $field }, #[$encoding]
        );
    };

    (@private $key:ident($inner:ty) => $verifying_key:ident { $field:ident }, #[$encoding:meta]) => {
        impl<D> ::signature::Keypair for $key<D>
        where
            D: ::digest::Digest,
        {
            type VerifyingKey = $verifying_key<D>;

            /// The public key, with this key's parameter.
            // `Into`: a PSS verifying key of 0.10 holds the salt length as an `Option`.
            #[allow(clippy::useless_conversion)]
            fn verifying_key(&self) -> Self::VerifyingKey {
                $verifying_key {
                    inner: self.inner.to_public_key(),
                    $field: Into::into(Clone::clone(&self.$field)),
                    phantom: ::core::marker::PhantomData,
                }
            }
        }

        /// The inner private key zeroizes its secrets when dropped.
        impl<D> ::zeroize::ZeroizeOnDrop for $key<D> where D: ::digest::Digest {}

        #[$encoding]
        impl<D> ::pkcs8::EncodePrivateKey for $key<D>
        where
            D: ::digest::Digest,
        {
            fn to_pkcs8_der(&self) -> ::pkcs8::Result<::pkcs8::SecretDocument> {
                ::pkcs8::EncodePrivateKey::to_pkcs8_der(&self.inner)
            }
        }
    };

    (@public $key:ident($inner:ty) { $field:ident }, #[$encoding:meta]) => {
        impl<D> Clone for $key<D>
        where
            D: ::digest::Digest,
        {
            fn clone(&self) -> Self {
                Self {
                    inner: Clone::clone(&self.inner),
                    $field: Clone::clone(&self.$field),
                    phantom: ::core::marker::PhantomData,
                }
            }
        }

        #[$encoding]
        impl<D> ::pkcs8::EncodePublicKey for $key<D>
        where
            D: ::digest::Digest,
        {
            fn to_public_key_der(&self) -> ::pkcs8::spki::Result<::pkcs8::Document> {
                ::pkcs8::EncodePublicKey::to_public_key_der(&self.inner)
            }
        }
    };
}

/// `pub struct $key<D>` (`D: Digest`), documented by `$doc`: our key in `inner`, the scheme's
/// parameter (PKCS #1 v1.5's prefix, PSS's salt length) in `$field`, and `phantom`. A `private`
/// (signing) key derives `Debug` and `Clone`, its fields private; a `public` (verifying) one
/// derives `Debug` (its `Clone` is `typed_key_impls!`'s), its fields `pub(super)`, for the
/// signing key's `Keypair`.
macro_rules! typed_key_struct {
    ($(#[$doc:meta])* private $key:ident($inner:ty) { $field:ident: $field_ty:ty }) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        pub struct $key<D>
        where
            D: ::digest::Digest,
        {
            inner: $inner,
            $field: $field_ty,
            phantom: ::core::marker::PhantomData<D>,
        }
    };

    ($(#[$doc:meta])* public $key:ident($inner:ty) { $field:ident: $field_ty:ty }) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $key<D>
        where
            D: ::digest::Digest,
        {
            pub(super) inner: $inner,
            pub(super) $field: $field_ty,
            pub(super) phantom: ::core::marker::PhantomData<D>,
        }
    };
}

pub(crate) use {typed_key_impls, typed_key_struct};
