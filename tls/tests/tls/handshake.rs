//! Handshakes between a rustls client on ring and a rustls server on this crate's provider.

use std::sync::Arc;

use rsatool_rustls::RsaKeyProvider;
use rustls::SignatureScheme;
use rustls::crypto::CryptoProvider;

use crate::common::*;

/// A server on `provider` for `version` with the 2048-bit key and its certificate.
fn server_2048(
    provider: Arc<CryptoProvider>,
    version: &'static rustls::SupportedProtocolVersion,
) -> rustls::ServerConfig {
    server(
        provider,
        version,
        "server-2048.crt.pem",
        "server-2048.key.pem",
    )
    .unwrap()
}

// Each scheme forced through a ring client's offer, in each version: our server with the
// 2048-bit key signs with it and the client verifies it.
each_forced_scheme_is_signed_tests!(
    tls13_signs_each_pss_scheme_the_client_forces,
    tls12_signs_each_rsa_scheme_the_client_forces,
    |version| vec![("ours, 2048 bits".to_owned(), server_2048(ours(), version))],
    |scheme| Arc::new(ring_offering_only(scheme)),
);

#[test]
fn tls13_refuses_a_client_that_offers_only_pkcs1() {
    // TLS 1.3 signs handshakes with PSS only (RFC 8446 §4.2.3): a client offering only
    // rsa_pkcs1_sha256 gets no handshake, from our server as from ring's.
    let (client_config, _) = client(
        Arc::new(ring_offering_only(SignatureScheme::RSA_PKCS1_SHA256)),
        TLS13,
        None,
    );
    for provider in [ours(), Arc::new(ring())] {
        let server_config = server_2048(provider, TLS13);
        assert!(matches!(
            handshake(client_config.clone(), server_config),
            Err(Failed::Server(_))
        ));
    }
}

#[test]
fn the_scheme_chosen_from_a_full_offer_is_ring_servers_choice() {
    // A client offering everything ring verifies: our server picks what a ring server with the
    // same key picks, in both versions.
    for version in [TLS12, TLS13] {
        let mut chosen = Vec::new();
        for provider in [ours(), Arc::new(ring())] {
            let (client_config, seen) = client(Arc::new(ring()), version, None);
            let server_config = server_2048(provider, version);
            handshake(client_config, server_config).unwrap();
            chosen.push(seen.lock().unwrap().clone());
        }
        assert_eq!(chosen[0], chosen[1]);
        assert_eq!(chosen[0].len(), 1);
    }
}

/// Servers on `provider` with keys of 2048, 3072 and 4096 bits make handshakes with a ring
/// client in both versions: the client sees the server's certificate and verifies one
/// signature.
fn keys_of_2048_3072_and_4096_bits_make_handshakes(provider: Arc<CryptoProvider>) {
    for bits in [2048, 3072, 4096] {
        let cert = format!("server-{bits}.crt.pem");
        for version in [TLS12, TLS13] {
            let key = format!("server-{bits}.key.pem");
            let server_config = server(Arc::clone(&provider), version, &cert, &key).unwrap();
            let (client_config, seen) = client(Arc::new(ring()), version, None);
            let done =
                handshake(client_config, server_config).unwrap_or_else(|e| panic!("{bits}: {e:?}"));
            assert_eq!(done.client.peer_certificates().unwrap(), &certs(&cert)[..]);
            assert_eq!(seen.lock().unwrap().len(), 1);
        }
    }
}

#[test]
fn server_keys_of_2048_3072_and_4096_bits_make_handshakes() {
    keys_of_2048_3072_and_4096_bits_make_handshakes(ours());
}

#[test]
fn a_pkcs1_server_key_makes_handshakes() {
    let server_config = server(
        ours(),
        TLS13,
        "server-2048.crt.pem",
        "server-2048.pkcs1.pem",
    )
    .unwrap();
    let (client_config, _) = client(Arc::new(ring()), TLS13, None);
    handshake(client_config, server_config).unwrap();
}

