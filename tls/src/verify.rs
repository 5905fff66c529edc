//! [`RSA_ALGORITHMS`]: RSA signature verification for rustls (handshake signatures and
//! certificate chains) on this library.

use rsatool_rsa::pkcs1::RsaPublicKeyRef;
use rsatool_rsa::pkcs1::der::Decode;
use rsatool_rsa::{PublicKeyParts, RsaPublicKey};
use rustls::SignatureScheme;
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::{
    AlgorithmIdentifier, InvalidSignature, SignatureVerificationAlgorithm, alg_id,
};

use crate::scheme::{self, RsaScheme};

/// The smallest modulus verified, in bits: webpki's RSA algorithms are `*_2048_8192_*`.
pub(crate) const MIN_BITS: usize = 2048;
/// The largest modulus verified, in bits.
pub(crate) const MAX_BITS: usize = 8192;
/// The largest public exponent's bit length: e ≤ 2³³ - 1, as ring and AWS-LC bound it (a
/// larger e only makes verification slower: a denial of service from a certificate).
pub(crate) const MAX_EXPONENT_BITS: usize = 33;

/// One verification algorithm: a scheme and the signature AlgorithmIdentifier it answers to.
#[derive(Debug)]
struct RsaVerification {
    scheme: RsaScheme,
    signature_alg_id: AlgorithmIdentifier,
}

impl SignatureVerificationAlgorithm for RsaVerification {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let key = public_key_within_bounds(public_key).ok_or(InvalidSignature)?;
        match self.scheme.verify(&key, message, signature) {
            true => Ok(()),
            false => Err(InvalidSignature),
        }
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        alg_id::RSA_ENCRYPTION
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        self.signature_alg_id
    }
}

/// `public_key` (a PKCS #1 `RSAPublicKey`, the subjectPublicKey of an `rsaEncryption`
/// SubjectPublicKeyInfo) as a key, if its DER is well formed and its sizes are within
/// webpki's: a modulus of [`MIN_BITS`] to [`MAX_BITS`] bits and e of at most
/// [`MAX_EXPONENT_BITS`], checked on the encoding before any arithmetic. ring rounds the
/// modulus's length up to whole bytes before its lower bound (it takes 2041 bits); AWS-LC and
/// this function count bits.
fn public_key_within_bounds(public_key: &[u8]) -> Option<RsaPublicKey> {
    let der = RsaPublicKeyRef::from_der(public_key).ok()?;
    let (n, e) = (der.modulus.as_bytes(), der.public_exponent.as_bytes());
    if !(MIN_BITS..=MAX_BITS).contains(&bit_len(n)) || bit_len(e) > MAX_EXPONENT_BITS {
        return None;
    }
    RsaPublicKey::from_parts(&PublicKeyParts {
        n: n.to_vec(),
        e: e.to_vec(),
    })
    .ok()
}

/// The bit length of a big-endian unsigned integer.
fn bit_len(be: &[u8]) -> usize {
    match be.iter().position(|&b| b != 0) {
        Some(i) => (be.len() - i) * 8 - be[i].leading_zeros() as usize,
        None => 0,
    }
}

/// sha256WithRSAEncryption and company (RFC 4055 §5) without their NULL parameters, which
/// RFC 4055 says a verifier must accept as well: webpki's `*_ABSENT_PARAMS` algorithms.
const PKCS1_SHA256_ABSENT_PARAMS: AlgorithmIdentifier = AlgorithmIdentifier::from_slice(&[
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b,
]);
const PKCS1_SHA384_ABSENT_PARAMS: AlgorithmIdentifier = AlgorithmIdentifier::from_slice(&[
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0c,
]);
const PKCS1_SHA512_ABSENT_PARAMS: AlgorithmIdentifier = AlgorithmIdentifier::from_slice(&[
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0d,
]);

/// Declares each verification algorithm as a static of its name: the scheme it verifies with
/// and the signature AlgorithmIdentifier it answers to.
macro_rules! verifications {
    ($($name:ident = $scheme:ident, $signature_alg_id:expr;)*) => {
        $(
            static $name: RsaVerification = RsaVerification {
                scheme: scheme::$scheme,
                signature_alg_id: $signature_alg_id,
            };
        )*
    };
}

