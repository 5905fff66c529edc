//! The crate's error type.

use alloc::string::String;
use core::fmt;

/// What is wrong with a key, found while importing, constructing or validating it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyError {
    /// The modulus n is even.
    ModulusEven,
    /// The modulus has fewer bits than allowed (1024 unless asked otherwise).
    ModulusTooSmall {
        /// Bits of the modulus.
        bits: usize,
        /// The smallest size accepted.
        min: usize,
    },
    /// The modulus has more bits than allowed (16384).
    ModulusTooLarge {
        /// Bits of the modulus (or of the encoded integer, before any arithmetic).
        bits: usize,
    },
    /// The public exponent e is even, below 3, or not below n.
    PublicExponentInvalid,
    /// n is not the product of the primes.
    PrimesProductMismatch,
    /// Two of the primes are equal.
    PrimesNotDistinct,
    /// Fewer than 2 or more than the supported number of primes.
    PrimeCount {
        /// How many primes were given.
        count: usize,
    },
    /// Some prime minus one shares a factor with e.
    PrimesNotCoprimeToE,
    /// e·d is not 1 modulo lcm(p_i − 1), or d is 0 or too small.
    PrivateExponentInvalid,
    /// dP, dQ or qInv (or a multi-prime CRT value) does not match the primes and d.
    CrtValuesInconsistent,
}

/// Everything that can go wrong in `rsatool_rsa`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A key failed validation; the detail says which check.
    InvalidKey(KeyError),
    /// A key or other structure could not be decoded (DER, PEM, base64); says what was wrong.
    Encoding(String),
    /// An input integer (ciphertext, signature representative, message representative) is not
    /// below the modulus.
    InputOutOfRange,
    /// An input has the wrong length for the key.
    InvalidLength {
        /// The length expected, in bytes.
        expected: usize,
        /// The length given.
        actual: usize,
    },
    /// The message is too long for the key and scheme.
    MessageTooLong,
    /// A size or parameter this implementation does not support.
    Unsupported(String),
    /// The private operation's result failed its check with the public exponent (a fault in
    /// the computation); no result is returned.
    Fault,
    /// Decryption failed. Deliberately says nothing more.
    Decryption,
    /// The signature is invalid. Deliberately says nothing more.
    Verification,
    /// The private key is encrypted and no password was given.
    NeedPassword,
    /// The encrypted private key did not decrypt with the password given: a wrong password,
    /// or damaged data.
    BadPassword,
    /// The random number generator given to a RustCrypto trait method (which takes a fallible
    /// [`rand_core::TryCryptoRng`]) failed; the result was discarded.
    Rng,
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyError::ModulusEven => f.write_str("the modulus is even"),
            KeyError::ModulusTooSmall { bits, min } => {
                write!(
                    f,
                    "the modulus has {bits} bits, fewer than the minimum of {min}"
                )
            }
            KeyError::ModulusTooLarge { bits } => {
                write!(
                    f,
                    "the modulus has {bits} bits, more than the maximum of 16384"
                )
            }
            KeyError::PublicExponentInvalid => {
                f.write_str("the public exponent must be odd, at least 3 and below the modulus")
            }
            KeyError::PrimesProductMismatch => {
                f.write_str("the modulus is not the product of the primes")
            }
            KeyError::PrimesNotDistinct => f.write_str("the primes are not distinct"),
            KeyError::PrimeCount { count } => write!(f, "unsupported number of primes: {count}"),
            KeyError::PrimesNotCoprimeToE => {
                f.write_str("a prime minus one shares a factor with the public exponent")
            }
            KeyError::PrivateExponentInvalid => {
                f.write_str("the private exponent does not invert the public exponent")
            }
            KeyError::CrtValuesInconsistent => {
                f.write_str("the CRT values do not match the primes and the private exponent")
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidKey(k) => write!(f, "invalid key: {k}"),
            Error::Encoding(what) => write!(f, "malformed encoding: {what}"),
            Error::InputOutOfRange => f.write_str("input is not below the modulus"),
            Error::InvalidLength { expected, actual } => {
                write!(f, "input is {actual} bytes, expected {expected}")
            }
            Error::MessageTooLong => f.write_str("message too long for this key and scheme"),
            Error::Unsupported(what) => write!(f, "unsupported: {what}"),
            Error::Fault => f.write_str("the private-key operation failed its consistency check"),
            Error::Decryption => f.write_str("decryption error"),
            Error::Verification => f.write_str("invalid signature"),
            Error::NeedPassword => {
                f.write_str("the private key is encrypted: a password is needed")
            }
            Error::BadPassword => {
                f.write_str("wrong password (or a damaged encrypted key): the key does not decrypt")
            }
            Error::Rng => f.write_str("the random number generator failed"),
        }
    }
}

impl core::error::Error for Error {}

impl From<KeyError> for Error {
    fn from(k: KeyError) -> Self {
        Error::InvalidKey(k)
    }
}

/// `Result` with [`Error`].
pub type Result<T> = core::result::Result<T, Error>;
