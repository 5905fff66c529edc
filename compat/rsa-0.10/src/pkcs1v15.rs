//! RSAES-PKCS1-v1_5 encryption ([RFC 8017 §7.2]) and RSASSA-PKCS1-v1_5 signatures
//! ([RFC 8017 §8.2]).
//!
//! <div class="warning">
//! PKCS #1 v1.5 encryption is the scheme of Bleichenbacher's attacks (1998) and of their
//! descendants (Marvin, 2023). Decryption here uses implicit rejection
//! ([draft-irtf-cfrg-rsa-guidance §7.2]): a ciphertext with bad padding decrypts to a
//! synthetic message derived from the key and the ciphertext, never to an error, so a
//! successful decryption proves nothing; the protocol must authenticate the message. Prefer
//! [OAEP](crate::oaep) and [PSS](crate::pss) for anything new.
//! </div>
//!
//! Encryption and decryption run rsatool-rsa's [`rsatool_rsa::Pkcs1v15Encrypt`] (implicit
//! rejection, constant-time padding check and selection). A signature is EMSA-PKCS1-v1_5
//! (RFC 8017 §9.2) built here from this crate's data, `prefix ‖ H` with any prefix (a
//! DigestInfo header, or none for unprefixed signatures), and rsatool-rsa's raw private
//! operation (CRT, blinding, fault check); verification recomputes the whole encoding and
//! compares it with s^e mod n, never parsing a DigestInfo.
//!
//! [RFC 8017 §7.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.2
//! [RFC 8017 §8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
//! [draft-irtf-cfrg-rsa-guidance §7.2]: https://www.ietf.org/archive/id/draft-irtf-cfrg-rsa-guidance-10.html#section-7.2

mod decrypting_key;
mod encrypting_key;
mod signature;
mod signing_key;
mod verifying_key;

pub use self::{
    decrypting_key::DecryptingKey, encrypting_key::EncryptingKey, signature::Signature,
    signing_key::SigningKey, verifying_key::VerifyingKey,
};

use alloc::vec::Vec;

use const_oid::AssociatedOid;
use digest::Digest;
use rand_core::TryCryptoRng;
use rsatool_rsa::EncryptionScheme as _;
use rsatool_rsa::hazmat::{PrivateOp as _, PublicOp as _};

use crate::bridge;
use crate::bridge::NoRng;
use crate::errors::{Error, Result};
use crate::{PrivateKey, PublicKey};

#[cfg(feature = "getrandom")]
use crypto_common::getrandom::SysRng;

impl PublicKey {
    /// Encrypts `plaintext` with PKCS #1 v1.5, the padding from the operating system's RNG.
    /// See the [module](crate::pkcs1v15)'s warning; prefer
    /// [`oaep_encrypt`](Self::oaep_encrypt).
    ///
    /// # Errors
    ///
    /// [`Error::MessageTooLong`] if `plaintext` is over k − 11 bytes; [`Error::Rng`] if the
    /// operating system's RNG fails; the key's error if it is invalid.
    #[cfg(feature = "getrandom")]
    pub fn pkcs1v15_encrypt(&self, plaintext: &[u8]) -> Result<Vec<u8>> {
        self.pkcs1v15_encrypt_with_rng(&mut SysRng, plaintext)
    }

    /// Encrypts `plaintext` with PKCS #1 v1.5, the padding from `rng`.
    ///
    /// # Errors
    ///
    /// As [`pkcs1v15_encrypt`](Self::pkcs1v15_encrypt), [`Error::Rng`] if `rng` fails.
    pub fn pkcs1v15_encrypt_with_rng<R>(&self, rng: &mut R, plaintext: &[u8]) -> Result<Vec<u8>>
    where
        R: TryCryptoRng + ?Sized,
    {
        encrypt(rng, self, plaintext)
    }

