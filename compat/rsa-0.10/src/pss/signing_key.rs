//! [`SigningKey`]: a private key typed by its hash for RSASSA-PSS.

use digest::{Digest, FixedOutputReset, Update};
use rand_core::TryCryptoRng;
use signature::hazmat::RandomizedPrehashSigner;

use super::{Signature, VerifyingKey, sign_digest};
use crate::PrivateKey;

#[cfg(feature = "getrandom")]
use crypto_common::getrandom::SysRng;

#[cfg(feature = "encoding")]
use {
    super::get_pss_signature_algo_id,
    const_oid::AssociatedOid,
    spki::{AlgorithmIdentifierOwned, DynSignatureAlgorithmIdentifier},
};

crate::pss_impls::pss_key!(
    /// A private key that signs with RSASSA-PSS ([RFC 8017 §8.1]) over the hash `D` (and MGF1
    /// over `D`), with a salt of a fixed length (`D`'s output length unless said otherwise).
    ///
    /// The RNG given to the randomized signers supplies the salt, then the blinding of the
    /// private operation; [`Signer`](signature::Signer) and the other RNG-less signers (feature
    /// `getrandom`) take both from the operating system.
    ///
    /// [RFC 8017 §8.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.1
    private SigningKey(PrivateKey) { salt_len: usize },
    /// A signing key with a salt of `D`'s output length.
    #[must_use]
    new,
    /// A signing key with a salt of `salt_len` bytes.
    #[must_use]
    new_with_salt_len,
    rng: TryCryptoRng,
    /// A new key of `bit_size` bits (e = 65537) with a salt of `D`'s output length.
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::new`].
    random,
    /// A new key of `bit_size` bits (e = 65537) with a salt of `salt_len` bytes.
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::new`].
    random_with_salt_len,
    /// The salt length, in bytes.
    #[must_use]
    salt_len,
);

impl<D> SigningKey<D>
where
    D: Digest,
{
    /// Signs `hashed`, the salt and the blinding from `rng`, or without one from the operating
    /// system's RNG (only the signers of feature `getrandom` pass none).
    fn sign_hash<R: TryCryptoRng + ?Sized>(
        &self,
        rng: Option<&mut R>,
        hashed: &[u8],
    ) -> signature::Result<Signature> {
        let sig = match rng {
            Some(rng) => sign_digest::<R, D>(rng, true, &self.inner, hashed, self.salt_len),
            #[cfg(feature = "getrandom")]
            None => sign_digest::<_, D>(&mut SysRng, true, &self.inner, hashed, self.salt_len),
            #[cfg(not(feature = "getrandom"))]
            None => Err(crate::Error::Rng),
        }?;
        Ok(Signature { inner: sig.into() })
    }
}

crate::key_traits::signing_key_impls!(
    SigningKey { salt_len },
    /// A new key of [`PrivateKey::DEFAULT_BITS`] bits (e = 65537) with a salt of `D`'s output
    /// length.
    generate: [Digest],
    randomized: [Digest + FixedOutputReset + Update],
    randomized_digest: [Digest + FixedOutputReset + Update],
    #[cfg(feature = "getrandom")]
    unrandomized: [Digest + FixedOutputReset],
    /// PKCS #8 DER, as [`Serialize`](serdect::serde::Serialize) writes it; the salt length is
    /// `D`'s output length.
    deserialize: [Digest + AssociatedOid],
);

impl<D> RandomizedPrehashSigner<Signature> for SigningKey<D>
where
    D: Digest + FixedOutputReset + Update,
{
    fn sign_prehash_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        prehash: &[u8],
    ) -> signature::Result<Signature> {
        self.sign_hash(Some(rng), prehash)
    }
}

/// RSASSA-PSS with `D`, MGF1 over `D` and this key's salt length.
#[cfg(feature = "encoding")]
impl<D> DynSignatureAlgorithmIdentifier for SigningKey<D>
where
    D: Digest + AssociatedOid,
{
    fn signature_algorithm_identifier(&self) -> spki::Result<AlgorithmIdentifierOwned> {
        get_pss_signature_algo_id::<D>(self.salt_len)
    }
}

crate::typed_key::typed_key_impls!(
    private SigningKey(PrivateKey) => VerifyingKey { salt_len },
    from: new [Digest],
    #[cfg(feature = "encoding")],
    try_from: pkcs8::PrivateKeyInfoRef<'_> => pkcs8::Error,
);
