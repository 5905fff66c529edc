//! Differential tests of every public `mpn` function against num-bigint.
//!
//! Each property checks the whole result, carries and borrows included, as an identity over the
//! integers (e.g. r + c·Bⁿ = a + b, B = 2⁶⁴). Inputs lean on the edges: limbs 0, 1, MAX, 2⁶³ and
//! MAX - 1 mixed with random ones, all-zero and all-ones operands (carries that ripple through),
//! top limb forced to 0 or MAX, one-limb multipliers 0, 1, MAX, and lengths up to 128 limbs
//! (8192 bits) with extra weight at and around the Karatsuba thresholds (±2, 2×, 3×).

// Test code: the `/` and `%` here pick lengths and indices, nothing secret.
#![allow(clippy::integer_division_remainder_used)]

use core::cmp::Ordering;

use bignum::{Limb, mpn};
use num_bigint::BigUint;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

use crate::common::{big, config, edge_limb};

const MAX: Limb = Limb::MAX;
const MAX_LIMBS: usize = 128;
/// What r holds before a call that must overwrite all of it.
const GARBAGE: Limb = 0xA5A5_5A5A_DEAD_BEEF;

/// B^n with B = 2⁶⁴.
fn b_pow(n: usize) -> BigUint {
    BigUint::from(1u8) << (64 * n)
}

