//! `bignum::modular::ct`: its internals.

use bignum::limb::Limb;
use bignum::modular::ct::*;

#[test]
fn conditional_ops_follow_the_mask() {
    let mut r = [Limb::MAX, 1];
    assert_eq!(cnd_add_assign(0, &mut r, &[1, 0]), 0);
    assert_eq!(r, [Limb::MAX, 1]);
    assert_eq!(cnd_add_assign(Limb::MAX, &mut r, &[1, 0]), 0);
    assert_eq!(r, [0, 2]);
    let mut z = [1, 0];
    cnd_neg_assign(Limb::MAX, &mut z);
    assert_eq!(z, [Limb::MAX, Limb::MAX]);
    cnd_neg_assign(0, &mut z);
    assert_eq!(z, [Limb::MAX, Limb::MAX]);
    let mut s = [1 << 63 | 3, 5];
    cnd_rshift1(Limb::MAX, &mut s);
    assert_eq!(s, [1 << 63 | 1 << 62 | 1, 2]);
    assert_eq!(cnd_lshift1(Limb::MAX, &mut s), 0);
    assert_eq!(s, [1 << 63 | 2, 5]);
    assert_eq!(lt(&[0, 1], &[1, 1]), 1);
    assert_eq!(lt(&[1, 1], &[1, 1]), 0);
    assert_eq!(bit_len(&[0, 0]), 0);
    assert_eq!(bit_len(&[5, 0]), 3);
    assert_eq!(bit_len(&[5, 1]), 65);
}

/// The tests build bignum without debug assertions (the workspace's `Cargo.toml`): its
/// `invariant!`s must still hold them to the lengths, here `cnd_copy`'s.
#[test]
#[should_panic(expected = "r.len() == a.len()")]
fn invariants_are_checked_in_the_tests() {
    let mut r = [0; 2];
    cnd_copy(Limb::MAX, &mut r, &[1, 2, 3]);
}
