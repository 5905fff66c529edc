//! The crate's error type.

use core::fmt;

/// Everything that can go wrong in `bignum`'s fallible operations.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A number to parse was empty (no digits).
    ParseEmpty,
    /// A number to parse had a character that is not a digit of its radix.
    ParseInvalidDigit {
        /// Byte offset of the offending character in the input.
        position: usize,
    },
    /// Division or reduction by zero.
    DivisionByZero,
    /// A subtraction whose result would be negative.
    NegativeResult,
    /// A modulus that the operation cannot use (zero, even where odd is required, or too short).
    InvalidModulus,
    /// The value has no inverse modulo the modulus.
    NotInvertible,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ParseEmpty => f.write_str("cannot parse a number from an empty string"),
            Error::ParseInvalidDigit { position } => {
                write!(f, "invalid digit at byte {position}")
            }
            Error::DivisionByZero => f.write_str("division by zero"),
            Error::NegativeResult => f.write_str("subtraction would give a negative number"),
            Error::InvalidModulus => f.write_str("invalid modulus"),
            Error::NotInvertible => f.write_str("value is not invertible modulo the modulus"),
        }
    }
}

impl core::error::Error for Error {}

/// `Result` with [`Error`].
pub type Result<T> = core::result::Result<T, Error>;