    /// Verifies a PKCS #1 v1.5 signature over `msg` hashed with `D` (DigestInfo of `D`).
    ///
    /// # Errors
    ///
    /// [`Error::Verification`] for every invalid signature.
    pub fn pkcs1v15_verify<D>(&self, msg: &[u8], sig: &[u8]) -> Result<()>
    where
        D: Digest + AssociatedOid,
    {
        self.pkcs1v15_verify_prehash::<D>(&D::digest(msg), sig)
    }

    /// Verifies a PKCS #1 v1.5 signature over `hash`, a digest computed with `D` (not hashed
    /// again).
    ///
    /// # Errors
    ///
    /// [`Error::InputNotHashed`] if `hash` is not `D`'s output length;
    /// [`Error::Verification`] for every invalid signature.
    pub fn pkcs1v15_verify_prehash<D>(&self, hash: &[u8], sig: &[u8]) -> Result<()>
    where
        D: Digest + AssociatedOid,
    {
        if hash.len() != <D as Digest>::output_size() {
            return Err(Error::InputNotHashed);
        }
        verify(self, &digest_info_prefix::<D>(), hash, sig)
    }
}

impl PrivateKey {
    /// Decrypts `ciphertext` with PKCS #1 v1.5 and implicit rejection: a bad padding gives a
    /// synthetic message (the same for the same key and ciphertext), not an error, so `Ok`
    /// does not mean the message is authentic. The private operation is blinded with the
    /// operating system's RNG (feature `getrandom`), else with a stream keyed by the private
    /// key and the ciphertext.
    ///
    /// # Errors
    ///
    /// [`Error::Decryption`] for a ciphertext that is not k bytes or not below n, or a key of
    /// fewer than 11 or more than 8191 bytes; [`Error::Internal`] if the private operation
    /// fails its check.
    pub fn pkcs1v15_decrypt(&self, ciphertext: &[u8]) -> Result<Vec<u8>> {
        decrypt(None::<&mut NoRng>, self, ciphertext)
    }

    /// As [`pkcs1v15_decrypt`](Self::pkcs1v15_decrypt), blinded with `rng`.
    ///
    /// # Errors
    ///
    /// As [`pkcs1v15_decrypt`](Self::pkcs1v15_decrypt); [`Error::Rng`] if `rng` fails.
    pub fn pkcs1v15_decrypt_with_rng<R>(&self, rng: &mut R, ciphertext: &[u8]) -> Result<Vec<u8>>
    where
        R: TryCryptoRng + ?Sized,
    {
        decrypt(Some(rng), self, ciphertext)
    }

    /// Signs `msg` hashed with `D` with PKCS #1 v1.5 (DigestInfo of `D`). The private
    /// operation is blinded as [`pkcs1v15_decrypt`](Self::pkcs1v15_decrypt)'s; the signature
    /// is deterministic.
    ///
    /// # Errors
    ///
    /// [`Error::MessageTooLong`] if the key is too small for the DigestInfo (k < tLen + 11);
    /// [`Error::Internal`] if the private operation fails its check.
    pub fn pkcs1v15_sign<D>(&self, msg: &[u8]) -> Result<Vec<u8>>
    where
        D: Digest + AssociatedOid,
    {
        self.pkcs1v15_sign_prehash::<D>(&D::digest(msg))
    }

    /// Signs `hash`, a digest computed with `D` (not hashed again), as
    /// [`pkcs1v15_sign`](Self::pkcs1v15_sign) does.
    ///
    /// # Errors
    ///
    /// [`Error::InputNotHashed`] if `hash` is not `D`'s output length; otherwise as
    /// [`pkcs1v15_sign`](Self::pkcs1v15_sign).
    pub fn pkcs1v15_sign_prehash<D>(&self, hash: &[u8]) -> Result<Vec<u8>>
    where
        D: Digest + AssociatedOid,
    {
        if hash.len() != <D as Digest>::output_size() {
            return Err(Error::InputNotHashed);
        }
        sign(None::<&mut NoRng>, self, &digest_info_prefix::<D>(), hash)
    }

