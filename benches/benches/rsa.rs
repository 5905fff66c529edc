//! `rsa` benchmarks: key generation (1024, 2048 bits; few samples), the public operation
//! (e = 65537), and the private operation plain and with the CRT (blinded, fault-checked), at
//! 1024, 2048, 3072 and 4096 bits. Ids: `rsa/keygen/<bits>`, `rsa/public/<bits>`,
//! `rsa/private/<bits>`, `rsa/private_crt/<bits>`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rsa::RsaPrivateKey;

fn keygen(c: &mut Criterion) {
    eprintln!("bignum back end: {}", bignum::mpn::kernels().name);
    let mut g = c.benchmark_group("rsa/keygen");
    g.sample_size(20).measurement_time(Duration::from_secs(10));
    let mut rng = rsa::os_rng();
    for bits in [1024, 2048] {
        g.bench_function(bits.to_string(), |b| {
            b.iter(|| RsaPrivateKey::generate(black_box(bits), &mut rng).expect("keygen"))
        });
    }
    g.finish();
}

fn ops(c: &mut Criterion) {
    let mut rng = rsa::os_rng();
    for bits in [1024, 2048, 3072, 4096] {
        let key = RsaPrivateKey::generate(bits, &mut rng).expect("keygen");
        let k = key.size();
        let mut m = vec![0u8; k];
        let mut x = 7u8;
        for b in m.iter_mut().skip(1) {
            x = x.wrapping_mul(151).wrapping_add(7);
            *b = x;
        }
        let public = key.public_key();
        let s = key.private_op(&mut rng, &m).expect("private op");
        c.bench_function(&format!("rsa/public/{bits}"), |b| {
            b.iter(|| public.public_op(black_box(&s)).expect("public op"))
        });
        c.bench_function(&format!("rsa/private/{bits}"), |b| {
            b.iter(|| key.private_op_plain(black_box(&m)).expect("private op"))
        });
        c.bench_function(&format!("rsa/private_crt/{bits}"), |b| {
            b.iter(|| key.private_op(&mut rng, black_box(&m)).expect("private op"))
        });
    }
}

criterion_group!(benches, keygen, ops);
criterion_main!(benches);
