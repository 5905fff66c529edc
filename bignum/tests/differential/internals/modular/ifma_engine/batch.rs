//! The batch engine against num-bigint and the 64-bit exponentiation (through the model),
//! and the instructions against the model where the CPU has them.

use super::{big, on_the_instructions, padded, pow_job, random_limbs};
use bignum::backend::PowPath;
use bignum::limb::Limb;
use bignum::modular::ifma_engine::batch::{batch_digits, ifma_batch_runs, pow_batch, pow_batch_on};
use bignum::modular::ifma_engine::job::PowJob;
use bignum::modular::{Modulus, Residue};
use num_bigint::BigUint;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::vec::Vec;

/// An odd modulus of exactly `bits` bits: random, or (`kind` 1) 2^(bits−1) + 1, or
/// (`kind` 2) 2^bits − 1.
fn modulus(rng: &mut ChaCha8Rng, bits: usize, kind: usize) -> Vec<Limb> {
    let n = bits.div_ceil(64);
    let top = BigUint::from(1u8) << (bits - 1);
    let m = match kind {
        1 => &top + 1u8,
        2 => (BigUint::from(1u8) << bits) - 1u8,
        _ => (big(&random_limbs(rng, n)) % &top + &top) | BigUint::from(1u8),
    };
    padded(&m, n)
}

/// One test job: modulus, plain base, exponent, exponent bit length.
struct Case {
    m: Vec<Limb>,
    x: Vec<Limb>,
    e: Vec<Limb>,
    eb: usize,
}

/// Lane `k`'s edge case for a modulus m: bases with all-ones digits (lanes of 2^52 − 1,
/// the carry ripple), m − 1, 0, 1 and random; exponents zero, zero bits, all ones, short
/// and random of the modulus's size.
fn case(rng: &mut ChaCha8Rng, m: Vec<Limb>, k: usize) -> Case {
    let n = m.len();
    let bits = big(&m).bits() as usize;
    let bm = big(&m);
    let ones = (BigUint::from(1u8) << (52 * ((64 * n - 2) / 52))) - 1u8;
    let x = match k % 5 {
        0 => ones % &bm,
        1 => &bm - 1u8,
        2 => BigUint::from(0u8),
        3 => BigUint::from(1u8),
        _ => big(&random_limbs(rng, n)) % &bm,
    };
    let (e, eb) = match k % 6 {
        0 => (vec![0; n], bits),
        1 => (vec![u64::MAX; n], bits),
        2 => (vec![0b1011], 4),
        3 => (vec![u64::MAX], 0),
        _ => (random_limbs(rng, n), bits),
    };
    Case {
        m,
        x: padded(&x, n),
        e,
        eb,
    }
}

/// Each case's modulus context, and its base reduced into it.
fn contexts(cases: &[Case]) -> (Vec<Modulus>, Vec<Residue>) {
    let ctxs: Vec<Modulus> = cases
        .iter()
        .map(|c| Modulus::new_vartime(&c.m).unwrap())
        .collect();
    let bases = ctxs
        .iter()
        .zip(cases)
        .map(|(m, c)| m.reduce(&c.x))
        .collect();
    (ctxs, bases)
}

/// The cases as jobs on their [`contexts`].
fn pow_jobs<'a>(ctxs: &'a [Modulus], bases: &'a [Residue], cases: &'a [Case]) -> Vec<PowJob<'a>> {
    (0..cases.len())
        .map(|k| pow_job(&ctxs[k], &bases[k], &cases[k].e, cases[k].eb))
        .collect()
}

/// The cases through `path` as one batch, each against num-bigint and the 64-bit
/// exponentiation (canonical Montgomery limbs).
fn check(path: PowPath, cases: &[Case]) {
    let (ctxs, bases) = contexts(cases);
    let jobs = pow_jobs(&ctxs, &bases, cases);
    let got = pow_batch_on(path, &jobs).expect("one digit count");
    assert_eq!(got.len(), cases.len());
    for (k, c) in cases.iter().enumerate() {
        let be = big(&c.e) % (BigUint::from(1u8) << c.eb);
        let want = padded(&big(&c.x).modpow(&be, &big(&c.m)), c.m.len());
        assert_eq!(*ctxs[k].retrieve(&got[k]), want, "{path:?} lane {k}");
        let limbs = ctxs[k].pow_limbs(&bases[k], &c.e, c.eb);
        assert_eq!(
            got[k].as_montgomery_limbs(),
            limbs.as_montgomery_limbs(),
            "{path:?} lane {k}: not the canonical residue"
        );
    }
}

