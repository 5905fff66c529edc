//! Our Montgomery-path kernels against the tuned GMP's, interleaved in one process.
//!
//! `cargo run --release -p benches --features peers --bin kernels [ROUNDS [CALLS]]`
//!
//! For n = 8, 16, 24, 32 limbs: `sqr_basecase`, `mul_basecase`, `redc_1`, a Montgomery multiply and a
//! Montgomery square, ours on every back end this CPU runs and GMP's (`mpn_sqr_basecase`,
//! `mpn_redc_1`, `mpn_redc_2`, `mpn_mul_basecase` + `mpn_redc_1`). The variants run in turn,
//! `CALLS` calls per batch, and each keeps its best batch over `ROUNDS` rounds: on a shared,
//! noisy machine the minimum is the figure that repeats. Every result is checked against GMP's
//! before anything is timed. Printed in ns per call, with ours/GMP.

use std::hint::black_box;
use std::time::Instant;

use benches::gmp;
use bignum::{Limb, mpn};

/// A seed per size and operand, for `benches::limbs` (timing does not depend on the values).
fn seed(n: usize, operand: u64) -> u64 {
    (n as u64) << 8 | operand
}

fn arg(i: usize, default: u32) -> u32 {
    std::env::args()
        .nth(i)
        .map_or(default, |s| s.parse().expect("a positive integer"))
}

/// -m⁻¹ mod 2¹²⁸ as two limbs (low first), by Newton's iteration on u128.
#[allow(clippy::cast_possible_truncation)] // splitting a u128 into its two limbs
fn neg_inverse_2(m: &[Limb]) -> [Limb; 2] {
    let m = u128::from(m[0]) | (u128::from(m[1]) << 64);
    let mut x = m; // right to 3 bits; each step doubles
    for _ in 0..7 {
        x = x.wrapping_mul(2u128.wrapping_sub(m.wrapping_mul(x)));
    }
    let x = x.wrapping_neg();
    [x as Limb, (x >> 64) as Limb]
}

/// One timed variant: a name and the closure it runs.
type Variant<'a> = (String, Box<dyn FnMut() + 'a>);

/// Runs the variants interleaved and returns the best ns per call of each.
#[allow(clippy::cast_precision_loss)] // public timings
fn race(variants: &mut [Variant<'_>], rounds: u32, calls: u32) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; variants.len()];
    for _ in 0..rounds {
        for (slot, (_, f)) in best.iter_mut().zip(variants.iter_mut()) {
            let start = Instant::now();
            for _ in 0..calls {
                f();
            }
            *slot = slot.min(start.elapsed().as_nanos() as f64 / f64::from(calls));
        }
    }
    best
}

/// Races the variants and prints their row, `label` first.
fn row(label: &str, mut variants: Vec<Variant<'_>>, rounds: u32, calls: u32) {
    let best = race(&mut variants, rounds, calls);
    // The last variant of each group is GMP's reference.
    let gmp = best[best.len() - 1];
    let cells: Vec<String> = variants
        .iter()
        .zip(&best)
        .map(|((name, _), ns)| format!("{name} {ns:.1} ({:.2})", ns / gmp))
        .collect();
    println!("  {label:<9} {}", cells.join("  "));
}

/// Our `redc_1` on each of `backends`, every call after `fill` writes its 2n-limb t.
fn ours_redc<'a>(
    backends: &[&'static mpn::Kernels],
    n: usize,
    m: &'a [Limb],
    minv: Limb,
    fill: impl Fn(&mut [Limb]) + Copy + 'a,
) -> Vec<Variant<'a>> {
    let mut v: Vec<Variant<'a>> = Vec::new();
    for &k in backends {
        let mut r = vec![0; n];
        let mut t = vec![0; 2 * n];
        v.push((
            format!("ours.{}", k.name),
            Box::new(move || {
                fill(&mut t);
                black_box((k.redc_1)(&mut r, &mut t, m, minv));
            }),
        ));
    }
    v
}

/// GMP's `redc_1`, named `name`, every call after `fill` writes its 2n-limb t.
fn gmp_redc<'a>(
    name: &str,
    n: usize,
    m: &'a [Limb],
    minv: Limb,
    mut fill: impl FnMut(&mut [Limb]) + 'a,
) -> Variant<'a> {
    let mut r = vec![0; n];
    let mut t = vec![0; 2 * n];
    (
        name.into(),
        Box::new(move || {
            fill(&mut t);
            black_box(gmp::redc_1(&mut r, &mut t, m, minv));
        }),
    )
}

