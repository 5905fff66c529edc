//! Fixtures, configurations and the in-memory handshake.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex, OnceLock};

use rsatool_rustls::RsaKeyProvider;
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::server::WebPkiClientVerifier;
use rustls::sign::SigningKey;
use rustls::{
    ClientConfig, ClientConnection, ConfigBuilder, Connection, ProtocolVersion, RootCertStore,
    ServerConfig, ServerConnection, SignatureScheme, SupportedProtocolVersion, WantsVerifier,
};

// The provider offering one scheme and the recording verifier, shared with the benches crate
// (its `handshakes` binary and its aws-lc-rs client's test).
#[path = "support.rs"]
mod tls_support;
use tls_support::Recording;
pub use tls_support::offering_only;

pub const TLS12: &SupportedProtocolVersion = &rustls::version::TLS12;
pub const TLS13: &SupportedProtocolVersion = &rustls::version::TLS13;

/// The six RSA schemes, in rustls's order of preference for its own RSA keys.
pub const RSA_SCHEMES: [SignatureScheme; 6] = [
    SignatureScheme::RSA_PSS_SHA512,
    SignatureScheme::RSA_PSS_SHA384,
    SignatureScheme::RSA_PSS_SHA256,
    SignatureScheme::RSA_PKCS1_SHA512,
    SignatureScheme::RSA_PKCS1_SHA384,
    SignatureScheme::RSA_PKCS1_SHA256,
];

/// A fixture of `tls/tests/data`, found from this crate's folder or a sibling's (the benches
/// crate's test of rsatool-rustls against aws-lc-rs includes this module).
pub fn path(name: &str) -> String {
    format!("{}/../tls/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

pub fn certs(name: &str) -> Vec<CertificateDer<'static>> {
    CertificateDer::pem_file_iter(path(name))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

pub fn key(name: &str) -> PrivateKeyDer<'static> {
    PrivateKeyDer::from_pem_file(path(name)).unwrap()
}

pub fn roots() -> Arc<RootCertStore> {
    let mut roots = RootCertStore::empty();
    roots.add(certs("ca.crt.pem").remove(0)).unwrap();
    Arc::new(roots)
}

/// ring's provider: the peer, and the oracle. (rustls deprecates it for lacking post-quantum
/// key exchange, which these tests do not need; aws-lc-rs, which has it, would cost minutes
/// of every test build.)
#[allow(deprecated)]
pub fn ring() -> CryptoProvider {
    rustls::crypto::ring::default_provider()
}

/// The key of that file as ring's key provider loads it: the oracle's signing key.
pub fn ring_key(name: &str) -> Arc<dyn SigningKey> {
    ring().key_provider.load_private_key(key(name)).unwrap()
}

/// ring with this crate's key provider and RSA verification (built once: `provider` leaks).
pub fn ours() -> Arc<CryptoProvider> {
    static OURS: OnceLock<Arc<CryptoProvider>> = OnceLock::new();
    Arc::clone(
        OURS.get_or_init(|| Arc::new(rsatool_rustls::provider(ring(), RsaKeyProvider::new()))),
    )
}

/// The same with coalescing keys.
pub fn ours_coalescing() -> Arc<CryptoProvider> {
    static OURS: OnceLock<Arc<CryptoProvider>> = OnceLock::new();
    Arc::clone(OURS.get_or_init(|| {
        Arc::new(rsatool_rustls::provider(
            ring(),
            RsaKeyProvider::new().coalescing(),
        ))
    }))
}

/// ring's provider whose verification offers (and accepts) only `scheme`: the peer must sign
/// with it or fail.
pub fn ring_offering_only(scheme: SignatureScheme) -> CryptoProvider {
    offering_only(ring(), scheme).unwrap_or_else(|| panic!("ring maps {scheme:?} once"))
}

/// The schemes of the handshake signatures a verifier verified, in order.
pub type Seen = Arc<Mutex<Vec<SignatureScheme>>>;

/// `inner` (webpki's verifier), recording the scheme of each handshake signature it verifies
/// into a new list; and that list.
fn recording<V: ?Sized>(inner: Arc<V>) -> (Arc<Recording<V, Seen>>, Seen) {
    let seen = Seen::default();
    let verifier = Recording {
        inner,
        seen: Arc::clone(&seen),
    };
    (Arc::new(verifier), seen)
}

/// A client on `provider` for `version` that trusts the test CA (verifying through
/// `provider`'s algorithms) and records the server's signature schemes; with a client
/// certificate and key when `auth` names them.
pub fn client(
    provider: Arc<CryptoProvider>,
    version: &'static SupportedProtocolVersion,
    auth: Option<(&str, &str)>,
) -> (ClientConfig, Seen) {
    let webpki = WebPkiServerVerifier::builder_with_provider(roots(), Arc::clone(&provider));
    let (verifier, seen) = recording(webpki.build().unwrap());
    let builder = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[version])
        .unwrap()
        .dangerous()
        .with_custom_certificate_verifier(verifier);
    let config = match auth {
        None => builder.with_no_client_auth(),
        Some((cert, key_name)) => builder
            .with_client_auth_cert(certs(cert), key(key_name))
            .unwrap(),
    };
    (config, seen)
}

