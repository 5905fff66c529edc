//! PKCS #1 v1.5's encryption keys, as RustCrypto's `rsa` spells them.

use alloc::vec::Vec;
use rand_core::TryCryptoRng;

use super::Pkcs1v15Encrypt;
#[cfg(feature = "std")]
use crate::traits::Decryptor;
use crate::traits::{EncryptingKeypair, RandomizedDecryptor, RandomizedEncryptor};
use crate::{Result, RsaPrivateKey, RsaPublicKey, typed};

/// A public key for PKCS #1 v1.5 encryption, with [`RandomizedEncryptor`].
///
/// ```
/// use rsa::pkcs1v15::{DecryptingKey, EncryptingKey};
/// use rsa::traits::{Decryptor, RandomizedEncryptor};
///
/// let mut rng = rsa::os_rng();
/// let key = rsa::RsaPrivateKey::new(&mut rng, 1024)?;
/// let ct = EncryptingKey::new(key.to_public_key()).encrypt_with_rng(&mut rng, b"secret")?;
/// let decrypting_key = DecryptingKey::new(key);
/// assert_eq!(decrypting_key.decrypt(&ct)?, b"secret");
/// // Implicit rejection: a damaged ciphertext gives a message, not an error.
/// let mut bad = ct.clone();
/// bad[5] ^= 1;
/// assert!(decrypting_key.decrypt(&bad).is_ok_and(|m| m != b"secret"));
/// # Ok::<(), rsa::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncryptingKey {
    key: RsaPublicKey,
}

impl EncryptingKey {
    /// PKCS #1 v1.5 encryption to `key`.
    pub fn new(key: RsaPublicKey) -> Self {
        EncryptingKey { key }
    }

    /// The public key.
    pub fn key(&self) -> &RsaPublicKey {
        &self.key
    }
}

impl RandomizedEncryptor for EncryptingKey {
    fn encrypt_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        typed::encrypt(&self.key, &Pkcs1v15Encrypt::new(), rng, msg)
    }
}

/// A private key for PKCS #1 v1.5 decryption, with implicit rejection unless built with
/// [`DecryptingKey::with_scheme`]: [`Decryptor`], [`RandomizedDecryptor`],
/// [`EncryptingKeypair`]. See [`EncryptingKey`] for an example.
#[derive(Debug, Clone)]
pub struct DecryptingKey {
    key: RsaPrivateKey,
    scheme: Pkcs1v15Encrypt,
}

impl DecryptingKey {
    /// Decryption with implicit rejection ([`Pkcs1v15Encrypt::new`]).
    pub fn new(key: RsaPrivateKey) -> Self {
        Self::with_scheme(key, Pkcs1v15Encrypt::new())
    }

    /// Decryption with `scheme` ([`Pkcs1v15Encrypt::explicit_rejection`], read its warning).
    pub fn with_scheme(key: RsaPrivateKey, scheme: Pkcs1v15Encrypt) -> Self {
        DecryptingKey { key, scheme }
    }

    /// The private key.
    pub fn key(&self) -> &RsaPrivateKey {
        &self.key
    }
}

// The private key inside wipes itself on drop.
impl zeroize::ZeroizeOnDrop for DecryptingKey {}

#[cfg(feature = "std")]
impl Decryptor for DecryptingKey {
    fn decrypt(&self, ciphertext: &[u8]) -> Result<Vec<u8>> {
        typed::decrypt(&self.key, &self.scheme, &mut crate::os_rng(), ciphertext)
    }
}

impl RandomizedDecryptor for DecryptingKey {
    fn decrypt_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        typed::decrypt(&self.key, &self.scheme, rng, ciphertext)
    }
}

impl EncryptingKeypair for DecryptingKey {
    type EncryptingKey = EncryptingKey;

    fn encrypting_key(&self) -> EncryptingKey {
        EncryptingKey::new(self.key.public_key().clone())
    }
}
