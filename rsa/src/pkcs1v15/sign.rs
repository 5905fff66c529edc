//! RSASSA-PKCS1-v1_5 (RFC 8017 §8.2) with EMSA-PKCS1-v1_5 (§9.2).

use alloc::{format, vec, vec::Vec};
use core::marker::PhantomData;

use rand_core::CryptoRng;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::hazmat::PublicOp;
use crate::scheme::{SignSealed, SignatureScheme};
use crate::typed_signature::Signature;
use crate::{Error, HashAlg, KnownDigest, Result, RsaPrivateKey, RsaPublicKey};

/// RSASSA-PKCS1-v1_5 signatures (RFC 8017 §8.2) with one hash of [`HashAlg`].
///
/// Signing runs the key's CRT private operation with blinding and the fault check
/// ([`PrivateOp::private_op`](crate::hazmat::PrivateOp::private_op)); verification
/// recomputes the encoded message it expects and compares it with s^e mod n byte for byte, so
/// exactly one encoding is accepted for each digest: the DER DigestInfo of RFC 8017 §9.2
/// note 1, with the NULL parameters.
///
/// SHA-1 is accepted for signing as well as verification, because the NIST and RSA
/// Laboratories known-answer vectors use it; new signatures should not (the `rsatool sign`
/// command refuses it).
///
/// ```
/// use rsatool_rsa::{HashAlg, Pkcs1v15Sign, RsaPrivateKey};
///
/// let mut rng = rsatool_rsa::os_rng();
/// let key = RsaPrivateKey::generate(1024, &mut rng)?;
/// let scheme = Pkcs1v15Sign::new(HashAlg::Sha256);
/// let sig = key.sign(&mut rng, &scheme, b"hello")?;
/// key.public_key().verify(&scheme, b"hello", &sig)?;
/// assert!(key.public_key().verify(&scheme, b"hullo", &sig).is_err());
/// # Ok::<(), rsatool_rsa::Error>(())
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
        emsa_pkcs1v15(&prefix, digest, em_len)
    }
}

/// EMSA-PKCS1-v1_5-ENCODE (RFC 8017 §9.2) steps 2–5 of T = `prefix` ‖ `digest` in `em_len`
/// bytes: EM = 0x00 ‖ 0x01 ‖ PS ‖ 0x00 ‖ T, PS being emLen − tLen − 3 (at least 8) bytes 0xff.
/// `prefix` is a DigestInfo header ([`digest_info_prefix_of`]), or empty for the
/// "unprefixed" signatures some protocols use. For schemes defined over this encoding with a
/// prefix of their own (RustCrypto's `Pkcs1v15Sign { prefix, .. }`); [`Pkcs1v15Sign`] uses it.
///
/// # Errors
///
/// [`Error::MessageTooLong`] if emLen < tLen + 11 (step 3).
pub fn emsa_pkcs1v15(prefix: &[u8], digest: &[u8], em_len: usize) -> Result<Zeroizing<Vec<u8>>> {
    // Step 2: T = prefix ‖ H. Step 3: emLen < tLen + 11 is "intended encoded message length
    // too short".
    let t_len = prefix.len().saturating_add(digest.len());
    let Some(ps_len) = em_len.checked_sub(t_len).and_then(|x| x.checked_sub(3)) else {
        return Err(Error::MessageTooLong);
    };
    if ps_len < 8 {
        return Err(Error::MessageTooLong);
    }
    // Steps 4–5.
    let mut em = Zeroizing::new(Vec::with_capacity(em_len));
    em.extend_from_slice(&[0x00, 0x01]);
    em.resize(2 + ps_len, 0xff);
    em.push(0x00);
    em.extend_from_slice(prefix);
    em.extend_from_slice(digest);
    debug_assert_eq!(em.len(), em_len);
    Ok(em)
}

/// The DER of DigestInfo up to the digest (RFC 8017 §9.2, note 1) for the hash whose
/// OBJECT IDENTIFIER has the content octets `oid` (its DER without tag and length) and whose
/// digest has `hash_len` bytes: SEQUENCE { SEQUENCE { OID, NULL }, OCTET STRING (hLen) }
/// without the digest. For hashes this crate does not name (a RustCrypto `D: AssociatedOid`).
pub fn digest_info_prefix_of(oid: &[u8], hash_len: usize) -> Vec<u8> {
    let mut alg = vec![0x06];
    der_len(&mut alg, oid.len());
    alg.extend_from_slice(oid);
    alg.extend_from_slice(&[0x05, 0x00]);
    let mut body = vec![0x30];
    der_len(&mut body, alg.len());
    body.extend_from_slice(&alg);
    body.push(0x04);
    der_len(&mut body, hash_len);
    // The outer SEQUENCE's length counts the digest, which follows the prefix.
    let mut prefix = vec![0x30];
    der_len(&mut prefix, body.len() + hash_len);
    prefix.extend_from_slice(&body);
    prefix
}

