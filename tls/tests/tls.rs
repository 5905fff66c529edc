//! rsatool-rustls judged by rustls on ring: full TLS handshakes in memory (no sockets) between
//! a rustls client on ring and a rustls server on this crate's provider (ring for everything
//! but the key provider and RSA verification), keys loaded as rustls hands them, and this
//! crate's RSA signatures and verification against ring's. Certificates and keys are
//! fixtures made by the openssl CLI (`tests/data/make.sh`).

// Test code: `unwrap`/`expect` are the assertions.
#![allow(clippy::unwrap_used)]

#[path = "tls/common.rs"]
mod common;
#[path = "tls/handshake.rs"]
mod handshake;
#[path = "tls/keys.rs"]
mod keys;
#[path = "tls/verify.rs"]
mod verify;
