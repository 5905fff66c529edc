//! Time per variable-time modular inverse x⁻¹ mod n ([`Nat::inv_mod_vartime`], the one the CRT
//! private operation does per call on the blinded r·s) at 1024, 2048 and 4096 bits.
//!
//! ```text
//! cargo run --release -p rsatool-rsa --example inv_bench [-- ROUNDS | profile]
//! ```
//!
//! `crt` times the CRT private operation of a fixed 2048-bit key instead (best of 300 batches:
//! compare two builds). `profile` runs the inverse at 2048 bits for three seconds (for
//! `perf record`).
//!
//! n is a random odd number of the size with its top bit set, and x random below n (32 pairs per
//! size, the same every run). Each round times one pass over the 32 inverses; the best round of
//! ROUNDS (default 200) counts. Each inverse is checked first (x·x⁻¹ ≡ 1).

use rsatool_rsa::hazmat::PrivateOp;
use std::hint::black_box;
use std::time::Instant;

use bignum::Nat;

/// The CRT private operation of a fixed 2048-bit key (`private_op`, whose one inverse is this
/// one): the best of 300 batches of 10, in µs per operation. Compare two builds with it.
fn crt() {
    use rand_chacha::ChaCha20Rng;
    use rand_chacha::rand_core::SeedableRng;
    let mut rng = ChaCha20Rng::seed_from_u64(2048);
    let key = rsatool_rsa::RsaPrivateKey::generate(2048, &mut rng).expect("keygen");
    let mut c = vec![0x5a; key.size()];
    c[0] = 0x01;
    let mut best = f64::INFINITY;
    for _ in 0..300 {
        let t = Instant::now();
        for _ in 0..10 {
            black_box(key.private_op(&mut rng, black_box(&c)).expect("private op"));
        }
        best = best.min(t.elapsed().as_secs_f64() / 10.0);
    }
    println!("private_op 2048: {:.1} µs", best * 1e6);
}

/// 32 pairs (x, n) of `bits` bits: n odd with its top bit set, x below n.
fn pairs(bits: usize) -> Vec<(Nat, Nat)> {
    let l = bits >> 6;
    (0..32u64)
        .map(|i| {
            let mut m = testkit::limbs(bits as u64 * 1000 + i, l);
            m[0] |= 1;
            m[l - 1] |= 1 << 63;
            let n = Nat::from_limbs(&m);
            let x = &Nat::from_limbs(&testkit::limbs(!(bits as u64 * 1000 + i), l)) % &n;
            (x, n)
        })
        .collect()
}

/// Seconds per inverse of one pass of `f` over `pairs`.
fn time(pairs: &[(Nat, Nat)], f: fn(&Nat, &Nat) -> Option<Nat>) -> f64 {
    let t = Instant::now();
    for (x, n) in pairs {
        black_box(f(black_box(x), black_box(n)));
    }
    t.elapsed().as_secs_f64() / pairs.len() as f64
}

fn main() {
    let arg = std::env::args().nth(1);
    if arg.as_deref() == Some("profile") {
        // 2048 bits for a few seconds, for `perf record`.
        let pairs = pairs(2048);
        let t = Instant::now();
        while t.elapsed().as_secs() < 3 {
            time(&pairs, Nat::inv_mod_vartime);
        }
        return;
    }
    if arg.as_deref() == Some("crt") {
        crt();
        return;
    }
    let rounds: usize = arg.and_then(|a| a.parse().ok()).unwrap_or(200);
    println!("| bits | µs per inverse |");
    println!("| ---: | ---: |");
    for bits in [1024usize, 2048, 4096] {
        let pairs = pairs(bits);
        for (x, n) in &pairs {
            if let Some(y) = x.inv_mod_vartime(n) {
                assert!(((x * &y) % n).is_one(), "not an inverse");
            }
        }
        let mut best = f64::INFINITY;
        for _ in 0..rounds {
            best = best.min(time(&pairs, Nat::inv_mod_vartime));
        }
        println!("| {bits} | {:.2} |", best * 1e6);
    }
}
