//! `bignum::nat`: its internals.

mod fmt;
mod gcd;
mod ops;

use bignum::nat::*;

#[test]
fn normalised_storage_makes_equal_values_equal() {
    assert_eq!(Nat::from_limbs(&[5, 0, 0]), Nat::from(5u64));
    assert_eq!(Nat::from_limbs(&[0, 0]), Nat::ZERO);
    assert!(Nat::from_limbs(&[0, 0]).as_limbs().is_empty());
    assert_eq!(Nat::from(1u128 << 64).as_limbs(), &[0, 1]);
}

#[test]
fn bit_operations() {
    let mut x = Nat::ZERO;
    x.set_bit(130, true);
    assert_eq!(x.bits(), 131);
    assert_eq!(x.trailing_zeros(), Some(130));
    assert!(x.bit(130) && !x.bit(129) && !x.bit(1000));
    x.set_bit(130, false);
    assert!(x.is_zero());
    assert_eq!(x.trailing_zeros(), None);
}