    /// As [`pkcs1v15_sign`](Self::pkcs1v15_sign), blinded with `rng` (the signature is the
    /// same).
    ///
    /// # Errors
    ///
    /// As [`pkcs1v15_sign`](Self::pkcs1v15_sign); [`Error::Rng`] if `rng` fails.
    pub fn pkcs1v15_sign_with_rng<D, R>(&self, rng: &mut R, msg: &[u8]) -> Result<Vec<u8>>
    where
        D: Digest + AssociatedOid,
        R: TryCryptoRng + ?Sized,
    {
        self.pkcs1v15_sign_prehash_with_rng::<D, R>(rng, &D::digest(msg))
    }

    /// As [`pkcs1v15_sign_prehash`](Self::pkcs1v15_sign_prehash), blinded with `rng`.
    ///
    /// # Errors
    ///
    /// As [`pkcs1v15_sign_prehash`](Self::pkcs1v15_sign_prehash); [`Error::Rng`] if `rng`
    /// fails.
    pub fn pkcs1v15_sign_prehash_with_rng<D, R>(&self, rng: &mut R, hash: &[u8]) -> Result<Vec<u8>>
    where
        D: Digest + AssociatedOid,
        R: TryCryptoRng + ?Sized,
    {
        if hash.len() != <D as Digest>::output_size() {
            return Err(Error::InputNotHashed);
        }
        sign(Some(rng), self, &digest_info_prefix::<D>(), hash)
    }
}

/// PKCS #1 v1.5 encryption for [`PublicKey::encrypt`] and [`PrivateKey::decrypt`], decryption
/// with implicit rejection ([draft-irtf-cfrg-rsa-guidance §7.2]): a bad padding gives a
/// synthetic message, deterministic for the key and the ciphertext, instead of an error, so
/// `Ok` establishes neither the padding's validity nor the message's authenticity.
///
/// A ciphertext of the wrong length or not below n, a key of over 8191 bytes and a failed
/// private operation are still errors (all public facts).
///
/// [draft-irtf-cfrg-rsa-guidance §7.2]: https://www.ietf.org/archive/id/draft-irtf-cfrg-rsa-guidance-10.html#section-7.2
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub struct Pkcs1v15Encrypt;

crate::pkcs1v15_impls::sign_padding!(
    /// RSASSA-PKCS1-v1_5 as data, for [`PrivateKey::sign`] and [`PublicKey::verify`]: T =
    /// `prefix ‖ H`, with H of `hash_len` bytes when that is set.
    Pkcs1v15Sign,
    /// The length a digest must have (`None`: any).
    hash_len,
    /// The bytes before the digest in T: the DER header of a DigestInfo, or nothing.
    prefix,
    /// PKCS #1 v1.5 with `D`: digests of `D`'s length after the DigestInfo header of `D`'s
    /// OID (the digest crate's `oid` feature gives it).
    #[must_use]
    new,
    /// PKCS #1 v1.5 without a DigestInfo: T is the input itself, of any length (for
    /// protocols that sign raw data, such as TLS 1.1's MD5 ‖ SHA-1).
    #[must_use]
    new_unprefixed,
);

crate::pkcs1v15_impls::scheme_impls!(
    Pkcs1v15Encrypt,
    Pkcs1v15Sign,
    keys: PrivateKey, PublicKey,
    rng: [TryCryptoRng + ?Sized],
);

/// RSAES-PKCS1-V1_5-ENCRYPT (RFC 8017 §7.2.1): PS of non-zero bytes from `rng` (drawn as
/// upstream draws them: all at once, then each zero byte again), by rsatool-rsa.
fn encrypt<R: TryCryptoRng + ?Sized>(
    rng: &mut R,
    pub_key: &PublicKey,
    msg: &[u8],
) -> Result<Vec<u8>> {
    crate::public_key::check_public(pub_key)?;
    let engine = pub_key.engine()?;
    // Step 1: mLen ≤ k − 11, before anything is drawn from `rng`.
    if msg.len() > engine.size().saturating_sub(11) {
        return Err(Error::MessageTooLong);
    }
    let mut rng = bridge::fallible_rng(rng);
    let c = rsatool_rsa::Pkcs1v15Encrypt::new().encrypt(engine, &mut rng, msg);
    rng.finish(Ok(()))?;
    c.map_err(Error::from)
}

