//! RSA on the `bignum` crate: keys, key generation, the RSA primitives, PKCS #1 v1.5, PSS and
//! OAEP, and PKCS #1 / PKCS #8 / SubjectPublicKeyInfo encodings.
//!
//! Under construction: see the project's issues for what lands here and in which order.
