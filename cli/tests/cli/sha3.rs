//! `rsatool sign` / `verify` with `--hash sha3-*` and `shake*`: OpenSSL (`openssl dgst`) is
//! the independent oracle for SHA-3 with PKCS #1 v1.5 and PSS, both ways; SHAKE (PSS with the
//! RFC 8702 SHAKE mask) round-trips, and PKCS #1 v1.5 refuses it with one line and exit 2.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use tempfile::TempDir;

use crate::common::{
    assert_failure, assert_success, key, openssl, public_key, rsatool, s, scratch,
};

/// A scratch folder with `msg` holding `text`, and the paths of `msg` and `sig` in it.
fn scratch_with_message(text: &[u8]) -> (TempDir, PathBuf, PathBuf) {
    let dir = scratch();
    let msg = dir.path().join("msg");
    fs::write(&msg, text).expect("write");
    let sig = dir.path().join("sig");
    (dir, msg, sig)
}

/// `rsatool sign` of `msg` into `sig` with the shared 2048-bit key, or `verify` of `sig` over
/// `msg` with its public key.
fn sign_or_verify(command: &str, scheme: &str, hash: &str, msg: &Path, sig: &Path) -> Output {
    let (key, sig_flag) = match command {
        "sign" => (key(2048), "-o"),
        _ => (public_key(2048), "-s"),
    };
    rsatool(&[
        command,
        "-k",
        s(key),
        "--scheme",
        scheme,
        "--hash",
        hash,
        "-i",
        s(msg),
        sig_flag,
        s(sig),
    ])
}

fn sign(scheme: &str, hash: &str, msg: &Path, sig: &Path) -> Output {
    sign_or_verify("sign", scheme, hash, msg, sig)
}

fn verify(scheme: &str, hash: &str, msg: &Path, sig: &Path) -> Output {
    sign_or_verify("verify", scheme, hash, msg, sig)
}

#[test]
fn sha3_signatures_interoperate_with_openssl() {
    let (dir, msg, sig) = scratch_with_message(b"FIPS 186-5 allows SHA-3 here");
    for (hash, scheme, sigopts) in [
        ("sha3-256", "pkcs1v15", &[][..]),
        ("sha3-512", "pkcs1v15", &[][..]),
        (
            "sha3-384",
            "pss",
            &[
                "-sigopt",
                "rsa_padding_mode:pss",
                "-sigopt",
                "rsa_pss_saltlen:-1",
            ][..],
        ),
    ] {
        let out = sign(scheme, hash, &msg, &sig);
        assert_success(&out);
        let mut args = vec![
            "dgst",
            match hash {
                "sha3-256" => "-sha3-256",
                "sha3-384" => "-sha3-384",
                _ => "-sha3-512",
            },
        ];
        args.extend_from_slice(sigopts);
        args.extend_from_slice(&[
            "-verify",
            s(public_key(2048)),
            "-signature",
            s(&sig),
            s(&msg),
        ]);
        let Some(out) = openssl(dir.path(), &args, None) else {
            eprintln!("skipped: no openssl");
            return;
        };
        assert!(String::from_utf8_lossy(&out.stdout).contains("Verified OK"));
        // And OpenSSL's signature verifies with rsatool.
        let mut args = vec!["dgst", args[1]];
        args.extend_from_slice(sigopts);
        args.extend_from_slice(&["-sign", s(key(2048)), "-out", s(&sig), s(&msg)]);
        openssl(dir.path(), &args, None);
        let out = verify(scheme, hash, &msg, &sig);
        assert_eq!(out.status.code(), Some(0), "{hash} {scheme}");
    }
}

#[test]
fn shake_is_for_pss_only() {
    let (dir, msg, sig) = scratch_with_message(b"m");
    for hash in ["shake128", "shake256"] {
        let out = sign("pss", hash, &msg, &sig);
        assert_success(&out);
        let verify_pss = |h: &str| verify("pss", h, &msg, &sig);
        assert_eq!(verify_pss(hash).status.code(), Some(0), "{hash}");
        let other = if hash == "shake128" {
            "shake256"
        } else {
            "shake128"
        };
        assert_eq!(
            verify_pss(other).status.code(),
            Some(1),
            "{hash} vs {other}"
        );
        let out = sign("pkcs1v15", hash, &msg, &dir.path().join("v15"));
        assert_failure(&out, 2, &["PKCS #1 v1.5"]);
    }
}
