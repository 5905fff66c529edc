//! The fuzz targets' bodies (`fuzz/src/lib.rs`, included here by path: the excluded `fuzz`
//! crate cannot be a dependency) replayed as an ordinary test: every saved input under
//! `fuzz/regressions/<target>/`, then a few thousand random and mutated inputs per target, so
//! that CI runs a quick smoke test of each target without cargo-fuzz.
// Test code on public test values: `unwrap` is the assertion, `%` picks random lengths.
#![allow(clippy::unwrap_used, clippy::integer_division_remainder_used)]

#[allow(
    dead_code,
    missing_docs,
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation
)]
#[path = "../../../fuzz/src/lib.rs"]
mod fuzz_lib;

use std::path::Path;

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};

type Target = fn(&[u8]);

const TARGETS: [(&str, Target); 4] = [
    ("key_parse", fuzz_lib::check_key_parse),
    ("arith", fuzz_lib::check_arith),
    ("verify", fuzz_lib::check_verify),
    ("decrypt", fuzz_lib::check_decrypt),
];

/// Replays every file in `fuzz/regressions/<target>/`; returns how many.
fn replay(name: &str, target: Target) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/regressions")
        .join(name);
    let mut count = 0;
    // A target without saved inputs has no folder (git keeps no empty folders).
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return 0;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_file() {
            target(&std::fs::read(&path).unwrap());
            count += 1;
        }
    }
    count
}

#[test]
fn saved_regression_inputs_replay_cleanly() {
    for (name, target) in TARGETS {
        let n = replay(name, target);
        println!("{name}: {n} regression inputs");
    }
    // The arithmetic regressions exist (an empty folder would make this test vacuous).
    assert!(replay("arith", fuzz_lib::check_arith) > 0);
}

/// `count` inputs: random bytes of random length up to `max_len`, and as many copies of
/// `seed` with a few random bytes changed, inserted or cut.
fn inputs(seed: &[u8], count: usize, max_len: usize, rng: &mut ChaCha20Rng) -> Vec<Vec<u8>> {
    let mut out = Vec::with_capacity(2 * count);
    for _ in 0..count {
        let len = (rng.next_u32() as usize) % (max_len + 1);
        let mut v = vec![0u8; len];
        rng.fill_bytes(&mut v);
        out.push(v);
        let mut m = seed.to_vec();
        for _ in 0..1 + rng.next_u32() % 4 {
            let at = (rng.next_u32() as usize) % (m.len() + 1);
            match rng.next_u32() % 3 {
                0 if at < m.len() => m[at] ^= 1 << (rng.next_u32() % 8),
                1 => m.insert(at, rng.next_u32().to_le_bytes()[0]),
                _ => m.truncate(at),
            }
        }
        out.push(m);
    }
    out
}

#[test]
fn key_parse_smoke() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let der = rsatool_rsa::decode_private_key(fuzz_lib::KEY_PEM).unwrap();
    let der = rsatool_rsa::encode_private_key(
        &der,
        rsatool_rsa::KeyFormat::Pkcs1,
        rsatool_rsa::Encoding::Der,
    )
    .unwrap();
    for input in inputs(&der, 1000, 600, &mut rng) {
        fuzz_lib::check_key_parse(&input);
    }
    // The valid key itself, in every container (the round trip runs).
    fuzz_lib::check_key_parse(&der);
    fuzz_lib::check_key_parse(fuzz_lib::KEY_PEM);
}

#[test]
fn arith_smoke() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    for op in 0..=255u8 {
        for input in inputs(&[op, 16, 24, 1, 2, 3], 10, 300, &mut rng) {
            let mut input = input;
            if let Some(first) = input.first_mut() {
                *first = op;
            }
            fuzz_lib::check_arith(&input);
        }
    }
}

/// The smoke test of a target whose input starts with a scheme selector and a mask: 300
/// random and 300 mutated copies of `valid` (RNG seeded with `seed`), then the unmodified
/// valid case (mask all zero) of every selector below `selectors`.
fn selector_smoke(target: Target, seed: u64, valid: &[u8], selectors: u8) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for input in inputs(valid, 300, 300, &mut rng) {
        target(&input);
    }
    for sel in 0..selectors {
        target(&[sel, 1]);
    }
}

#[test]
fn verify_smoke() {
    // The unmodified valid signature of every scheme verifies (mask all zero).
    selector_smoke(fuzz_lib::check_verify, 3, &[0, 1, 0, 0, 0, 0], 20);
}

#[test]
fn decrypt_smoke() {
    selector_smoke(fuzz_lib::check_decrypt, 4, &[4, 1, 0, 0, 0, 0], 6);
}