/// Lengths at and around each Karatsuba threshold: t ± 2, 2t ± 1, 3t ± 1.
fn threshold_lens() -> Vec<usize> {
    let mut v = Vec::new();
    for t in [mpn::KARATSUBA_MUL_THRESHOLD, mpn::KARATSUBA_SQR_THRESHOLD] {
        v.extend(t - 2..=t + 2);
        v.extend(2 * t - 1..=2 * t + 1);
        v.extend(3 * t - 1..=3 * t + 1);
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// A length ≥ `min`: uniform up to 128 limbs, the smallest few, or a threshold neighbour.
fn len(min: usize) -> BoxedStrategy<usize> {
    let near: Vec<usize> = threshold_lens().into_iter().filter(|&l| l >= min).collect();
    prop_oneof![
        4 => min..=MAX_LIMBS,
        2 => min..=min + 4,
        3 => select(near),
    ]
    .boxed()
}

/// A one-limb multiplier or addend: 0, 1, MAX, 2⁶³ or random.
fn small() -> BoxedStrategy<Limb> {
    prop_oneof![
        1 => Just(0),
        1 => Just(1),
        1 => Just(MAX),
        1 => Just(1 << 63),
        3 => any::<Limb>(),
    ]
    .boxed()
}

/// An `n`-limb operand: random, edge mixes, all-zero, all-ones, runs of 0 and MAX, or equal
/// halves (Karatsuba's |a₀ - a₁| = 0); then the top limb forced to 0 or MAX half of the time.
fn operand(n: usize) -> BoxedStrategy<Vec<Limb>> {
    let h = n - n / 2;
    let body = prop_oneof![
        3 => vec(any::<Limb>(), n),
        3 => vec(edge_limb(), n),
        1 => Just(vec![0; n]),
        1 => Just(vec![MAX; n]),
        1 => vec(prop_oneof![Just(0), Just(MAX)], n),
        1 => vec(any::<Limb>(), h).prop_map(move |x| x.iter().chain(&x).copied().take(n).collect()),
    ];
    (body, 0..4u8)
        .prop_map(|(mut v, top)| {
            if let Some(t) = v.last_mut() {
                match top {
                    0 => *t = 0,
                    1 => *t = MAX,
                    _ => {}
                }
            }
            v
        })
        .boxed()
}

/// Two operands of one length ≥ `min`.
fn pair(min: usize) -> BoxedStrategy<(Vec<Limb>, Vec<Limb>)> {
    len(min).prop_flat_map(|n| (operand(n), operand(n))).boxed()
}

/// Operands for `mul`: `a.len() ≥ b.len() ≥ 1`.
fn mul_operands() -> BoxedStrategy<(Vec<Limb>, Vec<Limb>)> {
    (len(1), len(1))
        .prop_flat_map(|(x, y)| (operand(x.max(y)), operand(x.min(y))))
        .boxed()
}

/// Unbalanced operands for Karatsuba's chunked path: b near a threshold, a = k·b + rem.
fn unbalanced_operands() -> BoxedStrategy<(Vec<Limb>, Vec<Limb>)> {
    (select(threshold_lens()), 1..4usize, 0..1000usize)
        .prop_flat_map(|(bn, k, rem)| {
            let an = k * bn + rem % bn;
            (operand(an.max(bn)), operand(bn))
        })
        .boxed()
}

/// A product entry point: r = a·b, r of a.len() + b.len() limbs.
type MulFn = fn(&mut [Limb], &[Limb], &[Limb]);

/// A squaring entry point: r = a², r of 2·a.len() limbs.
type SqrFn = fn(&mut [Limb], &[Limb]);

/// The products that take any a ≥ b ≥ 1 (`mul_with_scratch` with exactly the scratch it asks
/// for).
const PRODUCTS: [(&str, MulFn); 3] = [
    ("mul", mpn::mul),
    ("mul_basecase", mpn::mul_basecase),
    ("mul_with_scratch", |r, a, b| {
        let mut scratch = vec![GARBAGE; mpn::mul_scratch_len(a.len(), b.len())];
        mpn::mul_with_scratch(r, a, b, &mut scratch);
    }),
];

/// The squarings that take any a ≥ 1 (`sqr_with_scratch` with exactly the scratch it asks
/// for).
const SQUARES: [(&str, SqrFn); 3] = [
    ("sqr", mpn::sqr),
    ("sqr_basecase", mpn::sqr_basecase),
    ("sqr_with_scratch", |r, a| {
        let mut scratch = vec![GARBAGE; mpn::sqr_scratch_len(a.len())];
        mpn::sqr_with_scratch(r, a, &mut scratch);
    }),
];

/// `mul`'s product of a and b, written over garbage, against num-bigint.
fn check_mul(name: &str, mul: MulFn, a: &[Limb], b: &[Limb]) -> Result<(), TestCaseError> {
    let mut r = vec![GARBAGE; a.len() + b.len()];
    mul(&mut r, a, b);
    prop_assert_eq!(big(&r), big(a) * big(b), "{}", name);
    Ok(())
}

/// `sqr`'s square of a, written over garbage, against num-bigint.
fn check_sqr(name: &str, sqr: SqrFn, a: &[Limb]) -> Result<(), TestCaseError> {
    let mut r = vec![GARBAGE; 2 * a.len()];
    sqr(&mut r, a);
    prop_assert_eq!(big(&r), big(a) * big(a), "{}", name);
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn add_n_matches_oracle((a, b) in pair(0)) {
        let mut r = vec![GARBAGE; a.len()];
        let c = mpn::add_n(&mut r, &a, &b);
        prop_assert!(c <= 1);
        prop_assert_eq!(big(&r) + BigUint::from(c) * b_pow(a.len()), big(&a) + big(&b));
    }

    #[test]
    fn sub_n_matches_oracle((a, b) in pair(0)) {
        let mut r = vec![GARBAGE; a.len()];
        let c = mpn::sub_n(&mut r, &a, &b);
        prop_assert!(c <= 1);
        prop_assert_eq!(big(&r) + big(&b), big(&a) + BigUint::from(c) * b_pow(a.len()));
    }

    #[test]
    fn add_assign_n_matches_oracle((a, b) in pair(0)) {
        let mut r = a.clone();
        let c = mpn::add_assign_n(&mut r, &b);
        prop_assert!(c <= 1);
        prop_assert_eq!(big(&r) + BigUint::from(c) * b_pow(a.len()), big(&a) + big(&b));
    }

    #[test]
    fn sub_assign_n_matches_oracle((a, b) in pair(0)) {
        let mut r = a.clone();
        let c = mpn::sub_assign_n(&mut r, &b);
        prop_assert!(c <= 1);
        prop_assert_eq!(big(&r) + big(&b), big(&a) + BigUint::from(c) * b_pow(a.len()));
    }

    #[test]
    fn add_1_matches_oracle(a in len(1).prop_flat_map(operand), b in small()) {
        let mut r = vec![GARBAGE; a.len()];
        let c = mpn::add_1(&mut r, &a, b);
        prop_assert!(c <= 1);
        prop_assert_eq!(big(&r) + BigUint::from(c) * b_pow(a.len()), big(&a) + b);
    }

    #[test]
    fn sub_1_matches_oracle(a in len(1).prop_flat_map(operand), b in small()) {
        let mut r = vec![GARBAGE; a.len()];
        let c = mpn::sub_1(&mut r, &a, b);
        prop_assert!(c <= 1);
        prop_assert_eq!(big(&r) + b, big(&a) + BigUint::from(c) * b_pow(a.len()));
    }

    #[test]
    fn add_assign_1_matches_oracle(a in len(1).prop_flat_map(operand), b in small()) {
        let mut r = a.clone();
        let c = mpn::add_assign_1(&mut r, b);
        prop_assert!(c <= 1);
        prop_assert_eq!(big(&r) + BigUint::from(c) * b_pow(a.len()), big(&a) + b);
    }

    #[test]
    fn sub_assign_1_matches_oracle(a in len(1).prop_flat_map(operand), b in small()) {
        let mut r = a.clone();
        let c = mpn::sub_assign_1(&mut r, b);
        prop_assert!(c <= 1);
        prop_assert_eq!(big(&r) + b, big(&a) + BigUint::from(c) * b_pow(a.len()));
    }

    #[test]
    fn mul_1_matches_oracle(a in len(0).prop_flat_map(operand), b in small()) {
        let mut r = vec![GARBAGE; a.len()];
        let hi = mpn::mul_1(&mut r, &a, b);
        prop_assert_eq!(big(&r) + BigUint::from(hi) * b_pow(a.len()), big(&a) * b);
    }

    #[test]
    fn addmul_1_matches_oracle((r0, a) in pair(0), b in small()) {
        let mut r = r0.clone();
        let hi = mpn::addmul_1(&mut r, &a, b);
        prop_assert_eq!(big(&r) + BigUint::from(hi) * b_pow(a.len()), big(&r0) + big(&a) * b);
    }

    #[test]
    fn submul_1_matches_oracle((r0, a) in pair(0), b in small()) {
        let mut r = r0.clone();
        let hi = mpn::submul_1(&mut r, &a, b);
        prop_assert_eq!(big(&r) + big(&a) * b, big(&r0) + BigUint::from(hi) * b_pow(a.len()));
    }

    #[test]
    fn lshift_matches_oracle(a in len(0).prop_flat_map(operand), cnt in 0..64u32) {
        let mut r = vec![GARBAGE; a.len()];
        let out = mpn::lshift(&mut r, &a, cnt);
        prop_assert!(cnt > 0 || out == 0);
        prop_assert_eq!(big(&r) + BigUint::from(out) * b_pow(a.len()), big(&a) << cnt);
    }

    #[test]
    fn lshift_assign_matches_oracle(a in len(0).prop_flat_map(operand), cnt in 0..64u32) {
        let mut r = a.clone();
        let out = mpn::lshift_assign(&mut r, cnt);
        prop_assert!(cnt > 0 || out == 0);
        prop_assert_eq!(big(&r) + BigUint::from(out) * b_pow(a.len()), big(&a) << cnt);
    }

    #[test]
    fn rshift_matches_oracle(a in len(0).prop_flat_map(operand), cnt in 0..64u32) {
        let mut r = vec![GARBAGE; a.len()];
        let out = mpn::rshift(&mut r, &a, cnt);
        // The bits shifted out come back as the high bits of `out`: a·B >> cnt = r·B + out.
        prop_assert_eq!((big(&r) << 64u32) + out, (big(&a) << 64u32) >> cnt);
    }

    #[test]
    fn rshift_assign_matches_oracle(a in len(0).prop_flat_map(operand), cnt in 0..64u32) {
        let mut r = a.clone();
        let out = mpn::rshift_assign(&mut r, cnt);
        prop_assert_eq!((big(&r) << 64u32) + out, (big(&a) << 64u32) >> cnt);
    }

    #[test]
    fn cmp_vartime_matches_oracle((a, b) in pair(0), same in 0..3u8, i in any::<usize>()) {
        // A third of the cases compare a with itself, a third with a copy differing in one limb.
        let b = match (same, a.len()) {
            (0, _) => a.clone(),
            (1, n) if n > 0 => {
                let mut b = a.clone();
                b[i % n] ^= 1 << (i % 64);
                b
            }
            _ => b,
        };
        prop_assert_eq!(mpn::cmp_vartime(&a, &b), big(&a).cmp(&big(&b)));
        prop_assert_eq!(mpn::cmp_vartime(&a, &a), Ordering::Equal);
    }

    #[test]
    fn products_match_oracle((a, b) in mul_operands()) {
        for (name, mul) in PRODUCTS {
            check_mul(name, mul, &a, &b)?;
        }
    }

    #[test]
    fn mul_by_one_limb_matches_oracle(a in len(1).prop_flat_map(operand), b in small()) {
        let mut r = vec![GARBAGE; a.len() + 1];
        mpn::mul(&mut r, &a, &[b]);
        prop_assert_eq!(big(&r), big(&a) * b);
        mpn::mul_basecase(&mut r, &a, &[b]);
        prop_assert_eq!(big(&r), big(&a) * b);
    }

    #[test]
    fn mul_unbalanced_matches_oracle((a, b) in unbalanced_operands()) {
        check_mul("mul", mpn::mul, &a, &b)?;
    }

    #[test]
    fn mul_karatsuba_matches_oracle((a, b) in pair(4)) {
        check_mul("mul_karatsuba", mpn::mul_karatsuba, &a, &b)?;
    }

    #[test]
    fn squares_match_oracle(a in len(1).prop_flat_map(operand)) {
        for (name, sqr) in SQUARES {
            check_sqr(name, sqr, &a)?;
        }
    }

    #[test]
    fn sqr_karatsuba_matches_oracle(a in len(4).prop_flat_map(operand)) {
        check_sqr("sqr_karatsuba", mpn::sqr_karatsuba, &a)?;
    }
}

#[test]
fn known_products() {
    // (2⁶⁴ - 1)² = 2¹²⁸ - 2⁶⁵ + 1.
    let mut r = [0; 2];
    mpn::mul(&mut r, &[MAX], &[MAX]);
    assert_eq!(r, [1, MAX - 1]);
    mpn::sqr(&mut r, &[MAX]);
    assert_eq!(r, [1, MAX - 1]);
    // (2⁶⁴ - 1)·(2⁶⁴ - 1) + (2⁶⁴ - 1) = 2⁶⁴·(2⁶⁴ - 1): addmul_1 carries out MAX.
    let mut r = [MAX];
    assert_eq!(mpn::addmul_1(&mut r, &[MAX], MAX), MAX);
    assert_eq!(r, [0]);
    // 0 - 1·MAX = 1 - 2⁶⁴: r = 1 and one 2⁶⁴ still to subtract.
    let mut r = [0];
    assert_eq!(mpn::submul_1(&mut r, &[1], MAX), 1);
    assert_eq!(r, [1]);
    // 10⁹·10⁹ = 10¹⁸ fits one limb.
    let mut r = [0; 2];
    mpn::mul(&mut r, &[1_000_000_000], &[1_000_000_000]);
    assert_eq!(r, [1_000_000_000_000_000_000, 0]);
}

#[test]
fn karatsuba_sizes_square_all_ones() {
    // (Bⁿ - 1)² = B²ⁿ - 2·Bⁿ + 1 at every length around the thresholds.
    for n in threshold_lens() {
        let mut want = vec![0; 2 * n];
        want[0] = 1;
        want[n] = MAX - 1;
        want[n + 1..].fill(MAX);
        let a = vec![MAX; n];
        let mut r = vec![GARBAGE; 2 * n];
        mpn::mul(&mut r, &a, &a);
        assert_eq!(r, want, "mul n = {n}");
        let mut r = vec![GARBAGE; 2 * n];
        mpn::sqr(&mut r, &a);
        assert_eq!(r, want, "sqr n = {n}");
    }
}
