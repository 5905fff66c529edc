//! The error type of `rsa::errors`, the same in both API generations but for a few variants,
//! written once (see `compat/shared/README.md`).

/// `Result`, and `Error` with the variants both generations have, `$extra`'s after them (each
/// facade's own), `Display` (the messages upstream prints; `$f`, the formatter, and `$display`,
/// the arms of the extra variants) and `From` the `pkcs1` and `pkcs8` errors; those two variants
/// and conversions under `#[$encoding]` (`#[cfg(feature = "encoding")]` in 0.10,
/// `#[cfg(all())]`, always, in 0.9).
macro_rules! error_type {
    (
        #[$encoding:meta]
        $(#[$attr:meta])*
        extra: { $($extra:tt)* },
        display($f:ident): { $($display:tt)* } $(,)?
    ) => {
        /// Alias for [`core::result::Result`] with the `rsa` crate's [`Error`] type.
        pub type Result<T> = core::result::Result<T, Error>;

        $(#[$attr])*
        #[non_exhaustive]
        pub enum Error {
            /// Invalid padding scheme (also: a hash rsatool-rsa does not know, see rsatool-rsa's
            /// porting guide).
            InvalidPaddingScheme,
            /// Decryption error.
            Decryption,
            /// Verification error.
            Verification,
            /// Message too long.
            MessageTooLong,
            /// Input must be hashed.
            InputNotHashed,
            /// Number of primes must be 2 or greater.
            NprimesTooSmall,
            /// Too few primes of a given length to generate an RSA key.
            TooFewPrimes,
            /// Invalid prime value.
            InvalidPrime,
            /// Invalid modulus.
            InvalidModulus,
            /// Invalid exponent.
            InvalidExponent,
            /// Invalid coefficient.
            InvalidCoefficient,
            /// Modulus too large.
            ModulusTooLarge,
            /// Public exponent too small.
            PublicExponentTooSmall,
            /// Public exponent too large.
            PublicExponentTooLarge,
            /// PKCS#1 error.
            #[$encoding]
            Pkcs1(pkcs1::Error),
            /// PKCS#8 error.
            #[$encoding]
            Pkcs8(pkcs8::Error),
            /// Internal error (also: the private operation failed its fault check).
            Internal,
            /// Label too long.
            LabelTooLong,
            /// Invalid padding length.
            InvalidPadLen,
            /// Invalid arguments.
            InvalidArguments,
            $($extra)*
        }

        impl core::fmt::Display for Error {
            fn fmt(&self, $f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self {
                    Error::InvalidPaddingScheme => $f.write_str("invalid padding scheme"),
                    Error::Decryption => $f.write_str("decryption error"),
                    Error::Verification => $f.write_str("verification error"),
                    Error::MessageTooLong => $f.write_str("message too long"),
                    Error::InputNotHashed => $f.write_str("input must be hashed"),
                    Error::NprimesTooSmall => $f.write_str("nprimes must be >= 2"),
                    Error::TooFewPrimes => {
                        $f.write_str("too few primes of given length to generate an RSA key")
                    }
                    Error::InvalidPrime => $f.write_str("invalid prime value"),
                    Error::InvalidModulus => $f.write_str("invalid modulus"),
                    Error::InvalidExponent => $f.write_str("invalid exponent"),
                    Error::InvalidCoefficient => $f.write_str("invalid coefficient"),
                    Error::ModulusTooLarge => $f.write_str("modulus too large"),
                    Error::PublicExponentTooSmall => $f.write_str("public exponent too small"),
                    Error::PublicExponentTooLarge => $f.write_str("public exponent too large"),
                    #[$encoding]
                    Error::Pkcs1(err) => write!($f, "{err}"),
                    #[$encoding]
                    Error::Pkcs8(err) => write!($f, "{err}"),
                    Error::Internal => $f.write_str("internal error"),
                    Error::LabelTooLong => $f.write_str("label too long"),
                    Error::InvalidPadLen => $f.write_str("invalid padding length"),
                    Error::InvalidArguments => $f.write_str("invalid arguments"),
                    $($display)*
                }
            }
        }

        #[$encoding]
        impl From<pkcs1::Error> for Error {
            fn from(err: pkcs1::Error) -> Error {
                Error::Pkcs1(err)
            }
        }

        #[$encoding]
        impl From<pkcs8::Error> for Error {
            fn from(err: pkcs8::Error) -> Error {
                Error::Pkcs8(err)
            }
        }
    };
}

pub(crate) use error_type;
