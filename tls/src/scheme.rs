//! The six RSA signature schemes of TLS, as this library computes them.

use rsatool_rsa::{HashAlg, Pkcs1v15Sign, Pss, RsaPrivateKey, RsaPublicKey};
use rustls::SignatureScheme;

/// The padding of a scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Padding {
    /// RSASSA-PKCS1-v1_5.
    Pkcs1v15,
    /// RSASSA-PSS with MGF1 over the same hash and a salt of the hash's length: TLS's rule
    /// for `rsa_pss_rsae_*` (RFC 8446 §4.2.3), and webpki's.
    Pss,
}

/// One TLS signature scheme: its code point, padding and hash.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RsaScheme {
    pub(crate) tls: SignatureScheme,
    pub(crate) padding: Padding,
    pub(crate) hash: HashAlg,
}

impl RsaScheme {
    const fn new(tls: SignatureScheme, padding: Padding, hash: HashAlg) -> Self {
        RsaScheme { tls, padding, hash }
    }

    /// Whether a key of `bits` bits can sign with this scheme. PSS needs
    /// emLen = ⌈(bits - 1) / 8⌉ ≥ 2·hLen + 2 (RFC 8017 §9.1.1, salt of the hash's length):
    /// PSS with SHA-512 needs a modulus of more than 1040 bits. PKCS #1 v1.5 needs k ≥ tLen +
    /// 11, at most 94 bytes, which every key of 1024 bits and more (the library's least)
    /// meets.
    pub(crate) fn fits(&self, bits: usize) -> bool {
        match self.padding {
            Padding::Pkcs1v15 => true,
            Padding::Pss => bits.saturating_sub(1).div_ceil(8) >= 2 * self.hash.output_len() + 2,
        }
    }

    /// The scheme's signature of `message` (hashed here), blinded with randomness from the
    /// operating system.
    pub(crate) fn sign(&self, key: &RsaPrivateKey, message: &[u8]) -> rsatool_rsa::Result<Vec<u8>> {
        let mut rng = rsatool_rsa::os_rng();
        match self.padding {
            Padding::Pkcs1v15 => key.sign(&mut rng, &Pkcs1v15Sign::new(self.hash), message),
            Padding::Pss => key.sign(&mut rng, &Pss::new(self.hash), message),
        }
    }

    /// Whether `signature` is this scheme's valid signature of `message` under `key`.
    pub(crate) fn verify(&self, key: &RsaPublicKey, message: &[u8], signature: &[u8]) -> bool {
        match self.padding {
            Padding::Pkcs1v15 => key.verify(&Pkcs1v15Sign::new(self.hash), message, signature),
            Padding::Pss => key.verify(&Pss::new(self.hash), message, signature),
        }
        .is_ok()
    }
}

/// Declares each scheme as a constant of its name (its TLS code point, padding and hash),
/// and [`ALL`] listing them in the order given.
macro_rules! schemes {
    ($($name:ident = $tls:ident, $padding:ident, $hash:ident;)*) => {
        $(
            pub(crate) const $name: RsaScheme =
                RsaScheme::new(SignatureScheme::$tls, Padding::$padding, HashAlg::$hash);
        )*

        /// Every scheme, most preferred first: rustls's own order for its RSA keys (its ring
        /// and aws-lc-rs providers' `sign.rs`): PSS before PKCS #1 v1.5, the longer hash
        /// first.
        pub(crate) const ALL: &[RsaScheme] = &[$($name),*];
    };
}

schemes! {
    PSS_SHA512 = RSA_PSS_SHA512, Pss, Sha512;
    PSS_SHA384 = RSA_PSS_SHA384, Pss, Sha384;
    PSS_SHA256 = RSA_PSS_SHA256, Pss, Sha256;
    PKCS1_SHA512 = RSA_PKCS1_SHA512, Pkcs1v15, Sha512;
    PKCS1_SHA384 = RSA_PKCS1_SHA384, Pkcs1v15, Sha384;
    PKCS1_SHA256 = RSA_PKCS1_SHA256, Pkcs1v15, Sha256;
}