#[test]
fn client_certificates_are_verified_through_our_algorithms() {
    // The server (ours) requires a client certificate; the client signs with ring, then with
    // this crate's provider. The client certificate's chain (sha256WithRSAEncryption) and its
    // CertificateVerify go through the server's algorithms, RSA_ALGORITHMS for RSA
    // (`provider_replaces_ring_rsa_entries_with_ours` in verify.rs).
    for version in [TLS12, TLS13] {
        for client_provider in [Arc::new(ring()), ours()] {
            let (server_config, server_seen) = server_with_client_auth(
                ours(),
                version,
                "server-2048.crt.pem",
                "server-2048.key.pem",
            );
            let (client_config, client_seen) = client(
                client_provider,
                version,
                Some(("client.crt.pem", "client.key.pem")),
            );
            let done = handshake(client_config, server_config).unwrap();
            assert_eq!(
                done.server.peer_certificates().unwrap(),
                &certs("client.crt.pem")[..]
            );
            let server_seen = server_seen.lock().unwrap();
            assert_eq!(server_seen.len(), 1, "one client signature verified");
            assert!(RSA_SCHEMES.contains(&server_seen[0]));
            assert_eq!(client_seen.lock().unwrap().len(), 1);
        }
    }
}

#[test]
fn a_client_without_a_certificate_is_refused_where_one_is_required() {
    let (server_config, _) =
        server_with_client_auth(ours(), TLS13, "server-2048.crt.pem", "server-2048.key.pem");
    let (client_config, _) = client(Arc::new(ring()), TLS13, None);
    assert!(matches!(
        handshake(client_config, server_config),
        Err(Failed::Server(rustls::Error::NoCertificatesPresented))
    ));
}

#[test]
fn a_certificate_whose_key_does_not_match_is_refused() {
    let err = server(ours(), TLS13, "other.crt.pem", "server-2048.key.pem").unwrap_err();
    assert_eq!(
        err,
        rustls::Error::InconsistentKeys(rustls::InconsistentKeys::KeyMismatch)
    );
}

#[test]
fn an_ec_key_without_a_fallback_is_a_clear_error() {
    static NO_FALLBACK: RsaKeyProvider = RsaKeyProvider::new();
    let provider = Arc::new(CryptoProvider {
        key_provider: &NO_FALLBACK,
        ..rsatool_rustls::provider(ring(), RsaKeyProvider::new())
    });
    for (key_file, says) in [("ec.sec1.pem", "SEC1"), ("ec.key.pem", "id-ecPublicKey")] {
        match server(Arc::clone(&provider), TLS13, "ec.crt.pem", key_file) {
            Err(rustls::Error::General(msg)) => {
                assert!(msg.contains(says) && msg.contains("no fallback"), "{msg}")
            }
            other => panic!("{key_file}: {:?}", other.map(|_| ())),
        }
    }
}

#[test]
fn an_ec_key_goes_to_ring_as_the_fallback_and_makes_handshakes() {
    // `provider` gives ring's key provider as the fallback; ring's ECDSA verification is kept.
    for key_file in ["ec.sec1.pem", "ec.key.pem"] {
        for version in [TLS12, TLS13] {
            let server_config = server(ours(), version, "ec.crt.pem", key_file).unwrap();
            let (client_config, seen) = client(Arc::new(ring()), version, None);
            handshake(client_config, server_config).unwrap();
            assert_eq!(
                *seen.lock().unwrap(),
                [SignatureScheme::ECDSA_NISTP256_SHA256]
            );
        }
    }
}

#[test]
fn an_explicit_fallback_is_used_for_ec_keys() {
    let ring_keys = ring().key_provider;
    let provider = Arc::new(rsatool_rustls::provider(
        ring(),
        RsaKeyProvider::new().with_fallback(ring_keys),
    ));
    let server_config = server(provider, TLS13, "ec.crt.pem", "ec.key.pem").unwrap();
    let (client_config, _) = client(Arc::new(ring()), TLS13, None);
    handshake(client_config, server_config).unwrap();
}

#[test]
fn coalescing_keys_make_handshakes() {
    keys_of_2048_3072_and_4096_bits_make_handshakes(ours_coalescing());
}

#[test]
fn coalescing_keys_make_handshakes_on_many_threads_at_once() {
    // One server configuration (one coalescing key) shared by more threads than cores, each
    // running handshakes; every one must complete, whichever calls meet in a pass.
    let server_config = server_2048(ours_coalescing(), TLS13);
    let threads = 2 * std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .max(4);
    std::thread::scope(|s| {
        for _ in 0..threads {
            let server_config = server_config.clone();
            s.spawn(move || {
                for _ in 0..4 {
                    let (client_config, seen) = client(Arc::new(ring()), TLS13, None);
                    handshake(client_config, server_config.clone()).unwrap();
                    assert_eq!(seen.lock().unwrap().len(), 1);
                }
            });
        }
    });
}
