//! [`EncryptingKey`]: a public key typed by its hashes for RSAES-OAEP.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::marker::PhantomData;

use digest::{Digest, FixedOutputReset};
use rand_core::CryptoRngCore;

use super::typed_scheme;
use crate::RsaPublicKey;
use crate::errors::Result;
use crate::traits::RandomizedEncryptor;

/// Encryption key for OAEP encryption as described in [RFC8017 § 7.1].
///
/// [RFC8017 § 7.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.1
#[derive(Debug, Clone)]
pub struct EncryptingKey<D, MGD = D>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
    inner: RsaPublicKey,
    label: Option<String>,
    phantom: PhantomData<(D, MGD)>,
}

impl<D, MGD> EncryptingKey<D, MGD>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
    /// Create a new encrypting key from an RSA public key.
    pub fn new(key: RsaPublicKey) -> Self {
        Self {
            inner: key,
            label: None,
            phantom: PhantomData,
        }
    }

    /// Create a new encrypting key from an RSA public key using provided label
    pub fn new_with_label<S: AsRef<str>>(key: RsaPublicKey, label: S) -> Self {
        Self {
            label: Some(label.as_ref().to_string()),
            ..Self::new(key)
        }
    }
}

impl<D, MGD> RandomizedEncryptor for EncryptingKey<D, MGD>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
    fn encrypt_with_rng<R: CryptoRngCore + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        let scheme = typed_scheme::<D, MGD>(self.label.as_deref())?;
        self.inner.encrypt_with(rng, &scheme, msg)
    }
}
