//! rsatool-rustls judged by rustls on aws-lc-rs: full TLS handshakes in memory between a rustls
//! client on aws-lc-rs and a rustls server on `rsatool_rustls::provider` over aws-lc-rs's
//! provider (plain and coalescing keys). aws-lc-rs is the oracle: it verifies each of our
//! server signatures (every scheme forced once through the client's offer, TLS 1.2 and 1.3,
//! RSA-2048/3072/4096), and it signs the client signatures that our RSA verification
//! checks. Certificates and keys: the openssl-made fixtures of `tls/tests/data`.
//!
//! Built with the `tls` feature only (aws-lc-sys takes minutes to build):
//! `cargo test -p benches --features tls --test tls_aws_lc_client`.

// Test code: `unwrap`/`expect` are the assertions.
#![allow(clippy::unwrap_used)]

use std::io::{Read, Write};
use std::sync::{Arc, Mutex, OnceLock};

use rsatool_rustls::RsaKeyProvider;
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms, aws_lc_rs};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::server::WebPkiClientVerifier;
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::{
    ClientConfig, ClientConnection, Connection, DigitallySignedStruct, DistinguishedName,
    ProtocolVersion, RootCertStore, ServerConfig, ServerConnection, SignatureScheme,
    SupportedProtocolVersion,
};

const TLS12: &SupportedProtocolVersion = &rustls::version::TLS12;
const TLS13: &SupportedProtocolVersion = &rustls::version::TLS13;

/// The six RSA schemes of TLS; TLS 1.3 signs handshakes with the first three only.
const RSA_SCHEMES: [SignatureScheme; 6] = [
    SignatureScheme::RSA_PSS_SHA512,
    SignatureScheme::RSA_PSS_SHA384,
    SignatureScheme::RSA_PSS_SHA256,
    SignatureScheme::RSA_PKCS1_SHA512,
    SignatureScheme::RSA_PKCS1_SHA384,
    SignatureScheme::RSA_PKCS1_SHA256,
];

const SIZES: [usize; 3] = [2048, 3072, 4096];

fn path(name: &str) -> String {
    format!("{}/../tls/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn certs(name: &str) -> Vec<CertificateDer<'static>> {
    CertificateDer::pem_file_iter(path(name))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn key(name: &str) -> PrivateKeyDer<'static> {
    PrivateKeyDer::from_pem_file(path(name)).unwrap()
}

fn roots() -> Arc<RootCertStore> {
    let mut roots = RootCertStore::empty();
    roots.add(certs("ca.crt.pem").remove(0)).unwrap();
    Arc::new(roots)
}

/// Our provider over aws-lc-rs's, plain or coalescing (each built once: `provider` leaks).
fn ours(coalescing: bool) -> Arc<CryptoProvider> {
    static PLAIN: OnceLock<Arc<CryptoProvider>> = OnceLock::new();
    static COALESCING: OnceLock<Arc<CryptoProvider>> = OnceLock::new();
    let (cell, keys) = if coalescing {
        (&COALESCING, RsaKeyProvider::new().coalescing())
    } else {
        (&PLAIN, RsaKeyProvider::new())
    };
    Arc::clone(cell.get_or_init(|| {
        Arc::new(rsatool_rustls::provider(
            aws_lc_rs::default_provider(),
            keys,
        ))
    }))
}

/// aws-lc-rs's provider, whose handshake signature verification offers (and accepts) only
/// `scheme`: the server must sign with it or fail. Certificate signatures still verify
/// through all of aws-lc-rs's algorithms.
fn aws_lc_offering_only(scheme: SignatureScheme) -> CryptoProvider {
    let base = aws_lc_rs::default_provider();
    let algs = base.signature_verification_algorithms;
    let mapping: Vec<_> = algs
        .mapping
        .iter()
        .filter(|(s, _)| *s == scheme)
        .copied()
        .collect();
    assert_eq!(mapping.len(), 1, "aws-lc-rs maps {scheme:?}");
    CryptoProvider {
        signature_verification_algorithms: WebPkiSupportedAlgorithms {
            all: algs.all,
            mapping: Vec::leak(mapping),
        },
        ..base
    }
}

/// The schemes of the handshake signatures a verifier checked, in order.
type Seen = Arc<Mutex<Vec<SignatureScheme>>>;

/// webpki's server certificate verifier, recording the schemes it verifies.
#[derive(Debug)]
struct RecordingServerVerifier {
    inner: Arc<WebPkiServerVerifier>,
    seen: Seen,
}

impl ServerCertVerifier for RecordingServerVerifier {
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

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let valid = self.inner.verify_tls12_signature(message, cert, dss)?;
        self.seen.lock().unwrap().push(dss.scheme);
        Ok(valid)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let valid = self.inner.verify_tls13_signature(message, cert, dss)?;
        self.seen.lock().unwrap().push(dss.scheme);
        Ok(valid)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

/// webpki's client certificate verifier (on the server's provider), recording the schemes it
/// verifies and, with `only`, asking the client for that one scheme.
#[derive(Debug)]
struct RecordingClientVerifier {
    inner: Arc<dyn ClientCertVerifier>,
    only: Option<SignatureScheme>,
    seen: Seen,
}

impl ClientCertVerifier for RecordingClientVerifier {
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

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let valid = self.inner.verify_tls12_signature(message, cert, dss)?;
        self.seen.lock().unwrap().push(dss.scheme);
        Ok(valid)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let valid = self.inner.verify_tls13_signature(message, cert, dss)?;
        self.seen.lock().unwrap().push(dss.scheme);
        Ok(valid)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        let all = self.inner.supported_verify_schemes();
        match self.only {
            Some(scheme) => all.into_iter().filter(|s| *s == scheme).collect(),
            None => all,
        }
    }
}

/// A client on `provider` for `version`, trusting the test CA through `provider`'s
/// algorithms and recording the server's signature schemes; with the RSA client certificate
/// and key (loaded by `provider`'s key provider) when `auth`.
fn client(
    provider: CryptoProvider,
    version: &'static SupportedProtocolVersion,
    auth: bool,
) -> (ClientConfig, Seen) {
    let provider = Arc::new(provider);
    let seen = Seen::default();
    let verifier = RecordingServerVerifier {
        inner: WebPkiServerVerifier::builder_with_provider(roots(), Arc::clone(&provider))
            .build()
            .unwrap(),
        seen: Arc::clone(&seen),
    };
    let builder = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[version])
        .unwrap()
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier));
    let config = if auth {
        builder
            .with_client_auth_cert(certs("client.crt.pem"), key("client.key.pem"))
            .unwrap()
    } else {
        builder.with_no_client_auth()
    };
    (config, seen)
}

