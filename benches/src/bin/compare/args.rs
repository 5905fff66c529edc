//! The command line: `compare [--time SECONDS] [--primes N] [--keys N] [--keygen-cap SECONDS]
//! [--batch-items N] [--rsa-only | --powm-only | --batch-only | --threads-only] [--no-write]`.

use std::time::Duration;

use super::batch;

/// What the command line asked for.
pub struct Args {
    /// `--time`: the timing budget per implementation and size.
    pub budget: Duration,
    /// `--batch-only`: only the batch rows and their targets, printed.
    pub batch_only: bool,
    /// `--batch-items`: signatures per batch.
    pub batch_items: u32,
    /// Not `--no-write`: write the JSON, the charts and `BENCHMARKS.md`.
    pub write: bool,
    /// `--primes`: primes per size of the prime generation rows.
    pub primes: usize,
    /// `--keys`: keys at 1024 and 2048 bits of the key generation rows.
    pub keys: usize,
    /// `--rsa-only`: only the RSA rows and key generation, printed.
    pub rsa_only: bool,
    /// `--powm-only`: only the exponentiation table, printed.
    pub powm_only: bool,
    /// `--threads-only`: only the rows of threads on one key, printed.
    pub threads_only: bool,
    /// `--keygen-cap`: when an implementation's key generation stops at a size.
    pub keygen_cap: Duration,
}

/// The value of `flag`: a positive number of seconds, or exit 2 with a message.
fn seconds_arg(value: Option<String>, flag: &str) -> Duration {
    value
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|&t| t > 0.0 && t < 1e6)
        .map(Duration::from_secs_f64)
        .unwrap_or_else(|| {
            eprintln!("compare: {flag} needs a positive number of seconds");
            std::process::exit(2)
        })
}

/// The value of `flag`: a positive count, or exit 2 with a message.
fn count_arg(value: Option<String>, flag: &str) -> usize {
    value
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| {
            eprintln!("compare: {flag} needs a positive count");
            std::process::exit(2)
        })
}

const USAGE: &str = "usage: compare [--time SECONDS] [--primes N] [--keys N] \
     [--keygen-cap SECONDS] [--batch-items N] [--rsa-only | --powm-only | --batch-only | --threads-only] [--no-write]";

/// The arguments, or `None` after printing the help; exits 2 with the usage on a bad one.
pub fn parse() -> Option<Args> {
    let mut budget = Duration::from_millis(400);
    let mut batch_only = false;
    let mut batch_items = batch::ITEMS;
    let mut write = true;
    let mut primes = 51;
    let mut keys = 21;
    let mut rsa_only = false;
    let mut powm_only = false;
    let mut threads_only = false;
    let mut keygen_cap = Duration::from_secs(20);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--time" => budget = seconds_arg(args.next(), "--time"),
            "--no-write" => write = false,
            "--rsa-only" => rsa_only = true,
            "--powm-only" => powm_only = true,
            "--batch-only" => batch_only = true,
            "--threads-only" => threads_only = true,
            "--batch-items" => {
                batch_items =
                    u32::try_from(count_arg(args.next(), "--batch-items")).unwrap_or(u32::MAX);
            }
            "-h" | "--help" => {
                println!("{USAGE}\n\nSee the module documentation of benches/src/bin/compare.rs.");
                return None;
            }
            "--primes" => primes = count_arg(args.next(), "--primes"),
            "--keys" => keys = count_arg(args.next(), "--keys"),
            "--keygen-cap" => keygen_cap = seconds_arg(args.next(), "--keygen-cap"),
            _ => {
                eprintln!("{USAGE}");
                std::process::exit(2);
            }
        }
    }
    if [rsa_only, powm_only, batch_only, threads_only]
        .iter()
        .filter(|&&b| b)
        .count()
        > 1
    {
        eprintln!(
            "compare: --rsa-only, --powm-only, --batch-only and --threads-only exclude each other"
        );
        std::process::exit(2);
    }
    Some(Args {
        budget,
        batch_only,
        batch_items,
        write,
        primes,
        keys,
        rsa_only,
        powm_only,
        threads_only,
        keygen_cap,
    })
}
