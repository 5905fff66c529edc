//! [`SigningKey`]: a private key typed by its hash for RSASSA-PKCS1-v1_5.

use const_oid::AssociatedOid;
use digest::{Digest, FixedOutput, HashMarker, Update};
use rand_core::TryCryptoRng;
use signature::DigestSigner;

use super::{Signature, VerifyingKey};
use crate::PrivateKey;
use crate::bridge::NoRng;

crate::pkcs1v15_impls::pkcs1v15_key!(
    /// A private key that signs with RSASSA-PKCS1-v1_5 ([RFC 8017 §8.2]) over the hash `D`, T
    /// being `D`'s DigestInfo ([`new`](Self::new)) or the digest alone
    /// ([`new_unprefixed`](Self::new_unprefixed)).
    ///
    /// The signature is deterministic. The RNG given to the randomized signers blinds the private
    /// operation; the others blind with the operating system's RNG (feature `getrandom`) or a
    /// stream keyed by the private key and the encoded message.
    ///
    /// [RFC 8017 §8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
    private SigningKey(PrivateKey),
    /// A signing key whose T is `D`'s DigestInfo.
    #[must_use]
    new,
    /// A signing key whose T is the digest alone, without a DigestInfo (uncommon: most
    /// protocols want [`new`](Self::new)).
    #[must_use]
    new_unprefixed,
    rng: TryCryptoRng,
    /// A new key of `bit_size` bits (e = 65537) whose T is `D`'s DigestInfo.
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::new`].
    random,
    /// A new key of `bit_size` bits (e = 65537) whose T is the digest alone.
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::new`].
    random_unprefixed,
);

impl<D> DigestSigner<D, Signature> for SigningKey<D>
where
    D: Default + FixedOutput + HashMarker + Update,
{
    fn try_sign_digest<F: Fn(&mut D) -> signature::Result<()>>(
        &self,
        f: F,
    ) -> signature::Result<Signature> {
        let mut digest = D::default();
        f(&mut digest)?;
        self.sign_hash(None::<&mut NoRng>, &digest.finalize_fixed())
    }
}

crate::key_traits::signing_key_impls!(
    SigningKey { prefix },
    /// A new key of [`PrivateKey::DEFAULT_BITS`] bits (e = 65537) whose T is `D`'s DigestInfo.
    generate: [Digest + AssociatedOid],
    randomized: [Digest],
    randomized_digest: [Default + FixedOutput + HashMarker + Update],
    #[cfg(all())]
    unrandomized: [Digest],
    /// PKCS #8 DER, as [`Serialize`](serdect::serde::Serialize) writes it; T is `D`'s DigestInfo.
    deserialize: [Digest + AssociatedOid],
);

// A PKCS #8 `rsaEncryption` key (any other algorithm is refused).
crate::typed_key::typed_key_impls!(
    private SigningKey(PrivateKey) => VerifyingKey { prefix },
    from: new [Digest + AssociatedOid],
    #[cfg(feature = "encoding")],
    try_from: pkcs8::PrivateKeyInfoRef<'_> => pkcs8::Error,
    check: crate::encoding::assert_rsa_encryption,
    signature_oid: super::oid::RsaSignatureAssociatedOid,
);