/// Our server (`coalescing` or not) for `version` with the RSA-`bits` certificate and key.
fn server(
    version: &'static SupportedProtocolVersion,
    bits: usize,
    coalescing: bool,
) -> ServerConfig {
    ServerConfig::builder_with_provider(ours(coalescing))
        .with_protocol_versions(&[version])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            certs(&format!("server-{bits}.crt.pem")),
            key(&format!("server-{bits}.key.pem")),
        )
        .unwrap()
}

/// Our server requiring a client certificate from the test CA, verified through our
/// provider's algorithms (RSA_ALGORITHMS for RSA), asking for `only` where given.
fn server_with_client_auth(
    version: &'static SupportedProtocolVersion,
    only: Option<SignatureScheme>,
) -> (ServerConfig, Seen) {
    let provider = ours(false);
    let seen = Seen::default();
    let verifier = RecordingClientVerifier {
        inner: WebPkiClientVerifier::builder_with_provider(roots(), Arc::clone(&provider))
            .build()
            .unwrap(),
        only,
        seen: Arc::clone(&seen),
    };
    let config = ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[version])
        .unwrap()
        .with_client_cert_verifier(Arc::new(verifier))
        .with_single_cert(certs("server-2048.crt.pem"), key("server-2048.key.pem"))
        .unwrap();
    (config, seen)
}

