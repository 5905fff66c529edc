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

/// Runs `cmd`, asserting success (`what` names it in the failure); returns stdout.
fn run(cmd: &mut Command, what: &str) -> Vec<u8> {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs `openssl args...`, asserting success, returning stdout.
pub fn openssl(args: &[&str]) -> Vec<u8> {
    run(
        Command::new("openssl").args(args),
        &format!("openssl {args:?}"),
    )
}

/// Runs `python3 -c script paths...`, asserting success; returns stdout as text.
pub fn python(script: &str, paths: &[&Path]) -> String {
    let out = run(
        Command::new("python3").args(["-c", script]).args(paths),
        "python3",
    );
    String::from_utf8(out).expect("UTF-8 output")
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

    /// Runs `openssl` in the directory with the arguments of `line`, split at whitespace (file
    /// names relative to the directory; no argument holds a space), asserting success;
    /// returns stdout.
    pub fn openssl(&self, line: &str) -> Vec<u8> {
        run(
            Command::new("openssl")
                .args(line.split_whitespace())
                .current_dir(&self.0),
            &format!("openssl {line}"),
        )
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
