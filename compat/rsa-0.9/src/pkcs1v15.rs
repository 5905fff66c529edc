//! PKCS#1 v1.5 support as described in [RFC8017 § 8.2].
//!
//! Encryption is rsatool-rsa's [`Pkcs1v15Encrypt`](rsatool_rsa::Pkcs1v15Encrypt) with explicit
//! rejection (an error for a bad padding, as 0.9 returned). Signatures take 0.9's DigestInfo
//! prefix as they are given (any hash, or none): the encoding (RFC 8017 §9.2) is built here
//! and signed by rsatool-rsa's private operation (blinded, with the fault check).
//!
//! # Usage
//!
//! See [code example in the toplevel rustdoc](../index.html#pkcs1-v15-signatures).
//!
//! [RFC8017 § 8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2

use alloc::{boxed::Box, vec::Vec};
use core::fmt::Debug;
use core::marker::PhantomData;

use digest::Digest;
use pkcs8::AssociatedOid;
use rand_core::CryptoRngCore;
use signature::hazmat::{PrehashSigner, PrehashVerifier};
use signature::{
    DigestSigner, DigestVerifier, RandomizedDigestSigner, RandomizedSigner, Signer, Verifier,
};
use subtle::ConstantTimeEq;

use crate::errors::{Error, Result, from_rsatool};
use crate::key::{RsaPrivateKey, RsaPublicKey};
use crate::rng::NoRng;
use crate::traits::PublicKeyParts;

crate::sig::signature_type!(
    /// `RSASSA-PKCS1-v1_5` signatures as described in [RFC8017 § 8.2].
    ///
    /// [RFC8017 § 8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
    strip_leading_zeros: false
);

/// Encryption using PKCS#1 v1.5 padding.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub struct Pkcs1v15Encrypt;

/// rsatool-rsa's PKCS#1 v1.5 encryption, with 0.9's explicit rejection.
fn encryption() -> rsatool_rsa::Pkcs1v15Encrypt {
    rsatool_rsa::Pkcs1v15Encrypt::explicit_rejection()
}

/// RSAES-PKCS1-v1_5 encryption by rsatool-rsa.
fn encrypt<R: CryptoRngCore + ?Sized>(
    rng: &mut R,
    pub_key: &RsaPublicKey,
    msg: &[u8],
) -> Result<Vec<u8>> {
    pub_key.encrypt_with(rng, &encryption(), msg)
}

/// RSAES-PKCS1-v1_5 decryption by rsatool-rsa, blinded with `rng` (or without one as
/// [`RsaPrivateKey::decrypt`] says).
fn decrypt<R: CryptoRngCore + ?Sized>(
    rng: Option<&mut R>,
    priv_key: &RsaPrivateKey,
    ciphertext: &[u8],
) -> Result<Vec<u8>> {
    priv_key.decrypt_with(rng, &encryption(), ciphertext)
}

/// `RSASSA-PKCS1-v1_5`: digital signatures using PKCS#1 v1.5 padding.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Pkcs1v15Sign {
    /// Length of hash to use.
    pub hash_len: Option<usize>,

    /// Prefix.
    pub prefix: Box<[u8]>,
}

impl Pkcs1v15Sign {
    /// Create new PKCS#1 v1.5 padding for the given digest.
    ///
    /// The digest must have an [`AssociatedOid`]. Make sure to enable the `oid`
    /// feature of the relevant digest crate.
    pub fn new<D>() -> Self
    where
        D: Digest + AssociatedOid,
    {
        Self {
            hash_len: Some(<D as Digest>::output_size()),
            prefix: digest_info_prefix::<D>().into_boxed_slice(),
        }
    }

    /// Create new PKCS#1 v1.5 padding for computing an unprefixed signature.
    ///
    /// This sets `hash_len` to `None` and uses an empty `prefix`.
    pub fn new_unprefixed() -> Self {
        Self {
            hash_len: None,
            prefix: Box::new([]),
        }
    }

    /// Create new PKCS#1 v1.5 padding for computing an unprefixed signature.
    ///
    /// This sets `hash_len` to `None` and uses an empty `prefix`.
    #[deprecated(since = "0.9.0", note = "use Pkcs1v15Sign::new_unprefixed instead")]
    pub fn new_raw() -> Self {
        Self::new_unprefixed()
    }
}

