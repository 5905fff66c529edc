//! `rsatool speedtest` as a user runs it: Cryptokit's four lines, in order, with real figures.

use crate::common::{assert_exit, rsatool};

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
    assert_exit(&out, 0);
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(
        lines[0].contains("seconds for each count, smaller is faster"),
        "the unit first: {text}"
    );
    check_block(&lines[1..], 1024);
}

/// Cryptokit's four lines, each: seconds (never 0), the label with its count, the rate, which
/// must agree with the seconds.
fn check_block(lines: &[&str], bits: u32) {
    let expect = [
        (format!("RSA key generation ({bits} bits) x "), 2.0),
        (
            format!("RSA public-key operation ({bits} bits, exponent 65537) x "),
            20.0,
        ),
        (format!("RSA private-key operation ({bits} bits) x "), 3.0),
        (
            format!("RSA private-key operation with CRT ({bits} bits) x "),
            3.0,
        ),
    ];
    assert_eq!(lines.len(), 4, "{lines:?}");
    for (line, (label, count)) in lines.iter().zip(expect) {
        let (secs, rest) = line.split_once(' ').expect("seconds, then the label");
        let s: f64 = secs.parse().expect("seconds");
        assert!(s > 0.0, "no line reads zero: {line}");
        let want = format!("{label}{count} (");
        assert!(
            rest.starts_with(&want),
            "{rest:?} should start with {want:?}"
        );
        let rate: f64 = rest[want.len()..]
            .strip_suffix(" operations per second)")
            .expect("the rate last")
            .parse()
            .expect("a rate");
        // The printed seconds are rounded to two significant digits at least.
        let implied = count / s;
        assert!(
            (rate / implied - 1.0).abs() < 0.06,
            "{line}: rate {rate} vs {implied}"
        );
    }
}

/// `--backend all` prints one block per back end this CPU runs (portable always, adx and ifma
/// where the CPU has them), each headed by its name; `--backend NAME` one; an unknown name is
/// an error (exit 2), and the JSON rows name the back end that ran them.
#[test]
fn backend_all_prints_a_block_per_back_end() {
    let out = rsatool(&[&["speedtest", "--backend", "all"][..], &SMALL[..]].concat());
    assert_exit(&out, 0);
    let text = String::from_utf8_lossy(&out.stdout);
    let blocks: Vec<Vec<&str>> = text.split("\n\n").map(|b| b.lines().collect()).collect();
    let names: Vec<&str> = blocks
        .iter()
        .map(|b| b[0].split(':').next().expect("a name"))
        .collect();
    assert_eq!(names[0], "portable", "{text}");
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let has = |f: &str| cpuinfo.split_whitespace().any(|w| w == f);
    if has("adx") && has("bmi2") {
        assert!(names.contains(&"adx"), "{text}");
    }
    if has("avx512ifma") && has("avx512vl") {
        assert!(names.contains(&"ifma"), "{text}");
    } else {
        eprintln!("note: no avx512ifma on this CPU: the ifma block is not expected");
    }
    for b in &blocks {
        check_block(&b[1..], 1024);
    }

    let out = rsatool(
        &[
            &["speedtest", "--backend", "portable", "--json"][..],
            &SMALL[..],
        ]
        .concat(),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["backend"], "portable");
    assert!(
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["backend"] == "portable")
    );

    let out = rsatool(&["speedtest", "--backend", "nonesuch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown back end"));
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
            .skip(1)
            .all(|l| l.contains("on 2 threads") && l.contains("operations per second in all")),
        "{text}"
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

