//! PKCS #1 v1.5 (RFC 8017): encryption (RSAES-PKCS1-v1_5, §7.2) with implicit-rejection
//! decryption by default.

mod encrypt;

pub use encrypt::Pkcs1v15Encrypt;
