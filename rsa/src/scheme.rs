//! What every padding scheme provides; the key methods that run one are in `scheme_methods.rs`.
//!
//! A scheme is a value that carries its parameters (hash, MGF1 hash, salt length, label):
//! [`Pkcs1v15Sign`](crate::Pkcs1v15Sign) and [`Pss`](crate::Pss) sign and verify;
//! [`Oaep`](crate::Oaep) and [`Pkcs1v15Encrypt`](crate::Pkcs1v15Encrypt) encrypt and decrypt.
//! The keys take a scheme by reference:
//!
//! ```text
//! let sig = key.sign(&mut rng, &Pss::new(HashAlg::Sha256), msg)?;
//! key.public_key().verify(&Pss::new(HashAlg::Sha256), msg, &sig)?;
//! ```
//!
//! Every failure of a scheme is an [`Error`](crate::Error): a signature that does not verify is
//! [`Error::Verification`](crate::Error::Verification), a ciphertext that does not decrypt is
//! [`Error::Decryption`](crate::Error::Decryption), whatever the reason.

use alloc::vec::Vec;
use rand_core::CryptoRng;
use subtle::Choice;
use zeroize::Zeroizing;

use crate::hazmat::PrivateOp;
use crate::{Error, HashAlg, Result, RsaPrivateKey, RsaPublicKey};

mod sealed {
    use alloc::vec::Vec;

    use rand_core::CryptoRng;
    use zeroize::Zeroizing;

    use crate::hazmat::PrivateOp;
    use crate::{Result, RsaPrivateKey};

    /// What the batch operations need of a signature scheme, out of the public API: only this
    /// crate's schemes implement [`SignatureScheme`](super::SignatureScheme).
    pub trait SignSealed {
        /// The encoded message EM (k bytes) that
        /// [`sign_digest`](super::SignatureScheme::sign_digest) gives to the private
        /// operation: for the batch signatures, which run the private operations together.
        ///
        /// # Errors
        ///
        /// As [`sign_digest`](super::SignatureScheme::sign_digest), but for the private
        /// operation's.
        fn encode_for_signing<R: CryptoRng + ?Sized>(
            &self,
            key: &RsaPrivateKey,
            rng: &mut R,
            digest: &[u8],
        ) -> Result<Zeroizing<Vec<u8>>>;
    }

    /// What an encryption scheme's decryption is made of, out of the public API (only this
    /// crate's schemes implement [`EncryptionScheme`](super::EncryptionScheme)): its public
    /// checks, the private operation, and the reading of the block it gives, up to the
    /// declassification of the verdict and the length. The batch decryptions run the private
    /// operations together, between the two; the constant-time drivers stop before the
    /// declassification.
    pub trait EncryptSealed {
        /// The public checks made before the private operation (the ciphertext's length, the
        /// key's size for the scheme).
        ///
        /// # Errors
        ///
        /// [`Error::Decryption`](crate::Error::Decryption) if a check fails.
        fn check_ciphertext(&self, key: &RsaPrivateKey, ciphertext: &[u8]) -> Result<()>;

        /// The block after the private operation, whose result is `em`: the k-byte block
        /// whose last `len` bytes are the message, with the verdict and the length still
        /// secret ([`Unsliced::into_message`](super::Unsliced::into_message) declassifies
        /// them).
        ///
        /// # Errors
        ///
        /// [`Error::Fault`](crate::Error::Fault) from the private operation, and the errors
        /// of [`decrypt`](super::EncryptionScheme::decrypt) that are public; a bad padding is
        /// not an error here.
        fn unslice(
            &self,
            key: &RsaPrivateKey,
            ciphertext: &[u8],
            em: Result<Vec<u8>>,
        ) -> Result<super::Unsliced>;

        /// The whole decryption up to its declassification: the checks, the private
        /// operation ([`PrivateOp::private_op`]: CRT, blinding, fault check), the block.
        ///
        /// # Errors
        ///
        /// As [`check_ciphertext`](Self::check_ciphertext) and [`unslice`](Self::unslice).
        fn decrypt_block<R: CryptoRng + ?Sized>(
            &self,
            key: &RsaPrivateKey,
            rng: &mut R,
            ciphertext: &[u8],
        ) -> Result<super::Unsliced> {
            self.check_ciphertext(key, ciphertext)?;
            self.unslice(key, ciphertext, key.private_op(rng, ciphertext))
        }
    }
}
pub(crate) use sealed::{EncryptSealed, SignSealed};

/// A signature scheme (RFC 8017 §8): PKCS #1 v1.5 or PSS.
pub trait SignatureScheme: SignSealed {
    /// The hash applied to the message by [`RsaPrivateKey::sign`] and
    /// [`RsaPublicKey::verify`].
    fn hash(&self) -> HashAlg;

