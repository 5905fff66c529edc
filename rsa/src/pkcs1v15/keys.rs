//! PKCS #1 v1.5's encryption keys, as RustCrypto's `rsa` spells them.

use super::Pkcs1v15Encrypt;
use crate::traits::EncryptingKeypair;
use crate::{RsaPrivateKey, RsaPublicKey, typed_keys};

/// A public key for PKCS #1 v1.5 encryption, with [`RandomizedEncryptor`].
///
/// ```
/// use rsatool_rsa::pkcs1v15::{DecryptingKey, EncryptingKey};
/// use rsatool_rsa::traits::{Decryptor, RandomizedEncryptor};
///
/// let mut rng = rsatool_rsa::os_rng();
/// let key = rsatool_rsa::RsaPrivateKey::new(&mut rng, 1024)?;
/// let ct = EncryptingKey::new(key.to_public_key()).encrypt_with_rng(&mut rng, b"secret")?;
/// let decrypting_key = DecryptingKey::new(key);
/// assert_eq!(decrypting_key.decrypt(&ct)?, b"secret");
/// // Implicit rejection: a damaged ciphertext gives a message, not an error.
/// let mut bad = ct.clone();
/// bad[5] ^= 1;
/// assert!(decrypting_key.decrypt(&bad).is_ok_and(|m| m != b"secret"));
/// # Ok::<(), rsatool_rsa::Error>(())
/// ```
///
/// [`RandomizedEncryptor`]: crate::traits::RandomizedEncryptor
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncryptingKey {
    key: RsaPublicKey,
    scheme: Pkcs1v15Encrypt,
}

impl EncryptingKey {
    /// PKCS #1 v1.5 encryption to `key`.
    pub fn new(key: RsaPublicKey) -> Self {
        EncryptingKey {
            key,
            scheme: Pkcs1v15Encrypt::new(),
        }
    }

    /// The public key.
    pub fn key(&self) -> &RsaPublicKey {
        &self.key
    }
}

/// A private key for PKCS #1 v1.5 decryption, with implicit rejection unless built with
/// [`DecryptingKey::with_scheme`]: [`Decryptor`], [`RandomizedDecryptor`],
/// [`EncryptingKeypair`]. See [`EncryptingKey`] for an example.
///
/// [`Decryptor`]: crate::traits::Decryptor
/// [`RandomizedDecryptor`]: crate::traits::RandomizedDecryptor
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

impl EncryptingKeypair for DecryptingKey {
    type EncryptingKey = EncryptingKey;

    fn encrypting_key(&self) -> EncryptingKey {
        EncryptingKey::new(self.key.public_key().clone())
    }
}

typed_keys::encryption_key_impls!(EncryptingKey, DecryptingKey);
