//! `rsatool speed`: time kernels per size in limbs, after GMP's `tune/speed`.

use bignum::Limb;
use bignum::backend::KernelTable;
use bignum::modular::{Modulus, Residue};
use bignum::mpn::{self, Kernels};
use chacha20::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde_json::json;

use crate::exit::{CmdResult, Failure};
use crate::report::{self, outln};
use crate::timing::Clock;

/// Largest size accepted, in limbs (a 2-million-bit operand).
const MAX_LIMBS: usize = 1 << 15;

/// Time mpn kernels per size, like GMP's `speed`.
///
/// Example: `rsatool speed -C -s 10,100,1000 addmul_1 submul_1 addmul_1.portable`
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Kernels: add_n sub_n mul_1 addmul_1 submul_1 mul_basecase sqr_basecase \
                        mul sqr. A suffix .BACKEND (e.g. addmul_1.portable) picks a back end for \
                        the table kernels (add_n .. sqr_basecase); the others use the process-wide \
                        one, set with BIGNUM_BACKEND.\n\nExample:\n  \
                        rsatool speed -C -s 10,100,1000 addmul_1 submul_1 addmul_1.portable"
)]
pub struct Args {
    /// Sizes in limbs: a list with ranges, e.g. 10,100,200,1000-1010
    #[arg(short = 's', long = "sizes", default_value = "1,2,3,4,8,16,32,64,100,1000", value_parser = parse_sizes)]
    sizes: Sizes,
    /// Report cycles per limb (time-stamp-counter ticks per limb) instead of seconds per call
    #[arg(short = 'C')]
    cycles: bool,
    /// Print one JSON object instead of the table
    #[arg(long)]
    json: bool,
    /// Kernels to time, one column each
    #[arg(required = true)]
    kernels: Vec<String>,
}

/// A parsed `-s` list.
#[derive(Debug, Clone)]
pub struct Sizes(Vec<usize>);

/// Parses `10,100,200,1000-1010` into sizes, rejecting zero, reversed ranges and huge sizes.
fn parse_sizes(s: &str) -> Result<Sizes, String> {
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim) {
        let (lo, hi) = match part.split_once('-') {
            Some((a, b)) => (parse_size(a)?, parse_size(b)?),
            None => {
                let v = parse_size(part)?;
                (v, v)
            }
        };
        if lo > hi {
            return Err(format!("range {part} runs backwards"));
        }
        out.extend(lo..=hi);
    }
    Ok(Sizes(out))
}

fn parse_size(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a size in limbs"))?;
    if n == 0 || n > MAX_LIMBS {
        return Err(format!("size {n} is outside 1..={MAX_LIMBS} limbs"));
    }
    Ok(n)
}

/// What a column times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    AddN,
    SubN,
    Mul1,
    Addmul1,
    Submul1,
    MulBasecase,
    SqrBasecase,
    Mul,
    Sqr,
    MontMul,
    MontSqr,
}

/// The kernel names `from_name` takes, for the message that lists them.
const KERNEL_NAMES: [&str; 11] = [
    "add_n",
    "sub_n",
    "mul_1",
    "addmul_1",
    "submul_1",
    "mul_basecase",
    "sqr_basecase",
    "mul",
    "sqr",
    "mont_mul",
    "mont_sqr",
];

impl Op {
    fn from_name(name: &str) -> Option<Op> {
        Some(match name {
            "add_n" => Op::AddN,
            "sub_n" => Op::SubN,
            "mul_1" => Op::Mul1,
            "addmul_1" => Op::Addmul1,
            "submul_1" => Op::Submul1,
            "mul_basecase" => Op::MulBasecase,
            "sqr_basecase" => Op::SqrBasecase,
            "mul" => Op::Mul,
            "sqr" => Op::Sqr,
            "mont_mul" => Op::MontMul,
            "mont_sqr" => Op::MontSqr,
            _ => return None,
        })
    }

