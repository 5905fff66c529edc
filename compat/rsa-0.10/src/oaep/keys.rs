//! The typed keys of RSAES-OAEP, [`EncryptingKey`] and [`DecryptingKey`]: one text for the two
//! structs (the label a boxed byte string, a phantom per hash, serde with the feature), their
//! constructors and their traits, which each concern both keys.

use alloc::boxed::Box;
use core::marker::PhantomData;

use digest::{Digest, FixedOutputReset};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

#[cfg(doc)]
use crate::traits::{Decryptor, RandomizedDecryptor};
use crate::{PrivateKey, PublicKey};

crate::oaep_impls::oaep_keys!(
    {
        label: Option<Box<[u8]>>,
        phantom: PhantomData<D>,
        mg_phantom: PhantomData<MGD>,
    },
    new_with_label<S: Into<Box<[u8]>>>(label) => label.into(),
    /// A public key that encrypts with RSAES-OAEP ([RFC 8017 §7.1]): `D` hashes the label, `MGD`
    /// is MGF1's hash, and the label is fixed with the key.
    ///
    /// [RFC 8017 §7.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.1
    #[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
    EncryptingKey(PublicKey) {
        /// An encrypting key of `key` with an empty label.
        #[must_use]
        new,
        /// An encrypting key of `key` with `label`.
        new_with_label,
    },
    /// A private key that decrypts RSAES-OAEP ([RFC 8017 §7.1]): `D` hashes the label, `MGD` is
    /// MGF1's hash, and the label is fixed with the key.
    ///
    /// [`Decryptor::decrypt`] blinds the private operation with the operating system's RNG
    /// (feature `getrandom`) or a stream keyed by the key and the ciphertext;
    /// [`RandomizedDecryptor::decrypt_with_rng`] with the RNG given.
    ///
    /// [RFC 8017 §7.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.1
    #[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
    DecryptingKey(PrivateKey) {
        /// A decrypting key of `key` with an empty label.
        #[must_use]
        new,
        /// A decrypting key of `key` with `label`.
        new_with_label,
    },
);

crate::oaep_impls::oaep_key_impls!(
    EncryptingKey,
    DecryptingKey,
    rng: rand_core::TryCryptoRng,
    encrypt: super::encrypt,
    decrypt: super::decrypt_typed,
);

/// `PartialEq` of each key: the same key and label (the hashes are the type's), with no bound
/// on the hashes' own types, as upstream.
macro_rules! eq_by_key_and_label {
    ($($key:ident),+) => {$(
        impl<D, MGD> PartialEq for $key<D, MGD>
        where
            D: Digest,
            MGD: Digest + FixedOutputReset,
        {
            fn eq(&self, other: &Self) -> bool {
                self.inner == other.inner && self.label == other.label
            }
        }
    )+};
}

eq_by_key_and_label!(EncryptingKey, DecryptingKey);
