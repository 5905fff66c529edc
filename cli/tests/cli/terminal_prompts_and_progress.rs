//! What rsatool does on a terminal, on a pseudo-terminal that Python's `pty` module makes: password
//! prompts without echo, asked twice for a new key; `kat`'s progress with the elapsed time. Skipped
//! (with a note) where Python 3 is missing.

use std::path::Path;
use std::process::Command;

use tempfile::TempDir;

use crate::common::{openssl_opens, scratch, scratch_with_openssl_key, scratch_with_small_kat};

/// Runs the command on a new pseudo-terminal (stdin, stdout and stderr), answering each
/// "pass phrase" prompt with the next answer once the prompt is shown; prints everything the
/// terminal showed and exits with the command's code.
const PTY_DRIVER: &str = r#"
import os, pty, select, sys, time
sep = sys.argv.index("--")
answers, cmd = sys.argv[1:sep], sys.argv[sep + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(cmd[0], cmd)
shown, given = b"", 0
while True:
    ready, _, _ = select.select([fd], [], [], 60)
    if not ready:
        break
    try:
        data = os.read(fd, 4096)
    except OSError:
        break
    if not data:
        break
    shown += data
    if given < len(answers) and shown.count(b"pass phrase") > given:
        time.sleep(0.3)  # the prompt is shown just before echo is turned off
        os.write(fd, answers[given].encode() + b"\n")
        given += 1
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(shown)
sys.exit(os.waitstatus_to_exitcode(status))
"#;

/// What the terminal showed and the exit code, or `None` without Python 3.
fn on_terminal(dir: &Path, answers: &[&str], args: &[&str]) -> Option<(String, i32)> {
    let python = Command::new("python3").arg("--version").output();
    if !python.is_ok_and(|o| o.status.success()) {
        eprintln!("note: python3 is missing; the terminal tests are skipped");
        return None;
    }
    let out = Command::new("python3")
        .arg("-c")
        .arg(PTY_DRIVER)
        .args(answers)
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_rsatool"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("python3 runs");
    let code = out.status.code().expect("an exit code");
    Some((String::from_utf8_lossy(&out.stdout).into_owned(), code))
}

/// `keygen` of an encrypted 1024-bit `k.pem` on a terminal, typing `answers`.
fn keygen_on_terminal(dir: &Path, answers: &[&str]) -> Option<(String, i32)> {
    on_terminal(
        dir,
        answers,
        &["keygen", "--bits", "1024", "--encrypt", "-o", "k.pem"],
    )
}

/// A scratch folder in which `keygen` was run as in [`keygen_on_terminal`].
fn scratch_keygen_on_terminal(answers: &[&str]) -> Option<(TempDir, String, i32)> {
    let dir = scratch();
    let (shown, code) = keygen_on_terminal(dir.path(), answers)?;
    Some((dir, shown, code))
}

/// `key` re-encrypting `k.pem` into `k2.pem`, both passwords typed on the terminal.
fn reencrypt_on_terminal(dir: &Path, answers: &[&str]) -> (String, i32) {
    let args = [
        "key",
        "-k",
        "k.pem",
        "--passin",
        "stdin",
        "--passout",
        "stdin",
        "-o",
        "k2.pem",
    ];
    on_terminal(dir, answers, &args).expect("python3")
}

/// The exit code is `expected`, and the terminal showed each of `needles`.
fn assert_shown(shown: &str, code: i32, expected: i32, needles: &[&str]) {
    assert_eq!(code, expected, "{shown}");
    for needle in needles {
        assert!(shown.contains(needle), "{needle:?} not shown: {shown}");
    }
}

#[test]
fn a_new_password_typed_on_the_terminal_is_not_echoed_and_is_asked_twice() {
    let Some((dir, shown, code)) = scratch_keygen_on_terminal(&["tr0ub4dor", "tr0ub4dor"]) else {
        return;
    };
    let d = dir.path();
    assert_shown(
        &shown,
        code,
        0,
        &[
            "Enter pass phrase for the new key",
            "Verifying - Enter pass phrase",
        ],
    );
    assert!(!shown.contains("tr0ub4dor"), "echoed: {shown}");
    openssl_opens(d, "k.pem", "tr0ub4dor");
    // --passout stdin on a terminal: the same prompt, twice, no echo.
    let (shown, code) = reencrypt_on_terminal(d, &["c0rrect-h0rse", "c0rrect-h0rse", "tr0ub4dor"]);
    // Read first: the input key's password is asked before the new one.
    assert_shown(&shown, code, 2, &["wrong password"]);
    let (shown, code) = reencrypt_on_terminal(d, &["tr0ub4dor", "c0rrect-h0rse", "c0rrect-h0rse"]);
    assert_shown(
        &shown,
        code,
        0,
        &[
            "Enter pass phrase for k.pem",
            "Verifying - Enter pass phrase for the output key",
        ],
    );
    assert!(
        !shown.contains("tr0ub4dor") && !shown.contains("c0rrect"),
        "{shown}"
    );
    openssl_opens(d, "k2.pem", "c0rrect-h0rse");
}

#[test]
fn a_mismatched_or_short_typed_password_writes_nothing_and_exits_2() {
    let Some((dir, shown, code)) = scratch_keygen_on_terminal(&["tr0ub4dor", "tr0ub4dos"]) else {
        return;
    };
    let d = dir.path();
    assert_shown(&shown, code, 2, &["do not match"]);
    assert!(!d.join("k.pem").exists());
    let (shown, code) = keygen_on_terminal(d, &["abc"]).expect("python3");
    assert_shown(&shown, code, 2, &["too short"]);
    assert!(!shown.contains("Verifying"), "asked again: {shown}");
    assert!(!d.join("k.pem").exists());
}

#[test]
fn an_empty_password_typed_at_the_prompt_opens_a_key_encrypted_with_one() {
    let Some(dir) = scratch_with_openssl_key(1024, &["-aes256", "-pass", "pass:"], "empty.pem")
    else {
        return;
    };
    let d = dir.path();
    let Some((shown, code)) = on_terminal(d, &[""], &["pubkey", "-k", "empty.pem"]) else {
        return;
    };
    assert_shown(&shown, code, 0, &["-----BEGIN PUBLIC KEY-----"]);
}

#[test]
fn kat_shows_progress_with_the_elapsed_time_on_a_terminal() {
    let dir = scratch_with_small_kat();
    let Some((shown, code)) = on_terminal(dir.path(), &[], &["kat", "sets"]) else {
        return;
    };
    assert_shown(
        &shown,
        code,
        0,
        &["running the known-answer tests (0s)", "total:"],
    );
}

#[test]
fn keygen_of_a_large_key_shows_the_elapsed_time_on_a_terminal() {
    let dir = scratch();
    let args = ["keygen", "--bits", "4096", "-o", "k.pem"];
    let Some((shown, code)) = on_terminal(dir.path(), &[], &args) else {
        return;
    };
    assert_shown(&shown, code, 0, &["generating a 4096-bit RSA key (0s)"]);
}
