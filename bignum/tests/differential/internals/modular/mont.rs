//! `bignum::modular::mont`: its internals.

use bignum::limb::Limb;
use bignum::limb::Wide;
use bignum::modular::mont::*;

/// m = 2⁶⁴ - 59 (prime); R = 2⁶⁴ ≡ 59, so x·R⁻¹ can be checked with u128 arithmetic.
const M: Limb = 0xFFFF_FFFF_FFFF_FFC5;

fn r_inv_times(x: Wide) -> Limb {
    // x·R⁻¹ mod m: find y < m with y·59 ≡ x (mod m) by trying y = (x + k·m)/59 for k < 59.
    let m = Wide::from(M);
    let x = x % m;
    let k = (0..59)
        .find(|k| (x + k * m).is_multiple_of(59))
        .expect("59 is invertible mod m");
    let y = (x + k * m) / 59;
    y.try_into().expect("y < m")
}

#[test]
fn one_limb_mul_sqr_redc_match_u128_arithmetic() {
    let minv = bignum::limb::inv(M).wrapping_neg();
    let mut t = [0; 3];
    for (a, b) in [(0, 0), (1, 1), (M - 1, M - 1), (12345, M - 2), (1 << 63, 3)] {
        let mut r = [0];
        mul(&mut r, &[a], &[b], &[M], minv, &mut t);
        assert_eq!(
            r[0],
            r_inv_times(Wide::from(a) * Wide::from(b)),
            "mul {a} {b}"
        );
        sqr(&mut r, &[a], &[M], minv, &mut t);
        assert_eq!(r[0], r_inv_times(Wide::from(a) * Wide::from(a)), "sqr {a}");
        let mut tt = [a, b % M];
        redc(&mut r, &mut tt, &[M], minv);
        assert_eq!(
            r[0],
            r_inv_times(Wide::from(a) + (Wide::from(b % M) << 64)),
            "redc"
        );
    }
}
