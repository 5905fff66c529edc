//! [`EncryptingKey`]: a public key typed by its hashes for RSAES-OAEP.

use alloc::boxed::Box;
use core::marker::PhantomData;

use digest::{Digest, FixedOutputReset};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::PublicKey;

crate::oaep_impls::oaep_key!(
    /// A public key that encrypts with RSAES-OAEP ([RFC 8017 §7.1]): `D` hashes the label, `MGD`
    /// is MGF1's hash, and the label is fixed with the key.
    ///
    /// [RFC 8017 §7.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.1
    #[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
    public EncryptingKey(PublicKey) {
        label: Option<Box<[u8]>>,
        phantom: PhantomData<D>,
        mg_phantom: PhantomData<MGD>,
    },
    /// An encrypting key of `key` with an empty label.
    #[must_use]
    new,
    /// An encrypting key of `key` with `label`.
    new_with_label<S: Into<Box<[u8]>>>(label) => label.into(),
);

impl<D, MGD> PartialEq for EncryptingKey<D, MGD>
where
    D: Digest,
    MGD: Digest + FixedOutputReset,
{
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner && self.label == other.label
    }
}
