//! RSA Laboratories PKCS #1 test vectors: `oaep-vect.txt`, `pss-vect.txt` (from
//! `pkcs-1v2-1d2-vec.zip`, PKCS #1 v2.1 draft 2), `pkcs1v15crypt-vectors.txt`,
//! `pkcs1v15sign-vectors.txt`, and the intermediate-value files `oaep-int.txt`, `pss-int.txt`.
//!
//! Layout: free text up to the first `#` line, then blocks of a `# Name:` comment line followed
//! by the value as space-separated hex bytes over one or more lines. Comment lines without a
//! trailing `:` are headings (`# Public key`, `# PSS Example 1.2`), lines of only `-` or `=`
//! are rules. Each key starts at a `# Example N: A B-bit RSA key pair` heading and has a
//! `# Public key` part (`Modulus`, `Exponent`) and a `# Private key` part (`Modulus`,
//! `Public exponent`, `Exponent` = d, `Prime 1`, `Prime 2`, `Prime exponent 1` = dP,
//! `Prime exponent 2` = dQ, `Coefficient` = qInv), then examples of `Message` (or
//! `Message to be signed`), `Seed` / `Salt` where the scheme is randomised, and `Encryption`
//! / `Signature`. Example headings are not relied on: the first example of the first key of
//! `pkcs1v15crypt-vectors.txt` has none. Lines end in CRLF.
//!
//! All schemes use SHA-1 (and MGF1 with SHA-1), and OAEP an empty label.

use std::path::Path;

use crate::{Error, Result, hex};

/// `oaep-vect.txt`: 10 keys × 6 RSAES-OAEP encryptions.
pub const OAEP_VECT: &str = "pkcs1/oaep-vect.txt";
/// `pss-vect.txt`: 10 keys × 6 RSASSA-PSS signatures.
pub const PSS_VECT: &str = "pkcs1/pss-vect.txt";
/// `pkcs1v15crypt-vectors.txt`: 15 keys × 20 RSAES-PKCS1-v1_5 encryptions.
pub const PKCS1V15_CRYPT: &str = "pkcs1/pkcs1v15crypt-vectors.txt";
/// `pkcs1v15sign-vectors.txt`: 15 keys × 20 RSASSA-PKCS1-v1_5 signatures.
pub const PKCS1V15_SIGN: &str = "pkcs1/pkcs1v15sign-vectors.txt";
/// `oaep-int.txt`: one OAEP encryption and CRT decryption with every intermediate value.
pub const OAEP_INT: &str = "pkcs1/oaep-int.txt";
/// `pss-int.txt`: one PSS signature with every intermediate value.
pub const PSS_INT: &str = "pkcs1/pss-int.txt";

/// An RSA private key with its CRT parameters (RFC 8017 §3.2, form 2), as the vector files
/// of every family give it: big-endian bytes, possibly with leading zero bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrtKey {
    /// Modulus.
    pub n: Vec<u8>,
    /// Public exponent.
    pub e: Vec<u8>,
    /// Private exponent.
    pub d: Vec<u8>,
    /// First prime.
    pub p: Vec<u8>,
    /// Second prime.
    pub q: Vec<u8>,
    /// d mod (p − 1).
    pub dp: Vec<u8>,
    /// d mod (q − 1).
    pub dq: Vec<u8>,
    /// q⁻¹ mod p.
    pub qinv: Vec<u8>,
}

/// A key pair of a file, where its heading states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrivateKey {
    /// Line of the `# Example N: A B-bit RSA key pair` heading.
    pub line: usize,
    /// The key's number N in the file.
    pub number: usize,
    /// The modulus size B the heading states, in bits.
    pub bits: usize,
    /// The key's values.
    pub crt: CrtKey,
}

/// A key and the vectors made with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyVectors<V> {
    /// The key pair.
    pub key: PrivateKey,
    /// Its examples, in file order.
    pub vectors: Vec<V>,
}

/// An encryption with the random bytes that were used: the 20-byte OAEP seed (SHA-1,
/// MGF1-SHA-1, empty label) or the nonzero PKCS #1 v1.5 padding string PS (both files call it
/// `Seed`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncryptionVector {
    /// Line of the `# Message:` field.
    pub line: usize,
    /// The plaintext.
    pub message: Vec<u8>,
    /// The seed (OAEP) or the padding string PS (PKCS #1 v1.5).
    pub seed: Vec<u8>,
    /// The ciphertext.
    pub ciphertext: Vec<u8>,
}

