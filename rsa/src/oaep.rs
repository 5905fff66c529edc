//! RSAES-OAEP (RFC 8017 §7.1): encryption with a random seed, and decryption whose padding
//! check runs in constant time and fails with one error.
//!
//! With k the modulus length in bytes and hLen the hash length, the encoded message is
//!
//! ```text
//! EM = 0x00 ‖ maskedSeed ‖ maskedDB          (1 + hLen + (k − hLen − 1) bytes)
//! DB = lHash ‖ PS ‖ 0x01 ‖ M                 (PS: zero bytes, possibly none)
//! maskedDB   = DB   ⊕ MGF1(seed, k − hLen − 1)
//! maskedSeed = seed ⊕ MGF1(maskedDB, hLen)
//! ```
//!
//! so a message holds at most k − 2·hLen − 2 bytes, and M is always the last mLen bytes of
//! the unmasked EM.
//!
//! # Constant time
//!
//! Decryption looks at every byte of EM whatever it holds: the checks (Y = 0, lHash' = lHash,
//! the first 0x01 after lHash, only zeros before it) are folded into one `subtle::Choice`, the
//! separator's position is taken with `conditional_assign`, and nothing branches or indexes on
//! EM until all the work is done. Then two values are declassified, in this order: the verdict
//! (a rejected ciphertext returns [`Error::Decryption`], which the caller sees anyway) and, for
//! an accepted one, the message length (which the caller sees anyway as the length of the
//! result). Manger's attack ("A Chosen Ciphertext Attack on RSA Optimal Asymmetric Encryption
//! Padding (OAEP) as Standardized in PKCS #1 v2.0", 2001) needs an oracle telling Y ≠ 0 apart
//! from the other failures; here every failure takes the same path to the same error.

mod keys;

use alloc::{vec, vec::Vec};
pub use keys::{DecryptingKey, EncryptingKey};

use rand_core::CryptoRng;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroizing;

use crate::hash::mgf1_xor;
use crate::hazmat::PublicOp;
use crate::scheme::{EncryptSealed, EncryptionScheme, Unsliced};
use crate::{Error, HashAlg, Result, RsaPrivateKey, RsaPublicKey};

/// RSAES-OAEP with a hash, MGF1 over a hash (the same one unless told otherwise) and a label
/// (empty unless told otherwise).
///
/// ```
/// use rsatool_rsa::{HashAlg, Oaep, RsaPrivateKey};
///
/// let mut rng = rsatool_rsa::os_rng();
/// let key = RsaPrivateKey::generate(1024, &mut rng)?;
/// let scheme = Oaep::new(HashAlg::Sha256).with_label("purpose");
/// let c = key.public_key().encrypt(&mut rng, &scheme, b"secret")?;
/// assert_eq!(key.decrypt(&mut rng, &scheme, &c)?, b"secret");
/// # Ok::<(), rsatool_rsa::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Oaep {
    hash: HashAlg,
    mgf1_hash: HashAlg,
    label: Vec<u8>,
    /// Whether decryption requires the first octet Y to be zero (RFC 8017 §7.1.2 step 3.g).
    check_y: bool,
}

impl Oaep {
    /// OAEP with `hash` for the label and for MGF1, and an empty label.
    pub fn new(hash: HashAlg) -> Self {
        Oaep {
            hash,
            mgf1_hash: hash,
            label: Vec::new(),
            check_y: true,
        }
    }

    /// The same scheme, but decryption does not look at the first octet Y of the encoded
    /// message, as draft-irtf-cfrg-rsa-guidance (§7) advises and RustCrypto `rsa` 0.10 does:
    /// RFC 8017 rejects Y ≠ 0, which a caller whose errors or timing differ by the reason
    /// turns into Manger's oracle. A ciphertext whose only flaw is Y ≠ 0 then decrypts; the
    /// rest of the checks stand. The default, RFC 8017's, is what Wycheproof and OpenSSL
    /// expect.
    #[must_use]
    pub fn ignoring_first_octet(mut self) -> Self {
        self.check_y = false;
        self
    }

