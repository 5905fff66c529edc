//! [`DecryptingKey`]: a private key typed by its hashes for RSAES-OAEP.

use alloc::boxed::Box;
use core::marker::PhantomData;

use digest::{Digest, FixedOutputReset};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use super::EncryptingKey;
use crate::PrivateKey;
#[cfg(doc)]
use crate::traits::{Decryptor, RandomizedDecryptor};

crate::oaep_impls::oaep_key!(
    /// A private key that decrypts RSAES-OAEP ([RFC 8017 §7.1]): `D` hashes the label, `MGD` is
    /// MGF1's hash, and the label is fixed with the key.
    ///
    /// [`Decryptor::decrypt`] blinds the private operation with the operating system's RNG
    /// (feature `getrandom`) or a stream keyed by the key and the ciphertext;
    /// [`RandomizedDecryptor::decrypt_with_rng`] with the RNG given.
    ///
    /// [RFC 8017 §7.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.1
    #[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
    private DecryptingKey(PrivateKey) {
        label: Option<Box<[u8]>>,
        phantom: PhantomData<D>,
        mg_phantom: PhantomData<MGD>,
    },
    /// A decrypting key of `key` with an empty label.
    #[must_use]
    new,
    /// A decrypting key of `key` with `label`.
    new_with_label<S: Into<Box<[u8]>>>(label) => label.into(),
);

crate::oaep_impls::oaep_key_impls!(
    EncryptingKey,
    DecryptingKey,
    rng: rand_core::TryCryptoRng,
    encrypt: super::encrypt,
    decrypt: super::decrypt_typed,
);

impl<D, MGD> PartialEq for DecryptingKey<D, MGD>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner && self.label == other.label
    }
}
