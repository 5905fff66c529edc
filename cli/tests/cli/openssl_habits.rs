//! What an OpenSSL user expects of rsatool: `key` reads stdin once; a file of a key and another
//! key's certificate is refused; a rejected OAEP ciphertext names its parameters and OpenSSL's
//! default; OpenSSL's habits (no `--scheme` to sign or verify, `keygen` to stdout, `--format PEM`,
//! `--salt-len digest`, a hint for `-in`/`-out`/`-inkey`).
//!
//! Expected values come from `openssl` (skipped with a note where it is missing).

use std::fs;

use tempfile::TempDir;

use crate::common::{
    assert_success, has_openssl, key, openssl, openssl_dgst, openssl_genpss, rsatool_fails,
    rsatool_in, rsatool_ok, s, scratch, scratch_made_by, scratch_with_key,
};

/// A [`scratch_with_key`] folder with `msg` holding `msg`, for checks against openssl; `None`
/// if openssl is not installed.
fn openssl_scratch(msg: &[u8]) -> Option<TempDir> {
    if !has_openssl() {
        return None;
    }
    let dir = scratch_with_key();
    fs::write(dir.path().join("msg"), msg).expect("msg");
    Some(dir)
}

#[test]
fn key_reads_a_key_from_stdin_once_for_pkcs1_text_and_pubout() {
    let dir = scratch_with_key();
    let d = dir.path();
    let pem = fs::read(d.join("k.pem")).expect("key");
    let cases: [(&[&str], &[&str]); 3] = [
        (&["--pkcs1"], &["pkey", "-in", "k.pem", "-traditional"]),
        (&["--text"], &["pkey", "-in", "k.pem", "-text", "-noout"]),
        (&["--pubout"], &["pkey", "-in", "k.pem", "-pubout"]),
    ];
    for (ours, theirs) in cases {
        let mut args = vec!["key", "-k", "-"];
        args.extend_from_slice(ours);
        let got = rsatool_in(d, &args, Some(&pem));
        assert_success(&got);
        assert!(!got.stdout.is_empty(), "{ours:?}");
        if let Some(want) = openssl(d, theirs, None) {
            assert_eq!(
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&want.stdout),
                "{ours:?}"
            );
        }
    }
}

/// A scratch folder with `both.pem`, a file of key A followed by a self-signed certificate of
/// key B (made by openssl), the two keys (`a.pem`, `b.pem`) and `msg`; `None` without openssl.
fn scratch_with_key_and_other_cert() -> Option<TempDir> {
    scratch_made_by(|d| {
        if !has_openssl() {
            return None;
        }
        fs::copy(key(2048), d.join("a.pem")).expect("copy");
        fs::copy(key(3072), d.join("b.pem")).expect("copy");
        openssl(
            d,
            &[
                "req", "-x509", "-new", "-key", "b.pem", "-subj", "/CN=b", "-days", "1", "-out",
                "b.crt",
            ],
            None,
        )?;
        let mut both = fs::read(d.join("a.pem")).expect("a");
        both.extend(fs::read(d.join("b.crt")).expect("cert"));
        fs::write(d.join("both.pem"), both).expect("write");
        fs::write(d.join("msg"), b"message").expect("msg");
        Some(())
    })
}

#[test]
fn a_key_beside_another_keys_certificate_is_refused_and_check_says_so() {
    let Some(dir) = scratch_with_key_and_other_cert() else {
        return;
    };
    let d = dir.path();
    for args in [
        &["sign", "-k", "both.pem", "-i", "msg", "-o", "sig"][..],
        &["pubkey", "-k", "both.pem"],
        &["encrypt", "-k", "both.pem", "--scheme", "oaep", "-i", "msg"],
        &["decrypt", "-k", "both.pem", "--scheme", "oaep", "-i", "msg"],
        &["key", "-k", "both.pem", "--pkcs1"],
    ] {
        rsatool_fails(d, args, 2, &["both.pem", "certificate", "do not match"]);
    }
    assert!(!d.join("sig").exists());
    // verify too (the signature made with the key alone).
    rsatool_ok(d, &["sign", "-k", "a.pem", "-i", "msg", "-o", "sig"]);
    rsatool_fails(
        d,
        &["verify", "-k", "both.pem", "-i", "msg", "-s", "sig"],
        2,
        &["do not match"],
    );
    rsatool_fails(
        d,
        &["key", "-k", "both.pem", "--check"],
        1,
        &["not ok", "do not match"],
    );
    // The matching pair still works.
    let mut good = fs::read(d.join("b.pem")).expect("b");
    good.extend(fs::read(d.join("b.crt")).expect("cert"));
    fs::write(d.join("good.pem"), good).expect("write");
    rsatool_ok(d, &["key", "-k", "good.pem", "--check"]);
}