    /// Signs a digest already computed with [`hash`](Self::hash): RSASSA-PKCS1-V1_5-SIGN
    /// (RFC 8017 §8.2.1) or RSASSA-PSS-SIGN (§8.1.1), the scheme's encoding then the private
    /// operation of [`PrivateOp::private_op`](crate::hazmat::PrivateOp::private_op) (CRT,
    /// blinding with `rng`, fault check).
    ///
    /// # Constant time
    ///
    /// The encodings' time depends on the lengths only (PSS's salt, drawn from `rng`, is no
    /// secret once the signature is out); the private operation is constant time.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`](crate::Error::InvalidLength) if the digest is not the hash's
    /// length; [`Error::MessageTooLong`](crate::Error::MessageTooLong) if the key is too small
    /// for the encoding (PKCS #1 v1.5: k < tLen + 11; PSS: emLen < hLen + sLen + 2);
    /// [`Error::Fault`](crate::Error::Fault) from the private operation.
    fn sign_digest<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        digest: &[u8],
    ) -> Result<Vec<u8>> {
        // Step 1: EM of k bytes; steps 2–3: s = RSASP1(K, OS2IP(EM)) as k bytes.
        let em = self.encode_for_signing(key, rng, digest)?;
        key.private_op(rng, &em)
    }

    /// Verifies a signature over a digest already computed with [`hash`](Self::hash).
    ///
    /// # Errors
    ///
    /// [`Error::Verification`](crate::Error::Verification) for every invalid signature,
    /// including one of the wrong length or not below n.
    fn verify_digest(&self, key: &RsaPublicKey, digest: &[u8], signature: &[u8]) -> Result<()>;
}

/// An encryption scheme (RFC 8017 §7): OAEP or PKCS #1 v1.5.
pub trait EncryptionScheme: EncryptSealed {
    /// Encrypts `msg` (a random padding from `rng`); the ciphertext is the modulus length.
    ///
    /// # Errors
    ///
    /// [`Error::MessageTooLong`](crate::Error::MessageTooLong) if `msg` does not fit the key
    /// and scheme.
    fn encrypt<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPublicKey,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>>;

    /// Decrypts `ciphertext` with the private operation of
    /// [`PrivateOp::private_op`](crate::hazmat::PrivateOp::private_op) (CRT, blinding with
    /// `rng`, fault check): RSAES-OAEP-DECRYPT (RFC 8017 §7.1.2) or RSAES-PKCS1-V1_5-DECRYPT
    /// (§7.2.2; on bad padding, the implicit-rejection message by default, see
    /// [`Pkcs1v15Encrypt`](crate::Pkcs1v15Encrypt)).
    ///
    /// # Constant time
    ///
    /// See each scheme's module documentation: what leaks (the verdict where the scheme
    /// reveals it, the message length) leaks only after every check has run over the whole
    /// block.
    ///
    /// # Errors
    ///
    /// [`Error::Decryption`](crate::Error::Decryption) for every rejected ciphertext, one
    /// error whatever the reason (schemes with implicit rejection return a message instead
    /// for a bad padding; a ciphertext of the wrong length or not below n is an error under
    /// both); [`Error::Fault`](crate::Error::Fault) if the private operation fails its check.
    fn decrypt<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        self.decrypt_block(key, rng, ciphertext)?.into_message()
    }
}

/// A decrypted block before its final declassification, shared by the decryption schemes
/// (`Oaep::decrypt_unsliced`, `Pkcs1v15Encrypt::decrypt_unsliced`): for the constant-time
/// drivers, which declassify the verdict and the length themselves.
#[doc(hidden)]
pub struct Unsliced {
    /// k bytes; the message is the last `len` of them.
    pub block: Zeroizing<Vec<u8>>,
    /// Whether the ciphertext is accepted (secret until declassified).
    pub valid: Choice,
    /// The message length (secret until declassified); below k.
    pub len: u64,
}

impl Unsliced {
    /// The message, or [`Error::Decryption`] if the ciphertext was rejected.
    ///
    /// # Constant time
    ///
    /// This is the declassification: it branches on the verdict, then slices at the message
    /// length.
    ///
    /// # Errors
    ///
    /// [`Error::Decryption`] if `valid` is unset.
    pub fn into_message(self) -> Result<Vec<u8>> {
        // Leaks: the verdict, which the caller learns anyway (a message or an error), and only
        // after every check has run over the whole block.
        if !bool::from(self.valid) {
            return Err(Error::Decryption);
        }
        // Leaks: the message length, which the caller learns as the length of the result.
        let len = usize::try_from(self.len).map_err(|_| Error::Decryption)?;
        let start = self.block.len().checked_sub(len).ok_or(Error::Decryption)?;
        Ok(self.block[start..].to_vec())
    }
}
