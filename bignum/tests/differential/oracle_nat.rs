//! `Nat` against num-bigint: every operator (owned, borrowed, `u64` and `op=` forms), byte and
//! limb conversions, parsing and printing, shifts, bit operations, gcd, pow_mod, sqrt and the
//! random constructors.

// num-bigint reports sizes as u64; converting them to usize on this 64-bit test host is exact.
#![allow(clippy::cast_possible_truncation)]

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use bignum::{Error, Limb, Nat};
use num_bigint::BigUint;
use num_integer::Integer;
use proptest::collection::vec;
use proptest::prelude::*;
use testkit::SplitMix64;

use crate::common::{big, config, edge_limb};

/// Limbs of length 0..=max (max ≤ 128: 8192 bits), biased to small sizes and whole-vector
/// patterns: all zeros, all ones (carries that ripple the whole length), one repeated limb.
fn limb_vec(max: usize) -> impl Strategy<Value = Vec<Limb>> {
    prop_oneof![
        3 => vec(edge_limb(), 0..=max.min(4)),
        4 => vec(edge_limb(), 0..=max),
        1 => (0..=max, edge_limb()).prop_map(|(n, x)| vec![x; n]),
        1 => (1..=max.max(1), 0..64u32).prop_map(|(n, k)| {
            // 2^(64(n-1)+k) - 1 and 2^(64(n-1)+k): the edges of a bit length.
            let mut v = vec![Limb::MAX; n];
            v[n - 1] = (1 << k) - 1;
            v
        }),
    ]
}

/// A `Nat` of up to `max` limbs (high zero limbs in the input are dropped by `from_limbs`).
fn nat(max: usize) -> impl Strategy<Value = Nat> {
    limb_vec(max).prop_map(|v| Nat::from_limbs(&v))
}

/// A positive `Nat` (a divisor), top limb with or without its top bit.
fn positive(max: usize) -> impl Strategy<Value = Nat> {
    (limb_vec(max), 0..64u32).prop_map(|(mut v, shift)| {
        if v.last().is_none_or(|&t| t == 0) {
            v.push(1);
        }
        let top = v.last_mut().expect("non-empty");
        *top = (*top >> (shift & 0x38)).max(1);
        Nat::from_limbs(&v)
    })
}

fn b(x: &Nat) -> BigUint {
    big(x.as_limbs())
}

