//! `rsatool speedtest`: Cryptokit's RSA speed test, four lines in its wording and order.

use rsatool_rsa::hazmat::{BatchPrivateOp, PrivateOp, PublicOp};
use std::time::Instant;

use rsatool_rsa::RsaPrivateKey;
use rsatool_rsa::rand_core::Rng;
use serde_json::json;

use crate::exit::{CmdResult, Failure};
use crate::report::{self, outln};

/// Cryptokit's RSA speed test: key generation, public, private and private-with-CRT operations.
///
/// Each line is the total time in seconds for its count (smaller is faster), then the rate in
/// operations per second. A first line names the unit and the back end that ran. The private
/// operations are the real ones a user gets: constant-time, blinded, checked with the public
/// exponent.
///
/// Example: `rsatool speedtest --bits 2048 --threads 2`
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Back ends: portable (plain Rust), adx (BMI2/ADX assembly), ifma (the 52-bit \
AVX-512 IFMA exponentiation on the adx kernels); `--backend all` runs each one this CPU has, \
one block each, as Cryptokit compared its bignum back ends.\n\n\
Example:\n  rsatool speedtest --bits 2048 --threads 2\n  rsatool speedtest --bits 2048 --backend all --batch 64"
)]
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
    /// Run each operation on this many threads sharing one key; the counts are per thread, the
    /// rate is the aggregate over all threads
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
    /// The private operation with CRT on a coalescing key (rsa's `RsaPrivateKey::coalescing`):
    /// the threads' concurrent calls run together on the eight-lane IFMA engine, four at a
    /// time, where more threads call than there are cores; with the median time a call takes
    #[arg(long)]
    coalesce: bool,
    /// Also time the private operation with CRT in batches of this many (rsatool_rsa::Batch: four
    /// operations per pass of the eight-lane IFMA engine where the CPU has it), on one thread
    /// and on every thread (--threads, or all cores when --threads is 1); --crt-count
    /// operations each
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096))]
    batch: Option<u32>,
    /// The back end to run (portable, adx, ifma), or `all` for each one this CPU has; default:
    /// the fastest this CPU has (or the one BIGNUM_BACKEND names)
    #[arg(long, value_name = "NAME")]
    backend: Option<String>,
    /// Print one JSON object instead of the four lines
    #[arg(long)]
    json: bool,
    /// Then print Cryptokit's 2003 figures (seven bignum back ends, 1024 bits, 2.4 GHz
    /// Pentium 4) after today's, in the same layout
    #[arg(long, conflicts_with = "json")]
    then: bool,
}

#[derive(Clone, Copy)]
enum Op {
    Keygen,
    Public,
    Private,
    PrivateCrt,
    /// The CRT operation on a coalescing key, with the median time of a call in seconds.
    PrivateCrtCoalesced(f64),
    /// The CRT operation in batches of the given size, on the given number of threads.
    PrivateCrtBatch(u32, usize),
}

impl Op {
    fn json_name(self) -> &'static str {
        match self {
            Op::Keygen => "keygen",
            Op::Public => "public",
            Op::Private => "private",
            Op::PrivateCrt => "private_crt",
            Op::PrivateCrtCoalesced(_) => "private_crt_coalesced",
            Op::PrivateCrtBatch(..) => "private_crt_batch",
        }
    }

    fn label(&self, bits: u16) -> String {
        match self {
            Op::Keygen => format!("RSA key generation ({bits} bits)"),
            Op::Public => format!("RSA public-key operation ({bits} bits, exponent 65537)"),
            Op::Private => format!("RSA private-key operation ({bits} bits)"),
            Op::PrivateCrt => format!("RSA private-key operation with CRT ({bits} bits)"),
            Op::PrivateCrtCoalesced(_) => {
                format!("RSA private-key operation with CRT, calls coalesced ({bits} bits)")
            }
            Op::PrivateCrtBatch(n, t) => format!(
                "RSA private-key operation with CRT in batches of {n} on {t} thread{} ({bits} bits)",
                if *t == 1 { "" } else { "s" }
            ),
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
    op: &(dyn Fn() -> rsatool_rsa::Result<()> + Sync),
) -> Result<f64, Failure> {
    let start = Instant::now();
    let results: Vec<rsatool_rsa::Result<()>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| scope.spawn(|| (0..count).try_for_each(|_| op())))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(rsatool_rsa::Error::Fault)))
            .collect()
    });
    let elapsed = start.elapsed().as_secs_f64();
    results
        .into_iter()
        .collect::<rsatool_rsa::Result<Vec<()>>>()
        .map_err(|e| Failure::error(format!("speedtest: operation failed: {e}")))?;
    Ok(elapsed)
}

