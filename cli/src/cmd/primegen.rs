//! `rsatool primegen`: the MPI library's prime generation timing report.

use bignum::prime;
use chacha20::ChaCha20Rng;
use rand_core::SeedableRng;
use serde_json::json;

use crate::cmd::args::{BitsList, Help, ReportArgs, ReportTexts, parse_bits_list};
use crate::exit::CmdResult;
use crate::report::{self, outln};
use crate::timing::seconds_of;

/// `primegen`'s help texts of the shared options.
#[derive(Debug)]
pub struct Texts;

impl Help<ReportTexts> for Texts {
    const HELP: ReportTexts = ReportTexts {
        seed: "Seed of the random generator (ChaCha20), so runs are repeatable",
        json: "Print one JSON object instead of the report",
        then: "Then print the MPI library's 1999 figures (seconds, per machine and compiler) \
            beside today's, in its original layout",
    };
}

/// Time random prime generation per size, like the MPI library's `primegen`.
///
/// Example: `rsatool primegen --bits 512,1024 --count 50`
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  rsatool primegen --bits 512,1024 --count 50")]
pub struct Args {
    /// Prime sizes in bits (multiples of 64)
    #[arg(long, value_parser = parse_bits_list, default_value = "128,192,256,320,384,448,512")]
    bits: BitsList,
    /// Primes generated per size
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    count: u32,
    #[command(flatten)]
    report: ReportArgs<Texts>,
}

/// Runs `rsatool primegen`.
pub fn run(args: &Args) -> CmdResult {
    if !args.report.json {
        outln!(
            "primegen: {} random primes per size (top bit set; Miller-Rabin rounds from bignum::prime::rounds_for_bits), seed {}, back end {}; times in milliseconds",
            args.count,
            args.report.seed,
            bignum::mpn::kernels().name
        );
    }
    let mut rows = Vec::new();
    let mut now = Vec::new();
    for &bits in &args.bits.0 {
        // One generator per size, so each row can be reproduced on its own.
        let mut rng = ChaCha20Rng::seed_from_u64(args.report.seed ^ bits as u64);
        let times: Vec<f64> = (0..args.count)
            .map(|_| {
                seconds_of(|| {
                    std::hint::black_box(prime::random_prime(bits, &mut rng));
                })
            })
            .collect();
        let sum: f64 = times.iter().sum();
        let min = times.iter().copied().fold(f64::INFINITY, f64::min);
        let max = times.iter().copied().fold(0.0, f64::max);
        let avg = sum / times.len() as f64;
        now.push((bits, [min, avg, max, sum]));
        if args.report.json {
            rows.push(
                json!({"bits": bits, "count": args.count, "min": min, "avg": avg,
                "max": max, "sum": sum}),
            );
        } else {
            outln!(
                "{bits:>5} bits x {}: min={:.4} avg={:.4} max={:.4} sum={:.4}",
                args.count,
                min * 1e3,
                avg * 1e3,
                max * 1e3,
                sum * 1e3
            );
        }
    }
    if args.report.json {
        report::json::print(&json!({"unit": "seconds", "seed": args.report.seed, "rows": rows}));
    }
    if args.report.then {
        outln!("");
        outln!(
            "Then: the MPI library's primegen (1999, 16-bit digits, seconds; configurations \
             below); now: this run, in seconds"
        );
        outln!("");
        for (bits, figures) in now {
            report::seeds::print_primegen(bits, Some((args.count, figures)));
        }
        for line in report::seeds::MPI_LEGEND {
            outln!("{line}");
        }
    }
    Ok(())
}
