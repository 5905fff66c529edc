//! Support for the [Probabilistic Signature Scheme] (PSS) a.k.a. RSASSA-PSS, on rsatool-rsa's
//! [`Pss`](rsatool_rsa::Pss) with the salt length exact, as 0.9 verifies it.
//!
//! Designed by Mihir Bellare and Phillip Rogaway. Specified in [RFC8017 § 8.1].
//!
//! # Usage
//!
//! See [code example in the toplevel rustdoc](../index.html#pss-signatures).
//!
//! [Probabilistic Signature Scheme]: https://en.wikipedia.org/wiki/Probabilistic_signature_scheme
//! [RFC8017 § 8.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.1

use alloc::{boxed::Box, vec::Vec};
use core::fmt::{self, Debug};
use core::marker::PhantomData;

use const_oid::{AssociatedOid, ObjectIdentifier};
use digest::{Digest, DynDigest, FixedOutputReset};
use pkcs1::RsaPssParams;
use pkcs8::spki::der::Any;
use pkcs8::spki::{AlgorithmIdentifierOwned, DynSignatureAlgorithmIdentifier};
use rand_core::CryptoRngCore;
use rsatool_rsa::{HashAlg, SaltLen};
use signature::hazmat::{PrehashVerifier, RandomizedPrehashSigner};
use signature::{DigestVerifier, RandomizedDigestSigner, RandomizedSigner, Verifier};

use crate::digests::{hash_of, hash_of_dyn};
use crate::errors::{Error, Result};
use crate::traits::SignatureScheme;
use crate::{RsaPrivateKey, RsaPublicKey};

crate::sig::signature_type!(
    /// RSASSA-PSS signatures as described in [RFC8017 § 8.1].
    ///
    /// [RFC8017 § 8.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.1
    strip_leading_zeros: true
);

/// Digital signatures using PSS padding.
pub struct Pss {
    /// Create blinded signatures (here every private operation is blinded: no effect).
    pub blinded: bool,

    /// Digest type to use.
    pub digest: Box<dyn DynDigest + Send + Sync>,

    /// Salt length.
    pub salt_len: usize,
}

impl Pss {
    /// New PSS padding for the given digest.
    /// Digest output size is used as a salt length.
    pub fn new<T: 'static + Digest + DynDigest + Send + Sync>() -> Self {
        Self::new_with_salt::<T>(<T as Digest>::output_size())
    }

    /// New PSS padding for the given digest with a salt value of the given length.
    pub fn new_with_salt<T: 'static + Digest + DynDigest + Send + Sync>(len: usize) -> Self {
        Self {
            blinded: false,
            digest: Box::new(<T as Digest>::new()),
            salt_len: len,
        }
    }

    /// New PSS padding for blinded signatures (RSA-BSSA) for the given digest.
    /// Digest output size is used as a salt length.
    pub fn new_blinded<T: 'static + Digest + DynDigest + Send + Sync>() -> Self {
        Self::new_blinded_with_salt::<T>(<T as Digest>::output_size())
    }

    /// New PSS padding for blinded signatures (RSA-BSSA) for the given digest
    /// with a salt value of the given length.
    pub fn new_blinded_with_salt<T: 'static + Digest + DynDigest + Send + Sync>(
        len: usize,
    ) -> Self {
        Self {
            blinded: true,
            ..Self::new_with_salt::<T>(len)
        }
    }
}

/// rsatool-rsa's PSS with `hash` (message and MGF1) and exactly `salt_len` bytes of salt.
fn scheme(hash: HashAlg, salt_len: usize) -> rsatool_rsa::Pss {
    rsatool_rsa::Pss::new(hash).with_salt_len(SaltLen::Exact(salt_len))
}

impl SignatureScheme for Pss {
    fn sign<Rng: CryptoRngCore>(
        self,
        rng: Option<&mut Rng>,
        priv_key: &RsaPrivateKey,
        hashed: &[u8],
    ) -> Result<Vec<u8>> {
        let rng = rng.ok_or(Error::InvalidPaddingScheme)?;
        let scheme = scheme(hash_of_dyn(&*self.digest)?, self.salt_len);
        priv_key.sign_with(Some(rng), &scheme, hashed)
    }

    fn verify(self, pub_key: &RsaPublicKey, hashed: &[u8], sig: &[u8]) -> Result<()> {
        let scheme = scheme(hash_of_dyn(&*self.digest)?, self.salt_len);
        pub_key.verify_with(&scheme, hashed, sig)
    }
}

impl Debug for Pss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PSS")
            .field("blinded", &self.blinded)
            .field("digest", &"...")
            .field("salt_len", &self.salt_len)
            .finish()
    }
}

/// The AlgorithmIdentifier of RSASSA-PSS with `D` (as hash and MGF1 hash) and a salt of `D`'s
/// output size (RFC 4055 §3.1).
///
/// # Errors
///
/// If the parameters do not encode.
pub fn get_default_pss_signature_algo_id<D>() -> pkcs8::spki::Result<AlgorithmIdentifierOwned>
where
    D: Digest + AssociatedOid,
{
    // Digest output sizes are at most 64 bytes.
    #[allow(clippy::cast_possible_truncation)]
    get_pss_signature_algo_id::<D>(<D as Digest>::output_size() as u8)
}