/// [`run_threads`] that also times each call: the wall-clock seconds and the median seconds
/// of a call.
fn run_threads_timed(
    threads: u16,
    count: u32,
    op: &(dyn Fn() -> rsatool_rsa::Result<()> + Sync),
) -> Result<(f64, f64), Failure> {
    let calls = std::sync::Mutex::new(Vec::new());
    let seconds = run_threads(threads, count, &|| {
        let start = Instant::now();
        let r = op();
        let took = start.elapsed().as_secs_f64();
        calls
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(took);
        r
    })?;
    let mut calls = calls
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    calls.sort_by(f64::total_cmp);
    let median = calls.get(calls.len() >> 1).copied().unwrap_or(0.0);
    Ok((seconds, median))
}

/// The back end this process runs (`bignum::backend::current`).
fn current_backend() -> &'static str {
    bignum::backend::current()
}

/// What a back end is, for the header line.
fn describe(backend: &str) -> String {
    crate::report::backend::describe(backend)
}

/// Runs `rsatool speedtest`, then with `--then` prints the 2003 figures.
pub fn run(args: &Args) -> CmdResult {
    run_report(args)?;
    if args.then {
        outln!("");
        let same = args.bits == 1024
            && [
                args.keygen_count,
                args.public_count,
                args.private_count,
                args.crt_count,
            ] == report::seeds::SPEEDTEST_COUNTS
            && args.threads == 1;
        outln!(
            "Then: Cryptokit's speedtest, 2003-12-18, 2.4 GHz Pentium 4, seconds for each count{}",
            if same {
                ""
            } else {
                " (1024 bits, these counts, one thread: not what ran above)"
            }
        );
        report::seeds::print_speedtest();
    }
    Ok(())
}

/// Today's report (one back end, or each one asked for).
fn run_report(args: &Args) -> CmdResult {
    let bits = usize::from(args.bits);
    if bits & 1 == 1 {
        return Err(Failure::error(format!(
            "--bits {bits}: the modulus size must be even"
        )));
    }
    let Some(wanted) = &args.backend else {
        return run_here(args, true);
    };
    let available = bignum::backend::available();
    let names: Vec<&str> = if wanted == "all" {
        available.clone()
    } else if available.contains(&wanted.as_str()) {
        vec![wanted.as_str()]
    } else if ["portable", "adx", "ifma"].contains(&wanted.as_str()) {
        return Err(Failure::error(format!(
            "--backend {wanted}: not available on this CPU (it runs {})",
            available.join(", ")
        )));
    } else {
        return Err(Failure::error(format!(
            "--backend {wanted}: unknown back end; give portable, adx, ifma or all (this CPU \
             runs {})",
            available.join(", ")
        )));
    };
    if names == [current_backend()] {
        return run_here(args, true);
    }
    // The back end is chosen once per process (bignum's dispatch), so each one runs in a child
    // process of this binary with BIGNUM_BACKEND set, and its JSON is reported here.
    let mut rows = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let child = run_child(args, name)?;
        if args.json && names.len() == 1 {
            report::json::print(&child);
            return Ok(());
        }
        if args.json {
            if let Some(r) = child["rows"].as_array() {
                rows.extend(r.iter().cloned());
            }
        } else {
            if i > 0 {
                outln!("");
            }
            print_block(args, name, &child);
        }
    }
    if args.json {
        report::json::print(&json!({"bits": bits, "threads": args.threads, "rows": rows}));
    }
    Ok(())
}

