//! OpenSSL's legacy encrypted PEM (the "traditional" `-----BEGIN RSA PRIVATE KEY-----` with
//! RFC 1421 headers `Proc-Type: 4,ENCRYPTED` and `DEK-Info: CIPHER,IV`), read only.
//!
//! The key is OpenSSL's `EVP_BytesToKey` with MD5 and one iteration: with salt S the first
//! 8 bytes of the IV and P the password, D₁ = MD5(P ‖ S), Dᵢ = MD5(Dᵢ₋₁ ‖ P ‖ S), and the key
//! is the first bytes of D₁ ‖ D₂ ‖ …. The DER is then CBC-decrypted with PKCS #7 padding.
//! The ciphers are RustCrypto's `aes` and `des` (with `cbc`); MD5 is `md-5`. This weak key
//! derivation is why the format is read only: `rsatool` writes encrypted PKCS #8 instead.

use aes::cipher::{BlockModeDecrypt, KeyIvInit, block_padding::Pkcs7};
use alloc::{format, vec::Vec};
use md5::{Digest, Md5};
use zeroize::Zeroizing;

use crate::{Error, Result};

/// The DEK-Info ciphers OpenSSL writes for `openssl rsa -aes128|-aes192|-aes256|-des3`.
// The variants spell OpenSSL's names, which all end in "-CBC".
#[allow(clippy::enum_variant_names)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cipher {
    Aes128Cbc,
    Aes192Cbc,
    Aes256Cbc,
    DesEde3Cbc,
}

impl Cipher {
    fn parse(name: &str) -> Option<Self> {
        match name.to_ascii_uppercase().as_str() {
            "AES-128-CBC" => Some(Cipher::Aes128Cbc),
            "AES-192-CBC" => Some(Cipher::Aes192Cbc),
            "AES-256-CBC" => Some(Cipher::Aes256Cbc),
            "DES-EDE3-CBC" => Some(Cipher::DesEde3Cbc),
            _ => None,
        }
    }

    const fn key_len(self) -> usize {
        match self {
            Cipher::Aes128Cbc => 16,
            Cipher::Aes192Cbc | Cipher::DesEde3Cbc => 24,
            Cipher::Aes256Cbc => 32,
        }
    }

    const fn iv_len(self) -> usize {
        match self {
            Cipher::DesEde3Cbc => 8,
            _ => 16,
        }
    }
}

/// Decrypts the body of a legacy encrypted PEM block, given its `DEK-Info` header value.
///
/// # Errors
///
/// [`Error::Unsupported`] for a cipher other than AES-128/192/256-CBC and DES-EDE3-CBC;
/// [`Error::Encoding`] for a malformed `DEK-Info`; [`Error::BadPassword`] when the padding
/// is wrong after decryption (a wrong password, or damaged data).
pub(super) fn decrypt(dek_info: &str, password: &[u8], data: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let (name, iv_hex) = dek_info
        .split_once(',')
        .ok_or_else(|| Error::Encoding("PEM: DEK-Info is not CIPHER,IV (hexadecimal)".into()))?;
    let cipher = Cipher::parse(name.trim()).ok_or_else(|| {
        Error::Unsupported(format!(
            "legacy PEM encryption with {}; AES-128/192/256-CBC and DES-EDE3-CBC are read",
            name.trim()
        ))
    })?;
    let iv = hex(iv_hex.trim())
        .filter(|iv| iv.len() == cipher.iv_len())
        .ok_or_else(|| {
            Error::Encoding(format!(
                "PEM: the DEK-Info IV is not {} hexadecimal bytes",
                cipher.iv_len()
            ))
        })?;
    let key = bytes_to_key(password, &iv[..8], cipher.key_len());
    let mut buf = Zeroizing::new(data.to_vec());
    let len = match cipher {
        Cipher::Aes128Cbc => cbc_decrypt::<aes::Aes128>(&key, &iv, &mut buf),
        Cipher::Aes192Cbc => cbc_decrypt::<aes::Aes192>(&key, &iv, &mut buf),
        Cipher::Aes256Cbc => cbc_decrypt::<aes::Aes256>(&key, &iv, &mut buf),
        Cipher::DesEde3Cbc => cbc_decrypt::<des::TdesEde3>(&key, &iv, &mut buf),
    }
    .ok_or(Error::BadPassword)?;
    buf.truncate(len);
    Ok(buf)
}

/// CBC decryption in place with PKCS #7 padding: the plaintext's length, or `None` for bad
/// padding (or a key or IV of the wrong length, which the callers rule out).
pub(super) fn cbc_decrypt<C>(key: &[u8], iv: &[u8], buf: &mut [u8]) -> Option<usize>
where
    C: aes::cipher::BlockCipherDecrypt + aes::cipher::KeyInit,
    cbc::Decryptor<C>: KeyIvInit + BlockModeDecrypt,
{
    let dec = cbc::Decryptor::<C>::new_from_slices(key, iv).ok()?;
    dec.decrypt_padded::<Pkcs7>(buf).ok().map(<[u8]>::len)
}

/// OpenSSL's `EVP_BytesToKey(cipher, EVP_md5(), salt, password, 1)`: `len` key bytes.
fn bytes_to_key(password: &[u8], salt: &[u8], len: usize) -> Zeroizing<Vec<u8>> {
    let mut key = Zeroizing::new(Vec::with_capacity(len + 16));
    let mut prev: Option<Zeroizing<[u8; 16]>> = None;
    while key.len() < len {
        let mut h = Md5::new();
        if let Some(p) = &prev {
            h.update(p.as_slice());
        }
        h.update(password);
        h.update(salt);
        let d = Zeroizing::new(<[u8; 16]>::from(h.finalize()));
        key.extend_from_slice(d.as_slice());
        prev = Some(d);
    }
    key.truncate(len);
    key
}

/// Hexadecimal digits as bytes, `None` if any is not one or the count is odd.
pub(super) fn hex(s: &str) -> Option<Vec<u8>> {
    if s.len() & 1 == 1 {
        return None;
    }
    s.as_bytes()
        .chunks(2)
        .map(|pair| {
            let digit = |c: u8| char::from(c).to_digit(16);
            u8::try_from(digit(pair[0])? * 16 + digit(pair[1])?).ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_to_key_matches_openssl_enc_p() {
        // `openssl enc -aes-256-cbc -k password -S 0102030405060708 -md md5 -P` (OpenSSL 3.0).
        let key = bytes_to_key(b"password", &[1, 2, 3, 4, 5, 6, 7, 8], 32);
        assert_eq!(
            hex("E7B0971E52CA5CC8D0539FB3412F6316F7BA2E6EE293D9F3457B99436B51CE02"),
            Some(key.to_vec())
        );
    }

    #[test]
    fn malformed_dek_info_is_an_encoding_error() {
        for bad in [
            "AES-256-CBC",
            "AES-256-CBC,xyz",
            "AES-256-CBC,00",
            "RC2-CBC,0011",
        ] {
            assert!(decrypt(bad, b"p", &[0; 16]).is_err(), "{bad}");
        }
    }
}
