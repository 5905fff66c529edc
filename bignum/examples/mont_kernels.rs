//! Interleaved timing of the Montgomery kernels of every back end this CPU runs.
//!
//! `cargo run --release -p bignum --example mont_kernels [ROUNDS [CALLS]]`
//!
//! For n = 8, 16, 24, 32, 64 limbs: `mont_mul` and `redc_1` of each back end (through
//! `mpn::all_available()`), `sqr_basecase` + `redc_1` (a Montgomery square; `sqr_basecase`
//! runs on the back end `BIGNUM_BACKEND` picks), and the exponentiation's products kept below
//! R, `mont_mul_below_r` and `mont_sqr_below_r`. The variants run in turn, `CALLS` calls per
//! batch, `ROUNDS` rounds, and each keeps its best batch: on a shared, noisy machine the
//! minimum is the figure that repeats. Printed in ns per call.

use std::hint::black_box;
use std::time::Instant;

use bignum::Limb;
use bignum::mpn;

/// xorshift64 limbs (the timing does not depend on the values; this only avoids zeros).
fn limbs(seed: &mut u64, n: usize) -> Vec<Limb> {
    (0..n)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        })
        .collect()
}

fn arg(i: usize, default: u32) -> u32 {
    std::env::args()
        .nth(i)
        .map_or(default, |s| s.parse().expect("a positive integer"))
}

#[allow(clippy::cast_precision_loss)] // public timings
fn main() {
    let rounds = arg(1, 300);
    let calls = arg(2, 100);
    let backends = mpn::all_available();
    let global = mpn::kernels().name;
    println!("best of {rounds} rounds x {calls} calls, ns per call; sqr_basecase on {global}");
    let mut seed = 0x0123_4567_89ab_cdef;
    for n in [8, 16, 24, 32, 64] {
        let mut m = limbs(&mut seed, n);
        m[0] |= 1;
        m[n - 1] |= 1 << 63;
        // -m⁻¹ mod 2⁶⁴ by Newton's iteration (x = m is right to 3 bits, each step doubles).
        let mut x = m[0];
        for _ in 0..5 {
            x = x.wrapping_mul(2u64.wrapping_sub(m[0].wrapping_mul(x)));
        }
        let minv = x.wrapping_neg();
        let mut a = limbs(&mut seed, n);
        a[n - 1] >>= 1;
        let b = limbs(&mut seed, n);
        let t0 = limbs(&mut seed, 2 * n);
        let mut r = vec![0; n];
        let mut t = vec![0; 2 * n];
        let mut scratch = vec![0; mpn::mont_mul_scratch_len(n).max(mpn::mont_sqr_scratch_len(n))];

        // (label, back end, kind): kind 0 = mont_mul, 1 = redc_1, 2 = sqr_basecase + redc_1,
        // 3 = mont_mul_below_r, 4 = mont_sqr_below_r.
        let mut variants = Vec::new();
        for k in &backends {
            variants.push((format!("mont_mul.{}", k.name), *k, 0));
            variants.push((format!("redc_1.{}", k.name), *k, 1));
            variants.push((format!("sqr.{global}+redc_1.{}", k.name), *k, 2));
            variants.push((format!("mul_below_r.{}", k.name), *k, 3));
            variants.push((format!("sqr_below_r.{}", k.name), *k, 4));
        }
        let mut best = vec![f64::INFINITY; variants.len()];
        for _ in 0..rounds {
            for (slot, (_, k, kind)) in best.iter_mut().zip(&variants) {
                let start = Instant::now();
                for _ in 0..calls {
                    let c = match kind {
                        0 => (k.mont_mul)(&mut r, &a, &b, &m, minv, &mut scratch),
                        1 => {
                            t.copy_from_slice(&t0);
                            (k.redc_1)(&mut r, &mut t, &m, minv)
                        }
                        2 => {
                            mpn::sqr_basecase(&mut t, &a);
                            (k.redc_1)(&mut r, &mut t, &m, minv)
                        }
                        3 => {
                            (k.mont_mul_below_r)(&mut r, &a, &b, &m, minv, &mut scratch);
                            0
                        }
                        _ => {
                            (k.mont_sqr_below_r)(&mut r, &a, 1, &m, minv, &mut scratch);
                            0
                        }
                    };
                    black_box(c);
                    black_box(&mut r);
                }
                *slot = slot.min(start.elapsed().as_nanos() as f64 / f64::from(calls));
            }
        }
        let row: Vec<String> = variants
            .iter()
            .zip(&best)
            .map(|((label, _, _), ns)| format!("{label} {ns:.1}"))
            .collect();
        println!("n = {n:2}: {}", row.join("  "));
    }
}
