//! ACVP (NIST's Automated Cryptographic Validation Protocol) RSA vector sets: answering a
//! prompt as an implementation under test does, and checking a response against the server's
//! expected results (or, where the implementation chooses the answer, validating it as the
//! server does).
//!
//! Modes (the table of draft-celi-acvp-rsa, "Supported RSA Modes"): `keyGen` (FIPS186-5,
//! FIPS186-4: AFT from the server's inputs, GDT with our own keys, KAT primality verdicts),
//! `sigGen` (FIPS186-5, FIPS186-4) and `sigVer` (FIPS186-5, FIPS186-4, FIPS186-2, the last
//! also under its old name `legacySigVer`): PKCS #1 v1.5 and PSS with SHA-1, SHA-2, SHA-3 and
//! SHAKE, MGF1 or SHAKE masks; `signaturePrimitive` (1.0, 2.0) and `decryptionPrimitive`
//! (1.0 with our own keys, Sp800-56Br2 with the server's); SP 800-106 randomized hashing
//! (`conformance`) with SHA2-256, SHA3-512, SHAKE-128 and SHAKE-256. What we do not implement
//! is refused by name: a whole vector set of another algorithm, mode or revision is an error;
//! a test group of an unsupported kind (ANSI X9.31 signatures, keyGen with provable primes we
//! would have to choose, SP 800-106 with another hash, ...) is left out of the response and
//! reported as a [`Refusal`], never answered wrongly.
//!
//! The JSON goes through the typed structures of [`types`] (serde); a file that is not one of
//! them is an [`Error::Parse`] with the line serde_json reports, never a panic.
//!
//! Quirks of NIST's server seen in its sample sets, and what we do about them:
//! - PKCS #1 v1.5 with SHA-3: the server's DigestInfo has both SEQUENCE lengths two short
//!   (ACVP-Server issues 256 and 257). We sign with the DER (RFC 8017, NIST's OIDs) and check
//!   our answers with it; see `rsa`'s `digest_info_prefix`.
//! - MGF1 over SHAKE: 16 (SHAKE128) or 32 (SHAKE256) bytes per counter; see
//!   [`rsatool_rsa::HashAlg::mgf1_block_len`].
//! - SP 800-106: the last, partial copy of rv comes from rv's right end; see `rand_hash`.
//! - signaturePrimitive 1.0 names the key format `keyFormat`, 2.0 `keyMode`; both are read.

pub mod types;

mod keygen;
mod prim;
mod rand_hash;
mod sig;

use std::fmt;

use rsatool_rsa::rand_core::CryptoRng;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{Error, Result};
use types::{AcvVersion, Header};

/// The modes this runner knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// RSA / keyGen.
    KeyGen,
    /// RSA / sigGen.
    SigGen,
    /// RSA / sigVer.
    SigVer,
    /// RSA / signaturePrimitive.
    SignaturePrimitive,
    /// RSA / decryptionPrimitive Sp800-56Br2 (the server's keys).
    DecryptionPrimitive,
    /// RSA / decryptionPrimitive 1.0 (the implementation's keys, SP 800-56B's component
    /// test).
    DecryptionPrimitive1,
}

impl Mode {
    /// Which mode a vector set's header names, or the refusal naming what it is.
    ///
    /// # Errors
    ///
    /// [`Error::Acvp`] for another algorithm, an unknown mode, or a revision we do not answer.
    pub fn of(h: &Header) -> Result<Mode> {
        let what = format!("{} / {} / {}", h.algorithm, h.mode, h.revision);
        if !h.algorithm.eq_ignore_ascii_case("RSA") {
            return Err(Error::Acvp(format!(
                "{what}: not an RSA vector set (unsupported)"
            )));
        }
        let rev = h.revision.to_ascii_lowercase();
        let fips186_4_or_5 = rev == "fips186-5" || rev == "fips186-4";
        let mode = match h.mode.to_ascii_lowercase().as_str() {
            "keygen" if fips186_4_or_5 => Mode::KeyGen,
            "siggen" if fips186_4_or_5 => Mode::SigGen,
            "sigver" if fips186_4_or_5 || rev == "fips186-2" => Mode::SigVer,
            // The spec's test-type section calls sigVer FIPS186-2 "LegacySigVer".
            "legacysigver" if rev == "fips186-2" => Mode::SigVer,
            "signatureprimitive" if rev == "2.0" || rev == "1.0" => Mode::SignaturePrimitive,
            "decryptionprimitive" if rev == "sp800-56br2" => Mode::DecryptionPrimitive,
            "decryptionprimitive" if rev == "1.0" => Mode::DecryptionPrimitive1,
            _ => {
                return Err(Error::Acvp(format!(
                    "{what}: unsupported: not a mode and revision ACVP defines for RSA \
                     (supported: keyGen and sigGen FIPS186-5, FIPS186-4; sigVer FIPS186-5, \
                     FIPS186-4, FIPS186-2 (legacySigVer); signaturePrimitive 1.0, 2.0; \
                     decryptionPrimitive 1.0, Sp800-56Br2)"
                )));
            }
        };
        Ok(mode)
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::KeyGen => "keyGen",
            Mode::SigGen => "sigGen",
            Mode::SigVer => "sigVer",
            Mode::SignaturePrimitive => "signaturePrimitive",
            Mode::DecryptionPrimitive => "decryptionPrimitive",
            Mode::DecryptionPrimitive1 => "decryptionPrimitive 1.0",
        })
    }
}

