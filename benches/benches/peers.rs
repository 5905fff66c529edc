//! Our kernels and exponentiation side by side with the peers, in the same criterion groups:
//! ids are `peers/<op>/<impl>/<size>`, where `<impl>` names the implementation and back end
//! (`ours-adx`, `ours-portable`, `ours-ct`, `ours-vartime`, `gmp`, `gmp-sec`, `num-bigint`,
//! `crypto-bigint-boxed`). GMP is the
//! build from `benches/gmp/build-tuned.sh`; its configure host is printed before the run.
//!
//! `cargo bench -p benches --features peers --bench peers -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use benches::{gmp, limbs, powm_operands};
use bignum::{
    modular::Modulus,
    mpn::{self, Kernels},
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Kernel sizes in limbs, as in GMP's `speed` tables.
const KERNEL_SIZES: [usize; 3] = [10, 100, 1000];
/// Operand sizes in bits for multiply, square and exponentiation.
const BITS: [usize; 4] = [512, 1024, 2048, 4096];

/// An odd multiplier with the top bit set, so every product has full-width halves.
const M: u64 = 0xDEAD_BEEF_1234_5677 | 1 << 63;

type OursKernel = fn(&Kernels) -> fn(&mut [u64], &[u64], u64) -> u64;

fn kernel_group(
    c: &mut Criterion,
    name: &str,
    ours: OursKernel,
    peer: fn(&mut [u64], &[u64], u64) -> u64,
) {
    let mut group = c.benchmark_group(format!("peers/{name}"));
    for n in KERNEL_SIZES {
        let a = limbs(1, n);
        let mut r = limbs(3, n);
        group.throughput(Throughput::Elements(n as u64));
        for k in mpn::all_available() {
            let f = ours(k);
            group.bench_function(BenchmarkId::new(format!("ours-{}", k.name), n), |b| {
                b.iter(|| f(black_box(&mut r), black_box(&a), M));
            });
        }
        group.bench_function(BenchmarkId::new("gmp", n), |b| {
            b.iter(|| peer(black_box(&mut r), black_box(&a), M));
        });
    }
    group.finish();
}

fn kernels(c: &mut Criterion) {
    eprintln!(
        "peers: GMP {} configured --host={} ({}); our back ends: {}",
        gmp::version(),
        gmp::configure_host(),
        gmp::build_dir(),
        mpn::all_available()
            .iter()
            .map(|k| k.name)
            .collect::<Vec<_>>()
            .join(", ")
    );
    kernel_group(c, "addmul_1", |k| k.addmul_1, gmp::addmul_1);
    kernel_group(c, "submul_1", |k| k.submul_1, gmp::submul_1);
}

fn mul_sqr(c: &mut Criterion) {
    let ours = format!("ours-{}", mpn::kernels().name);
    let mut group = c.benchmark_group("peers/mul");
    for bits in BITS {
        let n = bits >> 6;
        let (a, b) = (limbs(1, n), limbs(2, n));
        let mut r = vec![0; 2 * n];
        group.bench_function(BenchmarkId::new(&ours, bits), |bench| {
            bench.iter(|| mpn::mul(black_box(&mut r), black_box(&a), black_box(&b)));
        });
        group.bench_function(BenchmarkId::new("gmp", bits), |bench| {
            bench.iter(|| gmp::mul_n(black_box(&mut r), black_box(&a), black_box(&b)));
        });
    }
    group.finish();
    let mut group = c.benchmark_group("peers/sqr");
    for bits in BITS {
        let n = bits >> 6;
        let a = limbs(1, n);
        let mut r = vec![0; 2 * n];
        group.bench_function(BenchmarkId::new(&ours, bits), |bench| {
            bench.iter(|| mpn::sqr(black_box(&mut r), black_box(&a)));
        });
        group.bench_function(BenchmarkId::new("gmp", bits), |bench| {
            bench.iter(|| gmp::sqr(black_box(&mut r), black_box(&a)));
        });
    }
    group.finish();
}

/// A 2n-limb dividend by an n-limb divisor; the id's size is the divisor's bits.
fn div(c: &mut Criterion) {
    let mut group = c.benchmark_group("peers/div");
    for bits in BITS {
        let n = bits >> 6;
        let (a, d) = (limbs(5, 2 * n), limbs(6, n));
        let (mut q, mut r) = (vec![0; n + 1], vec![0; n]);
        group.bench_function(BenchmarkId::new("ours-vartime", bits), |bench| {
            bench.iter(|| {
                mpn::div_qr_vartime(
                    black_box(&mut q),
                    black_box(&mut r),
                    black_box(&a),
                    black_box(&d),
                )
            });
        });
        group.bench_function(BenchmarkId::new("gmp", bits), |bench| {
            bench.iter(|| {
                gmp::tdiv_qr(
                    black_box(&mut q),
                    black_box(&mut r),
                    black_box(&a),
                    black_box(&d),
                )
            });
        });
    }
    group.finish();
}

fn biguint(limbs: &[u64]) -> num_bigint::BigUint {
    num_bigint::BigUint::from_bytes_le(
        &limbs
            .iter()
            .flat_map(|l| l.to_le_bytes())
            .collect::<Vec<_>>(),
    )
}

fn powm(c: &mut Criterion) {
    let mut group = c.benchmark_group("peers/powm");
    group.sample_size(10);
    for bits in BITS {
        let (b, e, m) = powm_operands(bits);
        let ctx = Modulus::new_vartime(&m).expect("odd modulus");
        let base = ctx.reduce(&b);
        group.bench_function(BenchmarkId::new("ours-ct", bits), |bench| {
            bench.iter(|| ctx.pow(black_box(&base), black_box(&e), bits));
        });
        group.bench_function(BenchmarkId::new("ours-vartime", bits), |bench| {
            bench.iter(|| ctx.pow_vartime(black_box(&base), black_box(&e)));
        });
        let (gb, ge, gm) = (
            gmp::Mpz::from_limbs(&b),
            gmp::Mpz::from_limbs(&e),
            gmp::Mpz::from_limbs(&m),
        );
        let mut r = gmp::Mpz::from_limbs(&[]);
        group.bench_function(BenchmarkId::new("gmp-sec", bits), |bench| {
            bench.iter(|| r.powm_sec(black_box(&gb), black_box(&ge), black_box(&gm)));
        });
        group.bench_function(BenchmarkId::new("gmp", bits), |bench| {
            bench.iter(|| r.powm(black_box(&gb), black_box(&ge), black_box(&gm)));
        });
        let (nb, ne, nm) = (biguint(&b), biguint(&e), biguint(&m));
        group.bench_function(BenchmarkId::new("num-bigint", bits), |bench| {
            bench.iter(|| black_box(&nb).modpow(black_box(&ne), black_box(&nm)));
        });
        let (cb, ce) = benches::crypto_bigint_boxed_powm_operands(&b, &e, &m);
        group.bench_function(BenchmarkId::new("crypto-bigint-boxed", bits), |bench| {
            bench.iter(|| black_box(&cb).pow(black_box(&ce)));
        });
    }
    group.finish();
}

criterion_group!(benches, kernels, mul_sqr, div, powm);
criterion_main!(benches);