/// Appends the DER length octets of `len` (X.690 §8.1.3): one byte below 128, else 0x80 + the
/// count of big-endian bytes that follow, then those bytes.
fn der_len(out: &mut Vec<u8>, len: usize) {
    let bytes = len.to_be_bytes();
    let skip = bytes.iter().take_while(|&&b| b == 0).count();
    match u8::try_from(len) {
        Ok(short) if short < 0x80 => out.push(short),
        _ => {
            // At most 8 bytes follow: 0x81..=0x88.
            out.push(0x80 | u8::try_from(bytes.len() - skip).unwrap_or(8));
            out.extend_from_slice(&bytes[skip..]);
        }
    }
}

impl SignSealed for Pkcs1v15Sign {
    /// Step 1 of RSASSA-PKCS1-V1_5-SIGN (RFC 8017 §8.2.1): EM, k bytes, of a digest;
    /// [`SignatureScheme::sign_digest`] does the rest.
    ///
    /// # Constant time
    ///
    /// The encoding depends on the (public) digest and the key size only.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`] if the digest is not the hash's length,
    /// [`Error::MessageTooLong`] if the key is too small for the DigestInfo (k < tLen + 11).
    fn encode_for_signing<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        _rng: &mut R,
        digest: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>> {
        self.encode(digest, key.size())
    }
}

