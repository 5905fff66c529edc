//! OAEP's typed encryption keys, as RustCrypto's `rsa` spells them.

use alloc::vec::Vec;
use core::marker::PhantomData;

use super::Oaep;
use crate::traits::EncryptingKeypair;
use crate::{KnownDigest, RsaPrivateKey, RsaPublicKey, typed_keys};

/// A typed OAEP key over `$key`, the digests its type parameters: the struct, `new` (an
/// empty label), `new_with_label`, `key`, `Clone` and `Debug`, the same for both halves.
macro_rules! oaep_key {
    (
        $(#[$doc:meta])*
        $name:ident($key:ty),
        label: $label_doc:literal,
        key: $key_doc:literal $(,)?
    ) => {
        $(#[$doc])*
        pub struct $name<D: KnownDigest, MGD: KnownDigest = D> {
            key: $key,
            scheme: Oaep,
            digests: PhantomData<fn() -> (D, MGD)>,
        }

        impl<D: KnownDigest, MGD: KnownDigest> $name<D, MGD> {
            /// OAEP with an empty label.
            pub fn new(key: $key) -> Self {
                Self::new_with_label(key, Vec::new())
            }

            #[doc = $label_doc]
            pub fn new_with_label(key: $key, label: impl Into<Vec<u8>>) -> Self {
                $name {
                    key,
                    scheme: Oaep::new(D::HASH)
                        .with_mgf1_hash(MGD::HASH)
                        .with_label(label),
                    digests: PhantomData,
                }
            }

            #[doc = $key_doc]
            pub fn key(&self) -> &$key {
                &self.key
            }
        }

        impl<D: KnownDigest, MGD: KnownDigest> Clone for $name<D, MGD> {
            fn clone(&self) -> Self {
                $name {
                    key: self.key.clone(),
                    scheme: self.scheme.clone(),
                    digests: PhantomData,
                }
            }
        }

        impl<D: KnownDigest, MGD: KnownDigest> core::fmt::Debug for $name<D, MGD> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("key", &self.key)
                    .field("scheme", &self.scheme)
                    .finish()
            }
        }
    };
}

oaep_key! {
    /// A public key for OAEP with `D` as the label hash and `MGD` (by default `D`) as MGF1's,
    /// with [`RandomizedEncryptor`]. The run-time form is [`Oaep`] with
    /// [`RsaPublicKey::encrypt`]. See [`RandomizedEncryptor`] for an example.
    ///
    /// [`RandomizedEncryptor`]: crate::traits::RandomizedEncryptor
    EncryptingKey(RsaPublicKey),
    label: "OAEP with `label`, which decryption must be given again.",
    key: "The public key.",
}

oaep_key! {
    /// A private key for OAEP with `D` as the label hash and `MGD` (by default `D`) as MGF1's,
    /// with [`Decryptor`], [`RandomizedDecryptor`] and [`EncryptingKeypair`]. The run-time form
    /// is [`Oaep`] with [`RsaPrivateKey::decrypt`]. See [`RandomizedEncryptor`] for an example.
    ///
    /// [`Decryptor`]: crate::traits::Decryptor
    /// [`RandomizedDecryptor`]: crate::traits::RandomizedDecryptor
    /// [`RandomizedEncryptor`]: crate::traits::RandomizedEncryptor
    DecryptingKey(RsaPrivateKey),
    label: "OAEP with `label`, the one the message was encrypted with.",
    key: "The private key.",
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

typed_keys::encryption_key_impls!(EncryptingKey, DecryptingKey<D, MGD>);
