//! [`DecryptingKey`]: a private key typed by its hashes for RSAES-OAEP.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::marker::PhantomData;

use digest::{Digest, FixedOutputReset};
use rand_core::CryptoRngCore;
use zeroize::ZeroizeOnDrop;

use super::typed_scheme;
use crate::RsaPrivateKey;
use crate::bridge::NoRng;
use crate::errors::Result;
use crate::traits::{Decryptor, RandomizedDecryptor};

/// Decryption key for OAEP decryption as described in [RFC8017 § 7.1].
///
/// [RFC8017 § 7.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.1
#[derive(Debug, Clone)]
pub struct DecryptingKey<D, MGD = D>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
    inner: RsaPrivateKey,
    label: Option<String>,
    phantom: PhantomData<(D, MGD)>,
}

impl<D, MGD> DecryptingKey<D, MGD>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
    /// Create a new decrypting key from an RSA private key.
    pub fn new(key: RsaPrivateKey) -> Self {
        Self {
            inner: key,
            label: None,
            phantom: PhantomData,
        }
    }

    /// Create a new decrypting key from an RSA private key using provided label
    pub fn new_with_label<S: AsRef<str>>(key: RsaPrivateKey, label: S) -> Self {
        Self {
            label: Some(label.as_ref().to_string()),
            ..Self::new(key)
        }
    }

    /// Decrypts, blinded with `rng` (the operating system's RNG if `None`).
    fn decrypt_rng<R: CryptoRngCore + ?Sized>(
        &self,
        rng: Option<&mut R>,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        let scheme = typed_scheme::<D, MGD>(self.label.as_deref())?;
        self.inner.decrypt_with(rng, &scheme, ciphertext)
    }
}

impl<D, MGD> Decryptor for DecryptingKey<D, MGD>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
    fn decrypt(&self, ciphertext: &[u8]) -> Result<Vec<u8>> {
        self.decrypt_rng(None::<&mut NoRng>, ciphertext)
    }
}

impl<D, MGD> RandomizedDecryptor for DecryptingKey<D, MGD>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
    fn decrypt_with_rng<R: CryptoRngCore + ?Sized>(
        &self,
        rng: &mut R,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        self.decrypt_rng(Some(rng), ciphertext)
    }
}

impl<D, MGD> ZeroizeOnDrop for DecryptingKey<D, MGD>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
}
