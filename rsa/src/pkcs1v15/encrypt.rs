//! RSAES-PKCS1-v1_5 (RFC 8017 §7.2), with implicit rejection on decryption as specified by
//! H. Kario, "Implementation Guidance for the PKCS #1 RSA Cryptography Specification"
//! (draft-kario-rsa-guidance / draft-irtf-cfrg-rsa-guidance, 2023–), and as OpenSSL 3.2+ does
//! it byte for byte (`ossl_rsa_padding_check_PKCS1_type_2`).
//!
//! ```text
//! EM = 0x00 ‖ 0x02 ‖ PS ‖ 0x00 ‖ M            (PS: at least 8 non-zero random bytes)
//! ```
//!
//! # Implicit rejection
//!
//! A decryptor that answers "bad padding" differently from "good padding" (an error, an exit
//! code, a few microseconds) is an oracle for Bleichenbacher's attack ("Chosen Ciphertext
//! Attacks Against Protocols Based on the RSA Encryption Standard PKCS #1", 1998), which
//! recovers a plaintext, or forges a signature, with some thousands to millions of queries;
//! the Marvin attack (Kario, 2023) showed that timing differences of a few cycles, in the
//! padding check or in the code *around* it, are still enough in practice. Implicit
//! rejection removes the signal at its source: a ciphertext with bad padding decrypts, like
//! any other, to a message: a pseudo-random one, derived deterministically from the private
//! key and the ciphertext, so that asking twice gives the same answer:
//!
//! ```text
//! KDK        = HMAC-SHA256(key = SHA-256(d as k big-endian bytes), C as k bytes)
//! PRF(L, n)  = first n bits of  HMAC-SHA256(KDK, 0x0000 ‖ L ‖ n as 2 bytes)
//!                             ‖ HMAC-SHA256(KDK, 0x0001 ‖ L ‖ n as 2 bytes) ‖ …
//! synthetic  = PRF("message", 8·k)                       (k bytes)
//! candidates = PRF("length", 2048)                       (128 big-endian u16)
//! max        = k − 10; each candidate is ANDed with the smallest all-ones mask ≥ max,
//!              and the LAST candidate below max is the length (0 if none is)
//! result     = valid ? M : the last `length` bytes of synthetic
//! ```
//!
//! The selection is by masks over all k bytes, never a branch.
//!
//! # Constant time
//!
//! Decryption does the same work whatever the padding: the private operation, the KDK and
//! both PRF outputs (with implicit rejection), one pass over every byte of EM folding the
//! checks into a `subtle::Choice`, the separator's position by `conditional_assign`, and a
//! byte-by-byte masked selection. Only the final message length is declassified, after the
//! selection (with implicit rejection it says nothing about the padding: a synthetic length
//! is as likely as any); with explicit rejection the verdict is declassified too.

use alloc::{vec, vec::Vec};
use hmac::{Hmac, KeyInit, Mac};
use rand_core::CryptoRng;
use sha2::{Digest, Sha256};
use subtle::{
    Choice, ConditionallySelectable, ConstantTimeEq, ConstantTimeGreater, ConstantTimeLess,
};
use zeroize::Zeroizing;

use crate::hazmat::PublicOp;
use crate::scheme::{EncryptSealed, EncryptionScheme, Unsliced};
use crate::{Error, Result, RsaPrivateKey, RsaPublicKey};

/// The minimum length of PS (RFC 8017 §7.2.1, step 2.a; §7.2.2, step 3).
const MIN_PS_LEN: usize = 8;

/// How many synthetic-length candidates the PRF draws: the chance that none is below the
/// bound is below 2^-128 for every key size (OpenSSL's `MAX_LEN_GEN_TRIES`).
const LEN_CANDIDATES: u16 = 128;

