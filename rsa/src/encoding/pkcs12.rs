//! PKCS #12 password-based encryption of a PKCS #8 `EncryptedPrivateKeyInfo` (RFC 7292
//! appendix C, `pbeWithSHAAnd3-KeyTripleDES-CBC` and `pbeWithSHAAnd2-KeyTripleDES-CBC`), read
//! only: OpenSSL 1.0's default for `openssl pkcs8 -topk8`, and `-v1 PBE-SHA1-3DES` /
//! `PBE-SHA1-2DES` since. The `pkcs5` crate does not know these schemes.
//!
//! Key and IV come from RFC 7292 appendix B.2 with SHA-1 (u = 20 bytes of output, v = 64 bytes
//! of block): with D = v copies of the purpose byte ID (1: key, 2: IV), S the salt and P the
//! password each repeated to a multiple of v bytes, and I = S ‖ P,
//!
//!   Aᵢ = SHA-1ʳ(D ‖ I)  (r iterations),  then every v-byte block Iⱼ of I becomes
//!   Iⱼ + B + 1 mod 2^(8v), B being Aᵢ repeated to v bytes,
//!
//! and the output is the first bytes of A₁ ‖ A₂ ‖ …. The password enters as a BMPString:
//! UTF-16 big-endian with two zero bytes at the end, as OpenSSL's `OPENSSL_utf82uni` makes it
//! (bytes that are not UTF-8 count as Latin-1, its fallback). The DER inside is then
//! Triple-DES-CBC decrypted with PKCS #7 padding. A weak, SHA-1-based derivation: never
//! written, `rsatool` writes PBES2 (PBKDF2-HMAC-SHA256, AES-256-CBC).

use alloc::{format, vec::Vec};
use der::asn1::{AnyRef, ObjectIdentifier, OctetStringRef};
use der::{Decode, Reader, SliceReader, Tag, Tagged};
use sha1::{Digest, Sha1};
use spki::AlgorithmIdentifierRef;
use zeroize::Zeroizing;

use super::der_error::der_error;
use crate::{Error, Result};

/// `pbeWithSHAAnd3-KeyTripleDES-CBC` (RFC 7292 appendix C).
const PBE_SHA1_3DES: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.1.3");
/// `pbeWithSHAAnd2-KeyTripleDES-CBC` (RFC 7292 appendix C).
const PBE_SHA1_2DES: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.1.4");
/// The arc of the PKCS #12 PBE schemes (RC2 and RC4 ones too, which are not read).
const PKCS12_PBE_ARC: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.1");

/// SHA-1's output (u) and block (v) sizes in bytes.
const U: usize = 20;
const V: usize = 64;

/// The most iterations accepted: far above what any tool writes (OpenSSL: 2048), low enough
/// that a hostile file cannot keep the reader busy for hours.
const MAX_ITERATIONS: u32 = 10_000_000;

/// Whether an `EncryptedPrivateKeyInfo`'s algorithm is in the PKCS #12 PBE arc; anything
/// else (PBES2, PBES1) is the `pkcs5` crate's to read.
pub(super) fn is_pkcs12_pbe(der: &[u8]) -> bool {
    outer(der).is_ok_and(|(alg, _)| alg.oid.parent() == Some(PKCS12_PBE_ARC))
}

/// `EncryptedPrivateKeyInfo ::= SEQUENCE { AlgorithmIdentifier, OCTET STRING }`.
fn outer(der: &[u8]) -> der::Result<(AlgorithmIdentifierRef<'_>, &[u8])> {
    let mut reader = SliceReader::new(der)?;
    let parts = reader.sequence(|r| {
        let alg = AlgorithmIdentifierRef::decode(r)?;
        let data = <&OctetStringRef>::decode(r)?;
        Ok::<_, der::Error>((alg, data.as_bytes()))
    })?;
    reader.finish()?;
    Ok(parts)
}

