//! `rsatool speedtest` as a user runs it: Cryptokit's four lines, in order, with real figures.

use std::process::Command;

fn rsatool(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rsatool"))
        .args(args)
        .output()
        .expect("rsatool runs")
}

const SMALL: [&str; 8] = [
    "--keygen-count",
    "2",
    "--public-count",
    "20",
    "--private-count",
    "3",
    "--crt-count",
    "3",
];

#[test]
fn four_lines_in_cryptokit_wording() {
    let out = rsatool(&[&["speedtest"][..], &SMALL[..]].concat());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    let expect = [
        "RSA key generation (1024 bits) x 2",
        "RSA public-key operation (1024 bits, exponent 65537) x 20",
        "RSA private-key operation (1024 bits) x 3",
        "RSA private-key operation with CRT (1024 bits) x 3",
    ];
    assert_eq!(lines.len(), 4, "{text}");
    for (line, want) in lines.iter().zip(expect) {
        let (secs, rest) = line.split_once(' ').expect("seconds, then the label");
        assert_eq!(rest, want);
        let s: f64 = secs.parse().expect("seconds");
        assert!(s > 0.0, "no line reads zero: {line}");
    }
}

#[test]
fn json_and_threads() {
    let out = rsatool(&[&["speedtest", "--json", "--threads", "2"][..], &SMALL[..]].concat());
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["bits"], 1024);
    let ops: Vec<&str> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["op"].as_str().unwrap())
        .collect();
    assert_eq!(ops, ["keygen", "public", "private", "private_crt"]);
    assert!(
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["seconds_per_op"].as_f64().unwrap() > 0.0)
    );

    let out = rsatool(&[&["speedtest", "--threads", "2"][..], &SMALL[..]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .all(|l| l.contains("on 2 threads") && l.contains("operations per second"))
    );
}

#[test]
fn bad_sizes_are_refused() {
    for bits in ["1025", "512", "20000", "x"] {
        let out = rsatool(&["speedtest", "--bits", bits]);
        assert_eq!(out.status.code(), Some(2), "--bits {bits}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
}
