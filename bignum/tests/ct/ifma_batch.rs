//! Constant-time driver for the eight-lane IFMA batch exponentiation, through the model of
//! the instructions (`PowPath::IfmaModel`: the same generic code, control flow and memory
//! accesses as the native path, which valgrind cannot execute).
//!
//! Secret: every lane's modulus, base and exponent. Accepted leaks: the digit count (from the
//! moduli's bit lengths, declassified with the modulus), the job count and the exponents' bit
//! lengths (sizes are public by design).

use bignum::Limb;
use bignum::backend::PowPath;
use bignum::modular::PowJob;
use bignum::modular::tuning::pow_batch_on;
use num_bigint::BigUint;

use super::ct::mark_public;
use super::{big, n_limbs, secret, secret_modulus, want};

/// `jobs` lanes of `n`-limb secret moduli, bases and exponents (random, zero, all ones,
/// m − 1 in turn), through the model's batch, each lane against num-bigint.
fn batch(n: usize, jobs: usize, seed: u64) {
    let ms: Vec<Vec<Limb>> = (0..jobs)
        .map(|k| n_limbs(n, seed + 10 * k as u64, true))
        .collect();
    let xs: Vec<Vec<Limb>> = (0..jobs)
        .map(|k| n_limbs(n, seed + 10 * k as u64 + 1, false))
        .collect();
    let es: Vec<Vec<Limb>> = (0..jobs)
        .map(|k| match k & 3 {
            0 => n_limbs(n, seed + 10 * k as u64 + 2, false),
            1 => vec![0; n],
            2 => vec![Limb::MAX; n],
            _ => want(&(big(&ms[k]) - 1u8), n),
        })
        .collect();
    let ctxs: Vec<_> = ms.iter().map(|m| secret_modulus(m)).collect();
    let bases: Vec<_> = ctxs
        .iter()
        .zip(&xs)
        .map(|(c, x)| c.reduce(&secret(x)))
        .collect();
    let secret_es: Vec<Vec<Limb>> = es.iter().map(|e| secret(e)).collect();
    let pjobs: Vec<PowJob<'_>> = (0..jobs)
        .map(|k| PowJob {
            modulus: &ctxs[k],
            base: &bases[k],
            exp: &secret_es[k],
            exp_bits: 64 * n,
        })
        .collect();
    let got = pow_batch_on(PowPath::IfmaModel, &pjobs).expect("one digit count");
    for k in 0..jobs {
        let r = ctxs[k].retrieve(&got[k]);
        mark_public(&r);
        let expect: BigUint = big(&xs[k]).modpow(&big(&es[k]), &big(&ms[k]));
        assert_eq!(*r, want(&expect, n), "lane {k}");
    }
}

#[test]
fn ifma_batch_with_secret_moduli_bases_and_exponents() {
    // 1024 bits, a full batch of eight; 256 bits, a partial batch of three.
    batch(16, 8, 700);
    batch(4, 3, 800);
}
