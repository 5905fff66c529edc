//! The machine word and the single-word operations every kernel is built from.
//!
//! All functions here are branch-free: their time does not depend on the values.
//! Carries and borrows are [`Limb`]s holding 0 or 1; [`mask`] turns one into all-zeros or all-ones.

/// One machine word of a multi-precision number (least significant limb first in slices).
pub type Limb = u64;

internal! {
    /// A double-width word, for products and carries.
    pub(crate) type Wide = u128;

    /// Bits in a [`Limb`].
    pub(crate) const LIMB_BITS: u32 = Limb::BITS;

    /// Bytes in a [`Limb`].
    pub(crate) const LIMB_BYTES: usize = core::mem::size_of::<Limb>();

    /// The low and high halves of a double-width word.
    #[inline(always)]
    #[allow(clippy::cast_possible_truncation)] // splitting a Wide in two is the point
    pub(crate) const fn split(w: Wide) -> (Limb, Limb) {
        (w as Limb, (w >> LIMB_BITS) as Limb)
    }

    /// `a + b + carry` as (sum, carry out); `carry` must be 0 or 1, the carry out is 0 or 1.
    #[inline(always)]
    pub(crate) const fn adc(a: Limb, b: Limb, carry: Limb) -> (Limb, Limb) {
        let (s1, c1) = a.overflowing_add(b);
        let (s2, c2) = s1.overflowing_add(carry);
        (s2, (c1 | c2) as Limb)
    }

    /// `a - b - borrow` as (difference, borrow out); `borrow` must be 0 or 1, the borrow out is 0 or 1.
    #[inline(always)]
    pub(crate) const fn sbb(a: Limb, b: Limb, borrow: Limb) -> (Limb, Limb) {
        let (d1, b1) = a.overflowing_sub(b);
        let (d2, b2) = d1.overflowing_sub(borrow);
        (d2, (b1 | b2) as Limb)
    }

    /// The full product `a · b` as (low, high).
    #[inline(always)]
    pub(crate) const fn mul_wide(a: Limb, b: Limb) -> (Limb, Limb) {
        split(a as Wide * b as Wide)
    }

    /// `acc + a · b + carry` as (low, high). Cannot overflow: (2⁶⁴-1)² + 2·(2⁶⁴-1) = 2¹²⁸-1.
    #[inline(always)]
    pub(crate) const fn mac(acc: Limb, a: Limb, b: Limb, carry: Limb) -> (Limb, Limb) {
        split(acc as Wide + a as Wide * b as Wide + carry as Wide)
    }
}

/// All-ones if `c` is 1, zero if `c` is 0 (`c` must be 0 or 1), hidden from the optimiser: the
/// one mask function of secret code.
///
/// `0 - c` alone lets LLVM see that the mask is 0 or all-ones and turn `x & mask` back into a
/// branch or a jump over a loop (the valgrind check caught exactly that, in the table gather,
/// the gcd and the conditional additions); `black_box` makes the mask an opaque value. It costs
/// a store and a load per mask, so masks are made once per condition, not once per limb.
#[inline(always)]
pub fn mask(c: Limb) -> Limb {
    core::hint::black_box(0u64.wrapping_sub(c))
}

internal! {
    /// `a` where `m` is all-ones, `b` where `m` is zero (`m` from [`mask`]).
    #[inline(always)]
    pub(crate) const fn select(m: Limb, a: Limb, b: Limb) -> Limb {
        (a & m) | (b & !m)
    }

    /// 1 if `x` is zero, else 0, without a branch.
    #[inline(always)]
    pub(crate) const fn is_zero(x: Limb) -> Limb {
        // The top bit of !x & (x - 1) is set exactly when x = 0.
        (!x & x.wrapping_sub(1)) >> (LIMB_BITS - 1)
    }

    /// 1 if `a < b`, else 0, without a branch.
    #[inline(always)]
    pub(crate) const fn lt(a: Limb, b: Limb) -> Limb {
        sbb(a, b, 0).1
    }

    /// The multiplicative inverse of an odd `d` modulo 2⁶⁴ (Newton: each step doubles the good bits).
    #[inline]
    pub(crate) const fn inv(d: Limb) -> Limb {
        // d·d ≡ 1 (mod 8) for odd d: 3 good bits, then 6, 12, 24, 48, 96.
        let mut x = d;
        let mut i = 0;
        while i < 5 {
            x = x.wrapping_mul(2u64.wrapping_sub(d.wrapping_mul(x)));
            i += 1;
        }
        x
    }
}
