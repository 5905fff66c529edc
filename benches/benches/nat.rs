//! `Nat` and `mpn` division, and decimal printing.
//!
//! `cargo bench -p benches --bench nat -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use bignum::{Nat, mpn};
use criterion::{Criterion, criterion_group, criterion_main};

/// 2048-bit dividend by 1024-bit divisor (top bits set), through `Nat` and the `mpn` kernel.
fn division(c: &mut Criterion) {
    let a = benches::limbs(1, 32);
    let mut d = benches::limbs(2, 16);
    d[15] |= 1 << 63;
    let (na, nd) = (Nat::from_limbs(&a), Nat::from_limbs(&d));
    c.bench_function("nat/div_rem/2048_by_1024", |b| {
        b.iter(|| black_box(&na).div_rem(black_box(&nd)));
    });
    let mut q = vec![0; 17];
    let mut r = vec![0; 16];
    c.bench_function("mpn/div_qr_vartime/2048_by_1024", |b| {
        b.iter(|| mpn::div_qr_vartime(&mut q, &mut r, black_box(&a), black_box(&d)));
    });
}

/// Decimal printing of a 4096-bit number (1234 digits).
fn printing(c: &mut Criterion) {
    let x = Nat::from_limbs(&benches::limbs(3, 64));
    c.bench_function("nat/to_string/4096", |b| {
        b.iter(|| black_box(&x).to_string())
    });
    c.bench_function("nat/from_str/4096", |b| {
        let s = x.to_string();
        b.iter(|| black_box(&s).parse::<Nat>());
    });
}

/// Variable-time modular exponentiation with a full-size 1024-bit exponent and modulus.
fn pow_mod(c: &mut Criterion) {
    let mut m = benches::limbs(4, 16);
    m[15] |= 1 << 63;
    m[0] |= 1;
    let m = Nat::from_limbs(&m);
    let base = Nat::from_limbs(&benches::limbs(5, 16)) % &m;
    let exp = Nat::from_limbs(&benches::limbs(6, 16));
    c.bench_function("nat/pow_mod/1024", |b| {
        b.iter(|| black_box(&base).pow_mod(black_box(&exp), black_box(&m)))
    });
}

criterion_group!(benches, division, printing, pow_mod);
criterion_main!(benches);
