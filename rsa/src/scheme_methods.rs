//! The keys' padded operations (sign, verify, encrypt, decrypt through a padding scheme; the
//! raw primitives are in [`hazmat`](crate::hazmat)), in two forms:
//!
//! - by a scheme value (`key.sign(&mut rng, &Pss::new(HashAlg::Sha256), msg)`, the hash a
//!   [`HashAlg`](crate::HashAlg) value): the run-time API, which the `rsatool` command line
//!   uses;
//! - RustCrypto `rsa` 0.10's one-call methods (`oaep_encrypt::<Sha256>`,
//!   `pss_sign::<Sha256>`, ...): the hash as a type parameter, the scheme's defaults (a salt
//!   of the hash length, MGF1 with the same hash, no label), the operating system's RNG where
//!   none is given. Each is one call into the run-time schemes.
//!
//! ```
//! use rsatool_rsa::sha2::Sha256;
//!
//! let key = rsatool_rsa::RsaPrivateKey::new(&mut rsatool_rsa::os_rng(), 1024)?;
//! let public = key.to_public_key();
//! let ct = public.oaep_encrypt::<Sha256>(b"secret")?;
//! assert_eq!(key.oaep_decrypt::<Sha256>(&ct)?, b"secret");
//! let sig = key.pss_sign::<Sha256>(b"message")?;
//! public.pss_verify::<Sha256>(b"message", &sig)?;
//! let sig = key.pkcs1v15_sign::<Sha256>(b"message")?;
//! public.pkcs1v15_verify::<Sha256>(b"message", &sig)?;
//! let ct = public.pkcs1v15_encrypt(b"secret")?;
//! assert_eq!(key.pkcs1v15_decrypt(&ct)?, b"secret");
//! # Ok::<(), rsatool_rsa::Error>(())
//! ```

use alloc::vec::Vec;
use rand_core::{CryptoRng, TryCryptoRng};

use crate::scheme::{EncryptionScheme, SignatureScheme};
use crate::typed_keys;
use crate::{
    KnownDigest, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss, Result, RsaPrivateKey, RsaPublicKey,
};

// By a scheme value.

impl RsaPrivateKey {
    /// Hashes `msg` with the scheme's hash and signs it.
    ///
    /// # Errors
    ///
    /// As [`SignatureScheme::sign_digest`].
    pub fn sign<S: SignatureScheme, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        scheme: &S,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        scheme.sign_digest(self, rng, &scheme.hash().digest(msg))
    }

    /// Signs a precomputed digest of the scheme's hash.
    ///
    /// # Errors
    ///
    /// As [`SignatureScheme::sign_digest`].
    pub fn sign_prehashed<S: SignatureScheme, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        scheme: &S,
        digest: &[u8],
    ) -> Result<Vec<u8>> {
        scheme.sign_digest(self, rng, digest)
    }

    /// Decrypts `ciphertext` with `scheme`.
    ///
    /// # Errors
    ///
    /// As [`EncryptionScheme::decrypt`].
    pub fn decrypt<S: EncryptionScheme, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        scheme: &S,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        scheme.decrypt(self, rng, ciphertext)
    }
}

impl RsaPublicKey {
    /// Hashes `msg` with the scheme's hash and verifies `signature` over it.
    ///
    /// # Errors
    ///
    /// As [`SignatureScheme::verify_digest`].
    pub fn verify<S: SignatureScheme>(
        &self,
        scheme: &S,
        msg: &[u8],
        signature: &[u8],
    ) -> Result<()> {
        scheme.verify_digest(self, &scheme.hash().digest(msg), signature)
    }

    /// Verifies `signature` over a precomputed digest of the scheme's hash.
    ///
    /// # Errors
    ///
    /// As [`SignatureScheme::verify_digest`].
    pub fn verify_prehashed<S: SignatureScheme>(
        &self,
        scheme: &S,
        digest: &[u8],
        signature: &[u8],
    ) -> Result<()> {
        scheme.verify_digest(self, digest, signature)
    }

    /// Encrypts `msg` with `scheme`.
    ///
    /// # Errors
    ///
    /// As [`EncryptionScheme::encrypt`].
    pub fn encrypt<S: EncryptionScheme, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        scheme: &S,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        scheme.encrypt(self, rng, msg)
    }
}

// RustCrypto 0.10's one-call methods.

impl RsaPublicKey {
    /// OAEP encryption with `D` (label hash and MGF1), no label, the seed from the operating
    /// system's RNG.
    ///
    /// # Errors
    ///
    /// [`Error::MessageTooLong`](crate::Error::MessageTooLong) if `msg` does not fit.
    #[cfg(feature = "std")]
    pub fn oaep_encrypt<D: KnownDigest>(&self, msg: &[u8]) -> Result<Vec<u8>> {
        self.oaep_encrypt_with_rng::<D, _>(&mut crate::os_rng(), msg)
    }

