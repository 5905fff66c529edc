//! PEM (RFC 7468) through `der::pem` (the `pem-rfc7468` crate): the labels we know, the
//! blocks of a file (which may hold several, as a certificate with its key), decoding into
//! and encoding from buffers that are wiped on drop.

use crate::{Error, Result};
use alloc::borrow::ToOwned;
use alloc::string::ToString;
use alloc::{format, string::String, vec, vec::Vec};
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
    /// `CERTIFICATE`: an X.509 certificate (RFC 5280), for its public key.
    Certificate,
}

impl Label {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Label::PrivateKey => "PRIVATE KEY",
            Label::EncryptedPrivateKey => "ENCRYPTED PRIVATE KEY",
            Label::RsaPrivateKey => "RSA PRIVATE KEY",
            Label::PublicKey => "PUBLIC KEY",
            Label::RsaPublicKey => "RSA PUBLIC KEY",
            Label::Certificate => "CERTIFICATE",
        }
    }

    fn parse(label: &str) -> Option<Self> {
        [
            Label::PrivateKey,
            Label::EncryptedPrivateKey,
            Label::RsaPrivateKey,
            Label::PublicKey,
            Label::RsaPublicKey,
            Label::Certificate,
        ]
        .into_iter()
        .find(|l| l.as_str() == label)
    }
}

/// Longest label quoted back in an error message.
const MAX_QUOTED_LABEL: usize = 40;

/// One PEM block of a file that may hold several (a certificate and its key, a chain).
pub(super) struct Block {
    /// The label, if it is one of ours (`None`: another kind of block, skipped).
    pub(super) label: Option<Label>,
    /// The label as written.
    pub(super) text_label: String,
    /// The RFC 1421 headers (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: ...`), if any.
    pub(super) headers: Vec<(String, String)>,
    /// The block rebuilt without headers, LF line endings: what `pem-rfc7468` decodes.
    normalized: Zeroizing<Vec<u8>>,
}

impl Block {
    /// The header `name` (case-insensitive), if present.
    pub(super) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The block's base64 decoded; wiped on drop.
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] for bad base64.
    pub(super) fn decode(&self) -> Result<Zeroizing<Vec<u8>>> {
        let mut decoder = pem::Decoder::new_detect_wrap(&self.normalized).map_err(pem_error)?;
        let mut buf = Zeroizing::new(vec![0u8; decoder.remaining_len()]);
        let len = decoder.decode(&mut buf).map_err(pem_error)?.len();
        if !decoder.is_finished() {
            return Err(Error::Encoding(
                "PEM: base64 text longer than its decoded length".into(),
            ));
        }
        buf.truncate(len);
        Ok(buf)
    }
}

/// Every PEM block of the input, in order (RFC 7468 §2: text before, between and after the
/// blocks is allowed and skipped). Lines may end in LF, CRLF or CR; the base64 may be wrapped
/// at any fixed width. Each `-----BEGIN X-----` line must be followed by its `-----END
/// X-----` line.
///
/// # Errors
///
/// [`Error::Encoding`] for a NUL byte, when there is no block at all, when a block is cut off before its END
/// line ("truncated"), or when its END label differs from its BEGIN label.
pub(super) fn blocks(input: &[u8]) -> Result<Vec<Block>> {
    // PEM is text: a NUL byte means a binary file, not text around a block.
    if input.contains(&0) {
        return Err(Error::Encoding("PEM: a NUL byte in the text".into()));
    }
    let mut lines = input
        .split(|&b| b == b'\n' || b == b'\r')
        .map(<[u8]>::trim_ascii);
    let mut found = Vec::new();
    while let Some(line) = lines.next() {
        let Some(label) = boundary(line, b"-----BEGIN ") else {
            continue;
        };
        let label = String::from_utf8_lossy(label).into_owned();
        let quoted: String = label.chars().take(MAX_QUOTED_LABEL).collect();
        let mut headers = Vec::new();
        let mut body: Vec<&[u8]> = Vec::new();
        let mut ended = false;
        for line in lines.by_ref() {
            if let Some(end) = boundary(line, b"-----END ") {
                if end != label.as_bytes() {
                    return Err(Error::Encoding(format!(
                        "PEM: the label of the -----END line does not match the -----BEGIN \
                         line (\"{quoted}\")"
                    )));
                }
                ended = true;
                break;
            }
            if line.starts_with(b"-----BEGIN ") {
                break;
            }
            // RFC 1421 headers come first, before a blank line; base64 never has ':'.
            match line.iter().position(|&b| b == b':') {
                Some(i) if body.is_empty() => headers.push((
                    String::from_utf8_lossy(&line[..i]).trim().to_owned(),
                    String::from_utf8_lossy(&line[i + 1..]).trim().to_owned(),
                )),
                _ if line.is_empty() => {}
                _ => body.push(line),
            }
        }
        if !ended {
            return Err(Error::Encoding(format!(
                "PEM: truncated: the \"{quoted}\" block has no -----END line"
            )));
        }
        let mut normalized = Zeroizing::new(Vec::new());
        normalized.extend_from_slice(format!("-----BEGIN {label}-----\n").as_bytes());
        for line in &body {
            normalized.extend_from_slice(line);
            normalized.push(b'\n');
        }
        normalized.extend_from_slice(format!("-----END {label}-----\n").as_bytes());
        found.push(Block {
            label: Label::parse(&label),
            text_label: label,
            headers,
            normalized,
        });
    }
    if found.is_empty() {
        return Err(Error::Encoding("PEM: no -----BEGIN line".into()));
    }
    Ok(found)
}

/// The label of a `-----BEGIN label-----` (or END) line, if the line is one.
fn boundary<'a>(line: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    line.strip_prefix(prefix)?.strip_suffix(b"-----")
}

/// The error for a file whose blocks are none of the wanted ones: `wanted` lists their
/// labels ("PRIVATE KEY, ...").
pub(super) fn no_wanted_block(blocks: &[Block], wanted: &str) -> Error {
    let labels: Vec<String> = blocks
        .iter()
        .map(|b| {
            let quoted: String = b.text_label.chars().take(MAX_QUOTED_LABEL).collect();
            format!("\"{quoted}\"")
        })
        .collect();
    let (noun, verb) = if labels.len() == 1 {
        ("label", "is")
    } else {
        ("labels", "are")
    };
    Error::Encoding(format!(
        "PEM {noun} {} {verb} not {wanted}",
        labels.join(", ")
    ))
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
