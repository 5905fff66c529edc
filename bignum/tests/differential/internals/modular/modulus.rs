//! `bignum::modular::modulus`: its internals.

use bignum::limb::Limb;
use bignum::modular::Residue;
use bignum::modular::modulus::*;
use std::{vec, vec::Vec};
use subtle::Choice;

/// Residues of two moduli of the same limb count are caught in every build, in each kind
/// of operation; a clone of a context keeps its identity.
#[test]
fn mixing_residues_of_two_moduli_is_caught() {
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::string::{String, ToString};
    use subtle::ConstantTimeEq;
    let p = Modulus::new_vartime(&[0xFFFF_FFFF_FFFF_FFC5, 3]).unwrap();
    let q = Modulus::new_vartime(&[0xFFFF_FFFF_FFFF_FFC7, 5]).unwrap();
    let (x, y) = (p.reduce(&[5]), q.reduce(&[7]));
    let caught = |f: &dyn Fn()| {
        let r = catch_unwind(AssertUnwindSafe(f));
        let msg = r.expect_err("mixing was not caught");
        let msg = msg
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| msg.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        assert!(
            msg.contains("another modulus") || msg.contains("different moduli"),
            "{msg}"
        );
    };
    caught(&|| drop(p.mul(&x, &y)));
    caught(&|| drop(p.add(&x, &y)));
    caught(&|| drop(p.sqr(&y)));
    caught(&|| drop(p.retrieve(&y)));
    caught(&|| drop(p.pow(&y, &[3], 2)));
    caught(&|| drop(p.pow_vartime(&y, &[3])));
    caught(&|| drop(p.inv(&y)));
    caught(&|| {
        let _ = p.is_zero(&y);
    });
    caught(&|| {
        let _ = x.ct_eq(&y);
    });
    caught(&|| drop(Residue::conditional_select(&x, &y, Choice::from(1))));
    // Same modulus, separate contexts (same m): a clone shares the identity, a new
    // context does not.
    let p2 = p.clone();
    assert_eq!(&*p2.retrieve(&p2.mul(&x, &x)), &[25, 0]);
    let p3 = Modulus::new_vartime(p.as_limbs()).unwrap();
    caught(&|| drop(p3.retrieve(&x)));
}
use num_bigint::BigUint;
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};

fn big(a: &[Limb]) -> BigUint {
    BigUint::from_bytes_le(&a.iter().flat_map(|l| l.to_le_bytes()).collect::<Vec<u8>>())
}

fn padded(x: &BigUint, n: usize) -> Vec<Limb> {
    let mut v = x.to_u64_digits();
    v.resize(n, 0);
    v
}

/// Moduli of 1 to 24 limbs with the top limb large, half-full or tiny.
fn moduli() -> Vec<Vec<Limb>> {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let mut out = Vec::new();
    for n in 1..=24 {
        for top in [u64::MAX, u64::MAX >> 32, 5] {
            let mut m: Vec<Limb> = (0..n).map(|_| rng.next_u64()).collect();
            m[n - 1] = (m[n - 1] % top).max(1) | if top == u64::MAX { 1 << 63 } else { 0 };
            m[0] |= 1;
            if n == 1 && m[0] < 3 {
                m[0] = 3;
            }
            out.push(m);
        }
    }
    out
}

/// `len` limbs: random (`fill` 0), all ones (1) or zero (2).
fn filled(rng: &mut ChaCha20Rng, len: usize, fill: u8) -> Vec<Limb> {
    (0..len)
        .map(|_| match fill {
            0 => rng.next_u64(),
            1 => u64::MAX,
            _ => 0,
        })
        .collect()
}

/// Each of [`moduli`] as its limb count, context and num-bigint value.
fn contexts() -> Vec<(usize, Modulus, BigUint)> {
    moduli()
        .iter()
        .map(|m| (m.len(), Modulus::new_vartime(m).unwrap(), big(m)))
        .collect()
}

#[test]
fn reduce_matches_num_bigint_at_chunk_boundaries() {
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    for (n, ctx, bm) in contexts() {
        let r = (BigUint::from(1u8) << (64 * n)) % &bm;
        for len in [0, 1, n - 1, n, n + 1, 2 * n, 2 * n + 1, 3 * n + 2] {
            for fill in 0..3 {
                let a = filled(&mut rng, len, fill);
                let want = (big(&a) % &bm) * &r % &bm;
                let got = ctx.reduce(&a);
                assert_eq!(big(got.as_montgomery_limbs()), want, "n {n} len {len}");
            }
        }
    }
}

#[test]
fn mul_retrieve_is_the_plain_product() {
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    for (n, ctx, bm) in contexts() {
        for b_fill in 0..3 {
            let a = filled(&mut rng, n, 0);
            let b = filled(&mut rng, n, b_fill);
            let mut out = vec![0; n];
            ctx.mul_retrieve(&mut out, &ctx.reduce(&a), &b);
            assert_eq!(out, padded(&(big(&a) * big(&b) % &bm), n), "n {n}");
        }
    }
}

#[test]
fn random_residues_are_below_m_and_vary() {
    let mut rng = ChaCha20Rng::seed_from_u64(10);
    for (_, ctx, bm) in contexts() {
        let draws: Vec<BigUint> = (0..16)
            .map(|_| big(ctx.random(&mut rng).as_montgomery_limbs()))
            .collect();
        assert!(draws.iter().all(|d| d < &bm), "a draw not below m");
        // m ≥ 3 has at least 3 residues: 16 equal draws would mean a broken generator
        // (probability at most 3^-15).
        assert!(draws.iter().any(|d| d != &draws[0]), "16 equal draws");
        // Both halves of [0, m) are hit (probability of missing one: 2 · 2^-16 or so).
        let half = &bm >> 1;
        assert!(draws.iter().any(|d| d < &half) && draws.iter().any(|d| d >= &half));
    }
}
