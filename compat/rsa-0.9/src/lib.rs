//! RustCrypto `rsa` 0.9.10's API on rsatool-rsa: a drop-in replacement.
//!
//! Same package name and version, same module paths, types, traits, features and dependency
//! majors (rand_core 0.6, digest 0.10, signature 2, pkcs1 0.7, pkcs8 0.10, spki 0.7,
//! `num-bigint-dig`'s [`BigUint`]), so that one line in a user's `Cargo.toml` replaces 0.9 in
//! the whole dependency graph:
//!
//! ```toml
//! [patch.crates-io]
//! rsa = { path = "…/compat/rsa-0.9" }
//! ```
//!
//! This crate only converts: `BigUint`s to and from big-endian bytes and rsatool-rsa's key
//! parts, rand_core 0.6 RNGs to the rand_core 0.10 `CryptoRng` rsatool-rsa takes, digest 0.10
//! hash types to rsatool-rsa's [`HashAlg`](rsatool_rsa::HashAlg) (by their digest of the empty
//! input). Key generation, the private and public operations and the padding checks run on
//! rsatool-rsa and its constant-time `bignum`: the private operation is blinded, uses the CRT
//! and is checked against faults, and its time does not depend on the secrets, which removes
//! the Marvin timing leak of 0.9's `num-bigint-dig` arithmetic (RUSTSEC-2023-0071).
//! rsatool-rsa's porting guide (`rsa/docs/porting.md`) lists what still differs from 0.9.
//!
//! # Example
//!
//! ```
//! use rsa::pkcs1v15::{SigningKey, VerifyingKey};
//! use rsa::signature::{Keypair, RandomizedSigner, Verifier};
//! use rsa::{Oaep, RsaPrivateKey, RsaPublicKey};
//! use sha2::Sha256;
//!
//! let mut rng = rand_chacha::ChaCha20Rng::from_seed([7; 32]);
//! # use rand_chacha::rand_core::SeedableRng;
//! let private_key = RsaPrivateKey::new(&mut rng, 2048)?;
//! let public_key = RsaPublicKey::from(&private_key);
//!
//! let ciphertext = public_key.encrypt(&mut rng, Oaep::new::<Sha256>(), b"hello")?;
//! assert_eq!(private_key.decrypt(Oaep::new::<Sha256>(), &ciphertext)?, b"hello");
//!
//! let signing_key = SigningKey::<Sha256>::new(private_key);
//! let signature = signing_key.sign_with_rng(&mut rng, b"hello");
//! signing_key.verifying_key().verify(b"hello", &signature)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![no_std]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub use num_bigint::BigUint;
pub use rand_core;
pub use signature;

mod bridge;
mod encoding;
#[path = "../../shared/error_type.rs"]
mod error_type;
pub mod errors;
pub mod oaep;
#[path = "../../shared/oaep_impls.rs"]
mod oaep_impls;
pub mod pkcs1v15;
#[path = "../../shared/pkcs1v15_impls.rs"]
mod pkcs1v15_impls;
mod private_key;
#[path = "../../shared/private_key_impls.rs"]
mod private_key_impls;
pub mod pss;
#[path = "../../shared/pss_impls.rs"]
mod pss_impls;
mod public_key;
#[path = "../../shared/public_key_ops.rs"]
mod public_key_ops;
#[path = "../../shared/rsa_traits.rs"]
mod rsa_traits;
pub mod traits;
#[path = "../../shared/typed_key.rs"]
mod typed_key;

#[cfg(feature = "hazmat")]
pub mod hazmat;

pub use pkcs1;
pub use pkcs8;
#[cfg(feature = "sha2")]
pub use sha2;

pub use crate::{
    errors::{Error, Result},
    oaep::Oaep,
    pkcs1v15::{Pkcs1v15Encrypt, Pkcs1v15Sign},
    private_key::{CrtValue, RsaPrivateKey},
    pss::Pss,
    public_key::RsaPublicKey,
};
