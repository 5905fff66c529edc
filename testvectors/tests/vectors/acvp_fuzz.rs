//! The `acvp` fuzz target's body (`fuzz/src/acvp.rs`, included by path: the excluded `fuzz`
//! crate cannot be a dependency) as an ordinary test: every saved input under
//! `fuzz/regressions/acvp/`, then the shipped vector sets cut and mutated at random places,
//! so that CI smoke-tests the target without cargo-fuzz.

#![allow(clippy::unwrap_used, missing_docs)]

#[path = "../../../fuzz/src/acvp.rs"]
mod fuzz_acvp;

use std::path::Path;

/// A small deterministic generator (xorshift64*): the mutations need no quality.
struct Xs(u64);

impl Xs {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (usize::try_from(self.next() >> 40).unwrap() * n) >> 24
    }
}

#[test]
fn saved_inputs_replay_without_a_bug() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/acvp");
    let mut count = 0;
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries {
            fuzz_acvp::check_acvp(&std::fs::read(e.unwrap().path()).unwrap());
            count += 1;
        }
    }
    eprintln!("{count} saved inputs replayed");
}

#[test]
fn mutated_vector_sets_never_panic() {
    let data = testvectors::data_dir().join("acvp");
    let mut rng = Xs(0x5eed_acb0_0000_0001);
    let mut runs = 0;
    // Small sets only: a mutated primitive set still does its private operations.
    for name in [
        "RSA-SignaturePrimitive-2.0-local",
        "RSA-DecryptionPrimitive-Sp800-56Br2-local",
        "RSA-KeyGen-FIPS186-5",
        "RSA-SignaturePrimitive-1.0-local",
        "RSA-KeyGen-FIPS186-4-KAT-local",
        "RSA-DecryptionPrimitive-1.0-local",
    ] {
        for file in ["prompt.json", "expectedResults.json"] {
            let text = std::fs::read(data.join(name).join(file)).unwrap();
            fuzz_acvp::check_acvp(&text);
            for _ in 0..60 {
                let mut t = text.clone();
                match rng.below(3) {
                    0 => t.truncate(rng.below(t.len())),
                    1 => {
                        let at = rng.below(t.len());
                        t[at] = b"0{}[]\",:9Ae-"[rng.below(12)];
                    }
                    _ => {
                        let (a, b) = (rng.below(t.len()), rng.below(t.len()));
                        let (a, b) = (a.min(b), a.max(b));
                        t.drain(a..b.min(a + 200));
                    }
                }
                fuzz_acvp::check_acvp(&t);
                runs += 1;
            }
        }
    }
    assert_eq!(runs, 720);
}