/// A test group we do not answer, and why (named: "SP 800-106 randomized hashing").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The group.
    pub tg_id: u64,
    /// What is not supported.
    pub why: String,
}

impl Refusal {
    /// The group's scheme (or other set-up) if it has one; else its refusal is recorded.
    pub(crate) fn record<T>(
        refused: &mut Vec<Refusal>,
        tg_id: u64,
        setup: std::result::Result<T, String>,
    ) -> Option<T> {
        setup
            .map_err(|why| refused.push(Refusal { tg_id, why }))
            .ok()
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tgId {}: refused: {}", self.tg_id, self.why)
    }
}

/// The answer to a prompt: the response JSON and the groups left out of it.
#[derive(Debug, Clone)]
pub struct Answer {
    /// Which mode it answered.
    pub mode: Mode,
    /// The response, pretty-printed JSON in the prompt's shape (a bare object, or the
    /// server's `[{"acvVersion": ..}, {..}]` array).
    pub json: String,
    /// The groups not answered.
    pub refused: Vec<Refusal>,
}

/// The outcome of checking one test group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupCheck {
    /// The group.
    pub tg_id: u64,
    /// What the group is (`pss SHAKE-128 mask shake-256 4096`), and how it was checked.
    pub what: String,
    /// Cases that conform.
    pub passed: usize,
    /// One line per case that does not.
    pub failures: Vec<String>,
    /// Set when the group was refused (neither passed nor failed).
    pub refused: Option<String>,
}

impl GroupCheck {
    pub(crate) fn new(tg_id: u64, what: impl Into<String>) -> Self {
        GroupCheck {
            tg_id,
            what: what.into(),
            passed: 0,
            failures: Vec::new(),
            refused: None,
        }
    }

    pub(crate) fn refused(tg_id: u64, what: impl Into<String>, why: impl Into<String>) -> Self {
        GroupCheck {
            refused: Some(why.into()),
            ..GroupCheck::new(tg_id, what)
        }
    }

    /// Records one case: passed when `failure` is `None`.
    pub(crate) fn case(&mut self, tc_id: u64, failure: Option<String>) {
        match failure {
            None => self.passed += 1,
            Some(why) => self.failures.push(format!("tcId {tc_id}: {why}")),
        }
    }

    /// How many cases failed.
    pub fn failed(&self) -> usize {
        self.failures.len()
    }
}

impl fmt::Display for GroupCheck {
    /// `tgId 7 (pss SHAKE-128 mgf1 2048): 5 passed, 0 failed`, or `... refused: why`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.refused {
            Some(why) => write!(f, "tgId {} ({}): refused: {why}", self.tg_id, self.what),
            None => write!(
                f,
                "tgId {} ({}): {} passed, {} failed",
                self.tg_id,
                self.what,
                self.passed,
                self.failed()
            ),
        }
    }
}

/// Reads a vector set's header (the mode), from either shape.
///
/// # Errors
///
/// [`Error::Parse`] if the text is not a vector set; [`Error::Acvp`] if it is not one we
/// answer.
pub fn mode_of(text: &str) -> Result<Mode> {
    let (_, h) = parse::<Header>(text)?;
    Mode::of(&h)
}

/// Answers a prompt (`prompt.json` as the server sends it).
///
/// # Errors
///
/// [`Error::Parse`] for JSON that is not a vector set of its mode (serde's message and line);
/// [`Error::Acvp`] for a vector set we do not answer, or a value out of range (a key that
/// does not validate, a modulus size we cannot generate).
pub fn answer<R: CryptoRng + ?Sized>(prompt: &str, mut rng: &mut R) -> Result<Answer> {
    answer_with(prompt, &mut rng)
}