crate::pkcs1v15_impls::scheme_impls!(
    Pkcs1v15Encrypt,
    Pkcs1v15Sign,
    keys: RsaPrivateKey, RsaPublicKey,
    rng: [CryptoRngCore],
);

/// The DER of DigestInfo up to the digest, for `D`'s OID and output size (RFC 8017 §9.2
/// note 1): SEQUENCE { SEQUENCE { OID, NULL }, OCTET STRING (hLen bytes) } without the digest.
fn digest_info_prefix<D: Digest + AssociatedOid>() -> Vec<u8> {
    rsatool_rsa::pkcs1v15::digest_info_prefix_of(D::OID.as_bytes(), <D as Digest>::output_size())
}

/// RSASSA-PKCS1-V1_5-SIGN (RFC 8017 §8.2.1) of a digest: rsatool-rsa's private operation on
/// the encoding.
///
/// # Errors
///
/// [`Error::MessageTooLong`] if the key is too small for the encoding, and the private
/// operation's.
fn sign<R: CryptoRngCore + ?Sized>(
    rng: Option<&mut R>,
    key: &RsaPrivateKey,
    prefix: &[u8],
    hashed: &[u8],
) -> Result<Vec<u8>> {
    let em =
        rsatool_rsa::pkcs1v15::emsa_pkcs1v15(prefix, hashed, key.size()).map_err(from_rsatool)?;
    key.private_op(rng, &em)
}

/// RSASSA-PKCS1-V1_5-VERIFY (RFC 8017 §8.2.2) of a digest: rsatool-rsa's public operation
/// (which refuses s ≥ n), and the whole encoding compared in constant time.
///
/// # Errors
///
/// [`Error::Verification`] for every invalid signature.
fn verify(key: &RsaPublicKey, prefix: &[u8], hashed: &[u8], sig: &[u8]) -> Result<()> {
    use rsatool_rsa::hazmat::PublicOp;
    let k = key.size();
    if sig.len() != k {
        return Err(Error::Verification);
    }
    let inner = key.inner().map_err(|_| Error::Verification)?;
    let em = inner.public_op(sig).map_err(|_| Error::Verification)?;
    let want =
        rsatool_rsa::pkcs1v15::emsa_pkcs1v15(prefix, hashed, k).map_err(|_| Error::Verification)?;
    if bool::from(em.ct_eq(&*want)) {
        Ok(())
    } else {
        Err(Error::Verification)
    }
}

/// The OIDs of the PKCS#1 v1.5 signature algorithms (RFC 8017 Appendix A.2.4) of the
/// digests 0.9 names.
mod oid {
    use const_oid::ObjectIdentifier;

    /// A digest algorithm with an associated `RSASSA-PKCS1-v1_5` signature algorithm OID.
    pub trait RsaSignatureAssociatedOid {
        /// OID of the `RSASSA-PKCS1-v1_5` signature algorithm with this digest.
        const OID: ObjectIdentifier;
    }

    /// Implements the trait for a digest type with the OID's dotted form.
    macro_rules! associated_oid {
        ($feature:literal, $ty:ty, $oid:literal) => {
            #[cfg(feature = $feature)]
            impl RsaSignatureAssociatedOid for $ty {
                const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap($oid);
            }
        };
    }

    associated_oid!("sha1", sha1::Sha1, "1.2.840.113549.1.1.5");
    associated_oid!("sha2", sha2::Sha224, "1.2.840.113549.1.1.14");
    associated_oid!("sha2", sha2::Sha256, "1.2.840.113549.1.1.11");
    associated_oid!("sha2", sha2::Sha384, "1.2.840.113549.1.1.12");
    associated_oid!("sha2", sha2::Sha512, "1.2.840.113549.1.1.13");
}

pub use oid::RsaSignatureAssociatedOid;

/// Encryption key for PKCS#1 v1.5 encryption as described in [RFC8017 § 7.2].
///
/// [RFC8017 § 7.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.2
#[derive(Debug, Clone)]
pub struct EncryptingKey {
    inner: RsaPublicKey,
}

