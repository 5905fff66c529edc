//! Private operations per second: single operations against batches on one thread and on all
//! threads, best of interleaved rounds.
//!
//! `cargo run --release -p rsatool-rsa --example batch_speed [-- BITS...]`

// Public sizes and counts only.
#![allow(clippy::cast_precision_loss)]

use rsatool_rsa::hazmat::{BatchPrivateOp, PrivateOp};
use std::time::Instant;

use rsatool_rsa::{Batch, RsaPrivateKey};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if args.is_empty() {
        vec![2048, 3072, 4096]
    } else {
        args
    };
    let mut rng = rsatool_rsa::os_rng();
    for bits in sizes {
        let key = RsaPrivateKey::generate(bits, &mut rng).expect("key");
        let k = key.size();
        let n = 64;
        let inputs: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                let mut c = vec![0x5a; k];
                c[0] = 0;
                c[k - 1] = u8::try_from(i).unwrap_or(0);
                c
            })
            .collect();
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let all = Batch::new();
        let one = Batch::new().threads(1);
        let (mut single, mut batch1, mut batch_all) = (0f64, 0f64, 0f64);
        for _ in 0..3 {
            let t = Instant::now();
            for c in &refs {
                std::hint::black_box(key.private_op(&mut rng, c).expect("op"));
            }
            single = single.max(n as f64 / t.elapsed().as_secs_f64());
            let t = Instant::now();
            std::hint::black_box(one.private_op(&key, &mut rng, &refs));
            batch1 = batch1.max(n as f64 / t.elapsed().as_secs_f64());
            let t = Instant::now();
            std::hint::black_box(all.private_op(&key, &mut rng, &refs));
            batch_all = batch_all.max(n as f64 / t.elapsed().as_secs_f64());
        }
        println!(
            "RSA-{bits}: single {single:8.0} ops/s | batch, 1 thread {batch1:8.0} ops/s ({:.2}x) | batch, {} threads {batch_all:8.0} ops/s ({:.2}x)",
            batch1 / single,
            all.max_threads(),
            batch_all / single
        );
    }
}
