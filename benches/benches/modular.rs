//! `bignum::modular` benchmarks: constant-time pow with base, exponent and modulus of one size,
//! and Montgomery multiply vs square. Ids: `modular/pow/<bits>`, `modular/mul/<bits>`,
//! `modular/sqr/<bits>` (the back end is named in the group: `modular/<backend>/...` would
//! change the ids the brief fixes, so it is printed once at start-up instead).

use std::hint::black_box;

use bignum::Limb;
use bignum::modular::Modulus;
use criterion::{Criterion, criterion_group, criterion_main};

/// A modulus of exactly `bits` bits (odd, top bit set) from `benches::limbs`.
fn modulus(seed: u64, bits: usize) -> (Vec<Limb>, Modulus) {
    let n = bits.div_ceil(64);
    let mut m = benches::limbs(seed, n);
    m[0] |= 1;
    let top = bits - 64 * (n - 1);
    m[n - 1] = (m[n - 1] >> (64 - top)) | (1 << (top - 1));
    let ctx = Modulus::new_vartime(&m).expect("odd modulus");
    (m, ctx)
}

fn pow(c: &mut Criterion) {
    eprintln!("bignum back end: {}", bignum::mpn::kernels().name);
    let mut g = c.benchmark_group("modular/pow");
    for bits in [
        128, 192, 256, 320, 384, 448, 512, 768, 1024, 1536, 2048, 3072, 4096,
    ] {
        let (m, ctx) = modulus(bits as u64, bits);
        let n = m.len();
        let base = ctx.reduce(&benches::limbs(1000 + bits as u64, n));
        let mut exp = benches::limbs(2000 + bits as u64, n);
        let top = bits - 64 * (n - 1);
        exp[n - 1] = (exp[n - 1] >> (64 - top)) | (1 << (top - 1));
        g.bench_function(bits.to_string(), |b| {
            b.iter(|| ctx.pow(black_box(&base), black_box(&exp), bits))
        });
    }
    g.finish();
}

fn mul_sqr(c: &mut Criterion) {
    for bits in [1024, 2048] {
        let (m, ctx) = modulus(7 + bits as u64, bits);
        let n = m.len();
        let a = ctx.reduce(&benches::limbs(3000 + bits as u64, n));
        let b = ctx.reduce(&benches::limbs(4000 + bits as u64, n));
        c.bench_function(&format!("modular/mul/{bits}"), |bn| {
            bn.iter(|| ctx.mul(black_box(&a), black_box(&b)))
        });
        c.bench_function(&format!("modular/sqr/{bits}"), |bn| {
            bn.iter(|| ctx.sqr(black_box(&a)))
        });
    }
}

criterion_group!(benches, pow, mul_sqr);
criterion_main!(benches);