#[test]
fn a_rejected_oaep_ciphertext_names_the_parameters_and_openssls_default() {
    let Some(dir) = openssl_scratch(b"secret") else {
        return;
    };
    let d = dir.path();
    // OpenSSL's OAEP default: SHA-1 for the hash and MGF1.
    openssl(
        d,
        &[
            "pkeyutl",
            "-encrypt",
            "-inkey",
            "k.pem",
            "-pkeyopt",
            "rsa_padding_mode:oaep",
            "-in",
            "msg",
            "-out",
            "ct",
        ],
        None,
    );
    rsatool_fails(
        d,
        &["decrypt", "-k", "k.pem", "--scheme", "oaep", "-i", "ct"],
        1,
        &["rejected", "SHA-256", "no label", "--hash sha1"],
    );
    let got = rsatool_ok(
        d,
        &[
            "decrypt", "-k", "k.pem", "--scheme", "oaep", "--hash", "sha1", "-i", "ct",
        ],
    );
    assert_eq!(got.stdout, b"secret");
}

#[test]
fn sign_and_verify_default_to_pkcs1v15_as_openssl_dgst_and_pss_for_a_pss_key() {
    let Some(dir) = openssl_scratch(b"message") else {
        return;
    };
    let d = dir.path();
    // PKCS #1 v1.5 is deterministic: the signature equals openssl dgst's.
    rsatool_ok(d, &["sign", "-k", "k.pem", "-i", "msg", "-o", "ours.sig"]);
    openssl_dgst(d, "sha256", "-sign", "k.pem", &[], "theirs.sig", "msg");
    assert_eq!(
        fs::read(d.join("ours.sig")).expect("ours"),
        fs::read(d.join("theirs.sig")).expect("theirs")
    );
    rsatool_ok(
        d,
        &["verify", "-k", "k.pem", "-i", "msg", "-s", "theirs.sig"],
    );
    // An RSA-PSS key implies PSS.
    openssl_genpss(d, &[], "pss.pem");
    rsatool_ok(d, &["sign", "-k", "pss.pem", "-i", "msg", "-o", "pss.sig"]);
    openssl_dgst(
        d,
        "sha256",
        "-prverify",
        "pss.pem",
        &["rsa_padding_mode:pss"],
        "pss.sig",
        "msg",
    );
    rsatool_ok(
        d,
        &["verify", "-k", "pss.pem", "-i", "msg", "-s", "pss.sig"],
    );
}

#[test]
fn keygen_writes_to_stdout_without_o_and_format_takes_any_case() {
    let dir = scratch();
    let d = dir.path();
    let got = rsatool_ok(d, &["keygen", "--bits", "1024", "--format", "PEM"]);
    assert!(got.stdout.starts_with(b"-----BEGIN PRIVATE KEY-----"));
    fs::write(d.join("k.pem"), &got.stdout).expect("write");
    let got = rsatool_ok(d, &["pubkey", "-k", "k.pem", "--format", "Der"]);
    assert_eq!(got.stdout.first(), Some(&0x30), "DER");
    if let Some(want) = openssl(
        d,
        &["pkey", "-in", "k.pem", "-pubout", "-outform", "DER"],
        None,
    ) {
        assert_eq!(got.stdout, want.stdout);
    }
}

#[test]
fn salt_len_digest_max_and_auto_as_openssl_takes_them() {
    let Some(dir) = openssl_scratch(b"message") else {
        return;
    };
    let d = dir.path();
    // Each of our salt spellings against OpenSSL's verifier told the expected length:
    // digest = 32 for SHA-256, max (and auto when signing) = 256 - 32 - 2 = 222.
    for (ours, theirs) in [("digest", "32"), ("max", "222"), ("auto", "222")] {
        rsatool_ok(
            d,
            &[
                "sign",
                "-k",
                "k.pem",
                "--scheme",
                "PSS",
                "--salt-len",
                ours,
                "-i",
                "msg",
                "-o",
                "sig",
                "--force",
            ],
        );
        openssl_dgst(
            d,
            "sha256",
            "-prverify",
            "k.pem",
            &["rsa_padding_mode:pss", &format!("rsa_pss_saltlen:{theirs}")],
            "sig",
            "msg",
        );
        let got = rsatool_in(
            d,
            &[
                "verify",
                "-k",
                "k.pem",
                "--scheme",
                "pss",
                "--salt-len",
                ours,
                "-i",
                "msg",
                "-s",
                "sig",
            ],
            None,
        );
        assert_eq!(got.status.code(), Some(0), "verify --salt-len {ours}");
    }
}

#[test]
fn openssl_spellings_get_a_hint_naming_our_option() {
    let dir = scratch_with_key();
    let d = dir.path();
    for (args, ours) in [
        (&["sign", "-inkey", "k.pem", "-in", "msg"][..], "-k/--key"),
        (&["pubkey", "-k", "k.pem", "-out", "pub.pem"], "-o/--output"),
        (
            &["verify", "-k", "k.pem", "-in", "msg", "-s", "x"],
            "-i/--input",
        ),
        (
            &["sign", "-k", "k.pem", "-sha256", "-i", "msg"],
            "--hash sha256",
        ),
    ] {
        rsatool_fails(d, args, 2, &["OpenSSL's spelling", ours, "--help"]);
    }
    assert!(!d.join("pub.pem").exists());
    let _ = s(d);
}
