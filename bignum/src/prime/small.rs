//! The odd primes below 2¹⁵, computed at compile time, and branch-free residues modulo them.

use crate::limb::Limb;

/// Bound on the small primes: every odd prime below it is in [`SMALL_PRIMES`].
const BOUND: usize = 1 << 15;

/// How many odd primes lie below 2¹⁵ (π(32768) − 1 = 3512 − 1).
pub const COUNT: usize = 3511;

/// The odd primes 3, 5, 7, … below 2¹⁵, ascending.
pub static SMALL_PRIMES: [u32; COUNT] = sieve();

/// ⌊2⁶⁴ / p⌋ for each prime of [`SMALL_PRIMES`], for Barrett reduction.
static RECIPROCALS: [u64; COUNT] = reciprocals();

#[allow(clippy::cast_possible_truncation)] // i < 2¹⁵ fits in u32
const fn sieve() -> [u32; COUNT] {
    let mut composite = [false; BOUND];
    let mut out = [0u32; COUNT];
    let mut count = 0;
    let mut i = 3;
    while i < BOUND {
        if !composite[i] {
            out[count] = i as u32;
            count += 1;
            let mut j = i * i;
            while j < BOUND {
                composite[j] = true;
                j += 2 * i;
            }
        }
        i += 2;
    }
    assert!(
        count == COUNT,
        "COUNT must equal the number of odd primes below BOUND"
    );
    out
}

#[allow(clippy::integer_division_remainder_used)] // compile time, public constants
const fn reciprocals() -> [u64; COUNT] {
    let primes = sieve();
    let mut out = [0u64; COUNT];
    let mut i = 0;
    while i < COUNT {
        out[i] = u64::MAX / primes[i] as u64;
        i += 1;
    }
    out
}

/// v mod p for v < 2⁴⁸ and the i-th small prime p, by Barrett reduction: no division
/// instruction (whose time can depend on the operands), no branch.
#[inline(always)]
pub(crate) fn reduce48(v: u64, i: usize) -> u64 {
    let p = u64::from(SMALL_PRIMES[i]);
    let (_, q) = crate::limb::mul_wide(v, RECIPROCALS[i]);
    // q is ⌊v/p⌋ or one less (v < 2⁶⁴), so r < 2p and one conditional subtraction finishes.
    let r = v - q * p;
    let (s, borrow) = crate::limb::sbb(r, p, 0);
    crate::limb::select(crate::limb::mask(borrow), r, s)
}

/// a mod p for the i-th small prime p, for a multi-limb `a` (little-endian).
///
/// # Constant time
///
/// Depends on `a.len()` only: Horner's rule over 32-bit halves with Barrett reductions.
pub fn residue(a: &[Limb], i: usize) -> u32 {
    let mut acc = 0u64;
    for &limb in a.iter().rev() {
        acc = reduce48((acc << 32) | (limb >> 32), i);
        acc = reduce48((acc << 32) | (limb & 0xFFFF_FFFF), i);
    }
    // acc < p < 2¹⁵.
    #[allow(clippy::cast_possible_truncation)]
    let r = acc as u32;
    r
}