    /// Whether the dispatch table has this kernel per back end.
    fn in_table(self) -> bool {
        matches!(
            self,
            Op::AddN
                | Op::SubN
                | Op::Mul1
                | Op::Addmul1
                | Op::Submul1
                | Op::MulBasecase
                | Op::SqrBasecase
        )
    }
}

/// One column: a kernel on one back end.
struct Column {
    label: String,
    op: Op,
    kernels: &'static Kernels,
}

fn parse_column(spec: &str) -> Result<Column, Failure> {
    let (name, backend) = match spec.split_once('.') {
        Some((n, b)) => (n, Some(b)),
        None => (spec, None),
    };
    let op = Op::from_name(name).ok_or_else(|| {
        Failure::error(format!(
            "unknown kernel '{name}'; the kernels are {}",
            KERNEL_NAMES.join(", ")
        ))
    })?;
    let active = mpn::kernels();
    let kernels = match backend {
        None => active,
        Some(b) => {
            let table = KernelTable::from_name(b).ok_or_else(|| {
                let names: Vec<&str> = KernelTable::ALL.iter().map(|t| t.name()).collect();
                Failure::error(format!(
                    "unknown back end '{b}'; the back ends are {}",
                    names.join(", ")
                ))
            })?;
            let k = mpn::table(table).ok_or_else(|| {
                Failure::error(format!("back end '{b}' is not available on this CPU"))
            })?;
            if !op.in_table() && !std::ptr::eq(k, active) {
                return Err(Failure::error(format!(
                    "{name} runs on the process-wide back end ({}); set BIGNUM_BACKEND={b} instead",
                    active.name
                )));
            }
            k
        }
    };
    Ok(Column {
        label: format!("{name}.{}", kernels.name),
        op,
        kernels,
    })
}

/// Operands for one size, from a fixed seed so every run times the same values.
struct Operands {
    a: Vec<Limb>,
    b: Vec<Limb>,
    r: Vec<Limb>,
    rr: Vec<Limb>,
    m: Limb,
    /// An odd n-limb modulus with its top bit set, and two residues.
    modulus: Modulus,
    ra: Residue,
    rb: Residue,
}

impl Operands {
    fn new(n: usize) -> Operands {
        let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
        let mut limbs = |k: usize| (0..k).map(|_| rng.next_u64()).collect::<Vec<Limb>>();
        let (a, b, r) = (limbs(n), limbs(n), limbs(n));
        let m = limbs(1)[0] | 1 << 63;
        let mut ml = limbs(n);
        ml[0] |= 1;
        ml[n - 1] |= 1 << 63;
        let modulus = Modulus::new_vartime(&ml).expect("an odd modulus with the top bit set");
        let (ra, rb) = (modulus.reduce(&a), modulus.reduce(&b));
        Operands {
            a,
            b,
            r,
            rr: vec![0; 2 * n],
            m,
            modulus,
            ra,
            rb,
        }
    }

    fn run(&mut self, op: Op, k: &Kernels) {
        let Operands {
            a,
            b,
            r,
            rr,
            m,
            modulus,
            ra,
            rb,
        } = self;
        let m = *m;
        match op {
            Op::AddN => {
                (k.add_n)(r, a, b);
            }
            Op::SubN => {
                (k.sub_n)(r, a, b);
            }
            Op::Mul1 => {
                (k.mul_1)(r, a, m);
            }
            Op::Addmul1 => {
                (k.addmul_1)(r, a, m);
            }
            Op::Submul1 => {
                (k.submul_1)(r, a, m);
            }
            Op::MulBasecase => (k.mul_basecase)(rr, a, b),
            Op::SqrBasecase => (k.sqr_basecase)(rr, a),
            Op::Mul => mpn::mul(rr, a, b),
            Op::Sqr => mpn::sqr(rr, a),
            Op::MontMul => *ra = modulus.mul(ra, rb),
            Op::MontSqr => *ra = modulus.sqr(ra),
        }
    }
}

