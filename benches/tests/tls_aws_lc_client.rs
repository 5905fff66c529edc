//! rsatool-rustls judged by rustls on aws-lc-rs: full TLS handshakes in memory between a rustls
//! client on aws-lc-rs and a rustls server on `rsatool_rustls::provider` over aws-lc-rs's
//! provider (plain and coalescing keys). aws-lc-rs is the oracle: it verifies each of our
//! server signatures (every scheme forced once through the client's offer, TLS 1.2 and 1.3,
//! RSA-2048/3072/4096), and it signs the client signatures that our RSA verification
//! checks. Certificates and keys: the openssl-made fixtures of `tls/tests/data`. The fixtures,
//! the configurations, the recording verifiers and the in-memory handshake are those of
//! rsatool-rustls's own tests against ring (`tls/tests/tls/common.rs`), on other providers.
//!
//! Built with the `tls` feature only (aws-lc-sys takes minutes to build):
//! `cargo test -p benches --features tls --test tls_aws_lc_client`.

// Test code: `unwrap`/`expect` are the assertions.
#![allow(clippy::unwrap_used)]

use std::sync::{Arc, OnceLock};

use rsatool_rustls::RsaKeyProvider;
use rustls::crypto::{CryptoProvider, aws_lc_rs};
use rustls::pki_types::PrivateKeyDer;
use rustls::{ProtocolVersion, ServerConfig, SignatureScheme, SupportedProtocolVersion};

// Its providers on ring (`ring`, `ours`, ...) serve rsatool-rustls's tests, not these.
#[allow(dead_code)]
#[path = "../../tls/tests/tls/common.rs"]
mod common;
use common::*;

const SIZES: [usize; 3] = [2048, 3072, 4096];

/// aws-lc-rs's provider, as rustls gives it.
fn aws_lc() -> Arc<CryptoProvider> {
    Arc::new(aws_lc_rs::default_provider())
}

/// Our provider over aws-lc-rs's, plain or coalescing (each built once: `provider` leaks).
fn ours_over_aws_lc(coalescing: bool) -> Arc<CryptoProvider> {
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
fn aws_lc_offering_only(scheme: SignatureScheme) -> Arc<CryptoProvider> {
    let provider = offering_only(aws_lc_rs::default_provider(), scheme);
    Arc::new(provider.unwrap_or_else(|| panic!("aws-lc-rs maps {scheme:?} once")))
}

/// A server on `provider` for `version` with the RSA-`bits` certificate and key.
fn server_of_bits(
    provider: Arc<CryptoProvider>,
    version: &'static SupportedProtocolVersion,
    bits: usize,
) -> ServerConfig {
    let cert = format!("server-{bits}.crt.pem");
    server(provider, version, &cert, &format!("server-{bits}.key.pem")).unwrap()
}

/// Our server requiring a client certificate from the test CA, verified through our
/// provider's algorithms (RSA_ALGORITHMS for RSA), asking for `only` where given (then the
/// only scheme it accepts), and what its verifier records.
fn our_server_with_client_auth(
    version: &'static SupportedProtocolVersion,
    only: Option<SignatureScheme>,
) -> (ServerConfig, Seen) {
    let mut provider = ours_over_aws_lc(false);
    if let Some(scheme) = only {
        let one = offering_only(CryptoProvider::clone(&provider), scheme);
        provider = Arc::new(one.unwrap_or_else(|| panic!("ours maps {scheme:?} once")));
    }
    server_with_client_auth(
        provider,
        version,
        "server-2048.crt.pem",
        "server-2048.key.pem",
    )
}

/// Our servers for `version` at every size, plain and coalescing, each named.
fn ours_at_each_size(version: &'static SupportedProtocolVersion) -> Vec<(String, ServerConfig)> {
    let mut servers = Vec::new();
    for bits in SIZES {
        for coalescing in [false, true] {
            let config = server_of_bits(ours_over_aws_lc(coalescing), version, bits);
            servers.push((format!("{bits} bits, coalescing {coalescing}"), config));
        }
    }
    servers
}

// Each scheme forced by the aws-lc-rs client, in each version: every size, plain and
// coalescing, signs with it and aws-lc-rs verifies it.
each_forced_scheme_is_signed_tests!(
    tls13_signatures_of_each_pss_scheme_verify_at_an_aws_lc_client,
    tls12_signatures_of_each_rsa_scheme_verify_at_an_aws_lc_client,
    ours_at_each_size,
    aws_lc_offering_only,
);

#[test]
fn tls13_refuses_an_aws_lc_client_that_offers_only_pkcs1() {
    // TLS 1.3 signs handshakes with PSS only (RFC 8446 §4.2.3): no handshake, from our server
    // as from aws-lc-rs's own.
    let (client_config, seen) = client(
        aws_lc_offering_only(SignatureScheme::RSA_PKCS1_SHA256),
        TLS13,
        None,
    );
    for provider in [ours_over_aws_lc(false), aws_lc()] {
        let server_config = server_of_bits(provider, TLS13, 2048);
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
        let mut chosen = Vec::new();
        for provider in [ours_over_aws_lc(false), aws_lc()] {
            let server_config = server_of_bits(provider, version, 2048);
            let (client_config, seen) = client(aws_lc(), version, None);
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
            let (server_config, server_seen) = our_server_with_client_auth(version, Some(scheme));
            let auth = Some(("client.crt.pem", "client.key.pem"));
            let (client_config, _) = client(aws_lc(), version, auth);
            let done = handshake(client_config, server_config)
                .unwrap_or_else(|e| panic!("{expected:?} {scheme:?}: {e:?}"));
            assert_eq!(done.version(), expected);
            assert_eq!(
                done.server.peer_certificates().unwrap(),
                &certs("client.crt.pem")[..]
            );
            assert_eq!(*server_seen.lock().unwrap(), [scheme]);
        }
    }
}

#[test]
fn an_aws_lc_client_without_a_certificate_is_refused_where_one_is_required() {
    let (server_config, _) = our_server_with_client_auth(TLS13, None);
    let (client_config, _) = client(aws_lc(), TLS13, None);
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
            let server_config =
                server(ours_over_aws_lc(false), version, "ec.crt.pem", key_file).unwrap();
            let (client_config, seen) = client(aws_lc(), version, None);
            handshake(client_config, server_config).unwrap();
            let seen = seen.lock().unwrap();
            assert_eq!(seen.len(), 1);
            assert!(!RSA_SCHEMES.contains(&seen[0]), "{:?}", seen[0]);
        }
    }
}

#[test]
fn a_certificate_whose_key_does_not_match_is_refused() {
    let err = server(
        ours_over_aws_lc(false),
        TLS13,
        "other.crt.pem",
        "server-2048.key.pem",
    )
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
    let provider = ours_over_aws_lc(false);
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
        let provider = ours_over_aws_lc(false);
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
        let (client_config, seen) = client(aws_lc(), version, None);
        assert!(matches!(
            handshake(client_config, server_config),
            Err(Failed::Client(rustls::Error::InvalidCertificate(
                rustls::CertificateError::BadSignature
            )))
        ));
        assert!(seen.lock().unwrap().is_empty());
    }
}
