//! NEGATIVE CONTROLS: deliberately leaky code that the valgrind check MUST flag.
//!
//! `.ci/ct-check` runs each of these alone under memcheck and fails if memcheck reports
//! nothing: that proves the secrets are really marked and the check can see a leak. Outside
//! valgrind they are ordinary correctness tests.

use bignum::Limb;
use bignum::modular::Modulus;
use num_bigint::BigUint;

use super::ct::{mark_public, mark_secret};
use super::{big, n_limbs};

/// Square-and-multiply that multiplies only when the exponent bit is set: a branch on a secret.
#[test]
fn leaky_square_and_multiply_branches_on_exponent_bits() {
    let m = n_limbs(4, 11, true);
    let a = n_limbs(4, 12, false);
    let e = n_limbs(4, 13, false);
    let ctx = Modulus::new_vartime(&m).expect("odd modulus");
    let base = ctx.reduce(&a);
    let secret_e = e.clone();
    mark_secret(&secret_e);
    let mut acc = ctx.one();
    for bit in (0..256).rev() {
        acc = ctx.sqr(&acc);
        if (secret_e[bit >> 6] >> (bit & 63)) & 1 == 1 {
            acc = ctx.mul(&acc, &base);
        }
    }
    let r = ctx.retrieve(&acc);
    mark_public(&r);
    assert_eq!(big(&r), big(&a).modpow(&big(&e), &big(&m)));
}

/// A window table read at a secret index: a memory address that depends on a secret.
#[test]
fn leaky_table_lookup_by_secret_index() {
    let table: Vec<Limb> = (0..64).map(|i| i * 1000 + 7).collect();
    let mut idx = [0 as Limb; 1];
    idx[0] = 37;
    mark_secret(&idx);
    #[allow(clippy::cast_possible_truncation)] // an index below 64
    let got = [table[(idx[0] & 63) as usize]];
    mark_public(&got);
    assert_eq!(got[0], 37_000 + 7);
    assert_eq!(BigUint::from(got[0]), BigUint::from(37_007u32));
}

/// The IFMA engine's model carries the secrets through to its result: a branch on a bit of
/// the (unmarked) result of an exponentiation by a secret exponent must be flagged. If the model
/// ever laundered the secrets (a lookup table, a branch that memcheck resolves), this would pass
/// silently and the IFMA driver would prove nothing.
#[test]
fn leaky_branch_on_an_ifma_model_result() {
    use bignum::modular::PowPath;
    let m = n_limbs(16, 31, true);
    let a = n_limbs(16, 32, false);
    let e = n_limbs(16, 33, false);
    let ctx = Modulus::new_vartime(&m).expect("odd modulus");
    let base = ctx.reduce(&a);
    let secret_e = e.clone();
    mark_secret(&secret_e);
    let r = ctx
        .pow_on(PowPath::IfmaModel, &base, &secret_e, 1024)
        .expect("supported size");
    let out = ctx.retrieve(&r);
    let mut odd = 0;
    if out[0] & 1 == 1 {
        odd = 1;
    }
    mark_public(&out);
    assert_eq!(big(&out), big(&a).modpow(&big(&e), &big(&m)));
    assert_eq!(odd, out[0] & 1);
}
