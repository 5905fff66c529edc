//! The known-answer suite: every vector of every file run against the `rsa` crate, one
//! [`FileReport`] per file. The tests of this crate and `rsatool kat` both run it.
//!
//! A vector *passes* when the implementation does what the file says: a valid signature
//! verifies (and, for deterministic schemes with the private key given, signing reproduces
//! it byte for byte), an invalid one is rejected, a ciphertext decrypts to the stated message
//! or is rejected. Wycheproof's "acceptable" vectors have no single right answer; each family
//! documents the decision we take for them, and counts them apart.

use std::fmt;
use std::path::Path;

use rsatool_rsa::{PrivateKeyParts, RsaPrivateKey};

use crate::pkcs1::CrtKey;
use crate::{Result, pkcs1};

mod enc;
mod replay;
mod sig;

/// The outcome of one file (or one Wycheproof set).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileReport {
    /// The file's path relative to the data folder, or `wycheproof/<set name>`.
    pub file: String,
    /// Vectors whose expected result is "valid" (verify / decrypt to the given message).
    pub valid: usize,
    /// Vectors whose expected result is "invalid" (must be rejected).
    pub invalid: usize,
    /// Wycheproof "acceptable" vectors (either result conforms; see the family's decision).
    pub acceptable: usize,
    /// Vectors that did what the file says.
    pub passed: usize,
    /// One line per vector that did not: the test id and what happened.
    pub failures: Vec<String>,
}

impl FileReport {
    /// An empty report for `file`.
    pub fn new(file: impl Into<String>) -> Self {
        FileReport {
            file: file.into(),
            ..FileReport::default()
        }
    }

    /// How many vectors failed.
    pub fn failed(&self) -> usize {
        self.failures.len()
    }
}

impl fmt::Display for FileReport {
    /// `file: N passed, M failed`, the line `rsatool kat` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} passed, {} failed",
            self.file,
            self.passed,
            self.failed()
        )
    }
}

/// Runs every known-answer file under `dir` (laid out as [`crate::data_dir`]) and every
/// compiled-in Wycheproof RSA set.
///
/// # Errors
///
/// A file that cannot be read or parsed is an error (a vector that fails is not: it is a
/// line in its report).
pub fn run_all(dir: &Path) -> Result<Vec<FileReport>> {
    let mut out = Vec::new();
    out.extend(sig::run(dir)?);
    out.extend(enc::run(dir)?);
    Ok(out)
}

/// Runs `check` on every example of an RSA Laboratories file (`keys`, as its `load_*` gives
/// them), each under its key; a key that does not load fails each of its examples. `line`
/// says where an example stands, for its failure line (`key N line L: what`).
pub(crate) fn rsalabs_file<V>(
    file: &'static str,
    keys: Vec<pkcs1::KeyVectors<V>>,
    line: impl Fn(&V) -> usize,
    mut check: impl FnMut(&RsaPrivateKey, &V) -> Option<String>,
) -> FileReport {
    let mut report = FileReport::new(file);
    for kv in &keys {
        let k = &kv.key;
        let key = private_key(&k.crt);
        for v in &kv.vectors {
            report.valid += 1;
            let failure = match &key {
                Err(e) => Some(format!("key refused: {e}")),
                Ok(key) => check(key, v),
            };
            match failure {
                None => report.passed += 1,
                Some(what) => {
                    report
                        .failures
                        .push(format!("key {} line {}: {what}", k.number, line(v)))
                }
            }
        }
    }
    report
}

/// The smallest modulus in the vector files (Wycheproof and RSA Laboratories go down to 512
/// bits), accepted through the `*_allowing_small` constructors.
pub(crate) const MIN_TEST_BITS: usize = 512;

/// `b` without its leading zero bytes (vector files pad n, e and the CRT values).
pub(crate) fn strip(b: &[u8]) -> Vec<u8> {
    let start = b.iter().position(|&x| x != 0).unwrap_or(b.len());
    b[start..].to_vec()
}

/// A two-prime private key from the big-endian values of a vector file, validated as any key
/// is (down to [`MIN_TEST_BITS`]).
pub(crate) fn private_key(k: &CrtKey) -> rsatool_rsa::Result<RsaPrivateKey> {
    // `PrivateKeyParts` holds its secrets as `Zeroizing<Vec<u8>>`, made with `From`.
    let s = |x: &[u8]| strip(x).into();
    RsaPrivateKey::from_parts_allowing_small(
        &PrivateKeyParts {
            n: strip(&k.n),
            e: strip(&k.e),
            d: s(&k.d),
            primes: vec![s(&k.p), s(&k.q)],
            exponents: vec![s(&k.dp), s(&k.dq)],
            coefficients: vec![s(&k.qinv)],
        },
        MIN_TEST_BITS,
    )
}
