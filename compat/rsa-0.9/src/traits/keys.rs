//! Traits related to the key components

use core::fmt;

use num_bigint::{BigInt, BigUint};
use zeroize::Zeroize;

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

/// The precomputed Chinese remainder theorem values of the third and further primes of a
/// multi-prime key. Opaque, as in 0.9; wiped on drop, and `Debug` prints no secret.
#[derive(Clone)]
pub struct CrtValue {
    /// d mod (r_i − 1).
    pub(crate) exp: BigInt,
    /// (r_1·…·r_(i−1))⁻¹ mod r_i.
    pub(crate) coeff: BigInt,
}

impl fmt::Debug for CrtValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CrtValue(..)")
    }
}

impl Zeroize for CrtValue {
    fn zeroize(&mut self) {
        self.exp.zeroize();
        self.coeff.zeroize();
    }
}

impl Drop for CrtValue {
    fn drop(&mut self) {
        self.zeroize();
    }
}