/// Runs this binary's speedtest with `BIGNUM_BACKEND=name` and `--json`, and checks that it
/// ran that back end.
fn run_child(args: &Args, name: &str) -> Result<serde_json::Value, Failure> {
    let exe = std::env::current_exe()
        .map_err(|e| Failure::error(format!("speedtest: cannot find this program: {e}")))?;
    let out = std::process::Command::new(exe)
        .env("BIGNUM_BACKEND", name)
        .args(["speedtest", "--json", "--bits"])
        .arg(args.bits.to_string())
        .arg("--keygen-count")
        .arg(args.keygen_count.to_string())
        .arg("--public-count")
        .arg(args.public_count.to_string())
        .arg("--private-count")
        .arg(args.private_count.to_string())
        .arg("--crt-count")
        .arg(args.crt_count.to_string())
        .arg("--threads")
        .arg(args.threads.to_string())
        .args(args.coalesce.then_some("--coalesce"))
        .args(
            args.batch
                .map(|b| ["--batch".to_string(), b.to_string()])
                .into_iter()
                .flatten(),
        )
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| Failure::error(format!("speedtest: cannot run the {name} back end: {e}")))?;
    if !out.status.success() {
        return Err(Failure::error(format!(
            "speedtest: the {name} back end failed"
        )));
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| Failure::error(format!("speedtest: the {name} back end's report: {e}")))?;
    if v["backend"] != name {
        return Err(Failure::error(format!(
            "speedtest: asked for the {name} back end, but {} ran",
            v["backend"]
        )));
    }
    Ok(v)
}

/// The lines of one back end's block, from its JSON rows.
fn print_block(args: &Args, name: &str, child: &serde_json::Value) {
    outln!(
        "{name}: seconds for each count, smaller is faster ({})",
        child["path"].as_str().unwrap_or("")
    );
    for row in child["rows"].as_array().into_iter().flatten() {
        let number = |field: &str| row[field].as_u64().unwrap_or(0);
        let count = u32::try_from(number("count")).unwrap_or(0);
        let seconds = row["seconds"].as_f64().unwrap_or(0.0);
        let op = match row["op"].as_str() {
            Some("keygen") => Op::Keygen,
            Some("public") => Op::Public,
            Some("private") => Op::Private,
            Some("private_crt") => Op::PrivateCrt,
            Some("private_crt_coalesced") => {
                Op::PrivateCrtCoalesced(row["median_call_seconds"].as_f64().unwrap_or(0.0))
            }
            _ => Op::PrivateCrtBatch(
                u32::try_from(number("batch")).unwrap_or(1),
                usize::try_from(number("threads")).unwrap_or(1),
            ),
        };
        print_line(args, op, count, seconds);
    }
}

/// One report line: seconds for the count, the label, the rate.
fn print_line(args: &Args, op: Op, count: u32, seconds: f64) {
    if let Op::PrivateCrtBatch(..) = op {
        // The count is the total over the batch's threads.
        outln!(
            "{} {} x {} ({:.1} operations per second)",
            seconds_text(seconds),
            op.label(args.bits),
            count,
            f64::from(count) / seconds
        );
        return;
    }
    let total_ops = f64::from(count) * f64::from(args.threads);
    let median = match op {
        Op::PrivateCrtCoalesced(m) => format!("; median call {} s", seconds_text(m)),
        _ => String::new(),
    };
    if args.threads > 1 {
        outln!(
            "{} {} x {} on {} threads ({:.1} operations per second in all{median})",
            seconds_text(seconds),
            op.label(args.bits),
            count,
            args.threads,
            total_ops / seconds
        );
    } else {
        outln!(
            "{} {} x {} ({:.1} operations per second{median})",
            seconds_text(seconds),
            op.label(args.bits),
            count,
            total_ops / seconds
        );
    }
}

