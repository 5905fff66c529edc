//! RSA-related trait definitions, as in 0.9.

mod encryption;
pub(crate) mod keys;
mod padding;

pub use encryption::{Decryptor, EncryptingKeypair, RandomizedDecryptor, RandomizedEncryptor};
pub use keys::{PrivateKeyParts, PublicKeyParts};
pub use padding::{PaddingScheme, SignatureScheme};
