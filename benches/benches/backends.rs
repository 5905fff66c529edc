//! The `mpn` hot kernels on every back end this CPU runs, side by side: ids are
//! `backends/<kernel>/<backend>/<limbs>`, so one run gives the portable-vs-assembly ratio.
//!
//! `cargo bench -p benches --bench backends -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use benches::limbs;
use bignum::mpn::{self, Kernels};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

const SIZES: [usize; 3] = [10, 100, 1000];

fn kernel_group(c: &mut Criterion, kernel: &str, run: fn(&Kernels, &mut [u64], &[u64], &[u64])) {
    let mut group = c.benchmark_group(format!("backends/{kernel}"));
    for k in mpn::all_available() {
        for n in SIZES {
            let a = limbs(1, n);
            let b = limbs(2, n);
            let mut r = limbs(3, n);
            group.throughput(Throughput::Elements(n as u64));
            group.bench_function(BenchmarkId::new(k.name, n), |bench| {
                bench.iter(|| run(k, black_box(&mut r), black_box(&a), black_box(&b)));
            });
        }
    }
    group.finish();
}

/// An odd multiplier with the top bit set, so every product has full-width halves.
const M: u64 = 0xDEAD_BEEF_1234_5677 | 1 << 63;

fn bench_backends(c: &mut Criterion) {
    kernel_group(c, "addmul_1", |k, r, a, _| {
        black_box((k.addmul_1)(r, a, M));
    });
    kernel_group(c, "submul_1", |k, r, a, _| {
        black_box((k.submul_1)(r, a, M));
    });
    kernel_group(c, "mul_1", |k, r, a, _| {
        black_box((k.mul_1)(r, a, M));
    });
    kernel_group(c, "add_n", |k, r, a, b| {
        black_box((k.add_n)(r, a, b));
    });
    kernel_group(c, "sub_n", |k, r, a, b| {
        black_box((k.sub_n)(r, a, b));
    });
}

criterion_group!(benches, bench_backends);
criterion_main!(benches);