    /// The same scheme with MGF1 over `hash` (OpenSSL's `rsa_mgf1_md`).
    #[must_use]
    pub fn with_mgf1_hash(mut self, hash: HashAlg) -> Self {
        self.mgf1_hash = hash;
        self
    }

    /// The same scheme with `label` (OpenSSL's `rsa_oaep_label`), which decryption must be
    /// given again.
    #[must_use]
    pub fn with_label(mut self, label: impl Into<Vec<u8>>) -> Self {
        self.label = label.into();
        self
    }

    /// The hash of the label.
    pub fn hash(&self) -> HashAlg {
        self.hash
    }

    /// The hash of MGF1.
    pub fn mgf1_hash(&self) -> HashAlg {
        self.mgf1_hash
    }

    /// The label.
    pub fn label(&self) -> &[u8] {
        &self.label
    }

    /// The longest message this scheme encrypts under `key`: k − 2·hLen − 2 bytes (0 if the
    /// key is too small for the hash).
    pub fn max_message_len(&self, key: &RsaPublicKey) -> usize {
        key.size().saturating_sub(2 * self.hash.output_len() + 2)
    }

    /// RSAES-OAEP-ENCRYPT with the seed given: what [`EncryptionScheme::encrypt`] does once it
    /// has drawn the seed (the known-answer tests replay RSA Laboratories' seeds through
    /// `encrypt`'s RNG).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`] if `seed` is not hLen bytes; [`Error::MessageTooLong`] as for
    /// [`EncryptionScheme::encrypt`].
    pub(crate) fn encrypt_with_seed(
        &self,
        key: &RsaPublicKey,
        msg: &[u8],
        seed: &[u8],
    ) -> Result<Vec<u8>> {
        let k = key.size();
        let h_len = self.hash.output_len();
        if seed.len() != h_len {
            return Err(Error::InvalidLength {
                expected: h_len,
                actual: seed.len(),
            });
        }
        // RFC 8017 §7.1.1, step 1.b: mLen ≤ k − 2hLen − 2.
        if k < 2 * h_len + 2 || msg.len() > k - 2 * h_len - 2 {
            return Err(Error::MessageTooLong);
        }
        // Step 2: EM = 0x00 ‖ maskedSeed ‖ maskedDB.
        let mut em = Zeroizing::new(vec![0u8; k]);
        let (seed_part, db) = em[1..].split_at_mut(h_len);
        // Step 2.a–c: DB = lHash ‖ PS ‖ 0x01 ‖ M (PS is the zeros already there).
        db[..h_len].copy_from_slice(&self.hash.digest(&self.label));
        let m_start = db.len() - msg.len();
        db[m_start - 1] = 0x01;
        db[m_start..].copy_from_slice(msg);
        // Step 2.d–f: maskedDB = DB ⊕ MGF(seed, k − hLen − 1).
        seed_part.copy_from_slice(seed);
        mgf1_xor(self.mgf1_hash, seed_part, db);
        // Step 2.g–h: maskedSeed = seed ⊕ MGF(maskedDB, hLen).
        mgf1_xor(self.mgf1_hash, db, seed_part);
        // Step 3: RSAEP; EM starts with 0x00, so it is below n.
        key.public_op(&em)
    }
}

impl EncryptSealed for Oaep {
    /// RFC 8017 §7.1.2, step 1: the public length checks.
    fn check_ciphertext(&self, key: &RsaPrivateKey, ciphertext: &[u8]) -> Result<()> {
        let k = key.size();
        if ciphertext.len() != k || k < 2 * self.hash.output_len() + 2 {
            return Err(Error::Decryption);
        }
        Ok(())
    }

