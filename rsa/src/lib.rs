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
//! # `no_std`
//!
//! The crate is `#![no_std]` and needs `alloc` only. The default `std` feature adds `os_rng`
//! and what uses it (`Signer` without an RNG argument, writing encrypted PKCS #8), threads in
//! [`Batch`] and `bignum`'s `std`; without it every operation takes the caller's RNG (the
//! `nostd-check` crate of the workspace signs and verifies that way).
//!
//! # Example
//!
//! ```
//! use rsatool_rsa::pss::{SigningKey, VerifyingKey};
//! use rsatool_rsa::sha2::Sha256;
//! use rsatool_rsa::signature::{Keypair, RandomizedSigner, Verifier};
//!
//! let mut rng = rsatool_rsa::os_rng();
//! let key = rsatool_rsa::RsaPrivateKey::new(&mut rng, 2048)?;
//! let signing_key = SigningKey::<Sha256>::new(key);
//! let signature = signing_key.sign_with_rng(&mut rng, b"message");
//! let verifying_key: VerifyingKey<Sha256> = signing_key.verifying_key();
//! verifying_key.verify(b"message", &signature)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The same with the run-time schemes, whose hash is a value ([`HashAlg`]), as the
//! `rsatool` command line uses them:
//!
//! ```
//! use rsatool_rsa::{HashAlg, Pss, RsaPrivateKey};
//!
//! let mut rng = rsatool_rsa::os_rng();
//! let key = RsaPrivateKey::generate(2048, &mut rng)?;
//! let scheme = Pss::new(HashAlg::Sha256);
//! let sig = key.sign(&mut rng, &scheme, b"message")?;
//! key.public_key().verify(&scheme, b"message", &sig)?;
//! # Ok::<(), rsatool_rsa::Error>(())
//! ```
//!
//! Keys are read and written through the `pkcs8`, `spki` and `pkcs1` crates' traits (every
//! provided method: PEM, DER, files, encrypted PKCS #8), or through
//! [`decode_private_key`] and [`encode_private_key`], which detect formats and explain errors:
//!
//! ```
//! use rsatool_rsa::pkcs1::{
//!     DecodeRsaPrivateKey, DecodeRsaPublicKey, EncodeRsaPrivateKey, EncodeRsaPublicKey,
//! };
//! use rsatool_rsa::pkcs8::{
//!     DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey, LineEnding,
//! };
//! use rsatool_rsa::{RsaPrivateKey, RsaPublicKey};
//!
//! let key = RsaPrivateKey::new(&mut rsatool_rsa::os_rng(), 1024)?;
//! let pem = key.to_pkcs8_pem(LineEnding::LF)?; // -----BEGIN PRIVATE KEY-----
//! assert_eq!(RsaPrivateKey::from_pkcs8_pem(&pem)?.n(), key.n());
//! let der = key.to_pkcs1_der()?; // RSAPrivateKey
//! assert_eq!(RsaPrivateKey::from_pkcs1_der(der.as_bytes())?.n(), key.n());
//!
//! let public = key.to_public_key();
//! let spki = public.to_public_key_pem(LineEnding::LF)?; // -----BEGIN PUBLIC KEY-----
//! assert_eq!(RsaPublicKey::from_public_key_pem(&spki)?, public);
//! let pkcs1 = public.to_pkcs1_pem(LineEnding::LF)?; // -----BEGIN RSA PUBLIC KEY-----
//! assert_eq!(RsaPublicKey::from_pkcs1_pem(&pkcs1)?, public);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Many threads, one key
//!
//! A key is `Send + Sync` and every operation takes `&self`: share it (an `Arc`, a `static`)
//! among the threads that sign or decrypt, as a server's request threads do. Its blinding
//! pairs sit in a small table (`primitive/blinding.rs`), so threads do not pay for each other.
//! Where more threads call than there are cores, [`RsaPrivateKey::coalescing`] lets their
//! concurrent calls run four at a time on the eight lanes of the AVX-512 IFMA engine, with the
//! ordinary API: more throughput, for a call that may wait for a pass of four (see its
//! documentation, and BENCHMARKS.md, "Threads on one key", for the figures). [`Batch`] does the
//! same for a caller that holds many inputs itself.
//!
//! ```
//! use std::sync::Arc;
//! use rsatool_rsa::{HashAlg, Pkcs1v15Sign, RsaPrivateKey};
//!
//! let key = Arc::new(RsaPrivateKey::generate(2048, &mut rsatool_rsa::os_rng())?.coalescing());
//! let scheme = Pkcs1v15Sign::new(HashAlg::Sha256);
//! std::thread::scope(|s| {
//!     for i in 0..8 {
//!         let key = Arc::clone(&key);
//!         s.spawn(move || {
//!             let msg = format!("request {i}");
//!             let sig = key.sign(&mut rsatool_rsa::os_rng(), &scheme, msg.as_bytes()).unwrap();
//!             key.public_key().verify(&scheme, msg.as_bytes(), &sig).unwrap();
//!         });
//!     }
//! });
//! # Ok::<(), rsatool_rsa::Error>(())
//! ```
//!
//! Coming from RustCrypto's `rsa`: see the [porting guide](porting). The raw primitives
//! (RSAEP, RSADP without padding) are in [`hazmat`].

