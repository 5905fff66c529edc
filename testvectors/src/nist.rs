//! NIST CAVP RSA signature files: `SigGen15` (RSASSA-PKCS1-v1_5) and `SigGenPSS` (RSASSA-PSS).
//!
//! Both come in two forms. The `.rsp` response files give, per `[mod = N]` section, a public
//! key (`n`, `e`) and records `SHAAlg`, `Msg`, `S`: verify-only. The `.txt` files NIST
//! published alongside add the private exponent `d` and, for PSS, the salt `SaltVal` of each
//! signature, so signing can be checked too. A `# Salt len: L` header line gives the PSS salt
//! length. Values are hex (any case); `e` is often zero-padded to the modulus length. Lines
//! end in CRLF or LF, mixed within one file.
//!
//! ```text
//! [mod = 1024]
//! n = c8a2...
//! e = 00...010001
//! d = 5dfc...            (.txt only)
//! SHAAlg = SHA1
//! SaltVal = 6f28...      (PSS .txt only)
//! Msg = e831...
//! S = 2892...
//! ```
//!
//! A new `n =` starts a new key, so files with several keys per section parse too.

use std::path::Path;

use crate::{Error, HashAlg, Result, hex};

/// `SigGen15_186-2.txt`: PKCS #1 v1.5 signatures with `d`, 250 vectors.
pub const SIG_GEN_15_186_2: &str = "nist/SigGen15_186-2.txt";
/// `SigGen15_186-3.rsp`: PKCS #1 v1.5 signatures, verify-only, 250 vectors.
pub const SIG_GEN_15_186_3: &str = "nist/SigGen15_186-3.rsp";
/// `SigGenPSS_186-2.txt`: PSS signatures with `d` and `SaltVal`, salt length 20, 250 vectors.
pub const SIG_GEN_PSS_186_2: &str = "nist/SigGenPSS_186-2.txt";
/// `SigGenPSS_186-3.rsp`: PSS signatures, verify-only, salt length 0, 250 vectors.
pub const SIG_GEN_PSS_186_3: &str = "nist/SigGenPSS_186-3.rsp";

/// A parsed `SigGen15` or `SigGenPSS` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigGenFile {
    /// The `# Salt len: L` header, if present (PSS files).
    pub salt_len: Option<usize>,
    /// One group per key, in file order.
    pub groups: Vec<SigGenGroup>,
}

/// One key and the signatures made with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigGenGroup {
    /// Line of the `n =` that opened the group.
    pub line: usize,
    /// The modulus size from the enclosing `[mod = N]` header, in bits.
    pub mod_bits: usize,
    /// Modulus, big-endian, as written (no leading zero stripped).
    pub n: Vec<u8>,
    /// Public exponent, big-endian, as written: the `.txt` files zero-pad it to the modulus
    /// length.
    pub e: Vec<u8>,
    /// Private exponent, big-endian: present in the `.txt` files only.
    pub d: Option<Vec<u8>>,
    /// The signatures, in file order.
    pub vectors: Vec<SigGenVector>,
}

/// One signature record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigGenVector {
    /// Line of the `SHAAlg =` that opened the record.
    pub line: usize,
    /// The message hash (also MGF1's hash for PSS).
    pub hash: HashAlg,
    /// The message.
    pub msg: Vec<u8>,
    /// The signature, big-endian.
    pub s: Vec<u8>,
    /// The PSS salt used (`SaltVal`), in the PSS `.txt` files only.
    pub salt: Option<Vec<u8>>,
}

impl SigGenFile {
    /// Number of signature records over all groups.
    pub fn len(&self) -> usize {
        self.groups.iter().map(|g| g.vectors.len()).sum()
    }

    /// True if the file holds no signature record (never for a parsed file).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every record with its key, in file order.
    pub fn iter(&self) -> impl Iterator<Item = (&SigGenGroup, &SigGenVector)> {
        self.groups
            .iter()
            .flat_map(|g| g.vectors.iter().map(move |v| (g, v)))
    }
}

/// Reads and parses a `SigGen15` / `SigGenPSS` file (`.txt` or `.rsp`).
///
/// # Errors
///
/// [`Error::Io`] if the file cannot be read; [`Error::Parse`] (with the file name) as for
/// [`parse_sig_gen`].
pub fn load_sig_gen(path: impl AsRef<Path>) -> Result<SigGenFile> {
    let path = path.as_ref();
    parse_sig_gen(&crate::read_text(path)?).map_err(|e| e.in_file(path))
}

#[derive(Default)]
struct PartialGroup {
    line: usize,
    mod_bits: usize,
    n: Vec<u8>,
    e: Option<Vec<u8>>,
    d: Option<Vec<u8>>,
    vectors: Vec<SigGenVector>,
}

struct PartialVector {
    line: usize,
    hash: HashAlg,
    msg: Option<Vec<u8>>,
    s: Option<Vec<u8>>,
    salt: Option<Vec<u8>>,
}