/// Which side failed a handshake, and its error.
#[derive(Debug)]
enum Failed {
    Client(rustls::Error),
    Server(rustls::Error),
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

/// A full handshake, bytes pumped in memory, then a message each way; the protocol version
/// both ends agree on.
fn handshake(
    client_config: ClientConfig,
    server_config: ServerConfig,
) -> Result<(ProtocolVersion, Connection), Failed> {
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
    let mut got = [0u8; 6];
    server.writer().write_all(b"server").unwrap();
    transfer(&mut server, &mut client).map_err(Failed::Client)?;
    client.reader().read_exact(&mut got).unwrap();
    assert_eq!(&got, b"server");
    client.writer().write_all(b"client").unwrap();
    transfer(&mut client, &mut server).map_err(Failed::Server)?;
    server.reader().read_exact(&mut got).unwrap();
    assert_eq!(&got, b"client");
    let version = client.protocol_version().unwrap();
    assert_eq!(server.protocol_version(), Some(version));
    Ok((version, server))
}

/// Every size, plain and coalescing: each scheme of `schemes` forced by the aws-lc-rs client
/// is the one our server signs with and aws-lc-rs verifies.
fn each_forced_scheme_verifies_at_aws_lc(
    version: &'static SupportedProtocolVersion,
    schemes: &[SignatureScheme],
    expected: ProtocolVersion,
) {
    for bits in SIZES {
        for coalescing in [false, true] {
            let server_config = server(version, bits, coalescing);
            for &scheme in schemes {
                let (client_config, seen) = client(aws_lc_offering_only(scheme), version, false);
                let (got, _) =
                    handshake(client_config, server_config.clone()).unwrap_or_else(|e| {
                        panic!("{bits} bits, coalescing {coalescing}, {scheme:?}: {e:?}")
                    });
                assert_eq!(got, expected);
                assert_eq!(*seen.lock().unwrap(), [scheme], "{bits} bits");
            }
        }
    }
}

#[test]
fn tls13_signatures_of_each_pss_scheme_verify_at_an_aws_lc_client() {
    each_forced_scheme_verifies_at_aws_lc(TLS13, &RSA_SCHEMES[..3], ProtocolVersion::TLSv1_3);
}

#[test]
fn tls12_signatures_of_each_rsa_scheme_verify_at_an_aws_lc_client() {
    each_forced_scheme_verifies_at_aws_lc(TLS12, &RSA_SCHEMES, ProtocolVersion::TLSv1_2);
}

#[test]
fn tls13_refuses_an_aws_lc_client_that_offers_only_pkcs1() {
    // TLS 1.3 signs handshakes with PSS only (RFC 8446 §4.2.3): no handshake, from our server
    // as from aws-lc-rs's own.
    let (client_config, seen) = client(
        aws_lc_offering_only(SignatureScheme::RSA_PKCS1_SHA256),
        TLS13,
        false,
    );
    let aws_lc_server =
        ServerConfig::builder_with_provider(Arc::new(aws_lc_rs::default_provider()))
            .with_protocol_versions(&[TLS13])
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs("server-2048.crt.pem"), key("server-2048.key.pem"))
            .unwrap();
    for server_config in [server(TLS13, 2048, false), aws_lc_server] {
        assert!(matches!(
            handshake(client_config.clone(), server_config),
            Err(Failed::Server(_))
        ));
    }
    assert!(seen.lock().unwrap().is_empty());
}

#[test]
fn the_scheme_chosen_from_a_full_aws_lc_offer_is_aws_lc_servers_choice() {
    // The client offers everything aws-lc-rs verifies: our server picks what aws-lc-rs's
    // server with the same key picks, in both versions.
    for version in [TLS12, TLS13] {
        let aws_lc_server =
            ServerConfig::builder_with_provider(Arc::new(aws_lc_rs::default_provider()))
                .with_protocol_versions(&[version])
                .unwrap()
                .with_no_client_auth()
                .with_single_cert(certs("server-2048.crt.pem"), key("server-2048.key.pem"))
                .unwrap();
        let mut chosen = Vec::new();
        for server_config in [server(version, 2048, false), aws_lc_server] {
            let (client_config, seen) = client(aws_lc_rs::default_provider(), version, false);
            handshake(client_config, server_config).unwrap();
            chosen.push(seen.lock().unwrap().clone());
        }
        assert_eq!(chosen[0], chosen[1]);
        assert_eq!(chosen[0].len(), 1);
    }
}

#[test]
fn aws_lc_client_signatures_of_each_scheme_verify_through_our_algorithms() {
    // Our server asks for one scheme at a time in its CertificateRequest; the aws-lc-rs client
    // signs with its RSA client key, and our RSA verification checks the signature (and the
    // client certificate's sha256WithRSAEncryption chain).
    for (version, schemes, expected) in [
        (TLS13, &RSA_SCHEMES[..3], ProtocolVersion::TLSv1_3),
        (TLS12, &RSA_SCHEMES[..], ProtocolVersion::TLSv1_2),
    ] {
        for &scheme in schemes {
            let (server_config, server_seen) = server_with_client_auth(version, Some(scheme));
            let (client_config, _) = client(aws_lc_rs::default_provider(), version, true);
            let (got, server) = handshake(client_config, server_config)
                .unwrap_or_else(|e| panic!("{expected:?} {scheme:?}: {e:?}"));
            assert_eq!(got, expected);
            assert_eq!(
                server.peer_certificates().unwrap(),
                &certs("client.crt.pem")[..]
            );
            assert_eq!(*server_seen.lock().unwrap(), [scheme]);
        }
    }
}

#[test]
fn an_aws_lc_client_without_a_certificate_is_refused_where_one_is_required() {
    let (server_config, _) = server_with_client_auth(TLS13, None);
    let (client_config, _) = client(aws_lc_rs::default_provider(), TLS13, false);
    assert!(matches!(
        handshake(client_config, server_config),
        Err(Failed::Server(rustls::Error::NoCertificatesPresented))
    ));
}

