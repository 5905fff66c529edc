//! Traits of the keys and padding schemes, as 0.9's `rsa::traits` (whose `CrtValue` is at the
//! crate root only: it is defined beside the private key).

use num_bigint::{BigInt, BigUint};

use crate::{CrtValue, RsaPrivateKey, RsaPublicKey};

/// Components of an RSA public key.
pub trait PublicKeyParts {
    /// Returns the modulus of the key.
    fn n(&self) -> &BigUint;

    /// Returns the public exponent of the key.
    fn e(&self) -> &BigUint;

    /// Returns the modulus size in bytes. Raw signatures and ciphertexts for
    /// or by this public key will have the same size.
    fn size(&self) -> usize {
        self.n().bits().div_ceil(8)
    }
}

/// Components of an RSA private key.
pub trait PrivateKeyParts: PublicKeyParts {
    /// Returns the private exponent of the key.
    fn d(&self) -> &BigUint;

    /// Returns the prime factors.
    fn primes(&self) -> &[BigUint];

    /// Returns the precomputed dp value, D mod (P-1)
    fn dp(&self) -> Option<&BigUint>;

    /// Returns the precomputed dq value, D mod
    fn dq(&self) -> Option<&BigUint>;

    /// Returns the precomputed qinv value, Q^-1 mod P
    fn qinv(&self) -> Option<&BigInt>;

    /// Returns an iterator over the CRT Values
    fn crt_values(&self) -> Option<&[CrtValue]>;
}

crate::rsa_traits::padding_traits!(
    keys: RsaPrivateKey, RsaPublicKey,
    rng: [rand_core::CryptoRngCore],
    /// (without one, the operating system's RNG does, with the `std` feature).
);

crate::rsa_traits::encryption_traits!(rng: [rand_core::CryptoRngCore + ?Sized]);
