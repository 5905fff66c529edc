//! [`SigningKey`] and [`BlindedSigningKey`]: private keys typed by their hash for RSASSA-PSS,
//! the same here (rsatool-rsa blinds every private operation), with 0.9's names and impls.

use const_oid::AssociatedOid;
use digest::{Digest, FixedOutputReset};
use pkcs8::spki::{AlgorithmIdentifierOwned, DynSignatureAlgorithmIdentifier};
use rand_core::CryptoRngCore;
use signature::hazmat::RandomizedPrehashSigner;
use signature::{RandomizedDigestSigner, RandomizedSigner};

use super::{Signature, VerifyingKey, get_pss_signature_algo_id, sign_digest};
use crate::RsaPrivateKey;

/// A PSS signing key: `SigningKey` and `BlindedSigningKey` are the same here (rsatool-rsa
/// blinds every private operation), with 0.9's names and impls.
macro_rules! signing_key {
    ($(#[$doc:meta])* $name:ident) => {
        crate::pss_impls::pss_key!(
            $(#[$doc])*
            private $name(RsaPrivateKey) { salt_len: usize },
            /// Create a new RSASSA-PSS signing key.
            /// Digest output size is used as a salt length.
            new,
            /// Create a new RSASSA-PSS signing key with a salt of the given length.
            new_with_salt_len,
            rng: CryptoRngCore,
            /// Generate a new random RSASSA-PSS signing key.
            /// Digest output size is used as a salt length.
            ///
            /// # Errors
            ///
            /// As [`RsaPrivateKey::new`].
            random,
            /// Generate a new random RSASSA-PSS signing key with a salt of the given length.
            ///
            /// # Errors
            ///
            /// As [`RsaPrivateKey::new`].
            random_with_salt_len,
            /// Return specified salt length for this key
            salt_len,
        );

        impl<D> RandomizedDigestSigner<D, Signature> for $name<D>
        where
            D: Digest + FixedOutputReset,
        {
            fn try_sign_digest_with_rng(
                &self,
                rng: &mut impl CryptoRngCore,
                digest: D,
            ) -> signature::Result<Signature> {
                sign_digest::<D, _>(&self.inner, rng, &digest.finalize(), self.salt_len)
            }
        }

        impl<D> RandomizedSigner<Signature> for $name<D>
        where
            D: Digest + FixedOutputReset,
        {
            fn try_sign_with_rng(
                &self,
                rng: &mut impl CryptoRngCore,
                msg: &[u8],
            ) -> signature::Result<Signature> {
                sign_digest::<D, _>(&self.inner, rng, &D::digest(msg), self.salt_len)
            }
        }

        impl<D> RandomizedPrehashSigner<Signature> for $name<D>
        where
            D: Digest + FixedOutputReset,
        {
            fn sign_prehash_with_rng(
                &self,
                rng: &mut impl CryptoRngCore,
                prehash: &[u8],
            ) -> signature::Result<Signature> {
                sign_digest::<D, _>(&self.inner, rng, prehash, self.salt_len)
            }
        }

        impl<D> DynSignatureAlgorithmIdentifier for $name<D>
        where
            D: Digest + AssociatedOid,
        {
            fn signature_algorithm_identifier(
                &self,
            ) -> pkcs8::spki::Result<AlgorithmIdentifierOwned> {
                // 0.9 writes the salt length as one byte (truncated).
                #[allow(clippy::cast_possible_truncation)]
                get_pss_signature_algo_id::<D>(self.salt_len as u8)
            }
        }

        crate::typed_key::typed_key_impls!(
            private $name(RsaPrivateKey) => VerifyingKey { salt_len },
            from: new [Digest],
            #[cfg(all())]
        );
    };
}

signing_key!(
    /// Signing key for producing RSASSA-PSS signatures as described in
    /// [RFC8017 § 8.1].
    ///
    /// [RFC8017 § 8.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.1
    SigningKey
);

signing_key!(
    /// Signing key for producing "blinded" RSASSA-PSS signatures as described in
    /// [draft-irtf-cfrg-rsa-blind-signatures](https://datatracker.ietf.org/doc/draft-irtf-cfrg-rsa-blind-signatures/):
    /// the same as [`SigningKey`] here, where every private operation is blinded.
    BlindedSigningKey
);

#[cfg(feature = "getrandom")]
impl<D> signature::hazmat::PrehashSigner<Signature> for SigningKey<D>
where
    D: Digest + FixedOutputReset,
{
    fn sign_prehash(&self, prehash: &[u8]) -> signature::Result<Signature> {
        self.sign_prehash_with_rng(&mut rand_core::OsRng, prehash)
    }
}

#[cfg(feature = "getrandom")]
impl<D> signature::Signer<Signature> for SigningKey<D>
where
    D: Digest + FixedOutputReset,
{
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        self.try_sign_with_rng(&mut rand_core::OsRng, msg)
    }
}