/// Decrypts a PKCS #12-PBE `EncryptedPrivateKeyInfo`: the DER of the `PrivateKeyInfo`.
///
/// # Errors
///
/// [`Error::Encoding`] for a malformed structure or parameters, [`Error::Unsupported`] for a
/// PKCS #12 scheme other than the two Triple-DES ones, [`Error::BadPassword`] when the
/// padding is wrong after decryption.
pub(super) fn decrypt(der: &[u8], password: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let context = "PKCS #8 EncryptedPrivateKeyInfo";
    let (alg, data) = outer(der).map_err(|e| der_error(context, e))?;
    let key_len = match alg.oid {
        PBE_SHA1_3DES => 24,
        PBE_SHA1_2DES => 16,
        other => {
            return Err(Error::Unsupported(format!(
                "encrypted private key: PKCS #12 scheme {other}; of these only \
                 pbeWithSHAAnd3-KeyTripleDES-CBC and pbeWithSHAAnd2-KeyTripleDES-CBC are read"
            )));
        }
    };
    let params = alg
        .parameters
        .ok_or_else(|| Error::Encoding(format!("{context}: PKCS #12 PBE without parameters")))?;
    let (salt, iterations) =
        pbe_params(params).map_err(|e| der_error("PKCS #12 PBE parameters", e))?;
    if !(1..=MAX_ITERATIONS).contains(&iterations) {
        return Err(Error::Encoding(format!(
            "PKCS #12 PBE parameters: {iterations} iterations (1 to {MAX_ITERATIONS} are read)"
        )));
    }
    if data.is_empty() || data.len() & 7 != 0 {
        return Err(Error::Encoding(format!(
            "{context}: the ciphertext is not whole 8-byte Triple-DES blocks"
        )));
    }
    let bmp = bmp_password(password);
    let key = derive(&bmp, salt, iterations, 1, key_len);
    let iv = derive(&bmp, salt, iterations, 2, 8);
    let mut buf = Zeroizing::new(data.to_vec());
    let len = if key_len == 24 {
        super::legacy::cbc_decrypt::<des::TdesEde3>(&key, &iv, &mut buf)
    } else {
        super::legacy::cbc_decrypt::<des::TdesEde2>(&key, &iv, &mut buf)
    }
    .ok_or(Error::BadPassword)?;
    buf.truncate(len);
    Ok(buf)
}

/// `pkcs-12PbeParams ::= SEQUENCE { salt OCTET STRING, iterations INTEGER }` (RFC 7292
/// appendix C): the salt and the iteration count.
fn pbe_params(params: AnyRef<'_>) -> der::Result<(&[u8], u32)> {
    params.tag().assert_eq(Tag::Sequence)?;
    let mut reader = SliceReader::new(params.value())?;
    let salt = <&OctetStringRef>::decode(&mut reader)?;
    let iterations = u32::decode(&mut reader)?;
    reader.finish()?;
    Ok((salt.as_bytes(), iterations))
}

/// The password as a BMPString with its two-byte terminator, as OpenSSL's `OPENSSL_utf82uni`:
/// UTF-16BE of the UTF-8 text (surrogate pairs beyond U+FFFF), or, when the bytes are not
/// UTF-8, each byte as one 16-bit unit (`OPENSSL_asc2uni`).
fn bmp_password(password: &[u8]) -> Zeroizing<Vec<u8>> {
    let mut out = Zeroizing::new(Vec::with_capacity(password.len().saturating_mul(2) + 2));
    match core::str::from_utf8(password) {
        Ok(text) => {
            for unit in text.encode_utf16() {
                out.extend_from_slice(&unit.to_be_bytes());
            }
        }
        Err(_) => {
            for &b in password {
                out.extend_from_slice(&[0, b]);
            }
        }
    }
    out.extend_from_slice(&[0, 0]);
    out
}

