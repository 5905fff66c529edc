//! PKCS #1 v1.5 (RFC 8017): RSASSA-PKCS1-v1_5 signatures (§8.2, EMSA-PKCS1-v1_5 of §9.2) and
//! RSAES-PKCS1-v1_5 encryption (§7.2) with implicit-rejection decryption by default.
//!
//! Signatures: EM = 0x00 ‖ 0x01 ‖ PS ‖ 0x00 ‖ T, with PS at least eight 0xff bytes and T the
//! DER DigestInfo of the message hash, k bytes in all (k the modulus length). Verification
//! re-encodes the EM it expects and compares the whole of it; it never parses a DigestInfo.
//!
//! [`Pkcs1v15Sign`] is the scheme for [`RsaPrivateKey::sign`](crate::RsaPrivateKey::sign) and
//! [`RsaPublicKey::verify`](crate::RsaPublicKey::verify); [`SigningKey`], [`VerifyingKey`] and
//! [`Signature`] carry RustCrypto's `signature` traits for code written against them, and
//! [`EncryptingKey`] / [`DecryptingKey`] the encryptor traits of [`crate::traits`].

mod encrypt;
mod keys;
mod sign;

pub use encrypt::Pkcs1v15Encrypt;
pub use keys::{DecryptingKey, EncryptingKey};
pub use sign::{Pkcs1v15Sign, SigningKey, VerifyingKey, digest_info_prefix_of, emsa_pkcs1v15};

/// The signature type of the `signature` traits, shared with PSS.
pub use crate::typed_signature::Signature;