/// The AlgorithmIdentifier of RSASSA-PSS with `D` and `salt_len`.
fn get_pss_signature_algo_id<D>(salt_len: u8) -> pkcs8::spki::Result<AlgorithmIdentifierOwned>
where
    D: Digest + AssociatedOid,
{
    const ID_RSASSA_PSS: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.10");
    Ok(AlgorithmIdentifierOwned {
        oid: ID_RSASSA_PSS,
        parameters: Some(Any::encode_from(&RsaPssParams::new::<D>(salt_len))?),
    })
}

/// Signs a digest with `D` and `salt_len`, blinded with `rng`.
fn sign_digest<D: Digest, R: CryptoRngCore + ?Sized>(
    key: &RsaPrivateKey,
    rng: &mut R,
    hashed: &[u8],
    salt_len: usize,
) -> signature::Result<Signature> {
    let sig = key.sign_with(Some(rng), &scheme(hash_of::<D>()?, salt_len), hashed)?;
    Signature::try_from(sig.as_slice())
}

/// A PSS signing key: `SigningKey` and `BlindedSigningKey` are the same here (rsatool-rsa
/// blinds every private operation), with 0.9's names and impls.
macro_rules! signing_key {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        pub struct $name<D>
        where
            D: Digest,
        {
            inner: RsaPrivateKey,
            salt_len: usize,
            phantom: PhantomData<D>,
        }

        impl<D> $name<D>
        where
            D: Digest,
        {
            /// Create a new RSASSA-PSS signing key.
            /// Digest output size is used as a salt length.
            pub fn new(key: RsaPrivateKey) -> Self {
                Self::new_with_salt_len(key, <D as Digest>::output_size())
            }

            /// Create a new RSASSA-PSS signing key with a salt of the given length.
            pub fn new_with_salt_len(key: RsaPrivateKey, salt_len: usize) -> Self {
                Self {
                    inner: key,
                    salt_len,
                    phantom: PhantomData,
                }
            }

            /// Generate a new random RSASSA-PSS signing key.
            /// Digest output size is used as a salt length.
            ///
            /// # Errors
            ///
            /// As [`RsaPrivateKey::new`].
            pub fn random<R: CryptoRngCore + ?Sized>(rng: &mut R, bit_size: usize) -> Result<Self> {
                Self::random_with_salt_len(rng, bit_size, <D as Digest>::output_size())
            }

            /// Generate a new random RSASSA-PSS signing key with a salt of the given length.
            ///
            /// # Errors
            ///
            /// As [`RsaPrivateKey::new`].
            pub fn random_with_salt_len<R: CryptoRngCore + ?Sized>(
                rng: &mut R,
                bit_size: usize,
                salt_len: usize,
            ) -> Result<Self> {
                Ok(Self::new_with_salt_len(RsaPrivateKey::new(rng, bit_size)?, salt_len))
            }

            /// Return specified salt length for this key
            pub fn salt_len(&self) -> usize {
                self.salt_len
            }
        }

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

/// Verifying key for checking the validity of RSASSA-PSS signatures as
/// described in [RFC8017 § 8.1].
///
/// [RFC8017 § 8.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.1
#[derive(Debug)]
pub struct VerifyingKey<D>
where
    D: Digest,
{
    inner: RsaPublicKey,
    salt_len: usize,
    phantom: PhantomData<D>,
}

impl<D> VerifyingKey<D>
where
    D: Digest,
{
    /// Create a new RSASSA-PSS verifying key.
    /// Digest output size is used as a salt length.
    pub fn new(key: RsaPublicKey) -> Self {
        Self::new_with_salt_len(key, <D as Digest>::output_size())
    }

    /// Create a new RSASSA-PSS verifying key.
    pub fn new_with_salt_len(key: RsaPublicKey, salt_len: usize) -> Self {
        Self {
            inner: key,
            salt_len,
            phantom: PhantomData,
        }
    }

    /// Verifies a signature over a digest.
    fn verify_digest_bytes(&self, hashed: &[u8], signature: &Signature) -> signature::Result<()> {
        let scheme = scheme(hash_of::<D>()?, self.salt_len);
        Ok(self.inner.verify_with(&scheme, hashed, &signature.bytes)?)
    }
}

impl<D> DigestVerifier<D, Signature> for VerifyingKey<D>
where
    D: Digest + FixedOutputReset,
{
    fn verify_digest(&self, digest: D, signature: &Signature) -> signature::Result<()> {
        self.verify_digest_bytes(&digest.finalize(), signature)
    }
}

impl<D> PrehashVerifier<Signature> for VerifyingKey<D>
where
    D: Digest + FixedOutputReset,
{
    fn verify_prehash(&self, prehash: &[u8], signature: &Signature) -> signature::Result<()> {
        self.verify_digest_bytes(prehash, signature)
    }
}

impl<D> Verifier<Signature> for VerifyingKey<D>
where
    D: Digest + FixedOutputReset,
{
    fn verify(&self, msg: &[u8], signature: &Signature) -> signature::Result<()> {
        self.verify_digest_bytes(&D::digest(msg), signature)
    }
}

crate::typed_key::typed_key_impls!(
    public VerifyingKey(RsaPublicKey) { salt_len },
    from: new [Digest],
    #[cfg(all())]
);