/// Eight lanes of different moduli (random and extreme) with mixed edge cases.
fn mixed(rng: &mut ChaCha8Rng, bits: usize, jobs: usize) -> Vec<Case> {
    (0..jobs)
        .map(|k| {
            let m = modulus(rng, bits, k % 3);
            case(rng, m, k)
        })
        .collect()
}

#[test]
fn model_batch_lanes_equal_pow_and_num_bigint() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for bits in [3, 64, 520, 1000, 1024, 1536, 2048] {
        check(PowPath::IfmaModel, &mixed(&mut rng, bits, 8));
    }
}

/// The same edge case in every lane but one, so each lane's value meets its neighbours'
/// opposite extreme; and moduli of different bit lengths but one digit count.
#[test]
fn model_batch_edge_lanes_and_mixed_lengths() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for k in 0..6 {
        let mut cases: Vec<Case> = (0..8)
            .map(|_| {
                let m = modulus(&mut rng, 1024, 2);
                case(&mut rng, m, k)
            })
            .collect();
        let m = modulus(&mut rng, 1024, 0);
        cases[k] = case(&mut rng, m, 4);
        check(PowPath::IfmaModel, &cases);
    }
    let cases: Vec<Case> = [1000, 1010, 1024, 1018]
        .iter()
        .enumerate()
        .map(|(k, &bits)| {
            let m = modulus(&mut rng, bits, 0);
            case(&mut rng, m, k + 4)
        })
        .collect();
    check(PowPath::IfmaModel, &cases);
}

#[test]
fn model_partial_and_multi_chunk_batches() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for jobs in [1, 3, 7, 8, 11] {
        check(PowPath::IfmaModel, &mixed(&mut rng, 1024, jobs));
    }
    check(PowPath::IfmaModel, &[]);
}

/// Moduli of different digit counts are refused by the batch, and done one by one by
/// `pow_batch`; the limbs path takes anything.
#[test]
fn different_digit_counts_fall_back() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut cases = mixed(&mut rng, 1024, 2);
    cases.extend(mixed(&mut rng, 2048, 1));
    check(PowPath::Limbs, &cases);
    let (ctxs, bases) = contexts(&cases);
    assert!(ctxs[0].batches_with(&ctxs[1]));
    assert!(!ctxs[0].batches_with(&ctxs[2]));
    let jobs = pow_jobs(&ctxs, &bases, &cases);
    assert!(pow_batch_on(PowPath::IfmaModel, &jobs).is_none());
    let got = pow_batch(&jobs);
    for k in 0..3 {
        let want = ctxs[k].pow_limbs(&bases[k], &cases[k].e, cases[k].eb);
        assert_eq!(got[k].as_montgomery_limbs(), want.as_montgomery_limbs());
    }
}

#[test]
fn digit_counts() {
    assert_eq!(batch_digits(1024), Some(20));
    assert_eq!(batch_digits(1536), Some(30));
    assert_eq!(batch_digits(2048), Some(40));
    assert_eq!(batch_digits(4096), Some(80));
    assert_eq!(batch_digits(3), Some(10));
    assert_eq!(batch_digits(52 * 80 - 1), None);
    assert_eq!(batch_digits(2), None);
}

/// Where the CPU has IFMA: whole batches on the instructions equal the model's bit for
/// bit, and the batch counter proves the instructions ran.
#[test]
fn native_batch_equals_the_model() {
    on_the_instructions(ifma_batch_runs, "batch", |rng| {
        for (bits, jobs) in [
            (520, 8),
            (1024, 8),
            (1024, 5),
            (1536, 8),
            (2048, 8),
            (3072, 3),
            (4096, 8),
        ] {
            let cases = mixed(rng, bits, jobs);
            check(PowPath::Ifma, &cases);
            let (ctxs, bases) = contexts(&cases);
            let jobs = pow_jobs(&ctxs, &bases, &cases);
            let native = pow_batch_on(PowPath::Ifma, &jobs).unwrap();
            let model = pow_batch_on(PowPath::IfmaModel, &jobs).unwrap();
            for (a, b) in native.iter().zip(&model) {
                assert_eq!(
                    a.as_montgomery_limbs(),
                    b.as_montgomery_limbs(),
                    "{bits} bits"
                );
            }
        }
    });
}
