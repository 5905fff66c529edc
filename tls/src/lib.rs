//! A rustls key provider and RSA signature verification on `rsatool-rsa`: the private-key
//! operations of a rustls server's (or client's) TLS handshakes run on this workspace's
//! constant-time, blinded, fault-checked RSA, and can coalesce across threads.
//!
//! - [`RsaKeyProvider`]: rustls's `KeyProvider`. RSA private keys (PKCS #1, or PKCS #8 with
//!   `rsaEncryption`) load into [`rsatool_rsa::RsaPrivateKey`] and sign the six RSA schemes of
//!   TLS through [`RsaSigningKey`]; other key types go to a fallback provider.
//! - [`RSA_ALGORITHMS`]: RSA signature verification (PKCS #1 v1.5 and PSS with SHA-256/384/512)
//!   for rustls's certificate and handshake checks.
//! - [`provider`]: another `CryptoProvider` (ring's, aws-lc-rs's) with both in place of its
//!   RSA: its cipher suites, key exchange and other signature algorithms kept.
//!
//! This crate enables no rustls crypto provider itself: a user's dependency graph gains no
//! ring or aws-lc-sys through it.
//!
//! # A server
//!
//! ```ignore
//! use std::sync::Arc;
//! use rsatool_rustls::RsaKeyProvider;
//!
//! let provider = rsatool_rustls::provider(
//!     rustls::crypto::aws_lc_rs::default_provider(),
//!     RsaKeyProvider::new(),
//! );
//! let config = rustls::ServerConfig::builder_with_provider(Arc::new(provider))
//!     .with_safe_default_protocol_versions()?
//!     .with_no_client_auth()
//!     .with_single_cert(certs, key)?; // the RSA key loads through RsaKeyProvider
//! ```
//!
//! The same on ring, as this crate's tests and example run it:
//!
//! ```
//! # #![allow(deprecated)] // ring's provider, which rustls deprecates for lacking post-quantum kx
//! use std::sync::Arc;
//! use rsatool_rustls::RsaKeyProvider;
//! use rustls::pki_types::{CertificateDer, PrivateKeyDer, pem::PemObject};
//!
//! # let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
//! # let certs = CertificateDer::pem_file_iter(format!("{dir}/server-2048.crt.pem"))?
//! #     .collect::<Result<Vec<_>, _>>()?;
//! # let key = PrivateKeyDer::from_pem_file(format!("{dir}/server-2048.key.pem"))?;
//! let provider = rsatool_rustls::provider(
//!     rustls::crypto::ring::default_provider(),
//!     RsaKeyProvider::new(),
//! );
//! let config = rustls::ServerConfig::builder_with_provider(Arc::new(provider))
//!     .with_safe_default_protocol_versions()?
//!     .with_no_client_auth()
//!     .with_single_cert(certs, key)?;
//! # let _ = config;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Call [`provider`] once, at start-up: it leaks the merged tables it builds, so that they
//! live as long as rustls needs them.
//!
//! # Coalescing
//!
//! [`RsaKeyProvider::coalescing`] loads keys that are
//! [`RsaPrivateKey::coalescing`](rsatool_rsa::RsaPrivateKey::coalescing): signatures that
//! meet run four at a time on the eight lanes of AVX-512 IFMA, at the cost of each waiting
//! for a pass. Whether it pays depends on how many handshakes sign at once, which the
//! server's shape decides. The measurements behind this advice were taken on a 2-core machine
//! only; on more cores, measure (`benches/device/handshakes.sh` is the prepared run).
//!
//! - **A blocking server with several times more handshake threads than cores** (thread per
//!   connection, or a pool sized for blocking I/O), on AVX-512 IFMA, RSA-2048: the one shape
//!   where coalescing can save server CPU per handshake, and only when signatures often meet:
//!   at four threads a core it was within the runs' spread of the plain key, and it showed at
//!   eight and sixteen threads a core.
//!   At 3072 bits the lanes gain less; from 4096 bits every call runs alone.
//! - **An async runtime (tokio-rustls) with its default workers**: use the plain key. rustls
//!   signs synchronously inside `process_new_packets`, so a worker holds its core for the
//!   signature and never more signatures run at once than there are workers: coalescing
//!   changes nothing there. Moving the signature off the worker (`block_in_place`) costs a
//!   plain key its hand-off; a server that wants the lanes runs its handshakes on a blocking
//!   pool of many threads instead.
//! - **Threads equal to cores, or no AVX-512 IFMA**: harmless and useless.
//! - **A host whose cores other processes keep busy**: prefer the plain key, or measure. The
//!   callers waiting for a pass are parked, so the server keeps fewer runnable threads to claim
//!   its share of a contended machine.
//!
//! BENCHMARKS.md, "TLS handshakes (rustls)", has the handshakes per second behind this advice
//! (`cargo run --release -p benches --features tls --bin handshakes`); `rsa/src/coalesce.rs`
//! and `RsaPrivateKey::coalescing`'s documentation say what a pass trades.
//!
//! ```ignore
//! let provider = rsatool_rustls::provider(
//!     rustls::crypto::aws_lc_rs::default_provider(),
//!     RsaKeyProvider::new().coalescing(),
//! );
//! ```
//!
//! # Secrets
//!
//! The private key lives in [`rsatool_rsa::RsaPrivateKey`] (wiped on drop, constant-time
//! operations, blinding, fault check). No type of this crate prints a secret in `Debug`. The
//! DER that rustls hands to [`KeyProvider::load_private_key`](rustls::crypto::KeyProvider)
//! is rustls's to wipe.

mod keys;
mod scheme;
mod sign;
mod verify;

pub use keys::RsaKeyProvider;
pub use sign::RsaSigningKey;
pub use verify::RSA_ALGORITHMS;

use rustls::crypto::CryptoProvider;

/// `base` with this crate's key provider and RSA verification: `keys` loads the private
/// keys (with `base`'s own key provider as its fallback for other key types, unless `keys`
/// names one), and [`RSA_ALGORITHMS`] replaces `base`'s RSA entries in its signature
/// verification algorithms (the others, ECDSA and Ed25519, kept in their places). Cipher
/// suites, key exchange groups and randomness stay `base`'s.
///
/// Each call leaks the merged tables (a few hundred bytes) and the key provider, which
/// rustls holds as `&'static`: call it once, at start-up, and share the result.
pub fn provider(base: CryptoProvider, keys: RsaKeyProvider) -> CryptoProvider {
    let keys = if keys.has_fallback() {
        keys
    } else {
        keys.with_fallback(base.key_provider)
    };
    let signature_verification_algorithms = verify::merged(&base.signature_verification_algorithms);
    CryptoProvider {
        key_provider: Box::leak(Box::new(keys)),
        signature_verification_algorithms,
        ..base
    }
}
