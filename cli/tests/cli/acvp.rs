//! `rsatool acvp` as a user runs it: answer a prompt to a file, check it against NIST's
//! expected results, a folder holding both, `--response`, exit 1 on a wrong answer, exit 2 and
//! one line for malformed input, `--help`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{assert_exit, assert_failure, rsatool, s, scratch};

fn set(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testvectors/data/acvp")
        .join(name)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `rsatool acvp PROMPT --response RESPONSE --expected EXPECTED`: checks an answer.
fn check(prompt: &Path, response: &Path, expected: &Path) -> Output {
    rsatool(&[
        "acvp",
        s(prompt),
        "--response",
        s(response),
        "--expected",
        s(expected),
    ])
}

#[test]
fn answers_to_a_file_then_checks_it() {
    let dir = scratch();
    let prompt = set("RSA-SigVer-FIPS186-5").join("prompt.json");
    let expected = set("RSA-SigVer-FIPS186-5").join("expectedResults.json");
    let response = dir.path().join("response.json");
    let out = rsatool(&["acvp", s(&prompt), "-o", s(&response)]);
    assert_exit(&out, 0);
    assert!(out.stdout.is_empty());
    let json = fs::read_to_string(&response).unwrap();
    assert!(json.contains("\"testPassed\": false") && json.contains("\"tgId\": 45"));
    let out = check(&prompt, &response, &expected);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 46, "45 groups and a total");
    assert!(
        text.ends_with("total: 270 passed, 0 failed, 0 groups refused (45 groups)\n"),
        "{text}"
    );
}

#[test]
fn a_folder_is_answered_and_checked_and_refusals_are_named() {
    let out = rsatool(&["acvp", s(&set("RSA-SigGen-FIPS186-5"))]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.ends_with("total: 96 passed, 0 failed, 0 groups refused (33 groups)\n"),
        "{text}"
    );
    assert!(out.stderr.is_empty());
    // A group of a kind we do not answer: named on stderr, left out, reported as refused.
    let dir = scratch();
    let prompt = dir.path().join("x931.json");
    fs::write(
        &prompt,
        r#"{"vsId": 5, "algorithm": "RSA", "mode": "sigGen", "revision": "FIPS186-4",
        "testGroups": [{"tgId": 1, "sigType": "ansx9.31", "modulo": 2048, "hashAlg": "SHA2-256",
        "tests": [{"tcId": 1, "message": "00"}]}]}"#,
    )
    .unwrap();
    let out = rsatool(&["acvp", s(&prompt)]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "rsatool: tgId 1: refused: sigType ansx9.31 (ANSI X9.31) is not supported\n"
    );
    assert!(stdout(&out).contains("\"testGroups\": []"));
}

#[test]
fn a_wrong_answer_exits_1_with_its_case_named() {
    let dir = scratch();
    let name = "RSA-SignaturePrimitive-2.0-local";
    let prompt = set(name).join("prompt.json");
    let expected = set(name).join("expectedResults.json");
    let out = rsatool(&["acvp", s(&prompt)]);
    assert_eq!(out.status.code(), Some(0));
    // Flip one verdict of the answer printed on stdout.
    let wrong = stdout(&out).replacen("\"testPassed\": true", "\"testPassed\": false", 1);
    let response = dir.path().join("wrong.json");
    fs::write(&response, wrong).unwrap();
    let out = check(&prompt, &response, &expected);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("1 failed") && text.contains("  tcId "),
        "{text}"
    );
    assert!(text.ends_with("total: 14 passed, 1 failed, 0 groups refused (3 groups)\n"));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "rsatool: 1 ACVP test cases failed\n"
    );
}

#[test]
fn malformed_or_unsupported_input_is_one_line_and_exit_2() {
    let dir = scratch();
    let bad = dir.path().join("bad.json");
    for (text, needle) in [
        ("{\"vsId\": 1", "bad.json:1"),
        ("[1, 2]", "bad.json"),
        (
            r#"{"vsId": 1, "algorithm": "RSA", "mode": "sigGen", "revision": "FIPS186-2", "testGroups": []}"#,
            "unsupported",
        ),
        (
            r#"{"vsId": 1, "algorithm": "AES-GCM", "mode": "", "revision": "1.0", "testGroups": []}"#,
            "not an RSA vector set",
        ),
    ] {
        fs::write(&bad, text).unwrap();
        let out = rsatool(&["acvp", s(&bad)]);
        assert_failure(&out, 2, &[needle]);
    }
    let out = rsatool(&["acvp", s(&dir.path().join("missing.json"))]);
    assert_failure(&out, 2, &["missing.json"]);
}

#[test]
fn help_explains_answering_and_checking_with_examples() {
    let out = rsatool(&["acvp", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for needle in ["--expected", "--response", "-o", "refused", "exit 1"] {
        assert!(text.contains(needle), "{needle} in {text}");
    }
    // The contract of every subcommand's help (`keys.rs`): an Example section last,
    // each line a command.
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let at = lines.iter().rposition(|l| l.trim() == "Example:").unwrap();
    assert!(lines.len() > at + 3);
    for ex in &lines[at + 1..] {
        assert!(ex.trim().starts_with("rsatool acvp "), "{ex:?}");
    }
    let top = stdout(&rsatool(&["--help"]));
    assert!(top.contains("  acvp "), "listed in --help");
}

#[test]
fn output_is_o_or_output_and_the_old_out_is_a_hidden_alias() {
    // Every other command writes with -o/--output; --out still works.
    let dir = scratch();
    let prompt = set("RSA-SigVer-FIPS186-5").join("prompt.json");
    let mut written = Vec::new();
    for flag in ["-o", "--output", "--out"] {
        let path = dir.path().join(format!("response{flag}.json"));
        let out = rsatool(&["acvp", s(&prompt), flag, s(&path)]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{flag}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{flag}: nothing on stdout");
        written.push(fs::read_to_string(&path).unwrap());
    }
    // sigVer verdicts are deterministic: the three files are the same answer.
    assert!(written[0].contains("\"tgId\": 45"));
    assert!(written.iter().all(|w| *w == written[0]));
    let help = stdout(&rsatool(&["acvp", "--help"]));
    assert!(help.contains("-o, --output <RESPONSE>"), "{help}");
    assert!(!help.contains("--out "), "the alias stays hidden: {help}");
}
