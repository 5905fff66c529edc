//! `bignum::limb`: its internals.

use bignum::limb::*;

const EDGE: [Limb; 6] = [0, 1, 2, Limb::MAX - 1, Limb::MAX, 1 << 63];

#[test]
fn adc_sbb_mac_match_wide_arithmetic() {
    for &a in &EDGE {
        for &b in &EDGE {
            for c in 0..2 {
                let (s, co) = adc(a, b, c);
                assert_eq!(
                    s as Wide + ((co as Wide) << 64),
                    a as Wide + b as Wide + c as Wide
                );
                let (d, bo) = sbb(a, b, c);
                assert_eq!(
                    (d as Wide).wrapping_sub((bo as Wide) << 64),
                    (a as Wide).wrapping_sub(b as Wide + c as Wide)
                );
                let (lo, hi) = mac(a, b, a, b);
                assert_eq!(
                    lo as Wide + ((hi as Wide) << 64),
                    a as Wide + b as Wide * a as Wide + b as Wide
                );
            }
        }
    }
}

#[test]
fn masks_and_comparisons() {
    assert_eq!(mask(0), 0);
    assert_eq!(mask(1), Limb::MAX);
    for &a in &EDGE {
        assert_eq!(is_zero(a), (a == 0) as Limb);
        assert_eq!(select(mask(1), a, 7), a);
        assert_eq!(select(mask(0), a, 7), 7);
        for &b in &EDGE {
            assert_eq!(lt(a, b), (a < b) as Limb);
        }
    }
}

#[test]
fn inv_inverts_odd_limbs() {
    for d in [
        1 as Limb,
        3,
        5,
        0xFFFF_FFFF_FFFF_FFFF,
        0x8000_0000_0000_0001,
        65537,
    ] {
        assert_eq!(d.wrapping_mul(inv(d)), 1);
    }
}
