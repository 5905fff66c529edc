//! `bignum::nat::ops`: its internals.

use bignum::nat::Nat;

#[test]
fn operators_on_small_values() {
    let a = Nat::from(10u64);
    let b = Nat::from(3u64);
    assert_eq!(&a + &b, Nat::from(13u64));
    assert_eq!(&a - &b, Nat::from(7u64));
    assert_eq!(&a * &b, Nat::from(30u64));
    assert_eq!(&a / &b, Nat::from(3u64));
    assert_eq!(&a % &b, Nat::from(1u64));
    assert_eq!(a.clone() + 5, Nat::from(15u64));
    assert_eq!(a.clone() << 64, Nat::from(10u128 << 64));
    assert_eq!(Nat::from(10u128 << 64) >> 65, Nat::from(5u64));
    let mut c = a.clone();
    c -= 10;
    assert!(c.is_zero());
}

#[test]
#[should_panic(expected = "negative")]
fn subtraction_below_zero_panics() {
    let _ = Nat::from(1u64) - Nat::from(2u64);
}

#[test]
#[should_panic(expected = "division by zero")]
fn division_by_zero_panics() {
    let _ = Nat::from(1u64) / Nat::ZERO;
}
