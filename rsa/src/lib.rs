//! RSA on the `bignum` crate: keys, key generation, the RSA primitives, PKCS #1 v1.5, PSS and
//! OAEP, and PKCS #1 / PKCS #8 / SubjectPublicKeyInfo encodings.
//!
//! # Constant time
//!
//! Everything that touches a private value (the primes, d, the CRT values, the blinding factor,
//! the result of a private operation) runs on `bignum::modular`'s constant-time arithmetic:
//! time and memory accesses depend only on public sizes (the bit lengths of n and of each
//! prime) and on the public n and e. Public values (n, e, ciphertexts, signatures) may be
//! handled in variable time.

mod error;
mod key;
mod keygen;
mod primitive;

pub use error::{Error, KeyError, Result};
pub use key::{
    MAX_MODULUS_BITS, MAX_PRIMES, MIN_MODULUS_BITS, PrivateKeyParts, PublicKeyParts, RsaPrivateKey,
    RsaPublicKey,
};
pub use keygen::DEFAULT_EXPONENT;

/// The randomness traits keys take (rand_core 0.10), re-exported for callers.
pub use rand_core;

/// The operating system's entropy source as an infallible [`rand_core::CryptoRng`]: the
/// `getrandom` crate's `SysRng`, which panics if the OS fails to deliver randomness.
pub type OsRng = rand_core::UnwrapErr<getrandom::SysRng>;

/// A new [`OsRng`].
pub fn os_rng() -> OsRng {
    rand_core::UnwrapErr(getrandom::SysRng)
}
