//! `bignum::mpn::portable`: its internals.

use bignum::limb::Limb;
use bignum::mpn::portable::*;
use num_bigint::BigUint;
use std::vec::Vec;

fn big(x: &[Limb]) -> BigUint {
    BigUint::from_bytes_le(&x.iter().flat_map(|l| l.to_le_bytes()).collect::<Vec<u8>>())
}

/// xorshift64 limbs.
fn limbs(seed: &mut u64, n: usize) -> Vec<Limb> {
    (0..n)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        })
        .collect()
}

#[test]
fn mul_basecase_matches_num_bigint_for_every_shape() {
    // Every a length around the four-row passes' head and tail (a < 4 is rows only) and
    // every b length mod 4 (the leading single rows), random and all-ones (longest
    // carries), against num-bigint.
    let mut seed = 0x5EED_0001;
    for an in 1..=24 {
        for bn in 1..=an + 3 {
            for ones in [false, true] {
                let (a, b) = if ones {
                    (vec![Limb::MAX; an], vec![Limb::MAX; bn])
                } else {
                    (limbs(&mut seed, an), limbs(&mut seed, bn))
                };
                let mut r = vec![7; an + bn];
                mul_basecase(&mut r, &a, &b);
                assert_eq!(big(&r), big(&a) * big(&b), "{an} × {bn} limbs, ones {ones}");
            }
        }
    }
}

#[test]
fn column_sums_carry_across_limbs() {
    // (2⁶⁴-1)² twice plus 2⁶⁴-1: 2·(2¹²⁸ - 2⁶⁵ + 1) + 2⁶⁴ - 1 = 2¹²⁹ - 3·2⁶⁴ + 1.
    let mut col = Column::new(Limb::MAX);
    col.add_mul(Limb::MAX, Limb::MAX);
    col.add_mul(Limb::MAX, Limb::MAX);
    assert_eq!(col.shift(), 1);
    assert_eq!(col.shift(), Limb::MAX - 2);
    assert_eq!(col.shift(), 1);
    assert_eq!(col.shift(), 0);
    // 2⁶⁴-1 + (2⁶⁴-1)² = 2¹²⁸ - 2⁶⁴; adding 2⁶⁴-1 gives 2¹²⁸ - 1, and one more carries
    // into the third limb.
    let mut col = Column::new(Limb::MAX);
    col.add_mul(Limb::MAX, Limb::MAX);
    assert_eq!((col.0, col.1, col.2), (0, Limb::MAX, 0));
    col.add(Limb::MAX);
    assert_eq!((col.0, col.1, col.2), (Limb::MAX, Limb::MAX, 0));
    col.add(1);
    assert_eq!((col.0, col.1, col.2), (0, 0, 1));
}
