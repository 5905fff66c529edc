//! NEGATIVE CONTROLS: deliberately leaky code that the valgrind check MUST flag.
//!
//! `.ci/ct-check` runs each of these alone under memcheck and fails if memcheck reports
//! nothing: that proves the secrets are really marked and the check can see a leak. Outside
//! valgrind they are ordinary correctness tests.

use bignum::Limb;
use bignum::modular::{Modulus, Residue};
use num_bigint::BigUint;

use super::ct::{mark_public, mark_secret};
use super::{big, n_limbs};

/// A public modulus m and base a of n limbs, from `seed` and `seed + 1`, and an exponent e
/// from `seed + 2`, with a secret copy of it.
struct Setup {
    m: Vec<Limb>,
    a: Vec<Limb>,
    e: Vec<Limb>,
    ctx: Modulus,
    base: Residue,
    secret_e: Vec<Limb>,
}

impl Setup {
    fn new(n: usize, seed: u64) -> Self {
        let m = n_limbs(n, seed, true);
        let a = n_limbs(n, seed + 1, false);
        let e = n_limbs(n, seed + 2, false);
        let ctx = Modulus::new_vartime(&m).expect("odd modulus");
        let base = ctx.reduce(&a);
        let secret_e = e.clone();
        mark_secret(&secret_e);
        Setup {
            m,
            a,
            e,
            ctx,
            base,
            secret_e,
        }
    }

    /// a^e mod m by num-bigint.
    fn want(&self) -> BigUint {
        big(&self.a).modpow(&big(&self.e), &big(&self.m))
    }
}

/// Square-and-multiply that multiplies only when the exponent bit is set: a branch on a secret.
#[test]
fn leaky_square_and_multiply_branches_on_exponent_bits() {
    let s = Setup::new(4, 11);
    let mut acc = s.ctx.one();
    for bit in (0..256).rev() {
        acc = s.ctx.sqr(&acc);
        if (s.secret_e[bit >> 6] >> (bit & 63)) & 1 == 1 {
            acc = s.ctx.mul(&acc, &s.base);
        }
    }
    let r = s.ctx.retrieve(&acc);
    mark_public(&r);
    assert_eq!(big(&r), s.want());
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
    use bignum::backend::PowPath;
    let s = Setup::new(16, 31);
    let r = s
        .ctx
        .pow_on(PowPath::IfmaModel, &s.base, &s.secret_e, 1024)
        .expect("supported size");
    let out = s.ctx.retrieve(&r);
    let mut odd = 0;
    if out[0] & 1 == 1 {
        odd = 1;
    }
    mark_public(&out);
    assert_eq!(big(&out), s.want());
    assert_eq!(odd, out[0] & 1);
}