    /// [`RsaPublicKey::oaep_encrypt`] with the seed from `rng`.
    ///
    /// # Errors
    ///
    /// As [`RsaPublicKey::oaep_encrypt`]; [`Error::Rng`](crate::Error::Rng) if `rng` fails.
    pub fn oaep_encrypt_with_rng<D: KnownDigest, R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        typed_keys::encrypt(self, &Oaep::new(D::HASH), rng, msg)
    }

    /// PKCS #1 v1.5 encryption, the padding from the operating system's RNG. Prefer OAEP.
    ///
    /// # Errors
    ///
    /// [`Error::MessageTooLong`](crate::Error::MessageTooLong) if `msg` is over k − 11 bytes.
    #[cfg(feature = "std")]
    pub fn pkcs1v15_encrypt(&self, msg: &[u8]) -> Result<Vec<u8>> {
        self.pkcs1v15_encrypt_with_rng(&mut crate::os_rng(), msg)
    }

    /// [`RsaPublicKey::pkcs1v15_encrypt`] with the padding from `rng`.
    ///
    /// # Errors
    ///
    /// As [`RsaPublicKey::pkcs1v15_encrypt`]; [`Error::Rng`](crate::Error::Rng) if `rng`
    /// fails.
    pub fn pkcs1v15_encrypt_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        typed_keys::encrypt(self, &Pkcs1v15Encrypt::new(), rng, msg)
    }

    /// Verifies a PKCS #1 v1.5 signature over `msg` hashed with `D`.
    ///
    /// # Errors
    ///
    /// [`Error::Verification`](crate::Error::Verification) for every invalid signature.
    pub fn pkcs1v15_verify<D: KnownDigest>(&self, msg: &[u8], sig: &[u8]) -> Result<()> {
        self.verify(&Pkcs1v15Sign::new(D::HASH), msg, sig)
    }

    /// Verifies a PKCS #1 v1.5 signature over a digest computed with `D`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`](crate::Error::InvalidLength) if `hash` is not `D`'s length;
    /// [`Error::Verification`](crate::Error::Verification) for every invalid signature.
    pub fn pkcs1v15_verify_prehash<D: KnownDigest>(&self, hash: &[u8], sig: &[u8]) -> Result<()> {
        self.verify_prehashed(&Pkcs1v15Sign::new(D::HASH), hash, sig)
    }

    /// Verifies a PSS signature over `msg` hashed with `D`, with a salt of `D`'s length
    /// (for other lengths, [`Pss`] or [`pss::VerifyingKey`](crate::pss::VerifyingKey)).
    ///
    /// # Errors
    ///
    /// [`Error::Verification`](crate::Error::Verification) for every invalid signature.
    pub fn pss_verify<D: KnownDigest>(&self, msg: &[u8], sig: &[u8]) -> Result<()> {
        self.verify(&Pss::new(D::HASH), msg, sig)
    }

    /// Verifies a PSS signature over a digest computed with `D`.
    ///
    /// # Errors
    ///
    /// As [`RsaPublicKey::pkcs1v15_verify_prehash`].
    pub fn pss_verify_prehash<D: KnownDigest>(&self, hash: &[u8], sig: &[u8]) -> Result<()> {
        self.verify_prehashed(&Pss::new(D::HASH), hash, sig)
    }
}

impl RsaPrivateKey {
    /// OAEP decryption with `D` (label hash and MGF1), no label, blinded with the operating
    /// system's RNG.
    ///
    /// # Errors
    ///
    /// [`Error::Decryption`](crate::Error::Decryption) for every rejected ciphertext.
    #[cfg(feature = "std")]
    pub fn oaep_decrypt<D: KnownDigest>(&self, ciphertext: &[u8]) -> Result<Vec<u8>> {
        self.oaep_decrypt_with_rng::<D, _>(&mut crate::os_rng(), ciphertext)
    }

