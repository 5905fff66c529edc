//! Shared helpers for the integration tests: case counts and num-bigint conversions.
#![allow(dead_code)] // each test binary uses its own subset

use bignum::Limb;
use num_bigint::BigUint;
use proptest::prelude::*;

/// Random cases per property: `BIGNUM_TEST_CASES`, default 10,000 (CI's slice; raise it for a long run).
pub fn cases() -> u32 {
    std::env::var("BIGNUM_TEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000)
}

/// A proptest config with [`cases`] cases (failures are persisted under
/// `tests/proptest-regressions/`, as `<module>.txt` beside the `differential` binary's folder,
/// proptest's default for a test crate with a `main.rs`; commit them).
pub fn config() -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: cases(),
        ..proptest::test_runner::Config::default()
    }
}

/// The oracle's view of a limb slice.
#[allow(clippy::cast_possible_truncation)] // splitting each limb into its two 32-bit halves
pub fn big(a: &[Limb]) -> BigUint {
    BigUint::from_slice(
        &a.iter()
            .flat_map(|&l| [l as u32, (l >> 32) as u32])
            .collect::<Vec<u32>>(),
    )
}

/// The oracle's value as exactly `n` limbs (panics if it does not fit: a test bug).
pub fn limbs(x: &BigUint, n: usize) -> Vec<Limb> {
    let mut v = x.to_u64_digits();
    assert!(v.len() <= n, "value needs {} limbs, have {n}", v.len());
    v.resize(n, 0);
    v
}

/// One limb, biased to the values that break carries, borrows and quotient estimates.
pub fn edge_limb() -> BoxedStrategy<Limb> {
    prop_oneof![
        6 => any::<Limb>(),
        1 => Just(0),
        1 => Just(1),
        2 => Just(Limb::MAX),
        1 => Just(Limb::MAX - 1),
        1 => Just(1 << 63),
        1 => Just((1 << 63) - 1),
    ]
    .boxed()
}
