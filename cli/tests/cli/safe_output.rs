//! Outputs that keep what is there: an output never destroys an input; an existing file is
//! rewritten in place (owner, group, mode and hard links kept; a read-only one only with
//! `--force`); a pipe named as the output (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`) is written
//! to.
//!
//! Ownership is checked as root (a file given to another uid must keep it) and skipped with a
//! note otherwise; the ordinary-user case of a read-only file runs through `setpriv` as
//! `nobody` where root can, and with the current user otherwise.

#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::{
    assert_failure, assert_success, key, listing, rsatool_fails, rsatool_in, rsatool_ok, scratch,
    scratch_with_key,
};

fn mode(path: &Path) -> u32 {
    fs::metadata(path).expect("metadata").permissions().mode() & 0o7777
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A copy of the shared 2048-bit key in `dir` as `name`.
fn key_copy(dir: &Path, name: &str) -> Vec<u8> {
    let bytes = fs::read(key(2048)).expect("key");
    fs::write(dir.join(name), &bytes).expect("write");
    bytes
}

/// An existing file `name` in `dir`, holding "old", of mode `mode`.
fn old_file(dir: &Path, name: &str, mode: u32) {
    fs::write(dir.join(name), b"old").expect("write");
    fs::set_permissions(dir.join(name), fs::Permissions::from_mode(mode)).expect("chmod");
}

/// Runs the `bash` script in `dir`, with no stdin.
fn bash(dir: &Path, script: &str) -> Output {
    Command::new("bash")
        .args(["-c", script])
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("bash runs")
}

#[test]
fn an_output_that_names_an_input_is_refused_and_the_input_kept() {
    let dir = scratch();
    let d = dir.path();
    let original = key_copy(d, "k.pem");
    fs::write(d.join("msg"), b"hello").expect("msg");
    std::os::unix::fs::symlink("k.pem", d.join("link.pem")).expect("symlink");
    fs::hard_link(d.join("k.pem"), d.join("hard.pem")).expect("hard link");
    for out in ["k.pem", "link.pem", "hard.pem", "./sub/../k.pem"] {
        fs::create_dir_all(d.join("sub")).expect("sub");
        rsatool_fails(
            d,
            &["pubkey", "-k", "k.pem", "-o", out],
            2,
            &["same file", "--key"],
        );
        rsatool_fails(
            d,
            &["sign", "-k", "k.pem", "-i", "msg", "-o", out, "--force"],
            2,
            &["same file", "--key"],
        );
        rsatool_fails(
            d,
            &["key", "-k", "k.pem", "--pkcs1", "-o", out],
            2,
            &["same file"],
        );
        assert_eq!(fs::read(d.join("k.pem")).expect("key"), original, "{out}");
    }
    // The message signed onto itself.
    rsatool_fails(
        d,
        &["sign", "-k", "k.pem", "-i", "msg", "-o", "msg"],
        2,
        &["same file", "--input"],
    );
    assert_eq!(fs::read(d.join("msg")).expect("msg"), b"hello");
    // A ciphertext decrypted onto itself.
    rsatool_ok(
        d,
        &[
            "encrypt", "-k", "k.pem", "--scheme", "oaep", "-i", "msg", "-o", "c.enc",
        ],
    );
    let ct = fs::read(d.join("c.enc")).expect("ct");
    rsatool_fails(
        d,
        &[
            "decrypt", "-k", "k.pem", "--scheme", "oaep", "-i", "c.enc", "-o", "c.enc",
        ],
        2,
        &["same file", "--input"],
    );
    assert_eq!(fs::read(d.join("c.enc")).expect("ct"), ct);
    // A password file is an input too.
    fs::write(d.join("pw"), b"secret\n").expect("pw");
    rsatool_fails(
        d,
        &[
            "keygen",
            "--bits",
            "1024",
            "--passout",
            "file:pw",
            "-o",
            "pw",
        ],
        2,
        &["same file", "--passout"],
    );
    assert_eq!(fs::read(d.join("pw")).expect("pw"), b"secret\n");
    // Stdout that is the key file (`1<>k.pem`): refused too.
    let file = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(d.join("k.pem"))
        .expect("open");
    let got = Command::new(env!("CARGO_BIN_EXE_rsatool"))
        .args(["pubkey", "-k", "k.pem"])
        .current_dir(d)
        .stdin(Stdio::null())
        .stdout(Stdio::from(file))
        .stderr(Stdio::piped())
        .output()
        .expect("runs");
    assert_eq!(got.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&got.stderr).contains("same file"));
    assert_eq!(fs::read(d.join("k.pem")).expect("key"), original);
}

