//! [`RsaSigningKey`]: a rustls `SigningKey` over an [`RsaPrivateKey`].

use std::fmt;
use std::sync::Arc;

use rsatool_rsa::RsaPrivateKey;
use rsatool_rsa::pkcs8::EncodePublicKey;
use rustls::pki_types::SubjectPublicKeyInfoDer;
use rustls::sign::{Signer, SigningKey};
use rustls::{SignatureAlgorithm, SignatureScheme};

use crate::scheme::{self, RsaScheme};

/// A rustls [`SigningKey`] over an [`RsaPrivateKey`], for users who hold a key already
/// ([`RsaKeyProvider`](crate::RsaKeyProvider) makes these from DER).
///
/// It signs with the six RSA schemes of TLS, the first of rustls's order of preference that
/// the peer offers: `rsa_pss_rsae_sha512`, `_sha384`, `_sha256`, then `rsa_pkcs1_sha512`,
/// `_sha384`, `_sha256` (TLS 1.3 offers only the PSS ones). PSS takes a salt of the hash's
/// length and MGF1 over the same hash. Each signature goes through
/// [`RsaPrivateKey::sign`] with [`rsatool_rsa::os_rng`]: blinded, checked against faults and,
/// on a key made [`coalescing`](RsaPrivateKey::coalescing), run together with other
/// threads' signatures of the same key.
///
/// [`public_key`](SigningKey::public_key) is the key's SubjectPublicKeyInfo (`rsaEncryption`,
/// NULL parameters, as in certificates), so that rustls's check of a certificate against its
/// key works.
///
/// ```
/// use rsatool_rustls::RsaSigningKey;
/// use rustls::SignatureScheme;
/// use rustls::sign::SigningKey;
///
/// let key = rsatool_rsa::RsaPrivateKey::new(&mut rsatool_rsa::os_rng(), 2048)?;
/// let signing_key = RsaSigningKey::new(key);
/// let signer = signing_key
///     .choose_scheme(&[SignatureScheme::RSA_PKCS1_SHA256, SignatureScheme::RSA_PSS_SHA256])
///     .expect("an RSA scheme was offered");
/// assert_eq!(signer.scheme(), SignatureScheme::RSA_PSS_SHA256);
/// assert_eq!(signer.sign(b"handshake")?.len(), 256);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct RsaSigningKey {
    key: Arc<RsaPrivateKey>,
    /// The SubjectPublicKeyInfo DER; `None` only if encoding failed, which a valid key's
    /// public integers never make it do.
    spki: Option<Vec<u8>>,
}

impl RsaSigningKey {
    /// A signing key over `key`.
    pub fn new(key: RsaPrivateKey) -> Self {
        let spki = key
            .public_key()
            .to_public_key_der()
            .ok()
            .map(|der| der.as_bytes().to_vec());
        RsaSigningKey {
            key: Arc::new(key),
            spki,
        }
    }
}

impl SigningKey for RsaSigningKey {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        let bits = self.key.bits();
        scheme::ALL
            .iter()
            .find(|s| offered.contains(&s.tls) && s.fits(bits))
            .map(|&scheme| {
                Box::new(RsaSigner {
                    key: Arc::clone(&self.key),
                    scheme,
                }) as Box<dyn Signer>
            })
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        self.spki.as_deref().map(SubjectPublicKeyInfoDer::from)
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::RSA
    }
}

impl fmt::Debug for RsaSigningKey {
    // The public size and whether the key coalesces: nothing of the private key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RsaSigningKey")
            .field("bits", &self.key.bits())
            .field(
                "coalescing",
                &self.key.coalescing_passes_allowed().is_some(),
            )
            .finish_non_exhaustive()
    }
}

/// One signature scheme chosen for one handshake.
struct RsaSigner {
    key: Arc<RsaPrivateKey>,
    scheme: RsaScheme,
}

impl Signer for RsaSigner {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, rustls::Error> {
        self.scheme.sign(&self.key, message).map_err(|e| {
            rustls::Error::General(format!(
                "rsatool-rustls: {:?} signature failed: {e}",
                self.scheme.tls
            ))
        })
    }

    fn scheme(&self) -> SignatureScheme {
        self.scheme.tls
    }
}

impl fmt::Debug for RsaSigner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RsaSigner")
            .field("scheme", &self.scheme.tls)
            .finish_non_exhaustive()
    }
}