/// RSAES-PKCS1-v1_5 encryption, and decryption with implicit rejection (the default) or,
/// if asked for by name, with explicit rejection.
///
/// New designs should use [`Oaep`](crate::Oaep); this scheme is here for the protocols and
/// files that still need it.
///
/// ```
/// use rsatool_rsa::{Pkcs1v15Encrypt, RsaPrivateKey};
///
/// let mut rng = rsatool_rsa::os_rng();
/// let key = RsaPrivateKey::generate(1024, &mut rng)?;
/// let c = key.public_key().encrypt(&mut rng, &Pkcs1v15Encrypt::new(), b"secret")?;
/// assert_eq!(key.decrypt(&mut rng, &Pkcs1v15Encrypt::new(), &c)?, b"secret");
/// # Ok::<(), rsatool_rsa::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pkcs1v15Encrypt {
    implicit_rejection: bool,
}

impl Default for Pkcs1v15Encrypt {
    /// [`Pkcs1v15Encrypt::new`]: implicit rejection.
    fn default() -> Self {
        Pkcs1v15Encrypt {
            implicit_rejection: true,
        }
    }
}

impl Pkcs1v15Encrypt {
    /// PKCS #1 v1.5 with implicit rejection: a ciphertext with bad padding decrypts to a
    /// pseudo-random message derived from the key and the ciphertext (see the module
    /// documentation), never to an error.
    pub fn new() -> Self {
        Self::default()
    }

    /// PKCS #1 v1.5 whose decryption returns [`Error::Decryption`] on bad padding, the legacy
    /// behaviour.
    ///
    /// # Security
    ///
    /// Dangerous: whoever can tell an error from a message, by the result, a log line, an
    /// alert, or the time taken, has a padding oracle, and Bleichenbacher's attack (1998) and
    /// its descendants (ROBOT 2017, Marvin 2023) turn such an oracle into the decryption of
    /// any ciphertext, or a signature with the key, after thousands to millions of queries.
    /// The padding check here is constant-time, but the caller's handling of the error
    /// almost never is. Use it only where no attacker can submit ciphertexts and observe the
    /// outcome (decrypting your own stored data, or test vectors); otherwise use
    /// [`Pkcs1v15Encrypt::new`] or, better, OAEP.
    pub fn explicit_rejection() -> Self {
        Pkcs1v15Encrypt {
            implicit_rejection: false,
        }
    }

    /// Whether decryption uses implicit rejection.
    pub fn implicit_rejection(&self) -> bool {
        self.implicit_rejection
    }

    /// The longest message this scheme encrypts under `key`: k − 11 bytes.
    pub fn max_message_len(&self, key: &RsaPublicKey) -> usize {
        key.size().saturating_sub(MIN_PS_LEN + 3)
    }

    /// RSAES-PKCS1-V1_5-ENCRYPT with the padding string PS given: what
    /// [`EncryptionScheme::encrypt`] does once it has drawn PS (the known-answer tests replay
    /// RSA Laboratories' PS through `encrypt`'s RNG).
    ///
    /// # Errors
    ///
    /// [`Error::MessageTooLong`] as for [`EncryptionScheme::encrypt`];
    /// [`Error::InvalidLength`] if `ps` is not k − mLen − 3 bytes; [`Error::Unsupported`] if
    /// it holds a zero byte.
    pub(crate) fn encrypt_with_padding(
        &self,
        key: &RsaPublicKey,
        msg: &[u8],
        ps: &[u8],
    ) -> Result<Vec<u8>> {
        let k = key.size();
        // RFC 8017 §7.2.1, step 1: mLen ≤ k − 11.
        if msg.len() > self.max_message_len(key) {
            return Err(Error::MessageTooLong);
        }
        let ps_len = k - msg.len() - 3;
        if ps.len() != ps_len {
            return Err(Error::InvalidLength {
                expected: ps_len,
                actual: ps.len(),
            });
        }
        if ps.contains(&0) {
            return Err(Error::Unsupported(
                "a PKCS #1 v1.5 padding string with a zero byte".into(),
            ));
        }
        // Step 2.b: EM = 0x00 ‖ 0x02 ‖ PS ‖ 0x00 ‖ M.
        let mut em = Zeroizing::new(vec![0u8; k]);
        em[1] = 0x02;
        em[2..2 + ps_len].copy_from_slice(ps);
        em[3 + ps_len..].copy_from_slice(msg);
        // Step 3: RSAEP; EM starts with 0x00, so it is below n.
        key.public_op(&em)
    }
}

