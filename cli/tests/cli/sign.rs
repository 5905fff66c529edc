//! `rsatool sign`, `verify` and `kat` on our own keys: round trips for every scheme, hash and
//! salt length, `-` for stdin/stdout, and every bad input with its exit code, one error line
//! and no output file. Interop with openssl and Python is in `interop_sign.rs`.

use std::fs;
use std::path::Path;

use crate::common::{
    HASHES, assert_failure, assert_success, key, listing, public_key, rsatool, rsatool_fails,
    rsatool_in, rsatool_ok, s, scratch, scratch_with, write, wrong_lengths,
};

fn sign(dir: &Path, extra: &[&str]) -> Vec<u8> {
    let mut args = vec!["sign", "-k", s(key(2048)), "-i", "msg"];
    args.extend_from_slice(extra);
    let out = rsatool_ok(dir, &args);
    assert_eq!(out.stdout.len(), 256, "{extra:?}: a signature as long as n");
    out.stdout
}

fn verify(dir: &Path, sig: &[u8], extra: &[&str]) -> std::process::Output {
    write(dir, "sig", sig);
    let mut args = vec![
        "verify",
        "-k",
        s(public_key(2048)),
        "-i",
        "msg",
        "-s",
        "sig",
    ];
    args.extend_from_slice(extra);
    rsatool_in(dir, &args, None)
}

fn assert_valid(out: &std::process::Output) {
    assert_success(out);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Verified OK\n");
}

#[test]
fn signatures_round_trip_for_every_scheme_hash_and_salt() {
    let dir = scratch_with("msg", b"the quick brown fox jumps over the lazy dog\n");
    let d = dir.path();
    for &hash in &HASHES[1..] {
        let v1 = sign(d, &["--scheme", "pkcs1v15", "--hash", hash]);
        assert_valid(&verify(d, &v1, &["--scheme", "pkcs1v15", "--hash", hash]));
        // PKCS #1 v1.5 is deterministic.
        assert_eq!(
            v1,
            sign(d, &["--scheme", "pkcs1v15", "--hash", hash]),
            "{hash}"
        );
        // The wrong hash or scheme does not verify.
        let other = if hash == "sha256" { "sha384" } else { "sha256" };
        let bad = verify(d, &v1, &["--scheme", "pkcs1v15", "--hash", other]);
        assert_failure(&bad, 1, &["sig", "invalid signature"]);
        assert_failure(
            &verify(d, &v1, &["--scheme", "pss", "--hash", hash]),
            1,
            &["invalid"],
        );

        let pss = sign(d, &["--scheme", "pss", "--hash", hash]);
        assert_valid(&verify(d, &pss, &["--scheme", "pss", "--hash", hash]));
        assert_valid(&verify(
            d,
            &pss,
            &["--scheme", "pss", "--hash", hash, "--salt-len", "auto"],
        ));
        // PSS is randomised.
        assert_ne!(pss, sign(d, &["--scheme", "pss", "--hash", hash]), "{hash}");
    }
    for (sign_salt, verify_salts, wrong) in [
        ("0", &["0", "auto"][..], "32"),
        ("20", &["20", "auto"][..], "32"),
        ("max", &["max", "auto", "222"][..], "32"),
    ] {
        let sig = sign(d, &["--scheme", "pss", "--salt-len", sign_salt]);
        for v in verify_salts {
            assert_valid(&verify(d, &sig, &["--scheme", "pss", "--salt-len", v]));
        }
        let bad = verify(d, &sig, &["--scheme", "pss", "--salt-len", wrong]);
        assert_failure(&bad, 1, &["invalid signature"]);
    }
}

