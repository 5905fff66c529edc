//! `rsatool prime`: random probable primes, or a primality check, like `openssl prime`.

use bignum::{Nat, prime};
use rand_core::UnwrapErr;

use crate::exit::{CmdResult, Failure};
use crate::report::{self, outln};
use serde_json::json;

/// Print random probable primes of an exact size, or check whether a number is prime.
///
/// Examples: `rsatool prime --bits 1024 --count 3`; `rsatool prime --check 0xFFFFFFFFFFFFFFC5`
/// (exit 0 if prime, 1 if not).
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  rsatool prime --bits 1024 --count 3\n  rsatool prime --check 0xFFFFFFFFFFFFFFC5\n  \
    rsatool prime --bits 256 --count 2 --json"
)]
#[command(group = clap::ArgGroup::new("mode").required(true).args(["bits", "check"]))]
pub struct Args {
    /// Bits of each prime to generate (2 to 16384); the top bit is set
    #[arg(long, value_parser = clap::value_parser!(u16).range(2..=16384))]
    bits: Option<u16>,
    /// How many primes to print, one a line
    #[arg(long, default_value_t = 1, requires = "bits", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    count: u32,
    /// A number to test: decimal, or hex with 0x; the Baillie-PSW test decides
    #[arg(long, value_name = "NUMBER", allow_hyphen_values = true)]
    check: Option<String>,
    /// One JSON object on stdout: {"bits": N, "primes": ["...", ...]} (decimal strings), or
    /// {"number": "...", "prime": true|false} with --check
    #[arg(long)]
    json: bool,
}

/// Runs `rsatool prime`.
pub fn run(args: &Args) -> CmdResult {
    if let Some(text) = &args.check {
        let text = text.trim();
        if text.starts_with('-') {
            return Err(Failure::error(format!(
                "'{text}': give a non-negative number"
            )));
        }
        let n: Nat = text.parse().map_err(|e| {
            Failure::error(format!(
                "'{text}' is not a number (decimal, or hex with 0x): {e}"
            ))
        })?;
        let is_prime = prime::is_probable_prime(n.as_limbs());
        if args.json {
            report::json::print(&json!({"number": text, "prime": is_prime}));
        } else if is_prime {
            outln!("{text} is prime");
        } else {
            outln!("{text} is not prime");
        }
        return if is_prime {
            Ok(())
        } else {
            Err(Failure::Negative(None))
        };
    }
    let bits = usize::from(args.bits.unwrap_or(2));
    let mut rng = UnwrapErr(getrandom::SysRng);
    let mut primes = Vec::new();
    for _ in 0..args.count {
        let p = Nat::from_limbs(&prime::random_prime(bits, &mut rng)).to_string();
        if args.json {
            primes.push(p);
        } else {
            outln!("{p}");
        }
    }
    if args.json {
        report::json::print(&json!({"bits": bits, "count": args.count, "primes": primes}));
    }
    Ok(())
}