impl EncryptingKey {
    /// Create a new encrypting key from an RSA public key.
    pub fn new(key: RsaPublicKey) -> Self {
        Self { inner: key }
    }
}

/// Decryption key for PKCS#1 v1.5 decryption as described in [RFC8017 § 7.2].
///
/// [RFC8017 § 7.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.2
#[derive(Debug, Clone)]
pub struct DecryptingKey {
    inner: RsaPrivateKey,
}

impl DecryptingKey {
    /// Create a new decrypting key from an RSA private key.
    pub fn new(key: RsaPrivateKey) -> Self {
        Self { inner: key }
    }
}

crate::pkcs1v15_impls::encryption_key_impls!(
    EncryptingKey,
    DecryptingKey,
    rng: rand_core::CryptoRngCore,
    no_rng: NoRng,
    encrypt: encrypt,
    decrypt: decrypt,
);

/// Signing key for `RSASSA-PKCS1-v1_5` signatures as described in [RFC8017 § 8.2].
///
/// [RFC8017 § 8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
#[derive(Debug, Clone)]
pub struct SigningKey<D>
where
    D: Digest,
{
    inner: RsaPrivateKey,
    prefix: Vec<u8>,
    phantom: PhantomData<D>,
}

impl<D> SigningKey<D>
where
    D: Digest + AssociatedOid,
{
    /// Create a new signing key with a prefix for the digest `D`.
    pub fn new(key: RsaPrivateKey) -> Self {
        Self {
            inner: key,
            prefix: digest_info_prefix::<D>(),
            phantom: PhantomData,
        }
    }

    /// Generate a new signing key with a prefix for the digest `D`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::new`].
    pub fn random<R: CryptoRngCore + ?Sized>(rng: &mut R, bit_size: usize) -> Result<Self> {
        Ok(Self::new(RsaPrivateKey::new(rng, bit_size)?))
    }

    /// Create a new signing key with a prefix for the digest `D`.
    #[deprecated(since = "0.9.0", note = "use SigningKey::new instead")]
    pub fn new_with_prefix(key: RsaPrivateKey) -> Self {
        Self::new(key)
    }

    /// Generate a new signing key with a prefix for the digest `D`.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::new`].
    #[deprecated(since = "0.9.0", note = "use SigningKey::random instead")]
    pub fn random_with_prefix<R: CryptoRngCore + ?Sized>(
        rng: &mut R,
        bit_size: usize,
    ) -> Result<Self> {
        Self::random(rng, bit_size)
    }
}

impl<D> SigningKey<D>
where
    D: Digest,
{
    /// Create a new signing key from the give RSA private key with an empty prefix.
    ///
    /// ## Note: unprefixed signatures are uncommon
    ///
    /// In most cases you'll want to use [`SigningKey::new`].
    pub fn new_unprefixed(key: RsaPrivateKey) -> Self {
        Self {
            inner: key,
            prefix: Vec::new(),
            phantom: PhantomData,
        }
    }

    /// Generate a new signing key with an empty prefix.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::new`].
    pub fn random_unprefixed<R: CryptoRngCore + ?Sized>(
        rng: &mut R,
        bit_size: usize,
    ) -> Result<Self> {
        Ok(Self::new_unprefixed(RsaPrivateKey::new(rng, bit_size)?))
    }

    /// Signs a digest, blinded with `rng` (the operating system's RNG if `None`).
    fn sign_digest_rng<R: CryptoRngCore + ?Sized>(
        &self,
        rng: Option<&mut R>,
        hashed: &[u8],
    ) -> signature::Result<Signature> {
        let sig = sign(rng, &self.inner, &self.prefix, hashed)?;
        Signature::try_from(sig.as_slice())
    }
}

impl<D> DigestSigner<D, Signature> for SigningKey<D>
where
    D: Digest,
{
    fn try_sign_digest(&self, digest: D) -> signature::Result<Signature> {
        self.sign_digest_rng(None::<&mut NoRng>, &digest.finalize())
    }
}

impl<D> PrehashSigner<Signature> for SigningKey<D>
where
    D: Digest,
{
    fn sign_prehash(&self, prehash: &[u8]) -> signature::Result<Signature> {
        self.sign_digest_rng(None::<&mut NoRng>, prehash)
    }
}