impl SignatureScheme for Pkcs1v15Sign {
    fn hash(&self) -> HashAlg {
        self.hash
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

/// A private key typed by its hash `D` for PKCS #1 v1.5 signatures, as RustCrypto's `rsa`
/// spells it: [`Signer`](signature::Signer) (blinded with [`crate::os_rng`]),
/// [`RandomizedSigner`](signature::RandomizedSigner),
/// [`DigestSigner`](signature::DigestSigner),
/// [`RandomizedDigestSigner`](signature::RandomizedDigestSigner),
/// [`PrehashSigner`](signature::hazmat::PrehashSigner) and
/// [`Keypair`](signature::Keypair). The run-time form is [`Pkcs1v15Sign`] with
/// [`RsaPrivateKey::sign`].
///
/// ```
/// use rsatool_rsa::pkcs1v15::{Signature, SigningKey, VerifyingKey};
/// use rsatool_rsa::sha2::{Digest, Sha256};
/// use rsatool_rsa::signature::{
///     DigestSigner, DigestVerifier, Keypair, RandomizedSigner, SignatureEncoding, Signer,
///     Verifier, hazmat::PrehashSigner, hazmat::PrehashVerifier,
/// };
///
/// let mut rng = rsatool_rsa::os_rng();
/// let key = rsatool_rsa::RsaPrivateKey::new(&mut rng, 1024)?;
/// let signing_key = SigningKey::<Sha256>::new(key);
/// let verifying_key: VerifyingKey<Sha256> = signing_key.verifying_key();
///
/// // Signer / RandomizedSigner and Verifier: the message is hashed with SHA-256.
/// let sig = signing_key.sign_with_rng(&mut rng, b"hello");
/// verifying_key.verify(b"hello", &sig)?;
/// assert!(verifying_key.verify(b"hullo", &sig).is_err());
/// // PKCS #1 v1.5 is deterministic: every signer gives the same bytes.
/// assert_eq!(signing_key.sign(b"hello").to_bytes(), sig.to_bytes());
///
/// // DigestSigner / DigestVerifier: the caller feeds the hash.
/// let sig2: Signature = signing_key.sign_digest(|d: &mut Sha256| d.update(b"hello"));
/// assert_eq!(sig2, sig);
/// verifying_key.verify_digest(
///     |d: &mut Sha256| {
///         d.update(b"hello");
///         Ok(())
///     },
///     &sig,
/// )?;
///
/// // PrehashSigner / PrehashVerifier: the caller passes the digest.
/// let digest = Sha256::digest(b"hello");
/// assert_eq!(signing_key.sign_prehash(&digest)?, sig);
/// verifying_key.verify_prehash(&digest, &sig)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SigningKey<D: KnownDigest> {
    key: RsaPrivateKey,
    scheme: Pkcs1v15Sign,
    digest: PhantomData<fn() -> D>,
}

impl<D: KnownDigest> SigningKey<D> {
    /// PKCS #1 v1.5 signatures of `D` digests with `key`.
    pub fn new(key: RsaPrivateKey) -> Self {
        SigningKey {
            key,
            scheme: Pkcs1v15Sign::new(D::HASH),
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

    /// The private key.
    pub fn key(&self) -> &RsaPrivateKey {
        &self.key
    }
}

/// A public key typed by its hash `D` for PKCS #1 v1.5 signatures:
/// [`Verifier`](signature::Verifier), [`DigestVerifier`](signature::DigestVerifier),
/// [`PrehashVerifier`](signature::hazmat::PrehashVerifier). See [`SigningKey`] for an
/// example.
pub struct VerifyingKey<D: KnownDigest> {
    key: RsaPublicKey,
    scheme: Pkcs1v15Sign,
    digest: PhantomData<fn() -> D>,
}

impl<D: KnownDigest> VerifyingKey<D> {
    /// PKCS #1 v1.5 verification of `D` digests with `key`.
    pub fn new(key: RsaPublicKey) -> Self {
        VerifyingKey {
            key,
            scheme: Pkcs1v15Sign::new(D::HASH),
            digest: PhantomData,
        }
    }

    /// The public key.
    pub fn key(&self) -> &RsaPublicKey {
        &self.key
    }
}

crate::typed_keys::signature_key_impls!(SigningKey, VerifyingKey);

/// The DER of DigestInfo up to the digest (RFC 8017 §9.2, note 1), built by
/// [`digest_info_prefix_of`] from the hash's OID (`HashAlg::oid_content`); None for SHAKE,
/// which PKCS #1 v1.5 does not define.
///
/// SHA-3's OIDs are NIST's id-sha3-224 .. id-sha3-512 (2.16.840.1.101.3.4.2.7 .. 10), with
/// NULL parameters as RFC 8017 A.2.4 asks of every hash (FIPS 186-5 §5.4 allows SHA-3 here).
/// NIST's ACVP sample sets write these prefixes with both SEQUENCE lengths two short
/// (`30 4f 30 0b ..` for SHA3-512: ACVP-Server issues 256 and 257); that is the server's bug,
/// not DER, and we sign and verify with the DER.
fn digest_info_prefix(hash: HashAlg) -> Option<Vec<u8>> {
    (!hash.is_shake()).then(|| digest_info_prefix_of(&hash.oid_content(), hash.output_len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_info_prefixes_are_rfc_8017_s() {
        // RFC 8017 §9.2 note 1, the DigestInfo prefixes written out there.
        for (alg, rfc) in [
            (HashAlg::Sha1, "3021300906052b0e03021a05000414"),
            (HashAlg::Sha224, "302d300d06096086480165030402040500041c"),
            (HashAlg::Sha256, "3031300d060960864801650304020105000420"),
            (HashAlg::Sha384, "3041300d060960864801650304020205000430"),
            (HashAlg::Sha512, "3051300d060960864801650304020305000440"),
            (
                HashAlg::Sha512_224,
                "302d300d06096086480165030402050500041c",
            ),
            (
                HashAlg::Sha512_256,
                "3031300d060960864801650304020605000420",
            ),
        ] {
            let want: Vec<u8> = (0..rfc.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&rfc[i..i + 2], 16).unwrap())
                .collect();
            assert_eq!(digest_info_prefix(alg).unwrap(), want, "{alg}");
        }
        // Long-form lengths: a 200-byte "digest".
        let p = digest_info_prefix_of(&[0x2a, 0x03], 200);
        // Inner: 30 06 (06 02 2a 03 05 00) 04 81 c8 = 11 bytes, plus the 200 of the digest.
        assert_eq!(&p[..3], &[0x30, 0x81, 211]);
        assert_eq!(&p[p.len() - 3..], &[0x04, 0x81, 200]);
    }

    #[test]
    fn emsa_pkcs1v15_lays_out_em_and_refuses_a_short_one() {
        let em = emsa_pkcs1v15(&[0xaa, 0xbb], &[1, 2, 3], 16).unwrap();
        assert_eq!(
            &em[..],
            &[
                0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0xaa, 0xbb, 1, 2, 3
            ]
        );
        assert_eq!(
            emsa_pkcs1v15(&[0xaa, 0xbb], &[1, 2, 3], 15).unwrap_err(),
            Error::MessageTooLong
        );
        assert_eq!(
            emsa_pkcs1v15(&[], &[0; 64], 10).unwrap_err(),
            Error::MessageTooLong
        );
    }

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
