//! What rsatool does on a terminal (issue 30, items 6 and 10), on a pseudo-terminal that
//! Python's `pty` module makes: password prompts without echo, asked twice for a new key;
//! `kat`'s progress with the elapsed time. Skipped (with a note) where Python 3 is missing.

mod common;

use std::path::Path;
use std::process::Command;

use common::{openssl, openssl_genrsa, scratch};

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

#[test]
fn a_new_password_typed_on_the_terminal_is_not_echoed_and_is_asked_twice() {
    let dir = scratch();
    let d = dir.path();
    let Some((shown, code)) = on_terminal(
        d,
        &["tr0ub4dor", "tr0ub4dor"],
        &["keygen", "--bits", "1024", "--encrypt", "-o", "k.pem"],
    ) else {
        return;
    };
    assert_eq!(code, 0, "{shown}");
    assert!(
        shown.contains("Enter pass phrase for the new key"),
        "{shown}"
    );
    assert!(shown.contains("Verifying - Enter pass phrase"), "{shown}");
    assert!(!shown.contains("tr0ub4dor"), "echoed: {shown}");
    openssl(
        d,
        &[
            "pkey",
            "-in",
            "k.pem",
            "-passin",
            "pass:tr0ub4dor",
            "-noout",
        ],
        None,
    );
    // --passout stdin on a terminal: the same prompt, twice, no echo.
    let (shown, code) = on_terminal(
        d,
        &["c0rrect-h0rse", "c0rrect-h0rse", "tr0ub4dor"],
        &[
            "key",
            "-k",
            "k.pem",
            "--passin",
            "stdin",
            "--passout",
            "stdin",
            "-o",
            "k2.pem",
        ],
    )
    .expect("python3");
    // Read first: the input key's password is asked before the new one.
    assert_eq!(code, 2, "{shown}");
    assert!(shown.contains("wrong password"), "{shown}");
    let (shown, code) = on_terminal(
        d,
        &["tr0ub4dor", "c0rrect-h0rse", "c0rrect-h0rse"],
        &[
            "key",
            "-k",
            "k.pem",
            "--passin",
            "stdin",
            "--passout",
            "stdin",
            "-o",
            "k2.pem",
        ],
    )
    .expect("python3");
    assert_eq!(code, 0, "{shown}");
    assert!(shown.contains("Enter pass phrase for k.pem"), "{shown}");
    assert!(shown.contains("Verifying - Enter pass phrase for the output key"));
    assert!(
        !shown.contains("tr0ub4dor") && !shown.contains("c0rrect"),
        "{shown}"
    );
    openssl(
        d,
        &[
            "pkey",
            "-in",
            "k2.pem",
            "-passin",
            "pass:c0rrect-h0rse",
            "-noout",
        ],
        None,
    );
}

#[test]
fn a_mismatched_or_short_typed_password_writes_nothing_and_exits_2() {
    let dir = scratch();
    let d = dir.path();
    let Some((shown, code)) = on_terminal(
        d,
        &["tr0ub4dor", "tr0ub4dos"],
        &["keygen", "--bits", "1024", "--encrypt", "-o", "k.pem"],
    ) else {
        return;
    };
    assert_eq!(code, 2, "{shown}");
    assert!(shown.contains("do not match"), "{shown}");
    assert!(!d.join("k.pem").exists());
    let (shown, code) = on_terminal(
        d,
        &["abc"],
        &["keygen", "--bits", "1024", "--encrypt", "-o", "k.pem"],
    )
    .expect("python3");
    assert_eq!(code, 2, "{shown}");
    assert!(shown.contains("too short"), "{shown}");
    assert!(!shown.contains("Verifying"), "asked again: {shown}");
    assert!(!d.join("k.pem").exists());
}

#[test]
fn an_empty_password_typed_at_the_prompt_opens_a_key_encrypted_with_one() {
    let dir = scratch();
    let d = dir.path();
    let Some(_) = openssl_genrsa(d, 1024, &["-aes256", "-pass", "pass:"], "empty.pem") else {
        return;
    };
    let Some((shown, code)) = on_terminal(d, &[""], &["pubkey", "-k", "empty.pem"]) else {
        return;
    };
    assert_eq!(code, 0, "{shown}");
    assert!(shown.contains("-----BEGIN PUBLIC KEY-----"), "{shown}");
}

#[test]
fn kat_shows_progress_with_the_elapsed_time_on_a_terminal() {
    let dir = scratch();
    let Some((shown, code)) = on_terminal(dir.path(), &[], &["kat"]) else {
        return;
    };
    assert_eq!(code, 0, "{shown}");
    assert!(
        shown.contains("running the known-answer tests (0s)"),
        "no progress: {shown}"
    );
    assert!(shown.contains("total:"), "{shown}");
}

#[test]
fn keygen_of_a_large_key_shows_the_elapsed_time_on_a_terminal() {
    let dir = scratch();
    let Some((shown, code)) = on_terminal(
        dir.path(),
        &[],
        &["keygen", "--bits", "4096", "-o", "k.pem"],
    ) else {
        return;
    };
    assert_eq!(code, 0, "{shown}");
    assert!(
        shown.contains("generating a 4096-bit RSA key (0s)"),
        "no elapsed time: {shown}"
    );
}
