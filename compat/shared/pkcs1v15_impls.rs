//! The PKCS #1 v1.5 trait impls, and the typed keys' structs and constructors, that are the same
//! in both facades, written once: one text, two API generations (see `compat/shared/README.md`).
//! Each facade's `pkcs1v15` module expands them over its own `encrypt`, `decrypt`, `sign` and
//! `verify` (rsatool-rsa's scheme behind that facade's types and errors) and its own traits.

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

/// The PKCS #1 v1.5 key `$key<D>` holding a `$inner`: its struct (`typed_key_struct!`, of kind
/// `private` or `public`, documented by `$doc`, with the bytes of T before the digest in
/// `prefix`) and its constructors, each with the attributes given: `new` (T is `D`'s
/// DigestInfo) and `new_unprefixed` (T is the digest alone); for a signing key, given `rng`,
/// also `random` and `random_unprefixed` (a new `$inner` of `bit_size` bits from an RNG
/// bounded by `$rng`); then the private `sign_hash` of a `private` key, or `verify_hash` of a
/// `public` one.
macro_rules! pkcs1v15_key {
    (@private $key:ident, $rng:path) => {
        impl<D> $key<D>
        where
            D: ::digest::Digest,
        {
            /// Signs `hashed` (of any length: the prehash signers check none), blinded with
            /// `rng` or without one as the facade blinds without an RNG.
            fn sign_hash<R: $rng + ?Sized>(
                &self,
                rng: Option<&mut R>,
                hashed: &[u8],
            ) -> ::signature::Result<$crate::pkcs1v15::Signature> {
                let sig = $crate::pkcs1v15::sign(rng, &self.inner, &self.prefix, hashed)?;
                Ok($crate::pkcs1v15::Signature { inner: sig.into() })
            }
        }
    };

    (
        @ctors $key:ident($inner:ty) [$($bounds:tt)+],
        $(#[$new_attr:meta])* $new:ident => $prefix:expr,
        $($rng:path, $(#[$random_attr:meta])* $random:ident)?
    ) => {
        impl<D> $key<D>
        where
            D: $($bounds)+,
        {
            $(#[$new_attr])*
            pub fn $new(key: $inner) -> Self {
                Self {
                    inner: key,
                    prefix: $prefix,
                    phantom: ::core::marker::PhantomData,
                }
            }

            $(
                $(#[$random_attr])*
                pub fn $random<R: $rng + ?Sized>(
                    rng: &mut R,
                    bit_size: usize,
                ) -> $crate::errors::Result<Self> {
                    Ok(Self::$new(<$inner>::new(rng, bit_size)?))
                }
            )?
        }
    };

    (@public $key:ident) => {
        impl<D> $key<D>
        where
            D: ::digest::Digest,
        {
            /// Verifies `signature` over `hashed`, a digest.
            fn verify_hash(
                &self,
                hashed: &[u8],
                signature: &$crate::pkcs1v15::Signature,
            ) -> ::signature::Result<()> {
                let sig = &signature.inner;
                Ok($crate::pkcs1v15::verify(&self.inner, &self.prefix, hashed, sig)?)
            }
        }
    };

    (
        $(#[$doc:meta])*
        $kind:ident $key:ident($inner:ty),
        $(#[$new:meta])* new,
        $(#[$unprefixed:meta])* new_unprefixed,
        $(
            rng: $rng:path,
            $(#[$random:meta])* random,
            $(#[$random_unprefixed:meta])* random_unprefixed,
        )?
    ) => {
        $crate::typed_key::typed_key_struct!(
            $(#[$doc])* $kind $key($inner) { prefix: ::alloc::vec::Vec<u8> }
        );

        // T is `D`'s DigestInfo, then T is the digest alone.
        $crate::pkcs1v15_impls::pkcs1v15_key!(
            @ctors $key($inner) [::digest::Digest + ::const_oid::AssociatedOid],
            $(#[$new])* new => $crate::pkcs1v15::digest_info_prefix::<D>(),
            $($rng, $(#[$random])* random)?
        );
        $crate::pkcs1v15_impls::pkcs1v15_key!(
            @ctors $key($inner) [::digest::Digest],
            $(#[$unprefixed])* new_unprefixed => ::alloc::vec::Vec::new(),
            $($rng, $(#[$random_unprefixed])* random_unprefixed)?
        );

        $crate::pkcs1v15_impls::pkcs1v15_key!(@$kind $key $(, $rng)?);
    };
}

/// `pub struct $name` (`Pkcs1v15Sign`), RSASSA-PKCS1-v1_5 as data: T = `prefix ‖ H`, H of
/// `hash_len` bytes when that is set; `new::<D>()` (the DigestInfo header of `D`'s OID, `D`'s
/// output length) and `new_unprefixed()` (no prefix, any length). The struct, its two fields
/// and the two constructors each have the attributes given.
macro_rules! sign_padding {
    (
        $(#[$doc:meta])*
        $name:ident,
        $(#[$hash_len:meta])* hash_len,
        $(#[$prefix:meta])* prefix,
        $(#[$new:meta])* new,
        $(#[$unprefixed:meta])* new_unprefixed,
    ) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Eq, PartialEq)]
        pub struct $name {
            $(#[$hash_len])*
            pub hash_len: Option<usize>,

            $(#[$prefix])*
            pub prefix: ::alloc::boxed::Box<[u8]>,
        }

        impl $name {
            $(#[$new])*
            pub fn new<D>() -> Self
            where
                D: ::digest::Digest + ::const_oid::AssociatedOid,
            {
                Self {
                    hash_len: Some(<D as ::digest::Digest>::output_size()),
                    prefix: $crate::pkcs1v15::digest_info_prefix::<D>().into_boxed_slice(),
                }
            }

            $(#[$unprefixed])*
            pub fn new_unprefixed() -> Self {
                Self {
                    hash_len: None,
                    prefix: ::alloc::boxed::Box::new([]),
                }
            }
        }
    };
}

pub(crate) use {encryption_key_impls, pkcs1v15_key, scheme_impls, sign_padding};