/// A server configuration on `provider` for `version`, before its client verifier.
fn server_builder(
    provider: Arc<CryptoProvider>,
    version: &'static SupportedProtocolVersion,
) -> ConfigBuilder<ServerConfig, WantsVerifier> {
    ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[version])
        .unwrap()
}

/// A server on `provider` for `version` with the certificate and key of those files.
pub fn server(
    provider: Arc<CryptoProvider>,
    version: &'static SupportedProtocolVersion,
    cert: &str,
    key_name: &str,
) -> Result<ServerConfig, rustls::Error> {
    server_builder(provider, version)
        .with_no_client_auth()
        .with_single_cert(certs(cert), key(key_name))
}

/// A server as [`server`] that requires a client certificate from the test CA, verified
/// through `provider`'s algorithms, and records the client's signature schemes.
pub fn server_with_client_auth(
    provider: Arc<CryptoProvider>,
    version: &'static SupportedProtocolVersion,
    cert: &str,
    key_name: &str,
) -> (ServerConfig, Seen) {
    let webpki = WebPkiClientVerifier::builder_with_provider(roots(), Arc::clone(&provider));
    let (verifier, seen) = recording(webpki.build().unwrap());
    let config = server_builder(provider, version)
        .with_client_cert_verifier(verifier)
        .with_single_cert(certs(cert), key(key_name))
        .unwrap();
    (config, seen)
}

/// Which side failed a handshake, and its error.
#[derive(Debug)]
pub enum Failed {
    // Read by `Debug` when a test that expects a handshake prints why it failed.
    #[allow(dead_code)]
    Client(rustls::Error),
    Server(rustls::Error),
}

/// What a finished handshake negotiated, seen from both ends.
pub struct Done {
    pub client: Connection,
    pub server: Connection,
}

impl Done {
    /// The protocol version of the client, which the server's must equal.
    pub fn version(&self) -> ProtocolVersion {
        let v = self.client.protocol_version().unwrap();
        assert_eq!(self.server.protocol_version(), Some(v));
        v
    }
}

/// Moves what `from` has to send into `to`, and lets `to` process it.
fn transfer(from: &mut Connection, to: &mut Connection) -> Result<(), rustls::Error> {
    let mut buf = Vec::new();
    while from.wants_write() {
        from.write_tls(&mut buf).unwrap();
    }
    let mut rest = &buf[..];
    while !rest.is_empty() {
        to.read_tls(&mut rest).unwrap();
        to.process_new_packets()?;
    }
    Ok(())
}

