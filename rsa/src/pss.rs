//! RSASSA-PSS (RFC 8017 §8.1) with EMSA-PSS (§9.1) and MGF1.
//!
//! With mHash = Hash(M), hLen its length, sLen the salt length, emBits = modBits − 1 and
//! emLen = ⌈emBits/8⌉:
//!
//! ```text
//! M'       = 0x00·8 ‖ mHash ‖ salt
//! H        = Hash(M')
//! DB       = 0x00·(emLen − sLen − hLen − 2) ‖ 0x01 ‖ salt          (emLen − hLen − 1 bytes)
//! maskedDB = DB ⊕ MGF1(H, emLen − hLen − 1), its top 8·emLen − emBits bits cleared
//! EM       = maskedDB ‖ H ‖ 0xbc
//! ```
//!
//! and the signature is RSASP1(EM) as k bytes. When modBits ≡ 1 (mod 8), emLen = k − 1 and the
//! encoded message is one byte shorter than the modulus: EM is written with a leading zero
//! byte, and on verification the first byte of s^e mod n must be zero.
//!
//! [`Pss`] is the scheme for [`RsaPrivateKey::sign`] and [`RsaPublicKey::verify`];
//! [`SigningKey`], [`VerifyingKey`] and [`Signature`] carry RustCrypto's `signature` traits.

use alloc::{vec, vec::Vec};
use core::marker::PhantomData;

use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

mod params;

pub use params::PssKeyParams;

use crate::hash::{Mgf, mask_xor};
use crate::hazmat::{PrivateOp, PublicOp};
use crate::scheme::{SignSealed, SignatureScheme};
/// The signature type of the `signature` traits, shared with PKCS #1 v1.5.
pub use crate::typed_signature::Signature;
use crate::{Error, HashAlg, KnownDigest, Result, RsaPrivateKey, RsaPublicKey};

/// The salt length of a [`Pss`] scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SaltLen {
    /// The length of the message hash (the default, and RFC 8017's usual choice).
    #[default]
    HashLen,
    /// Exactly this many bytes.
    Exact(usize),
    /// The largest salt the key allows: emLen − hLen − 2 bytes (OpenSSL's `max`, Python's
    /// `PSS.MAX_LENGTH`).
    Max,
    /// On verification, whatever length the signature has (recovered from the position of
    /// the 0x01 separator in DB); on signing, the same as [`SaltLen::Max`], as OpenSSL does.
    Auto,
    /// On verification, whatever length the signature has, but at least this many bytes (an
    /// RSA-PSS key's minimum salt length, RFC 4055 §3.1); on signing, exactly this many.
    AtLeast(usize),
}

/// RSASSA-PSS signatures (RFC 8017 §8.1): the message hash, the MGF1 hash and the salt length.
///
/// [`Pss::new`] takes the same hash for the message and MGF1 and a salt of the hash length;
/// [`with_mgf1_hash`](Pss::with_mgf1_hash) and [`with_salt_len`](Pss::with_salt_len) change
/// them. Verification requires exactly the configured salt length, unless it is
/// [`SaltLen::Auto`].
///
/// ```
/// use rsatool_rsa::{HashAlg, Pss, RsaPrivateKey, SaltLen};
///
/// let mut rng = rsatool_rsa::os_rng();
/// let key = RsaPrivateKey::generate(1024, &mut rng)?;
/// let sig = key.sign(&mut rng, &Pss::new(HashAlg::Sha256).with_salt_len(SaltLen::Max), b"hi")?;
/// let auto = Pss::new(HashAlg::Sha256).with_salt_len(SaltLen::Auto);
/// key.public_key().verify(&auto, b"hi", &sig)?;
/// // The default (salt of the hash length) does not accept a maximal salt.
/// assert!(key.public_key().verify(&Pss::new(HashAlg::Sha256), b"hi", &sig).is_err());
/// # Ok::<(), rsatool_rsa::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pss {
    /// The hash of the message (and of M').
    pub hash: HashAlg,
    /// The hash of MGF1 (when [`mgf`](Pss::mgf) is [`Mgf::Mgf1`]).
    pub mgf1_hash: HashAlg,
    /// The salt length.
    pub salt_len: SaltLen,
    /// The mask generation function: MGF1 (the default) or SHAKE (FIPS 186-5 §5.4).
    pub mgf: Mgf,
}

