//! RSASSA-PKCS1-v1_5 (RFC 8017 §8.2) with EMSA-PKCS1-v1_5 (§9.2).

use rand_core::{CryptoRng, TryCryptoRng};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::scheme::{Sealed, SignatureScheme};
use crate::sig::{RecordingRng, Signature};
use crate::{Error, HashAlg, Result, RsaPrivateKey, RsaPublicKey};

/// RSASSA-PKCS1-v1_5 signatures (RFC 8017 §8.2) with one hash of [`HashAlg`].
///
/// Signing runs the key's CRT private operation with blinding and the fault check
/// ([`RsaPrivateKey::private_op`]); verification recomputes the encoded message it expects and
/// compares it with s^e mod n byte for byte, so exactly one encoding is accepted for each
/// digest: the DER DigestInfo of RFC 8017 §9.2 note 1, with the NULL parameters.
///
/// SHA-1 is accepted for signing as well as verification, because the NIST and RSA
/// Laboratories known-answer vectors use it; new signatures should not (the `rsatool sign`
/// command refuses it).
///
/// ```
/// use rsa::{HashAlg, Pkcs1v15Sign, RsaPrivateKey};
///
/// let mut rng = rsa::os_rng();
/// let key = RsaPrivateKey::generate(1024, &mut rng)?;
/// let scheme = Pkcs1v15Sign::new(HashAlg::Sha256);
/// let sig = key.sign(&mut rng, &scheme, b"hello")?;
/// key.public_key().verify(&scheme, b"hello", &sig)?;
/// assert!(key.public_key().verify(&scheme, b"hullo", &sig).is_err());
/// # Ok::<(), rsa::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pkcs1v15Sign {
    hash: HashAlg,
}

impl Pkcs1v15Sign {
    /// The scheme with `hash` for the message digest.
    pub const fn new(hash: HashAlg) -> Self {
        Pkcs1v15Sign { hash }
    }

    /// EMSA-PKCS1-v1_5-ENCODE (RFC 8017 §9.2) of a digest, `em_len` bytes.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`] if the digest is not the hash's length;
    /// [`Error::MessageTooLong`] if `em_len` < tLen + 11.
    fn encode(&self, digest: &[u8], em_len: usize) -> Result<Zeroizing<Vec<u8>>> {
        let h_len = self.hash.output_len();
        if digest.len() != h_len {
            return Err(Error::InvalidLength {
                expected: h_len,
                actual: digest.len(),
            });
        }
        let Some(prefix) = digest_info_prefix(self.hash) else {
            return Err(Error::Unsupported(format!(
                "{} has no PKCS #1 v1.5 DigestInfo (use it with PSS)",
                self.hash
            )));
        };
        // Step 2: T = DigestInfo prefix ‖ H.
        let t_len = prefix.len() + h_len;
        // Step 3: emLen < tLen + 11 is "intended encoded message length too short".
        if em_len < t_len + 11 {
            return Err(Error::MessageTooLong);
        }
        // Steps 4–5: EM = 0x00 ‖ 0x01 ‖ PS ‖ 0x00 ‖ T, PS = emLen − tLen − 3 bytes 0xff.
        let ps_len = em_len - t_len - 3;
        let mut em = Zeroizing::new(Vec::with_capacity(em_len));
        em.extend_from_slice(&[0x00, 0x01]);
        em.resize(2 + ps_len, 0xff);
        em.push(0x00);
        em.extend_from_slice(prefix);
        em.extend_from_slice(digest);
        debug_assert_eq!(em.len(), em_len);
        Ok(em)
    }
}

impl Sealed for Pkcs1v15Sign {}

impl SignatureScheme for Pkcs1v15Sign {
    fn hash(&self) -> HashAlg {
        self.hash
    }

