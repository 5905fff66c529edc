//! Error types: RustCrypto `rsa` 0.10's, variant for variant, and how rsatool-rsa's map onto
//! them.

use rsatool_rsa::KeyError;

/// Alias for [`core::result::Result`] with the `rsa` crate's [`Error`] type.
pub type Result<T> = core::result::Result<T, Error>;

/// Error types
#[derive(Clone, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// Invalid padding scheme.
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
    /// Modulus too small.
    ModulusTooSmall,
    /// Modulus too large.
    ModulusTooLarge,
    /// Public exponent too small.
    PublicExponentTooSmall,
    /// Public exponent too large.
    PublicExponentTooLarge,
    /// PKCS#1 error.
    #[cfg(feature = "encoding")]
    Pkcs1(pkcs1::Error),
    /// PKCS#8 error.
    #[cfg(feature = "encoding")]
    Pkcs8(pkcs8::Error),
    /// Internal error.
    Internal,
    /// Label too long.
    LabelTooLong,
    /// Invalid padding length.
    InvalidPadLen,
    /// Invalid arguments.
    InvalidArguments,
    /// Decoding error.
    Decode(crypto_bigint::DecodeError),
    /// Random number generator error.
    Rng,
}

impl core::error::Error for Error {}

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
            Error::ModulusTooSmall => f.write_str("modulus too small"),
            Error::ModulusTooLarge => f.write_str("modulus too large"),
            Error::PublicExponentTooSmall => f.write_str("public exponent too small"),
            Error::PublicExponentTooLarge => f.write_str("public exponent too large"),
            #[cfg(feature = "encoding")]
            Error::Pkcs1(err) => write!(f, "{err}"),
            #[cfg(feature = "encoding")]
            Error::Pkcs8(err) => write!(f, "{err}"),
            Error::Internal => f.write_str("internal error"),
            Error::LabelTooLong => f.write_str("label too long"),
            Error::InvalidPadLen => f.write_str("invalid padding length"),
            Error::InvalidArguments => f.write_str("invalid arguments"),
            Error::Decode(err) => write!(f, "{err:?}"),
            Error::Rng => f.write_str("rng error"),
        }
    }
}

#[cfg(feature = "encoding")]
impl From<pkcs1::Error> for Error {
    fn from(err: pkcs1::Error) -> Error {
        Error::Pkcs1(err)
    }
}

#[cfg(feature = "encoding")]
impl From<pkcs8::Error> for Error {
    fn from(err: pkcs8::Error) -> Error {
        Error::Pkcs8(err)
    }
}

impl From<crypto_bigint::DecodeError> for Error {
    fn from(err: crypto_bigint::DecodeError) -> Error {
        Error::Decode(err)
    }
}

impl From<Error> for signature::Error {
    fn from(err: Error) -> Self {
        Self::from_source(err)
    }
}

/// rsatool-rsa's errors as upstream names the same conditions. Input errors of the private
/// operation (a ciphertext of the wrong length or not below n) are [`Error::Decryption`], as
/// upstream's decryption reports them; verification maps its own errors before this.
impl From<rsatool_rsa::Error> for Error {
    fn from(err: rsatool_rsa::Error) -> Error {
        match err {
            rsatool_rsa::Error::InvalidKey(k) => match k {
                KeyError::ModulusEven | KeyError::PrimesProductMismatch => Error::InvalidModulus,
                KeyError::ModulusTooSmall { .. } => Error::ModulusTooSmall,
                KeyError::ModulusTooLarge { .. } => Error::ModulusTooLarge,
                KeyError::PublicExponentInvalid | KeyError::PrivateExponentInvalid => {
                    Error::InvalidExponent
                }
                KeyError::PrimesNotDistinct | KeyError::PrimesNotCoprimeToE => Error::InvalidPrime,
                KeyError::PrimeCount { .. } => Error::NprimesTooSmall,
                KeyError::CrtValuesInconsistent => Error::InvalidCoefficient,
                _ => Error::Internal,
            },
            rsatool_rsa::Error::InputOutOfRange
            | rsatool_rsa::Error::InvalidLength { .. }
            | rsatool_rsa::Error::Decryption => Error::Decryption,
            rsatool_rsa::Error::Verification => Error::Verification,
            rsatool_rsa::Error::MessageTooLong => Error::MessageTooLong,
            rsatool_rsa::Error::Unsupported(_) => Error::InvalidArguments,
            rsatool_rsa::Error::Rng => Error::Rng,
            _ => Error::Internal,
        }
    }
}
