//! The fixtures, the servers' and the client's configurations, and the check every handshake
//! passes.
//!
//! Servers: TLS 1.3 only, X25519 only, no session cache and no tickets (every handshake is a
//! full one), the certificate and key of `tls/tests/data/server-BITS.*.pem` loaded through the
//! row's provider. The client: rustls on aws-lc-rs, TLS 1.3 and X25519 only, resumption off,
//! trusting the fixtures' CA through webpki on aws-lc-rs, and offering one signature scheme
//! (`--scheme`), so that every server signs with it.

use std::sync::atomic::{AtomicU16, AtomicU32, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use benches::tls_support::{Record, Recording, offering_only};
use rsatool_rustls::RsaKeyProvider;
use rustls::client::Resumption;
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::ServerCertVerifier;
use rustls::crypto::{CryptoProvider, aws_lc_rs, ring};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::server::NoServerSessionStorage;
use rustls::sign::{CertifiedKey, Signer, SigningKey, SingleCertAndKey};
use rustls::{
    ClientConfig, ClientConnection, CommonState, HandshakeKind, NamedGroup, ProtocolVersion,
    RootCertStore, ServerConfig, SignatureAlgorithm, SignatureScheme,
};

/// A server row: its name in the tables and its configuration.
#[derive(Clone)]
pub struct Server {
    /// The row's name.
    pub name: &'static str,
    /// The configuration every connection of the row shares (one key, so one coalescer).
    pub config: Arc<ServerConfig>,
}

/// The server providers, in the tables' order.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// rustls's aws-lc-rs provider: the reference of every ratio.
    AwsLc,
    /// rustls's ring provider.
    Ring,
    /// `rsatool_rustls::provider` over aws-lc-rs's, plain keys.
    Ours,
    /// The same with `RsaKeyProvider::coalescing()`.
    OursCoalescing,
}

impl Provider {
    /// The four rows of every setting.
    pub const ALL: [Provider; 4] = [
        Provider::AwsLc,
        Provider::Ring,
        Provider::Ours,
        Provider::OursCoalescing,
    ];

    /// The provider of a row name, as `--servers` spells it.
    pub fn parse(name: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The row's name.
    pub fn name(self) -> &'static str {
        match self {
            Provider::AwsLc => AWS_LC,
            Provider::Ring => "ring",
            Provider::Ours => "ours",
            Provider::OursCoalescing => "ours-coalescing",
        }
    }

    /// The provider, X25519 its only key exchange group. Ours are built once (`provider`
    /// leaks its tables) and shared by every size.
    fn crypto(self) -> Arc<CryptoProvider> {
        static OURS: OnceLock<Arc<CryptoProvider>> = OnceLock::new();
        static COALESCING: OnceLock<Arc<CryptoProvider>> = OnceLock::new();
        match self {
            Provider::AwsLc => Arc::new(x25519_only(aws_lc_rs::default_provider())),
            Provider::Ring => Arc::new(x25519_only(ring_provider())),
            Provider::Ours => Arc::clone(OURS.get_or_init(|| {
                Arc::new(rsatool_rustls::provider(
                    x25519_only(aws_lc_rs::default_provider()),
                    RsaKeyProvider::new(),
                ))
            })),
            Provider::OursCoalescing => Arc::clone(COALESCING.get_or_init(|| {
                Arc::new(rsatool_rustls::provider(
                    x25519_only(aws_lc_rs::default_provider()),
                    RsaKeyProvider::new().coalescing(),
                ))
            })),
        }
    }
}

/// The name of the reference row.
pub const AWS_LC: &str = "aws-lc-rs";

/// ring's provider. rustls deprecates it for its lack of post-quantum key exchange, which
/// these handshakes (X25519 only) do not use.
#[allow(deprecated)]
fn ring_provider() -> CryptoProvider {
    ring::default_provider()
}

fn x25519_only(base: CryptoProvider) -> CryptoProvider {
    let kx_groups = base
        .kx_groups
        .iter()
        .copied()
        .filter(|g| g.name() == NamedGroup::X25519)
        .collect();
    CryptoProvider { kx_groups, ..base }
}