#[test]
fn an_ec_key_goes_to_aws_lc_rs_as_the_fallback_and_makes_handshakes() {
    // `provider` gives aws-lc-rs's key provider as the fallback for the P-256 key; the client
    // verifies an ECDSA signature.
    for key_file in ["ec.sec1.pem", "ec.key.pem"] {
        for version in [TLS12, TLS13] {
            let server_config = ServerConfig::builder_with_provider(ours(false))
                .with_protocol_versions(&[version])
                .unwrap()
                .with_no_client_auth()
                .with_single_cert(certs("ec.crt.pem"), key(key_file))
                .unwrap();
            let (client_config, seen) = client(aws_lc_rs::default_provider(), version, false);
            handshake(client_config, server_config).unwrap();
            let seen = seen.lock().unwrap();
            assert_eq!(seen.len(), 1);
            assert!(!RSA_SCHEMES.contains(&seen[0]), "{:?}", seen[0]);
        }
    }
}

#[test]
fn a_certificate_whose_key_does_not_match_is_refused() {
    let err = ServerConfig::builder_with_provider(ours(false))
        .with_protocol_versions(&[TLS13])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs("other.crt.pem"), key("server-2048.key.pem"))
        .unwrap_err();
    assert_eq!(
        err,
        rustls::Error::InconsistentKeys(rustls::InconsistentKeys::KeyMismatch)
    );
}

#[test]
fn malformed_keys_are_errors_with_aws_lc_rs_as_the_fallback() {
    // A truncated RSA key in each encoding (ours refuses it), and bytes that are no
    // PrivateKeyInfo (handed to aws-lc-rs's key provider, which refuses them): errors, no
    // panic, no key.
    let pkcs8 = match key("server-2048.key.pem") {
        PrivateKeyDer::Pkcs8(k) => k.secret_pkcs8_der().to_vec(),
        other => panic!("server-2048.key.pem is PKCS #8, got {other:?}"),
    };
    let pkcs1 = match key("server-2048.pkcs1.pem") {
        PrivateKeyDer::Pkcs1(k) => k.secret_pkcs1_der().to_vec(),
        other => panic!("server-2048.pkcs1.pem is PKCS #1, got {other:?}"),
    };
    let provider = ours(false);
    for der in [
        PrivateKeyDer::Pkcs8(pkcs8[..pkcs8.len() >> 1].to_vec().into()),
        PrivateKeyDer::Pkcs1(pkcs1[..pkcs1.len() >> 1].to_vec().into()),
        PrivateKeyDer::Pkcs8(vec![0x30, 0x03, 0x02, 0x01, 0x00].into()),
        PrivateKeyDer::Sec1(vec![0x30, 0x00].into()),
    ] {
        assert!(provider.key_provider.load_private_key(der).is_err());
    }
}

/// Our signing key, whose signatures come out with one bit flipped.
#[derive(Debug)]
struct Corrupting(Arc<dyn rustls::sign::SigningKey>);

#[derive(Debug)]
struct CorruptingSigner(Box<dyn rustls::sign::Signer>);

impl rustls::sign::SigningKey for Corrupting {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn rustls::sign::Signer>> {
        self.0
            .choose_scheme(offered)
            .map(|s| Box::new(CorruptingSigner(s)) as Box<dyn rustls::sign::Signer>)
    }

    fn algorithm(&self) -> rustls::SignatureAlgorithm {
        self.0.algorithm()
    }
}

impl rustls::sign::Signer for CorruptingSigner {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, rustls::Error> {
        let mut sig = self.0.sign(message)?;
        sig[100] ^= 1;
        Ok(sig)
    }

    fn scheme(&self) -> SignatureScheme {
        self.0.scheme()
    }
}

#[test]
fn a_corrupted_signature_of_our_key_is_refused_by_the_aws_lc_client() {
    // The control of the tests above: the client does check what our server signs.
    for version in [TLS12, TLS13] {
        let provider = ours(false);
        let signing_key = provider
            .key_provider
            .load_private_key(key("server-2048.key.pem"))
            .unwrap();
        let certified = rustls::sign::CertifiedKey::new(
            certs("server-2048.crt.pem"),
            Arc::new(Corrupting(signing_key)),
        );
        let server_config = ServerConfig::builder_with_provider(provider)
            .with_protocol_versions(&[version])
            .unwrap()
            .with_no_client_auth()
            .with_cert_resolver(Arc::new(rustls::sign::SingleCertAndKey::from(certified)));
        let (client_config, seen) = client(aws_lc_rs::default_provider(), version, false);
        assert!(matches!(
            handshake(client_config, server_config),
            Err(Failed::Client(rustls::Error::InvalidCertificate(
                rustls::CertificateError::BadSignature
            )))
        ));
        assert!(seen.lock().unwrap().is_empty());
    }
}
