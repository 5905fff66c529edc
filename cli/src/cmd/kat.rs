//! `rsatool kat`: the known-answer tests (Wycheproof, NIST CAVP, PKCS #1), a line per file.

use std::path::PathBuf;

use crate::exit::{CmdResult, Failure};
use crate::report::outln;

/// How many failing vectors are listed under a file's line; the count covers them all.
const FAILURES_SHOWN: usize = 10;

/// Run the known-answer tests, a pass/fail line per file.
///
/// Run the known-answer tests: every vector file under DIR and the compiled-in Wycheproof RSA
/// sets, against this build. Prints `file: N passed, M failed` per file and a total; exit 1
/// if any vector failed.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  rsatool kat\n  rsatool kat testvectors/data")]
pub struct Args {
    /// Folder of the data files, laid out as testvectors/data (the default: this source tree's)
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Runs `rsatool kat`.
pub fn run(args: &Args) -> CmdResult {
    let dir = args.dir.clone().unwrap_or_else(testvectors::data_dir);
    if !dir.is_dir() {
        return Err(Failure::error(format!(
            "{}: no such folder of known-answer data",
            dir.display()
        )));
    }
    let reports = testvectors::kat::run_all(&dir).map_err(|e| {
        // The runner's I/O errors end in Rust's " (os error N)"; say it in words.
        let text = e.to_string();
        let text = text.split(" (os error ").next().unwrap_or(&text).to_owned();
        Failure::error(if text.contains("No such file") {
            format!(
                "{}: not a folder of known-answer data (laid out as testvectors/data): {}",
                dir.display(),
                text.replace("No such file or directory", "missing")
            )
        } else {
            text
        })
    })?;
    if reports.is_empty() {
        return Err(Failure::error(format!(
            "{}: no known-answer vectors found",
            dir.display()
        )));
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    for report in &reports {
        outln!("{report}");
        for line in report.failures.iter().take(FAILURES_SHOWN) {
            outln!("  {line}");
        }
        if report.failed() > FAILURES_SHOWN {
            outln!("  ... and {} more", report.failed() - FAILURES_SHOWN);
        }
        passed += report.passed;
        failed += report.failed();
    }
    outln!(
        "total: {passed} passed, {failed} failed ({} files)",
        reports.len()
    );
    if failed > 0 {
        return Err(Failure::Negative(Some(format!(
            "{failed} known-answer vectors failed"
        ))));
    }
    Ok(())
}
