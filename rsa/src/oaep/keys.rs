//! OAEP's typed encryption keys, as RustCrypto's `rsa` spells them.

use alloc::vec::Vec;
use core::marker::PhantomData;

use super::Oaep;
use crate::traits::EncryptingKeypair;
use crate::{KnownDigest, RsaPrivateKey, RsaPublicKey, typed};

/// A public key for OAEP with `D` as the label hash and `MGD` (by default `D`) as MGF1's,
/// with [`RandomizedEncryptor`]. The run-time form is [`Oaep`] with
/// [`RsaPublicKey::encrypt`]. See [`RandomizedEncryptor`] for an example.
///
/// [`RandomizedEncryptor`]: crate::traits::RandomizedEncryptor
pub struct EncryptingKey<D: KnownDigest, MGD: KnownDigest = D> {
    key: RsaPublicKey,
    scheme: Oaep,
    digests: PhantomData<fn() -> (D, MGD)>,
}

impl<D: KnownDigest, MGD: KnownDigest> EncryptingKey<D, MGD> {
    /// OAEP with an empty label.
    pub fn new(key: RsaPublicKey) -> Self {
        Self::new_with_label(key, Vec::new())
    }

    /// OAEP with `label`, which decryption must be given again.
    pub fn new_with_label(key: RsaPublicKey, label: impl Into<Vec<u8>>) -> Self {
        EncryptingKey {
            key,
            scheme: Oaep::new(D::HASH)
                .with_mgf1_hash(MGD::HASH)
                .with_label(label),
            digests: PhantomData,
        }
    }

    /// The public key.
    pub fn key(&self) -> &RsaPublicKey {
        &self.key
    }
}

impl<D: KnownDigest, MGD: KnownDigest> Clone for EncryptingKey<D, MGD> {
    fn clone(&self) -> Self {
        EncryptingKey {
            key: self.key.clone(),
            scheme: self.scheme.clone(),
            digests: PhantomData,
        }
    }
}

impl<D: KnownDigest, MGD: KnownDigest> core::fmt::Debug for EncryptingKey<D, MGD> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EncryptingKey")
            .field("key", &self.key)
            .field("scheme", &self.scheme)
            .finish()
    }
}

/// A private key for OAEP with `D` as the label hash and `MGD` (by default `D`) as MGF1's,
/// with [`Decryptor`], [`RandomizedDecryptor`] and [`EncryptingKeypair`]. The run-time form
/// is [`Oaep`] with [`RsaPrivateKey::decrypt`]. See [`RandomizedEncryptor`] for an example.
///
/// [`Decryptor`]: crate::traits::Decryptor
/// [`RandomizedDecryptor`]: crate::traits::RandomizedDecryptor
/// [`RandomizedEncryptor`]: crate::traits::RandomizedEncryptor
pub struct DecryptingKey<D: KnownDigest, MGD: KnownDigest = D> {
    key: RsaPrivateKey,
    scheme: Oaep,
    digests: PhantomData<fn() -> (D, MGD)>,
}

impl<D: KnownDigest, MGD: KnownDigest> DecryptingKey<D, MGD> {
    /// OAEP with an empty label.
    pub fn new(key: RsaPrivateKey) -> Self {
        Self::new_with_label(key, Vec::new())
    }

    /// OAEP with `label`, the one the message was encrypted with.
    pub fn new_with_label(key: RsaPrivateKey, label: impl Into<Vec<u8>>) -> Self {
        DecryptingKey {
            key,
            scheme: Oaep::new(D::HASH)
                .with_mgf1_hash(MGD::HASH)
                .with_label(label),
            digests: PhantomData,
        }
    }

    /// The private key.
    pub fn key(&self) -> &RsaPrivateKey {
        &self.key
    }
}

impl<D: KnownDigest, MGD: KnownDigest> Clone for DecryptingKey<D, MGD> {
    fn clone(&self) -> Self {
        DecryptingKey {
            key: self.key.clone(),
            scheme: self.scheme.clone(),
            digests: PhantomData,
        }
    }
}

impl<D: KnownDigest, MGD: KnownDigest> core::fmt::Debug for DecryptingKey<D, MGD> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DecryptingKey")
            .field("key", &self.key)
            .field("scheme", &self.scheme)
            .finish()
    }
}

impl<D: KnownDigest, MGD: KnownDigest> EncryptingKeypair for DecryptingKey<D, MGD> {
    type EncryptingKey = EncryptingKey<D, MGD>;

    fn encrypting_key(&self) -> EncryptingKey<D, MGD> {
        EncryptingKey {
            key: self.key.public_key().clone(),
            scheme: self.scheme.clone(),
            digests: PhantomData,
        }
    }
}

typed::encryption_key_impls!(EncryptingKey, DecryptingKey<D, MGD>);
