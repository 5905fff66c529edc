//! RSA on the `bignum` crate: keys, key generation, the RSA primitives, PKCS #1 v1.5, PSS and
//! OAEP, and PKCS #1 / PKCS #8 / SubjectPublicKeyInfo encodings.

mod encoding;
mod error;
mod key;

pub use encoding::{
    Encoding, KeyFormat, PublicFormat, decode_private_key, decode_public_key, encode_private_key,
    encode_public_key,
};
pub use error::{Error, KeyError, Result};
pub use key::parts::{PrivateKeyParts, PublicKeyParts};