/// [`answer`] with the generator as a trait object: its body, and the deserialisers of every
/// mode it parses, are compiled once, in this crate, not again in each crate that calls it
/// with a generator type of its own (a generic function is compiled where it is called).
fn answer_with(prompt: &str, rng: &mut dyn CryptoRng) -> Result<Answer> {
    let mode = mode_of(prompt)?;
    let (version, json, refused) = match mode {
        Mode::SigGen => {
            let (v, set) = parse(prompt)?;
            let (resp, refused) = sig::answer_sig_gen(&set, rng)?;
            (v, to_json(&resp)?, refused)
        }
        Mode::SigVer => {
            let (v, set) = parse(prompt)?;
            let (resp, refused) = sig::answer_sig_ver(&set);
            (v, to_json(&resp)?, refused)
        }
        Mode::KeyGen => {
            let (v, set) = parse(prompt)?;
            let (resp, refused) = keygen::answer(&set, rng)?;
            (v, to_json(&resp)?, refused)
        }
        Mode::SignaturePrimitive | Mode::DecryptionPrimitive => {
            let (v, set) = parse(prompt)?;
            let (resp, refused) = prim::answer(mode, &set, rng);
            (v, to_json(&resp)?, refused)
        }
        Mode::DecryptionPrimitive1 => {
            let (v, set) = parse(prompt)?;
            let (resp, refused) = prim::answer_dec1(&set, rng)?;
            (v, to_json(&resp)?, refused)
        }
    };
    let json = match version {
        // Answer in the shape asked: the server's array carries the version first.
        Some(v) => format!("[\n{},\n{json}\n]", to_json(&v)?),
        None => json,
    };
    Ok(Answer {
        mode,
        json,
        refused,
    })
}

/// Checks a response against its prompt and, when given, the server's expected results.
///
/// Deterministic answers (sigVer verdicts, primitives, keys from the server's inputs) are
/// compared with `expected`; answers the implementation chooses (its own keys, its
/// signatures) are validated as the server does. Modes whose answers cannot be validated
/// without them (sigVer, keyGen from the server's inputs) need `expected`.
///
/// # Errors
///
/// [`Error::Parse`] / [`Error::Acvp`] if a file is not a vector set of the prompt's mode,
/// belongs to another vector set, or is needed and missing.
pub fn check(prompt: &str, response: &str, expected: Option<&str>) -> Result<Vec<GroupCheck>> {
    let mode = mode_of(prompt)?;
    let (_, ph) = parse::<Header>(prompt)?;
    let (_, rh) = parse::<Header>(response)?;
    same_set(&ph, &rh, "response")?;
    if let Some(x) = expected {
        let (_, eh) = parse::<Header>(x)?;
        same_set(&ph, &eh, "expected results")?;
    }
    match mode {
        Mode::SigGen => sig::check_sig_gen(
            &parse(prompt)?.1,
            &parse(response)?.1,
            expected.map(parse).transpose()?.map(|x| x.1).as_ref(),
        ),
        Mode::SigVer => {
            let Some(x) = expected else {
                return Err(Error::Acvp(
                    "sigVer: the verdicts can only be checked against the expected results \
                     (--expected)"
                        .to_owned(),
                ));
            };
            Ok(sig::check_verdicts(
                &parse(prompt)?.1,
                &parse(response)?.1,
                &parse(x)?.1,
            ))
        }
        Mode::KeyGen => keygen::check(
            &parse(prompt)?.1,
            &parse(response)?.1,
            expected.map(parse).transpose()?.map(|x| x.1).as_ref(),
        ),
        Mode::SignaturePrimitive | Mode::DecryptionPrimitive => Ok(prim::check(
            mode,
            &parse(prompt)?.1,
            &parse(response)?.1,
            expected.map(parse).transpose()?.map(|x| x.1).as_ref(),
        )),
        Mode::DecryptionPrimitive1 => Ok(prim::check_dec1(
            &parse(prompt)?.1,
            &parse(response)?.1,
            expected.map(parse).transpose()?.map(|x| x.1).as_ref(),
        )),
    }
}

fn same_set(prompt: &Header, other: &Header, what: &str) -> Result<()> {
    if prompt.vs_id != other.vs_id
        || !prompt.mode.eq_ignore_ascii_case(&other.mode)
        || !prompt.revision.eq_ignore_ascii_case(&other.revision)
    {
        return Err(Error::Acvp(format!(
            "the {what} are for vector set {} ({} / {}), the prompt is {} ({} / {})",
            other.vs_id, other.mode, other.revision, prompt.vs_id, prompt.mode, prompt.revision
        )));
    }
    Ok(())
}

