//! [`RsaKeyProvider`]: rustls's `KeyProvider` with RSA keys on this library.

use std::sync::Arc;

use rsatool_rsa::RsaPrivateKey;
use rsatool_rsa::pkcs1::DecodeRsaPrivateKey;
use rsatool_rsa::pkcs8::der::Decode;
use rsatool_rsa::pkcs8::{DecodePrivateKey, ObjectIdentifier, PrivateKeyInfoRef};
use rustls::crypto::KeyProvider;
use rustls::pki_types::PrivateKeyDer;
use rustls::sign::SigningKey;

use crate::RsaSigningKey;

/// `rsaEncryption` (RFC 8017 A.1).
const RSA_ENCRYPTION: ObjectIdentifier = rsatool_rsa::pkcs1::ALGORITHM_OID;
/// `id-RSASSA-PSS` (RFC 4055 §3.1).
const RSASSA_PSS: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.10");

/// A rustls [`KeyProvider`]: RSA private keys load into [`RsaPrivateKey`] (and sign through
/// [`RsaSigningKey`]), other key types go to an optional fallback provider.
///
/// What [`load_private_key`](KeyProvider::load_private_key) does with each
/// [`PrivateKeyDer`]:
///
/// - PKCS #1 (`RSA PRIVATE KEY`), and PKCS #8 (`PRIVATE KEY`) whose algorithm is
///   `rsaEncryption`: loaded here, with this library's validation; a malformed or invalid
///   key is an error ([`rustls::Error::General`], saying why), not a matter for the fallback.
/// - Everything else (SEC1 EC keys, PKCS #8 of another algorithm, PKCS #8 that does not parse
///   as a `PrivateKeyInfo`): to the fallback where there is one, else refused with an error
///   that names what it got.
/// - PKCS #8 with `id-RSASSA-PSS` (an RSA key restricted to PSS): like any other algorithm,
///   to the fallback or refused. TLS signs with such a key only through the
///   `rsa_pss_pss_*` schemes (RFC 8446 §4.2.3), which rustls does not have; its
///   `rsa_pss_rsae_*` schemes are for `rsaEncryption` keys, and webpki verifies only those.
///
/// Sizes: whatever [`RsaPrivateKey`] accepts (1024 to 16384 bits). Clients set their own
/// bounds; rustls's webpki verification takes 2048 to 8192 bits.
///
/// [`provider`](crate::provider) builds a whole `CryptoProvider` around one.
#[derive(Clone, Copy, Debug, Default)]
pub struct RsaKeyProvider {
    coalescing: bool,
    fallback: Option<&'static dyn KeyProvider>,
}

impl RsaKeyProvider {
    /// A provider of plain keys (not coalescing), with no fallback.
    pub const fn new() -> Self {
        RsaKeyProvider {
            coalescing: false,
            fallback: None,
        }
    }

    /// The same provider, whose RSA keys are [`RsaPrivateKey::coalescing`]: the signatures
    /// that concurrent handshakes make with one key run together, four at a time, on the
    /// eight lanes of AVX-512 IFMA. For a blocking server whose handshakes run on several
    /// times more threads than there are cores (the crate documentation's "Coalescing"); see
    /// that method for what it trades (latency of a pass for throughput)
    /// and where it runs each call alone as a plain key does.
    #[must_use]
    pub const fn coalescing(self) -> Self {
        RsaKeyProvider {
            coalescing: true,
            ..self
        }
    }

    /// The same provider, with `fallback` loading the keys that are not RSA (an ECDSA or
    /// Ed25519 key: ring's or aws-lc-rs's `key_provider`, for instance).
    #[must_use]
    pub const fn with_fallback(self, fallback: &'static dyn KeyProvider) -> Self {
        RsaKeyProvider {
            fallback: Some(fallback),
            ..self
        }
    }

    /// Whether [`provider`](crate::provider) should give this provider a fallback.
    pub(crate) const fn has_fallback(&self) -> bool {
        self.fallback.is_some()
    }

