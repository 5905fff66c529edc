//! Every signature vector (NIST CAVP SigGen15 / SigGenPSS, RSA Laboratories PKCS #1 v1.5 and
//! PSS, every Wycheproof `rsa_sig` set) against the `rsa` crate, through the suite `rsatool
//! kat` runs. Run with `--nocapture` for the counts per file.

// A failed unwrap here is a failed test, with its location.
#![allow(clippy::unwrap_used)]

use testvectors::data_dir;
use testvectors::kat::{FileReport, run_all};

fn signature_reports() -> Vec<FileReport> {
    let all = run_all(&data_dir()).unwrap();
    all.into_iter()
        .filter(|r| {
            r.file.starts_with("nist/SigGen")
                || r.file.starts_with("pkcs1/pkcs1v15sign")
                || r.file.starts_with("pkcs1/pss-vect")
                || r.file.starts_with("wycheproof/rsa_signature_")
                || r.file.starts_with("wycheproof/rsa_pss_")
        })
        .collect()
}

#[test]
fn every_signature_vector_passes() {
    let reports = signature_reports();
    let mut families: Vec<(&str, usize, usize)> = [
        "nist/SigGen15_186-2",
        "nist/SigGen15_186-3",
        "nist/SigGenPSS_186-2",
        "nist/SigGenPSS_186-3",
        "pkcs1/pkcs1v15sign",
        "pkcs1/pss-vect",
        "wycheproof/rsa_signature_",
        "wycheproof/rsa_pss_",
    ]
    .iter()
    .map(|&f| (f, 0, 0))
    .collect();
    let mut failed = 0;
    for r in &reports {
        println!(
            "{r} (valid {}, invalid {}, acceptable {})",
            r.valid, r.invalid, r.acceptable
        );
        for f in &r.failures {
            println!("    FAILED {f}");
        }
        failed += r.failed();
        // Every vector counted is passed or failed, never silently dropped.
        assert_eq!(
            r.passed + r.failed(),
            r.valid + r.invalid + r.acceptable,
            "{}",
            r.file
        );
        // A set without a single vector run must say it was skipped.
        if r.passed == 0 {
            assert!(r.file.contains("skipped"), "{} ran nothing", r.file);
        }
        for fam in families.iter_mut() {
            if r.file.starts_with(fam.0) {
                fam.1 += r.passed;
                fam.2 += 1;
            }
        }
    }
    for (fam, passed, files) in &families {
        println!("family {fam}*: {files} files, {passed} vectors passed");
        assert!(*passed > 0, "no vector of {fam} ran");
    }
    assert_eq!(failed, 0, "{failed} signature vectors failed");
    // The file families and the 24 + 26 Wycheproof sets each have their report.
    assert_eq!(reports.len(), 6 + 24 + 26);
}