#[allow(clippy::too_many_lines)] // one straight measurement script
fn main() {
    let rounds = arg(1, 200);
    let calls = arg(2, 100);
    let backends = mpn::all_available();
    println!(
        "GMP {} ({}); best of {rounds} rounds x {calls} calls, ns per call (ours/GMP)",
        gmp::version(),
        gmp::configure_host()
    );
    for n in [8, 16, 24, 32] {
        let mut m = benches::limbs(seed(n, 1), n);
        m[0] |= 1;
        m[n - 1] |= 1 << 63;
        let minv2 = neg_inverse_2(&m);
        let minv = minv2[0];
        let mut a = benches::limbs(seed(n, 2), n);
        a[n - 1] >>= 1; // a < m
        let b = benches::limbs(seed(n, 3), n);
        let mut t0 = benches::limbs(seed(n, 4), 2 * n);
        t0[2 * n - 1] >>= 1; // t < m·R

        // Cross-check every variant against GMP once.
        let mut want = vec![0; 2 * n];
        gmp::sqr_basecase(&mut want, &a);
        let mut got = vec![0; 2 * n];
        mpn::sqr_basecase(&mut got, &a);
        assert_eq!(got, want, "sqr_basecase n = {n}");
        let mut want_r = vec![0; n];
        let want_c = gmp::redc_1(&mut want_r, &mut t0.clone(), &m, minv);
        let mut r2 = vec![0; n];
        let c2 = gmp::redc_2(&mut r2, &mut t0.clone(), &m, minv2);
        assert_eq!(
            (c2, &r2),
            (want_c, &want_r),
            "GMP redc_2 vs redc_1, n = {n}"
        );
        let mut prod = vec![0; 2 * n];
        gmp::mul_basecase(&mut prod, &a, &b);
        let mut want_mul = vec![0; n];
        let want_mul_c = gmp::redc_1(&mut want_mul, &mut prod, &m, minv);
        for k in &backends {
            let mut r = vec![0; n];
            let c = (k.redc_1)(&mut r, &mut t0.clone(), &m, minv);
            assert_eq!((c, &r), (want_c, &want_r), "redc_1.{} n = {n}", k.name);
            let mut scratch = vec![0; mpn::mont_mul_scratch_len(n)];
            let c = (k.mont_mul)(&mut r, &a, &b, &m, minv, &mut scratch);
            // Both are a·b·R⁻¹ mod m up to one m; compare the values mod m.
            let ours = bignum::Nat::from_limbs(&[r.as_slice(), &[c]].concat());
            let theirs = bignum::Nat::from_limbs(&[want_mul.as_slice(), &[want_mul_c]].concat());
            let modulus = bignum::Nat::from_limbs(&m);
            assert_eq!(
                ours.div_rem(&modulus).1,
                theirs.div_rem(&modulus).1,
                "mont_mul.{} n = {n}",
                k.name
            );
        }

        println!("n = {n}:");
        let (a, b, m, t0) = (&a, &b, &m, &t0);
        // sqr_basecase: ours on the global back end (it has no slot per table), GMP's.
        let mut r = vec![0; 2 * n];
        let mut rg = vec![0; 2 * n];
        let v: Vec<Variant<'_>> = vec![
            (
                format!("ours.{}", mpn::kernels().name),
                Box::new(move || {
                    mpn::sqr_basecase(&mut r, black_box(a));
                    black_box(&mut r);
                }),
            ),
            (
                "gmp".into(),
                Box::new(move || {
                    gmp::sqr_basecase(&mut rg, black_box(a));
                    black_box(&mut rg);
                }),
            ),
        ];
        row("sqr_basecase", v, rounds, calls);

        // mul_basecase: ours (rows of the global back end's addmul_1), GMP's.
        let mut want = vec![0; 2 * n];
        gmp::mul_basecase(&mut want, a, b);
        let mut got = vec![0; 2 * n];
        mpn::mul_basecase(&mut got, a, b);
        assert_eq!(got, want, "mul_basecase n = {n}");
        let v: Vec<Variant<'_>> = vec![
            (
                format!("ours.{}", mpn::kernels().name),
                Box::new(move || {
                    mpn::mul_basecase(&mut got, black_box(a), b);
                    black_box(&mut got);
                }),
            ),
            (
                "gmp".into(),
                Box::new(move || {
                    gmp::mul_basecase(&mut want, black_box(a), b);
                    black_box(&mut want);
                }),
            ),
        ];
        row("mul_basecase", v, rounds, calls);

        // redc_1 (t is copied in every call, in every variant alike).
        let copy_t0 = |t: &mut [Limb]| t.copy_from_slice(t0);
        let mut v = ours_redc(&backends, n, m, minv, copy_t0);
        let mut rr = vec![0; n];
        let mut t2 = vec![0; 2 * n];
        v.push((
            "gmp.redc_2".into(),
            Box::new(move || {
                t2.copy_from_slice(t0);
                black_box(gmp::redc_2(&mut rr, &mut t2, m, minv2));
            }),
        ));
        v.push(gmp_redc("gmp.redc_1", n, m, minv, copy_t0));
        row("redc", v, rounds, calls);

        // Montgomery multiply: our fused kernels against GMP's mul_basecase + redc_1.
        let mut v: Vec<Variant<'_>> = Vec::new();
        for k in &backends {
            let mut r = vec![0; n];
            let mut scratch = vec![0; mpn::mont_mul_scratch_len(n)];
            v.push((
                format!("ours.{}", k.name),
                Box::new(move || {
                    black_box((k.mont_mul)(&mut r, black_box(a), b, m, minv, &mut scratch));
                }),
            ));
        }
        v.push(gmp_redc("gmp", n, m, minv, |t| {
            gmp::mul_basecase(t, black_box(a), b)
        }));
        row("mont_mul", v, rounds, calls);

        // Montgomery square: sqr_basecase + redc_1, ours (redc per back end) and GMP's.
        let mut v = ours_redc(&backends, n, m, minv, |t| {
            mpn::sqr_basecase(t, black_box(a))
        });
        v.push(gmp_redc("gmp", n, m, minv, |t| {
            gmp::sqr_basecase(t, black_box(a))
        }));
        row("mont_sqr", v, rounds, calls);
    }
}
