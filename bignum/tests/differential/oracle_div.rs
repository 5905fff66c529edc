//! `mpn::div_qr_vartime` and `mpn::div_1_vartime` against num-bigint.

use bignum::{Limb, mpn};
use num_bigint::BigUint;
use proptest::collection::vec;
use proptest::prelude::*;

use crate::common::{big, config, edge_limb, limbs};

/// A limb vector of length in `len`, biased to small sizes and whole-vector patterns
/// (all zeros, all ones, one repeated limb).
fn limb_vec(len: core::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vec<Limb>> {
    let (lo, hi) = (*len.start(), *len.end());
    let small = lo..=hi.min(lo + 4);
    prop_oneof![
        3 => vec(edge_limb(), small),
        4 => vec(edge_limb(), lo..=hi),
        1 => (lo..=hi, edge_limb()).prop_map(|(n, x)| vec![x; n]),
    ]
}

/// A divisor: 1..=max limbs with a non-zero top limb, top bit set or clear.
fn divisor(max: usize) -> impl Strategy<Value = Vec<Limb>> {
    (limb_vec(1..=max), prop_oneof![Just(0u32), 0u32..64]).prop_map(|(mut d, shift)| {
        let top = d.last_mut().expect("non-empty");
        if *top == 0 {
            *top = 1;
        }
        // Vary the top limb's bit length (shift 0 keeps it as drawn, often with the top bit set).
        *top = (*top >> shift).max(1);
        d
    })
}

fn check_div(a: &[Limb], d: &[Limb]) -> Result<(), TestCaseError> {
    let mut q = vec![Limb::MAX; a.len() - d.len() + 1];
    let mut r = vec![Limb::MAX; d.len()];
    mpn::div_qr_vartime(&mut q, &mut r, a, d);
    let (ba, bd) = (big(a), big(d));
    prop_assert_eq!(big(&q), &ba / &bd, "quotient of {:x?} / {:x?}", a, d);
    prop_assert_eq!(big(&r), &ba % &bd, "remainder of {:x?} / {:x?}", a, d);
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn div_qr_vartime_matches_num_bigint(
        d in divisor(128),
        extra in prop_oneof![Just(0usize), Just(1), 0usize..=8, 0usize..=128],
        fill in limb_vec(0..=256),
    ) {
        // a has d.len() + extra limbs, drawn from `fill` (padded with zeros when short).
        let mut a = fill;
        a.resize(d.len() + extra, 0);
        check_div(&a, &d)?;
    }

    #[test]
    fn div_qr_vartime_near_the_divisor(d in divisor(64), delta in 0u64..4, above in any::<bool>()) {
        // a = d ± delta, in the same number of limbs (or one more when the sum carries):
        // quotients 0, 1, and the a < d case with equal lengths.
        let bd = big(&d);
        let ba = if above { &bd + delta } else { &bd - delta.min(1) };
        let n = ba.to_u64_digits().len().max(d.len());
        check_div(&limbs(&ba, n), &d)?;
    }

    #[test]
    fn div_qr_vartime_with_estimates_that_overshoot(
        top in divisor(2).prop_map(|t| if t.len() == 2 { t } else { vec![t[0], t[0] | 1 << 63] }),
        low in prop_oneof![Just(Limb::MAX), any::<Limb>()],
        low_len in 1usize..12,
        q in limb_vec(1..=12),
        r in limb_vec(0..=3),
    ) {
        // d = (top two limbs, then low limbs close to all-ones); a = q·(d with low limbs zeroed)
        // + r. The top limbs alone predict a quotient that the low limbs of d make too large:
        // this is where the add-back step runs (about once per quotient limb here, instead of
        // with probability 2/2⁶⁴ on random inputs).
        let mut d = vec![low; low_len];
        d.extend_from_slice(&top);
        let mut d_top = vec![0; low_len];
        d_top.extend_from_slice(&top);
        let ba = big(&q) * big(&d_top) + big(&r);
        let n = ba.to_u64_digits().len().max(d.len());
        check_div(&limbs(&ba, n), &d)?;
    }

    #[test]
    fn div_1_vartime_matches_num_bigint(a in limb_vec(0..=130), d in edge_limb()) {
        let d = d.max(1);
        let mut q = vec![Limb::MAX; a.len()];
        let rem = mpn::div_1_vartime(&mut q, &a, d);
        prop_assert_eq!(big(&q), big(&a) / BigUint::from(d));
        prop_assert_eq!(BigUint::from(rem), big(&a) % BigUint::from(d));
    }
}

#[test]
fn division_by_powers_of_two_and_all_ones_divisors() {
    for n in 1..=20 {
        for dn in 1..=n {
            let a = vec![Limb::MAX; n];
            let mut d = vec![0; dn];
            d[dn - 1] = 1 << 63;
            check_div(&a, &d).expect("power of two");
            check_div(&a, &vec![Limb::MAX; dn]).expect("all ones");
            d[dn - 1] = 1;
            check_div(&a, &d).expect("B^(dn-1)");
        }
    }
}

#[test]
#[should_panic(expected = "non-zero top limb")]
fn div_qr_vartime_rejects_a_divisor_with_a_zero_top_limb() {
    let (mut q, mut r) = ([0; 2], [0; 2]);
    mpn::div_qr_vartime(&mut q, &mut r, &[1, 2, 3], &[1, 0]);
}

#[test]
#[should_panic(expected = "q must hold")]
fn div_qr_vartime_rejects_a_short_quotient() {
    let (mut q, mut r) = ([0; 1], [0; 2]);
    mpn::div_qr_vartime(&mut q, &mut r, &[1, 2, 3], &[1, 1]);
}

#[test]
#[should_panic(expected = "division by zero")]
fn div_1_vartime_rejects_zero() {
    let mut q = [0; 2];
    let _ = mpn::div_1_vartime(&mut q, &[1, 2], 0);
}
