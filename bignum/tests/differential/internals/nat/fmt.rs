//! `bignum::nat::fmt`: its internals.

use bignum::error::Error;
use bignum::nat::Nat;
use std::{format, string::ToString};

#[test]
fn prints_and_parses_small_values() {
    let x = Nat::from(u128::MAX);
    assert_eq!(x.to_string(), u128::MAX.to_string());
    assert_eq!(format!("{x:x}"), format!("{:x}", u128::MAX));
    assert_eq!(format!("{x:#X}"), format!("{:#X}", u128::MAX));
    assert_eq!(format!("{:>5}", Nat::from(42u64)), "   42");
    assert_eq!(format!("{:#x}", Nat::ZERO), "0x0");
    assert_eq!(format!("{:?}", Nat::from(255u64)), "Nat(0xff)");
    assert_eq!("0".parse::<Nat>(), Ok(Nat::ZERO));
    assert_eq!("0x".parse::<Nat>(), Err(Error::ParseEmpty));
    assert_eq!("".parse::<Nat>(), Err(Error::ParseEmpty));
    assert_eq!(
        "12a".parse::<Nat>(),
        Err(Error::ParseInvalidDigit { position: 2 })
    );
    assert_eq!(
        "0xfg".parse::<Nat>(),
        Err(Error::ParseInvalidDigit { position: 3 })
    );
    assert_eq!("0XFF".parse::<Nat>(), Ok(Nat::from(255u64)));
    assert_eq!(
        "340282366920938463463374607431768211455".parse::<Nat>(),
        Ok(Nat::from(u128::MAX))
    );
}