impl<D> RandomizedDigestSigner<D, Signature> for SigningKey<D>
where
    D: Digest,
{
    fn try_sign_digest_with_rng(
        &self,
        rng: &mut impl CryptoRngCore,
        digest: D,
    ) -> signature::Result<Signature> {
        self.sign_digest_rng(Some(rng), &digest.finalize())
    }
}

impl<D> RandomizedSigner<Signature> for SigningKey<D>
where
    D: Digest,
{
    fn try_sign_with_rng(
        &self,
        rng: &mut impl CryptoRngCore,
        msg: &[u8],
    ) -> signature::Result<Signature> {
        self.sign_digest_rng(Some(rng), &D::digest(msg))
    }
}

impl<D> Signer<Signature> for SigningKey<D>
where
    D: Digest,
{
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        self.sign_digest_rng(None::<&mut NoRng>, &D::digest(msg))
    }
}

crate::typed_key::typed_key_impls!(
    private SigningKey(RsaPrivateKey) => VerifyingKey { prefix },
    from: new_unprefixed [Digest],
    #[cfg(all())],
    try_from: pkcs8::PrivateKeyInfo<'_> => pkcs8::Error,
    signature_oid: oid::RsaSignatureAssociatedOid,
);

/// Verifying key for `RSASSA-PKCS1-v1_5` signatures as described in [RFC8017 § 8.2].
///
/// [RFC8017 § 8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
#[derive(Debug)]
pub struct VerifyingKey<D>
where
    D: Digest,
{
    inner: RsaPublicKey,
    prefix: Vec<u8>,
    phantom: PhantomData<D>,
}

impl<D> VerifyingKey<D>
where
    D: Digest + AssociatedOid,
{
    /// Create a new verifying key with a prefix for the digest `D`.
    pub fn new(key: RsaPublicKey) -> Self {
        Self {
            inner: key,
            prefix: digest_info_prefix::<D>(),
            phantom: PhantomData,
        }
    }

    /// Create a new verifying key with a prefix for the digest `D`.
    #[deprecated(since = "0.9.0", note = "use VerifyingKey::new instead")]
    pub fn new_with_prefix(key: RsaPublicKey) -> Self {
        Self::new(key)
    }
}

impl<D> VerifyingKey<D>
where
    D: Digest,
{
    /// Create a new verifying key from an RSA public key with an empty prefix.
    ///
    /// ## Note: unprefixed signatures are uncommon
    ///
    /// In most cases you'll want to use [`VerifyingKey::new`] instead.
    pub fn new_unprefixed(key: RsaPublicKey) -> Self {
        Self {
            inner: key,
            prefix: Vec::new(),
            phantom: PhantomData,
        }
    }

    /// Verifies a signature over a digest.
    fn verify_digest_bytes(&self, hashed: &[u8], signature: &Signature) -> signature::Result<()> {
        verify(&self.inner, &self.prefix, hashed, &signature.bytes).map_err(Into::into)
    }
}

impl<D> DigestVerifier<D, Signature> for VerifyingKey<D>
where
    D: Digest,
{
    fn verify_digest(&self, digest: D, signature: &Signature) -> signature::Result<()> {
        self.verify_digest_bytes(&digest.finalize(), signature)
    }
}

impl<D> PrehashVerifier<Signature> for VerifyingKey<D>
where
    D: Digest,
{
    fn verify_prehash(&self, prehash: &[u8], signature: &Signature) -> signature::Result<()> {
        self.verify_digest_bytes(prehash, signature)
    }
}

impl<D> Verifier<Signature> for VerifyingKey<D>
where
    D: Digest,
{
    fn verify(&self, msg: &[u8], signature: &Signature) -> signature::Result<()> {
        self.verify_digest_bytes(&D::digest(msg), signature)
    }
}

crate::typed_key::typed_key_impls!(
    public VerifyingKey(RsaPublicKey) { prefix },
    from: new_unprefixed [Digest],
    #[cfg(all())],
    try_from: pkcs8::SubjectPublicKeyInfoRef<'_> => pkcs8::spki::Error,
    signature_oid: oid::RsaSignatureAssociatedOid,
);
