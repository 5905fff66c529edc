//! `bignum::backend::path`: its internals.

use bignum::backend::engine::IFMA_MAX_BITS;
use bignum::backend::engine::{IFMA_MIN_BITS, VARTIME_MIN_EXP_BITS};
use bignum::backend::path::*;

#[test]
fn paths_by_size() {
    assert_eq!(path_for_pow(IFMA_MIN_BITS - 1), PowPath::Limbs);
    assert_eq!(path_for_pow(IFMA_MAX_BITS + 1), PowPath::Limbs);
    assert_eq!(
        path_for_pow_vartime(2048, VARTIME_MIN_EXP_BITS - 1),
        PowPath::Limbs
    );
    assert_eq!(path_for_pow(2048), pow_path());
    assert_eq!(path_for_pair(512), pow_path());
}
