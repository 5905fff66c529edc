//! `rsatool encrypt` and `decrypt` on our own keys: round trips for every scheme, hash, MGF1
//! hash and label, exact message limits, implicit and explicit rejection, `-` for
//! stdin/stdout, and every bad input with its exit code, one error line and no output file.
//! Interop with openssl and Python is in `interop_encrypt.rs`.

use std::fs;
use std::path::Path;

use crate::common::{
    HASHES, assert_failure, assert_success, key, listing, public_key, rsatool, rsatool_fails,
    rsatool_in, rsatool_ok, s, scratch, write, wrong_lengths,
};

/// `encrypt` of `plain` into `ct` with the shared 2048-bit public key, then `extra`.
fn encrypt_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "encrypt",
        "-k",
        s(public_key(2048)),
        "-i",
        "plain",
        "-o",
        "ct",
    ];
    args.extend_from_slice(extra);
    args
}

fn encrypt(dir: &Path, msg: &[u8], extra: &[&str]) -> Vec<u8> {
    write(dir, "plain", msg);
    rsatool_ok(dir, &encrypt_args(extra));
    let ct = fs::read(dir.join("ct")).expect("ciphertext");
    assert_eq!(ct.len(), 256);
    ct
}

fn decrypt(dir: &Path, ct: &[u8], extra: &[&str]) -> std::process::Output {
    write(dir, "ct", ct);
    let _ = fs::remove_file(dir.join("out"));
    let mut args = vec!["decrypt", "-k", s(key(2048)), "-i", "ct", "-o", "out"];
    args.extend_from_slice(extra);
    rsatool_in(dir, &args, None)
}

fn assert_decrypts_to(dir: &Path, out: &std::process::Output, msg: &[u8]) {
    assert_success(out);
    assert_eq!(fs::read(dir.join("out")).expect("decrypted"), msg);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(dir.join("out"))
            .expect("out")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "decrypted messages are private");
    }
}

#[test]
fn encryption_round_trips_for_every_scheme_hash_mgf1_and_label() {
    let dir = scratch();
    let d = dir.path();
    let msg = b"a 32-byte symmetric key, say....";
    for hash in HASHES {
        let ct = encrypt(d, msg, &["--scheme", "oaep", "--hash", hash]);
        assert_decrypts_to(
            d,
            &decrypt(d, &ct, &["--scheme", "oaep", "--hash", hash]),
            msg,
        );
        let wrong = if hash == "sha256" { "sha1" } else { "sha256" };
        let out = decrypt(d, &ct, &["--scheme", "oaep", "--hash", wrong]);
        assert_failure(&out, 1, &["ct: decryption failed"]);
        assert!(
            !d.join("out").exists(),
            "no output for a rejected ciphertext"
        );
        // MGF1 over another hash, and a label; without the label, or with another, rejected.
        let mgf1 = ["--scheme", "oaep", "--hash", hash, "--mgf1-hash", "sha1"];
        let with_label = |label| [&mgf1[..], &["--label", label]].concat();
        let ct = encrypt(d, msg, &with_label("context"));
        assert_decrypts_to(d, &decrypt(d, &ct, &with_label("context")), msg);
        for opts in [mgf1.to_vec(), with_label("other")] {
            let out = decrypt(d, &ct, &opts);
            assert_failure(&out, 1, &["decryption failed"]);
        }
    }
    // OAEP's default hash is SHA-256 for both the label and MGF1.
    let ct = encrypt(d, msg, &["--scheme", "oaep"]);
    assert_decrypts_to(
        d,
        &decrypt(
            d,
            &ct,
            &[
                "--scheme",
                "oaep",
                "--hash",
                "sha256",
                "--mgf1-hash",
                "sha256",
            ],
        ),
        msg,
    );
    // PKCS #1 v1.5, and the empty message.
    let ct = encrypt(d, msg, &["--scheme", "pkcs1v15"]);
    assert_decrypts_to(d, &decrypt(d, &ct, &["--scheme", "pkcs1v15"]), msg);
    assert_decrypts_to(
        d,
        &decrypt(d, &ct, &["--scheme", "pkcs1v15", "--explicit-rejection"]),
        msg,
    );
    let ct = encrypt(d, b"", &["--scheme", "oaep"]);
    assert_decrypts_to(d, &decrypt(d, &ct, &["--scheme", "oaep"]), b"");
}

#[test]
fn message_length_limits_are_exact_and_too_long_is_exit_2_with_no_output() {
    let dir = scratch();
    let d = dir.path();
    // k − 2·hLen − 2 for OAEP, k − 11 for PKCS #1 v1.5 (RFC 8017 §7.1.1, §7.2.1).
    for (opts, max) in [
        (&["--scheme", "oaep"][..], 256 - 2 * 32 - 2),
        (
            &["--scheme", "oaep", "--hash", "sha512"][..],
            256 - 2 * 64 - 2,
        ),
        (
            &["--scheme", "oaep", "--hash", "sha1"][..],
            256 - 2 * 20 - 2,
        ),
        (&["--scheme", "pkcs1v15"][..], 256 - 11),
    ] {
        let msg = vec![0x5a; max];
        let ct = encrypt(d, &msg, opts);
        assert_decrypts_to(d, &decrypt(d, &ct, opts), &msg);
        fs::remove_file(d.join("ct")).expect("remove");
        fs::remove_file(d.join("out")).expect("remove");
        for len in [max + 1, 300, 100_000] {
            write(d, "plain", &vec![0x5a; len]);
            rsatool_fails(
                d,
                &encrypt_args(opts),
                2,
                &["plain: message too long", &format!("at most {max}")],
            );
            assert_eq!(listing(d), ["plain"], "no ciphertext file");
        }
    }
}

