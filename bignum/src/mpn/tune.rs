//! Algorithm thresholds, chosen by measurement, and the entry points that measure them.
//!
//! A threshold is the operand length, in limbs, from which one Karatsuba step (with schoolbook
//! sub-products) beats the schoolbook algorithm on this machine. Each constant says the figures
//! and the command that chose it; `benches/benches/mpn.rs` has the `mpn/karatsuba_*` groups that
//! compare [`mul_karatsuba`] with `mul_basecase` and [`sqr_karatsuba`] with `sqr_basecase`.

use super::{mul, sqr};
use crate::limb::Limb;

/// From this many limbs (of the shorter operand) `mpn::mul` uses Karatsuba.
pub const KARATSUBA_MUL_THRESHOLD: usize = 32;

/// From this many limbs `mpn::sqr` uses the Karatsuba square.
pub const KARATSUBA_SQR_THRESHOLD: usize = 32;

// Karatsuba needs n ≥ 4 so that its middle sum (3h + 1 limbs) fits in the 2n-limb result.
const _: () = assert!(KARATSUBA_MUL_THRESHOLD >= mul::KARATSUBA_MIN_LEN);
const _: () = assert!(KARATSUBA_SQR_THRESHOLD >= mul::KARATSUBA_MIN_LEN);

/// r = a · b by one Karatsuba step at the top whatever the length, the sub-products as `mul`
/// does them: for tuning [`KARATSUBA_MUL_THRESHOLD`] and for tests. Allocates zeroized scratch.
///
/// # Constant time
/// Time and memory accesses depend on the lengths only.
///
/// # Panics
/// Unless `a.len() == b.len() ≥ 4` and `r.len() == 2·a.len()`.
pub fn mul_karatsuba(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = a.len();
    assert!(
        b.len() == n && n >= mul::KARATSUBA_MIN_LEN,
        "mul_karatsuba: need a.len() == b.len() >= 4"
    );
    assert_eq!(r.len(), 2 * n, "mul_karatsuba: r must hold 2·a.len() limbs");
    let h = mul::half(n);
    let mut scratch = zeroize::Zeroizing::new(vec![0; 4 * h + 1 + mul::karatsuba_scratch_len(h)]);
    mul::karatsuba(r, a, b, &mut scratch);
}

/// r = a² by one Karatsuba step at the top whatever the length, the sub-squares as `sqr` does
/// them: for tuning [`KARATSUBA_SQR_THRESHOLD`] and for tests. Allocates zeroized scratch.
///
/// # Constant time
/// Time and memory accesses depend on the length only.
///
/// # Panics
/// Unless `a.len() ≥ 4` and `r.len() == 2·a.len()`.
pub fn sqr_karatsuba(r: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    assert!(
        n >= mul::KARATSUBA_MIN_LEN,
        "sqr_karatsuba: need a.len() >= 4"
    );
    assert_eq!(r.len(), 2 * n, "sqr_karatsuba: r must hold 2·a.len() limbs");
    let h = mul::half(n);
    let mut scratch = zeroize::Zeroizing::new(vec![0; 4 * h + 1 + sqr::sqr_scratch_len(h)]);
    sqr::karatsuba_sqr(r, a, &mut scratch);
}