impl Pss {
    /// PSS with `hash` for the message and MGF1, and a salt of the hash length; with SHAKE128
    /// or SHAKE256 as the hash, the same SHAKE is the mask function too (RFC 8702 §3.1's
    /// id-RSASSA-PSS-SHAKE128/256; [`with_mgf1_hash`](Pss::with_mgf1_hash) or
    /// [`with_mgf`](Pss::with_mgf) choose MGF1 instead).
    pub const fn new(hash: HashAlg) -> Self {
        Pss {
            hash,
            mgf1_hash: hash,
            salt_len: SaltLen::HashLen,
            mgf: match hash {
                HashAlg::Shake128 => Mgf::Shake128,
                HashAlg::Shake256 => Mgf::Shake256,
                _ => Mgf::Mgf1,
            },
        }
    }

    /// The same scheme with `mgf` as the mask generation function (SHAKE128 or SHAKE256 in
    /// place of MGF1, FIPS 186-5 §5.4; [`Mgf::Mgf1`] goes back to MGF1 over
    /// [`mgf1_hash`](Pss::mgf1_hash)).
    #[must_use]
    pub const fn with_mgf(self, mgf: Mgf) -> Self {
        Pss { mgf, ..self }
    }

    /// The same scheme with MGF1 over `mgf1_hash` as the mask function.
    #[must_use]
    pub const fn with_mgf1_hash(self, mgf1_hash: HashAlg) -> Self {
        Pss {
            mgf1_hash,
            mgf: Mgf::Mgf1,
            ..self
        }
    }

    /// The same scheme with this salt length.
    #[must_use]
    pub const fn with_salt_len(self, salt_len: SaltLen) -> Self {
        Pss { salt_len, ..self }
    }