/// The implicit-rejection message for `ciphertext` (exactly k bytes): the k-byte PRF output
/// whose last `len` bytes are the message, and `len` (secret, below k − 10).
fn synthetic_message(key: &RsaPrivateKey, ciphertext: &[u8]) -> Result<(Zeroizing<Vec<u8>>, u64)> {
    let k = key.size();
    let kdk = kdk(key, ciphertext);
    let message_bits =
        u16::try_from(8 * k).map_err(|_| Error::Unsupported("a modulus over 65535 bits".into()))?;
    let synthetic = prf(&kdk, b"message", message_bits);
    // 128 candidates of 16 bits.
    let candidates = prf(&kdk, b"length", LEN_CANDIDATES * 16);

    // max = k − 2 − 8 and the smallest mask 2^j − 1 ≥ max; both public.
    let max = u16::try_from(k - 2 - MIN_PS_LEN)
        .map_err(|_| Error::Unsupported("a modulus over 65535 bits".into()))?;
    let mut mask = max;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    // The last candidate below max wins (as OpenSSL's loop does).
    let mut len: u16 = 0;
    for pair in candidates.chunks_exact(2) {
        let candidate = u16::from_be_bytes([pair[0], pair[1]]) & mask;
        len.conditional_assign(&candidate, candidate.ct_lt(&max));
    }
    Ok((synthetic, u64::from(len)))
}

/// KDK = HMAC-SHA256(SHA-256(d as k big-endian bytes), ciphertext).
fn kdk(key: &RsaPrivateKey, ciphertext: &[u8]) -> Zeroizing<[u8; 32]> {
    let k = key.size();
    // d < n fits in k bytes; its limbs are little-endian, as many as n's.
    let mut d_be = Zeroizing::new(vec![0u8; k]);
    let d = key.crt().d();
    for (i, byte) in d_be.iter_mut().rev().enumerate() {
        *byte = d[i >> 3].to_le_bytes()[i & 7];
    }
    let mut d_hash = Zeroizing::new([0u8; 32]);
    d_hash.copy_from_slice(&Sha256::digest(d_be.as_slice()));
    let mut mac = hmac_sha256(&d_hash);
    mac.update(ciphertext);
    let mut out = Zeroizing::new([0u8; 32]);
    out.copy_from_slice(&mac.finalize().into_bytes());
    out
}

fn hmac_sha256(key: &[u8; 32]) -> Hmac<Sha256> {
    // HMAC takes a key of any length; a 32-byte one cannot fail.
    match <Hmac<Sha256> as KeyInit>::new_from_slice(key) {
        Ok(mac) => mac,
        Err(_) => unreachable!("HMAC accepts keys of every length"),
    }
}

/// The draft's IRPRF: HMAC-SHA256(KDK, i as 2 bytes ‖ label ‖ bits as 2 bytes) for
/// i = 0, 1, …, concatenated and cut to `bits / 8` bytes (`bits` is a multiple of 8).
fn prf(kdk: &[u8; 32], label: &[u8], bits: u16) -> Zeroizing<Vec<u8>> {
    let mut out = Zeroizing::new(vec![0u8; usize::from(bits >> 3)]);
    for (i, chunk) in out.chunks_mut(32).enumerate() {
        let mut mac = hmac_sha256(kdk);
        // At most 2048 / 32 = 64 blocks for a 16384-bit key.
        let counter = u16::try_from(i).unwrap_or(u16::MAX);
        mac.update(&counter.to_be_bytes());
        mac.update(label);
        mac.update(&bits.to_be_bytes());
        let block = mac.finalize().into_bytes();
        chunk.copy_from_slice(&block[..chunk.len()]);
    }
    out
}

