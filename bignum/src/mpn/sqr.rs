//! Squaring: through the multiply for now.

use crate::limb::Limb;

/// r = a², `r.len() == 2·a.len()`.
pub fn sqr_basecase(r: &mut [Limb], a: &[Limb]) {
    super::mul::mul_basecase(r, a, a);
}

/// r = a², `r.len() == 2·a.len()`.
pub fn sqr(r: &mut [Limb], a: &[Limb]) {
    sqr_basecase(r, a);
}