/// Parses a vector set (or response, or expected results) of type `T`, bare or in the
/// server's `[{"acvVersion": ..}, {..}]` array.
///
/// # Errors
///
/// [`Error::Parse`] with serde_json's message and line.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<(Option<AcvVersion>, T)> {
    let json = |e: serde_json::Error| Error::parse(e.line(), e.to_string());
    if text.trim_start().starts_with('[') {
        let (v, t): (AcvVersion, T) = serde_json::from_str(text).map_err(json)?;
        Ok((Some(v), t))
    } else {
        Ok((None, serde_json::from_str(text).map_err(json)?))
    }
}

fn to_json<T: Serialize>(t: &T) -> Result<String> {
    serde_json::to_string_pretty(t).map_err(|e| Error::Acvp(format!("writing JSON: {e}")))
}

/// The hash an ACVP name (`SHA2-256`, `SHA3-512`, `SHAKE-128`, ...) stands for.
pub(crate) fn hash_of(name: &str) -> std::result::Result<rsatool_rsa::HashAlg, String> {
    name.parse::<rsatool_rsa::HashAlg>()
        .map_err(|_| format!("hash {name} is not supported"))
}

/// Strips leading zero bytes: ACVP pads some integers and not others.
pub(crate) fn trim(b: &[u8]) -> &[u8] {
    let start = b.iter().position(|&x| x != 0).unwrap_or(b.len());
    &b[start..]
}

/// The report of one vector set run end to end: answered, then checked.
#[derive(Debug, Clone)]
pub struct SetReport {
    /// The set's folder (or prompt file) as given.
    pub name: String,
    /// Its mode.
    pub mode: Mode,
    /// One entry per test group.
    pub groups: Vec<GroupCheck>,
}

impl SetReport {
    /// Cases that conform, over all groups.
    pub fn passed(&self) -> usize {
        self.groups.iter().map(|g| g.passed).sum()
    }

    /// Cases that do not.
    pub fn failed(&self) -> usize {
        self.groups.iter().map(GroupCheck::failed).sum()
    }

    /// Groups refused.
    pub fn refused(&self) -> usize {
        self.groups.iter().filter(|g| g.refused.is_some()).count()
    }
}

/// The file names of a vector set folder, as NIST's ACVP-Server `gen-val/json-files/` lays
/// them out.
pub const PROMPT_FILE: &str = "prompt.json";
/// The expected results beside [`PROMPT_FILE`].
pub const EXPECTED_FILE: &str = "expectedResults.json";

/// Answers and checks every vector set under `dir`: `dir` itself if it holds a
/// [`PROMPT_FILE`], else each subfolder that does (sorted by name), with the
/// [`EXPECTED_FILE`] beside it when there is one.
///
/// # Errors
///
/// An unreadable folder or file, or a set that cannot be answered or checked at all (the
/// error names the folder).
pub fn run_dir<R: CryptoRng + ?Sized>(
    dir: &std::path::Path,
    mut rng: &mut R,
) -> Result<Vec<SetReport>> {
    run_dir_with(dir, &mut rng)
}

/// [`run_dir`] with the generator as a trait object, compiled once, as [`answer_with`].
fn run_dir_with(dir: &std::path::Path, rng: &mut dyn CryptoRng) -> Result<Vec<SetReport>> {
    let io = |path: &std::path::Path, source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut folders = Vec::new();
    if dir.join(PROMPT_FILE).is_file() {
        folders.push(dir.to_path_buf());
    } else {
        for entry in std::fs::read_dir(dir).map_err(|e| io(dir, e))? {
            let path = entry.map_err(|e| io(dir, e))?.path();
            if path.join(PROMPT_FILE).is_file() {
                folders.push(path);
            }
        }
        folders.sort();
    }
    let mut out = Vec::new();
    for folder in folders {
        let name = folder.display().to_string();
        let in_set = |e: Error| match e {
            Error::Parse {
                file: None,
                line,
                message,
            } => Error::Parse {
                file: Some(folder.join(PROMPT_FILE)),
                line,
                message,
            },
            Error::Acvp(m) => Error::Acvp(format!("{name}: {m}")),
            other => other,
        };
        let prompt = crate::read_text(&folder.join(PROMPT_FILE))?;
        let expected_path = folder.join(EXPECTED_FILE);
        let expected = if expected_path.is_file() {
            Some(crate::read_text(&expected_path)?)
        } else {
            None
        };
        let answer = answer_with(&prompt, rng).map_err(in_set)?;
        let groups = check(&prompt, &answer.json, expected.as_deref()).map_err(in_set)?;
        out.push(SetReport {
            name,
            mode: answer.mode,
            groups,
        });
    }
    Ok(out)
}
