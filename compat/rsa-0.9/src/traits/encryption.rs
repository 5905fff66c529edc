//! Encryption-related traits.

crate::encryption_traits::encryption_traits!(rng: [rand_core::CryptoRngCore + ?Sized]);