/// A full handshake between a client of `client_config` and a server of `server_config`,
/// bytes pumped in memory, then a message each way over the established connection; both ends
/// agree on the protocol version.
pub fn handshake(client_config: ClientConfig, server_config: ServerConfig) -> Result<Done, Failed> {
    let name = ServerName::try_from("localhost").unwrap();
    let mut client =
        Connection::from(ClientConnection::new(Arc::new(client_config), name).unwrap());
    let mut server = Connection::from(ServerConnection::new(Arc::new(server_config)).unwrap());
    for _ in 0..16 {
        transfer(&mut client, &mut server).map_err(Failed::Server)?;
        transfer(&mut server, &mut client).map_err(Failed::Client)?;
        if !client.is_handshaking() && !server.is_handshaking() {
            break;
        }
    }
    assert!(
        !client.is_handshaking() && !server.is_handshaking(),
        "the handshake stalled"
    );

    server.writer().write_all(b"hello from the server").unwrap();
    transfer(&mut server, &mut client).map_err(Failed::Client)?;
    let mut got = [0u8; 21];
    client.reader().read_exact(&mut got).unwrap();
    assert_eq!(&got, b"hello from the server");
    client.writer().write_all(b"hello from the client").unwrap();
    transfer(&mut client, &mut server).map_err(Failed::Server)?;
    server.reader().read_exact(&mut got).unwrap();
    assert_eq!(&got, b"hello from the client");
    let done = Done { client, server };
    done.version();
    Ok(done)
}

/// Each of `schemes`, forced through the offer of a client on `offering_only(scheme)` for
/// `version`: every server of `servers` (each named for a failure's message) signs its
/// handshake with it, the client verifies that one signature, and both ends speak `expected`.
pub fn each_forced_scheme_is_signed(
    servers: &[(String, ServerConfig)],
    offering_only: impl Fn(SignatureScheme) -> Arc<CryptoProvider>,
    version: &'static SupportedProtocolVersion,
    schemes: &[SignatureScheme],
    expected: ProtocolVersion,
) {
    for (name, server_config) in servers {
        for &scheme in schemes {
            let (client_config, seen) = client(offering_only(scheme), version, None);
            let done = handshake(client_config, server_config.clone())
                .unwrap_or_else(|e| panic!("{name}, {scheme:?}: {e:?}"));
            assert_eq!(done.version(), expected, "{name}");
            assert_eq!(
                *seen.lock().unwrap(),
                [scheme],
                "{name}: the server's signature scheme"
            );
        }
    }
}

/// Declares the tests `$tls13` and `$tls12` of [`each_forced_scheme_is_signed`] for the servers
/// `$servers(version)` and the clients on `$offering_only(scheme)`: in TLS 1.3 each of the three
/// PSS schemes (the only ones it signs handshakes with, RFC 8446 §4.2.3), in TLS 1.2 each of the
/// six. Both peers' tests declare theirs with it: ring's here, aws-lc-rs's in the benches crate.
macro_rules! each_forced_scheme_is_signed_tests {
    ($tls13:ident, $tls12:ident, $servers:expr, $offering_only:expr $(,)?) => {
        #[test]
        fn $tls13() {
            use $crate::common::{RSA_SCHEMES, TLS13, each_forced_scheme_is_signed};
            let servers = ($servers)(TLS13);
            let expected = rustls::ProtocolVersion::TLSv1_3;
            each_forced_scheme_is_signed(
                &servers,
                $offering_only,
                TLS13,
                &RSA_SCHEMES[..3],
                expected,
            );
        }

        #[test]
        fn $tls12() {
            use $crate::common::{RSA_SCHEMES, TLS12, each_forced_scheme_is_signed};
            let servers = ($servers)(TLS12);
            let expected = rustls::ProtocolVersion::TLSv1_2;
            each_forced_scheme_is_signed(&servers, $offering_only, TLS12, &RSA_SCHEMES, expected);
        }
    };
}
pub(crate) use each_forced_scheme_is_signed_tests;