/// RSAES-PKCS1-V1_5-DECRYPT (RFC 8017 §7.2.2) with implicit rejection, by rsatool-rsa: the
/// private operation blinded with `rng`, or without one with [`bridge::blinding_rng`]'s own.
fn decrypt<R: TryCryptoRng + ?Sized>(
    rng: Option<&mut R>,
    priv_key: &PrivateKey,
    ciphertext: &[u8],
) -> Result<Vec<u8>> {
    crate::public_key::check_public(priv_key)?;
    let engine = priv_key.engine()?;
    let k = engine.size();
    // Step 1; and the draft's §7.1 writes the synthetic message's bit length in two bytes,
    // so a key over 8191 bytes is refused as upstream refuses it.
    if !(11..=8191).contains(&k) || ciphertext.len() != k {
        return Err(Error::Decryption);
    }
    let mut rng = bridge::blinding_rng(rng, priv_key, ciphertext);
    let m = rsatool_rsa::Pkcs1v15Encrypt::new().decrypt(engine, &mut rng, ciphertext);
    rng.finish(Ok(()))?;
    m.map_err(|e| match e {
        rsatool_rsa::Error::Fault => Error::Internal,
        // c ≥ n (public): upstream's `rsa_decrypt` says `Decryption`.
        _ => Error::Decryption,
    })
}

/// RSASSA-PKCS1-V1_5-SIGN (RFC 8017 §8.2.1) of T = `prefix ‖ hashed`: EMSA-PKCS1-v1_5, then
/// RSASP1 by rsatool-rsa blinded with `rng` (or [`bridge::blinding_rng`]'s own).
fn sign<R: TryCryptoRng + ?Sized>(
    rng: Option<&mut R>,
    priv_key: &PrivateKey,
    prefix: &[u8],
    hashed: &[u8],
) -> Result<Vec<u8>> {
    let engine = priv_key.engine()?;
    let em = rsatool_rsa::pkcs1v15::emsa_pkcs1v15(prefix, hashed, engine.size())?;
    let mut rng = bridge::blinding_rng(rng, priv_key, &em);
    let sig = engine.private_op(&mut rng, &em);
    rng.finish(Ok(()))?;
    sig.map_err(|e| match e {
        rsatool_rsa::Error::Fault => Error::Internal,
        e => Error::from(e),
    })
}

/// RSASSA-PKCS1-V1_5-VERIFY (RFC 8017 §8.2.2): s^e mod n must be the EMSA-PKCS1-v1_5 encoding
/// of `prefix ‖ hashed`, byte for byte. Every failure is [`Error::Verification`].
fn verify(pub_key: &PublicKey, prefix: &[u8], hashed: &[u8], sig: &[u8]) -> Result<()> {
    let engine = pub_key.engine()?;
    let k = engine.size();
    // Step 1: S is k bytes; step 2: RSAVP1 refuses s ≥ n.
    if sig.len() != k {
        return Err(Error::Verification);
    }
    let em = engine.public_op(sig).map_err(|_| Error::Verification)?;
    // Step 3: the encoding to expect (a key too small for it verifies nothing).
    let expected =
        rsatool_rsa::pkcs1v15::emsa_pkcs1v15(prefix, hashed, k).map_err(|_| Error::Verification)?;
    // Step 4. Variable time: the signature, the digest and the key are public.
    if em == *expected {
        Ok(())
    } else {
        Err(Error::Verification)
    }
}

/// The DER header of `D`'s DigestInfo (RFC 8017 §9.2 note 1), everything before the digest:
///
/// ```text
/// SEQUENCE { SEQUENCE { OID, NULL }, OCTET STRING (hLen bytes follow) }
/// ```
fn digest_info_prefix<D>() -> Vec<u8>
where
    D: Digest + AssociatedOid,
{
    rsatool_rsa::pkcs1v15::digest_info_prefix_of(D::OID.as_bytes(), <D as Digest>::output_size())
}