#[test]
fn an_existing_file_is_rewritten_in_place_and_keeps_its_hard_links() {
    let dir = scratch_with_key();
    let d = dir.path();
    old_file(d, "pub.pem", 0o640);
    fs::hard_link(d.join("pub.pem"), d.join("other-name.pem")).expect("link");
    let inode = fs::metadata(d.join("pub.pem")).expect("meta").ino();
    rsatool_ok(d, &["pubkey", "-k", "k.pem", "-o", "pub.pem"]);
    let meta = fs::metadata(d.join("pub.pem")).expect("meta");
    assert_eq!(meta.ino(), inode, "the same inode");
    assert_eq!(meta.nlink(), 2, "the hard link is kept");
    assert_eq!(mode(&d.join("pub.pem")), 0o640);
    let other = fs::read(d.join("other-name.pem")).expect("other");
    assert!(
        other.starts_with(b"-----BEGIN PUBLIC KEY-----"),
        "{other:?}"
    );
    assert_eq!(listing(d), ["k.pem", "other-name.pem", "pub.pem"]);
}

#[test]
fn a_read_only_file_is_refused_unless_force_and_then_keeps_its_mode() {
    let dir = scratch_with_key();
    let d = dir.path();
    old_file(d, "ro.pem", 0o444);
    rsatool_fails(
        d,
        &["pubkey", "-k", "k.pem", "-o", "ro.pem"],
        2,
        &["ro.pem", "read-only", "--force"],
    );
    assert_eq!(fs::read(d.join("ro.pem")).expect("read"), b"old");
    rsatool_ok(d, &["pubkey", "-k", "k.pem", "-o", "ro.pem", "--force"]);
    assert_eq!(mode(&d.join("ro.pem")), 0o444);
    assert!(
        fs::read(d.join("ro.pem"))
            .expect("read")
            .starts_with(b"-----BEGIN PUBLIC KEY-----")
    );
    assert_eq!(listing(d), ["k.pem", "ro.pem"]);
}

#[test]
fn as_an_ordinary_user_a_read_only_file_of_ones_own_needs_force() {
    let dir = scratch();
    let d = dir.path();
    // Run as `nobody` where we are root (so that the permission checks are real ones).
    let nobody = is_root()
        && Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
            .status()
            .is_ok_and(|s| s.success());
    if !nobody && is_root() {
        eprintln!("note: setpriv is missing; the ordinary-user check is skipped");
        return;
    }
    fs::set_permissions(d, fs::Permissions::from_mode(0o777)).expect("chmod dir");
    key_copy(d, "k.pem");
    fs::set_permissions(d.join("k.pem"), fs::Permissions::from_mode(0o644)).expect("chmod");
    fs::write(d.join("ro.pem"), b"old").expect("write");
    let run = |extra: &[&str]| {
        let mut args = vec!["pubkey", "-k", "k.pem", "-o", "ro.pem"];
        args.extend_from_slice(extra);
        let mut cmd = if nobody {
            let mut c = Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(env!("CARGO_BIN_EXE_rsatool"));
            c
        } else {
            Command::new(env!("CARGO_BIN_EXE_rsatool"))
        };
        cmd.args(&args)
            .current_dir(d)
            .stdin(Stdio::null())
            .output()
            .expect("runs")
    };
    if nobody {
        std::os::unix::fs::chown(d.join("ro.pem"), Some(65534), Some(65534)).expect("chown");
    }
    fs::set_permissions(d.join("ro.pem"), fs::Permissions::from_mode(0o444)).expect("chmod");
    let got = run(&[]);
    assert_failure(&got, 2, &["read-only", "--force"]);
    assert_eq!(fs::read(d.join("ro.pem")).expect("read"), b"old");
    let got = run(&["--force"]);
    assert_success(&got);
    assert_eq!(mode(&d.join("ro.pem")), 0o444, "the mode is put back");
    assert!(
        fs::read(d.join("ro.pem"))
            .expect("read")
            .starts_with(b"-----BEGIN PUBLIC KEY-----")
    );
}

