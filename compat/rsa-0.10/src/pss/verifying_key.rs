//! [`VerifyingKey`]: a public key typed by its hash for RSASSA-PSS.

use core::marker::PhantomData;

use digest::{Digest, FixedOutputReset, Update};

use super::{Signature, verify_digest};
use crate::PublicKey;

#[cfg(feature = "serde")]
use const_oid::AssociatedOid;

crate::pss_impls::pss_key!(
    /// A public key that verifies RSASSA-PSS signatures ([RFC 8017 §8.1]) over the hash `D` (and
    /// MGF1 over `D`), with a salt of a fixed length or, made with
    /// [`new_with_auto_salt_len`](Self::new_with_auto_salt_len), of any length.
    ///
    /// [RFC 8017 §8.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.1
    public VerifyingKey(PublicKey) { salt_len: Option<usize> },
    /// A verifying key expecting a salt of `D`'s output length.
    #[must_use]
    new,
    /// A verifying key expecting a salt of `salt_len` bytes.
    #[must_use]
    new_with_salt_len,
);

impl<D> VerifyingKey<D>
where
    D: Digest,
{
    /// A verifying key accepting a salt of any length (found from the position of the 0x01
    /// separator in DB).
    #[must_use]
    pub fn new_with_auto_salt_len(key: PublicKey) -> Self {
        VerifyingKey {
            inner: key,
            salt_len: None,
            phantom: PhantomData,
        }
    }

    /// The salt length expected, or `None` for any.
    #[must_use]
    pub fn salt_len(&self) -> Option<usize> {
        self.salt_len
    }

    fn verify_hash(&self, hashed: &[u8], signature: &Signature) -> signature::Result<()> {
        Ok(verify_digest::<D>(
            &self.inner,
            hashed,
            &signature.inner,
            self.salt_len,
        )?)
    }
}

crate::key_traits::verifying_key_impls!(
    VerifyingKey { salt_len },
    digest: [Digest + FixedOutputReset + Update],
    [Digest + FixedOutputReset],
    /// SubjectPublicKeyInfo DER, as [`Serialize`](serdect::serde::Serialize) writes it; the
    /// salt length is `D`'s output length.
    deserialize: [Digest + AssociatedOid],
);

// A SubjectPublicKeyInfo of `rsaEncryption` or `id-RSASSA-PSS`; the salt length is `D`'s
// output length (the PSS parameters, if any, are not read).
crate::typed_key::typed_key_impls!(
    public VerifyingKey(PublicKey) { salt_len },
    from: new [Digest],
    #[cfg(feature = "encoding")],
    try_from: pkcs8::SubjectPublicKeyInfoRef<'_> => spki::Error,
    check: crate::encoding::assert_rsa_or_pss,
);
