//! Random [`Nat`]s from any `rand_core` generator: exact bit lengths and uniform values below a
//! bound. Variable time (the values are public once drawn, e.g. prime candidates or test inputs).

use alloc::vec::Vec;
use rand_core::Rng;

use super::{Nat, split_bits};
use crate::limb::Limb;

impl Nat {
    /// A uniformly random number in [0, 2^bits).
    fn random_below_pow2<R: Rng + ?Sized>(bits: usize, rng: &mut R) -> Nat {
        let (full, extra) = split_bits(bits);
        let n = full + usize::from(extra != 0);
        let mut limbs: Vec<Limb> = (0..n).map(|_| rng.next_u64()).collect();
        if extra != 0 {
            limbs[full] &= (1 << extra) - 1;
        }
        Nat::from_vec(limbs)
    }

    /// A uniformly random number of exactly `bits` bits: in [2^(bits-1), 2^bits), the top bit
    /// set. `random_bits(0, _)` is zero.
    ///
    /// # Constant time
    /// No: variable time, and the result is a `Nat` (a public value). To make a secret prime,
    /// use the `prime` module's generator.
    pub fn random_bits<R: Rng + ?Sized>(bits: usize, rng: &mut R) -> Nat {
        if bits == 0 {
            return Nat::ZERO;
        }
        let mut x = Nat::random_below_pow2(bits, rng);
        x.set_bit(bits - 1, true);
        x
    }

    /// A uniformly random number in [0, bound), by rejection sampling: draw `bound.bits()` random
    /// bits until the value is below `bound` (fewer than two draws on average).
    ///
    /// # Constant time
    /// No: variable time (the number of draws depends on the values); the result is public.
    ///
    /// # Panics
    /// If `bound` is zero.
    pub fn random_below<R: Rng + ?Sized>(bound: &Nat, rng: &mut R) -> Nat {
        assert!(
            !bound.is_zero(),
            "Nat::random_below: the bound must be positive"
        );
        let bits = bound.bits();
        loop {
            let x = Nat::random_below_pow2(bits, rng);
            if x < *bound {
                return x;
            }
        }
    }
}
