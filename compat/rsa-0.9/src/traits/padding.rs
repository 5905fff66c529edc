//! Supported padding schemes.

use crate::key::{RsaPrivateKey, RsaPublicKey};

crate::rsa_traits::padding_traits!(
    keys: RsaPrivateKey, RsaPublicKey,
    rng: [rand_core::CryptoRngCore],
    /// (without one, the operating system's RNG does, with the `std` feature).
);
