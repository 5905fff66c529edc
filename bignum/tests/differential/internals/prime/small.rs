//! `bignum::prime::small`: its internals.

use bignum::limb::Limb;
use bignum::prime::small::*;

#[test]
fn table_holds_the_odd_primes_below_the_bound() {
    assert_eq!(&SMALL_PRIMES[..6], &[3, 5, 7, 11, 13, 17]);
    assert_eq!(SMALL_PRIMES[COUNT - 1], 32749); // the largest prime below 2¹⁵
    for &p in SMALL_PRIMES.iter().take(200) {
        assert!((2..p).take_while(|d| d * d <= p).all(|d| p % d != 0), "{p}");
    }
}

#[test]
fn residues_match_u128_arithmetic() {
    let a: [Limb; 2] = [0xFFFF_FFFF_FFFF_FFFF, 0x0123_4567_89AB_CDEF];
    let v = (u128::from(a[1]) << 64) | u128::from(a[0]);
    for i in [0, 1, 2, 100, COUNT - 1] {
        let p = u128::from(SMALL_PRIMES[i]);
        assert_eq!(u128::from(residue(&a, i)), v % p);
    }
    assert_eq!(residue(&[], 0), 0);
}