    /// Signs a digest with the given salt instead of a random one: for known-answer tests
    /// (NIST CAVP `SaltVal`, RSA Laboratories `pss-vect.txt`), whose signatures are
    /// reproducible only with their salt. The salt length is `salt.len()`, whatever
    /// [`salt_len`](Pss::salt_len) says; `rng` only blinds the private operation. A salt that
    /// is not fresh and random weakens PSS's security proof: use
    /// [`RsaPrivateKey::sign`] otherwise.
    ///
    /// # Constant time
    ///
    /// The encoding's time depends on the lengths only; the private operation is
    /// [`PrivateOp::private_op`]'s.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`] if the digest is not the hash's length;
    /// [`Error::MessageTooLong`] if emLen < hLen + sLen + 2; [`Error::Fault`] from the private
    /// operation.
    pub fn sign_digest_with_salt<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        digest: &[u8],
        salt: &[u8],
    ) -> Result<Vec<u8>> {
        self.check_digest(digest)?;
        let em = self.encode(digest, salt, key.bits(), key.size())?;
        key.private_op(rng, &em)
    }

    fn check_digest(&self, digest: &[u8]) -> Result<()> {
        let h_len = self.hash.output_len();
        if digest.len() == h_len {
            Ok(())
        } else {
            Err(Error::InvalidLength {
                expected: h_len,
                actual: digest.len(),
            })
        }
    }

    /// EMSA-PSS-ENCODE (RFC 8017 §9.1.1) for a modulus of `mod_bits` bits, as k bytes (a
    /// leading zero byte when emLen = k − 1). The digest's length is checked by the caller.
    fn encode(
        &self,
        m_hash: &[u8],
        salt: &[u8],
        mod_bits: usize,
        k: usize,
    ) -> Result<Zeroizing<Vec<u8>>> {
        let h_len = self.hash.output_len();
        let (em_bits, em_len) = em_size(mod_bits);
        // Step 3: emLen < hLen + sLen + 2 is an "encoding error".
        let need = h_len
            .checked_add(salt.len())
            .and_then(|x| x.checked_add(2))
            .ok_or(Error::MessageTooLong)?;
        if em_len < need {
            return Err(Error::MessageTooLong);
        }
        // Steps 5–6: H = Hash(0x00·8 ‖ mHash ‖ salt).
        let mut hasher = self.hash.hasher();
        hasher.update(&[0u8; 8]);
        hasher.update(m_hash);
        hasher.update(salt);
        let h = Zeroizing::new(hasher.finalize());

        let mut out = Zeroizing::new(vec![0u8; k]);
        let em = &mut out[k - em_len..];
        let db_len = em_len - h_len - 1;
        let (db, rest) = em.split_at_mut(db_len);
        // Steps 7–8: DB = PS (zeros, already) ‖ 0x01 ‖ salt.
        let ps_len = db_len - salt.len() - 1;
        db[ps_len] = 0x01;
        db[ps_len + 1..].copy_from_slice(salt);
        // Steps 9–10: maskedDB = DB ⊕ MGF1(H, emLen − hLen − 1).
        mask_xor(self.mgf, self.mgf1_hash, &h, db);
        // Step 11: clear the leftmost 8·emLen − emBits bits.
        db[0] &= top_mask(em_bits, em_len);
        // Step 12: EM = maskedDB ‖ H ‖ 0xbc.
        rest[..h_len].copy_from_slice(&h);
        rest[h_len] = 0xbc;
        Ok(out)
    }

    /// EMSA-PSS-VERIFY (RFC 8017 §9.1.2) of `m` = s^e mod n (k bytes) for a modulus of
    /// `mod_bits` bits: true if consistent. Variable time: every input is public.
    fn verify_em(&self, m_hash: &[u8], m: &[u8], mod_bits: usize) -> bool {
        let h_len = self.hash.output_len();
        let (em_bits, em_len) = em_size(mod_bits);
        // RSAVP1's m is below n, k bytes; I2OSP(m, emLen) fails unless the extra leading
        // byte (when emLen = k − 1) is zero.
        let Some(skip) = m.len().checked_sub(em_len) else {
            return false;
        };
        if m[..skip].iter().any(|&b| b != 0) {
            return false;
        }
        let em = &m[skip..];
        // Step 3 (for the smallest salt, 0; the configured one is checked below).
        if em_len < h_len + 2 {
            return false;
        }
        // Step 4: the rightmost byte is 0xbc.
        if em[em_len - 1] != 0xbc {
            return false;
        }
        // Step 5: maskedDB ‖ H.
        let db_len = em_len - h_len - 1;
        let (masked_db, h) = (&em[..db_len], &em[db_len..em_len - 1]);
        // Step 6: the leftmost 8·emLen − emBits bits of maskedDB are zero.
        let mask = top_mask(em_bits, em_len);
        if masked_db[0] & !mask != 0 {
            return false;
        }
        // Steps 7–9: DB = maskedDB ⊕ MGF1(H, emLen − hLen − 1), top bits cleared.
        let mut db = masked_db.to_vec();
        mask_xor(self.mgf, self.mgf1_hash, h, &mut db);
        db[0] &= mask;
        // Step 10: DB = 0x00·(emLen − hLen − sLen − 2) ‖ 0x01 ‖ salt, with sLen as
        // configured, or (Auto) wherever the first non-zero byte is.
        let s_len = match self.salt_len {
            SaltLen::HashLen => h_len,
            SaltLen::Exact(s) => s,
            SaltLen::Max => db_len - 1,
            SaltLen::Auto => match db.iter().position(|&b| b != 0) {
                Some(i) => db_len - 1 - i,
                None => return false,
            },
            SaltLen::AtLeast(min) => match db.iter().position(|&b| b != 0) {
                Some(i) if db_len - 1 - i >= min => db_len - 1 - i,
                _ => return false,
            },
        };
        if s_len >= db_len {
            return false;
        }
        let ps_len = db_len - s_len - 1;
        let mut ok: Choice = db[ps_len].ct_eq(&0x01);
        for b in &db[..ps_len] {
            ok &= b.ct_eq(&0);
        }
        // Steps 11–14: H' = Hash(0x00·8 ‖ mHash ‖ salt) must be H.
        let mut hasher = self.hash.hasher();
        hasher.update(&[0u8; 8]);
        hasher.update(m_hash);
        hasher.update(&db[ps_len + 1..]);
        ok &= hasher.finalize().as_slice().ct_eq(h);
        bool::from(ok)
    }
}

/// emBits = modBits − 1 and emLen = ⌈emBits/8⌉ (RFC 8017 §8.1.1 step 1).
fn em_size(mod_bits: usize) -> (usize, usize) {
    let em_bits = mod_bits.saturating_sub(1);
    (em_bits, em_bits.div_ceil(8))
}