/// An RSAES-OAEP encryption of `oaep-vect.txt`.
pub type OaepVector = EncryptionVector;

/// An RSAES-PKCS1-v1_5 encryption of `pkcs1v15crypt-vectors.txt`.
pub type Pkcs1v15CryptVector = EncryptionVector;

/// RSASSA-PSS signature (SHA-1, MGF1-SHA-1) with the salt that was used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PssVector {
    /// Line of the `# Message to be signed:` field.
    pub line: usize,
    /// The message.
    pub message: Vec<u8>,
    /// The 20-byte salt.
    pub salt: Vec<u8>,
    /// The signature.
    pub signature: Vec<u8>,
}

/// RSASSA-PKCS1-v1_5 signature with SHA-1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pkcs1v15SignVector {
    /// Line of the `# Message to be signed:` field.
    pub line: usize,
    /// The message.
    pub message: Vec<u8>,
    /// The signature.
    pub signature: Vec<u8>,
}

/// One `# Name:` value of an intermediate-value file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedValue {
    /// Line of the `# Name:` comment.
    pub line: usize,
    /// The name, without `#` and the trailing `:`, e.g. `dbMask = MGF(seed, length(DB))`.
    pub name: String,
    /// The bytes (empty if none follow the name).
    pub value: Vec<u8>,
}

/// One token of the common layout.
enum Item {
    Heading { line: usize, text: String },
    Field(NamedValue),
}

/// Splits a text into headings and named hex values. Skips the free-text preamble before the
/// first `#` line; with `stop_at_rule`, stops at the first later line starting with `=` (the
/// intermediate files end with a BER dump in another layout).
fn tokenize(text: &str, stop_at_rule: bool) -> Result<Vec<Item>> {
    let mut items = Vec::new();
    let mut field: Option<NamedValue> = None;
    let mut started = false;
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let content = raw.trim();
        if let Some(comment) = content.strip_prefix('#') {
            started = true;
            items.extend(field.take().map(Item::Field));
            let comment = comment.trim();
            if comment.is_empty() || comment.chars().all(|c| c == '-' || c == '=') {
                continue;
            }
            if let Some(name) = comment.strip_suffix(':') {
                field = Some(NamedValue {
                    line,
                    name: name.trim().to_owned(),
                    value: Vec::new(),
                });
            } else {
                items.push(Item::Heading {
                    line,
                    text: comment.to_owned(),
                });
            }
            continue;
        }
        if !started {
            continue;
        }
        if content.is_empty() {
            items.extend(field.take().map(Item::Field));
            continue;
        }
        if stop_at_rule && content.starts_with('=') {
            break;
        }
        let Some(f) = field.as_mut() else {
            return Err(Error::parse(
                line,
                format!("data outside a `# Name:` field: {content:?}"),
            ));
        };
        for token in content.split_whitespace() {
            let bytes = hex::decode(token)
                .map_err(|e| Error::parse(line, format!("field `{}`: {e} in {token:?}", f.name)))?;
            f.value.extend_from_slice(&bytes);
        }
    }
    items.extend(field.take().map(Item::Field));
    Ok(items)
}

/// Which field names a file uses for its examples.
struct Scheme {
    message: &'static str,
    random: Option<&'static str>,
    output: &'static str,
}

/// An example before it is known to be complete.
struct RawExample {
    line: usize,
    message: Vec<u8>,
    random: Option<Vec<u8>>,
    output: Option<Vec<u8>>,
}

#[derive(Default)]
struct PartialKey {
    line: usize,
    number: usize,
    bits: usize,
    public_n: Option<Vec<u8>>,
    public_e: Option<Vec<u8>>,
    n: Option<Vec<u8>>,
    e: Option<Vec<u8>>,
    d: Option<Vec<u8>>,
    p: Option<Vec<u8>>,
    q: Option<Vec<u8>>,
    dp: Option<Vec<u8>>,
    dq: Option<Vec<u8>>,
    qinv: Option<Vec<u8>>,
    examples: Vec<RawExample>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Start,
    Public,
    Private,
    Examples,
}

