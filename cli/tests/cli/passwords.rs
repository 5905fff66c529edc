//! Passwords as OpenSSL takes them: a password from a source (pass:, env:, file:, fd:, piped
//! stdin) is taken as given, any length, empty included, to read a key and to write one, as
//! `openssl genpkey -aes256 -pass pass:kg` and `openssl pkey -passout pass:ab` take it; the
//! four-byte minimum belongs to the terminal prompt only. The prompt cannot be driven here (no
//! tty): `cli/tests/cli/terminal_prompts_and_progress.rs` and `cli/src/pass.rs` test it.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use tempfile::TempDir;

use crate::common::{
    assert_failure, assert_success, openssl, openssl_opens, rsatool_fails, scratch_with_openssl_key,
};

/// Runs rsatool in `dir` with `EMPTY_PW` set to "" and `SHORT_PW` to "abc", and `stdin` piped.
fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_rsatool"))
        .args(args)
        .env("EMPTY_PW", "")
        .env("SHORT_PW", "abc")
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rsatool starts");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(stdin)
        .expect("stdin written");
    child.wait_with_output().expect("rsatool runs")
}

/// A scratch folder with an OpenSSL key `k.pem`, and its public key (OpenSSL's SPKI PEM);
/// `None` without openssl.
fn openssl_key() -> Option<(TempDir, Vec<u8>)> {
    let dir = scratch_with_openssl_key(1024, &[], "k.pem")?;
    let public = openssl(dir.path(), &["pkey", "-in", "k.pem", "-pubout"], None)?.stdout;
    Some((dir, public))
}

/// [`openssl_key`], and `out`: `k.pem` encrypted by OpenSSL (AES-256) under `password`.
fn openssl_encrypted_key(password: &str, out: &str) -> Option<(TempDir, Vec<u8>)> {
    let (dir, public) = openssl_key()?;
    let pass = format!("pass:{password}");
    let args = [
        "pkey", "-in", "k.pem", "-aes256", "-passout", &pass, "-out", out,
    ];
    openssl(dir.path(), &args, None)?;
    Some((dir, public))
}

#[test]
fn a_key_encrypted_with_an_empty_password_by_openssl_opens_from_every_source() {
    let Some((dir, public)) = openssl_encrypted_key("", "empty.pem") else {
        return;
    };
    let d = dir.path();
    fs::write(d.join("empty-line.txt"), b"\n").expect("password file");
    for (src, stdin) in [
        ("pass:", &b""[..]),
        ("env:EMPTY_PW", b""),
        ("file:empty-line.txt", b""),
        ("stdin", b"\n"),
    ] {
        let out = run(d, &["pubkey", "-k", "empty.pem", "--passin", src], stdin);
        assert_success(&out);
        assert_eq!(out.stdout, public, "--passin {src}");
    }
    // An empty file holds no password at all (OpenSSL: "Error reading password from BIO").
    fs::write(d.join("nothing.txt"), b"").expect("empty file");
    let out = run(
        d,
        &["pubkey", "-k", "empty.pem", "--passin", "file:nothing.txt"],
        b"",
    );
    assert_failure(&out, 2, &["no password"]);
}

#[test]
fn a_short_or_empty_new_password_from_a_source_is_taken_as_given_as_openssl_takes_it() {
    let Some((dir, _)) = openssl_key() else {
        return;
    };
    let d = dir.path();
    // OpenSSL writes keys under such passwords: `openssl genpkey -pass pass:kg` (and
    // `openssl pkey -passout pass:ab`, `-pass pass:` alike).
    openssl(
        d,
        &[
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:1024",
            "-aes256",
            "-pass",
            "pass:kg",
            "-out",
            "openssl-kg.pem",
        ],
        None,
    );
    openssl_opens(d, "openssl-kg.pem", "kg");
    // rsatool keygen as a script written for openssl runs it, and OpenSSL opens the key.
    let out = run(
        d,
        &[
            "keygen",
            "--bits",
            "1024",
            "--passout",
            "pass:kg",
            "-o",
            "kg.pem",
        ],
        b"",
    );
    assert_success(&out);
    openssl_opens(d, "kg.pem", "kg");
    // rsatool key under a two-byte password, and from every source: short or empty, each
    // password is written as given and opens with OpenSSL (and with rsatool).
    fs::write(d.join("empty-line.txt"), b"\n").expect("password file");
    fs::write(d.join("short.txt"), b"abc\n").expect("password file");
    for (src, stdin, password) in [
        ("pass:ab", &b""[..], "ab"),
        ("pass:", b"", ""),
        ("env:EMPTY_PW", b"", ""),
        ("file:empty-line.txt", b"", ""),
        ("stdin", b"\n", ""),
        ("env:SHORT_PW", b"", "abc"),
        ("file:short.txt", b"", "abc"),
        ("stdin", b"abc\n", "abc"),
    ] {
        let _ = fs::remove_file(d.join("new.pem"));
        let out = run(
            d,
            &["key", "-k", "k.pem", "-o", "new.pem", "--passout", src],
            stdin,
        );
        assert_success(&out);
        assert!(
            fs::read_to_string(d.join("new.pem"))
                .expect("key")
                .starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----"),
            "--passout {src}"
        );
        openssl_opens(d, "new.pem", password);
        let pass = format!("pass:{password}");
        assert_success(&run(d, &["key", "-k", "new.pem", "--passin", &pass], b""));
    }
    // fd: too (Unix), here descriptor 0, rsatool's piped stdin holding "ab".
    #[cfg(unix)]
    {
        let _ = fs::remove_file(d.join("new.pem"));
        let out = run(
            d,
            &["key", "-k", "k.pem", "-o", "new.pem", "--passout", "fd:0"],
            b"ab\n",
        );
        assert_success(&out);
        openssl_opens(d, "new.pem", "ab");
    }
}

#[test]
fn encrypt_asks_on_the_terminal_and_without_one_names_the_option() {
    let Some((dir, _)) = openssl_key() else {
        return;
    };
    let d = dir.path();
    for args in [
        &["keygen", "--bits", "1024", "--encrypt", "-o", "new.pem"][..],
        &["key", "-k", "k.pem", "--encrypt", "-o", "new.pem"],
    ] {
        rsatool_fails(d, args, 2, &["no terminal", "--passout"]);
        assert!(!d.join("new.pem").exists());
    }
    // --encrypt with --passout takes the password from the source.
    let out = run(
        d,
        &[
            "key",
            "-k",
            "k.pem",
            "--encrypt",
            "--passout",
            "pass:four",
            "-o",
            "new.pem",
        ],
        b"",
    );
    assert_success(&out);
    assert!(
        fs::read_to_string(d.join("new.pem"))
            .expect("key")
            .starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----")
    );
    // PKCS #1 is never encrypted: refused before any password is asked.
    rsatool_fails(
        d,
        &["key", "-k", "k.pem", "--pkcs1", "--encrypt"],
        2,
        &["--pkcs1", "PKCS #8"],
    );
}

#[test]
fn passin_stdin_and_passout_stdin_take_the_first_and_second_lines() {
    let Some((dir, _)) = openssl_encrypted_key("old1", "enc.pem") else {
        return;
    };
    let d = dir.path();
    let out = run(
        d,
        &[
            "key",
            "-k",
            "enc.pem",
            "--passin",
            "stdin",
            "--passout",
            "stdin",
            "-o",
            "new.pem",
        ],
        b"old1\nnew2\n",
    );
    assert_success(&out);
    openssl_opens(d, "new.pem", "new2");
}