fn set_once(slot: &mut Option<Vec<u8>>, value: Vec<u8>, line: usize, name: &str) -> Result<()> {
    if slot.is_some() {
        return Err(Error::parse(line, format!("duplicate `{name}`")));
    }
    *slot = Some(value);
    Ok(())
}

fn finish_vector(
    group: &mut Option<PartialGroup>,
    vector: &mut Option<PartialVector>,
) -> Result<()> {
    let Some(v) = vector.take() else {
        return Ok(());
    };
    let missing = |name: &str| Error::parse(v.line, format!("record has no `{name}`"));
    let msg = v.msg.ok_or_else(|| missing("Msg"))?;
    let s = v.s.ok_or_else(|| missing("S"))?;
    // A record is only opened inside a group (checked at `SHAAlg`).
    let Some(g) = group.as_mut() else {
        return Err(Error::parse(v.line, "record outside a key group"));
    };
    g.vectors.push(SigGenVector {
        line: v.line,
        hash: v.hash,
        msg,
        s,
        salt: v.salt,
    });
    Ok(())
}

fn finish_group(group: &mut Option<PartialGroup>, groups: &mut Vec<SigGenGroup>) -> Result<()> {
    let Some(g) = group.take() else {
        return Ok(());
    };
    let e = g.e.ok_or_else(|| Error::parse(g.line, "key has no `e`"))?;
    if g.vectors.is_empty() {
        return Err(Error::parse(g.line, "key has no signature record"));
    }
    // Signature generation gives k-byte signatures, k the modulus length. Checking it here
    // catches a file cut inside its last value.
    let k_len = g.n.iter().skip_while(|&&b| b == 0).count();
    if let Some(v) = g.vectors.iter().find(|v| v.s.len() != k_len) {
        return Err(Error::parse(
            v.line,
            format!("`S` is {} bytes long, the modulus {k_len}", v.s.len()),
        ));
    }
    groups.push(SigGenGroup {
        line: g.line,
        mod_bits: g.mod_bits,
        n: g.n,
        e,
        d: g.d,
        vectors: g.vectors,
    });
    Ok(())
}

fn decode_value(line: usize, name: &str, value: &str) -> Result<Vec<u8>> {
    hex::decode(value).map_err(|e| Error::parse(line, format!("`{name}`: {e}")))
}

/// A decimal size of a header line (`what`: what it is, for the error), spaces around allowed.
fn decode_size(line: usize, what: &str, value: &str) -> Result<usize> {
    let value = value.trim();
    value
        .parse()
        .map_err(|_| Error::parse(line, format!("bad {what} {value:?}")))
}

