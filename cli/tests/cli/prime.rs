//! `rsatool prime`, `primegen` and `metime` as a user runs them: output, exit codes, bad input.
//! `openssl prime` is the independent oracle where it is installed.

use std::process::{Command, Output};

fn rsatool(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rsatool"))
        .args(args)
        .output()
        .expect("rsatool runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `openssl prime N` says "… is prime" or "… is not prime"; None when openssl is absent.
fn openssl_says_prime(decimal: &str) -> Option<bool> {
    let out = Command::new("openssl")
        .args(["prime", decimal])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    Some(!text.contains("not prime"))
}

#[test]
fn check_answers_and_exit_codes() {
    for (n, prime) in [
        ("2", true),
        ("3", true),
        ("0xFFFFFFFFFFFFFFC5", true), // 2⁶⁴ − 59, the largest 64-bit prime
        ("170141183460469231731687303715884105727", true), // 2¹²⁷ − 1
        ("0", false),
        ("1", false),
        ("561", false),                                     // Carmichael
        ("3825123056546413051", false),                     // strong pseudoprime to bases ≤ 31
        ("170141183460469231731687303715884105729", false), // 2¹²⁷ + 1, divisible by 3
    ] {
        let out = rsatool(&["prime", "--check", n]);
        let verdict = if prime { "is prime" } else { "is not prime" };
        assert_eq!(stdout(&out).trim(), format!("{n} {verdict}"), "{n}");
        assert_eq!(out.status.code(), Some(if prime { 0 } else { 1 }), "{n}");
        assert!(out.stderr.is_empty(), "{n}: nothing on stderr");
    }
}

#[test]
fn generated_primes_have_the_size_and_openssl_agrees() {
    for bits in ["64", "256", "1024"] {
        let out = rsatool(&["prime", "--bits", bits, "--count", "3"]);
        assert_eq!(out.status.code(), Some(0));
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "three primes of {bits} bits");
        for p in lines {
            let v = num_bigint::BigUint::parse_bytes(p.as_bytes(), 10).expect("decimal output");
            assert_eq!(v.bits().to_string(), bits, "{p}");
            if let Some(is_prime) = openssl_says_prime(p) {
                assert!(is_prime, "openssl says {p} is not prime");
            } else {
                eprintln!("openssl not found: skipping its primality check");
            }
        }
    }
}

#[test]
fn bad_input_gives_one_line_and_exit_2() {
    for args in [
        vec!["prime"],
        vec!["prime", "--check", "12x"],
        vec!["prime", "--check", "-7"],
        vec!["prime", "--check", ""],
        vec!["prime", "--bits", "1"],
        vec!["prime", "--bits", "99999"],
        vec!["prime", "--bits", "64", "--check", "7"],
        vec!["primegen", "--bits", "100"],
        vec!["metime", "--count", "0"],
        vec!["mulsqr", "--bits", "64,,128"],
        vec!["speed", "-s", "0", "add_n"],
        vec!["speed", "nosuchkernel"],
        vec!["nosuchcommand"],
    ] {
        let out = rsatool(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
            "{args:?}: {err}"
        );
        assert!(!err.trim().is_empty(), "{args:?} says what is wrong");
    }
}

#[test]
fn reports_print_rows_and_json() {
    let out = rsatool(&["primegen", "--bits", "128,192", "--count", "3"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("milliseconds"), "units are stated");
    assert_eq!(
        text.lines()
            .filter(|l| l.contains("min=") && l.contains("sum="))
            .count(),
        2
    );

    let out = rsatool(&["metime", "--bits", "128,256", "--count", "3", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 4, "two sizes x two implementations");
    assert!(
        rows.iter()
            .all(|r| r["seconds_per_op"].as_f64().is_some_and(|s| s > 0.0))
    );

    let out = rsatool(&["mulsqr", "--bits", "512", "--count", "100", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert!(
        v["rows"][0]["sqr_seconds"]
            .as_f64()
            .is_some_and(|s| s > 0.0)
    );

    let out = rsatool(&["speed", "-C", "-s", "8,16", "--json", "addmul_1", "add_n"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["unit"], "cycles_per_limb");
    assert_eq!(v["rows"].as_array().map(Vec::len), Some(4));
}

#[test]
fn prime_json_gives_the_primes_and_the_verdict() {
    let out = rsatool(&["prime", "--bits", "128", "--count", "3", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["bits"], 128);
    let primes = v["primes"].as_array().expect("primes");
    assert_eq!(primes.len(), 3);
    for p in primes {
        let decimal = p.as_str().expect("a decimal string");
        if let Some(prime) = openssl_says_prime(decimal) {
            assert!(prime, "{decimal}");
        }
        let n: num_bigint::BigUint = decimal.parse().expect("decimal");
        assert_eq!(n.bits(), 128);
    }
    let out = rsatool(&["prime", "--check", "91", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["prime"], false);
    assert_eq!(v["number"], "91");
}
