//! `bignum::modular` against num-bigint: every operation on random and edge inputs, at moduli of
//! 64 to 8192 bits.
// Test code: unwrap on expected values is the assertion; the case-count division and the
// oracle's u64 → usize / limb splits (in `common`) are on public test values.
#![allow(
    clippy::unwrap_used,
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation
)]

use bignum::Limb;
use bignum::modular::{self, Modulus};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use proptest::prelude::*;
use subtle::ConstantTimeEq;

use crate::common::{self, big, config, limbs};

type Secret = zeroize::Zeroizing<Vec<Limb>>;

/// A valid modulus from random limbs: force odd, avoid 1.
fn odd(mut m: Vec<Limb>) -> Vec<Limb> {
    m[0] |= 1;
    if m[0] == 1 && m[1..].iter().all(|&x| x == 0) {
        m[0] = 3;
    }
    m
}

/// A proptest config with `cases()/div` cases (at least 4) for the expensive sizes.
fn scaled(div: u32) -> ProptestConfig {
    ProptestConfig {
        cases: (common::cases() / div).max(4),
        ..config()
    }
}

fn r_mod(n: usize, m: &BigUint) -> BigUint {
    (BigUint::one() << (64 * n)) % m
}

/// Checks every non-exponentiation operation on one modulus and two inputs of any length.
fn check_ops(m: &[Limb], a: &[Limb], b: &[Limb]) {
    let n = m.len();
    let ctx = Modulus::new_vartime(m).unwrap();
    let (bm, ba, bb) = (big(m), big(a), big(b));
    let (am, bmod) = (&ba % &bm, &bb % &bm);
    let ra = ctx.reduce(a);
    let rb = ctx.reduce(b);
    assert_eq!(
        big(ra.as_montgomery_limbs()),
        &am * r_mod(n, &bm) % &bm,
        "Montgomery form"
    );
    assert_eq!(*ctx.retrieve(&ra), limbs(&am, n), "reduce/retrieve");
    assert_eq!(
        *ctx.retrieve(&ctx.mul(&ra, &rb)),
        limbs(&(&am * &bmod % &bm), n),
        "mul"
    );
    assert_eq!(
        *ctx.retrieve(&ctx.sqr(&ra)),
        limbs(&(&am * &am % &bm), n),
        "sqr"
    );
    assert_eq!(
        *ctx.retrieve(&ctx.add(&ra, &rb)),
        limbs(&((&am + &bmod) % &bm), n),
        "add"
    );
    assert_eq!(
        *ctx.retrieve(&ctx.sub(&ra, &rb)),
        limbs(&((&am + &bm - &bmod) % &bm), n),
        "sub"
    );
    assert_eq!(
        *ctx.retrieve(&ctx.neg(&ra)),
        limbs(&((&bm - &am) % &bm), n),
        "neg"
    );
    assert_eq!(bool::from(ra.ct_eq(&rb)), am == bmod, "ct_eq");
    assert_eq!(bool::from(ctx.is_zero(&ra)), am.is_zero(), "is_zero");
    let inv: Option<_> = ctx.inv(&ra).into();
    match am.modinv(&bm) {
        Some(want) => assert_eq!(*ctx.retrieve(&inv.expect("invertible")), limbs(&want, n)),
        None => assert!(inv.is_none(), "non-invertible value got an inverse"),
    }
}

fn check_pow(m: &[Limb], a: &[Limb], e: &[Limb], exp_bits: usize) {
    let n = m.len();
    let ctx = Modulus::new_vartime(m).unwrap();
    let bm = big(m);
    let be = big(e) % (BigUint::one() << exp_bits);
    let want = limbs(&big(a).modpow(&be, &bm), n);
    let base = ctx.reduce(a);
    assert_eq!(
        *ctx.retrieve(&ctx.pow(&base, e, exp_bits)),
        want,
        "pow, {exp_bits} bits"
    );
    assert_eq!(
        *ctx.retrieve(&ctx.pow_vartime(&base, &limbs(&be, e.len()))),
        want,
        "pow_vartime"
    );
}

fn check_integer(a: &[Limb], b: &[Limb]) {
    let (ba, bb) = (big(a), big(b));
    let n = a.len();
    assert_eq!(*modular::gcd(a, b), limbs(&ba.gcd(&bb), n), "gcd");
    assert_eq!(*modular::lcm(a, b), limbs(&ba.lcm(&bb), 2 * n), "lcm");
    let dr: Option<_> = modular::div_rem(a, b).into();
    let r: Option<Secret> = modular::rem(a, b).into();
    if bb.is_zero() {
        assert!(dr.is_none() && r.is_none(), "division by zero gave a value");
    } else {
        let (q, rr) = dr.unwrap();
        assert_eq!(*q, limbs(&(&ba / &bb), n), "quotient");
        assert_eq!(*rr, limbs(&(&ba % &bb), n), "remainder");
        assert_eq!(*r.unwrap(), limbs(&(&ba % &bb), n), "rem");
    }
}

