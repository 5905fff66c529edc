//! The signature families of the known-answer suite: NIST CAVP `SigGen15` / `SigGenPSS`, RSA
//! Laboratories `pkcs1v15sign-vectors.txt` / `pss-vect.txt`, and every Wycheproof `rsa_sig`
//! set (PKCS #1 v1.5 and PSS).
//!
//! - Files with a private key (NIST `.txt` with `d`, both RSA Laboratories files) are signed
//!   and the signature must equal the file's byte for byte (PSS with the file's salt through
//!   [`Pss::sign_digest_with_salt`]); every signature must also verify. The NIST `.txt` files
//!   give n, e and d only: p and q are recovered from them (NIST SP 800-56B rev. 2, appendix
//!   C.2) to build the CRT key that signing uses.
//! - The `.rsp` files and Wycheproof are verify-only, with keys built from n and e.
//! - Keys below 1024 bits in the data load through the `_allowing_small` constructors.
//!
//! Wycheproof "acceptable" vectors: we accept exactly what RFC 8017 defines, one encoding per
//! digest (the DigestInfo of §9.2 note 1 with its NULL parameters for PKCS #1 v1.5; the
//! configured salt length for PSS), and reject the rest. Either verdict conforms, so an
//! acceptable vector always passes; how many were accepted and rejected is appended to the
//! report's file name.
//!
//! SHA-3 and SHAKE sets run like the others (SHAKE masks through [`rsatool_rsa::Mgf`]). A set whose
//! hash or mask generation function this toolkit does not implement is not run: its report's
//! file name ends in `(skipped: … N vectors)` and counts no vector as passed.

use std::path::Path;

use bignum::Nat;
use rsatool_rsa::{
    HashAlg, Pkcs1v15Sign, Pss, PublicKeyParts, RsaPrivateKey, RsaPublicKey, SaltLen,
    SignatureScheme,
};

use super::{FileReport, MIN_TEST_BITS, private_key, rsalabs_file};
use crate::pkcs1::CrtKey;
use crate::wycheproof::{self as wyche, Expected, MaskGen, SignatureSet};
use crate::{Result, nist, pkcs1};

/// Runs every signature vector, one report per file or Wycheproof set.
///
/// # Errors
///
/// A file that cannot be read or parsed, or a Wycheproof set that cannot be loaded.
pub(crate) fn run(dir: &Path) -> Result<Vec<FileReport>> {
    let mut out = vec![
        nist_file(dir, nist::SIG_GEN_15_186_2, Family::Pkcs1v15)?,
        nist_file(dir, nist::SIG_GEN_15_186_3, Family::Pkcs1v15)?,
        nist_file(dir, nist::SIG_GEN_PSS_186_2, Family::Pss)?,
        nist_file(dir, nist::SIG_GEN_PSS_186_3, Family::Pss)?,
        rsalabs_pkcs1v15(dir)?,
        rsalabs_pss(dir)?,
    ];
    for set in wyche::pkcs1v15_signature_sets()? {
        out.push(wycheproof_set(&set));
    }
    for set in wyche::pss_signature_sets()? {
        out.push(wycheproof_set(&set));
    }
    Ok(out)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Pkcs1v15,
    Pss,
}

fn public_key(n: &[u8], e: &[u8]) -> rsatool_rsa::Result<RsaPublicKey> {
    RsaPublicKey::from_parts_allowing_small(
        &PublicKeyParts {
            n: n.to_vec(),
            e: e.to_vec(),
        },
        MIN_TEST_BITS,
    )
}

/// p and q from n, e and d (NIST SP 800-56B rev. 2, appendix C.2): with e·d − 1 = 2^t·r, r
/// odd, some g^(2^i·r) is a non-trivial square root of 1 modulo n for most g, and
/// gcd(that − 1, n) is a factor. Public test data only: variable time.
fn recover_primes(n: &Nat, e: &Nat, d: &Nat) -> Option<(Nat, Nat)> {
    let k = (e * d).checked_sub(&Nat::one())?;
    let t = k.trailing_zeros()?;
    let r = &k >> t;
    let n_minus_1 = n.checked_sub(&Nat::one())?;
    for g in 2u64..100 {
        let mut y = Nat::from(g).pow_mod(&r, n);
        if y.is_one() || y == n_minus_1 {
            continue;
        }
        for _ in 0..t {
            let x = y.square().checked_rem(n)?;
            if x.is_one() {
                let p = y.checked_sub(&Nat::one())?.gcd(n);
                let (q, rem) = n.checked_div_rem(&p)?;
                return (rem.is_zero() && !p.is_one() && !q.is_one()).then_some((p, q));
            }
            if x == n_minus_1 {
                break;
            }
            y = x;
        }
    }
    None
}

