//! Where `-o` writes: a regular file keeps its mode (a secret never wider than 0600; a read-only
//! one is written with `--force` only); a symlink is followed and its target replaced; a device,
//! FIFO or `/proc` file is written directly, with its write errors reported.
//!
//! The devices are nodes made with `mknod` in a scratch folder (root only; skipped with a
//! note otherwise), never the system's own `/dev/null` or `/dev/full`.

#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

use crate::common::{
    assert_failure, key, listing, rsatool_fails, rsatool_in, rsatool_ok, s, scratch,
};

fn mode(path: &Path) -> u32 {
    fs::metadata(path).expect("metadata").permissions().mode() & 0o7777
}

/// A [`scratch`] folder holding the character device `name` (`major`:`minor`), made with
/// `mknod`; `None` (with a note) where `mknod` is not allowed.
fn scratch_with_device(name: &str, major: u32, minor: u32) -> Option<(TempDir, PathBuf)> {
    let dir = scratch();
    let path = dir.path().join(name);
    let ok = Command::new("mknod")
        .arg(&path)
        .args(["c", &major.to_string(), &minor.to_string()])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        Some((dir, path))
    } else {
        eprintln!("note: mknod is not allowed here (not root?); the device checks are skipped");
        None
    }
}

/// `path` is still a character device (not replaced by a file); its metadata.
fn assert_still_a_device(path: &Path) -> fs::Metadata {
    let meta = fs::symlink_metadata(path).expect("still there");
    assert!(meta.file_type().is_char_device(), "still a device");
    meta
}

#[test]
fn a_full_device_fails_with_exit_2_and_stays_a_device() {
    // 1:7 is /dev/full: every write fails with ENOSPC.
    let Some((dir, full)) = scratch_with_device("full", 1, 7) else {
        return;
    };
    let d = dir.path();
    rsatool_fails(
        d,
        &["pubkey", "-k", s(key(2048)), "-o", "full"],
        2,
        &["full", "no space left"],
    );
    assert_still_a_device(&full);
    assert_eq!(listing(d), ["full"], "no temporary file left");
}

#[test]
fn a_null_device_is_written_and_stays_a_device() {
    // 1:3 is /dev/null.
    let Some((dir, null)) = scratch_with_device("null", 1, 3) else {
        return;
    };
    let d = dir.path();
    rsatool_ok(d, &["pubkey", "-k", s(key(2048)), "-o", "null"]);
    let meta = assert_still_a_device(&null);
    assert_eq!(meta.len(), 0);
    assert_eq!(listing(d), ["null"]);
}

#[test]
fn a_fifo_is_written_through_to_its_reader() {
    let dir = scratch();
    let d = dir.path();
    let fifo = d.join("pipe");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .output()
        .is_ok_and(|o| o.status.success());
    if !made {
        eprintln!("note: mkfifo failed; the FIFO check is skipped");
        return;
    }
    let reader_path = fifo.clone();
    // Opening a FIFO for reading blocks until a writer opens it; if the FIFO were replaced
    // by a regular file, the reader would wait forever, so it runs on its own thread and the
    // checks below do not wait for it unless the FIFO is still there.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(fs::read(&reader_path));
    });
    rsatool_ok(d, &["pubkey", "-k", s(key(2048)), "-o", "pipe"]);
    let meta = fs::symlink_metadata(&fifo).expect("still there");
    assert!(meta.file_type().is_fifo(), "still a FIFO");
    let got = rx
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("the reader finished")
        .expect("read");
    assert!(got.starts_with(b"-----BEGIN PUBLIC KEY-----"), "{got:?}");
    assert_eq!(listing(d), ["pipe"]);
}

#[test]
fn a_symlink_is_followed_and_its_target_replaced() {
    let dir = scratch();
    let d = dir.path();
    fs::create_dir(d.join("real")).expect("mkdir");
    fs::write(d.join("real/pub.pem"), b"old").expect("write");
    std::os::unix::fs::symlink("real/pub.pem", d.join("link.pem")).expect("symlink");
    rsatool_ok(d, &["pubkey", "-k", s(key(2048)), "-o", "link.pem"]);
    let meta = fs::symlink_metadata(d.join("link.pem")).expect("link");
    assert!(meta.file_type().is_symlink(), "the link is still a link");
    assert!(
        fs::read(d.join("real/pub.pem"))
            .expect("target")
            .starts_with(b"-----BEGIN PUBLIC KEY-----")
    );
    assert_eq!(listing(d), ["link.pem", "real"]);
    assert_eq!(listing(&d.join("real")), ["pub.pem"]);
    // A dangling link: its target is created.
    std::os::unix::fs::symlink("real/new.pem", d.join("dangling.pem")).expect("symlink");
    rsatool_ok(d, &["pubkey", "-k", s(key(2048)), "-o", "dangling.pem"]);
    assert!(
        fs::symlink_metadata(d.join("dangling.pem"))
            .expect("link")
            .file_type()
            .is_symlink()
    );
    assert!(d.join("real/new.pem").is_file());
}

#[test]
fn an_existing_file_keeps_its_mode_and_a_secret_is_never_wider_than_0600() {
    let dir = scratch();
    let d = dir.path();
    for (name, before, after) in [("ro.pem", 0o444, 0o444), ("shared.pem", 0o664, 0o664)] {
        fs::write(d.join(name), b"old").expect("write");
        fs::set_permissions(d.join(name), fs::Permissions::from_mode(before)).expect("chmod");
        rsatool_ok(d, &["pubkey", "-k", s(key(2048)), "-o", name, "--force"]);
        assert_eq!(mode(&d.join(name)), after, "{name}");
        assert!(
            fs::read(d.join(name))
                .expect("read")
                .starts_with(b"-----BEGIN PUBLIC KEY-----")
        );
    }
    // A private key written over a 0644 or 0400 file: never wider than 0600.
    for (name, before, after) in [("k1.pem", 0o644, 0o600), ("k2.pem", 0o400, 0o400)] {
        fs::write(d.join(name), b"old").expect("write");
        fs::set_permissions(d.join(name), fs::Permissions::from_mode(before)).expect("chmod");
        rsatool_ok(d, &["keygen", "--bits", "1024", "-o", name, "--force"]);
        assert_eq!(mode(&d.join(name)), after, "{name}");
    }
}

#[test]
fn a_proc_file_is_written_directly_and_its_error_is_not_no_such_file() {
    let dir = scratch();
    let d = dir.path();
    if !Path::new("/proc/version").exists() {
        eprintln!("note: no /proc/version; the /proc check is skipped");
        return;
    }
    let out = rsatool_in(
        d,
        &["pubkey", "-k", s(key(2048)), "-o", "/proc/version"],
        None,
    );
    assert_failure(&out, 2, &["/proc/version"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("no such file"), "{err}");
    assert!(!err.contains("os error"), "no raw OS error: {err}");
}