#![no_std]

extern crate alloc;
// Tests use `std`'s macros (`vec!`, `format!`) as in a `std` crate.
#[cfg(any(feature = "std", test))]
#[cfg_attr(test, macro_use)]
extern crate std;

mod batch;
#[cfg(feature = "std")]
mod coalesce;
mod encoding;
mod error;
mod hash;
pub mod hazmat;
mod key;
mod keygen;
pub mod oaep;
pub mod pkcs1v15;
pub mod porting;
mod primitive;
mod private_key;
pub mod pss;
mod recording_rng;
mod scheme;
mod scheme_methods;
#[cfg(feature = "test-hooks")]
mod test_hooks;
pub mod traits;
mod typed_keys;
mod typed_signature;

pub use batch::Batch;
pub use encoding::{
    Encoding, KeyAlgorithm, KeyFormat, PublicFormat, decode_private_key, decode_private_key_with,
    decode_public_key, decode_public_key_with, encode_private_key, encode_private_key_with,
    encode_public_key, encode_public_key_with, is_encrypted_private_key,
};
pub use error::{Error, KeyError, Result};
pub use hash::{HashAlg, Hasher, KnownDigest, Mgf, UnknownHash};
pub use key::{
    MAX_MODULUS_BITS, MAX_PRIMES, MIN_MODULUS_BITS, PrivateKeyParts, PublicKeyParts, RsaPublicKey,
};
pub use keygen::{DEFAULT_EXPONENT, SMALLEST_GENERATED_BITS};
#[cfg(feature = "test-hooks")]
#[doc(hidden)] // For the constant-time drivers only.
pub use keygen::{Declassify, KeyValues, key_values as key_values_from_primes_for_ct_tests};
pub use keygen::{
    PrimeMethod, Totient, fips186_primes_vartime, key_from_primes_vartime, private_exponent,
    recover_primes_vartime,
};
pub use oaep::Oaep;
pub use pkcs1v15::Pkcs1v15Encrypt;
pub use pkcs1v15::Pkcs1v15Sign;
pub use private_key::RsaPrivateKey;
pub use pss::{Pss, PssKeyParams, SaltLen};
#[cfg(feature = "test-hooks")]
#[doc(hidden)]
pub use scheme::Unsliced;
pub use scheme::{EncryptionScheme, SignatureScheme};

/// The randomness traits keys take (rand_core 0.10), re-exported for callers.
pub use rand_core;

/// The `pkcs1` crate, whose [`DecodeRsaPrivateKey`](pkcs1::DecodeRsaPrivateKey),
/// [`EncodeRsaPrivateKey`](pkcs1::EncodeRsaPrivateKey),
/// [`DecodeRsaPublicKey`](pkcs1::DecodeRsaPublicKey) and
/// [`EncodeRsaPublicKey`](pkcs1::EncodeRsaPublicKey) the keys implement.
pub use pkcs1;
/// The `pkcs8` crate, whose [`DecodePrivateKey`](pkcs8::DecodePrivateKey),
/// [`EncodePrivateKey`](pkcs8::EncodePrivateKey) (and through `pkcs8::spki`,
/// [`DecodePublicKey`](pkcs8::DecodePublicKey), [`EncodePublicKey`](pkcs8::EncodePublicKey))
/// the keys implement.
pub use pkcs8;
/// The SHA-2 hashes, the `D` of the typed keys.
pub use sha2;
/// RustCrypto's signature traits, which the typed signing and verifying keys implement.
pub use signature;

/// [`RsaPrivateKey`] under RustCrypto `rsa` 0.10's name.
pub type PrivateKey = RsaPrivateKey;
/// [`RsaPublicKey`] under RustCrypto `rsa` 0.10's name.
pub type PublicKey = RsaPublicKey;

/// The operating system's entropy source as an infallible [`rand_core::CryptoRng`]: the
/// `getrandom` crate's `SysRng`, which panics if the OS fails to deliver randomness. Needs the
/// `std` feature.
#[cfg(feature = "std")]
pub type OsRng = rand_core::UnwrapErr<getrandom::SysRng>;

/// A new [`OsRng`].
#[cfg(feature = "std")]
pub fn os_rng() -> OsRng {
    rand_core::UnwrapErr(getrandom::SysRng)
}
