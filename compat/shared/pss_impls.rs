//! The PSS scheme's impls, and the typed keys' structs and constructors, that are the same in
//! both facades, written once: one text, two API generations (see `compat/shared/README.md`).

/// `SignatureScheme` for `$pss` (generic over `$g`, bounded by `$bounds`), keys of types
/// `$private` and `$public`, RNGs bounded by `$rng`, by the facade's own bodies: `$sign` with
/// the scheme bound to `$s`, the RNG (required) to `$rng_arg`, the key and the digest to the
/// names given; `$verify` likewise; and `Debug` (any `$g`), as upstream prints it: the name
/// `PSS`, `blinded`, the digest as `"..."`, and the salt length.
macro_rules! pss_impls {
    (
        <$($g:ident),*> $pss:ty where [$($bounds:tt)*],
        keys: $private:ty, $public:ty,
        rng: [$($rng:tt)+],
        sign: |$s:ident, $rng_arg:ident, $priv_key:ident, $hashed:ident| $sign:expr,
        verify: |$v:ident, $pub_key:ident, $v_hashed:ident, $sig:ident| $verify:expr $(,)?
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
                $rng_arg: Option<&mut Rng>,
                $priv_key: &$private,
                $hashed: &[u8],
            ) -> $crate::Result<::alloc::vec::Vec<u8>> {
                let $rng_arg = $rng_arg.ok_or($crate::Error::InvalidPaddingScheme)?;
                let $s = self;
                $sign
            }

            /// Verifies `sig` over `hashed` with the configured salt length.
            ///
            /// # Errors
            ///
            /// [`Error::Verification`](crate::Error::Verification) for every invalid signature.
            fn verify(
                self,
                $pub_key: &$public,
                $v_hashed: &[u8],
                $sig: &[u8],
            ) -> $crate::Result<()> {
                let $v = self;
                $verify
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

/// The PSS key `$key<D>` holding a `$inner`: its struct (`typed_key_struct!`, of kind `private`
/// or `public`, documented by `$doc`, with the salt length in `salt_len` of type `$salt_len_ty`)
/// and its constructors, each with the attributes given: `new` (a salt of `D`'s output length)
/// and `new_with_salt_len`; for a signing key, given `rng`, also `random` and
/// `random_with_salt_len` (a new `$inner` of `bit_size` bits from an RNG bounded by `$rng`) and
/// the accessor `salt_len`.
macro_rules! pss_key {
    (
        $(#[$doc:meta])*
        $kind:ident $key:ident($inner:ty) { salt_len: $salt_len_ty:ty },
        $(#[$new:meta])* new,
        $(#[$with_salt_len:meta])* new_with_salt_len,
        $(
            rng: $rng:path,
            $(#[$random:meta])* random,
            $(#[$random_with_salt_len:meta])* random_with_salt_len,
            $(#[$salt_len:meta])* salt_len,
        )?
    ) => {
        $crate::typed_key::typed_key_struct!(
            $(#[$doc])* $kind $key($inner) { salt_len: $salt_len_ty }
        );

        impl<D> $key<D>
        where
            D: ::digest::Digest,
        {
            $(#[$new])*
            pub fn new(key: $inner) -> Self {
                Self::new_with_salt_len(key, <D as ::digest::Digest>::output_size())
            }

            $(#[$with_salt_len])*
            // `Into`: a verifying key of 0.10 holds the salt length as an `Option`.
            #[allow(clippy::useless_conversion)]
            pub fn new_with_salt_len(key: $inner, salt_len: usize) -> Self {
                Self {
                    inner: key,
                    salt_len: Into::into(salt_len),
                    phantom: ::core::marker::PhantomData,
                }
            }

            $(
                $(#[$random])*
                pub fn random<R: $rng + ?Sized>(
                    rng: &mut R,
                    bit_size: usize,
                ) -> $crate::errors::Result<Self> {
                    let salt_len = <D as ::digest::Digest>::output_size();
                    Self::random_with_salt_len(rng, bit_size, salt_len)
                }

                $(#[$random_with_salt_len])*
                pub fn random_with_salt_len<R: $rng + ?Sized>(
                    rng: &mut R,
                    bit_size: usize,
                    salt_len: usize,
                ) -> $crate::errors::Result<Self> {
                    Ok(Self::new_with_salt_len(<$inner>::new(rng, bit_size)?, salt_len))
                }

                $(#[$salt_len])*
                pub fn salt_len(&self) -> $salt_len_ty {
                    self.salt_len
                }
            )?
        }
    };
}

pub(crate) use {pss_impls, pss_key};
