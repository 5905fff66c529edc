//! `rsatool mulsqr`: the MPI library's multiply-versus-square table.

use bignum::Limb;
use bignum::mpn;
use chacha20::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde_json::json;

use crate::cmd::args::{BitsList, Help, ReportArgs, ReportTexts, parse_bits_list};
use crate::exit::CmdResult;
use crate::report::{self, outln};
use crate::timing::best_of;

/// `mulsqr`'s help texts of the shared options.
#[derive(Debug)]
pub struct Texts;

impl Help<ReportTexts> for Texts {
    const HELP: ReportTexts = ReportTexts {
        seed: "Seed of the random operands",
        json: "Print one JSON object instead of the table",
        then: "Then print the MPI library's 1999 tables (seconds for 500000 operations, per \
            machine and compiler) and today's in the same layout",
    };
}

/// Multiply versus square per operand size, like the MPI library's `mulsqr`.
///
/// Example: `rsatool mulsqr --bits 512,1024,2048 --count 20000`
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  rsatool mulsqr --bits 512,1024,2048 --count 20000")]
pub struct Args {
    /// Operand sizes in bits (multiples of 64)
    #[arg(long, value_parser = parse_bits_list, default_value = "64,128,256,512,1024,2048")]
    bits: BitsList,
    /// Operations timed per size, for each of multiply and square
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    count: u64,
    #[command(flatten)]
    report: ReportArgs<Texts>,
}

/// Total seconds of `count` calls, best of three runs.
fn best_total(count: u64, f: &mut dyn FnMut()) -> f64 {
    best_of(3, || {
        for _ in 0..count {
            f();
        }
    })
}

/// Runs `rsatool mulsqr`.
pub fn run(args: &Args) -> CmdResult {
    let mut rng = ChaCha8Rng::seed_from_u64(args.report.seed);
    let mut rows = Vec::new();
    let mut now = Vec::new();
    if !args.report.json {
        outln!(
            "mulsqr: multiply vs square, {} operations per size, back end {}, seed {}",
            args.count,
            mpn::kernels().name,
            args.report.seed
        );
        outln!(
            "{:>6} {:>12} {:>12} {:>14} {:>12} {:>12}",
            "bits",
            "mul total s",
            "sqr total s",
            "faster",
            "mul/op ns",
            "sqr/op ns"
        );
    }
    for &bits in &args.bits.0 {
        let n = bits >> 6;
        let a: Vec<Limb> = (0..n).map(|_| rng.next_u64()).collect();
        let b: Vec<Limb> = (0..n).map(|_| rng.next_u64()).collect();
        let mut r = vec![0; 2 * n];
        let mul = best_total(args.count, &mut || mpn::mul(&mut r, &a, &b));
        let sqr = best_total(args.count, &mut || mpn::sqr(&mut r, &a));
        let (mul_op, sqr_op) = (mul / args.count as f64, sqr / args.count as f64);
        let scale = report::seeds::MULSQR_COUNT;
        now.push((bits, mul_op * scale, sqr_op * scale));
        if args.report.json {
            rows.push(
                json!({"bits": bits, "count": args.count, "mul_seconds": mul_op,
                "sqr_seconds": sqr_op}),
            );
        } else {
            let faster = if sqr <= mul {
                format!("sqr {:5.1}%", 100.0 * (mul - sqr) / mul)
            } else {
                format!("mul {:5.1}%", 100.0 * (sqr - mul) / sqr)
            };
            outln!(
                "{bits:>6} {mul:>12.6} {sqr:>12.6} {faster:>14} {:>12.1} {:>12.1}",
                mul_op * 1e9,
                sqr_op * 1e9
            );
        }
    }
    if args.report.json {
        report::json::print(
            &json!({"backend": mpn::kernels().name, "seed": args.report.seed, "rows": rows}),
        );
    }
    if args.report.then {
        outln!("");
        outln!(
            "Then: the MPI library's mulsqr (1999, 16-bit digits; configurations below); now: \
             this run, scaled to the same 500000 operations; times in seconds, except where \
             indicated in microseconds (us)"
        );
        outln!("");
        for (name, table) in report::seeds::MULSQR {
            report::seeds::print_mulsqr(name, &table, 2);
        }
        report::seeds::print_mulsqr("now", &now, 2);
        for line in report::seeds::MPI_LEGEND {
            outln!("{line}");
        }
    }
    Ok(())
}
