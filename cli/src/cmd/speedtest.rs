//! `rsatool speedtest`: Cryptokit's RSA speed test, four lines in its wording and order.

use std::time::Instant;

use rsa::RsaPrivateKey;
use rsa::rand_core::Rng;
use serde_json::json;

use crate::exit::{CmdResult, Failure};
use crate::report::{self, outln};

/// Cryptokit's RSA speed test: key generation, public, private and private-with-CRT operations.
///
/// Each line is the total time in seconds (smaller is faster). The private operations are the
/// real ones a user gets: constant-time, blinded, checked with the public exponent.
///
/// Example: `rsatool speedtest --bits 2048 --threads 2`
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  rsatool speedtest --bits 2048 --threads 2")]
pub struct Args {
    /// Modulus size in bits (1024 to 16384, even)
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u16).range(1024..=16384))]
    bits: u16,
    /// Keys generated
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    keygen_count: u32,
    /// Public-key operations
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=100_000_000))]
    public_count: u32,
    /// Private-key operations without CRT
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    private_count: u32,
    /// Private-key operations with CRT
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    crt_count: u32,
    /// Run each operation on this many threads sharing one key, and report the aggregate rate
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
    /// Print one JSON object instead of the four lines
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy)]
enum Op {
    Keygen,
    Public,
    Private,
    PrivateCrt,
}

impl Op {
    fn json_name(self) -> &'static str {
        match self {
            Op::Keygen => "keygen",
            Op::Public => "public",
            Op::Private => "private",
            Op::PrivateCrt => "private_crt",
        }
    }

    fn label(self, bits: u16) -> String {
        match self {
            Op::Keygen => format!("RSA key generation ({bits} bits)"),
            Op::Public => format!("RSA public-key operation ({bits} bits, exponent 65537)"),
            Op::Private => format!("RSA private-key operation ({bits} bits)"),
            Op::PrivateCrt => format!("RSA private-key operation with CRT ({bits} bits)"),
        }
    }
}

/// Seconds with enough decimals that the figure never reads 0.00: two significant digits at
/// least, two decimals at least.
fn seconds_text(s: f64) -> String {
    let mut decimals = 2;
    while decimals < 9 && s < 10f64.powi(1 - decimals) {
        decimals += 1;
    }
    // decimals ≤ 9.
    format!("{s:.prec$}", prec = usize::try_from(decimals).unwrap_or(9))
}

/// Runs `count` operations on each of `threads` threads, returns the wall-clock seconds.
fn run_threads(
    threads: u16,
    count: u32,
    op: &(dyn Fn() -> rsa::Result<()> + Sync),
) -> Result<f64, Failure> {
    let start = Instant::now();
    let results: Vec<rsa::Result<()>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| scope.spawn(|| (0..count).try_for_each(|_| op())))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(rsa::Error::Fault)))
            .collect()
    });
    let elapsed = start.elapsed().as_secs_f64();
    results
        .into_iter()
        .collect::<rsa::Result<Vec<()>>>()
        .map_err(|e| Failure::error(format!("speedtest: operation failed: {e}")))?;
    Ok(elapsed)
}

/// Runs `rsatool speedtest`.
pub fn run(args: &Args) -> CmdResult {
    let bits = usize::from(args.bits);
    if bits & 1 == 1 {
        return Err(Failure::error(format!(
            "--bits {bits}: the modulus size must be even"
        )));
    }
    let mut rng = rsa::os_rng();
    let mut rows = Vec::new();
    let mut report = |op: Op, count: u32, seconds: f64| {
        let total_ops = f64::from(count) * f64::from(args.threads);
        if args.json {
            rows.push(
                json!({"op": op.json_name(), "count": count, "threads": args.threads,
                "seconds": seconds, "seconds_per_op": seconds / total_ops,
                "ops_per_second": total_ops / seconds}),
            );
        } else if args.threads > 1 {
            outln!(
                "{} {} x {} on {} threads ({:.1} operations per second in all)",
                seconds_text(seconds),
                op.label(args.bits),
                count,
                args.threads,
                total_ops / seconds
            );
        } else {
            outln!(
                "{} {} x {}",
                seconds_text(seconds),
                op.label(args.bits),
                count
            );
        }
    };

    // The key the operations share; its generation is not part of the keygen line.
    let key = RsaPrivateKey::generate(bits, &mut rng)
        .map_err(|e| Failure::error(format!("key generation failed: {e}")))?;
    let seconds = run_threads(args.threads, args.keygen_count, &|| {
        RsaPrivateKey::generate(bits, &mut rsa::os_rng()).map(|_| ())
    })?;
    report(Op::Keygen, args.keygen_count, seconds);

    // A random message representative below n: a random value with the top byte cleared.
    let k = key.size();
    let mut m = vec![0u8; k];
    rng.fill_bytes(&mut m);
    m[0] = 0;
    let c = key
        .public_key()
        .public_op(&m)
        .map_err(|e| Failure::error(format!("public operation failed: {e}")))?;

    let public = key.public_key();
    let seconds = run_threads(args.threads, args.public_count, &|| {
        public.public_op(&m).map(|_| ())
    })?;
    report(Op::Public, args.public_count, seconds);

    let seconds = run_threads(args.threads, args.private_count, &|| {
        key.private_op_plain(&c).map(|_| ())
    })?;
    report(Op::Private, args.private_count, seconds);

    let seconds = run_threads(args.threads, args.crt_count, &|| {
        key.private_op(&mut rsa::os_rng(), &c).map(|_| ())
    })?;
    report(Op::PrivateCrt, args.crt_count, seconds);

    if args.json {
        report::json::print(&json!({"bits": bits, "threads": args.threads,
            "backend": bignum::mpn::kernels().name, "rows": rows}));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_never_read_zero() {
        assert_eq!(seconds_text(0.36), "0.36");
        assert_eq!(seconds_text(12.5), "12.50");
        assert_eq!(seconds_text(0.0123), "0.012");
        assert_eq!(seconds_text(0.0042), "0.0042");
        assert_eq!(seconds_text(0.000_031), "0.000031");
    }
}