fn check_inv_public(e: Limb, m: &[Limb]) {
    let bm = big(m);
    let got: Option<Secret> = modular::inv_public_mod_secret(e, m).into();
    let want = if e >= 3 && e & 1 == 1 && bm >= BigUint::from(2u8) {
        BigUint::from(e).modinv(&bm)
    } else {
        None
    };
    match want {
        Some(d) => assert_eq!(*got.expect("invertible"), limbs(&d, m.len()), "e⁻¹ mod m"),
        None => assert!(got.is_none(), "non-invertible e got an inverse"),
    }
}

fn limb_vec(n: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vec<Limb>> {
    proptest::collection::vec(any::<Limb>(), n)
}

/// Limbs biased toward the edges: 0, 1, MAX and random.
fn edgy_limb() -> impl Strategy<Value = Limb> {
    prop_oneof![
        Just(0),
        Just(1),
        Just(Limb::MAX),
        Just(1 << 63),
        any::<Limb>()
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn ops_match_num_bigint_small(
        (m, a, b) in (1usize..=8).prop_flat_map(|n| (
            proptest::collection::vec(edgy_limb(), n),
            proptest::collection::vec(edgy_limb(), 0..=3 * n),
            proptest::collection::vec(edgy_limb(), 0..=n),
        ))
    ) {
        check_ops(&odd(m), &a, &b);
    }

    #[test]
    fn pow_matches_num_bigint_small(
        (m, a, e, cut) in (1usize..=8).prop_flat_map(|n| (
            limb_vec(n..=n),
            limb_vec(n..=n),
            limb_vec(0..=n),
            0usize..=64,
        ))
    ) {
        let exp_bits = (64 * e.len()).saturating_sub(cut);
        check_pow(&odd(m), &a, &e, exp_bits);
    }

    #[test]
    fn integer_helpers_match_num_bigint(
        (a, b) in (1usize..=6).prop_flat_map(|n| (
            proptest::collection::vec(edgy_limb(), n),
            proptest::collection::vec(edgy_limb(), n),
        ))
    ) {
        check_integer(&a, &b);
    }

    #[test]
    fn inv_public_mod_secret_matches_num_bigint(
        e in prop_oneof![Just(3 as Limb), Just(65537), Just(17), any::<Limb>()],
        m in (1usize..=8).prop_flat_map(|n| proptest::collection::vec(edgy_limb(), n)),
    ) {
        check_inv_public(e, &m);
    }
}

proptest! {
    #![proptest_config(scaled(100))]

    #[test]
    fn ops_match_num_bigint_large(
        (m, a, b) in (9usize..=64).prop_flat_map(|n| (limb_vec(n..=n), limb_vec(0..=2 * n), limb_vec(n..=n)))
    ) {
        check_ops(&odd(m), &a, &b);
    }

    #[test]
    fn pow_matches_num_bigint_large(
        (m, a, e) in (9usize..=32).prop_flat_map(|n| (limb_vec(n..=n), limb_vec(n..=n), limb_vec(n..=n)))
    ) {
        let bits = 64 * e.len();
        check_pow(&odd(m), &a, &e, bits);
    }

    #[test]
    fn integer_helpers_match_num_bigint_large(
        (a, b) in (7usize..=32).prop_flat_map(|n| (limb_vec(n..=n), limb_vec(n..=n)))
    ) {
        check_integer(&a, &b);
        let mut even = b.clone();
        even[0] &= !1;
        check_inv_public(65537, &even);
    }
}

proptest! {
    #![proptest_config(scaled(2000))]

    #[test]
    fn pow_and_ops_match_num_bigint_at_4096_and_8192_bits(
        (m, a, e) in prop_oneof![Just(64usize), Just(128)].prop_flat_map(|n| (limb_vec(n..=n), limb_vec(n..=n), limb_vec(n..=n)))
    ) {
        let n = m.len();
        let m = odd(m);
        check_ops(&m, &a, &e);
        // A 8192-bit exponent under an 8192-bit modulus is slow in the oracle: cut it to 1024 bits.
        let bits = if n == 64 { 64 * n } else { 1024 };
        check_pow(&m, &a, &e, bits);
    }
}

#[test]
fn edge_moduli_and_values() {
    let moduli: Vec<Vec<Limb>> = vec![
        vec![3],
        vec![5],
        vec![Limb::MAX],
        vec![1 << 63 | 1],
        vec![Limb::MAX, Limb::MAX], // 2^128 - 1
        vec![Limb::MAX; 8],         // 2^512 - 1, top bit set
        vec![1, 0, 0, 1 << 62],     // top bit clear
        vec![3, 0, 0, 0],           // high zero limbs
        vec![0x8000_0000_0000_0001, 0x7FFF_FFFF_FFFF_FFFF],
    ];
    for m in &moduli {
        let n = m.len();
        let bm = big(m);
        let m1 = limbs(&(&bm - 1u8), n);
        let values: Vec<Vec<Limb>> = vec![
            vec![],
            vec![0],
            vec![1],
            m1.clone(),
            m.clone(),
            vec![Limb::MAX; 3 * n],
        ];
        for a in &values {
            for b in &values {
                check_ops(m, a, b);
            }
            for e in [
                vec![],
                vec![0],
                vec![1],
                vec![2],
                m1.clone(),
                vec![Limb::MAX; n],
            ] {
                check_pow(m, a, &e, 64 * e.len());
            }
            if !a.is_empty() {
                check_pow(m, a, &[1], 1);
            }
        }
        let ctx = Modulus::new_vartime(m).unwrap();
        assert_eq!(ctx.bits(), bm.bits() as usize);
        assert_eq!(
            Modulus::from_be_bytes_vartime(&big(m).to_bytes_be())
                .unwrap()
                .bits(),
            ctx.bits()
        );
    }
}

#[test]
fn pow_of_m_minus_1_and_fermat() {
    // 2^127 - 1 is prime: a^(p-1) = 1 for every a ≠ 0, and (p-1)^2 = 1.
    let p = vec![Limb::MAX, Limb::MAX >> 1];
    let ctx = Modulus::new_vartime(&p).unwrap();
    let pm1 = [Limb::MAX - 1, Limb::MAX >> 1];
    for a in [[2, 0], [Limb::MAX, 5], pm1] {
        let r = ctx.pow(&ctx.reduce(&a), &pm1, 127);
        assert_eq!(*ctx.retrieve(&r), vec![1, 0]);
    }
    let x = ctx.reduce(&pm1);
    assert_eq!(*ctx.retrieve(&ctx.sqr(&x)), vec![1, 0]);
}

#[test]
fn invalid_moduli_are_rejected() {
    for m in [vec![], vec![0], vec![1], vec![2], vec![4, 1], vec![1, 0, 0]] {
        assert_eq!(
            Modulus::new_vartime(&m).unwrap_err(),
            bignum::Error::InvalidModulus,
            "{m:?}"
        );
    }
    for m in [vec![0], vec![1], vec![2], vec![4, 1], vec![1, 0, 0]] {
        assert!(bool::from(Modulus::new(&m).is_none()), "{m:?}");
    }
    assert!(bool::from(Modulus::new(&[3, 0]).is_some()));
    assert!(Modulus::from_be_bytes_vartime(&[]).is_err());
    assert!(Modulus::from_be_bytes_vartime(&[0, 1]).is_err());
    assert_eq!(
        Modulus::from_be_bytes_vartime(&[1, 0, 0, 0, 0, 0, 0, 0, 3])
            .unwrap()
            .as_limbs(),
        &[3, 1]
    );
}

#[test]
fn non_invertible_values_have_no_inverse() {
    // m = 3·5·7·2^64 + 105 = 105·(2^64 + 1): multiples of 3, 5, 7 share a factor.
    let m = [105, 105];
    let ctx = Modulus::new_vartime(&m).unwrap();
    for a in [[0, 0], [3, 0], [5, 0], [7, 0], [105, 105], [21, 21]] {
        assert!(bool::from(ctx.inv(&ctx.reduce(&a)).is_none()), "{a:?}");
    }
    assert!(bool::from(ctx.inv(&ctx.reduce(&[2, 0])).is_some()));
    // e sharing a factor with m, even e, e = 1, m < 2.
    for (e, m) in [
        (3, vec![6]),
        (65537, vec![65537 * 2, 0]),
        (4, vec![7]),
        (1, vec![10]),
        (3, vec![1]),
        (3, vec![0]),
    ] {
        assert!(
            bool::from(modular::inv_public_mod_secret(e, &m).is_none()),
            "{e} {m:?}"
        );
    }
}

#[test]
fn debug_prints_no_digits() {
    let ctx = Modulus::new_vartime(&[0xDEAD_BEEF_0000_0007]).unwrap();
    assert_eq!(format!("{ctx:?}"), "Modulus { bits: 64, .. }");
    assert_eq!(format!("{:?}", ctx.reduce(&[12345])), "Residue(..)");
}

#[test]
fn modulus_and_residue_are_send_sync_clone() {
    fn check<T: Send + Sync + Clone + zeroize::ZeroizeOnDrop>() {}
    check::<Modulus>();
    check::<bignum::modular::Residue>();
    // Clones are independent, equal contexts.
    let ctx = Modulus::new_vartime(&[0xFFFF_FFFF_FFFF_FFC5]).unwrap();
    let other = ctx.clone();
    drop(ctx);
    assert_eq!(*other.retrieve(&other.reduce(&[7, 1])), vec![7 + 59]);
}
