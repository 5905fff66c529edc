//! Error types: RustCrypto `rsa` 0.10's, variant for variant, and how rsatool-rsa's map onto
//! them.

use rsatool_rsa::KeyError;

crate::error_type::error_type!(
    #[cfg(feature = "encoding")]
    /// Error types
    #[derive(Clone, Debug, Eq, PartialEq)]
    extra: {
        /// Modulus too small.
        ModulusTooSmall,
        /// Decoding error.
        Decode(crypto_bigint::DecodeError),
        /// Random number generator error.
        Rng,
    },
    display(f): {
        Error::ModulusTooSmall => f.write_str("modulus too small"),
        Error::Decode(err) => write!(f, "{err:?}"),
        Error::Rng => f.write_str("rng error"),
    },
);

impl core::error::Error for Error {}

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
