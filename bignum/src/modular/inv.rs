//! Constant-time modular inversion modulo an odd number: a binary extended gcd with a fixed
//! iteration count.
//!
//! The algorithm is the one of GMP's `mpn_sec_invert` (Niels Möller): keep
//! a ≡ u·x and b ≡ v·x (mod m) with b odd, starting from (a, b, u, v) = (x, m, 1, 0); each step
//! subtracts b from a when a is odd (swapping them first, by mask, when a < b) and halves a
//! (u is halved modulo m alongside). Each step lowers bits(a) + bits(b) by at least one while
//! a ≠ 0, so 2·64·n steps bring a to 0, leaving b = gcd(x, m) and v = x⁻¹ when that gcd is 1.

use alloc::vec;
use subtle::CtOption;
use zeroize::Zeroizing;

use crate::limb::{self, Limb};
use crate::mpn;

use super::{Modulus, Residue, ct, mont};

/// r = x⁻¹ mod m for x < m, m odd, all of length n; returns 1 if the inverse exists
/// (gcd(x, m) = 1), else 0 (and r is then meaningless).
///
/// Time depends on n only: 128·n steps of masked n-limb additions, swaps and shifts.
pub(crate) fn inv_odd(r: &mut [Limb], x: &[Limb], m: &[Limb]) -> Limb {
    let n = m.len();
    invariant!(x.len() == n && r.len() == n);
    let mut a = Zeroizing::new(x.to_vec());
    let mut b = Zeroizing::new(m.to_vec());
    let mut u = Zeroizing::new(vec![0; n]);
    u[0] = 1;
    let v = r;
    v.fill(0);
    // (m + 1)/2 = (m >> 1) + 1 for odd m: adding it halves an odd u modulo m.
    let mut half = Zeroizing::new(vec![0; n]);
    mpn::rshift(&mut half, m, 1);
    mpn::add_assign_1(&mut half, 1);

    for _ in 0..2 * 64 * n {
        let odd = limb::mask(a[0] & 1);
        let swap = limb::mask(ct::cnd_sub_assign(odd, &mut a, &b));
        // On a borrow: b = a_old (= b + (a - b)), a = b_old - a_old, and u, v trade places.
        ct::cnd_add_assign(swap, &mut b, &a);
        ct::cnd_neg_assign(swap, &mut a);
        ct::cnd_swap(swap, &mut u, v);
        let borrow = ct::cnd_sub_assign(odd, &mut u, v);
        ct::cnd_add_assign(limb::mask(borrow), &mut u, m);
        // a is even now; halve it, and u modulo m.
        mpn::rshift_assign(&mut a, 1);
        let u_odd = limb::mask(u[0] & 1);
        mpn::rshift_assign(&mut u, 1);
        ct::cnd_add_assign(u_odd, &mut u, &half);
    }
    // b = gcd(x, m): invertible iff b = 1.
    limb::is_zero(b[0] ^ 1) & ct::is_zero(&b[1..])
}

impl Modulus {
    /// a⁻¹ mod m, or none if gcd(a, m) ≠ 1 (including a ≡ 0).
    ///
    /// Binary extended gcd with 128·n fixed steps on the Montgomery form a·R (giving a⁻¹·R⁻¹),
    /// then two Montgomery multiplications by R² to get a⁻¹·R.
    ///
    /// # Constant time
    ///
    /// Depends on n only, whether or not the inverse exists.
    ///
    /// # Panics
    ///
    /// If `a` belongs to another modulus (any other, in every build).
    pub fn inv(&self, a: &Residue) -> CtOption<Residue> {
        self.check(a);
        let n = self.limb_len();
        let (m, minv) = (self.as_limbs(), self.minv());
        let mut x = Zeroizing::new(vec![0; n]);
        let ok = inv_odd(&mut x, &a.limbs, m);
        let mut scratch = Zeroizing::new(vec![0; mont::mul_scratch_len(n)]);
        let mut y = Zeroizing::new(vec![0; n]);
        mont::mul(&mut y, self.r2(), &x, m, minv, &mut scratch);
        let mut r = vec![0; n];
        mont::mul(&mut r, self.r2(), &y, m, minv, &mut scratch);
        CtOption::new(self.residue(r), ct::choice_of(ok))
    }
}
