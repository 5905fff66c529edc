//! Multiplication: schoolbook for now.

use crate::limb::Limb;
use crate::mpn;

/// r = a · b by rows of `addmul_1`. `r.len() == a.len() + b.len()`, `b` non-empty.
pub fn mul_basecase(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = a.len();
    r[n] = mpn::mul_1(&mut r[..n], a, b[0]);
    for (i, &bi) in b.iter().enumerate().skip(1) {
        r[n + i] = mpn::addmul_1(&mut r[i..n + i], a, bi);
    }
}

/// r = a · b, any lengths with `a.len() ≥ b.len() ≥ 1`.
pub fn mul(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    mul_basecase(r, a, b);
}
