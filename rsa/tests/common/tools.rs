//! Running the external oracles (`openssl`, `python3`) from tests: whether a tool runs here,
//! and a scratch directory for the files they read and write.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether `cmd args` runs and succeeds here; if not, says on stderr that the caller's test
/// is skipped.
pub fn have(cmd: &str, args: &[&str]) -> bool {
    let ok = Command::new(cmd)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: `{cmd} {}` does not run here", args.join(" "));
    }
    ok
}

/// Whether the `openssl` command runs here (see [`have`]).
pub fn have_openssl() -> bool {
    have("openssl", &["version"])
}

/// Runs `openssl args...`, asserting success, returning stdout.
pub fn openssl(args: &[&str]) -> Vec<u8> {
    let out = Command::new("openssl")
        .args(args)
        .output()
        .expect("run openssl");
    assert!(
        out.status.success(),
        "openssl {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A temp path as the `&str` a command line takes.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

/// A fresh directory under the system temp dir, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    /// `rsatool-<name>-<pid>-<nanos>` under the temp dir.
    pub fn new(name: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir =
            std::env::temp_dir().join(format!("rsatool-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    /// A file in the directory.
    pub fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