    /// RFC 8017 §7.1.2, steps 2–3, after the private operation, whose result is `em`.
    fn unslice(
        &self,
        _key: &RsaPrivateKey,
        _ciphertext: &[u8],
        em: Result<Vec<u8>>,
    ) -> Result<Unsliced> {
        let h_len = self.hash.output_len();
        // Step 2: RSADP (CRT, blinded, fault-checked). A fault stays a fault; c ≥ n is a
        // decryption error.
        let mut em = Zeroizing::new(match em {
            Ok(m) => m,
            Err(Error::Fault) => return Err(Error::Fault),
            Err(_) => return Err(Error::Decryption),
        });
        let l_hash = self.hash.digest(&self.label);

        // Step 3.b: EM = Y ‖ maskedSeed ‖ maskedDB.
        let (y, rest) = em.split_at_mut(1);
        let (seed, db) = rest.split_at_mut(h_len);
        // Step 3.c–f: seed = maskedSeed ⊕ MGF(maskedDB, hLen), DB = maskedDB ⊕ MGF(seed, …).
        mgf1_xor(self.mgf1_hash, db, seed);
        mgf1_xor(self.mgf1_hash, seed, db);

        // Step 3.g, all in one verdict: Y = 0, lHash' = lHash, then PS ‖ 0x01 ‖ M with PS
        // only zeros. Every byte is looked at.
        // `check_y` is the scheme's setting, public; Y itself is not looked at apart.
        let mut valid = y[0].ct_eq(&0) | Choice::from(u8::from(!self.check_y));
        valid &= db[..h_len].ct_eq(&l_hash);
        let mut found = Choice::from(0);
        let mut bad_ps = Choice::from(0);
        let mut sep: u64 = 0;
        for (i, &b) in (0u64..).zip(&db[h_len..]) {
            let is_one = b.ct_eq(&1);
            let before = !found;
            // The first 0x01 is the separator.
            sep.conditional_assign(&i, before & is_one);
            // Before it, only zeros.
            bad_ps |= before & !is_one & !b.ct_eq(&0);
            found |= is_one;
        }
        valid &= found & !bad_ps;
        // mLen = (k − 2hLen − 1) − sep − 1; with no separator, sep = 0 and the length is
        // meaningless but in range (the verdict is unset).
        let rest_len = db.len() as u64 - h_len as u64;
        let len = rest_len - sep - 1;
        // The seed and lHash' are no part of the answer.
        y[0] = 0;
        seed.fill(0);
        db[..h_len].fill(0);
        Ok(Unsliced {
            block: em,
            valid,
            len,
        })
    }
}

impl EncryptionScheme for Oaep {
    /// RSAES-OAEP-ENCRYPT (RFC 8017 §7.1.1) with a seed of hLen random bytes from `rng`.
    fn encrypt<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPublicKey,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        let mut seed = Zeroizing::new(vec![0u8; self.hash.output_len()]);
        rng.fill_bytes(&mut seed);
        self.encrypt_with_seed(key, msg, &seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hazmat::PrivateOp;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    #[test]
    fn ignoring_first_octet_accepts_y_one_and_only_then() {
        let mut rng = ChaCha8Rng::from_seed([3; 32]);
        let key = RsaPrivateKey::generate(1024, &mut rng).unwrap();
        let strict = Oaep::new(HashAlg::Sha256);
        let lax = Oaep::new(HashAlg::Sha256).ignoring_first_octet();
        let c = key.public_key().encrypt(&mut rng, &strict, b"m").unwrap();
        // The same encoded message with Y = 1, encrypted again (0x01‖… < n).
        let mut em = key.private_op(&mut rng, &c).unwrap();
        assert_eq!(em[0], 0);
        em[0] = 1;
        let c1 = key.public_key().public_op(&em).unwrap();
        assert_eq!(key.decrypt(&mut rng, &strict, &c1), Err(Error::Decryption));
        assert_eq!(key.decrypt(&mut rng, &lax, &c1).unwrap(), b"m");
        // Another flaw still fails: a damaged lHash' (in maskedDB, after the seed).
        em[0] = 0;
        em[40] ^= 1;
        let c2 = key.public_key().public_op(&em).unwrap();
        assert_eq!(key.decrypt(&mut rng, &lax, &c2), Err(Error::Decryption));
    }
}
