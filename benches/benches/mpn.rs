//! Criterion benches of the `bignum::mpn` kernels, ids `mpn/<kernel>/<back end>/<size>`.
//!
//! Sizes: limbs for `addmul_1` and for the `*_basecase` / `*_karatsuba` groups (which choose the
//! Karatsuba thresholds in `bignum/src/mpn/tune.rs`); bits for `mul` and `sqr`, as in the MPI
//! library's `mulsqr` tables. `addmul_1` runs on every back end this CPU supports; the others
//! use the back end chosen at run time (`BIGNUM_BACKEND` overrides it), named in the id.
//!
//! `cargo bench -p benches --bench mpn -- --warm-up-time 1 --measurement-time 3 'mpn/(mul|sqr)/'`

use std::hint::black_box;

use bignum::mpn;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

const ADDMUL_LIMBS: [usize; 5] = [10, 32, 100, 316, 1000];
const MULSQR_BITS: [usize; 7] = [64, 128, 256, 512, 1024, 2048, 4096];
/// Around the Karatsuba thresholds, in limbs.
const TUNE_LIMBS: [usize; 13] = [24, 32, 40, 44, 48, 56, 64, 72, 80, 88, 96, 112, 128];

fn addmul_1(c: &mut Criterion) {
    let mut g = c.benchmark_group("mpn/addmul_1");
    for k in mpn::all_available() {
        for n in ADDMUL_LIMBS {
            let a = benches::limbs(1, n);
            let mut r = benches::limbs(2, n);
            let b = benches::limbs(3, 1)[0];
            g.throughput(Throughput::Elements(n as u64));
            g.bench_with_input(BenchmarkId::new(k.name, n), &n, |bench, _| {
                bench.iter(|| (k.addmul_1)(black_box(&mut r), black_box(&a), black_box(b)));
            });
        }
    }
    g.finish();
}

/// `mul` and `sqr` of the same operand size run one after the other, so that the square's gain
/// is measured under the same load.
fn mul_sqr(c: &mut Criterion) {
    let backend = mpn::kernels().name;
    for bits in MULSQR_BITS {
        let n = bits >> 6;
        let a = benches::limbs(4, n);
        let b = benches::limbs(5, n);
        let mut r = vec![0; 2 * n];
        c.bench_function(&format!("mpn/mul/{backend}/{bits}"), |bench| {
            bench.iter(|| mpn::mul(black_box(&mut r), black_box(&a), black_box(&b)));
        });
        c.bench_function(&format!("mpn/sqr/{backend}/{bits}"), |bench| {
            bench.iter(|| mpn::sqr(black_box(&mut r), black_box(&a)));
        });
    }
}

/// Schoolbook against one Karatsuba step (schoolbook below it) at each size: the crossover is
/// the threshold. The four run interleaved, size by size, so that load on a shared machine
/// drifts less between the two sides of a comparison.
fn thresholds(c: &mut Criterion) {
    let backend = mpn::kernels().name;
    for n in TUNE_LIMBS {
        let a = benches::limbs(6, n);
        let b = benches::limbs(7, n);
        let mut r = vec![0; 2 * n];
        c.bench_function(&format!("mpn/mul_basecase/{backend}/{n}"), |bench| {
            bench.iter(|| mpn::mul_basecase(black_box(&mut r), black_box(&a), black_box(&b)));
        });
        c.bench_function(&format!("mpn/mul_karatsuba/{backend}/{n}"), |bench| {
            bench.iter(|| mpn::mul_karatsuba(black_box(&mut r), black_box(&a), black_box(&b)));
        });
        c.bench_function(&format!("mpn/sqr_basecase/{backend}/{n}"), |bench| {
            bench.iter(|| mpn::sqr_basecase(black_box(&mut r), black_box(&a)));
        });
        c.bench_function(&format!("mpn/sqr_karatsuba/{backend}/{n}"), |bench| {
            bench.iter(|| mpn::sqr_karatsuba(black_box(&mut r), black_box(&a)));
        });
    }
}

criterion_group!(mpn_benches, addmul_1, mul_sqr, thresholds);
criterion_main!(mpn_benches);