verifications! {
    PKCS1_SHA256 = PKCS1_SHA256, alg_id::RSA_PKCS1_SHA256;
    PKCS1_SHA384 = PKCS1_SHA384, alg_id::RSA_PKCS1_SHA384;
    PKCS1_SHA512 = PKCS1_SHA512, alg_id::RSA_PKCS1_SHA512;
    PKCS1_SHA256_ABSENT = PKCS1_SHA256, PKCS1_SHA256_ABSENT_PARAMS;
    PKCS1_SHA384_ABSENT = PKCS1_SHA384, PKCS1_SHA384_ABSENT_PARAMS;
    PKCS1_SHA512_ABSENT = PKCS1_SHA512, PKCS1_SHA512_ABSENT_PARAMS;
    // PSS on an rsaEncryption key, the signature's AlgorithmIdentifier with RFC 4055's
    // parameters (that hash, MGF1 with that hash, a salt of its length): webpki's
    // `RSA_PSS_2048_8192_*_LEGACY_KEY`.
    PSS_SHA256 = PSS_SHA256, alg_id::RSA_PSS_SHA256;
    PSS_SHA384 = PSS_SHA384, alg_id::RSA_PSS_SHA384;
    PSS_SHA512 = PSS_SHA512, alg_id::RSA_PSS_SHA512;
}

/// RSA signature verification on this library: PKCS #1 v1.5 with SHA-256, SHA-384 and
/// SHA-512, and PSS (MGF1 over the same hash, a salt of the hash's length) with the same
/// hashes, for `rsaEncryption` keys of 2048 to 8192 bits with e < 2³³ (webpki's bounds),
/// as rustls's `WebPkiSupportedAlgorithms`.
///
/// `all` (certificate chains) has the nine algorithms of webpki's RSA set: the three PKCS #1
/// v1.5 ones with NULL parameters and again with absent ones (RFC 4055 §5 asks verifiers to
/// take both), and the three PSS ones. `mapping` (handshake signatures) maps the six TLS
/// schemes `rsa_pss_rsae_sha512`, `_sha384`, `_sha256`, `rsa_pkcs1_sha512`, `_sha384`,
/// `_sha256` to them, in that order (the order a peer is offered them).
///
/// Alone it verifies RSA only; [`provider`](crate::provider) puts it in place of another
/// provider's RSA entries and keeps the rest (ECDSA, Ed25519).
pub static RSA_ALGORITHMS: WebPkiSupportedAlgorithms = WebPkiSupportedAlgorithms {
    all: &[
        &PSS_SHA256,
        &PSS_SHA384,
        &PSS_SHA512,
        &PKCS1_SHA256,
        &PKCS1_SHA384,
        &PKCS1_SHA512,
        &PKCS1_SHA256_ABSENT,
        &PKCS1_SHA384_ABSENT,
        &PKCS1_SHA512_ABSENT,
    ],
    mapping: &[
        (SignatureScheme::RSA_PSS_SHA512, &[&PSS_SHA512]),
        (SignatureScheme::RSA_PSS_SHA384, &[&PSS_SHA384]),
        (SignatureScheme::RSA_PSS_SHA256, &[&PSS_SHA256]),
        (SignatureScheme::RSA_PKCS1_SHA512, &[&PKCS1_SHA512]),
        (SignatureScheme::RSA_PKCS1_SHA384, &[&PKCS1_SHA384]),
        (SignatureScheme::RSA_PKCS1_SHA256, &[&PKCS1_SHA256]),
    ],
};

/// `base` with [`RSA_ALGORITHMS`] in place of its RSA entries: in `all`, every algorithm of
/// an `rsaEncryption` key gives way to ours (where the first of them stood, or at the end);
/// in `mapping`, each RSA scheme keeps its place with our algorithm, and RSA schemes `base`
/// lacks come last. The tables are leaked: they live as long as the provider.
pub(crate) fn merged(base: &WebPkiSupportedAlgorithms) -> WebPkiSupportedAlgorithms {
    let mut all: Vec<&'static dyn SignatureVerificationAlgorithm> = Vec::new();
    let mut ours_placed = false;
    for &alg in base.all {
        if alg.public_key_alg_id() != alg_id::RSA_ENCRYPTION {
            all.push(alg);
        } else if !ours_placed {
            all.extend_from_slice(RSA_ALGORITHMS.all);
            ours_placed = true;
        }
    }
    if !ours_placed {
        all.extend_from_slice(RSA_ALGORITHMS.all);
    }

    let ours = |scheme: SignatureScheme| {
        RSA_ALGORITHMS
            .mapping
            .iter()
            .find(|(s, _)| *s == scheme)
            .map(|&(s, algs)| (s, algs))
    };
    let mut mapping: Vec<(
        SignatureScheme,
        &'static [&'static dyn SignatureVerificationAlgorithm],
    )> = base
        .mapping
        .iter()
        .map(|&(scheme, algs)| ours(scheme).unwrap_or((scheme, algs)))
        .collect();
    for &(scheme, algs) in RSA_ALGORITHMS.mapping {
        if !base.mapping.iter().any(|(s, _)| *s == scheme) {
            mapping.push((scheme, algs));
        }
    }

    WebPkiSupportedAlgorithms {
        all: Vec::leak(all),
        mapping: Vec::leak(mapping),
    }
}