impl EncryptSealed for Pkcs1v15Encrypt {
    /// RFC 8017 §7.2.2, step 1: the public length checks.
    fn check_ciphertext(&self, key: &RsaPrivateKey, ciphertext: &[u8]) -> Result<()> {
        let k = key.size();
        if ciphertext.len() != k || k < MIN_PS_LEN + 3 {
            return Err(Error::Decryption);
        }
        Ok(())
    }

    /// RFC 8017 §7.2.2, steps 2–3, after the private operation, whose result is `em`.
    fn unslice(
        &self,
        key: &RsaPrivateKey,
        ciphertext: &[u8],
        em: Result<Vec<u8>>,
    ) -> Result<Unsliced> {
        let k = key.size();
        // Step 2: RSADP (CRT, blinded, fault-checked). A fault stays a fault; c ≥ n is public
        // and an error under both kinds of rejection (OpenSSL does the same).
        let em = Zeroizing::new(match em {
            Ok(m) => m,
            Err(Error::Fault) => return Err(Error::Fault),
            Err(_) => return Err(Error::Decryption),
        });

        // Step 3, one verdict over every byte: EM = 0x00 ‖ 0x02 ‖ PS ‖ 0x00 ‖ M, with the first
        // zero after the two leading bytes as the separator and at least 8 bytes of PS.
        let mut valid = em[0].ct_eq(&0) & em[1].ct_eq(&2);
        let mut found = Choice::from(0);
        let mut sep: u64 = 0;
        for (i, &b) in (2u64..).zip(&em[2..]) {
            let is_zero = b.ct_eq(&0);
            sep.conditional_assign(&i, !found & is_zero);
            found |= is_zero;
        }
        // sep ≥ 2 + 8; with no separator sep = 0 fails this too.
        valid &= found & sep.ct_gt(&(MIN_PS_LEN as u64 + 1));
        // mLen = k − sep − 1 (meaningless, but in range, when the padding is bad).
        let k64 = k as u64;
        let len = k64 - sep - 1;

        if !self.implicit_rejection {
            return Ok(Unsliced {
                block: em,
                valid,
                len,
            });
        }

        let (synthetic, synthetic_len) = synthetic_message(key, ciphertext)?;
        let mut block = Zeroizing::new(vec![0u8; k]);
        for ((out, &m), &s) in block.iter_mut().zip(em.iter()).zip(synthetic.iter()) {
            *out = u8::conditional_select(&s, &m, valid);
        }
        Ok(Unsliced {
            block,
            valid: Choice::from(1),
            len: u64::conditional_select(&synthetic_len, &len, valid),
        })
    }
}

impl EncryptionScheme for Pkcs1v15Encrypt {
    /// RSAES-PKCS1-V1_5-ENCRYPT (RFC 8017 §7.2.1): PS of k − mLen − 3 non-zero random bytes
    /// from `rng` (a zero byte is drawn again).
    fn encrypt<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPublicKey,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        if msg.len() > self.max_message_len(key) {
            return Err(Error::MessageTooLong);
        }
        let mut ps = Zeroizing::new(vec![0u8; key.size() - msg.len() - 3]);
        rng.fill_bytes(&mut ps);
        for b in ps.iter_mut() {
            // Leaks: which bytes of the fresh PS were zero before being drawn again, not
            // their final values.
            while *b == 0 {
                let mut one = [0u8; 1];
                rng.fill_bytes(&mut one);
                *b = one[0];
            }
        }
        self.encrypt_with_padding(key, msg, &ps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    #[test]
    fn encrypt_with_padding_checks_its_padding() {
        let mut rng = ChaCha8Rng::from_seed([5; 32]);
        let key = RsaPrivateKey::generate(1024, &mut rng).unwrap();
        let (s, pk) = (Pkcs1v15Encrypt::new(), key.public_key());
        assert!(matches!(
            s.encrypt_with_padding(pk, b"abc", &[1; 10]),
            Err(Error::InvalidLength { .. })
        ));
        let mut ps = vec![1u8; 128 - 3 - 3];
        assert!(s.encrypt_with_padding(pk, b"abc", &ps).is_ok());
        ps[5] = 0;
        assert!(s.encrypt_with_padding(pk, b"abc", &ps).is_err());
    }
}
