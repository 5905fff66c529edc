//! Radix conversion: 64-bit limbs to 52-bit digits and back, and the engine's result made a
//! canonical [`Residue`].

use alloc::{vec, vec::Vec};

use zeroize::Zeroizing;

use crate::limb::{self, Limb};
use crate::mpn;
use crate::mpn::ifma_model::MASK52;

use super::super::{Modulus, Residue, ct};

/// `limbs` (little-endian 64-bit) as d digits of 52 bits; the value must be below 2^(52·d).
///
/// # Constant time
///
/// Depends on the lengths only.
pub fn to_digits(limbs: &[Limb], d: usize) -> Zeroizing<Vec<u64>> {
    let mut out = Zeroizing::new(vec![0; d]);
    for (j, o) in out.iter_mut().enumerate() {
        let (idx, off) = ((52 * j) >> 6, (52 * j) & 63);
        let lo = limbs.get(idx).map_or(0, |&l| l >> off);
        // The digit runs into the next limb when it starts above bit 12.
        let hi = match limbs.get(idx + 1) {
            Some(&l) if off > 12 => l << (64 - off),
            _ => 0,
        };
        *o = (lo | hi) & MASK52;
    }
    out
}

/// Digits (each below 2^52) into `out` as little-endian limbs; digits beyond `out` dropped.
///
/// # Constant time
///
/// Depends on the lengths only.
pub fn from_digits(out: &mut [Limb], digits: &[u64]) {
    out.fill(0);
    for (j, &dg) in digits.iter().enumerate() {
        let (idx, off) = ((52 * j) >> 6, (52 * j) & 63);
        if let Some(l) = out.get_mut(idx) {
            *l |= dg << off;
        }
        if let (true, Some(l)) = (off > 12, out.get_mut(idx + 1)) {
            *l |= dg >> (64 - off);
        }
    }
}

/// The residue of the engine's result: x = b^e·R' mod m below 2m in digits, made canonical by
/// one masked subtraction of m (over n + 1 limbs: 2m may not fit n).
pub(super) fn finish(modulus: &Modulus, digits: &[u64]) -> Residue {
    let n = modulus.limb_len();
    let mut x = Zeroizing::new(vec![0; n + 1]);
    from_digits(&mut x, digits);
    let mut m = Zeroizing::new(vec![0; n + 1]);
    m[..n].copy_from_slice(modulus.as_limbs());
    let mut diff = Zeroizing::new(vec![0; n + 1]);
    let borrow = mpn::sub_n(&mut diff, &x, &m);
    ct::cnd_copy(limb::mask(borrow ^ 1), &mut x, &diff);
    modulus.residue(x[..n].to_vec())
}
