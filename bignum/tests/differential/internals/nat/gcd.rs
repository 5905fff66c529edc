//! `bignum::nat::gcd`: its internals.

use bignum::Nat;
use bignum::nat::gcd::*;
use std::vec;

/// Fixed pseudo-random Nat of `limbs` limbs (SplitMix64).
fn nat(seed: u64, limbs: usize) -> Nat {
    Nat::from_limbs(&testkit::limbs(seed, limbs))
}

#[test]
#[allow(clippy::integer_division_remainder_used)] // the oracle: public test values
fn quot_is_integer_division() {
    let mut pairs = vec![
        (0, 1),
        (1, 1),
        (7, 2),
        (u64::MAX, 1),
        (u64::MAX, u64::MAX),
        (9, 3),
    ];
    for seed in 0..5000u64 {
        let n = nat(seed, 1).as_limbs()[0] >> (seed & 63);
        let d = (nat(seed ^ 0x5555, 1).as_limbs()[0] >> (seed.wrapping_mul(7) & 63)).max(1);
        pairs.push((n, d));
        // Quotients 0 to 5 around the subtraction/division boundary.
        let d = d >> 3 | 1;
        for k in 0..6 {
            pairs.push((d.saturating_mul(k), d));
            pairs.push((d.saturating_mul(k).saturating_add(d - 1), d));
        }
    }
    for (n, d) in pairs {
        assert_eq!(quot(n, d), n / d, "{n} / {d}");
    }
}

#[test]
#[allow(clippy::integer_division_remainder_used)] // the oracle: public test values
fn quot_rem_128_is_integer_division() {
    let wide = |seed: u64| {
        let v = nat(seed, 2);
        (u128::from(v.as_limbs()[1]) << 64) | u128::from(v.as_limbs()[0])
    };
    let mut pairs = vec![
        (u128::MAX, 1 << 65),
        (u128::MAX, u128::MAX >> 2),
        (u128::MAX, (u128::MAX >> 2) + 1),
        (u128::MAX, u128::MAX),
        (1 << 96, 1 << 65),
        ((1 << 96) + 5, (1 << 94) + 1),
        (1 << 127, 1 << 127),
        ((1 << 127) + 1, 1 << 127),
        (u128::MAX, (1 << 127) + 1),
        (u128::MAX, (1 << 126) + 1),
        ((1 << 66) - 1, 1 << 65),
        ((1 << 97) + 3, (1 << 65) + 1),
    ];
    for seed in 0..20000u64 {
        // a from 2⁶⁶ to 2¹²⁸, b ≥ 2⁶⁵ below a, quotients from 1 to 2⁶³.
        let a = wide(seed) >> (seed & 63).min(61) | 1 << 127 >> (seed & 63).min(61);
        let b = (wide(!seed) >> (seed.wrapping_mul(7) % 63)).max(1 << 65);
        pairs.push((a, b.min(a)));
        // Around each small multiple, where the estimate is off by one either way.
        let b = (a >> (2 + (seed & 15))).max(1 << 65);
        for k in 1..8u128 {
            if let Some(m) = b.checked_mul(k) {
                pairs.push((m - 1, b));
                pairs.push((m, b));
                pairs.push((m.saturating_add(1), b));
            }
        }
    }
    for (a, b) in pairs {
        if b < 1 << 65 || b > a {
            continue;
        }
        let (q, r) = quot_rem_128(a, b);
        assert_eq!((u128::from(q), r), (a / b, a % b), "{a} / {b}");
    }
}

#[test]
fn inv_mod_vartime_inverts_or_reports_a_common_factor() {
    for seed in 0..2000usize {
        let limbs = 1 + (seed & 31);
        let mut n = nat(seed as u64, limbs);
        n.set_bit(0, true);
        let x = nat(seed as u64 ^ 0xABCD, limbs + (seed & 1)) % &n;
        let g = x.gcd(&n);
        match inv_mod_vartime(&x, &n) {
            Some(y) => {
                assert!(
                    g.is_one(),
                    "an inverse of a non-invertible value: seed {seed} n {n:x} x {x:x} g {g:x} y {y:x}"
                );
                assert!(y < n);
                assert!(((&x * &y) % &n).is_one() || n.is_one(), "seed {seed}");
            }
            None => assert!(!g.is_one() || n.is_one(), "seed {seed}: no inverse found"),
        }
    }
    // Small edge cases: x = 1, x = n − 1, x = 0.
    let n = Nat::from(1_000_003u64);
    assert!(inv_mod_vartime(&Nat::one(), &n).unwrap().is_one());
    let m1 = &n - 1u64;
    assert_eq!(inv_mod_vartime(&m1, &n).unwrap(), m1);
    assert!(inv_mod_vartime(&Nat::ZERO, &n).is_none());
}

use num_bigint::BigUint;
use proptest::prelude::*;

fn big(x: &Nat) -> BigUint {
    BigUint::from_bytes_be(&x.to_be_bytes())
}