/// Runs `rsatool speed`.
pub fn run(args: &Args) -> CmdResult {
    let columns = args
        .kernels
        .iter()
        .map(|s| parse_column(s))
        .collect::<Result<Vec<_>, _>>()?;
    let clock = Clock::calibrate();
    let unit = if args.cycles {
        "cycles_per_limb"
    } else {
        "seconds"
    };
    let mut json_rows = Vec::new();
    if !args.json {
        print_header(&clock, args.cycles);
        let mut line = format!("{:>6}", "limbs");
        for c in &columns {
            line.push_str(&format!(" {:>18}", c.label));
        }
        outln!("{line}");
    }
    for &n in &args.sizes.0 {
        let mut ops = Operands::new(n);
        let values: Vec<f64> = columns
            .iter()
            .map(|c| {
                let ticks = clock.ticks_per_call(&mut || ops.run(c.op, c.kernels));
                if args.cycles {
                    ticks / n as f64
                } else {
                    ticks / clock.tick_hz
                }
            })
            .collect();
        let best = values.iter().copied().fold(f64::INFINITY, f64::min);
        if args.json {
            for (c, &v) in columns.iter().zip(&values) {
                json_rows.push(json!({"n": n, "kernel": kernel_name(&c.label),
                    "backend": c.kernels.name, "value": v}));
            }
        } else {
            let mut line = format!("{n:>6}");
            for &v in &values {
                let mark = if columns.len() > 1 && v == best {
                    "#"
                } else {
                    " "
                };
                let cell = if args.cycles {
                    format!("{v:.4}")
                } else {
                    format!("{v:.4e}")
                };
                line.push_str(&format!(" {:>18}", format!("{mark}{cell}")));
            }
            outln!("{line}");
        }
    }
    if args.json {
        report::json::print(&json!({
            "unit": unit,
            "tick_hz": clock.tick_hz,
            "tick_source": clock.source,
            "core_hz_estimate": clock.core_hz,
            "overhead_ticks": clock.overhead_ticks,
            "exponentiation_path": bignum::backend::pow_path().name(),
            "rows": json_rows,
        }));
    }
    Ok(())
}

fn kernel_name(label: &str) -> &str {
    label.split('.').next().unwrap_or(label)
}

fn print_header(clock: &Clock, cycles: bool) {
    outln!(
        "overhead {:.2} ticks, precision 1 unit of {:.3e} secs, {} at {:.2} MHz (calibrated against the wall clock)",
        clock.overhead_ticks,
        clock.tick_seconds(),
        clock.source,
        clock.tick_hz / 1e6
    );
    outln!(
        "core clock estimated at {:.2} MHz from a dependent-multiply chain; {}",
        clock.core_hz / 1e6,
        if cycles {
            format!(
                "figures are {} ticks per limb: multiply by {:.3} for core cycles per limb",
                clock.source,
                clock.core_hz / clock.tick_hz
            )
        } else {
            "figures are seconds per call".to_string()
        }
    );
    outln!(
        "back end in use: {}; exponentiation path: {} (not timed here); each figure is the best \
         of 9 runs of at least 1 ms",
        mpn::kernels().name,
        bignum::backend::pow_path().name()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_lists_and_ranges() {
        assert_eq!(
            parse_sizes("10,100,1000-1002").unwrap().0,
            vec![10, 100, 1000, 1001, 1002]
        );
        assert_eq!(parse_sizes(" 7 ").unwrap().0, vec![7]);
    }

    #[test]
    fn bad_sizes_are_refused_with_a_reason() {
        for bad in ["", "0", "x", "5-3", "1-", "99999999", "1,,2"] {
            assert!(parse_sizes(bad).is_err(), "{bad:?} should be refused");
        }
    }

    #[test]
    fn kernel_names_and_backends_are_checked() {
        assert!(parse_column("addmul_1").is_ok());
        assert!(parse_column("addmul_1.portable").is_ok());
        assert!(parse_column("nosuch").is_err());
        assert!(parse_column("addmul_1.nosuch").is_err());
        assert!(parse_column("mont_mul").is_ok() && parse_column("mont_sqr").is_ok());
    }
}