#[test]
fn rejected_ciphertexts_exit_1_and_leave_no_file_and_implicit_rejection_answers_a_message() {
    let dir = scratch();
    let d = dir.path();
    let ct = encrypt(d, b"secret", &["--scheme", "oaep"]);
    let mut flipped = ct.clone();
    flipped[7] ^= 0x80;
    let mut cases = vec![(flipped.clone(), "the ciphertext was rejected".to_owned())];
    cases.extend(wrong_lengths(&ct, 1, "ciphertexts"));
    cases.push((vec![0xff; 256], "rejected".to_owned()));
    for (bad, needle) in &cases {
        let out = decrypt(d, bad, &["--scheme", "oaep"]);
        assert_failure(&out, 1, &["ct: decryption failed", needle]);
        assert!(!d.join("out").exists(), "no output file");
        let out = decrypt(d, bad, &["--scheme", "pkcs1v15", "--explicit-rejection"]);
        assert_failure(&out, 1, &["decryption failed"]);
        assert!(!d.join("out").exists(), "no output file");
    }
    // Implicit rejection: an OAEP ciphertext is bad PKCS #1 v1.5 padding, yet decrypts with
    // exit 0 to a message that depends only on the key and the ciphertext.
    let first = decrypt(d, &ct, &["--scheme", "pkcs1v15"]);
    assert_success(&first);
    let m1 = fs::read(d.join("out")).expect("out");
    let second = decrypt(d, &ct, &["--scheme", "pkcs1v15"]);
    assert_success(&second);
    assert_eq!(fs::read(d.join("out")).expect("out"), m1, "deterministic");
    assert_ne!(m1, b"secret");
    let other = decrypt(d, &flipped, &["--scheme", "pkcs1v15"]);
    assert_success(&other);
    assert_ne!(
        fs::read(d.join("out")).expect("out"),
        m1,
        "depends on the ciphertext"
    );
    // The option's help says why it is dangerous.
    let help = String::from_utf8_lossy(&rsatool(&["decrypt", "--help"]).stdout).into_owned();
    assert!(help.contains("--explicit-rejection"), "{help}");
    assert!(
        help.contains("DANGEROUS") && help.contains("Bleichenbacher"),
        "{help}"
    );
}

#[test]
fn encrypt_and_decrypt_refuse_bad_arguments_and_keys_with_exit_2() {
    let dir = scratch();
    let d = dir.path();
    write(d, "plain", b"hi");
    let ct = encrypt(d, b"hi", &["--scheme", "oaep"]);
    write(d, "ct", &ct);
    let k = s(key(2048));
    let p = s(public_key(2048));
    for (args, needle) in [
        (
            &["encrypt", "-k", p, "-i", "plain", "-o", "x"][..],
            "--scheme",
        ),
        (
            &[
                "encrypt", "-k", p, "--scheme", "rsa", "-i", "plain", "-o", "x",
            ][..],
            "rsa",
        ),
        (
            &[
                "encrypt", "-k", p, "--scheme", "oaep", "--hash", "md5", "-i", "plain", "-o", "x",
            ][..],
            "md5",
        ),
        (
            &[
                "encrypt",
                "-k",
                p,
                "--scheme",
                "oaep",
                "--mgf1-hash",
                "sha3",
                "-i",
                "plain",
                "-o",
                "x",
            ][..],
            "sha3",
        ),
        (
            &[
                "encrypt", "-k", p, "--scheme", "pkcs1v15", "--label", "l", "-i", "plain", "-o",
                "x",
            ][..],
            "oaep only",
        ),
        (
            &[
                "encrypt", "-k", p, "--scheme", "pkcs1v15", "--hash", "sha256", "-i", "plain",
                "-o", "x",
            ][..],
            "oaep only",
        ),
        (
            &[
                "encrypt", "-k", "nokey", "--scheme", "oaep", "-i", "plain", "-o", "x",
            ][..],
            "nokey",
        ),
        (
            &[
                "encrypt", "-k", p, "--scheme", "oaep", "-i", "noplain", "-o", "x",
            ][..],
            "noplain",
        ),
        (
            &[
                "decrypt", "-k", p, "--scheme", "oaep", "-i", "ct", "-o", "x",
            ][..],
            "a public key, but this command needs a private key",
        ),
        (
            &[
                "decrypt",
                "-k",
                k,
                "--scheme",
                "oaep",
                "--explicit-rejection",
                "-i",
                "ct",
                "-o",
                "x",
            ][..],
            "pkcs1v15 only",
        ),
        (
            &[
                "decrypt", "-k", k, "--scheme", "oaep", "-i", "noct", "-o", "x",
            ][..],
            "noct: no such file",
        ),
        (
            &[
                "decrypt", "-k", k, "--scheme", "oaep", "-i", "ct", "-o", "no/dir/x",
            ][..],
            "no/dir/x",
        ),
    ] {
        rsatool_fails(d, args, 2, &[needle]);
        assert_eq!(listing(d), ["ct", "plain"], "{args:?} left a file");
    }
}

#[test]
fn encrypt_and_decrypt_through_stdin_and_stdout() {
    let dir = scratch();
    let d = dir.path();
    let k = s(key(2048));
    let out = rsatool_in(
        d,
        &["encrypt", "-k", k, "--scheme", "oaep"],
        Some(b"via pipes"),
    );
    assert_success(&out);
    assert_eq!(out.stdout.len(), 256);
    let args = ["decrypt", "-k", k, "--scheme", "oaep", "-i", "-", "-o", "-"];
    let back = rsatool_in(d, &args, Some(&out.stdout));
    assert_success(&back);
    assert_eq!(back.stdout, b"via pipes");
    assert!(listing(d).is_empty());
}