/// The mask keeping the low emBits − 8·(emLen − 1) bits of EM's first byte.
fn top_mask(em_bits: usize, em_len: usize) -> u8 {
    // 0 ≤ 8·emLen − emBits ≤ 7.
    let zero_bits = 8 * em_len - em_bits;
    0xff >> zero_bits
}

impl SignSealed for Pss {
    /// Step 1 of RSASSA-PSS-SIGN (RFC 8017 §8.1.1): EMSA-PSS-ENCODE of a digest, with a salt
    /// of the configured length drawn from `rng` ([`SaltLen::Auto`] and [`SaltLen::Max`]: the
    /// largest the key allows); [`SignatureScheme::sign_digest`] does the rest.
    ///
    /// # Constant time
    ///
    /// The encoding's time depends on the lengths only (the salt is hashed, copied and
    /// masked without branching on it). The salt is no secret once the signature is out: any
    /// verifier recovers it.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`] if the digest is not the hash's length;
    /// [`Error::MessageTooLong`] if the key is too small for the hash and salt (emLen < hLen +
    /// sLen + 2).
    fn encode_for_signing<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        digest: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>> {
        self.check_digest(digest)?;
        let h_len = self.hash.output_len();
        let (_, em_len) = em_size(key.bits());
        let s_len = match self.salt_len {
            SaltLen::HashLen => h_len,
            SaltLen::Exact(s) | SaltLen::AtLeast(s) => s,
            SaltLen::Max | SaltLen::Auto => {
                em_len.checked_sub(h_len + 2).ok_or(Error::MessageTooLong)?
            }
        };
        // Refuse before allocating a salt the key cannot hold (an Exact length may be huge).
        if s_len > em_len {
            return Err(Error::MessageTooLong);
        }
        let mut salt = Zeroizing::new(vec![0u8; s_len]);
        rng.fill_bytes(&mut salt);
        self.encode(digest, &salt, key.bits(), key.size())
    }
}

impl SignatureScheme for Pss {
    fn hash(&self) -> HashAlg {
        self.hash
    }

    /// RSASSA-PSS-VERIFY (RFC 8017 §8.1.2) of a digest.
    ///
    /// # Constant time
    ///
    /// No: the signature, the digest and the key are public.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`] if the digest is not the hash's length;
    /// [`Error::Verification`] for every invalid signature: of the wrong length, not below
    /// n, or inconsistent (including a salt of another length than the configured one).
    fn verify_digest(&self, key: &RsaPublicKey, digest: &[u8], signature: &[u8]) -> Result<()> {
        self.check_digest(digest)?;
        // Step 1: the signature is k bytes; step 2: RSAVP1 (refuses s ≥ n).
        if signature.len() != key.size() {
            return Err(Error::Verification);
        }
        let m = key.public_op(signature).map_err(|_| Error::Verification)?;
        // Step 3: EMSA-PSS-VERIFY.
        if self.verify_em(digest, &m, key.bits()) {
            Ok(())
        } else {
            Err(Error::Verification)
        }
    }
}