fn hash(x: &Nat) -> u64 {
    let mut h = DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn add_sub_mul_match_num_bigint(x in nat(128), y in nat(128)) {
        let (bx, by) = (b(&x), b(&y));
        let sum = &bx + &by;
        prop_assert_eq!(b(&(&x + &y)), sum.clone());
        prop_assert_eq!(b(&(x.clone() + &y)), sum.clone());
        prop_assert_eq!(b(&(&x + y.clone())), sum.clone());
        prop_assert_eq!(b(&(x.clone() + y.clone())), sum.clone());
        let mut acc = x.clone();
        acc += &y;
        prop_assert_eq!(b(&acc), sum.clone());
        acc = x.clone();
        acc += y.clone();
        prop_assert_eq!(b(&acc), sum.clone());

        // Subtract the smaller from the larger every way; checked_sub gives None the other way.
        let (hi, lo) = if x >= y { (&x, &y) } else { (&y, &x) };
        let diff = b(hi) - b(lo);
        prop_assert_eq!(b(&(hi - lo)), diff.clone());
        prop_assert_eq!(b(&(hi.clone() - lo)), diff.clone());
        prop_assert_eq!(b(&(hi - lo.clone())), diff.clone());
        prop_assert_eq!(b(&(hi.clone() - lo.clone())), diff.clone());
        let mut acc = hi.clone();
        acc -= lo;
        prop_assert_eq!(b(&acc), diff.clone());
        acc = hi.clone();
        acc -= lo.clone();
        prop_assert_eq!(b(&acc), diff.clone());
        prop_assert_eq!(hi.checked_sub(lo).map(|d| b(&d)), Some(diff));
        prop_assert_eq!(lo.checked_sub(hi).is_some(), hi == lo);

        let prod = &bx * &by;
        prop_assert_eq!(b(&(&x * &y)), prod.clone());
        prop_assert_eq!(b(&(x.clone() * &y)), prod.clone());
        prop_assert_eq!(b(&(&x * y.clone())), prod.clone());
        prop_assert_eq!(b(&(x.clone() * y.clone())), prod.clone());
        let mut acc = x.clone();
        acc *= &y;
        prop_assert_eq!(b(&acc), prod.clone());
        acc = x.clone();
        acc *= y.clone();
        prop_assert_eq!(b(&acc), prod);
        prop_assert_eq!(b(&(&x * &x)), &bx * &bx);
        prop_assert_eq!(b(&x.square()), &bx * &bx);
    }

    #[test]
    fn div_rem_match_num_bigint(
        x in nat(128),
        d in prop_oneof![positive(1), positive(4), positive(128)],
        relation in 0u8..4,
    ) {
        // Sometimes make the dividend equal to, just below, or a multiple of the divisor.
        let x = match relation {
            1 => d.clone(),
            2 => &d - 1u64,
            3 => &d * &x + &x.checked_rem(&d).expect("d > 0"),
            _ => x,
        };
        let (bx, bd) = (b(&x), b(&d));
        let (q, r) = (&bx / &bd, &bx % &bd);
        prop_assert_eq!(b(&(&x / &d)), q.clone());
        prop_assert_eq!(b(&(x.clone() / &d)), q.clone());
        prop_assert_eq!(b(&(&x / d.clone())), q.clone());
        prop_assert_eq!(b(&(x.clone() / d.clone())), q.clone());
        prop_assert_eq!(b(&(&x % &d)), r.clone());
        prop_assert_eq!(b(&(x.clone() % &d)), r.clone());
        prop_assert_eq!(b(&(&x % d.clone())), r.clone());
        prop_assert_eq!(b(&(x.clone() % d.clone())), r.clone());
        let mut acc = x.clone();
        acc /= &d;
        prop_assert_eq!(b(&acc), q.clone());
        acc = x.clone();
        acc /= d.clone();
        prop_assert_eq!(b(&acc), q.clone());
        acc = x.clone();
        acc %= &d;
        prop_assert_eq!(b(&acc), r.clone());
        acc = x.clone();
        acc %= d.clone();
        prop_assert_eq!(b(&acc), r.clone());
        let (nq, nr) = x.div_rem(&d);
        prop_assert_eq!((b(&nq), b(&nr)), (q.clone(), r.clone()));
        prop_assert_eq!(x.checked_div(&d).map(|v| b(&v)), Some(q));
        prop_assert_eq!(x.checked_rem(&d).map(|v| b(&v)), Some(r));
        prop_assert!(x.checked_div(&Nat::ZERO).is_none());
        prop_assert!(x.checked_rem(&Nat::ZERO).is_none());
        prop_assert!(x.checked_div_rem(&Nat::ZERO).is_none());
    }

    #[test]
    fn u64_operands_match_num_bigint(x in nat(128), y in edge_limb()) {
        let (bx, by) = (b(&x), BigUint::from(y));
        prop_assert_eq!(b(&(&x + y)), &bx + &by);
        prop_assert_eq!(b(&(x.clone() + y)), &bx + &by);
        prop_assert_eq!(b(&(&x * y)), &bx * &by);
        prop_assert_eq!(b(&(x.clone() * y)), &bx * &by);
        let mut acc = x.clone();
        acc += y;
        prop_assert_eq!(b(&acc), &bx + &by);
        acc = x.clone();
        acc *= y;
        prop_assert_eq!(b(&acc), &bx * &by);
        if bx >= by {
            prop_assert_eq!(b(&(&x - y)), &bx - &by);
            prop_assert_eq!(b(&(x.clone() - y)), &bx - &by);
            acc = x.clone();
            acc -= y;
            prop_assert_eq!(b(&acc), &bx - &by);
        }
        if y != 0 {
            prop_assert_eq!(b(&(&x / y)), &bx / &by);
            prop_assert_eq!(b(&(x.clone() / y)), &bx / &by);
            prop_assert_eq!(b(&(&x % y)), &bx % &by);
            prop_assert_eq!(b(&(x.clone() % y)), &bx % &by);
            acc = x.clone();
            acc /= y;
            prop_assert_eq!(b(&acc), &bx / &by);
            acc = x.clone();
            acc %= y;
            prop_assert_eq!(b(&acc), &bx % &by);
            let (q, r) = x.div_rem_u64(y);
            prop_assert_eq!((b(&q), BigUint::from(r)), (&bx / &by, &bx % &by));
        }
        prop_assert_eq!(x.to_u64(), u64::try_from(&bx).ok());
    }

    #[test]
    fn shifts_match_num_bigint(x in nat(128), n in prop_oneof![0usize..=600, Just(0), Just(64), Just(128)]) {
        let bx = b(&x);
        prop_assert_eq!(b(&(&x << n)), &bx << n);
        prop_assert_eq!(b(&(x.clone() << n)), &bx << n);
        prop_assert_eq!(b(&(&x >> n)), &bx >> n);
        prop_assert_eq!(b(&(x.clone() >> n)), &bx >> n);
        let mut acc = x.clone();
        acc <<= n;
        prop_assert_eq!(b(&acc), &bx << n);
        acc >>= n;
        prop_assert_eq!(&acc, &x);
        acc >>= n;
        prop_assert_eq!(b(&acc), &bx >> n);
    }

    #[test]
    fn comparison_equality_and_hash_match_num_bigint(x in nat(128), y in nat(128), pad in 0usize..3) {
        prop_assert_eq!(x.cmp(&y), b(&x).cmp(&b(&y)));
        prop_assert_eq!(x.partial_cmp(&y), b(&x).partial_cmp(&b(&y)));
        prop_assert_eq!(x == y, b(&x) == b(&y));
        // The same value from padded limbs is equal and hashes equal.
        let mut padded = x.as_limbs().to_vec();
        padded.resize(padded.len() + pad, 0);
        let x2 = Nat::from_limbs(&padded);
        prop_assert_eq!(&x2, &x);
        prop_assert_eq!(hash(&x2), hash(&x));
    }

    #[test]
    fn bit_queries_match_num_bigint(x in nat(128), i in 0usize..8300, value in any::<bool>()) {
        let bx = b(&x);
        prop_assert_eq!(x.bits() as u64, bx.bits());
        prop_assert_eq!(x.byte_len(), bx.bits().div_ceil(8) as usize);
        prop_assert_eq!(x.is_zero(), bx == BigUint::ZERO);
        prop_assert_eq!(x.is_one(), bx == BigUint::from(1u8));
        prop_assert_eq!(x.is_odd(), bx.bit(0));
        prop_assert_eq!(x.is_even(), !bx.bit(0));
        prop_assert_eq!(x.bit(i), bx.bit(i as u64));
        prop_assert_eq!(x.trailing_zeros().map(|t| t as u64), bx.trailing_zeros());
        let mut y = x.clone();
        y.set_bit(i, value);
        let mut by = bx.clone();
        by.set_bit(i as u64, value);
        prop_assert_eq!(b(&y), by.clone());
        // Normalised after clearing the top bit: equal to the value built from scratch.
        prop_assert_eq!(y, Nat::from_limbs(&by.to_u64_digits()));
    }

    #[test]
    fn byte_conversions_match_num_bigint(bytes in vec(any::<u8>(), 0..1100), lead in 0usize..12, extra in 0usize..10) {
        // Leading zero bytes (big-endian) must be ignored.
        let mut be = vec![0; lead];
        be.extend_from_slice(&bytes);
        let x = Nat::from_be_bytes(&be);
        let bx = BigUint::from_bytes_be(&be);
        prop_assert_eq!(b(&x), bx.clone());
        let mut le = be.clone();
        le.reverse();
        prop_assert_eq!(&Nat::from_le_bytes(&le), &x);
        // Shortest encodings: num-bigint writes [0] for zero, we write nothing.
        let oracle_be = if bx == BigUint::ZERO { vec![] } else { bx.to_bytes_be() };
        let oracle_le = if bx == BigUint::ZERO { vec![] } else { bx.to_bytes_le() };
        prop_assert_eq!(x.to_be_bytes(), oracle_be.clone());
        prop_assert_eq!(x.to_le_bytes(), oracle_le.clone());
        // Padded encodings: exact length when it fits, None when it does not.
        let len = oracle_be.len() + extra;
        let mut want = vec![0; extra];
        want.extend_from_slice(&oracle_be);
        prop_assert_eq!(x.to_be_bytes_padded(len), Some(want));
        let mut want_le = oracle_le.clone();
        want_le.resize(len, 0);
        prop_assert_eq!(x.to_le_bytes_padded(len), Some(want_le));
        if !oracle_be.is_empty() {
            prop_assert_eq!(x.to_be_bytes_padded(oracle_be.len() - 1), None);
            prop_assert_eq!(x.to_le_bytes_padded(oracle_be.len() - 1), None);
        }
    }

    #[test]
    fn limb_conversions_round_trip(v in limb_vec(128), extra in 0usize..4) {
        let x = Nat::from_limbs(&v);
        prop_assert_eq!(b(&x), big(&v));
        let n = bignum::mpn::normalized_len_vartime(&v);
        prop_assert_eq!(x.as_limbs(), &v[..n]);
        prop_assert_eq!(Nat::from(&v[..]), x.clone());
        let mut padded = v[..n].to_vec();
        padded.resize(n + extra, 0);
        prop_assert_eq!(x.to_limbs_padded(n + extra), Some(padded));
        if n > 0 {
            prop_assert_eq!(x.to_limbs_padded(n - 1), None);
        }
        prop_assert_eq!(x.clone().into_limbs(), v[..n].to_vec());
    }

    #[test]
    fn print_and_parse_match_num_bigint(x in nat(128), zeros in 0usize..3, upper_prefix in any::<bool>()) {
        let bx = b(&x);
        let dec = bx.to_str_radix(10);
        let hex = bx.to_str_radix(16);
        prop_assert_eq!(x.to_string(), dec.clone());
        prop_assert_eq!(format!("{x:x}"), hex.clone());
        prop_assert_eq!(format!("{x:X}"), hex.to_uppercase());
        prop_assert_eq!(format!("{x:#x}"), format!("0x{hex}"));
        prop_assert_eq!(format!("{x:?}"), format!("Nat(0x{hex})"));
        let pad = "0".repeat(zeros);
        prop_assert_eq!(format!("{pad}{dec}").parse::<Nat>(), Ok(x.clone()));
        let prefix = if upper_prefix { "0X" } else { "0x" };
        prop_assert_eq!(format!("{prefix}{pad}{hex}").parse::<Nat>(), Ok(x.clone()));
        prop_assert_eq!(format!("0x{pad}{}", hex.to_uppercase()).parse::<Nat>(), Ok(x.clone()));
    }

    #[test]
    fn parser_never_panics_and_agrees_with_num_bigint(
        s in prop_oneof![any::<String>(), "[0-9a-fA-FxX_ +-]{0,45}", "0[xX][0-9a-fA-F]{0,40}", "[0-9]{0,60}"],
    ) {
        match s.parse::<Nat>() {
            Ok(x) => {
                // Accepted: digits only (no sign, no separator), as num-bigint reads them.
                prop_assert!(!s.contains(['_', '+', '-', ' ']));
                let want = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                    Some(h) => BigUint::parse_bytes(h.as_bytes(), 16),
                    None => BigUint::parse_bytes(s.as_bytes(), 10),
                };
                prop_assert_eq!(Some(b(&x)), want);
            }
            Err(Error::ParseEmpty) => prop_assert!(s.is_empty() || s == "0x" || s == "0X"),
            Err(Error::ParseInvalidDigit { position }) => {
                prop_assert!(position < s.len());
                let c = s.as_bytes()[position];
                prop_assert!(!c.is_ascii_hexdigit() || (!s.starts_with("0x") && !s.starts_with("0X") && !c.is_ascii_digit()));
            }
            Err(e) => prop_assert!(false, "unexpected error {e:?}"),
        }
    }

    #[test]
    fn gcd_matches_num_bigint(x in nat(64), y in nat(64), common_factor in nat(8)) {
        // Multiply both by a shared factor so the gcd is often large, not just 1.
        let (x, y) = (&x * &common_factor, &y * &common_factor);
        let want = b(&x).gcd(&b(&y));
        prop_assert_eq!(b(&x.gcd(&y)), want.clone());
        prop_assert_eq!(b(&y.gcd(&x)), want);
    }

    #[test]
    fn pow_mod_matches_num_bigint(
        base in nat(10),
        exp in nat(4),
        m in prop_oneof![Just(Nat::one()), positive(1), positive(8)],
    ) {
        let want = b(&base).modpow(&b(&exp), &b(&m));
        prop_assert_eq!(b(&base.pow_mod(&exp, &m)), want);
    }

    #[test]
    fn sqrt_matches_num_bigint(x in nat(128)) {
        prop_assert_eq!(b(&x.sqrt()), b(&x).sqrt());
    }

    #[test]
    fn random_below_stays_below_and_hits_both_halves(bound in positive(128), seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let half = &bound >> 1;
        let (mut low, mut high) = (false, false);
        for _ in 0..64 {
            let x = Nat::random_below(&bound, &mut rng);
            prop_assert!(x < bound);
            low |= x < half;
            high |= x >= half;
        }
        // With bound ≥ 2 each half has probability ≥ 1/3 per draw: missing one in 64 draws has
        // probability below 2·(2/3)⁶⁴ ≈ 10⁻¹¹.
        prop_assert!(high);
        prop_assert!(low || bound.is_one());
    }

    #[test]
    fn random_bits_has_exactly_that_many_bits(bits in prop_oneof![0usize..=8192, 0usize..=130], seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let x = Nat::random_bits(bits, &mut rng);
        prop_assert_eq!(x.bits(), bits);
    }
}