/// RFC 7292 appendix B.2 with SHA-1: `len` bytes for purpose `id` (1: key, 2: IV, 3: MAC key)
/// from the BMPString password `bmp` and `salt`, `iterations` times.
fn derive(bmp: &[u8], salt: &[u8], iterations: u32, id: u8, len: usize) -> Zeroizing<Vec<u8>> {
    // Steps 1-4: D, and I = S ‖ P, each of S and P repeated to a whole number of v-byte blocks.
    let d = [id; V];
    let fill = |src: &[u8]| -> Vec<u8> {
        let blocks = src.len().div_ceil(V);
        src.iter().copied().cycle().take(blocks * V).collect()
    };
    let mut i = Zeroizing::new(fill(salt));
    i.extend_from_slice(&Zeroizing::new(fill(bmp)));
    let mut out = Zeroizing::new(Vec::with_capacity(len + U));
    loop {
        // Step 6.a: A = H^r(D ‖ I).
        let mut a = Zeroizing::new(<[u8; U]>::from(
            Sha1::new().chain_update(d).chain_update(&*i).finalize(),
        ));
        for _ in 1..iterations {
            *a = Sha1::digest(&a[..]).into();
        }
        out.extend_from_slice(&*a);
        if out.len() >= len {
            break;
        }
        // Steps 6.b-c: B = A repeated to v bytes; each block Iⱼ = Iⱼ + B + 1 mod 2^(8v).
        let b: Zeroizing<Vec<u8>> = Zeroizing::new(a.iter().copied().cycle().take(V).collect());
        for block in i.chunks_exact_mut(V) {
            let mut carry = 1u16;
            for (x, y) in block.iter_mut().rev().zip(b.iter().rev()) {
                let sum = u16::from(*x) + u16::from(*y) + carry;
                *x = sum.to_le_bytes()[0];
                carry = sum >> 8;
            }
        }
    }
    out.truncate(len);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bmp_password_is_utf16_big_endian_with_a_terminator() {
        assert_eq!(bmp_password(b"").as_slice(), &[0, 0]);
        assert_eq!(bmp_password(b"ab").as_slice(), &[0, 0x61, 0, 0x62, 0, 0]);
        // é (U+00E9) and 𝄞 (U+1D11E, a surrogate pair).
        assert_eq!(
            bmp_password("é𝄞".as_bytes()).as_slice(),
            &[0x00, 0xe9, 0xd8, 0x34, 0xdd, 0x1e, 0, 0]
        );
        // Not UTF-8: each byte a unit, as OpenSSL's asc2uni fallback.
        assert_eq!(bmp_password(&[0xff]).as_slice(), &[0, 0xff, 0, 0]);
    }

    fn hex(s: &str) -> Vec<u8> {
        super::super::legacy::hex(s).expect("hex")
    }

    #[test]
    fn derive_matches_rfc_7292_b2_computed_independently() {
        // The first three are the PKCS #12 key-generation vectors that OpenSSL's and Bouncy
        // Castle's tests carry ("smeg", "queeg"); all were recomputed from RFC 7292 B.2 with
        // Python's hashlib: `python3 kdf.py`, a direct transcription of B.2 steps 1-7 with
        // `hashlib.sha1`, v = 64, the password as `pw.encode('utf-16-be') + b'\0\0'`.
        let cases: [(&str, &str, u32, u8, &str); 5] = [
            (
                "smeg",
                "0A58CF64530D823F",
                1,
                1,
                "8AAAE6297B6CB04642AB5B077851284EB7128F1A2A7FBCA3",
            ),
            ("smeg", "0A58CF64530D823F", 1, 2, "79993DFE048D3B76"),
            (
                "queeg",
                "05DEC959ACFF72F7",
                1000,
                1,
                "ED2034E36328830FF09DF1E1A07DD357185DAC0D4F9EB3D4",
            ),
            // Two blocks of password (82 bytes) and a 48-byte output: step 6.c's update of I.
            (
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                "00112233445566778899aabbccddeeff",
                3,
                1,
                "432633C38AB6C10840CFB68566524EF8DB4AB3E5755AD0D7FF844F25D9C4A1D45043913101A446662DE524A111C2B02B",
            ),
            (
                "x",
                "0102030405060708",
                2048,
                1,
                "09D4AE05C64E1BDF1754A43FE15340B8786B7294F078B4D46B14A26BFE831A80477EDA2A430DC478\
                 BCF4A56FAFC9BF50F2E654D7AB85CF261FEA21FF20B4FC452A928CBADB8197E4BB39D47A313E09E1\
                 40E4D4D36B227E9EFDA8614F3E6D3332B9942E09",
            ),
        ];
        for (pw, salt, iterations, id, want) in cases {
            let want = hex(want);
            let got = derive(
                &bmp_password(pw.as_bytes()),
                &hex(salt),
                iterations,
                id,
                want.len(),
            );
            assert_eq!(got.as_slice(), want.as_slice(), "{pw} {salt} {id}");
        }
    }

    #[test]
    fn malformed_pkcs12_pbe_is_an_error_not_a_panic() {
        assert!(!is_pkcs12_pbe(&[]));
        assert!(!is_pkcs12_pbe(&[0x30, 0x00]));
        for bad in [&[0x30, 0x00][..], &[0x30, 0x03, 0x02, 0x01, 0x00], &[]] {
            assert!(decrypt(bad, b"pw").is_err());
        }
    }
}
