//! `rsatool kat`: the known-answer tests (Wycheproof, NIST CAVP, PKCS #1, NIST ACVP sets), a
//! line per file or vector set.

use std::path::{Path, PathBuf};

use testvectors::kat::FileReport;

use crate::exit::{CmdResult, Failure};
use crate::report::{outln, print_failures};

/// How many failing vectors are listed under a file's line; the count covers them all.
const FAILURES_SHOWN: usize = 10;

/// Run the known-answer tests, a pass/fail line per file.
///
/// Run the known-answer tests: every vector file under DIR, the compiled-in Wycheproof RSA
/// sets and the ACVP vector sets under DIR/acvp (NIST's samples and our Python-made `-local`
/// sets, each answered, then checked against its expectedResults.json, as `rsatool acvp`
/// does), against this build. DIR may also be a
/// folder of ACVP sets alone (subfolders holding prompt.json). Prints `NAME: N passed, M
/// failed` per file or set and a total; exit 1 if any vector failed.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  rsatool kat\n  rsatool kat testvectors/data\n  rsatool kat testvectors/data/acvp"
)]
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
    // The known-answer layout (nist/, pkcs1/, ...) with its acvp/ folder, or ACVP sets alone.
    let acvp_only = !dir.join("nist").is_dir();
    // Some ten seconds without a line: say so on a terminal (stderr only, nothing when piped).
    let spinner = crate::progress::Spinner::start("running the known-answer tests");
    let acvp_dir = if dir.join("acvp").is_dir() {
        dir.join("acvp")
    } else {
        dir.clone()
    };
    let run_sets = acvp_dir.is_dir() && (acvp_only || acvp_dir != dir);
    // The ACVP sets (mostly key generation, the longest part of the run) on a second thread,
    // beside the files.
    let (reports, sets) = std::thread::scope(|scope| {
        let sets = scope.spawn(|| {
            if run_sets {
                testvectors::acvp::run_dir(&acvp_dir, &mut rsatool_rsa::os_rng())
                    .map_err(|e| Failure::error(e.to_string()))
            } else {
                Ok(Vec::new())
            }
        });
        let reports = run_files(&dir, acvp_only);
        let sets = sets
            .join()
            .unwrap_or_else(|_| Err(Failure::error("the ACVP sets' thread panicked")));
        (reports, sets)
    });
    let (reports, sets) = (reports?, sets?);
    drop(spinner);
    if reports.is_empty() && sets.is_empty() {
        return Err(Failure::error(format!(
            "{}: no known-answer vectors found",
            dir.display()
        )));
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    for report in &reports {
        outln!("{report}");
        print_failures(&report.failures, report.failed(), FAILURES_SHOWN);
        passed += report.passed;
        failed += report.failed();
    }
    for set in &sets {
        let name = std::path::Path::new(&set.name)
            .file_name()
            .map_or_else(|| set.name.clone(), |n| n.to_string_lossy().into_owned());
        let refused = set.refused();
        let refused = match refused {
            0 => String::new(),
            1 => ", 1 group refused".to_owned(),
            _ => format!(", {refused} groups refused"),
        };
        // The same `NAME: N passed, M failed` as the files' lines.
        outln!(
            "acvp/{name} ({}{refused}): {} passed, {} failed",
            set.mode,
            set.passed(),
            set.failed()
        );
        for g in set.groups.iter().filter(|g| g.failed() > 0) {
            outln!("  {g}");
            for line in g.failures.iter().take(FAILURES_SHOWN) {
                outln!("    {line}");
            }
        }
        passed += set.passed();
        failed += set.failed();
    }
    outln!(
        "total: {passed} passed, {failed} failed ({} files)",
        reports.len() + sets.len()
    );
    if failed > 0 {
        return Err(Failure::Negative(Some(format!(
            "{failed} known-answer vectors failed"
        ))));
    }
    Ok(())
}

/// The vector files under `dir` (none for a folder of ACVP sets alone), with the runner's I/O
/// errors said in words.
fn run_files(dir: &Path, acvp_only: bool) -> Result<Vec<FileReport>, Failure> {
    if acvp_only {
        return Ok(Vec::new());
    }
    testvectors::kat::run_all(dir).map_err(|e| {
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
    })
}