mod oid {
    use const_oid::ObjectIdentifier;

    /// The OID of RSASSA-PKCS1-v1_5 with a given hash (`sha256WithRSAEncryption`, ...: RFC 8017
    /// appendix A.2.4), for the signing keys' `SignatureAlgorithmIdentifier`.
    pub trait RsaSignatureAssociatedOid {
        /// The signature algorithm's OID.
        const OID: ObjectIdentifier;
    }

    /// `sha1WithRSAEncryption`.
    #[cfg(feature = "sha1")]
    impl RsaSignatureAssociatedOid for sha1::Sha1 {
        const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.5");
    }

    /// `sha224WithRSAEncryption`.
    impl RsaSignatureAssociatedOid for sha2::Sha224 {
        const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.14");
    }

    /// `sha256WithRSAEncryption`.
    impl RsaSignatureAssociatedOid for sha2::Sha256 {
        const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.11");
    }

    /// `sha384WithRSAEncryption`.
    impl RsaSignatureAssociatedOid for sha2::Sha384 {
        const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.12");
    }

    /// `sha512WithRSAEncryption`.
    impl RsaSignatureAssociatedOid for sha2::Sha512 {
        const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.13");
    }
}

pub use oid::RsaSignatureAssociatedOid;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traits::PublicKeyParts;
    use hex_literal::hex;
    use rand::rngs::ChaCha8Rng;
    use rand_core::SeedableRng;
    use sha2::{Sha256, Sha512};

    #[test]
    fn digest_info_prefixes_are_rfc_8017s() {
        // RFC 8017 §9.2, note 1.
        assert_eq!(
            digest_info_prefix::<Sha256>(),
            hex!("3031300d060960864801650304020105000420")
        );
        assert_eq!(
            digest_info_prefix::<Sha512>(),
            hex!("3051300d060960864801650304020305000440")
        );
    }

    #[test]
    fn pkcs1v15_errors_match_upstream() {
        let key = crate::test_key();
        let public = key.to_public_key();
        let mut rng = ChaCha8Rng::from_seed([1; 32]);
        let hash = Sha256::digest(b"m");
        let k = public.size();

        assert_eq!(
            key.sign(Pkcs1v15Sign::new::<Sha256>(), &hash[1..]),
            Err(Error::InputNotHashed)
        );
        assert_eq!(
            key.sign(Pkcs1v15Sign::new_unprefixed(), &vec![0; k - 10]),
            Err(Error::MessageTooLong)
        );
        let sig = key
            .sign(Pkcs1v15Sign::new_unprefixed(), &vec![5; k - 11])
            .expect("fits");
        public
            .verify(Pkcs1v15Sign::new_unprefixed(), &vec![5; k - 11], &sig)
            .expect("verifies");
        assert_eq!(
            public.verify(Pkcs1v15Sign::new_unprefixed(), &vec![5; k - 10], &sig),
            Err(Error::Verification)
        );
        assert_eq!(
            public.pkcs1v15_verify::<Sha256>(b"m", &public.n().to_be_bytes()),
            Err(Error::Verification)
        );
        assert_eq!(
            public.pkcs1v15_encrypt_with_rng(&mut rng, &vec![0; k - 10]),
            Err(Error::MessageTooLong)
        );
        assert_eq!(
            key.pkcs1v15_decrypt(&vec![0; k - 1]),
            Err(Error::Decryption)
        );
        assert_eq!(
            key.pkcs1v15_decrypt(&public.n().to_be_bytes()),
            Err(Error::Decryption)
        );
        // Implicit rejection: the same synthetic message with or without an RNG.
        let zero = vec![0; k];
        let synthetic = key.pkcs1v15_decrypt(&zero).expect("implicit rejection");
        assert!(synthetic.len() <= k - 11);
        assert_eq!(
            key.pkcs1v15_decrypt_with_rng(&mut rng, &zero)
                .expect("same"),
            synthetic
        );
    }
}
