//! Times the eight-lane batch exponentiation against eight single exponentiations and four
//! interleaved pairs on the IFMA instructions, and against eight on the 64-bit limbs (best of
//! interleaved rounds; ratios in the same run).
//!
//! `cargo run --release -p bignum --example pow_batch [-- BITS...]`

// Public sizes and counts only.
#![allow(clippy::integer_division_remainder_used, clippy::cast_precision_loss)]

use std::time::Instant;

use bignum::modular::{Modulus, PowJob, PowPath, Residue, pow_batch_on, pow_pair_on};

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

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

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if args.is_empty() {
        vec![1024, 1536, 2048]
    } else {
        args
    };
    if !PowPath::Ifma.is_available() {
        println!("no avx512ifma on this CPU: nothing to compare");
        return;
    }
    let mut s = 42;
    for bits in sizes {
        let n = bits.div_ceil(64);
        let ctxs: Vec<Modulus> = (0..8)
            .map(|_| {
                let mut m: Vec<u64> = (0..n).map(|_| splitmix(&mut s)).collect();
                m[0] |= 1;
                m[n - 1] |= 1 << 63;
                Modulus::new_vartime(&m).expect("odd")
            })
            .collect();
        let bases: Vec<Residue> = ctxs
            .iter()
            .map(|c| c.reduce(&(0..n).map(|_| splitmix(&mut s)).collect::<Vec<_>>()))
            .collect();
        let exps: Vec<Vec<u64>> = (0..8)
            .map(|_| (0..n).map(|_| splitmix(&mut s)).collect())
            .collect();
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
