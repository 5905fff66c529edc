//! `bignum::modular::pow`: its internals.

use bignum::limb::Limb;
use bignum::modular::Modulus;
use num_bigint::BigUint;
use std::{vec, vec::Vec};

use testkit::limbs;

fn big(a: &[Limb]) -> BigUint {
    BigUint::from_bytes_le(&a.iter().flat_map(|l| l.to_le_bytes()).collect::<Vec<u8>>())
}

fn padded(x: &BigUint, n: usize) -> Vec<Limb> {
    let mut v = x.to_u64_digits();
    v.resize(n, 0);
    v
}

/// The constant-time pow keeps its values below R only: moduli far below R (top limb 1
/// or small) and near R, of the sizes of every kernel family (1 to 33 limbs, multiples of
/// 8 included), bases 0, 1, m − 1 and random, exponents of every window count, against
/// num-bigint; and the result must be a canonical residue (below m).
#[test]
fn pow_is_canonical_for_moduli_far_below_r() {
    for n in (1..=12usize).chain([15, 16, 17, 24, 32, 33]) {
        for variant in 0..3u64 {
            let mut m = limbs(n as u64 * 17 + variant, n);
            match variant {
                0 => m[n - 1] = 1,
                1 => m[n - 1] &= 0xF,
                _ => m[n - 1] |= 1 << 63,
            }
            m[0] |= 1;
            if n == 1 && m[0] < 3 {
                m[0] = 5;
            }
            let ctx = Modulus::new_vartime(&m).unwrap();
            let bm = big(&m);
            let m1 = padded(&(&bm - 1u8), n);
            let mut one = vec![0; n];
            one[0] = 1;
            let bases = [vec![0; n], one, m1.clone(), limbs(n as u64 ^ 0x5EC, n)];
            for x in &bases {
                for (e, bits) in [
                    (m1.clone(), 64 * n),
                    (limbs(99, n), 64 * n),
                    (limbs(7, 1), 5),
                ] {
                    let e = &e[..];
                    let got = ctx.pow(&ctx.reduce(x), e, bits);
                    let be = big(e) % (BigUint::from(1u8) << bits);
                    let want = padded(&big(x).modpow(&be, &bm), n);
                    assert_eq!(*ctx.retrieve(&got), want, "pow n {n} variant {variant}");
                    assert!(big(got.as_montgomery_limbs()) < bm, "not canonical, n {n}");
                }
            }
        }
    }
}

/// Moduli of 1 to 40 limbs (top bits set, clear, or the top limb small), bases of any
/// value below R (also ≥ m, 0 and R − 1), exponents from 0 to beyond 64 bits.
#[test]
fn pow_limbs_vartime_and_pow_vartime_match_num_bigint() {
    let exps: [&[Limb]; 10] = [
        &[0],
        &[1],
        &[2],
        &[3],
        &[65537],
        &[0x8000_0000_0000_0000],
        &[u64::MAX],
        &[5, 1],
        &[0x1234_5678_9ABC_DEF1, 0xFFFF, 7],
        &[0, 0, 0, 1],
    ];
    for n in 1..=40usize {
        for variant in 0..3u64 {
            let mut m = limbs(n as u64 * 31 + variant, n);
            match variant {
                0 => m[n - 1] |= 3 << 62,
                1 => m[n - 1] >>= 1,
                _ => m[n - 1] &= 0xFF,
            }
            m[0] |= 1;
            if n == 1 && m[0] < 3 {
                m[0] = 0xFFFF_FFFF_FFFF_FFC5;
            }
            let ctx = Modulus::new_vartime(&m).unwrap();
            let bm = big(&m);
            let bases = [
                limbs(n as u64 ^ 0xABCD ^ variant, n),
                vec![0; n],
                vec![u64::MAX; n],
                m.clone(),
            ];
            for x in &bases {
                for e in exps {
                    let want = padded(&big(x).modpow(&big(e), &bm), n);
                    let mut out = vec![0; n];
                    ctx.pow_limbs_vartime(&mut out, x, e);
                    assert_eq!(
                        out, want,
                        "pow_limbs_vartime n {n} variant {variant} e {e:?}"
                    );
                    let r = ctx.pow_vartime(&ctx.reduce(x), e);
                    assert_eq!(*ctx.retrieve(&r), want, "pow_vartime n {n} e {e:?}");
                }
            }
        }
    }
}
