//! `--then` of `primegen`, `metime`, `mulsqr` and `speedtest`: the seed documents' figures beside
//! today's, in their layouts. The expected lines are copied from the documents themselves
//! (`../shared/seeds/000_64108945066ec658.txt`, `001_ad815857203d9a06.txt`).

use crate::common::{assert_failure, rsatool};

fn stdout_of(args: &[&str]) -> String {
    let out = rsatool(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Each of `lines` is a line of `text` (but for trailing spaces).
fn assert_has_lines(text: &str, lines: &[&str]) {
    for line in lines {
        assert!(
            text.lines().any(|l| l.trim_end() == *line),
            "{line:?} missing:\n{text}"
        );
    }
}

#[test]
fn primegen_then_prints_the_1999_rows_and_todays_beside_them() {
    let text = stdout_of(&["primegen", "--bits", "128", "--count", "3", "--then"]);
    assert_has_lines(
        &text,
        &[
            "128 bits:",
            "A1      200     min=0.03, avg=0.19, max=0.72, sum=38.46",
            "C4      200     min=0.00, avg=0.03, max=0.20, sum=6.14",
            "(C) Dell GX1/L+ 1 x Pentium III 550MHz Linux 2.2.12-20",
        ],
    );
    assert!(
        text.lines().any(|l| l.starts_with("now     3       min=")),
        "{text}"
    );
}

#[test]
fn metime_then_prints_the_1999_table_with_todays_rows() {
    let text = stdout_of(&["metime", "--bits", "128,1024", "--count", "3", "--then"]);
    let row = |name: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} row:\n{text}"))
            .split_whitespace()
            .skip(1)
            .collect::<Vec<_>>()
    };
    // The document's A1 and E5 rows, 128 to 1024 bits.
    assert_eq!(
        row("A1"),
        [
            "0.015", "0.027", "0.047", "0.069", "0.098", "0.133", "0.176", "0.294", "0.458",
            "0.680", "1.040"
        ]
    );
    assert_eq!(row("E5")[10], "1.317");
    // Today's: measured at 128 and 1024 bits only.
    let ct = text
        .lines()
        .rfind(|l| l.starts_with("ct "))
        .expect("ct row");
    let cells: Vec<&str> = ct.split_whitespace().skip(1).collect();
    assert_eq!(cells.len(), 11, "{ct}");
    assert!(
        cells[0].parse::<f64>().is_ok() && cells[1] == "-" && cells[10] != "-",
        "{ct}"
    );
}

#[test]
fn mulsqr_then_prints_the_1999_tables_in_their_layout_and_todays() {
    let text = stdout_of(&["mulsqr", "--bits", "64,2048", "--count", "100", "--then"]);
    assert_has_lines(
        &text,
        &[
            "(A1)",
            "bits    multiply    square  ad  percent time/mult   time/square",
            "64      9.33        9.15    >   1.9     18.7us      18.3us",
            "2048    394.05      242.15  >   38.5    788.1us     484.3us",
            "64      7.87        7.95    <   1.0     15.7us      15.9us",
            "64      2.60        2.47    >   5.0     5.20us      4.94us",
            "(now)",
        ],
    );
}

#[test]
fn speedtest_then_prints_cryptokits_2003_blocks() {
    let text = stdout_of(&[
        "speedtest",
        "--keygen-count",
        "1",
        "--public-count",
        "10",
        "--private-count",
        "2",
        "--crt-count",
        "2",
        "--then",
    ]);
    assert_has_lines(
        &text,
        &[
            "Numerix.Slong:",
            "1.36 RSA key generation (1024 bits) x 10",
            "0.42 RSA public-key operation (1024 bits, exponent 65537) x 1000",
            "Numerix.Clong:",
            "2.98 RSA private-key operation with CRT (1024 bits) x 100",
        ],
    );
    assert!(text.contains("not what ran above"), "{text}");
}

#[test]
fn then_and_json_are_refused_together() {
    for command in ["primegen", "metime", "mulsqr", "speedtest"] {
        let out = rsatool(&[command, "--then", "--json"]);
        assert_failure(&out, 2, &["--then", "--json"]);
    }
}
