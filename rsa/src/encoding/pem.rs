//! PEM (RFC 7468) through `der::pem` (the `pem-rfc7468` crate): the labels we know, decoding
//! into and encoding from buffers that are wiped on drop.

use crate::{Error, Result};
use der::pem::{self, LineEnding};
use zeroize::Zeroizing;

/// The PEM labels of the key formats (RFC 7468 §10, §11, §13; OpenSSL's "RSA" labels).
// The variants spell the labels, which all end in "KEY".
#[allow(clippy::enum_variant_names)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Label {
    /// `PRIVATE KEY`: PKCS #8 `PrivateKeyInfo`.
    PrivateKey,
    /// `ENCRYPTED PRIVATE KEY`: PKCS #8 `EncryptedPrivateKeyInfo`.
    EncryptedPrivateKey,
    /// `RSA PRIVATE KEY`: PKCS #1 `RSAPrivateKey`.
    RsaPrivateKey,
    /// `PUBLIC KEY`: `SubjectPublicKeyInfo`.
    PublicKey,
    /// `RSA PUBLIC KEY`: PKCS #1 `RSAPublicKey`.
    RsaPublicKey,
}

impl Label {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Label::PrivateKey => "PRIVATE KEY",
            Label::EncryptedPrivateKey => "ENCRYPTED PRIVATE KEY",
            Label::RsaPrivateKey => "RSA PRIVATE KEY",
            Label::PublicKey => "PUBLIC KEY",
            Label::RsaPublicKey => "RSA PUBLIC KEY",
        }
    }

    fn parse(label: &str) -> Option<Self> {
        [
            Label::PrivateKey,
            Label::EncryptedPrivateKey,
            Label::RsaPrivateKey,
            Label::PublicKey,
            Label::RsaPublicKey,
        ]
        .into_iter()
        .find(|l| l.as_str() == label)
    }
}

/// Longest label quoted back in an error message.
const MAX_QUOTED_LABEL: usize = 40;

/// Decodes one PEM block: text before the `-----BEGIN` line is allowed (RFC 7468 §2), lines
/// may end in LF, CRLF or CR, the base64 may be wrapped at any fixed width (OpenSSL and most
/// writers use 64), and blank space after the `-----END` line is ignored. The END label must
/// equal the BEGIN label. The decoded bytes are wiped on drop.
///
/// # Errors
///
/// [`Error::Encoding`] for a malformed block, an unknown label or bad base64;
/// [`Error::Unsupported`] for an encrypted (`Proc-Type: 4,ENCRYPTED`) legacy key.
pub(super) fn decode(input: &[u8]) -> Result<(Label, Zeroizing<Vec<u8>>)> {
    let end = input
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    // Keep one line ending after the END line, if there was one: the grammar allows it.
    let pem = match input.get(end..) {
        Some([b'\r', b'\n', ..]) => &input[..end + 2],
        Some([b'\n' | b'\r', ..]) => &input[..end + 1],
        _ => &input[..end],
    };
    let label = pem::decode_label(pem).map_err(pem_error)?;
    let label = Label::parse(label).ok_or_else(|| {
        let quoted: String = label.chars().take(MAX_QUOTED_LABEL).collect();
        Error::Encoding(format!(
            "PEM label \"{quoted}\" is not PRIVATE KEY, RSA PRIVATE KEY, PUBLIC KEY or \
             RSA PUBLIC KEY"
        ))
    })?;
    if has_headers(pem) {
        return Err(if label == Label::RsaPrivateKey {
            Error::Unsupported("encrypted private keys".into())
        } else {
            Error::Encoding("PEM: encapsulated headers (RFC 1421) are not supported".into())
        });
    }
    let mut decoder = pem::Decoder::new_detect_wrap(pem).map_err(pem_error)?;
    let mut buf = Zeroizing::new(vec![0u8; decoder.remaining_len()]);
    let len = decoder.decode(&mut buf).map_err(pem_error)?.len();
    if !decoder.is_finished() {
        return Err(Error::Encoding(
            "PEM: base64 text longer than its decoded length".into(),
        ));
    }
    buf.truncate(len);
    Ok((label, buf))
}

/// Encodes `der` as a PEM block with `label`, LF line endings and base64 in 64-column lines,
/// byte for byte as OpenSSL writes it. The output is wiped on drop.
pub(super) fn encode(label: Label, der: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let label = label.as_str();
    let len = pem::encoded_len(label, LineEnding::LF, der).map_err(pem_error)?;
    let mut buf = Zeroizing::new(vec![0u8; len]);
    let written = pem::encode(label, LineEnding::LF, der, &mut buf)
        .map_err(pem_error)?
        .len();
    buf.truncate(written);
    Ok(buf)
}

/// Whether the first line after the BEGIN line is an RFC 1421 header (`Proc-Type: ...`), as in
/// OpenSSL's legacy password-encrypted keys. Base64 never contains ':'.
fn has_headers(pem: &[u8]) -> bool {
    // Where pem-rfc7468 finds it: at the start, or at the start of a line.
    let begin = if pem.starts_with(b"-----BEGIN ") {
        0
    } else {
        match find(pem, b"\n-----BEGIN ") {
            Some(i) => i + 1,
            None => return false,
        }
    };
    let after = &pem[begin..];
    let body = match after.iter().position(|&b| b == b'\n' || b == b'\r') {
        Some(i) => &after[i..],
        None => return false,
    };
    let body = body.trim_ascii_start();
    let first_line = body
        .split(|&b| b == b'\n' || b == b'\r')
        .next()
        .unwrap_or_default();
    first_line.contains(&b':')
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn pem_error(e: pem::Error) -> Error {
    let detail = match e {
        pem::Error::Base64(_) => "invalid base64 in the PEM body".to_string(),
        pem::Error::PostEncapsulationBoundary => {
            "the -----END line is missing or its label does not match the -----BEGIN line"
                .to_string()
        }
        pem::Error::PreEncapsulationBoundary => "malformed -----BEGIN line".to_string(),
        pem::Error::Preamble => {
            "no -----BEGIN line at the start of a line (or a NUL byte before it)".to_string()
        }
        other => other.to_string(),
    };
    Error::Encoding(format!("PEM: {detail}"))
}