    /// [`RsaPrivateKey::oaep_decrypt`] blinded with `rng`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::oaep_decrypt`]; [`Error::Rng`](crate::Error::Rng) if `rng` fails.
    pub fn oaep_decrypt_with_rng<D: KnownDigest, R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        typed_keys::decrypt(self, &Oaep::new(D::HASH), rng, ciphertext)
    }

    /// PKCS #1 v1.5 decryption with implicit rejection (a bad padding gives a pseudo-random
    /// message, not an error), blinded with the operating system's RNG.
    ///
    /// # Errors
    ///
    /// [`Error::Decryption`](crate::Error::Decryption) for a ciphertext of the wrong length
    /// or not below n.
    #[cfg(feature = "std")]
    pub fn pkcs1v15_decrypt(&self, ciphertext: &[u8]) -> Result<Vec<u8>> {
        self.pkcs1v15_decrypt_with_rng(&mut crate::os_rng(), ciphertext)
    }

    /// [`RsaPrivateKey::pkcs1v15_decrypt`] blinded with `rng`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::pkcs1v15_decrypt`]; [`Error::Rng`](crate::Error::Rng) if `rng`
    /// fails.
    pub fn pkcs1v15_decrypt_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        typed_keys::decrypt(self, &Pkcs1v15Encrypt::new(), rng, ciphertext)
    }

    /// A PKCS #1 v1.5 signature of `msg` hashed with `D`, blinded with the operating system's
    /// RNG (the signature does not depend on it).
    ///
    /// # Errors
    ///
    /// [`Error::MessageTooLong`](crate::Error::MessageTooLong) if the key is too small for
    /// `D`'s DigestInfo; [`Error::Fault`](crate::Error::Fault) from the private operation.
    #[cfg(feature = "std")]
    pub fn pkcs1v15_sign<D: KnownDigest>(&self, msg: &[u8]) -> Result<Vec<u8>> {
        self.pkcs1v15_sign_with_rng::<D, _>(&mut crate::os_rng(), msg)
    }

    /// A PKCS #1 v1.5 signature of a digest computed with `D`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::pkcs1v15_sign`];
    /// [`Error::InvalidLength`](crate::Error::InvalidLength) if `hash` is not `D`'s length.
    #[cfg(feature = "std")]
    pub fn pkcs1v15_sign_prehash<D: KnownDigest>(&self, hash: &[u8]) -> Result<Vec<u8>> {
        self.pkcs1v15_sign_prehash_with_rng::<D, _>(&mut crate::os_rng(), hash)
    }

    /// [`RsaPrivateKey::pkcs1v15_sign`] blinded with `rng`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::pkcs1v15_sign`]; [`Error::Rng`](crate::Error::Rng) if `rng`
    /// fails.
    pub fn pkcs1v15_sign_with_rng<D: KnownDigest, R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        self.pkcs1v15_sign_prehash_with_rng::<D, _>(rng, &D::HASH.digest(msg))
    }

    /// [`RsaPrivateKey::pkcs1v15_sign_prehash`] blinded with `rng`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::pkcs1v15_sign_prehash`]; [`Error::Rng`](crate::Error::Rng) if
    /// `rng` fails.
    pub fn pkcs1v15_sign_prehash_with_rng<D: KnownDigest, R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        hash: &[u8],
    ) -> Result<Vec<u8>> {
        typed_keys::sign_digest(self, &Pkcs1v15Sign::new(D::HASH), rng, hash)
    }

    /// A PSS signature of `msg` hashed with `D`, with a salt of `D`'s length; the salt and
    /// the blinding from the operating system's RNG.
    ///
    /// # Errors
    ///
    /// [`Error::MessageTooLong`](crate::Error::MessageTooLong) if the key is too small for
    /// `D` and the salt; [`Error::Fault`](crate::Error::Fault) from the private operation.
    #[cfg(feature = "std")]
    pub fn pss_sign<D: KnownDigest>(&self, msg: &[u8]) -> Result<Vec<u8>> {
        self.pss_sign_with_rng::<D, _>(&mut crate::os_rng(), msg)
    }

    /// A PSS signature of a digest computed with `D`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::pss_sign`]; [`Error::InvalidLength`](crate::Error::InvalidLength)
    /// if `hash` is not `D`'s length.
    #[cfg(feature = "std")]
    pub fn pss_sign_prehash<D: KnownDigest>(&self, hash: &[u8]) -> Result<Vec<u8>> {
        self.pss_sign_prehash_with_rng::<D, _>(&mut crate::os_rng(), hash)
    }

    /// [`RsaPrivateKey::pss_sign`] with the salt and the blinding from `rng`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::pss_sign`]; [`Error::Rng`](crate::Error::Rng) if `rng` fails.
    pub fn pss_sign_with_rng<D: KnownDigest, R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        self.pss_sign_prehash_with_rng::<D, _>(rng, &D::HASH.digest(msg))
    }

    /// [`RsaPrivateKey::pss_sign_prehash`] with the salt and the blinding from `rng`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::pss_sign_prehash`]; [`Error::Rng`](crate::Error::Rng) if `rng`
    /// fails.
    pub fn pss_sign_prehash_with_rng<D: KnownDigest, R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        hash: &[u8],
    ) -> Result<Vec<u8>> {
        typed_keys::sign_digest(self, &Pss::new(D::HASH), rng, hash)
    }
}