/// The fixtures' folder, when `--fixtures` names one.
pub static FIXTURES: OnceLock<String> = OnceLock::new();

/// A fixture file: in `--fixtures`, else in this checkout's `tls/tests/data`.
fn fixture(name: &str) -> String {
    match FIXTURES.get() {
        Some(dir) => format!("{dir}/{name}"),
        None => format!("{}/../tls/tests/data/{name}", env!("CARGO_MANIFEST_DIR")),
    }
}

fn certs(bits: usize) -> Result<Vec<CertificateDer<'static>>, String> {
    let path = fixture(&format!("server-{bits}.crt.pem"));
    CertificateDer::pem_file_iter(&path)
        .and_then(|it| it.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("{path}: {e}"))
}

fn key(bits: usize) -> Result<PrivateKeyDer<'static>, String> {
    let path = fixture(&format!("server-{bits}.key.pem"));
    PrivateKeyDer::from_pem_file(&path).map_err(|e| format!("{path}: {e}"))
}

/// Full handshakes only: no session cache, no tickets, no early data.
fn full_handshakes_only(config: &mut ServerConfig) {
    config.session_storage = Arc::new(NoServerSessionStorage {});
    config.send_tls13_tickets = 0;
    config.max_early_data_size = 0;
}

/// The server of `provider` with the RSA certificate and key of `bits` bits.
pub fn server(provider: Provider, bits: usize) -> Result<Server, String> {
    let mut config = ServerConfig::builder_with_provider(provider.crypto())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(certs(bits)?, key(bits)?)
        .map_err(|e| format!("{} at {bits} bits: {e}", provider.name()))?;
    full_handshakes_only(&mut config);
    Ok(Server {
        name: provider.name(),
        config: Arc::new(config),
    })
}

/// The server of `provider` whose handshake signatures run inside
/// `tokio::task::block_in_place`: the worker that signs hands its other tasks to another
/// thread for the signature's time, so that more handshakes than there are workers can sign
/// at once. Only for a server on tokio's multi-threaded runtime.
pub fn server_signing_in_place(
    provider: Provider,
    bits: usize,
    name: &'static str,
) -> Result<Server, String> {
    let crypto = provider.crypto();
    let key = crypto
        .key_provider
        .load_private_key(key(bits)?)
        .map_err(|e| format!("{name} at {bits} bits: {e}"))?;
    let certified = CertifiedKey::new(certs(bits)?, Arc::new(InPlace(key)));
    certified
        .keys_match()
        .map_err(|e| format!("{name} at {bits} bits: {e}"))?;
    let mut config = ServerConfig::builder_with_provider(crypto)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(SingleCertAndKey::from(certified)));
    full_handshakes_only(&mut config);
    Ok(Server {
        name,
        config: Arc::new(config),
    })
}

/// A signing key whose signers sign inside `block_in_place`.
#[derive(Debug)]
struct InPlace(Arc<dyn SigningKey>);

impl SigningKey for InPlace {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        self.0
            .choose_scheme(offered)
            .map(|s| Box::new(InPlaceSigner(s)) as Box<dyn Signer>)
    }

    fn public_key(&self) -> Option<rustls::pki_types::SubjectPublicKeyInfoDer<'_>> {
        self.0.public_key()
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        self.0.algorithm()
    }
}

#[derive(Debug)]
struct InPlaceSigner(Box<dyn Signer>);

impl Signer for InPlaceSigner {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, rustls::Error> {
        tokio::task::block_in_place(|| self.0.sign(message))
    }

    fn scheme(&self) -> SignatureScheme {
        self.0.scheme()
    }
}

/// The client side: aws-lc-rs, offering one RSA signature scheme.
pub struct Client {
    config: ClientConfig,
    webpki: Arc<WebPkiServerVerifier>,
    /// The one scheme offered, which every handshake must be signed with.
    pub scheme: SignatureScheme,
}

