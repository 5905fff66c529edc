//! RustCrypto `rsa` 0.10.0's API over [rsatool-rsa](rsatool_rsa): a drop-in replacement.
//!
//! This crate is named `rsa`, is version 0.10.0 and has upstream's module paths, types,
//! traits and cargo features, so that a project can put
//!
//! ```toml
//! [patch.crates-io]
//! rsa = { path = ".../rsatool/compat/rsa-0.10" }
//! ```
//!
//! in its `Cargo.toml` and every crate of its graph that asks for `rsa` 0.10 gets this one.
//! It is a translation layer: crypto-bigint's `BoxedUint` values appear where upstream's
//! API has them (the key constructors and accessors), converted at that boundary; every
//! operation (key generation, the private operation with blinding and its fault check, the
//! padding and its constant-time checks) runs on rsatool-rsa and its own constant-time
//! bignum. What differs from upstream, and why, is in rsatool-rsa's `docs/porting.md`.
//!
//! # Example
//!
//! ```
//! use rsa::{Oaep, PrivateKey, PublicKey};
//! use sha2::Sha256;
//!
//! let mut rng = rand::rng();
//! let private_key = PrivateKey::new(&mut rng, 2048).expect("failed to generate a key");
//! let public_key = PublicKey::from(&private_key);
//! let data = b"hello world";
//! let enc_data = public_key
//!     .encrypt(&mut rng, Oaep::<Sha256>::new(), &data[..])
//!     .expect("failed to encrypt");
//! let dec_data = private_key
//!     .decrypt(Oaep::<Sha256>::new(), &enc_data)
//!     .expect("failed to decrypt");
//! assert_eq!(&data[..], &dec_data[..]);
//! ```

#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[macro_use]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub use crypto_bigint::BoxedUint;
pub use crypto_common::Generate;
pub use rand_core;
pub use signature;

mod bridge;
mod encoding;
#[path = "../../shared/error_type.rs"]
mod error_type;
pub mod errors;
mod key_traits;
pub mod oaep;
#[path = "../../shared/oaep_impls.rs"]
mod oaep_impls;
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

#[cfg(feature = "pkcs1v15")]
pub mod pkcs1v15;
#[cfg(feature = "pkcs1v15")]
#[path = "../../shared/pkcs1v15_impls.rs"]
mod pkcs1v15_impls;

#[cfg(feature = "hazmat")]
pub mod hazmat;

#[cfg(feature = "encoding")]
pub use pkcs1;
#[cfg(feature = "encoding")]
pub use pkcs8;
pub use sha2;

pub use crate::{
    errors::{Error, Result},
    oaep::Oaep,
    private_key::PrivateKey,
    pss::Pss,
    public_key::PublicKey,
    traits::CrtValue,
};

#[cfg(feature = "pkcs1v15")]
pub use crate::pkcs1v15::{Pkcs1v15Encrypt, Pkcs1v15Sign};

/// Deprecated alias for [`PrivateKey`].
#[deprecated(since = "0.10.0", note = "use `rsa::PrivateKey` instead")]
pub type RsaPrivateKey = PrivateKey;

/// Deprecated alias for [`PublicKey`].
#[deprecated(since = "0.10.0", note = "use `rsa::PublicKey` instead")]
pub type RsaPublicKey = PublicKey;

/// A 1024-bit key from a fixed seed, for the schemes' unit tests.
#[cfg(test)]
fn test_key() -> PrivateKey {
    use rand_core::SeedableRng;
    PrivateKey::new(&mut rand::rngs::ChaCha8Rng::from_seed([5; 32]), 1024).expect("key")
}
