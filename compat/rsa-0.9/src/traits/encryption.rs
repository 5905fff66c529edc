//! Encryption-related traits.

crate::rsa_traits::encryption_traits!(rng: [rand_core::CryptoRngCore + ?Sized]);