/// Ours against num-bigint's `modinv` (which answers Some(0) for n = 1), and a returned
/// inverse is below n and an inverse.
fn agrees_with_num_bigint(x: &Nat, n: &Nat) -> core::result::Result<(), TestCaseError> {
    let want = big(x)
        .modinv(&big(n))
        .map(|v| Nat::from_be_bytes(&v.to_bytes_be()));
    let got = inv_mod_vartime(x, n);
    prop_assert_eq!(&got, &want, "x = {:x}, n = {:x}", x, n);
    if let Some(y) = got {
        prop_assert!(y < *n);
        prop_assert!(((x * &y) % n) == (&Nat::one() % n));
    }
    Ok(())
}

/// n = 0 has no inverses (and must not panic); n = 1 has the inverse 0 of everything.
#[test]
fn inv_mod_vartime_of_moduli_zero_and_one() {
    for x in [Nat::ZERO, Nat::one(), Nat::from(12345u64), nat(1, 3)] {
        assert!(inv_mod_vartime(&x, &Nat::ZERO).is_none());
        assert_eq!(inv_mod_vartime(&x, &Nat::one()), Some(Nat::ZERO));
    }
}

/// Consecutive Fibonacci numbers (every quotient 1: the longest runs, the largest matrix
/// entries for their size) and a modulus one more than a large multiple of x (a quotient
/// of many limbs) at every length up to 64 limbs.
#[test]
#[allow(clippy::integer_division_remainder_used)] // public test values
fn inv_mod_vartime_on_extreme_quotients() {
    let (mut f0, mut f1) = (Nat::one(), Nat::one());
    // Every 61st pair (about one per 42 bits) and the first hundred.
    for i in 0usize.. {
        if f1.as_limbs().len() > 64 {
            break;
        }
        let f2 = &f0 + &f1;
        if i < 100 || i % 61 == 0 {
            agrees_with_num_bigint(&f0, &f1).unwrap();
            agrees_with_num_bigint(&f1, &f2).unwrap();
        }
        (f0, f1) = (f1, f2);
    }
    for limbs in 1..=64usize {
        for xl in [1, limbs.div_ceil(2), limbs] {
            let x = nat(limbs as u64, xl);
            let n = &(&x * &nat(!(limbs as u64), limbs)) + 1u64;
            agrees_with_num_bigint(&x, &n).unwrap();
            agrees_with_num_bigint(&(&n - 2u64), &n).unwrap();
        }
    }
}

/// The shapes a random x rarely takes, for a random n of `limbs` limbs (any parity).
#[allow(clippy::integer_division_remainder_used)] // public test values
fn case(limbs: usize, seed: u64, kind: u8, k: usize) -> (Nat, Nat) {
    let n = nat(seed, limbs);
    let n = if n.is_zero() { Nat::one() } else { n };
    let x = match kind {
        // Random, of n's length or one limb more (x ≥ n reduced first).
        0 => nat(seed ^ 1, limbs + (k & 1)),
        1 => &n - 1u64,
        2 => Nat::one(),
        3 => {
            let mut p = Nat::ZERO;
            p.set_bit(k % (64 * limbs + 64), true);
            p
        }
        // A common factor: n = p·q, x = p·r.
        4 => {
            let p = nat(seed ^ 2, 1 + k % limbs);
            let p = &p + 2u64;
            let n = &p * &nat(seed ^ 3, limbs);
            return (&p * &nat(seed ^ 4, limbs), n);
        }
        5 => [Nat::ZERO, n.clone(), &n + 1u64, &n * &n][k & 3].clone(),
        // Close to n, or short: leading limbs that give no matrix.
        6 => n
            .checked_sub(&nat(seed ^ 5, 1 + k % limbs))
            .unwrap_or_default(),
        7 => nat(seed ^ 6, 1 + k % limbs),
        // All-ones limbs.
        _ => {
            let ones = Nat::from_limbs(&vec![u64::MAX; 1 + k % limbs]);
            return (
                ones.clone(),
                Nat::from_limbs(&vec![u64::MAX; limbs]) - &Nat::from(k as u64 % 7),
            );
        }
    };
    (x, n)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("BIGNUM_TEST_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(4096),
        ..ProptestConfig::default()
    })]

    #[test]
    fn inv_mod_vartime_agrees_with_num_bigint(
        limbs in 1usize..=64,
        seed in any::<u64>(),
        kind in 0u8..9,
        k in any::<usize>(),
    ) {
        let (x, n) = case(limbs, seed, kind, k);
        agrees_with_num_bigint(&x, &n)?;
    }

    /// RSA-like moduli: odd, top bit set, x random below n.
    #[test]
    fn inv_mod_vartime_agrees_with_num_bigint_on_odd_full_moduli(
        limbs in 1usize..=64,
        seed in any::<u64>(),
    ) {
        let mut n = nat(seed, limbs);
        n.set_bit(0, true);
        n.set_bit(64 * limbs - 1, true);
        let x = &nat(!seed, limbs) % &n;
        agrees_with_num_bigint(&x, &n)?;
    }
}