/// The CRT key of n, e, d (p and q recovered), or why not.
fn key_from_ned(n: &[u8], e: &[u8], d: &[u8]) -> std::result::Result<RsaPrivateKey, String> {
    let (nn, en, dn) = (
        Nat::from_be_bytes(n),
        Nat::from_be_bytes(e),
        Nat::from_be_bytes(d),
    );
    let (p, q) = recover_primes(&nn, &en, &dn).ok_or("could not factor n from d")?;
    let one = Nat::one();
    let pm1 = &p - &one;
    let qm1 = &q - &one;
    let dp = &dn % &pm1;
    let dq = &dn % &qm1;
    // qInv = q^(p − 2) mod p: p is prime.
    let qinv = q.pow_mod(&(&p - 2u64), &p);
    private_key(&CrtKey {
        n: n.to_vec(),
        e: e.to_vec(),
        d: d.to_vec(),
        p: p.to_be_bytes(),
        q: q.to_be_bytes(),
        dp: dp.to_be_bytes(),
        dq: dq.to_be_bytes(),
        qinv: qinv.to_be_bytes(),
    })
    .map_err(|err| format!("key refused: {err}"))
}

/// Signs a digest with a key (the scheme and its salt captured).
type SignFn<'a> = dyn FnMut(&RsaPrivateKey, &[u8]) -> rsatool_rsa::Result<Vec<u8>> + 'a;

/// One vector that must verify (and, with a private key, be reproduced): the failure line, if
/// any.
fn check_valid(
    sign: &mut SignFn<'_>,
    verify: &dyn Fn(&RsaPublicKey, &[u8]) -> rsatool_rsa::Result<()>,
    public: &RsaPublicKey,
    private: Option<&RsaPrivateKey>,
    msg_digest: &[u8],
    sig: &[u8],
) -> Option<String> {
    if let Err(err) = verify(public, sig) {
        return Some(format!("valid signature rejected: {err}"));
    }
    if let Some(key) = private {
        match sign(key, msg_digest) {
            Ok(s) if s == sig => {}
            Ok(_) => return Some("signing gave another signature".to_owned()),
            Err(err) => return Some(format!("signing failed: {err}")),
        }
    }
    None
}

fn nist_file(dir: &Path, rel: &str, family: Family) -> Result<FileReport> {
    let file = nist::load_sig_gen(dir.join(rel))?;
    let mut report = FileReport::new(rel);
    let salt_len = file.salt_len.unwrap_or(0);
    let mut rng = rsatool_rsa::os_rng();
    for group in &file.groups {
        let public = public_key(&group.n, &group.e);
        let private = group
            .d
            .as_ref()
            .map(|d| key_from_ned(&group.n, &group.e, d));
        for v in &group.vectors {
            report.valid += 1;
            let failure = match (&public, &private) {
                (Err(err), _) => Some(format!("public key refused: {err}")),
                (_, Some(Err(err))) => Some(err.clone()),
                (Ok(public), private) => {
                    let private = private.as_ref().and_then(|k| k.as_ref().ok());
                    let digest = v.hash.digest(&v.msg);
                    match family {
                        Family::Pkcs1v15 => {
                            let scheme = Pkcs1v15Sign::new(v.hash);
                            check_valid(
                                &mut |k, d| scheme.sign_digest(k, &mut rng, d),
                                &|k, s| k.verify(&scheme, &v.msg, s),
                                public,
                                private,
                                &digest,
                                &v.s,
                            )
                        }
                        Family::Pss => {
                            let scheme = Pss::new(v.hash).with_salt_len(SaltLen::Exact(salt_len));
                            match (&v.salt, private) {
                                (Some(salt), _) if salt.len() != salt_len => {
                                    Some(format!("SaltVal is not {salt_len} bytes"))
                                }
                                (None, Some(_)) => Some("no SaltVal to sign with".to_owned()),
                                (salt, private) => {
                                    let salt = salt.clone().unwrap_or_default();
                                    check_valid(
                                        &mut |k, d| {
                                            scheme.sign_digest_with_salt(k, &mut rng, d, &salt)
                                        },
                                        &|k, s| k.verify(&scheme, &v.msg, s),
                                        public,
                                        private,
                                        &digest,
                                        &v.s,
                                    )
                                }
                            }
                        }
                    }
                }
            };
            tally(&mut report, failure, || format!("line {}", v.line));
        }
    }
    Ok(report)
}

fn tally(report: &mut FileReport, failure: Option<String>, id: impl FnOnce() -> String) {
    match failure {
        None => report.passed += 1,
        Some(what) => report.failures.push(format!("{}: {what}", id())),
    }
}

/// `pkcs1v15sign-vectors.txt`: SHA-1, signed byte for byte and verified.
fn rsalabs_pkcs1v15(dir: &Path) -> Result<FileReport> {
    let keys = pkcs1::load_pkcs1v15_sign(dir.join(pkcs1::PKCS1V15_SIGN))?;
    let scheme = Pkcs1v15Sign::new(HashAlg::Sha1);
    let mut rng = rsatool_rsa::os_rng();
    Ok(rsalabs_file(
        pkcs1::PKCS1V15_SIGN,
        keys,
        |v| v.line,
        |key, v| {
            check_valid(
                &mut |k, d| scheme.sign_digest(k, &mut rng, d),
                &|k, s| k.verify(&scheme, &v.message, s),
                key.public_key(),
                Some(key),
                &HashAlg::Sha1.digest(&v.message),
                &v.signature,
            )
        },
    ))
}