/// `--batch N` adds the batch rows: one thread, then every thread (here --threads 2), each
/// with a whole number of batches and a rate that matches its seconds.
#[test]
fn batch_rows_on_one_and_on_all_threads() {
    let out = rsatool(
        &[
            &["speedtest", "--batch", "5", "--threads", "2", "--json"][..],
            &SMALL[..],
        ]
        .concat(),
    );
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let rows: Vec<&serde_json::Value> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["op"] == "private_crt_batch")
        .collect();
    assert_eq!(rows.len(), 2, "{v}");
    assert_eq!(rows[0]["threads"], 1);
    assert_eq!(rows[1]["threads"], 2);
    for r in rows {
        assert_eq!(r["batch"], 5);
        // --crt-count 3 rounded up to whole batches of 5.
        assert_eq!(r["count"], 5);
        let rate = r["ops_per_second"].as_f64().unwrap();
        let implied = 5.0 / r["seconds"].as_f64().unwrap();
        assert!((rate / implied - 1.0).abs() < 1e-9);
    }
    let out = rsatool(&["speedtest", "--batch", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `--coalesce` adds the CRT line on a coalescing key after the plain one, in the same layout,
/// with the median call (JSON: `median_call_seconds`, at most the whole run's time).
#[test]
fn coalesce_adds_the_coalesced_crt_line_with_its_median_call() {
    let out = rsatool(
        &[
            &["speedtest", "--json", "--threads", "3", "--coalesce"][..],
            &SMALL[..],
        ]
        .concat(),
    );
    assert_exit(&out, 0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let rows = v["rows"].as_array().unwrap();
    let ops: Vec<&str> = rows.iter().map(|r| r["op"].as_str().unwrap()).collect();
    assert_eq!(
        ops,
        [
            "keygen",
            "public",
            "private",
            "private_crt",
            "private_crt_coalesced"
        ]
    );
    let row = &rows[4];
    assert_eq!(row["count"], 3);
    assert_eq!(row["threads"], 3);
    let median = row["median_call_seconds"].as_f64().unwrap();
    assert!(
        median > 0.0 && median <= row["seconds"].as_f64().unwrap(),
        "{row}"
    );

    let out = rsatool(
        &[
            &["speedtest", "--threads", "2", "--coalesce"][..],
            &SMALL[..],
        ]
        .concat(),
    );
    assert_exit(&out, 0);
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.contains("calls coalesced"))
        .unwrap_or_else(|| panic!("no coalesced line: {text}"));
    assert!(
        line.contains(
            "RSA private-key operation with CRT, calls coalesced (1024 bits) x 3 on 2 threads"
        ) && line.contains("operations per second in all; median call "),
        "{line}"
    );
}

/// The engine's shapes in the JSON: one `BITS: WIDTH-HOW` entry per RSA size, with the source
/// of each; a `BIGNUM_SHAPE` pin shows as pinned (on any CPU: the choice is made whether or
/// not the engine runs), and a malformed value is a warning, not a failure.
#[test]
fn json_names_the_engine_shapes_and_pins() {
    let run = |shape: Option<&str>| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_rsatool"));
        cmd.args([&["speedtest", "--json"][..], &SMALL[..]].concat());
        if let Some(s) = shape {
            cmd.env("BIGNUM_SHAPE", s);
        }
        let out = cmd.output().expect("rsatool runs");
        assert_exit(&out, 0);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        let shapes = v["engine_shapes"]
            .as_str()
            .expect("engine_shapes")
            .to_owned();
        assert!(!v["cpu"].as_str().expect("cpu").is_empty());
        (shapes, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (plain, _) = run(Some("table"));
    let entries: Vec<&str> = plain.split(", ").collect();
    assert_eq!(entries.len(), 3, "{plain}");
    for (entry, bits) in entries.iter().zip(["1024", "1536", "2048"]) {
        let (size, shape) = entry.split_once(": ").expect("BITS: SHAPE");
        assert_eq!(size, bits, "{plain}");
        assert!(
            ["256-pair", "256-single", "512-pair", "512-single"].contains(&shape),
            "{entry}: no source note under BIGNUM_SHAPE=table"
        );
    }
    let (pinned, _) = run(Some("1536:256-single"));
    assert!(pinned.contains("1536: 256-single (pinned)"), "{pinned}");
    assert!(!pinned.contains("1024: 256-single (pinned)"), "{pinned}");
    // A pin with no instance (a pair of ten 256-bit registers a number) says so and names
    // what runs instead: the two as singles on those registers.
    let (spill, _) = run(Some("2048:256-pair"));
    assert!(
        spill.contains("2048: 256-single (pinned 256-pair has no instance)"),
        "{spill}"
    );
    // Calibrating (where the engine runs on the instructions; elsewhere the table's, with no
    // note): every size calibrated, and the private operations, each checked with e, succeed.
    let (calibrated, _) = run(Some("calibrate"));
    let notes = calibrated.matches(" (calibrated)").count();
    assert!(
        notes == 3 || (notes == 0 && !calibrated.contains('(')),
        "{calibrated}"
    );
    let (bad, stderr) = run(Some("1536:1024"));
    assert!(stderr.contains("BIGNUM_SHAPE=1536:1024"), "{stderr}");
    assert!(!bad.contains("pinned"), "{bad}");
}

/// A `BIGNUM_SHAPE` that names no shape (empty, blank, only commas, or not valid Unicode) is
/// malformed like any other: a warning that shows the value, the default shapes, and the
/// report still runs.
#[test]
fn empty_blank_and_non_unicode_shape_values_warn() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let values: [(&OsStr, &str); 5] = [
        (OsStr::new(""), "BIGNUM_SHAPE=\"\""),
        (OsStr::new("  "), "BIGNUM_SHAPE=\"  \""),
        (OsStr::new(","), "BIGNUM_SHAPE=,"),
        (OsStr::new(" , "), "BIGNUM_SHAPE=\" , \""),
        (
            OsStr::from_bytes(b"256\xff"),
            "BIGNUM_SHAPE=(not valid Unicode)",
        ),
    ];
    for (value, shown) in values {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rsatool"))
            .args([&["speedtest", "--json"][..], &SMALL[..]].concat())
            .env("BIGNUM_SHAPE", value)
            .output()
            .expect("rsatool runs");
        assert_exit(&out, 0);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("bignum: {shown}: expected table, calibrate")),
            "{value:?}: {stderr}"
        );
        assert!(stderr.contains("using the default"), "{value:?}: {stderr}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert!(
            !v["engine_shapes"]
                .as_str()
                .expect("engine_shapes")
                .contains("pinned"),
            "{value:?}: {v}"
        );
    }
}
