//! The kept constants: a modulus's side of the engine's operands (m and the conversion
//! constants in digits, k0), computed per exponentiation or once and kept with the modulus
//! ([`Modulus::keep_engine_constants`]).

use alloc::{vec, vec::Vec};

use zeroize::{Zeroize, Zeroizing};

use crate::mpn::ifma_model::MASK52;

use super::super::Modulus;
use super::convert::to_digits;

/// The modulus side of the engine's operands for R = 2^(52·d): m and the two conversion
/// constants in digits (at least d of them, zero above d, as many as the engine's vectors
/// span), and the Montgomery constant. Computed for each exponentiation, or once per modulus
/// and kept in it ([`Modulus::keep_engine_constants`]). Secret as m is; wiped on drop.
#[derive(Clone)]
pub struct EngineConstants {
    /// The digit count of R these are for.
    pub d: usize,
    /// m.
    pub m: Zeroizing<Vec<u64>>,
    /// 2^(104·d − 64·n) mod m: an AMM by it takes x·R' to x·R.
    pub into: Zeroizing<Vec<u64>>,
    /// R' mod m = 2^(64·n) mod m: an AMM by it takes x·R back to x·R'.
    pub out: Zeroizing<Vec<u64>>,
    /// −m⁻¹ mod 2^52.
    pub k0: u64,
}

impl EngineConstants {
    /// The constants of modulus `m` for R = 2^(52·d), each `len` ≥ d digits long.
    ///
    /// # Constant time
    ///
    /// Depends on m's limb count, `d` and `len` only.
    pub(super) fn new(m: &Modulus, d: usize, len: usize) -> Self {
        let n = m.limb_len();
        // 104·d ≥ 2·bits + 4 > 64·n − 64 + 4, so the exponent is positive; public.
        let k = 104 * d - 64 * n;
        let mut pow2 = vec![0; (k >> 6) + 1];
        pow2[k >> 6] = 1 << (k & 63);
        let into = m.retrieve(&m.reduce(&pow2));
        EngineConstants {
            d,
            m: to_digits(m.as_limbs(), len),
            into: to_digits(&into, len),
            out: to_digits(&m.one().limbs, len),
            k0: m.minv() & MASK52,
        }
    }

    /// Whether these serve R = 2^(52·d) in numbers of `len` digits.
    pub(super) fn serves(&self, d: usize, len: usize) -> bool {
        self.d == d && self.m.len() >= len
    }
}

impl Drop for EngineConstants {
    fn drop(&mut self) {
        self.k0.zeroize();
    }
}

impl Modulus {
    /// The kept constants' digits (m, and the two conversion constants), for the constant-time
    /// drivers to mark secret with m's limbs; empty if none are kept. With the `test-hooks`
    /// feature only.
    #[cfg(feature = "test-hooks")]
    #[doc(hidden)]
    pub fn engine_digits_for_ct_tests(&self) -> Vec<&[u64]> {
        self.engine
            .iter()
            .flat_map(|c| [c.m.as_slice(), c.into.as_slice(), c.out.as_slice()])
            .collect()
    }

    /// The kept constants, if any. With the `test-hooks` feature only.
    #[cfg(feature = "test-hooks")]
    #[doc(hidden)]
    pub fn engine_constants_for_tests(&self) -> Option<&EngineConstants> {
        self.engine.as_deref()
    }
}