#[test]
fn tampered_short_long_and_oversized_signatures_are_invalid_with_exit_1() {
    let dir = scratch_with("msg", b"message");
    let d = dir.path();
    let sig = sign(d, &["--scheme", "pss"]);
    let mut flipped = sig.clone();
    flipped[100] ^= 1;
    let not_below_n = vec![0xffu8; 256];
    let mut cases = vec![(flipped, "invalid signature".to_owned())];
    cases.extend(wrong_lengths(&sig, 0, "signatures"));
    cases.push((not_below_n, "invalid signature".to_owned()));
    for (bad, needle) in &cases {
        assert_failure(&verify(d, bad, &["--scheme", "pss"]), 1, &["sig:", needle]);
    }
    // A changed message.
    write(d, "msg", b"messagf");
    assert_failure(
        &verify(d, &sig, &["--scheme", "pss"]),
        1,
        &["invalid signature"],
    );
}

#[test]
fn sign_and_verify_through_stdin_and_stdout_and_any_key_format() {
    let dir = scratch();
    let d = dir.path();
    let msg = b"piped message".to_vec();
    // Message on stdin, signature on stdout.
    let out = rsatool_in(
        d,
        &[
            "sign",
            "-k",
            s(key(2048)),
            "--scheme",
            "pss",
            "-i",
            "-",
            "-o",
            "-",
        ],
        Some(&msg),
    );
    assert_success(&out);
    write(d, "msg", &msg);
    assert_valid(&verify(d, &out.stdout, &["--scheme", "pss"]));
    // Signature on stdin; the private key file verifies as well as the public one.
    let v = rsatool_in(
        d,
        &[
            "verify",
            "-k",
            s(key(2048)),
            "--scheme",
            "pss",
            "-i",
            "msg",
            "-s",
            "-",
        ],
        Some(&out.stdout),
    );
    assert_valid(&v);
    // The key on stdin, in DER.
    let der = rsatool(&["pubkey", "-k", s(key(2048)), "--format", "der"]).stdout;
    let v = rsatool_in(
        d,
        &[
            "verify", "-k", "-", "--scheme", "pss", "-i", "msg", "-s", "sig",
        ],
        Some(&der),
    );
    assert_valid(&v);
    // Two inputs cannot both be stdin.
    let out = rsatool_in(d, &["sign", "-k", "-", "--scheme", "pss"], Some(b""));
    assert_failure(&out, 2, &["stdin"]);
    let out = rsatool_in(
        d,
        &["verify", "-k", "pub", "--scheme", "pss", "-s", "-"],
        Some(b""),
    );
    assert_failure(&out, 2, &["stdin"]);
}