/// Parses the text of a `SigGen15` / `SigGenPSS` file (`.txt` or `.rsp`).
///
/// # Errors
///
/// [`Error::Parse`] naming the line, for: a line that is neither a comment, a `[...]` header
/// nor `name = value`; an unknown name; bad hex (odd length, bad digit); an unknown `SHAAlg`;
/// a key or record outside a `[mod = N]` section or key; a duplicated field; a key without `e`
/// or without records; a record without `Msg` or `S`; an `S` whose length is not the
/// modulus length; a file without any record.
pub fn parse_sig_gen(text: &str) -> Result<SigGenFile> {
    let mut salt_len = None;
    let mut mod_bits: Option<usize> = None;
    let mut groups = Vec::new();
    let mut group: Option<PartialGroup> = None;
    let mut vector: Option<PartialVector> = None;
    let mut last_line = 0;

    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        last_line = line;
        let content = raw.trim();
        if content.is_empty() {
            continue;
        }
        if let Some(comment) = content.strip_prefix('#') {
            if let Some(len) = comment.trim().strip_prefix("Salt len:") {
                salt_len = Some(decode_size(line, "salt length", len)?);
            }
            continue;
        }
        if let Some(header) = content.strip_prefix('[') {
            let inner = header
                .strip_suffix(']')
                .ok_or_else(|| Error::parse(line, "`[` header without `]`"))?;
            let (name, value) = inner
                .split_once('=')
                .ok_or_else(|| Error::parse(line, "header is not `[name = value]`"))?;
            if name.trim() != "mod" {
                return Err(Error::parse(
                    line,
                    format!("unknown header `[{}]`", inner.trim()),
                ));
            }
            finish_vector(&mut group, &mut vector)?;
            finish_group(&mut group, &mut groups)?;
            mod_bits = Some(decode_size(line, "modulus size", value)?);
            continue;
        }
        let (name, value) = content.split_once('=').ok_or_else(|| {
            Error::parse(line, format!("expected `name = value`, got {content:?}"))
        })?;
        let (name, value) = (name.trim(), value.trim());
        match name {
            "n" => {
                finish_vector(&mut group, &mut vector)?;
                finish_group(&mut group, &mut groups)?;
                let bits = mod_bits
                    .ok_or_else(|| Error::parse(line, "`n` before any `[mod = N]` header"))?;
                group = Some(PartialGroup {
                    line,
                    mod_bits: bits,
                    n: decode_value(line, name, value)?,
                    ..PartialGroup::default()
                });
            }
            "e" | "d" => {
                let g = group
                    .as_mut()
                    .ok_or_else(|| Error::parse(line, format!("`{name}` before `n`")))?;
                if vector.is_some() || !g.vectors.is_empty() {
                    return Err(Error::parse(
                        line,
                        format!("`{name}` after signature records"),
                    ));
                }
                let slot = if name == "e" { &mut g.e } else { &mut g.d };
                set_once(slot, decode_value(line, name, value)?, line, name)?;
            }
            "SHAAlg" => {
                finish_vector(&mut group, &mut vector)?;
                if group.as_ref().is_none_or(|g| g.e.is_none()) {
                    return Err(Error::parse(line, "`SHAAlg` before a key (`n`, `e`)"));
                }
                let hash = value
                    .parse()
                    .map_err(|e| Error::parse(line, format!("`SHAAlg`: {e}")))?;
                vector = Some(PartialVector {
                    line,
                    hash,
                    msg: None,
                    s: None,
                    salt: None,
                });
            }
            "Msg" | "S" | "SaltVal" => {
                let v = vector
                    .as_mut()
                    .ok_or_else(|| Error::parse(line, format!("`{name}` before `SHAAlg`")))?;
                let slot = match name {
                    "Msg" => &mut v.msg,
                    "S" => &mut v.s,
                    _ => &mut v.salt,
                };
                set_once(slot, decode_value(line, name, value)?, line, name)?;
            }
            _ => return Err(Error::parse(line, format!("unknown field `{name}`"))),
        }
    }
    finish_vector(&mut group, &mut vector)?;
    finish_group(&mut group, &mut groups)?;
    if groups.is_empty() {
        return Err(Error::parse(last_line, "no signature record in the file"));
    }
    Ok(SigGenFile { salt_len, groups })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# CAVS 11.4\r\n# Salt len: 2\r\n\r\n[mod = 16]\r\n\r\nn = c35b\r\ne = 0003\nd = 1a2B\r\n\r\nSHAAlg = SHA256\r\nSaltVal = 0102\nMsg = 00\r\nS = 0a0b\r\n\r\nSHAAlg = SHA-512/224\r\nSaltVal = 0304\r\nMsg = \r\nS = 0c0d\r\n";

    #[test]
    fn parses_a_small_file_with_mixed_line_ends() {
        let f = parse_sig_gen(SAMPLE).unwrap();
        assert_eq!(f.salt_len, Some(2));
        assert_eq!(f.len(), 2);
        let g = &f.groups[0];
        assert_eq!((g.line, g.mod_bits), (6, 16));
        assert_eq!(g.n, vec![0xc3, 0x5b]);
        assert_eq!(g.e, vec![0x00, 0x03]);
        assert_eq!(g.d, Some(vec![0x1a, 0x2b]));
        assert_eq!(g.vectors[0].hash, HashAlg::Sha256);
        assert_eq!(g.vectors[0].salt, Some(vec![1, 2]));
        assert_eq!(g.vectors[0].msg, vec![0]);
        assert_eq!(g.vectors[0].s, vec![0x0a, 0x0b]);
        assert_eq!(g.vectors[1].hash, HashAlg::Sha512_224);
        assert_eq!(g.vectors[1].msg, Vec::<u8>::new());
        assert_eq!(g.vectors[1].line, 15);
    }

    fn err_line(text: &str) -> usize {
        match parse_sig_gen(text) {
            Err(Error::Parse { line, .. }) => line,
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn malformed_input_is_an_error_naming_the_line() {
        // Odd-length hex.
        assert_eq!(err_line(&SAMPLE.replace("S = 0a0b", "S = 0a0")), 13);
        // S shorter than the modulus (a file cut inside its last value).
        assert_eq!(err_line(&SAMPLE.replace("S = 0a0b", "S = 0a")), 10);
        // Missing S in the first record: reported at its SHAAlg line.
        assert_eq!(err_line(&SAMPLE.replace("S = 0a0b\r\n", "")), 10);
        // Truncated: the last record loses its S.
        let cut = SAMPLE.rfind("S = ").unwrap();
        assert_eq!(err_line(&SAMPLE[..cut]), 15);
        // No e: the first record (now line 9) has no complete key.
        assert_eq!(err_line(&SAMPLE.replace("e = 0003\n", "")), 9);
        // Unknown hash, unknown field, garbage line, no section.
        assert_eq!(err_line(&SAMPLE.replace("SHA256", "MD5")), 10);
        assert_eq!(err_line(&SAMPLE.replace("Msg = 00", "Mgs = 00")), 12);
        assert_eq!(err_line(&SAMPLE.replace("Msg = 00", "Msg 00")), 12);
        assert_eq!(err_line(&SAMPLE.replace("[mod = 16]", "")), 6);
        assert_eq!(err_line(&SAMPLE.replace("[mod = 16]", "[mod = x]")), 4);
        assert_eq!(err_line(""), 0);
        assert_eq!(err_line("# only a comment\n"), 1);
    }
}