/// Parses `Example N: A B-bit RSA key pair` into (N, B).
fn key_heading(text: &str) -> Option<(usize, usize)> {
    let rest = text.strip_prefix("Example ")?;
    let (number, rest) = rest.split_once(':')?;
    let rest = rest.trim().strip_prefix("A ")?;
    let (bits, _) = rest.split_once("-bit")?;
    Some((number.trim().parse().ok()?, bits.trim().parse().ok()?))
}

fn finish_example(
    key: &mut PartialKey,
    example: &mut Option<RawExample>,
    scheme: &Scheme,
) -> Result<()> {
    let Some(ex) = example.take() else {
        return Ok(());
    };
    if ex.output.is_none() {
        return Err(Error::parse(
            ex.line,
            format!("example has no `{}`", scheme.output),
        ));
    }
    if let (Some(random), None) = (scheme.random, &ex.random) {
        return Err(Error::parse(ex.line, format!("example has no `{random}`")));
    }
    key.examples.push(ex);
    Ok(())
}

fn finish_key(key: Option<PartialKey>, keys: &mut Vec<KeyVectors<RawExample>>) -> Result<()> {
    let Some(k) = key else {
        return Ok(());
    };
    let line = k.line;
    let need = |v: Option<Vec<u8>>, name: &str| {
        v.ok_or_else(|| Error::parse(line, format!("key has no `{name}`")))
    };
    let n = need(k.n, "Modulus (private key)")?;
    let e = need(k.e, "Public exponent")?;
    let public_n = need(k.public_n, "Modulus (public key)")?;
    let public_e = need(k.public_e, "Exponent (public key)")?;
    if public_n != n || public_e != e {
        return Err(Error::parse(
            line,
            "public and private key parts disagree on n or e",
        ));
    }
    if k.examples.is_empty() {
        return Err(Error::parse(line, "key has no example"));
    }
    // RFC 8017: ciphertexts and signatures are k bytes, k the modulus length. Checking it
    // here catches a file cut inside its last value.
    let k_len = n.iter().skip_while(|&&b| b == 0).count();
    if let Some(ex) = k
        .examples
        .iter()
        .find(|ex| ex.output.as_ref().is_some_and(|o| o.len() != k_len))
    {
        return Err(Error::parse(
            ex.line,
            format!("output is not {k_len} bytes long, the modulus length"),
        ));
    }
    keys.push(KeyVectors {
        key: PrivateKey {
            line,
            number: k.number,
            bits: k.bits,
            crt: CrtKey {
                n,
                e,
                d: need(k.d, "Exponent (private key)")?,
                p: need(k.p, "Prime 1")?,
                q: need(k.q, "Prime 2")?,
                dp: need(k.dp, "Prime exponent 1")?,
                dq: need(k.dq, "Prime exponent 2")?,
                qinv: need(k.qinv, "Coefficient")?,
            },
        },
        vectors: k.examples,
    });
    Ok(())
}

fn set_once(slot: &mut Option<Vec<u8>>, f: NamedValue) -> Result<()> {
    if slot.is_some() {
        return Err(Error::parse(
            f.line,
            format!("duplicate field `{}`", f.name),
        ));
    }
    if f.value.is_empty() {
        return Err(Error::parse(
            f.line,
            format!("field `{}` has no bytes", f.name),
        ));
    }
    *slot = Some(f.value);
    Ok(())
}