#[test]
fn sign_and_verify_refuse_bad_arguments_and_keys_with_exit_2_and_no_output() {
    let dir = scratch_with("msg", b"message");
    let d = dir.path();
    let k = s(key(2048));
    let p = s(public_key(2048));
    // Without --scheme, sign and verify take PKCS #1 v1.5 as OpenSSL's dgst does, and
    // --salt-len auto / -3 mean max when signing (openssl_habits.rs tests both).
    for (args, needle) in [
        (
            &["sign", "-k", k, "--scheme", "rsa", "-i", "msg", "-o", "sig"][..],
            "rsa",
        ),
        (
            &[
                "sign", "-k", k, "--scheme", "pss", "--hash", "sha1", "-i", "msg", "-o", "sig",
            ][..],
            "SHA-1",
        ),
        (
            &[
                "sign", "-k", k, "--scheme", "pss", "--hash", "md5", "-i", "msg", "-o", "sig",
            ][..],
            "md5",
        ),
        (
            &[
                // SHA-3 is supported; SHAKE has no PKCS #1 v1.5 DigestInfo.
                "sign", "-k", k, "--scheme", "pkcs1v15", "--hash", "shake128", "-i", "msg", "-o",
                "sig",
            ][..],
            "SHAKE128",
        ),
        (
            &[
                "sign",
                "-k",
                k,
                "--scheme",
                "pss",
                "--salt-len",
                "4096",
                "-i",
                "msg",
                "-o",
                "sig",
            ][..],
            "digest, max or auto",
        ),
        (
            &[
                "sign",
                "-k",
                k,
                "--scheme",
                "pss",
                "--salt-len",
                "many",
                "-i",
                "msg",
                "-o",
                "sig",
            ][..],
            "salt",
        ),
        (
            &[
                "sign",
                "-k",
                k,
                "--scheme",
                "pkcs1v15",
                "--salt-len",
                "0",
                "-i",
                "msg",
                "-o",
                "sig",
            ][..],
            "pss only",
        ),
        (
            &[
                "sign",
                "-k",
                k,
                "--scheme",
                "pss",
                "--salt-len",
                "300",
                "-i",
                "msg",
                "-o",
                "sig",
            ][..],
            "too small",
        ),
        (
            &["sign", "-k", p, "--scheme", "pss", "-i", "msg", "-o", "sig"][..],
            "a public key, but this command needs a private key",
        ),
        (
            &[
                "sign", "-k", k, "--scheme", "pss", "-i", "nomsg", "-o", "sig",
            ][..],
            "nomsg: no such file",
        ),
        (
            &[
                "sign", "-k", "nokey", "--scheme", "pss", "-i", "msg", "-o", "sig",
            ][..],
            "nokey: no such file",
        ),
        (
            &["verify", "-k", p, "--scheme", "pss", "-i", "msg"][..],
            "--signature",
        ),
        (
            &[
                "verify", "-k", p, "--scheme", "pss", "-i", "msg", "-s", "nosig",
            ][..],
            "nosig: no such file",
        ),
        (
            &[
                "verify",
                "-k",
                p,
                "--scheme",
                "pkcs1v15",
                "--salt-len",
                "auto",
                "-i",
                "msg",
                "-s",
                "msg",
            ][..],
            "pss only",
        ),
    ] {
        rsatool_fails(d, args, 2, &[needle]);
        assert_eq!(listing(d), ["msg"], "{args:?} left a file");
    }
    // Every bad key file, for sign (private) and verify (public).
    for (name, content, needle) in [
        ("empty.pem", &b""[..], "empty"),
        ("text.pem", &b"hello\n"[..], "not a PEM or DER RSA key"),
        (
            "half.pem",
            &fs::read(key(2048)).expect("key")[..900],
            "not a PEM or DER RSA key",
        ),
    ] {
        write(d, name, content);
        rsatool_fails(
            d,
            &[
                "sign", "-k", name, "--scheme", "pss", "-i", "msg", "-o", "sig",
            ],
            2,
            &[name, needle],
        );
        rsatool_fails(
            d,
            &[
                "verify", "-k", name, "--scheme", "pss", "-i", "msg", "-s", "msg",
            ],
            2,
            &[name, needle],
        );
        fs::remove_file(d.join(name)).expect("remove");
        assert_eq!(listing(d), ["msg"]);
    }
}

#[test]
fn kat_refuses_a_missing_or_empty_folder() {
    let dir = scratch();
    let out = rsatool(&["kat", s(&dir.path().join("nowhere"))]);
    assert_failure(&out, 2, &["nowhere", "no such folder"]);
    // An empty folder has none of the data files: an error naming the folder (or the first
    // missing file in it), not a pass.
    let out = rsatool(&["kat", s(dir.path())]);
    assert_failure(&out, 2, &[s(dir.path())]);
}

#[test]
fn kat_prints_a_line_per_file_and_a_total_that_adds_up() {
    let out = rsatool(&["kat"]);
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let (total, files) = lines.split_last().expect("a total line");
    let (mut passed, mut failed) = (0usize, 0usize);
    for line in files {
        // `file: N passed, M failed`
        let (_, counts) = line.rsplit_once(": ").expect("file: counts");
        let (p, f) = counts.split_once(" passed, ").expect("N passed, M failed");
        passed += p.parse::<usize>().expect("N");
        failed += f
            .strip_suffix(" failed")
            .expect("M failed")
            .parse::<usize>()
            .expect("M");
    }
    assert!(passed > 1000, "the suite ran: {passed} vectors");
    assert_eq!(failed, 0);
    assert_eq!(
        *total,
        format!("total: {passed} passed, 0 failed ({} files)", files.len())
    );
}
