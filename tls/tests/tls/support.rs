//! What the TLS measurements and tests check handshakes with: a provider whose verification
//! offers one signature scheme, and a certificate verifier that records the scheme of each
//! handshake signature it verifies.
//!
//! Three places use it: the handshake tests of rsatool-rustls against ring (through
//! `common.rs`), the benches crate's test of rsatool-rustls against aws-lc-rs (which includes
//! `common.rs` by `#[path]`) and its `handshakes` binary (the benches library includes this file
//! by `#[path]` as `benches::tls_support`, feature `tls`). So it names nothing but rustls's API
//! (no provider, no crate of this workspace): it compiles in either crate.

use std::fmt::Debug;
use std::sync::{Arc, Mutex, PoisonError};

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::{DigitallySignedStruct, DistinguishedName, SignatureScheme};

/// `base` whose handshake signature verification offers (and accepts) `scheme` alone, so that
/// the peer must sign with it or fail; certificate signatures still verify through all of
/// `base`'s algorithms. `None` where `base` does not map `scheme` to exactly one entry.
///
/// The list of that one entry is leaked (rustls keeps `&'static` lists): one per call.
pub fn offering_only(base: CryptoProvider, scheme: SignatureScheme) -> Option<CryptoProvider> {
    let algs = base.signature_verification_algorithms;
    let mapping: Vec<_> = algs
        .mapping
        .iter()
        .filter(|(s, _)| *s == scheme)
        .copied()
        .collect();
    if mapping.len() != 1 {
        return None;
    }
    Some(CryptoProvider {
        signature_verification_algorithms: WebPkiSupportedAlgorithms {
            all: algs.all,
            mapping: Vec::leak(mapping),
        },
        ..base
    })
}

/// What a [`Recording`] verifier keeps of the handshake signatures it has verified.
pub trait Record: Debug + Send + Sync {
    /// Keeps `scheme`, the scheme of a handshake signature that has just verified.
    fn record(&self, scheme: SignatureScheme);
}

/// Every scheme, in the order verified.
impl Record for Mutex<Vec<SignatureScheme>> {
    fn record(&self, scheme: SignatureScheme) {
        // A panic elsewhere while the list was held leaves it whole: push anyway.
        self.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(scheme);
    }
}

/// A record shared with whoever reads it.
impl<R: Record + ?Sized> Record for Arc<R> {
    fn record(&self, scheme: SignatureScheme) {
        R::record(self, scheme);
    }
}

/// A certificate verifier that is `inner` (webpki's), and hands the scheme of each handshake
/// signature `inner` verifies to `seen`; a signature that fails leaves `seen` as it was. A
/// server verifier in a client, a client verifier in a server.
#[derive(Debug)]
pub struct Recording<V: ?Sized, R> {
    /// The verifier that decides.
    pub inner: Arc<V>,
    /// What the verified schemes go to.
    pub seen: R,
}

/// The methods both kinds of [`Recording`] verifier share: each of the named handshake
/// signature checks verifies as `self.inner` does, then records the scheme of a signature that
/// verified; the schemes supported are `self.inner`'s.
macro_rules! verify_then_record_signatures {
    ($($verify:ident),*) => {
        $(
            fn $verify(
                &self,
                message: &[u8],
                cert: &CertificateDer<'_>,
                dss: &DigitallySignedStruct,
            ) -> Result<HandshakeSignatureValid, rustls::Error> {
                let valid = self.inner.$verify(message, cert, dss)?;
                self.seen.record(dss.scheme);
                Ok(valid)
            }
        )*

        fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
            self.inner.supported_verify_schemes()
        }
    };
}

impl<R: Record> ServerCertVerifier for Recording<WebPkiServerVerifier, R> {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.inner
            .verify_server_cert(end_entity, intermediates, server_name, ocsp, now)
    }

    verify_then_record_signatures!(verify_tls12_signature, verify_tls13_signature);
}

impl<R: Record> ClientCertVerifier for Recording<dyn ClientCertVerifier, R> {
    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        self.inner.root_hint_subjects()
    }

    fn verify_client_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        now: UnixTime,
    ) -> Result<ClientCertVerified, rustls::Error> {
        self.inner
            .verify_client_cert(end_entity, intermediates, now)
    }

    verify_then_record_signatures!(verify_tls12_signature, verify_tls13_signature);
}