/// The common parser of the four key-and-examples files.
fn parse_keyed(text: &str, scheme: &Scheme) -> Result<Vec<KeyVectors<RawExample>>> {
    let mut keys = Vec::new();
    let mut key: Option<PartialKey> = None;
    let mut example: Option<RawExample> = None;
    let mut section = Section::Start;
    let mut last_line = 0;
    for item in tokenize(text, false)? {
        match item {
            Item::Heading { line, text } => {
                last_line = line;
                if let Some((number, bits)) = key_heading(&text) {
                    if let Some(k) = key.as_mut() {
                        finish_example(k, &mut example, scheme)?;
                    }
                    finish_key(key.take(), &mut keys)?;
                    key = Some(PartialKey {
                        line,
                        number,
                        bits,
                        ..PartialKey::default()
                    });
                    section = Section::Start;
                } else if text.starts_with("Example ") {
                    return Err(Error::parse(line, format!("bad key heading {text:?}")));
                } else if key.is_some() {
                    if text == "Public key" {
                        section = Section::Public;
                    } else if text == "Private key" {
                        section = Section::Private;
                    } else if text.contains(" encryption of ") || text.contains(" signing of ") {
                        section = Section::Examples;
                    }
                }
            }
            Item::Field(f) => {
                last_line = f.line;
                let Some(k) = key.as_mut() else {
                    return Err(Error::parse(
                        f.line,
                        format!("field `{}` before the first key", f.name),
                    ));
                };
                match (section, f.name.as_str()) {
                    (Section::Public, "Modulus") => set_once(&mut k.public_n, f)?,
                    (Section::Public, "Exponent") => set_once(&mut k.public_e, f)?,
                    (Section::Private, "Modulus") => set_once(&mut k.n, f)?,
                    (Section::Private, "Public exponent") => set_once(&mut k.e, f)?,
                    (Section::Private, "Exponent") => set_once(&mut k.d, f)?,
                    (Section::Private, "Prime 1") => set_once(&mut k.p, f)?,
                    (Section::Private, "Prime 2") => set_once(&mut k.q, f)?,
                    (Section::Private, "Prime exponent 1") => set_once(&mut k.dp, f)?,
                    (Section::Private, "Prime exponent 2") => set_once(&mut k.dq, f)?,
                    (Section::Private, "Coefficient") => set_once(&mut k.qinv, f)?,
                    (Section::Examples, name) if name == scheme.message => {
                        finish_example(k, &mut example, scheme)?;
                        example = Some(RawExample {
                            line: f.line,
                            message: f.value,
                            random: None,
                            output: None,
                        });
                    }
                    (Section::Examples, name)
                        if Some(name) == scheme.random || name == scheme.output =>
                    {
                        let Some(ex) = example.as_mut() else {
                            return Err(Error::parse(
                                f.line,
                                format!("`{name}` before `{}`", scheme.message),
                            ));
                        };
                        let slot = if name == scheme.output {
                            &mut ex.output
                        } else {
                            &mut ex.random
                        };
                        set_once(slot, f)?;
                    }
                    _ => {
                        return Err(Error::parse(
                            f.line,
                            format!("unexpected field `{}` here", f.name),
                        ));
                    }
                }
            }
        }
    }
    if let Some(k) = key.as_mut() {
        finish_example(k, &mut example, scheme)?;
    }
    finish_key(key, &mut keys)?;
    if keys.is_empty() {
        return Err(Error::parse(last_line, "no key in the file"));
    }
    Ok(keys)
}

/// Converts the common form to a file's vector type (the scheme guaranteed `random` and
/// `output` are present, but stay panic-free anyway).
fn convert<V>(
    keys: Vec<KeyVectors<RawExample>>,
    f: impl Fn(usize, Vec<u8>, Vec<u8>, Vec<u8>) -> V,
) -> Vec<KeyVectors<V>> {
    keys.into_iter()
        .map(|kv| KeyVectors {
            key: kv.key,
            vectors: kv
                .vectors
                .into_iter()
                .map(|ex| {
                    f(
                        ex.line,
                        ex.message,
                        ex.random.unwrap_or_default(),
                        ex.output.unwrap_or_default(),
                    )
                })
                .collect(),
        })
        .collect()
}

/// Parses the text of `oaep-vect.txt`.
///
/// # Errors
///
/// [`Error::Parse`] naming the line: bad hex (odd-length or non-hex token), bytes outside a
/// field, an unknown or duplicated field, a key missing a part, public and private parts that
/// disagree, an example without seed or ciphertext, a ciphertext (or signature) whose length
/// is not the modulus length, no key at all.
pub fn parse_oaep_vect(text: &str) -> Result<Vec<KeyVectors<OaepVector>>> {
    parse_encryptions(text)
}

/// Both encryption files: the same fields, the random bytes under `Seed`.
fn parse_encryptions(text: &str) -> Result<Vec<KeyVectors<EncryptionVector>>> {
    let scheme = Scheme {
        message: "Message",
        random: Some("Seed"),
        output: "Encryption",
    };
    Ok(convert(
        parse_keyed(text, &scheme)?,
        |line, message, seed, ciphertext| EncryptionVector {
            line,
            message,
            seed,
            ciphertext,
        },
    ))
}