/// `pss-vect.txt`: SHA-1 with MGF1-SHA-1, the given salt (20 bytes); signed byte for byte and
/// verified.
fn rsalabs_pss(dir: &Path) -> Result<FileReport> {
    let keys = pkcs1::load_pss_vect(dir.join(pkcs1::PSS_VECT))?;
    let mut rng = rsatool_rsa::os_rng();
    Ok(rsalabs_file(
        pkcs1::PSS_VECT,
        keys,
        |v| v.line,
        |key, v| {
            let scheme = Pss::new(HashAlg::Sha1).with_salt_len(SaltLen::Exact(v.salt.len()));
            check_valid(
                &mut |k, d| scheme.sign_digest_with_salt(k, &mut rng, d, &v.salt),
                &|k, s| k.verify(&scheme, &v.message, s),
                key.public_key(),
                Some(key),
                &HashAlg::Sha1.digest(&v.message),
                &v.signature,
            )
        },
    ))
}

/// The scheme of a Wycheproof group, or the name of what we do not implement.
enum GroupScheme {
    Pkcs1v15(Pkcs1v15Sign),
    Pss(Pss),
}

fn group_scheme(g: &wyche::SignatureGroup) -> std::result::Result<GroupScheme, String> {
    let hash = g.params.hash.alg.ok_or(g.params.hash.name)?;
    match &g.params.pss {
        None => Ok(GroupScheme::Pkcs1v15(Pkcs1v15Sign::new(hash))),
        Some(p) => match p.mgf {
            MaskGen::Mgf1(h) => {
                let mgf1 = h.alg.ok_or(format!("MGF1 with {}", h.name))?;
                Ok(GroupScheme::Pss(
                    Pss::new(hash)
                        .with_mgf1_hash(mgf1)
                        .with_salt_len(SaltLen::Exact(p.salt_len)),
                ))
            }
            MaskGen::Shake128 => Ok(GroupScheme::Pss(
                Pss::new(hash)
                    .with_mgf(rsatool_rsa::Mgf::Shake128)
                    .with_salt_len(SaltLen::Exact(p.salt_len)),
            )),
            MaskGen::Shake256 => Ok(GroupScheme::Pss(
                Pss::new(hash)
                    .with_mgf(rsatool_rsa::Mgf::Shake256)
                    .with_salt_len(SaltLen::Exact(p.salt_len)),
            )),
        },
    }
}

fn wycheproof_set(set: &SignatureSet) -> FileReport {
    let mut report = FileReport::new(format!("wycheproof/{}", set.name));
    let (mut skipped, mut skip_why) = (0, Vec::<String>::new());
    let (mut acc_yes, mut acc_no) = (0, 0);
    for g in &set.groups {
        let scheme = match group_scheme(g) {
            Ok(s) => s,
            Err(why) => {
                skipped += g.tests.len();
                if !skip_why.contains(&why) {
                    skip_why.push(why);
                }
                continue;
            }
        };
        let key = public_key(&g.key.n, &g.key.e);
        for t in &g.tests {
            let verdict = match &key {
                Err(err) => Err(err.clone()),
                Ok(key) => match &scheme {
                    GroupScheme::Pkcs1v15(s) => key.verify(s, &t.msg, &t.sig),
                    GroupScheme::Pss(s) => key.verify(s, &t.msg, &t.sig),
                },
            };
            let failure = match (t.case.result, &verdict) {
                (Expected::Valid, Ok(())) | (Expected::Invalid, Err(_)) => None,
                (Expected::Valid, Err(err)) => Some(format!("valid signature rejected: {err}")),
                (Expected::Invalid, Ok(())) => Some("invalid signature accepted".to_owned()),
                (Expected::Acceptable, v) => {
                    if v.is_ok() {
                        acc_yes += 1;
                    } else {
                        acc_no += 1;
                    }
                    None
                }
            };
            match t.case.result {
                Expected::Valid => report.valid += 1,
                Expected::Invalid => report.invalid += 1,
                Expected::Acceptable => report.acceptable += 1,
            }
            let comment = &t.case.comment;
            tally(&mut report, failure, || {
                format!("tcId {} ({comment})", t.case.tc_id)
            });
        }
    }
    if report.acceptable > 0 {
        report.file = format!(
            "{} (acceptable: {acc_yes} accepted, {acc_no} rejected)",
            report.file
        );
    }
    if skipped > 0 {
        report.file = format!(
            "{} (skipped: {} unsupported, {skipped} vectors)",
            report.file,
            skip_why.join(", ")
        );
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_the_primes_of_a_small_key() {
        // p = 61, q = 53, n = 3233, e = 17, d = 2753 (the textbook example).
        let (p, q) = recover_primes(&Nat::from(3233u64), &Nat::from(17u64), &Nat::from(2753u64))
            .expect("factors");
        let mut f = [p.to_u64().unwrap(), q.to_u64().unwrap()];
        f.sort_unstable();
        assert_eq!(f, [53, 61]);
    }
}
