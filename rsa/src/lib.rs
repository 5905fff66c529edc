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
//!
//! # Example
//!
//! ```
//! use rsa::RsaPrivateKey;
//!
//! let mut rng = rsa::os_rng();
//! let key = RsaPrivateKey::generate(1024, &mut rng)?;
//! let mut m = vec![0u8; key.size()];
//! m[key.size() - 1] = 42; // a message representative below n
//! let c = key.public_key().public_op(&m)?;
//! assert_eq!(key.private_op(&mut rng, &c)?, m);
//! # Ok::<(), rsa::Error>(())
//! ```

mod batch;
mod encoding;
mod error;
mod hash;
mod key;
mod keygen;
mod oaep;
pub mod pkcs1v15;
mod primitive;
pub mod pss;
mod scheme;
mod sig;

pub use batch::Batch;
pub use encoding::{
    Encoding, KeyAlgorithm, KeyFormat, PublicFormat, decode_private_key, decode_private_key_with,
    decode_public_key, decode_public_key_with, encode_private_key, encode_private_key_with,
    encode_public_key, encode_public_key_with, is_encrypted_private_key,
};
pub use error::{Error, KeyError, Result};
pub use hash::{HashAlg, Hasher, Mgf, UnknownHash};
pub use key::{
    MAX_MODULUS_BITS, MAX_PRIMES, MIN_MODULUS_BITS, PrivateKeyParts, PublicKeyParts, RsaPrivateKey,
    RsaPublicKey,
};
pub use keygen::DEFAULT_EXPONENT;
#[doc(hidden)] // For the constant-time drivers only.
pub use keygen::{Declassify, KeyValues};
pub use keygen::{PrimeMethod, fips186_primes_vartime, key_from_primes_vartime};
pub use oaep::Oaep;
pub use pkcs1v15::Pkcs1v15Encrypt;
pub use pkcs1v15::Pkcs1v15Sign;
pub use pss::{Pss, PssKeyParams, SaltLen};
#[doc(hidden)]
pub use scheme::Unsliced;
pub use scheme::{EncryptionScheme, SignatureScheme};

/// The randomness traits keys take (rand_core 0.10), re-exported for callers.
pub use rand_core;

/// The operating system's entropy source as an infallible [`rand_core::CryptoRng`]: the
/// `getrandom` crate's `SysRng`, which panics if the OS fails to deliver randomness.
pub type OsRng = rand_core::UnwrapErr<getrandom::SysRng>;

/// A new [`OsRng`].
pub fn os_rng() -> OsRng {
    rand_core::UnwrapErr(getrandom::SysRng)
}