    /// RSASSA-PKCS1-V1_5-SIGN (RFC 8017 §8.2.1) of a digest.
    ///
    /// # Constant time
    ///
    /// The encoding depends on the (public) digest and the key size only; the private
    /// operation is [`RsaPrivateKey::private_op`]'s.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`] if the digest is not the hash's length,
    /// [`Error::MessageTooLong`] if the key is too small for the DigestInfo (k < tLen + 11),
    /// [`Error::Fault`] from the private operation.
    fn sign_digest<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        digest: &[u8],
    ) -> Result<Vec<u8>> {
        // Step 1: EM of k bytes; steps 2–3: s = RSASP1(K, OS2IP(EM)) as k bytes.
        let em = self.encode_for_signing(key, rng, digest)?;
        key.private_op(rng, &em)
    }

    fn encode_for_signing<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        _rng: &mut R,
        digest: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>> {
        self.encode(digest, key.size())
    }

    /// RSASSA-PKCS1-V1_5-VERIFY (RFC 8017 §8.2.2) of a digest.
    ///
    /// # Constant time
    ///
    /// No: the signature, the digest and the key are public. The final comparison is
    /// constant-time anyway.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`] if the digest is not the hash's length;
    /// [`Error::Verification`] for every invalid signature: of the wrong length, not below
    /// n, or whose s^e mod n is not the expected encoding (also when the key is too small
    /// for any encoding with this hash).
    fn verify_digest(&self, key: &RsaPublicKey, digest: &[u8], signature: &[u8]) -> Result<()> {
        let k = key.size();
        // Step 2.b of §8.2.2 can fail for the key size alone; step 3's digest length is a
        // caller error: check it first.
        let em_want = match self.encode(digest, k) {
            Ok(em) => em,
            Err(Error::MessageTooLong) => return Err(Error::Verification),
            Err(e) => return Err(e),
        };
        // Step 1: a signature of the wrong length is invalid. Step 2: s ≥ n is invalid too
        // (`public_op` refuses both).
        if signature.len() != k {
            return Err(Error::Verification);
        }
        let em = key.public_op(signature).map_err(|_| Error::Verification)?;
        // Step 4: compare EM and EM' whole (both k bytes): the OR of the byte differences,
        // one pass the compiler vectorises, then one constant-time test of it.
        let diff = em
            .iter()
            .zip(em_want.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
        if bool::from(diff.ct_eq(&0)) {
            Ok(())
        } else {
            Err(Error::Verification)
        }
    }
}

/// A private key with a [`Pkcs1v15Sign`] scheme, for RustCrypto's [`signature`] traits
/// ([`Signer`](signature::Signer) with the operating system's RNG for blinding,
/// [`RandomizedSigner`](signature::RandomizedSigner), [`Keypair`](signature::Keypair)).
#[derive(Clone)]
pub struct SigningKey {
    key: RsaPrivateKey,
    scheme: Pkcs1v15Sign,
}

impl SigningKey {
    /// PKCS #1 v1.5 signatures with `hash`.
    pub fn new(key: RsaPrivateKey, hash: HashAlg) -> Self {
        SigningKey {
            key,
            scheme: Pkcs1v15Sign::new(hash),
        }
    }

    /// The private key.
    pub fn key(&self) -> &RsaPrivateKey {
        &self.key
    }
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SigningKey")
            .field("bits", &self.key.bits())
            .field("scheme", &self.scheme)
            .finish_non_exhaustive()
    }
}

impl signature::Signer<Signature> for SigningKey {
    /// [`RsaPrivateKey::sign`], blinded with [`crate::os_rng`].
    ///
    /// # Errors
    ///
    /// As [`SignatureScheme::sign_digest`] (the [`Error`] as the source).
    fn try_sign(&self, msg: &[u8]) -> core::result::Result<Signature, signature::Error> {
        let mut rng = crate::os_rng();
        signature::RandomizedSigner::try_sign_with_rng(self, &mut rng, msg)
    }
}

impl signature::RandomizedSigner<Signature> for SigningKey {
    /// [`RsaPrivateKey::sign`], blinded with `rng`.
    ///
    /// # Errors
    ///
    /// If `rng` fails, or as [`SignatureScheme::sign_digest`] (the [`Error`] as the source).
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> core::result::Result<Signature, signature::Error> {
        let mut rng = RecordingRng::new(rng);
        let sig = self.key.sign(&mut rng, &self.scheme, msg);
        rng.finish(sig)
    }
}

impl signature::Keypair for SigningKey {
    type VerifyingKey = VerifyingKey;

    fn verifying_key(&self) -> VerifyingKey {
        VerifyingKey {
            key: self.key.public_key().clone(),
            scheme: self.scheme,
        }
    }
}

/// A public key with a [`Pkcs1v15Sign`] scheme, for RustCrypto's
/// [`Verifier`](signature::Verifier).
#[derive(Debug, Clone)]
pub struct VerifyingKey {
    key: RsaPublicKey,
    scheme: Pkcs1v15Sign,
}

impl VerifyingKey {
    /// PKCS #1 v1.5 verification with `hash`.
    pub fn new(key: RsaPublicKey, hash: HashAlg) -> Self {
        VerifyingKey {
            key,
            scheme: Pkcs1v15Sign::new(hash),
        }
    }

    /// The public key.
    pub fn key(&self) -> &RsaPublicKey {
        &self.key
    }
}

impl signature::Verifier<Signature> for VerifyingKey {
    /// [`RsaPublicKey::verify`].
    ///
    /// # Errors
    ///
    /// An opaque [`signature::Error`] for every invalid signature.
    fn verify(
        &self,
        msg: &[u8],
        signature: &Signature,
    ) -> core::result::Result<(), signature::Error> {
        self.key
            .verify(&self.scheme, msg, signature.as_bytes())
            .map_err(|_| signature::Error::new())
    }
}

