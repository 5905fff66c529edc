//! Times the constant-time exponentiation on each path this CPU runs, single and paired, as
//! ratios against the 64-bit limbs in the same run (best of interleaved rounds); with
//! `--batch`, eight exponentiations as one eight-lane batch against eight singles, four pairs
//! and eight on the limbs.
//!
//! With `--shapes`, every shape of the 52-bit engine (register width, pair interleaved or two
//! singles) for a pair of exponentiations modulo each size, as ratios against this CPU's
//! choice (`bignum::backend::shape`) in the same run: the measurement that fills a CPU's row
//! of the shape table.
//!
//! `cargo run --release -p bignum --example pow_paths [-- [--batch | --shapes] BITS...]`

// Public sizes and counts only.
#![allow(clippy::integer_division_remainder_used, clippy::cast_precision_loss)]

use std::time::Instant;

use bignum::backend::PowPath;
use bignum::modular::tuning::{pow_batch_on, pow_pair_on};
use bignum::modular::{Modulus, PowJob, Residue};
use testkit::SplitMix64;

fn best_of(rounds: usize, reps: usize, mut f: impl FnMut()) -> f64 {
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            t.elapsed().as_secs_f64() / reps as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// `count` random odd moduli of `bits` bits (a multiple of 64: the top bit of the top limb set).
fn random_moduli(s: &mut SplitMix64, bits: usize, count: usize) -> Vec<Modulus> {
    let n = bits.div_ceil(64);
    (0..count)
        .map(|_| {
            let mut m = s.limbs(n);
            m[0] |= 1;
            m[n - 1] |= 1 << 63;
            Modulus::new_vartime(&m).expect("odd")
        })
        .collect()
}

fn main() {
    let batch = std::env::args().any(|a| a == "--batch");
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if std::env::args().any(|a| a == "--shapes") {
        return shapes(if args.is_empty() {
            vec![1024, 1536, 2048]
        } else {
            args
        });
    }
    if batch {
        return batches(if args.is_empty() {
            vec![1024, 1536, 2048]
        } else {
            args
        });
    }
    let sizes = if args.is_empty() {
        vec![512, 1024, 1536, 2048, 4096]
    } else {
        args
    };
    let mut s = SplitMix64::new(42);
    for bits in sizes {
        let n = bits.div_ceil(64);
        let mut m = s.limbs(n);
        m[0] |= 1;
        m[n - 1] |= 1 << 63;
        let ctx = Modulus::new_vartime(&m).expect("odd");
        let x = s.limbs(n);
        let e = s.limbs(n);
        let base = ctx.reduce(&x);
        let reps = (200_000_000 / (bits * bits)).max(2);
        let mut line = format!("{bits:5} bits:");
        let limbs = best_of(7, reps, || {
            std::hint::black_box(ctx.pow_on(PowPath::Limbs, &base, &e, bits));
        });
        line += &format!(" limbs {:8.1} µs", limbs * 1e6);
        if PowPath::Ifma.is_available() {
            let t = best_of(7, reps, || {
                std::hint::black_box(ctx.pow_on(PowPath::Ifma, &base, &e, bits));
            });
            line += &format!(" | ifma {:8.1} µs ({:.2}x)", t * 1e6, t / limbs);
            let job = PowJob {
                modulus: &ctx,
                base: &base,
                exp: &e,
                exp_bits: bits,
            };
            let p = best_of(7, reps, || {
                std::hint::black_box(pow_pair_on(PowPath::Ifma, &job, &job));
            });
            line += &format!(
                " | ifma pair {:8.1} µs ({:.2}x two limbs)",
                p * 1e6,
                p / (2.0 * limbs)
            );
        }
        println!("{line}");
    }
}

/// Eight exponentiations of each size: one batch against the other paths.
fn batches(sizes: Vec<usize>) {
    if !PowPath::Ifma.is_available() {
        println!("no avx512ifma on this CPU: nothing to compare");
        return;
    }
    let mut s = SplitMix64::new(42);
    for bits in sizes {
        let n = bits.div_ceil(64);
        let ctxs = random_moduli(&mut s, bits, 8);
        let bases: Vec<Residue> = ctxs.iter().map(|c| c.reduce(&s.limbs(n))).collect();
        let exps: Vec<Vec<u64>> = (0..8).map(|_| s.limbs(n)).collect();
        let jobs: Vec<PowJob<'_>> = (0..8)
            .map(|k| PowJob {
                modulus: &ctxs[k],
                base: &bases[k],
                exp: &exps[k],
                exp_bits: bits,
            })
            .collect();
        let reps = (100_000_000 / (bits * bits)).max(2);
        let (mut batch, mut single, mut pairs, mut limbs) = (f64::INFINITY, 0.0, 0.0, 0.0);
        // Interleaved rounds: each path in every round, the best of each kept.
        let (mut bs, mut ps, mut ls) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
        for _ in 0..5 {
            batch = batch.min(best_of(1, reps, || {
                std::hint::black_box(pow_batch_on(PowPath::Ifma, &jobs));
            }));
            bs = bs.min(best_of(1, reps, || {
                for j in &jobs {
                    std::hint::black_box(j.modulus.pow_on(PowPath::Ifma, j.base, j.exp, bits));
                }
            }));
            ps = ps.min(best_of(1, reps, || {
                for p in jobs.chunks(2) {
                    std::hint::black_box(pow_pair_on(PowPath::Ifma, &p[0], &p[1]));
                }
            }));
            ls = ls.min(best_of(1, reps.div_ceil(4), || {
                for j in &jobs {
                    std::hint::black_box(j.modulus.pow_on(PowPath::Limbs, j.base, j.exp, bits));
                }
            }));
            (single, pairs, limbs) = (bs, ps, ls);
        }
        println!(
            "{bits:5} bits, 8 exponentiations: batch {:8.1} µs | 8 single ifma {:8.1} µs ({:.2}x) | 4 ifma pairs {:8.1} µs ({:.2}x) | 8 limbs {:8.1} µs ({:.2}x)",
            batch * 1e6,
            single * 1e6,
            single / batch,
            pairs * 1e6,
            pairs / batch,
            limbs * 1e6,
            limbs / batch,
        );
    }
}

/// Every shape of the engine for a pair modulo each size, against this CPU's choice: rounds
/// alternate the shapes, and each keeps its best.
fn shapes(sizes: Vec<usize>) {
    use bignum::backend::{Shape, Width, cpu_row_name, shape};
    use bignum::modular::tuning::pow_pair_shaped;
    if !PowPath::Ifma.is_available() {
        println!("no avx512ifma on this CPU: nothing to compare");
        return;
    }
    match bignum::cpu::Identity::of_this_cpu() {
        Some(id) => println!(
            "{} family {} model {} ({})",
            id.vendor_str(),
            id.family,
            id.model,
            cpu_row_name().unwrap_or("not in the table")
        ),
        None => println!("not x86-64"),
    }
    let mut s = SplitMix64::new(50);
    let all: Vec<Shape> = [Width::Bits256, Width::Bits512]
        .into_iter()
        .flat_map(|width| [true, false].map(|interleave| Shape { width, interleave }))
        .collect();
    for bits in sizes {
        let n = bits.div_ceil(64);
        let ctxs = random_moduli(&mut s, bits, 2);
        let bases: Vec<Residue> = ctxs.iter().map(|c| c.reduce(&s.limbs(n))).collect();
        let e = s.limbs(n);
        let [a, b] = [0, 1].map(|k| PowJob {
            modulus: &ctxs[k],
            base: &bases[k],
            exp: &e,
            exp_bits: bits,
        });
        let chosen = shape(bits).expect("a size the engine takes");
        let runnable: Vec<Shape> = all
            .iter()
            .copied()
            .filter(|&sh| pow_pair_shaped(PowPath::Ifma, sh, &a, &b).is_some())
            .collect();
        let reps = (100_000_000 / (bits * bits)).max(2);
        let mut best = vec![f64::INFINITY; runnable.len()];
        for _ in 0..7 {
            for (t, &sh) in best.iter_mut().zip(&runnable) {
                *t = t.min(best_of(1, reps, || {
                    std::hint::black_box(pow_pair_shaped(PowPath::Ifma, sh, &a, &b));
                }));
            }
        }
        let at = runnable.iter().position(|&sh| sh == chosen).unwrap_or(0);
        let line: Vec<String> = runnable
            .iter()
            .zip(&best)
            .map(|(sh, t)| {
                let mark = if *sh == chosen { "*" } else { "" };
                format!("{sh}{mark} {:7.1} µs ({:.2}x)", t * 1e6, t / best[at])
            })
            .collect();
        println!("{bits:5} bits, a pair: {}", line.join(" | "));
    }
}
