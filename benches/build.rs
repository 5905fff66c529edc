//! Links the tuned GMP for the `peers` feature; does nothing without it.
//!
//! `GMP_TUNED_DIR=/path/with/lib/libgmp.a` uses an existing build (its configure host is read
//! from `host.txt` there, or from `GMP_TUNED_HOST`); otherwise `gmp/build-tuned.sh` builds GMP
//! for this CPU (or for `GMP_HOST`) into `target/gmp-tuned/<host>/` once and reuses it.

use std::{env, path::PathBuf, process::Command};

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    if env::var_os("CARGO_FEATURE_PEERS").is_none() {
        return;
    }
    println!("cargo::rerun-if-changed=gmp/build-tuned.sh");
    for var in ["GMP_TUNED_DIR", "GMP_TUNED_HOST", "GMP_HOST", "GMP_CRATE"] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    let dir = match env::var("GMP_TUNED_DIR") {
        Ok(dir) => PathBuf::from(dir),
        Err(_) => build_tuned(),
    };
    let lib = dir.join("lib");
    if !lib.join("libgmp.a").is_file() {
        panic!("no libgmp.a in {}", lib.display());
    }
    let host = env::var("GMP_TUNED_HOST")
        .ok()
        .or_else(|| std::fs::read_to_string(dir.join("host.txt")).ok())
        .map(|h| h.trim().to_owned())
        .unwrap_or_else(|| "unknown (set GMP_TUNED_HOST)".to_owned());
    println!("cargo::rerun-if-changed={}", lib.join("libgmp.a").display());
    println!("cargo::rustc-link-search=native={}", lib.display());
    println!("cargo::rustc-link-lib=static=gmp");
    println!("cargo::rustc-env=GMP_TUNED_HOST={host}");
    println!("cargo::rustc-env=GMP_TUNED_DIR={}", dir.display());
}

/// Runs `gmp/build-tuned.sh` (a no-op when its cache is complete) and returns the directory it
/// prints on its last line.
fn build_tuned() -> PathBuf {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let script = manifest.join("gmp").join("build-tuned.sh");
    let out = Command::new("bash")
        .arg(&script)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Say so when GMP was (re)built: it takes minutes, and the host it chose matters.
    for line in stderr.lines().filter(|l| !l.contains("cached build")) {
        println!("cargo::warning={line}");
    }
    if !out.status.success() {
        panic!("{} failed: {stderr}", script.display());
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout
        .lines()
        .last()
        .expect("build-tuned.sh prints the directory");
    PathBuf::from(last.trim())
}
