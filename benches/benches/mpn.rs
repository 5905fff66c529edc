//! Criterion benches of the `bignum::mpn` kernels, ids `mpn/<kernel>/<back end>/<size>`.
//!
//! Sizes: limbs for `addmul_1` and for the `*_basecase` / `*_karatsuba` groups (which choose the
//! Karatsuba thresholds in `bignum/src/mpn/tune.rs`); bits for `mul` and `sqr`, as in the MPI
//! library's `mulsqr` tables. `addmul_1` runs on every back end this CPU supports; the others
//! use the back end chosen at run time (`BIGNUM_BACKEND` overrides it), named in the id.
//!
//! `cargo bench -p benches --bench mpn -- --warm-up-time 1 --measurement-time 3 'mpn/(mul|sqr)/'`

use std::hint::black_box;

use bignum::{Limb, mpn};
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

/// Operands of `n` limbs from `seed` and `seed + 1`, and room for their product.
fn operands(seed: u64, n: usize) -> (Vec<Limb>, Vec<Limb>, Vec<Limb>) {
    (
        benches::limbs(seed, n),
        benches::limbs(seed + 1, n),
        vec![0; 2 * n],
    )
}

/// `mpn/{kernel}/{back end}/{size}`: r = a·b by `mul`, on the back end chosen at run time.
fn bench_mul(
    c: &mut Criterion,
    (kernel, size): (&str, usize),
    (r, a, b): (&mut [Limb], &[Limb], &[Limb]),
    mul: impl Fn(&mut [Limb], &[Limb], &[Limb]),
) {
    let id = format!("mpn/{kernel}/{}/{size}", mpn::kernels().name);
    c.bench_function(&id, |bench| {
        bench.iter(|| mul(black_box(&mut *r), black_box(a), black_box(b)));
    });
}

/// `mpn/{kernel}/{back end}/{size}`: r = a² by `sqr`, on the back end chosen at run time.
fn bench_sqr(
    c: &mut Criterion,
    (kernel, size): (&str, usize),
    (r, a): (&mut [Limb], &[Limb]),
    sqr: impl Fn(&mut [Limb], &[Limb]),
) {
    let id = format!("mpn/{kernel}/{}/{size}", mpn::kernels().name);
    c.bench_function(&id, |bench| {
        bench.iter(|| sqr(black_box(&mut *r), black_box(a)));
    });
}

/// `mul` and `sqr` of the same operand size run one after the other, so that the square's gain
/// is measured under the same load.
fn mul_sqr(c: &mut Criterion) {
    for bits in MULSQR_BITS {
        let (a, b, mut r) = operands(4, bits >> 6);
        bench_mul(c, ("mul", bits), (&mut r, &a, &b), mpn::mul);
        bench_sqr(c, ("sqr", bits), (&mut r, &a), mpn::sqr);
    }
}

/// Schoolbook against one Karatsuba step (schoolbook below it) at each size: the crossover is
/// the threshold. The four run interleaved, size by size, so that load on a shared machine
/// drifts less between the two sides of a comparison.
fn thresholds(c: &mut Criterion) {
    for n in TUNE_LIMBS {
        let (a, b, mut r) = operands(6, n);
        bench_mul(c, ("mul_basecase", n), (&mut r, &a, &b), mpn::mul_basecase);
        bench_mul(
            c,
            ("mul_karatsuba", n),
            (&mut r, &a, &b),
            mpn::mul_karatsuba,
        );
        bench_sqr(c, ("sqr_basecase", n), (&mut r, &a), mpn::sqr_basecase);
        bench_sqr(c, ("sqr_karatsuba", n), (&mut r, &a), mpn::sqr_karatsuba);
    }
}

criterion_group!(mpn_benches, addmul_1, mul_sqr, thresholds);
criterion_main!(mpn_benches);
