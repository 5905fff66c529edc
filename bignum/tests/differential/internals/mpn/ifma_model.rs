//! `bignum::mpn::ifma_model`: its internals.

use bignum::mpn::ifma_model::*;

/// The model's multiply-adds against the definition done by hand in u128, on extreme and
/// pseudo-random lanes (bits above 52 in the operands must be ignored, the accumulator
/// must wrap).
#[test]
fn model_madd52_follows_the_definition() {
    let vals = [
        0,
        1,
        MASK52,
        MASK52 + 1,
        u64::MAX,
        0x000F_FFFF_FFFF_FFFE,
        0x8000_0000_0000_0001,
        0x1234_5678_9ABC_DEF0,
    ];
    let m = Model::<4>;
    for &acc in &vals {
        for &a in &vals {
            for &b in &vals {
                let p = u128::from(a % (1 << 52)) * u128::from(b % (1 << 52));
                let lo = (p % (1 << 52)) as u64;
                let hi = (p >> 52) as u64;
                assert_eq!(
                    m.madd52lo([acc; 4], [a; 4], [b; 4])[2],
                    acc.wrapping_add(lo)
                );
                assert_eq!(
                    m.madd52hi([acc; 4], [a; 4], [b; 4])[3],
                    acc.wrapping_add(hi)
                );
            }
        }
    }
}

#[test]
fn model_lane_moves_and_masks() {
    let m = Model::<4>;
    let lo = [1, 2, 3, 4];
    let hi = [5, 6, 7, 8];
    assert_eq!(m.shift_down(hi, lo), [2, 3, 4, 5]);
    assert_eq!(m.shift_up(hi, lo), [4, 5, 6, 7]);
    assert_eq!(m.cmpgt_mask([0, 5, u64::MAX, 7], [0, 4, 0, 8]), 0b0110);
    assert_eq!(
        m.cmpeq_mask([0, 5, u64::MAX, 7], [0, 4, u64::MAX, 8]),
        0b0101
    );
    assert_eq!(m.mask_sub(lo, 0b1001, hi, [1; 4]), [4, 2, 3, 7]);
    assert_eq!(m.set_lane0(hi, 9), [9, 6, 7, 8]);
    let m8 = Model::<8>;
    let a: [u64; 8] = core::array::from_fn(|i| i as u64);
    let b: [u64; 8] = core::array::from_fn(|i| 10 + i as u64);
    assert_eq!(m8.shift_down(b, a), [1, 2, 3, 4, 5, 6, 7, 10]);
    assert_eq!(m8.shift_up(b, a), [7, 10, 11, 12, 13, 14, 15, 16]);
    assert_eq!(m.interleave_lo(lo, hi), [1, 5, 2, 6]);
    assert_eq!(m.interleave_hi(lo, hi), [3, 7, 4, 8]);
    assert_eq!(m8.interleave_lo(a, b), [0, 10, 1, 11, 2, 12, 3, 13]);
    assert_eq!(m8.interleave_hi(a, b), [4, 14, 5, 15, 6, 16, 7, 17]);
    // 3·4 = 12 in lanes 0 and 2, the accumulator kept in lanes 1 and 3.
    let (x, y) = ([3; 4], [4; 4]);
    assert_eq!(m.madd52lo_mask(hi, 0b0101, x, y), [17, 6, 19, 8]);
    let big = [1 << 51; 4];
    assert_eq!(m.madd52hi_mask(lo, 0b1010, big, [4; 4]), [1, 4, 3, 6]);
}