/// Parses the text of `pss-vect.txt`.
///
/// # Errors
///
/// As [`parse_oaep_vect`], with salt and signature.
pub fn parse_pss_vect(text: &str) -> Result<Vec<KeyVectors<PssVector>>> {
    let scheme = Scheme {
        message: "Message to be signed",
        random: Some("Salt"),
        output: "Signature",
    };
    Ok(convert(
        parse_keyed(text, &scheme)?,
        |line, message, salt, signature| PssVector {
            line,
            message,
            salt,
            signature,
        },
    ))
}

/// Parses the text of `pkcs1v15crypt-vectors.txt`.
///
/// # Errors
///
/// As [`parse_oaep_vect`].
pub fn parse_pkcs1v15_crypt(text: &str) -> Result<Vec<KeyVectors<Pkcs1v15CryptVector>>> {
    parse_encryptions(text)
}

/// Parses the text of `pkcs1v15sign-vectors.txt`.
///
/// # Errors
///
/// As [`parse_oaep_vect`], with a signature and no random value.
pub fn parse_pkcs1v15_sign(text: &str) -> Result<Vec<KeyVectors<Pkcs1v15SignVector>>> {
    let scheme = Scheme {
        message: "Message to be signed",
        random: None,
        output: "Signature",
    };
    Ok(convert(
        parse_keyed(text, &scheme)?,
        |line, message, _, signature| Pkcs1v15SignVector {
            line,
            message,
            signature,
        },
    ))
}

/// Parses an intermediate-value file (`oaep-int.txt`, `pss-int.txt`) into its named values,
/// in file order, up to the first line starting with `=` after the values (where `oaep-int.txt`
/// goes on with BER dumps of the keys, not parsed). Names are kept as written, so a name can
/// occur twice (`Modulus` in the public and the private key of `oaep-int.txt` is given once).
///
/// # Errors
///
/// [`Error::Parse`] naming the line: bad hex, bytes outside a field, no value at all.
pub fn parse_intermediate(text: &str) -> Result<Vec<NamedValue>> {
    let values: Vec<NamedValue> = tokenize(text, true)?
        .into_iter()
        .filter_map(|item| match item {
            Item::Field(f) => Some(f),
            Item::Heading { .. } => None,
        })
        .collect();
    if values.is_empty() {
        return Err(Error::parse(
            text.lines().count(),
            "no `# Name:` value in the file",
        ));
    }
    Ok(values)
}

fn load<T>(path: &Path, parse: impl FnOnce(&str) -> Result<T>) -> Result<T> {
    parse(&crate::read_text(path)?).map_err(|e| e.in_file(path))
}

/// Reads and parses `oaep-vect.txt` (see [`parse_oaep_vect`]).
///
/// # Errors
///
/// [`Error::Io`] if unreadable, else as [`parse_oaep_vect`] with the file name.
pub fn load_oaep_vect(path: impl AsRef<Path>) -> Result<Vec<KeyVectors<OaepVector>>> {
    load(path.as_ref(), parse_oaep_vect)
}

/// Reads and parses `pss-vect.txt` (see [`parse_pss_vect`]).
///
/// # Errors
///
/// [`Error::Io`] if unreadable, else as [`parse_pss_vect`] with the file name.
pub fn load_pss_vect(path: impl AsRef<Path>) -> Result<Vec<KeyVectors<PssVector>>> {
    load(path.as_ref(), parse_pss_vect)
}

/// Reads and parses `pkcs1v15crypt-vectors.txt` (see [`parse_pkcs1v15_crypt`]).
///
/// # Errors
///
/// [`Error::Io`] if unreadable, else as [`parse_pkcs1v15_crypt`] with the file name.
pub fn load_pkcs1v15_crypt(path: impl AsRef<Path>) -> Result<Vec<KeyVectors<Pkcs1v15CryptVector>>> {
    load(path.as_ref(), parse_pkcs1v15_crypt)
}

/// Reads and parses `pkcs1v15sign-vectors.txt` (see [`parse_pkcs1v15_sign`]).
///
/// # Errors
///
/// [`Error::Io`] if unreadable, else as [`parse_pkcs1v15_sign`] with the file name.
pub fn load_pkcs1v15_sign(path: impl AsRef<Path>) -> Result<Vec<KeyVectors<Pkcs1v15SignVector>>> {
    load(path.as_ref(), parse_pkcs1v15_sign)
}

