//! `bignum::mpn::div`: its internals.

use bignum::limb::{self, Limb, Wide};
use bignum::mpn::div::*;
use bignum::run_counters::Counter;
use std::{vec, vec::Vec};

/// Reference 3-by-2 reciprocal by long division on u128 halves: ⌊(B³ - 1)/D⌋ - B.
fn reciprocal_3by2_reference(d1: Limb, d0: Limb) -> Limb {
    // B³ - 1 = (B - 1)·B² + (B - 1)·B + (B - 1); divide limb by limb with a Wide remainder
    // that stays below D < B², using u128 divisions only on values below 2¹²⁸.
    let d = (Wide::from(d1) << 64) | Wide::from(d0);
    // First step: (B - 1)·B + (B - 1) = B² - 1 over D gives the top digit (0 or 1 since D ≥ B²/2).
    let mut rem = Wide::MAX;
    let q_hi = rem / d;
    rem %= d;
    // Next digit: (rem·B + (B - 1)) / D, with rem < D < B²; do it bit by bit to stay in range.
    let mut q_lo: Limb = 0;
    for _ in 0..64 {
        let top = rem >> 127;
        rem = (rem << 1) | 1;
        q_lo <<= 1;
        if top == 1 || rem >= d {
            rem = rem.wrapping_sub(d);
            q_lo |= 1;
        }
    }
    assert_eq!(q_hi, 1, "quotient lies in [B, 2B)");
    q_lo
}

#[test]
fn reciprocals_match_their_definition() {
    let tops = [
        1 << 63,
        (1 << 63) + 1,
        Limb::MAX,
        Limb::MAX - 1,
        0xC000_0000_0000_0000,
        0x9E37_79B9_7F4A_7C15,
    ];
    let lows = [0, 1, Limb::MAX, 1 << 63, 0x1234_5678_9ABC_DEF0];
    for &d1 in &tops {
        assert_eq!(
            Wide::from(reciprocal_word(d1)) + (1 << 64),
            Wide::MAX / Wide::from(d1)
        );
        for &d0 in &lows {
            assert_eq!(
                reciprocal_3by2(d1, d0),
                reciprocal_3by2_reference(d1, d0),
                "d = {d1:x} {d0:x}"
            );
        }
    }
}

#[test]
fn three_by_two_steps_are_exact() {
    let d1 = 0x8000_0000_0000_0001;
    let d0 = Limb::MAX;
    let v = reciprocal_3by2(d1, d0);
    let d = (Wide::from(d1) << 64) | Wide::from(d0);
    for &(u2, u1, u0) in &[
        (d1 - 1, Limb::MAX, Limb::MAX),
        (0, 0, 5),
        (d1, d0 - 1, Limb::MAX),
        (1, 2, 3),
    ] {
        let (q, r) = div_3by2(u2, u1, u0, d1, d0, v);
        assert!(r < d);
        // Check (u2, u1, u0) = q·d + r in three limbs.
        let (p0, c) = limb::mul_wide(q, d0);
        let (p1, c2) = limb::mac(c, q, d1, 0);
        let (s0, k) = limb::adc(p0, limb::split(r).0, 0);
        let (s1, k) = limb::adc(p1, limb::split(r).1, k);
        let s2 = c2 + k;
        assert_eq!((s2, s1, s0), (u2, u1, u0));
    }
}

/// Checks q·d + r = a and r < d with num-bigint.
fn check(a: &[Limb], d: &[Limb]) {
    use num_bigint::BigUint;
    let big = |x: &[Limb]| {
        BigUint::from_slice(
            &x.iter()
                .flat_map(|&l| [l as u32, (l >> 32) as u32])
                .collect::<Vec<u32>>(),
        )
    };
    let mut q = vec![0; a.len() - d.len() + 1];
    let mut r = vec![0; d.len()];
    div_qr(&mut q, &mut r, a, d);
    assert_eq!(big(&q), big(a) / big(d), "quotient of {a:x?} / {d:x?}");
    assert_eq!(big(&r), big(a) % big(d), "remainder of {a:x?} / {d:x?}");
}

fn add_backs() -> u64 {
    bignum::run_counters::read(Counter::DivAddBacks)
}

#[test]
fn add_back_step_is_reached_and_correct() {
    // d = 2⁶³·B² + (B - 1), a = B³: the 3-by-2 estimate from (1, 0, 0) / (2⁶³, 0) is 2, but
    // the low limb of d makes 2·d > a, so the true quotient limb is 1.
    let before = add_backs();
    check(&[0, 0, 0, 1], &[Limb::MAX, 0, 1 << 63]);
    assert!(add_backs() > before, "add-back step not taken");
    // Same shape, more limbs: low limbs of d all-ones, dividend an exact multiple of d's top.
    for n in 3..8 {
        for &(d1, d0) in &[
            (1 << 63, 0),
            (Limb::MAX, Limb::MAX - 1),
            (0x8000_0000_0000_0001, 7),
        ] {
            let mut d = vec![Limb::MAX; n];
            d[n - 1] = d1;
            d[n - 2] = d0;
            // a = q̂·(d₁, d₀)·B^(n-2)·B with q̂ = B - 3, low limbs zero.
            let mut a = vec![0; n + 1];
            let mut top = [0; 3];
            top[2] = bignum::mpn::mul_1(&mut top[..2], &[d0, d1], Limb::MAX - 2);
            a[n - 2..].copy_from_slice(&top);
            let before = add_backs();
            check(&a, &d);
            assert!(
                add_backs() > before,
                "add-back not taken for n = {n}, d1 = {d1:x}"
            );
        }
    }
}

#[test]
fn top_limbs_equal_to_divisor_take_the_all_ones_quotient_limb() {
    // a = [a0, w, d0, d1] over d = [5, d0, d1] with w < 5: the first step overestimates (add
    // back), the remainder's top limbs then equal (d1, d0), the q̂ = B - 1 branch.
    for &(d1, d0) in &[
        (1 << 63, 0),
        (Limb::MAX, Limb::MAX),
        (0xF000_0000_0000_0000, 1),
    ] {
        for w in 0..5 {
            for a0 in [0, 1, Limb::MAX] {
                let before = bignum::run_counters::read(Counter::DivAllOnesSteps);
                check(&[a0, w, d0, d1], &[5, d0, d1]);
                assert!(bignum::run_counters::read(Counter::DivAllOnesSteps) > before);
            }
        }
    }
}

#[test]
fn small_fixed_cases() {
    check(&[0], &[1]);
    check(&[Limb::MAX], &[1]);
    check(&[Limb::MAX, Limb::MAX], &[Limb::MAX]);
    check(&[0, 1], &[3]);
    check(&[Limb::MAX; 4], &[Limb::MAX; 2]);
    check(&[Limb::MAX; 4], &[1, 1]);
    check(&[1, 2], &[1, 2]);
    check(&[1, 2], &[2, 2]);
    check(&[0, 0, 0, 0, 1], &[0, 0, 1]);
    // 9·B² + 7 with B = 2⁶⁴ ≡ 6 (mod 10): 9·6 + 7 = 61 ≡ 1.
    let mut q = [0; 3];
    assert_eq!(div_1(&mut q, &[7, 0, 9], 10), 1);
}
