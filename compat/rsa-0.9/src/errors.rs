//! Error types: 0.9's `rsa::errors`, and how rsatool-rsa's errors map onto them.

crate::error_type::error_type!(
    #[cfg(all())]
    /// Error types, as in RustCrypto `rsa` 0.9, with one addition: [`Error::Rng`].
    #[derive(Debug, Eq, PartialEq)]
    extra: {
        /// The random number generator failed (`try_fill_bytes` returned an error); the result
        /// was discarded. Not in 0.9, whose operations panicked instead.
        Rng,
    },
    display(f): {
        Error::Rng => f.write_str("the random number generator failed"),
    },
);

#[cfg(feature = "std")]
impl std::error::Error for Error {}

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