/// A private key typed by its hash `D` for PSS signatures (MGF1 with `D`, a salt of `D`'s
/// length unless said otherwise), as RustCrypto's `rsa` spells it: the traits of
/// [`pkcs1v15::SigningKey`](crate::pkcs1v15::SigningKey), with the salt drawn from the RNG
/// (the operating system's for [`Signer`](signature::Signer) and
/// [`PrehashSigner`](signature::hazmat::PrehashSigner)). The run-time form is [`Pss`] with
/// [`RsaPrivateKey::sign`].
///
/// ```
/// use rsatool_rsa::pss::{BlindedSigningKey, SigningKey, VerifyingKey};
/// use rsatool_rsa::sha2::{Digest, Sha384};
/// use rsatool_rsa::signature::{
///     DigestVerifier, Keypair, RandomizedDigestSigner, RandomizedSigner, Verifier,
///     hazmat::PrehashVerifier, hazmat::RandomizedPrehashSigner,
/// };
///
/// let mut rng = rsatool_rsa::os_rng();
/// let key = rsatool_rsa::RsaPrivateKey::new(&mut rng, 1024)?;
/// let signing_key = SigningKey::<Sha384>::new(key.clone());
/// let verifying_key = signing_key.verifying_key();
///
/// let sig = signing_key.sign_with_rng(&mut rng, b"hello");
/// verifying_key.verify(b"hello", &sig)?;
/// // A random salt: two signatures differ, both verify.
/// let sig2 = signing_key.sign_digest_with_rng(&mut rng, |d: &mut Sha384| d.update(b"hello"));
/// assert_ne!(sig, sig2);
/// verifying_key.verify_digest(
///     |d: &mut Sha384| {
///         d.update(b"hello");
///         Ok(())
///     },
///     &sig2,
/// )?;
/// let digest = Sha384::digest(b"hello");
/// let sig3 = signing_key.sign_prehash_with_rng(&mut rng, &digest)?;
/// verifying_key.verify_prehash(&digest, &sig3)?;
///
/// // Blinding is always on: BlindedSigningKey is the same type.
/// let blinded: BlindedSigningKey<Sha384> = SigningKey::new_with_salt_len(key, 0);
/// let sig4 = blinded.sign_with_rng(&mut rng, b"hello");
/// assert!(verifying_key.verify(b"hello", &sig4).is_err()); // expects a 48-byte salt
/// VerifyingKey::<Sha384>::new_with_auto_salt_len(blinded.verifying_key().into())
///     .verify(b"hello", &sig4)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SigningKey<D: KnownDigest> {
    key: RsaPrivateKey,
    scheme: Pss,
    digest: PhantomData<fn() -> D>,
}

/// [`SigningKey`] under its RustCrypto `rsa` 0.9 name: every private operation here is
/// blinded, so the blinded signer and the plain one are the same type.
pub type BlindedSigningKey<D> = SigningKey<D>;

impl<D: KnownDigest> SigningKey<D> {
    /// PSS with `D` for the message and MGF1, and a salt of `D`'s length.
    pub fn new(key: RsaPrivateKey) -> Self {
        Self::new_with_salt_len(key, D::HASH.output_len())
    }

    /// PSS with `D` and a salt of `salt_len` bytes.
    pub fn new_with_salt_len(key: RsaPrivateKey, salt_len: usize) -> Self {
        SigningKey {
            key,
            scheme: Pss::new(D::HASH).with_salt_len(SaltLen::Exact(salt_len)),
            digest: PhantomData,
        }
    }