#[test]
fn pow_mod_with_large_operands_matches_num_bigint() {
    // 2048-bit modulus and exponent: fewer cases, these take milliseconds each.
    let mut rng = SplitMix64::new(7);
    for &bits in &[65, 1000, 2048] {
        for k in 0..6 {
            // Odd moduli take the Montgomery path, even ones the division path: try both.
            let mut m = Nat::random_bits(bits, &mut rng);
            m.set_bit(0, k & 1 == 0);
            let base = Nat::random_bits(bits + 10, &mut rng);
            let exp = Nat::random_bits(bits, &mut rng);
            let want = b(&base).modpow(&b(&exp), &b(&m));
            assert_eq!(b(&base.pow_mod(&exp, &m)), want, "{bits} bits");
        }
    }
    // Fermat: 2^(p-1) = 1 mod p for the prime p = 2^127 - 1.
    let p = (Nat::one() << 127) - 1u64;
    assert_eq!(Nat::from(2u64).pow_mod(&(&p - 1u64), &p), Nat::one());
    assert_eq!(Nat::ZERO.pow_mod(&Nat::ZERO, &p), Nat::one());
    assert_eq!(
        Nat::from(5u64).pow_mod(&Nat::from(3u64), &Nat::one()),
        Nat::ZERO
    );
}