/// The DER of DigestInfo up to the digest (RFC 8017 §9.2, note 1): SEQUENCE { SEQUENCE {
/// OID, NULL }, OCTET STRING (hLen bytes) } without the hLen digest bytes; None for SHAKE,
/// which PKCS #1 v1.5 does not define.
///
/// SHA-3's OIDs are NIST's id-sha3-224 .. id-sha3-512 (2.16.840.1.101.3.4.2.7 .. 10), with
/// NULL parameters as RFC 8017 A.2.4 asks of every hash (FIPS 186-5 §5.4 allows SHA-3 here).
/// NIST's ACVP sample sets write these prefixes with both SEQUENCE lengths two short
/// (`30 4f 30 0b ..` for SHA3-512: ACVP-Server issues 256 and 257); that is the server's bug,
/// not DER, and we sign and verify with the DER.
const fn digest_info_prefix(hash: HashAlg) -> Option<&'static [u8]> {
    Some(match hash {
        HashAlg::Sha1 => &[
            0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04,
            0x14,
        ],
        HashAlg::Sha224 => &[
            0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x04, 0x05, 0x00, 0x04, 0x1c,
        ],
        HashAlg::Sha256 => &[
            0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x01, 0x05, 0x00, 0x04, 0x20,
        ],
        HashAlg::Sha384 => &[
            0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x02, 0x05, 0x00, 0x04, 0x30,
        ],
        HashAlg::Sha512 => &[
            0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x03, 0x05, 0x00, 0x04, 0x40,
        ],
        HashAlg::Sha512_224 => &[
            0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x05, 0x05, 0x00, 0x04, 0x1c,
        ],
        HashAlg::Sha512_256 => &[
            0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x06, 0x05, 0x00, 0x04, 0x20,
        ],
        HashAlg::Sha3_224 => &[
            0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x07, 0x05, 0x00, 0x04, 0x1c,
        ],
        HashAlg::Sha3_256 => &[
            0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x08, 0x05, 0x00, 0x04, 0x20,
        ],
        HashAlg::Sha3_384 => &[
            0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x09, 0x05, 0x00, 0x04, 0x30,
        ],
        HashAlg::Sha3_512 => &[
            0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
            0x0a, 0x05, 0x00, 0x04, 0x40,
        ],
        HashAlg::Shake128 | HashAlg::Shake256 => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_info_prefixes_are_consistent_der() {
        // Each prefix is SEQUENCE(len = rest + hLen) { SEQUENCE { OID, NULL }, OCTET STRING
        // (hLen) }: the lengths must add up, whatever the OID.
        for alg in HashAlg::ALL.into_iter().chain(HashAlg::SHA3) {
            let p = digest_info_prefix(alg).unwrap();
            let h_len = alg.output_len();
            assert_eq!(p[0], 0x30, "{alg}");
            assert_eq!(usize::from(p[1]), p.len() - 2 + h_len, "{alg}");
            assert_eq!(p[2], 0x30, "{alg}");
            let alg_id_len = usize::from(p[3]);
            assert_eq!(p[4], 0x06, "{alg}");
            let oid_len = usize::from(p[5]);
            assert_eq!(alg_id_len, 2 + oid_len + 2, "{alg}");
            assert_eq!(&p[6 + oid_len..8 + oid_len], &[0x05, 0x00], "{alg}: NULL");
            assert_eq!(p[8 + oid_len], 0x04, "{alg}");
            assert_eq!(usize::from(p[9 + oid_len]), h_len, "{alg}");
            assert_eq!(p.len(), 10 + oid_len, "{alg}");
        }
    }

    #[test]
    fn sha3_prefixes_name_the_nist_oids_and_shake_has_none() {
        // id-sha3-224 .. id-sha3-512 are 2.16.840.1.101.3.4.2.7 .. .10 (NIST CSOR).
        for (alg, arc) in HashAlg::SHA3.into_iter().zip(7u8..) {
            let p = digest_info_prefix(alg).unwrap();
            assert_eq!(
                &p[6..15],
                &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, arc],
                "{alg}"
            );
        }
        for alg in HashAlg::SHAKE {
            assert_eq!(digest_info_prefix(alg), None);
            assert!(matches!(
                Pkcs1v15Sign::new(alg).encode(&[0; 64][..alg.output_len()], 512),
                Err(Error::Unsupported(_))
            ));
        }
    }

    #[test]
    fn encoding_fills_ps_and_refuses_short_lengths() {
        let s = Pkcs1v15Sign::new(HashAlg::Sha256);
        let d = [7u8; 32];
        // tLen = 19 + 32 = 51: 62 bytes is the shortest (PS of 8 bytes).
        let em = s.encode(&d, 62).unwrap();
        assert_eq!(
            &em[..10],
            &[0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        );
        assert_eq!(em[10], 0);
        assert_eq!(&em[30..], &d);
        assert_eq!(s.encode(&d, 61).unwrap_err(), Error::MessageTooLong);
        assert!(matches!(
            s.encode(&d[..31], 128),
            Err(Error::InvalidLength {
                expected: 32,
                actual: 31
            })
        ));
    }
}