/// Reads and parses an intermediate-value file (see [`parse_intermediate`]).
///
/// # Errors
///
/// [`Error::Io`] if unreadable, else as [`parse_intermediate`] with the file name.
pub fn load_intermediate(path: impl AsRef<Path>) -> Result<Vec<NamedValue>> {
    load(path.as_ref(), parse_intermediate)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "Free text: with 1 colon\r\n=====\r\n\
# Example 1: A 16-bit RSA key pair\r\n# ------\r\n\r\n# Public key\r\n\r\n\
# Modulus: \r\nc3 5b\r\n\r\n# Exponent: \r\n03\r\n\r\n# Private key\r\n\r\n\
# Modulus: \r\nc3 5b\r\n\r\n# Public exponent: \r\n03\r\n\r\n# Exponent: \r\n01 02\r\n\r\n\
# Prime 1: \r\n03\r\n\r\n# Prime 2: \r\n04\r\n\r\n# Prime exponent 1: \r\n05\r\n\r\n\
# Prime exponent 2: \r\n06\r\n\r\n# Coefficient: \r\n07\r\n\r\n\
# PKCS#1 v1.5 encryption of 2 random messages with random seeds\r\n\r\n\
# Message:\r\n61 62 \r\n63\r\n\r\n# Seed:\r\n0a\r\n\r\n# Encryption:\r\nff ee\r\n\r\n\
# PKCS#1 v1.5 Encryption Example 1.2\r\n\r\n\
# Message:\r\n64\r\n\r\n# Seed:\r\n0b\r\n\r\n# Encryption:\r\ndd cc\r\n";

    #[test]
    fn parses_a_small_file_without_the_first_example_heading() {
        let keys = parse_pkcs1v15_crypt(SAMPLE).unwrap();
        assert_eq!(keys.len(), 1);
        let k = &keys[0].key;
        assert_eq!((k.line, k.number, k.bits), (3, 1, 16));
        assert_eq!(k.crt.n, vec![0xc3, 0x5b]);
        assert_eq!(k.crt.d, vec![1, 2]);
        assert_eq!(k.crt.qinv, vec![7]);
        let v = &keys[0].vectors;
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].message, b"abc".to_vec());
        assert_eq!(v[0].seed, vec![0x0a]);
        assert_eq!(v[0].ciphertext, vec![0xff, 0xee]);
        assert_eq!(v[1].message, b"d".to_vec());
        // The same text is not a signature file: its field names differ.
        assert!(parse_pkcs1v15_sign(SAMPLE).is_err());
    }

    fn err_line(text: &str) -> usize {
        match parse_pkcs1v15_crypt(text) {
            Err(Error::Parse { line, .. }) => line,
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn malformed_input_is_an_error_naming_the_line() {
        let line_of =
            |needle: &str| SAMPLE.lines().position(|l| l.starts_with(needle)).unwrap() + 1;
        // Odd-length hex token, non-hex token.
        assert_eq!(err_line(&SAMPLE.replace("ff ee", "ff e")), line_of("ff ee"));
        assert_eq!(
            err_line(&SAMPLE.replace("ff ee", "ff zz")),
            line_of("ff ee")
        );
        // Ciphertext shorter than the modulus: reported at the example's message.
        assert_eq!(
            err_line(&SAMPLE.replace("ff ee", "ff")),
            line_of("# Message:")
        );
        // Missing key part: reported at the key heading.
        assert_eq!(err_line(&SAMPLE.replace("# Prime 2: \r\n04\r\n", "")), 3);
        // Truncated: the last example loses its ciphertext; reported at its message.
        let cut = SAMPLE.rfind("# Encryption:").unwrap();
        let lines: Vec<&str> = SAMPLE.lines().collect();
        let last_message = lines.iter().rposition(|&l| l == "# Message:").unwrap() + 1;
        assert_eq!(err_line(&SAMPLE[..cut]), last_message);
        // Public and private modulus differ.
        let swapped = SAMPLE.replacen("c3 5b", "c3 5c", 1);
        assert_eq!(err_line(&swapped), 3);
        // Unknown field, empty input.
        assert_eq!(
            err_line(&SAMPLE.replace("# Seed:\r\n0a", "# Sead:\r\n0a")),
            line_of("# Seed:")
        );
        assert!(parse_pkcs1v15_crypt("").is_err());
        assert!(parse_intermediate("just text\n").is_err());
    }
}
