//! `rsatool metime`: the MPI library's modular exponentiation timing table.

use bignum::Limb;
use bignum::modular::{Modulus, Residue};
use chacha20::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use serde_json::json;

use crate::cmd::args::{BitsList, Help, ReportArgs, ReportTexts, parse_bits_list};
use crate::exit::{CmdResult, Failure};
use crate::report::{self, outln};
use crate::timing::best_of;

/// `metime`'s help texts of the shared options.
#[derive(Debug)]
pub struct Texts;

impl Help<ReportTexts> for Texts {
    const HELP: ReportTexts = ReportTexts {
        seed: "Seed of the random operands (ChaCha20)",
        json: "Print one JSON object instead of the table",
        then: "Then print the MPI library's 1999 table (seconds per exponentiation, per machine \
            and compiler) with today's rows under it, in its original layout",
    };
}

/// Time modular exponentiation with base, exponent and modulus of the same size, like the MPI
/// library's `metime`: one row per implementation, one column per size.
///
/// Example: `rsatool metime --bits 512,1024,2048 --count 100`
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  rsatool metime --bits 512,1024,2048 --count 100")]
pub struct Args {
    /// Sizes in bits (multiples of 64)
    #[arg(long, value_parser = parse_bits_list, default_value = "128,192,256,320,384,448,512,640,768,896,1024")]
    bits: BitsList,
    /// Exponentiations timed per size and implementation
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    count: u32,
    #[command(flatten)]
    report: ReportArgs<Texts>,
}

/// The implementations compared, as named in reports.
const IMPLS: [&str; 2] = ["ct", "vartime"];

struct Case {
    base: Residue,
    exp: Vec<Limb>,
}

/// Seconds per exponentiation of `imp` over `cases`, best of three passes.
fn time_impl(m: &Modulus, cases: &[Case], bits: usize, imp: &str) -> f64 {
    let best = best_of(3, || {
        for c in cases {
            let r = if imp == "ct" {
                m.pow(&c.base, &c.exp, bits)
            } else {
                m.pow_vartime(&c.base, &c.exp)
            };
            std::hint::black_box(r);
        }
    });
    best / cases.len() as f64
}

/// Runs `rsatool metime`.
pub fn run(args: &Args) -> CmdResult {
    let mut table: Vec<Vec<f64>> = vec![Vec::new(); IMPLS.len()];
    let mut rows = Vec::new();
    for &bits in &args.bits.0 {
        let mut rng = ChaCha20Rng::seed_from_u64(args.report.seed ^ bits as u64);
        let n = bits >> 6;
        let mut random = |top: bool| -> Vec<Limb> {
            let mut v: Vec<Limb> = (0..n).map(|_| rng.next_u64()).collect();
            if top {
                v[n - 1] |= 1 << 63;
            }
            v
        };
        let mut mod_limbs = random(true);
        mod_limbs[0] |= 1;
        let m = Modulus::new_vartime(&mod_limbs)
            .map_err(|e| Failure::error(format!("internal: random modulus refused: {e}")))?;
        let cases: Vec<Case> = (0..args.count)
            .map(|_| Case {
                base: m.reduce(&random(false)),
                exp: random(true),
            })
            .collect();
        for (i, imp) in IMPLS.iter().enumerate() {
            let t = time_impl(&m, &cases, bits, imp);
            table[i].push(t);
            rows.push(json!({"impl": imp, "bits": bits, "count": args.count, "seconds_per_op": t}));
        }
    }
    if args.report.json {
        report::json::print(
            &json!({"seed": args.report.seed, "backend": bignum::mpn::kernels().name, "rows": rows}),
        );
        return Ok(());
    }
    outln!(
        "metime: modular exponentiation, base, exponent and modulus of equal size (top bits set); {} per size, seed {}, back end {}; milliseconds per exponentiation",
        args.count,
        args.report.seed,
        bignum::mpn::kernels().name
    );
    let mut header = format!("{:<9}", "impl");
    for bits in &args.bits.0 {
        header.push_str(&format!(" {bits:>9}"));
    }
    outln!("{header}");
    for (imp, times) in IMPLS.iter().zip(&table) {
        let mut line = format!("{imp:<9}");
        for t in times {
            line.push_str(&format!(" {:>9.4}", t * 1e3));
        }
        outln!("{line}");
    }
    if args.report.then {
        outln!("");
        outln!(
            "Then: the MPI library's metime (1999, 16-bit digits, seconds per exponentiation; \
             configurations below); now: ct and vartime, this run, in seconds"
        );
        outln!("");
        let now: Vec<(&str, Vec<(usize, f64)>)> = IMPLS
            .iter()
            .zip(&table)
            .map(|(imp, times)| {
                (
                    *imp,
                    args.bits
                        .0
                        .iter()
                        .copied()
                        .zip(times.iter().copied())
                        .collect(),
                )
            })
            .collect();
        report::seeds::print_metime(&now);
        outln!("");
        for line in report::seeds::MPI_LEGEND {
            outln!("{line}");
        }
    }
    Ok(())
}
