//! Random prime generation against OpenSSL's `BN_generate_prime_ex`: medians over many primes,
//! since the time to find a prime varies widely from one prime to the next.
//!
//! Ours: `bignum::prime::random_prime_with` with the top two bits set (as OpenSSL sets them)
//! and the default Miller–Rabin rounds (`prime::rounds_for_bits`: 5 at 1024 bits). OpenSSL 3:
//! `BN_generate_prime_ex` through the `openssl` crate on the system library, with its own
//! defaults (64 Miller–Rabin rounds up to 2048 bits since OpenSSL 3.0). The two are
//! interleaved prime by prime so both see the same load. Every prime is checked by the other
//! library before it counts.

use std::time::Instant;

use bignum::prime::{self, PrimeOptions};
use openssl::bn::{BigNum, BigNumContext};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use serde_json::{Value, json};

/// One size's result.
pub struct Row {
    bits: usize,
    count: usize,
    ours: Vec<f64>,
    openssl: Vec<f64>,
}

/// The median of `v` (the mean of the middle two for an even count); `v` not empty.
pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let mid = s.len() >> 1;
    if s.len() & 1 == 1 {
        s[mid]
    } else {
        (s[mid - 1] + s[mid]) / 2.0
    }
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// Generates `count` primes of each size with each library, interleaved.
///
/// # Panics
///
/// If OpenSSL fails, or either library's prime is found composite by the other.
pub fn run(sizes: &[usize], count: usize) -> Vec<Row> {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let mut ctx = BigNumContext::new().expect("OpenSSL context");
    let opts = PrimeOptions {
        top_two_bits: true,
        ..PrimeOptions::default()
    };
    sizes
        .iter()
        .map(|&bits| {
            eprintln!("compare: primegen {bits} x {count} ...");
            let mut row = Row {
                bits,
                count,
                ours: Vec::new(),
                openssl: Vec::new(),
            };
            let openssl_bits = i32::try_from(bits).expect("prime size fits an int");
            for _ in 0..count {
                let t = Instant::now();
                let p = prime::random_prime_with(bits, &opts, &mut rng);
                row.ours.push(t.elapsed().as_secs_f64());
                let bytes: Vec<u8> = p.iter().rev().flat_map(|l| l.to_be_bytes()).collect();
                let p_ossl = BigNum::from_slice(&bytes).expect("OpenSSL BigNum");
                assert!(
                    p_ossl.is_prime(64, &mut ctx).expect("BN_check_prime"),
                    "OpenSSL says our prime is composite"
                );

                let mut q = BigNum::new().expect("OpenSSL BigNum");
                let t = Instant::now();
                q.generate_prime(openssl_bits, false, None, None)
                    .expect("BN_generate_prime_ex");
                row.openssl.push(t.elapsed().as_secs_f64());
                let limbs = bignum::Nat::from_be_bytes(&q.to_vec());
                assert!(
                    prime::is_probable_prime(limbs.as_limbs()),
                    "we say OpenSSL's prime is composite"
                );
            }
            row
        })
        .collect()
}

/// The Markdown table.
pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::from(
        "**prime generation** (ms per prime, median and mean over the count; ratio = ours / OpenSSL on the medians)\n\n\
         | bits | count | ours median | OpenSSL median | ours mean | OpenSSL mean | ours / OpenSSL |\n\
         | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for r in rows {
        let (om, sm) = (median(&r.ours), median(&r.openssl));
        s.push_str(&format!(
            "| {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | **{:.2}** |\n",
            r.bits,
            r.count,
            om * 1e3,
            sm * 1e3,
            mean(&r.ours) * 1e3,
            mean(&r.openssl) * 1e3,
            om / sm
        ));
    }
    s.push_str(&format!(
        "\nOpenSSL: {} (`BN_generate_prime_ex` through the `openssl` crate); ours: top two bits set, \
         default Miller-Rabin rounds. Each prime of each library is confirmed by the other.\n\n",
        openssl::version::version()
    ));
    s
}

/// The JSON rows.
pub fn json(rows: &[Row]) -> Value {
    Value::Array(
        rows.iter()
            .map(|r| {
                json!({"op": "primegen", "bits": r.bits, "count": r.count,
                    "ours_median_seconds": median(&r.ours), "openssl_median_seconds": median(&r.openssl),
                    "ours_mean_seconds": mean(&r.ours), "openssl_mean_seconds": mean(&r.openssl),
                    "ratio_median": median(&r.ours) / median(&r.openssl)})
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    }
}
