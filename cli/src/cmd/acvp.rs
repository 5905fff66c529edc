//! `rsatool acvp`: answer an ACVP RSA vector set as an implementation under test, and check
//! answers against the server's expected results.

use std::path::{Path, PathBuf};

use testvectors::acvp::{self, EXPECTED_FILE, GroupCheck, PROMPT_FILE};

use crate::exit::{CmdResult, Failure};
use crate::io::{Secrecy, write_output};
use crate::report::{outln, print_failures};

/// How many failing cases are listed under a group's line; the count covers them all.
const FAILURES_SHOWN: usize = 5;

/// Answer an ACVP RSA vector set; check the answers against the expected results.
///
/// Answers PROMPT (a vector set as NIST's ACVP server sends it: RSA keyGen and sigGen
/// FIPS186-5 / FIPS186-4, sigVer FIPS186-5 / FIPS186-4 / FIPS186-2, signaturePrimitive 1.0 /
/// 2.0, decryptionPrimitive 1.0 / Sp800-56Br2) as an implementation under test: the response
/// keeps the vsId, test groups and test case ids, with the fields the ACVP specification asks
/// for. Groups of a kind this build does not support (ANSI X9.31, keyGen with provable primes
/// of our own choosing, SP 800-106 with other hashes, ...) are refused: left out of the
/// response and named on stderr, never answered wrongly.
///
/// With --expected (or a folder holding prompt.json and expectedResults.json), the answers
/// are checked instead of printed: deterministic ones (sigVer verdicts, primitives, keys from
/// the server's seeds) against the expected values, the ones the implementation chooses (its
/// keys, its signatures) by validating them as the server does. One line per test group, a
/// total line; exit 1 if any case failed, 2 for unreadable or malformed input.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  \
    rsatool acvp prompt.json -o response.json\n  \
    rsatool acvp prompt.json --expected expectedResults.json\n  \
    rsatool acvp testvectors/data/acvp/RSA-SigVer-FIPS186-5\n  \
    rsatool acvp prompt.json --response response.json --expected expectedResults.json")]
pub struct Args {
    /// The vector set (prompt.json), or a folder holding prompt.json (and expectedResults.json)
    #[arg(value_name = "PROMPT")]
    prompt: PathBuf,
    /// Write the response here (default: stdout, unless checking)
    #[arg(short = 'o', long = "output", alias = "out", value_name = "RESPONSE")]
    output: Option<PathBuf>,
    /// Check the answers against the server's expected results
    #[arg(long, value_name = "EXPECTED")]
    expected: Option<PathBuf>,
    /// Check this response (from another run or implementation) instead of answering
    #[arg(long, value_name = "RESPONSE")]
    response: Option<PathBuf>,
}

fn read(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|e| Failure::error(format!("{}: {e}", path.display())))
}

/// Runs `rsatool acvp`.
pub fn run(args: &Args) -> CmdResult {
    let (prompt_path, mut expected_path) = if args.prompt.is_dir() {
        let e = args.prompt.join(EXPECTED_FILE);
        (args.prompt.join(PROMPT_FILE), e.is_file().then_some(e))
    } else {
        (args.prompt.clone(), None)
    };
    if args.expected.is_some() {
        expected_path.clone_from(&args.expected);
    }
    let prompt = read(&prompt_path)?;
    let in_file = |path: &Path| {
        let name = path.display().to_string();
        move |e: testvectors::Error| match e {
            testvectors::Error::Parse { line, message, .. } => {
                Failure::error(format!("{name}:{line}: {message}"))
            }
            other => Failure::error(format!("{name}: {other}")),
        }
    };
    // Parse the prompt's header first: a file that is no vector set fails before any work.
    acvp::mode_of(&prompt).map_err(in_file(&prompt_path))?;
    let response = match &args.response {
        Some(path) => read(path)?,
        None => {
            let answer =
                acvp::answer(&prompt, &mut rsatool_rsa::os_rng()).map_err(in_file(&prompt_path))?;
            for r in &answer.refused {
                eprintln!("rsatool: {r}");
            }
            if let Some(out) = &args.output {
                // keyGen responses hold private keys: owner-only, as any private key we write.
                write_output(out, answer.json.as_bytes(), Secrecy::Secret)?;
            } else if expected_path.is_none() {
                outln!("{}", answer.json);
            }
            answer.json
        }
    };
    let expected = match &expected_path {
        Some(p) => Some(read(p)?),
        None if args.response.is_some() => None,
        None => return Ok(()),
    };
    let checks = acvp::check(&prompt, &response, expected.as_deref())
        .map_err(in_file(expected_path.as_deref().unwrap_or(&prompt_path)))?;
    report(&checks)
}

/// Prints the group lines and the total; exit 1 if any case failed.
pub fn report(checks: &[GroupCheck]) -> CmdResult {
    let (mut passed, mut failed, mut refused) = (0usize, 0usize, 0usize);
    for c in checks {
        outln!("{c}");
        print_failures(&c.failures, c.failed(), FAILURES_SHOWN);
        passed += c.passed;
        failed += c.failed();
        refused += usize::from(c.refused.is_some());
    }
    outln!(
        "total: {passed} passed, {failed} failed, {refused} groups refused ({} groups)",
        checks.len()
    );
    if failed > 0 {
        return Err(Failure::Negative(Some(format!(
            "{failed} ACVP test cases failed"
        ))));
    }
    Ok(())
}