    /// A new key of `bits` bits (e = 65537), as [`RsaPrivateKey::new`].
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::generate`].
    pub fn random<R: CryptoRng + ?Sized>(rng: &mut R, bits: usize) -> Result<Self> {
        Ok(Self::new(RsaPrivateKey::new(rng, bits)?))
    }

    /// The same key with another salt length ([`SaltLen::Max`], say).
    #[must_use]
    pub fn with_salt_len(self, salt_len: SaltLen) -> Self {
        SigningKey {
            scheme: self.scheme.with_salt_len(salt_len),
            ..self
        }
    }

    /// The run-time scheme this key signs with.
    pub fn scheme(&self) -> &Pss {
        &self.scheme
    }

    /// The private key.
    pub fn key(&self) -> &RsaPrivateKey {
        &self.key
    }
}

/// A public key typed by its hash `D` for PSS signatures: the traits of
/// [`pkcs1v15::VerifyingKey`](crate::pkcs1v15::VerifyingKey). See [`SigningKey`] for an
/// example.
pub struct VerifyingKey<D: KnownDigest> {
    key: RsaPublicKey,
    scheme: Pss,
    digest: PhantomData<fn() -> D>,
}

impl<D: KnownDigest> VerifyingKey<D> {
    /// PSS with `D` for the message and MGF1, expecting a salt of `D`'s length.
    pub fn new(key: RsaPublicKey) -> Self {
        Self::new_with_salt_len(key, D::HASH.output_len())
    }

    /// PSS with `D`, expecting a salt of exactly `salt_len` bytes.
    pub fn new_with_salt_len(key: RsaPublicKey, salt_len: usize) -> Self {
        Self::with_salt(key, SaltLen::Exact(salt_len))
    }

    /// PSS with `D`, accepting any salt length ([`SaltLen::Auto`], as OpenSSL's verifier).
    pub fn new_with_auto_salt_len(key: RsaPublicKey) -> Self {
        Self::with_salt(key, SaltLen::Auto)
    }

    fn with_salt(key: RsaPublicKey, salt_len: SaltLen) -> Self {
        VerifyingKey {
            key,
            scheme: Pss::new(D::HASH).with_salt_len(salt_len),
            digest: PhantomData,
        }
    }

    /// The run-time scheme this key verifies with.
    pub fn scheme(&self) -> &Pss {
        &self.scheme
    }

    /// The public key.
    pub fn key(&self) -> &RsaPublicKey {
        &self.key
    }
}

crate::typed_keys::signature_key_impls!(SigningKey, VerifyingKey);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn em_size_follows_mod_bits_minus_one() {
        assert_eq!(em_size(1024), (1023, 128));
        assert_eq!(em_size(1025), (1024, 128));
        assert_eq!(em_size(1026), (1025, 129));
        assert_eq!(top_mask(1023, 128), 0x7f);
        assert_eq!(top_mask(1024, 128), 0xff);
        assert_eq!(top_mask(1025, 129), 0x01);
    }

    #[test]
    fn shake_hashes_default_to_their_shake_mask_and_mgf1_hash_restores_mgf1() {
        assert_eq!(Pss::new(HashAlg::Shake128).mgf, Mgf::Shake128);
        assert_eq!(Pss::new(HashAlg::Shake256).mgf, Mgf::Shake256);
        assert_eq!(Pss::new(HashAlg::Sha3_256).mgf, Mgf::Mgf1);
        let p = Pss::new(HashAlg::Shake128).with_mgf1_hash(HashAlg::Sha256);
        assert_eq!((p.mgf, p.mgf1_hash), (Mgf::Mgf1, HashAlg::Sha256));
    }

    #[test]
    fn every_hash_and_mask_encodes_what_verify_em_accepts() {
        // 2048 bits: room for SHA-512/SHAKE256 with a 64-byte salt.
        for hash in HashAlg::EVERY {
            for mgf in [Mgf::Mgf1, Mgf::Shake128, Mgf::Shake256] {
                let pss = Pss::new(hash)
                    .with_mgf(mgf)
                    .with_salt_len(SaltLen::Exact(hash.output_len()));
                let m_hash = hash.digest(b"m");
                let salt = vec![7u8; hash.output_len()];
                let em = pss.encode(&m_hash, &salt, 2048, 256).unwrap();
                assert!(pss.verify_em(&m_hash, &em, 2048), "{hash} {mgf:?}");
                // Another mask function does not open it.
                let other = if mgf == Mgf::Mgf1 {
                    Mgf::Shake256
                } else {
                    Mgf::Mgf1
                };
                assert!(
                    !pss.with_mgf(other).verify_em(&m_hash, &em, 2048),
                    "{hash} {mgf:?}"
                );
            }
        }
    }

    #[test]
    fn encode_layout_and_verify_em_agree() {
        // A 1025-bit "modulus": emLen = 128 = k − 1, so the k-byte EM starts with a zero byte.
        let pss = Pss::new(HashAlg::Sha256).with_salt_len(SaltLen::Exact(5));
        let m_hash = HashAlg::Sha256.digest(b"m");
        let salt = [1u8, 2, 3, 4, 5];
        let em = pss.encode(&m_hash, &salt, 1025, 129).unwrap();
        assert_eq!(em.len(), 129);
        assert_eq!(em[0], 0);
        assert_eq!(em[128], 0xbc);
        assert!(pss.verify_em(&m_hash, &em, 1025));
        assert!(
            pss.with_salt_len(SaltLen::Auto)
                .verify_em(&m_hash, &em, 1025)
        );
        assert!(!pss.verify_em(&HashAlg::Sha256.digest(b"n"), &em, 1025));
        assert!(
            !pss.with_salt_len(SaltLen::Exact(4))
                .verify_em(&m_hash, &em, 1025)
        );
        // Too long a salt: emLen 128 < 32 + 95 + 2.
        assert_eq!(
            pss.encode(&m_hash, &[0; 95], 1025, 129).unwrap_err(),
            Error::MessageTooLong
        );
        assert!(pss.encode(&m_hash, &[0; 94], 1025, 129).is_ok());
    }
}