/// The speed test on this process's back end; `header`: the line naming the unit and the back
/// end first.
fn run_here(args: &Args, header: bool) -> CmdResult {
    let bits = usize::from(args.bits);
    let backend = current_backend();
    // Where the engine's shapes are calibrated, calibrate the sizes this run times before it
    // times anything (else the first operation of each would pay for it): the modulus (the
    // private operation without the CRT) and its halves (the CRT's pair, key generation's
    // prime tests). The header's shapes calibrate their own sizes as it names them.
    bignum::modular::tuning::calibrate_shapes(&[bits, bits >> 1]);
    if header && !args.json {
        outln!(
            "{backend}: seconds for each count, smaller is faster ({})",
            describe(backend)
        );
    }
    let mut rng = rsatool_rsa::os_rng();
    let mut rows = Vec::new();
    let mut report = |op: Op, count: u32, seconds: f64| {
        let total_ops = f64::from(count) * f64::from(args.threads);
        if args.json {
            let mut row = json!({"op": op.json_name(), "count": count, "threads": args.threads,
                "backend": backend, "seconds": seconds, "seconds_per_op": seconds / total_ops,
                "ops_per_second": total_ops / seconds});
            if let Op::PrivateCrtCoalesced(median) = op {
                row["median_call_seconds"] = json!(median);
            }
            rows.push(row);
        } else {
            print_line(args, op, count, seconds);
        }
    };

    // The key the operations share; its generation is not part of the keygen line.
    let key = RsaPrivateKey::generate(bits, &mut rng)
        .map_err(|e| Failure::error(format!("key generation failed: {e}")))?;
    let seconds = run_threads(args.threads, args.keygen_count, &|| {
        RsaPrivateKey::generate(bits, &mut rsatool_rsa::os_rng()).map(|_| ())
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
        key.private_op(&mut rsatool_rsa::os_rng(), &c).map(|_| ())
    })?;
    report(Op::PrivateCrt, args.crt_count, seconds);

    if args.coalesce {
        // The same operation on the same key, coalescing: each thread calls the ordinary
        // private operation.
        let key = key.clone().coalescing();
        let (seconds, median) = run_threads_timed(args.threads, args.crt_count, &|| {
            key.private_op(&mut rsatool_rsa::os_rng(), &c).map(|_| ())
        })?;
        report(Op::PrivateCrtCoalesced(median), args.crt_count, seconds);
    }

    if let Some(size) = args.batch {
        // Distinct inputs, as a signing service has: random values below n.
        let inputs: Vec<Vec<u8>> = (0..size)
            .map(|_| {
                let mut m = vec![0u8; k];
                rng.fill_bytes(&mut m);
                m[0] = 0;
                m
            })
            .collect();
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let all = if args.threads > 1 {
            usize::from(args.threads)
        } else {
            rsatool_rsa::Batch::new().max_threads()
        };
        for threads in [1, all] {
            let batch = rsatool_rsa::Batch::new().threads(threads);
            let rounds = args.crt_count.div_ceil(size);
            let start = Instant::now();
            for _ in 0..rounds {
                for r in batch.private_op(&key, &mut rsatool_rsa::os_rng(), &refs) {
                    r.map_err(|e| {
                        Failure::error(format!("speedtest: batch operation failed: {e}"))
                    })?;
                }
            }
            let seconds = start.elapsed().as_secs_f64();
            let count = rounds * size;
            if args.json {
                rows.push(
                    json!({"op": "private_crt_batch", "count": count, "batch": size,
                    "threads": threads, "backend": backend, "seconds": seconds,
                    "seconds_per_op": seconds / f64::from(count),
                    "ops_per_second": f64::from(count) / seconds}),
                );
            } else {
                print_line(args, Op::PrivateCrtBatch(size, threads), count, seconds);
            }
            if all == 1 {
                break;
            }
        }
    }

    if args.json {
        report::json::print(&json!({"bits": bits, "threads": args.threads,
            "backend": backend, "kernels": bignum::mpn::kernels().name,
            "exponentiation": bignum::backend::pow_path().name(), "path": describe(backend),
            "engine_shapes": crate::report::backend::shapes(),
            "cpu": crate::report::backend::cpu(),
            "rows": rows}));
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
