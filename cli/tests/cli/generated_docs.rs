//! Shell completions and manual pages generated from the clap definitions, checked by the shells'
//! and groff's own parsers where they are installed, and `kat`'s silence on a piped stderr.

use std::process::Command;

use crate::common::{
    COMMANDS, assert_failure, assert_success, rsatool, rsatool_in, s, scratch,
    scratch_with_small_kat,
};

fn installed(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn completions_name_every_command_and_parse_in_their_shell() {
    let dir = scratch();
    for (shell, checker) in [
        ("bash", Some(("bash", "-n"))),
        ("zsh", Some(("zsh", "-n"))),
        ("fish", Some(("fish", "--no-execute"))),
        ("powershell", None),
        ("elvish", None),
    ] {
        let out = rsatool(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        assert!(out.stderr.is_empty(), "{shell}");
        let script = String::from_utf8(out.stdout).expect("UTF-8");
        for command in COMMANDS {
            assert!(script.contains(command), "{shell}: {command} missing");
        }
        // Options too (fish spells them `-l passout`).
        assert!(
            script.contains("passout") && script.contains("bits"),
            "{shell}"
        );
        if let Some((program, flag)) = checker.filter(|(p, _)| installed(p)) {
            let path = dir.path().join(format!("completion.{shell}"));
            std::fs::write(&path, &script).expect("write");
            let parsed = Command::new(program)
                .args([flag, s(&path)])
                .output()
                .expect("shell runs");
            assert!(
                parsed.status.success(),
                "{program} {flag}: {}",
                String::from_utf8_lossy(&parsed.stderr)
            );
        }
    }
    let out = rsatool(&["completions", "tcsh"]);
    assert_failure(&out, 2, &["tcsh", "bash"]);
}

/// groff's warnings (`-ww`) about a page, or `None` when groff is not installed.
fn groff_warnings(page: &[u8]) -> Option<String> {
    if !installed("groff") {
        eprintln!("note: groff is not installed; the roff check is skipped");
        return None;
    }
    let dir = scratch();
    let path = dir.path().join("page.1");
    std::fs::write(&path, page).expect("write");
    let out = Command::new("groff")
        // -k: preconv reads the page as UTF-8, as man(1) does.
        .args(["-k", "-man", "-Tutf8", "-z", "-ww", s(&path)])
        .output()
        .expect("groff runs");
    assert!(out.status.success(), "groff failed");
    Some(String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn the_main_man_page_is_valid_roff_naming_rsatool_and_its_commands() {
    let out = rsatool(&["man"]);
    assert_eq!(out.status.code(), Some(0));
    let page = String::from_utf8(out.stdout.clone()).expect("UTF-8");
    assert!(page.contains(".TH rsatool 1"), "{page}");
    assert!(page.contains(".SH NAME") && page.contains(".SH SYNOPSIS"));
    for command in COMMANDS {
        assert!(page.contains(command), "{command} missing from the page");
    }
    if let Some(warnings) = groff_warnings(&out.stdout) {
        assert_eq!(warnings, "", "groff -ww");
    }
}

#[test]
fn man_dir_writes_one_valid_page_per_command() {
    let dir = scratch();
    let d = dir.path();
    let out = rsatool(&["man", "--dir", s(d)]);
    assert_eq!(out.status.code(), Some(0));
    let listed = String::from_utf8(out.stdout).expect("UTF-8");
    let main = std::fs::read(d.join("rsatool.1")).expect("rsatool.1");
    assert!(String::from_utf8_lossy(&main).contains(".TH rsatool 1"));
    for command in COMMANDS {
        let name = format!("rsatool-{command}.1");
        let page = std::fs::read(d.join(&name)).unwrap_or_else(|_| panic!("{name} missing"));
        assert!(
            String::from_utf8_lossy(&page).contains(&format!(".TH rsatool-{command} 1")),
            "{name}"
        );
        assert!(listed.contains(&name), "{name} not listed");
        if let Some(warnings) = groff_warnings(&page) {
            assert_eq!(warnings, "", "groff -ww {name}");
        }
    }
    let out = rsatool(&["man", "--dir", s(&d.join("missing"))]);
    assert_failure(&out, 2, &["missing", "no such folder"]);
}

#[test]
fn kat_prints_no_progress_on_a_piped_stderr() {
    let dir = scratch_with_small_kat();
    let out = rsatool_in(dir.path(), &["kat", "sets"], None);
    // Exit 0 and no progress (nothing at all) on the piped stderr.
    assert_success(&out);
    assert!(String::from_utf8_lossy(&out.stdout).contains("total:"));
}
