//! The encryption known-answer suite (`kat::run_all`, the runner `rsatool kat` uses): every
//! vector of RSA Laboratories' `oaep-vect.txt` and `pkcs1v15crypt-vectors.txt` and of every
//! Wycheproof `rsa_enc` set, with zero failures per file. Prints the counts per file.

// A failed unwrap here is a failed test, with its location.
#![allow(clippy::unwrap_used)]

use testvectors::kat::{FileReport, run_all};
use testvectors::{data_dir, wycheproof};

fn is_enc(r: &FileReport) -> bool {
    r.file == "pkcs1/oaep-vect.txt"
        || r.file == "pkcs1/pkcs1v15crypt-vectors.txt"
        || r.file.starts_with("wycheproof/rsa_oaep_")
        || r.file.starts_with("wycheproof/rsa_pkcs1_")
}

#[test]
fn every_encryption_vector_passes() {
    let reports: Vec<FileReport> = run_all(&data_dir())
        .unwrap()
        .into_iter()
        .filter(is_enc)
        .collect();
    let mut want: Vec<String> = vec![
        "pkcs1/oaep-vect.txt".into(),
        "pkcs1/pkcs1v15crypt-vectors.txt".into(),
    ];
    want.extend(
        wycheproof::OAEP_SETS
            .iter()
            .chain(wycheproof::PKCS1V15_DECRYPTION_SETS)
            .map(|s| format!("wycheproof/{s}")),
    );
    let got: Vec<&str> = reports.iter().map(|r| r.file.as_str()).collect();
    assert_eq!(got, want, "one report per file and set");

    let (mut valid, mut invalid, mut acceptable, mut passed) = (0, 0, 0, 0);
    for r in &reports {
        let total = r.valid + r.invalid + r.acceptable;
        let skipped = total - r.passed - r.failed();
        println!(
            "{r} (valid {}, invalid {}, acceptable {}, skipped {skipped})",
            r.valid, r.invalid, r.acceptable
        );
        for f in r.failures.iter().take(5) {
            println!("    {f}");
        }
        assert!(total > 0, "{}: no vectors", r.file);
        assert!(r.passed > 0, "{}: nothing passed", r.file);
        assert_eq!(
            skipped, 0,
            "{}: every hash in these sets is supported",
            r.file
        );
        valid += r.valid;
        invalid += r.invalid;
        acceptable += r.acceptable;
        passed += r.passed;
    }
    println!(
        "total: {passed} passed of {} (valid {valid}, invalid {invalid}, acceptable {acceptable})",
        valid + invalid + acceptable
    );
    let failed: Vec<String> = reports
        .iter()
        .filter(|r| r.failed() > 0)
        .map(|r| format!("{}: {}", r.file, r.failures[0]))
        .collect();
    assert!(failed.is_empty(), "failures: {failed:#?}");
    // The published counts: 60 OAEP and 300 PKCS #1 v1.5 examples (data/SOURCES.md).
    assert_eq!(reports[0].passed, 60);
    assert_eq!(reports[1].passed, 300);
}