#[test]
fn random_below_is_roughly_uniform_on_a_small_bound() {
    let mut rng = SplitMix64::new(1);
    let bound = Nat::from(10u64);
    let mut counts = [0u32; 10];
    for _ in 0..20_000 {
        let x = Nat::random_below(&bound, &mut rng).to_u64().expect("small");
        counts[x as usize] += 1;
    }
    // Expected 2000 each, standard deviation about 42: ±300 is more than 7 sigma.
    for (v, &c) in counts.iter().enumerate() {
        assert!((1700..=2300).contains(&c), "value {v} drawn {c} times");
    }
}

#[test]
fn number_with_many_digits_prints_like_num_bigint() {
    // 10^k and 10^k ± 1 around the 19- and 38-digit chunk boundaries.
    for k in [1u32, 18, 19, 20, 37, 38, 39, 57, 75, 76, 77, 190, 1234] {
        let p = BigUint::from(10u8).pow(k);
        for v in [p.clone() - 1u8, p.clone(), p + 1u8] {
            let x = Nat::from_limbs(&v.to_u64_digits());
            assert_eq!(x.to_string(), v.to_str_radix(10));
            assert_eq!(v.to_str_radix(10).parse::<Nat>(), Ok(x));
        }
    }
}

#[test]
#[should_panic(expected = "negative")]
fn subtracting_a_larger_number_panics() {
    let _ = &Nat::from(5u64) - &Nat::from(6u64);
}

#[test]
#[should_panic(expected = "division by zero")]
fn remainder_by_zero_panics() {
    let _ = Nat::from(5u64) % 0u64;
}

#[test]
#[should_panic(expected = "division by zero")]
fn pow_mod_by_zero_panics() {
    let _ = Nat::from(5u64).pow_mod(&Nat::one(), &Nat::ZERO);
}

#[test]
#[should_panic(expected = "bound must be positive")]
fn random_below_zero_panics() {
    let _ = Nat::random_below(&Nat::ZERO, &mut SplitMix64::new(0));
}
