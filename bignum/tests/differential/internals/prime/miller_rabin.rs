//! `bignum::prime::miller_rabin`: its internals.

use bignum::prime::miller_rabin::*;

/// The `core`-only log₂ and √ give the round counts of `std`'s, at every size where they
/// are used (256 to 1023 bits; 1024 and up come from the table).
#[test]
#[allow(clippy::integer_division_remainder_used)] // public bit lengths
fn rounds_from_core_math_equal_rounds_from_std_math() {
    let std_rounds = |k: usize| {
        let kf = k as f64;
        (3..=k / 9).find(|&t| {
            let tf = t as f64;
            let log2_p = 1.5 * kf.log2() + tf - 0.5 * tf.log2() + 2.0 * (2.0 - (tf * kf).sqrt());
            log2_p <= -100.0
        })
    };
    for k in 256..1024 {
        assert_eq!(dlp_rounds(k, 100.0), std_rounds(k), "{k} bits");
    }
    for x in [1.0, 1.5, 2.0, 3.0, 255.0, 1023.0, 115_000.0] {
        let (l, r) = (log2(x), sqrt(x));
        assert!(
            (l - x.log2()).abs() <= 4.0 * f64::EPSILON * x.log2().max(1.0),
            "log2 {x}: {l}"
        );
        assert!(
            (r - x.sqrt()).abs() <= 2.0 * f64::EPSILON * x.sqrt(),
            "sqrt {x}: {r}"
        );
    }
}
