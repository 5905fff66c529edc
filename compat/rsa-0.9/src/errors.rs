//! Error types: 0.9's `rsa::errors`, and how rsatool-rsa's errors map onto them.

/// Alias for [`core::result::Result`] with the `rsa` crate's [`Error`] type.
pub type Result<T> = core::result::Result<T, Error>;

/// Error types, as in RustCrypto `rsa` 0.9, with one addition: [`Error::Rng`].
#[derive(Debug, Eq, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// Invalid padding scheme (also: a hash rsatool-rsa does not know, see rsatool-rsa's porting guide).
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
    Pkcs1(pkcs1::Error),
    /// PKCS#8 error.
    Pkcs8(pkcs8::Error),
    /// Internal error (also: the private operation failed its fault check).
    Internal,
    /// Label too long.
    LabelTooLong,
    /// Invalid padding length.
    InvalidPadLen,
    /// Invalid arguments.
    InvalidArguments,
    /// The random number generator failed (`try_fill_bytes` returned an error); the result
    /// was discarded. Not in 0.9, whose operations panicked instead.
    Rng,
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::InvalidPaddingScheme => f.write_str("invalid padding scheme"),
            Error::Decryption => f.write_str("decryption error"),
            Error::Verification => f.write_str("verification error"),
            Error::MessageTooLong => f.write_str("message too long"),
            Error::InputNotHashed => f.write_str("input must be hashed"),
            Error::NprimesTooSmall => f.write_str("nprimes must be >= 2"),
            Error::TooFewPrimes => {
                f.write_str("too few primes of given length to generate an RSA key")
            }
            Error::InvalidPrime => f.write_str("invalid prime value"),
            Error::InvalidModulus => f.write_str("invalid modulus"),
            Error::InvalidExponent => f.write_str("invalid exponent"),
            Error::InvalidCoefficient => f.write_str("invalid coefficient"),
            Error::ModulusTooLarge => f.write_str("modulus too large"),
            Error::PublicExponentTooSmall => f.write_str("public exponent too small"),
            Error::PublicExponentTooLarge => f.write_str("public exponent too large"),
            Error::Pkcs1(err) => write!(f, "{err}"),
            Error::Pkcs8(err) => write!(f, "{err}"),
            Error::Internal => f.write_str("internal error"),
            Error::LabelTooLong => f.write_str("label too long"),
            Error::InvalidPadLen => f.write_str("invalid padding length"),
            Error::InvalidArguments => f.write_str("invalid arguments"),
            Error::Rng => f.write_str("the random number generator failed"),
        }
    }
}

impl From<pkcs1::Error> for Error {
    fn from(err: pkcs1::Error) -> Error {
        Error::Pkcs1(err)
    }
}

impl From<pkcs8::Error> for Error {
    fn from(err: pkcs8::Error) -> Error {
        Error::Pkcs8(err)
    }
}

#[cfg(feature = "std")]
impl From<Error> for signature::Error {
    fn from(err: Error) -> Self {
        Self::from_source(err)
    }
}

#[cfg(not(feature = "std"))]
impl From<Error> for signature::Error {
    fn from(_err: Error) -> Self {
        Self::new()
    }
}

/// 0.9's error for an rsatool-rsa error: the closest variant 0.9 returns for the same cause.
pub(crate) fn from_rsatool(err: rsatool_rsa::Error) -> Error {
    use rsatool_rsa::{Error as E, KeyError as K};
    match err {
        E::InvalidKey(k) => match k {
            K::ModulusEven | K::ModulusTooSmall { .. } | K::PrimesProductMismatch => {
                Error::InvalidModulus
            }
            K::ModulusTooLarge { .. } => Error::ModulusTooLarge,
            K::PrimesNotDistinct => Error::InvalidPrime,
            K::PrimeCount { count } if count < 2 => Error::NprimesTooSmall,
            K::PrimeCount { .. } => Error::InvalidArguments,
            K::CrtValuesInconsistent => Error::InvalidCoefficient,
            _ => Error::InvalidExponent,
        },
        // Only a digest of the wrong length gives these in the schemes the facade calls.
        E::InvalidLength { .. } => Error::InputNotHashed,
        // 0.9's private operation refuses c ≥ n with a decryption error.
        E::InputOutOfRange | E::Decryption => Error::Decryption,
        E::Verification => Error::Verification,
        E::MessageTooLong => Error::MessageTooLong,
        E::Rng => Error::Rng,
        E::Unsupported(_) => Error::InvalidArguments,
        _ => Error::Internal,
    }
}