#[test]
fn as_root_a_file_of_another_user_keeps_its_owner_group_and_mode() {
    if !is_root() {
        eprintln!("note: not root; the ownership check is skipped");
        return;
    }
    let dir = scratch_with_key();
    let d = dir.path();
    for (name, args, secrecy_mode) in [
        ("pub.pem", &["pubkey", "-k", "k.pem"][..], 0o640),
        ("key.pem", &["key", "-k", "k.pem", "--pkcs1"][..], 0o600),
    ] {
        fs::write(d.join(name), b"old").expect("write");
        std::os::unix::fs::chown(d.join(name), Some(4242), Some(4343)).expect("chown");
        fs::set_permissions(d.join(name), fs::Permissions::from_mode(0o640)).expect("chmod");
        let mut all = args.to_vec();
        all.extend(["-o", name]);
        rsatool_ok(d, &all);
        let meta = fs::metadata(d.join(name)).expect("meta");
        assert_eq!((meta.uid(), meta.gid()), (4242, 4343), "{name}: owner kept");
        // A private key is never left wider than 0600.
        assert_eq!(mode(&d.join(name)), secrecy_mode, "{name}");
    }
}

fn pubkey_of(dir: &Path) -> Vec<u8> {
    let out = rsatool_ok(dir, &["pubkey", "-k", "k.pem"]);
    out.stdout
}

#[test]
fn dev_stdout_dev_stderr_and_dev_fd_write_to_a_real_pipe() {
    let dir = scratch_with_key();
    let d = dir.path();
    let expected = pubkey_of(d);
    // Command::output() gives the child pipes for stdout and stderr.
    let got = rsatool_in(d, &["pubkey", "-k", "k.pem", "-o", "/dev/stdout"], None);
    assert_eq!(got.status.code(), Some(0), "{got:?}");
    assert_eq!(got.stdout, expected);
    let got = rsatool_in(d, &["pubkey", "-k", "k.pem", "-o", "/dev/stderr"], None);
    assert_eq!(got.status.code(), Some(0), "{got:?}");
    assert_eq!(got.stderr, expected);
    // Another descriptor that is a pipe, as `-o >(cmd)` gives: /dev/fd/3 onto our stdout pipe.
    let script = format!(
        "exec 3>&1 >/dev/null; exec '{}' pubkey -k k.pem -o /dev/fd/3",
        env!("CARGO_BIN_EXE_rsatool")
    );
    let got = bash(d, &script);
    assert_eq!(got.status.code(), Some(0), "{got:?}");
    assert_eq!(got.stdout, expected);
    assert_eq!(listing(d), ["k.pem"], "no file was made");
}

#[test]
fn a_failed_write_into_an_existing_file_puts_its_contents_back() {
    // A file on a file system with no room: use a size limit (RLIMIT_FSIZE) instead, which
    // fails writes past the limit with EFBIG, through the shell's ulimit.
    let dir = scratch_with_key();
    let d = dir.path();
    fs::write(d.join("small"), b"old contents").expect("write");
    let script = format!(
        "trap '' XFSZ; ulimit -f 1; exec '{}' key -k k.pem --text -o small",
        env!("CARGO_BIN_EXE_rsatool")
    );
    let got = bash(d, &script);
    assert_failure(&got, 2, &["small"]);
    assert_eq!(fs::read(d.join("small")).expect("read"), b"old contents");
}
