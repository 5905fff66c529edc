//! `bignum::prime`: its internals.

mod generate;
mod lucas;
mod miller_rabin;
mod provable;
mod small;

use bignum::prime::*;

#[test]
fn small_numbers_are_classified_like_trial_division() {
    for v in 0u64..5000 {
        let expect = v >= 2 && (2..v).take_while(|d| d * d <= v).all(|d| v % d != 0);
        assert_eq!(is_probable_prime(&[v]), expect, "{v}");
    }
}