impl Client {
    /// The client that offers `scheme` alone (an RSA scheme aws-lc-rs verifies).
    pub fn new(scheme: SignatureScheme) -> Result<Client, String> {
        // The certificates' own signatures (sha256WithRSAEncryption) still verify through all
        // of aws-lc-rs's algorithms.
        let provider = Arc::new(
            offering_only(x25519_only(aws_lc_rs::default_provider()), scheme)
                .ok_or_else(|| format!("aws-lc-rs does not verify {scheme:?}"))?,
        );
        let mut roots = RootCertStore::empty();
        let ca = fixture("ca.crt.pem");
        for cert in CertificateDer::pem_file_iter(&ca).map_err(|e| format!("{ca}: {e}"))? {
            roots
                .add(cert.map_err(|e| format!("{ca}: {e}"))?)
                .map_err(|e| format!("{ca}: {e}"))?;
        }
        let webpki =
            WebPkiServerVerifier::builder_with_provider(Arc::new(roots), Arc::clone(&provider))
                .build()
                .map_err(|e| e.to_string())?;
        let mut config = ClientConfig::builder_with_provider(provider)
            .with_protocol_versions(&[&rustls::version::TLS13])
            .map_err(|e| e.to_string())?
            .dangerous()
            .with_custom_certificate_verifier(Arc::clone(&webpki) as Arc<dyn ServerCertVerifier>)
            .with_no_client_auth();
        config.resumption = Resumption::disabled();
        Ok(Client {
            config,
            webpki,
            scheme,
        })
    }

    /// A configuration for one connection, and what its verifier records.
    pub fn connection_config(&self) -> (Arc<ClientConfig>, Arc<Recorder>) {
        let recorder = Arc::new(Recording {
            inner: Arc::clone(&self.webpki),
            seen: Verified::default(),
        });
        let mut config = self.config.clone();
        config
            .dangerous()
            .set_certificate_verifier(Arc::clone(&recorder) as Arc<dyn ServerCertVerifier>);
        (Arc::new(config), recorder)
    }

    /// A new connection to `localhost`, and what its verifier records.
    pub fn connection(&self) -> Result<(ClientConnection, Arc<Recorder>), String> {
        let (config, recorder) = self.connection_config();
        let conn = ClientConnection::new(config, server_name()).map_err(|e| e.to_string())?;
        Ok((conn, recorder))
    }
}

/// The name the certificates are for.
pub fn server_name() -> ServerName<'static> {
    ServerName::try_from("localhost").expect("a valid DNS name")
}

/// webpki's verifier on aws-lc-rs, recording the scheme of the handshake signatures it
/// verifies (one connection's) in a [`Verified`].
pub type Recorder = Recording<WebPkiServerVerifier, Verified>;

/// What a connection's [`Recorder`] has verified.
#[derive(Debug, Default)]
pub struct Verified {
    /// The last scheme verified (its TLS code point), 0 before any.
    scheme: AtomicU16,
    /// Handshake signatures verified.
    signatures: AtomicU32,
}

impl Record for Verified {
    fn record(&self, scheme: SignatureScheme) {
        self.scheme.store(u16::from(scheme), Relaxed);
        self.signatures.fetch_add(1, Relaxed);
    }
}

impl Verified {
    /// Whether the finished handshake of `conn` is the one every row must make: complete, TLS
    /// 1.3, full, X25519, and one server signature of `expected`, verified.
    pub fn check(&self, conn: &CommonState, expected: SignatureScheme) -> Result<(), String> {
        if conn.is_handshaking() {
            return Err("the handshake did not complete".to_owned());
        }
        if conn.protocol_version() != Some(ProtocolVersion::TLSv1_3) {
            return Err(format!("protocol {:?}", conn.protocol_version()));
        }
        if conn.handshake_kind() != Some(HandshakeKind::Full) {
            return Err(format!("handshake kind {:?}", conn.handshake_kind()));
        }
        let group = conn.negotiated_key_exchange_group().map(|g| g.name());
        if group != Some(NamedGroup::X25519) {
            return Err(format!("key exchange {group:?}"));
        }
        let signatures = self.signatures.load(Relaxed);
        let scheme = SignatureScheme::from(self.scheme.load(Relaxed));
        if signatures != 1 || scheme != expected {
            return Err(format!(
                "{signatures} server signature(s) verified, the last {scheme:?}; expected one of \
                 {expected:?}"
            ));
        }
        Ok(())
    }
}
