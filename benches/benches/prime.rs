//! Prime generation: `bignum::prime::random_prime_with` (top two bits set, Miller-Rabin rounds of
//! FIPS 186-5) at the MPI `primegen` sizes and the RSA prime sizes; with `--features peers`,
//! OpenSSL's `BN_generate_prime_ex` in the same group. Ids: `prime/random/<impl>/<bits>`.
//!
//! The time to find a prime varies a lot from one prime to the next (the gap to the next prime
//! is random), so criterion's confidence intervals are wide here; `compare`'s medians over many
//! primes are the figures to quote.

use std::hint::black_box;
use std::time::Duration;

use bignum::prime::{self, PrimeOptions};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn random_prime(c: &mut Criterion) {
    eprintln!("bignum back end: {}", bignum::mpn::kernels().name);
    let mut g = c.benchmark_group("prime/random");
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    let opts = PrimeOptions {
        top_two_bits: true,
        ..PrimeOptions::default()
    };
    let mut rng = rsatool_rsa::os_rng();
    for bits in [256, 512, 1024, 1536, 2048] {
        g.bench_function(BenchmarkId::new("ours", bits), |b| {
            b.iter(|| prime::random_prime_with(black_box(bits), &opts, &mut rng))
        });
        #[cfg(feature = "peers")]
        {
            let ossl_bits = i32::try_from(bits).expect("small");
            g.bench_function(BenchmarkId::new(benches::rsa_peers::OPENSSL, bits), |b| {
                b.iter(|| {
                    let mut p = openssl::bn::BigNum::new().expect("BigNum");
                    p.generate_prime(black_box(ossl_bits), false, None, None)
                        .expect("BN_generate_prime_ex");
                    p
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, random_prime);
criterion_main!(benches);