    fn signing_key(&self, key: RsaPrivateKey) -> Arc<dyn SigningKey> {
        let key = if self.coalescing {
            key.coalescing()
        } else {
            key
        };
        Arc::new(RsaSigningKey::new(key))
    }

    fn not_ours(
        &self,
        key_der: PrivateKeyDer<'static>,
        what: &str,
    ) -> Result<Arc<dyn SigningKey>, rustls::Error> {
        match self.fallback {
            // The fallback's own error, with what this provider saw where it is a message:
            // "failed to parse private key" alone says little about an id-RSASSA-PSS key.
            Some(fallback) => fallback.load_private_key(key_der).map_err(|e| match e {
                rustls::Error::General(msg) => rustls::Error::General(format!(
                    "{msg} (rsatool-rustls handed the fallback key provider {what}, not an RSA \
                     key that it loads)"
                )),
                other => other,
            }),
            None => Err(rustls::Error::General(format!(
                "rsatool-rustls: {what} is not an RSA key that this provider loads (PKCS #1, \
                 or PKCS #8 with rsaEncryption), and it has no fallback key provider"
            ))),
        }
    }
}

impl KeyProvider for RsaKeyProvider {
    fn load_private_key(
        &self,
        key_der: PrivateKeyDer<'static>,
    ) -> Result<Arc<dyn SigningKey>, rustls::Error> {
        match &key_der {
            PrivateKeyDer::Pkcs1(der) => RsaPrivateKey::from_pkcs1_der(der.secret_pkcs1_der())
                .map(|key| self.signing_key(key))
                .map_err(|e| invalid("PKCS #1", &e)),
            PrivateKeyDer::Pkcs8(der) => {
                let bytes = der.secret_pkcs8_der();
                match PrivateKeyInfoRef::from_der(bytes) {
                    Ok(info) if info.algorithm.oid == RSA_ENCRYPTION => {
                        RsaPrivateKey::from_pkcs8_der(bytes)
                            .map(|key| self.signing_key(key))
                            .map_err(|e| invalid("PKCS #8", &e))
                    }
                    Ok(info) => {
                        let what =
                            format!("a PKCS #8 key of algorithm {}", name(info.algorithm.oid));
                        self.not_ours(key_der, &what)
                    }
                    Err(e) => {
                        let what = format!("PKCS #8 data that is not a PrivateKeyInfo ({e})");
                        self.not_ours(key_der, &what)
                    }
                }
            }
            PrivateKeyDer::Sec1(_) => self.not_ours(key_der, "a SEC1 EC private key"),
            _ => self.not_ours(key_der, "a private key of an unknown encoding"),
        }
    }
}

fn invalid(format: &str, e: &dyn std::fmt::Display) -> rustls::Error {
    rustls::Error::General(format!(
        "rsatool-rustls: the {format} RSA private key does not load: {e}"
    ))
}

/// Key algorithms an error names, beside their OIDs.
const KNOWN: [(ObjectIdentifier, &str); 7] = [
    (
        RSASSA_PSS,
        "id-RSASSA-PSS: an RSA key for the rsa_pss_pss_* schemes, which rustls has not",
    ),
    (
        ObjectIdentifier::new_unwrap("1.2.840.10045.2.1"),
        "id-ecPublicKey",
    ),
    (ObjectIdentifier::new_unwrap("1.3.101.110"), "X25519"),
    (ObjectIdentifier::new_unwrap("1.3.101.111"), "X448"),
    (ObjectIdentifier::new_unwrap("1.3.101.112"), "Ed25519"),
    (ObjectIdentifier::new_unwrap("1.3.101.113"), "Ed448"),
    (ObjectIdentifier::new_unwrap("1.2.840.10040.4.1"), "DSA"),
];

/// An algorithm's OID, with its name where it is a common key type.
fn name(oid: ObjectIdentifier) -> String {
    match KNOWN.iter().find(|(known, _)| *known == oid) {
        Some((_, known)) => format!("{oid} ({known})"),
        None => oid.to_string(),
    }
}
