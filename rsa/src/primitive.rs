//! The RSA primitives of RFC 8017 §5.1: RSAEP / RSAVP1 (the public operation) and RSADP /
//! RSASP1 (the private operation), plain and with the CRT.
//!
//! The private operation with the CRT: blind the input with a fresh random r (c' = c·r^e mod
//! n), exponentiate modulo each prime, recombine by Garner's formula (RFC 8017 §5.1.2,
//! multi-prime included), unblind (m = m'·r⁻¹), check the result against the public exponent
//! (m^e ≡ c mod n, against the fault attack of Boneh, DeMillo and Lipton, "On the Importance
//! of Checking Cryptographic Protocols for Faults", 1997), and write the output
//! unconditionally, zeroed by mask if the check failed. The check comes after the unblinding
//! so that it covers the blinding, its inverse and the unblinding multiplication as well as
//! the CRT: whatever goes wrong anywhere, no wrong result leaves.
//!
//! Values move between plain integers and Montgomery form only where they must: a plain x
//! times a residue y comes out plain in one Montgomery multiplication ([`Modulus::mul_retrieve`]),
//! and x^e on plain integers costs one conversion and no REDC
//! ([`Modulus::pow_limbs_vartime`]).
//!
//! [`Modulus::mul_retrieve`]: bignum::modular::Modulus::mul_retrieve
//! [`Modulus::pow_limbs_vartime`]: bignum::modular::Modulus::pow_limbs_vartime

use bignum::modular::Residue;
use bignum::{Limb, Nat, mpn};
use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

use crate::key::{RsaPrivateKey, RsaPublicKey, be_to_limbs};
use crate::{Error, Result};

impl RsaPublicKey {
    /// RSAEP / RSAVP1: m^e mod n for an input of exactly k bytes (the modulus length),
    /// big-endian, below n; the result as k bytes.
    ///
    /// # Constant time
    ///
    /// No in e (public); the input is treated as public (a message representative that is
    /// about to be sent, or a signature).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`] if `m` is not k bytes, [`Error::InputOutOfRange`] if m ≥ n.
    pub fn public_op(&self, m: &[u8]) -> Result<Vec<u8>> {
        let x = self.input(m)?;
        // x^e on plain integers: into Montgomery form once, out of it by the last multiply.
        let mut y = vec![0; x.len()];
        self.n_mod.pow_limbs_vartime(&mut y, &x, self.e.as_limbs());
        let mut out = vec![0; self.k];
        limbs_to_be_bytes(&y, &mut out);
        Ok(out)
    }

    /// The input as limbs after the checks: exactly k bytes, below n.
    fn input(&self, c: &[u8]) -> Result<Zeroizing<Vec<Limb>>> {
        if c.len() != self.k {
            return Err(Error::InvalidLength {
                expected: self.k,
                actual: c.len(),
            });
        }
        // Both are k bytes big-endian: the byte order is the numeric order. The input is
        // public (a ciphertext or a signature), so this comparison may take variable time.
        if c >= self.n_be.as_slice() {
            return Err(Error::InputOutOfRange);
        }
        be_to_limbs(c, self.n_mod.limb_len()).ok_or(Error::InputOutOfRange)
    }
}

impl RsaPrivateKey {
    /// RSADP / RSASP1 without the CRT: c^d mod n for an input of exactly k bytes below n, the
    /// result as k bytes, checked with the public exponent before it is returned. No blinding
    /// (this is the "private-key operation" of the speed test; use
    /// [`RsaPrivateKey::private_op`]).
    ///
    /// # Constant time
    ///
    /// The exponentiation is constant-time with the bit length of n as d's public length
    /// (d < n); only the verdict of the check leaks.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`], [`Error::InputOutOfRange`] as for
    /// [`RsaPublicKey::public_op`]; [`Error::Fault`] if the result fails its check (no result
    /// is returned then).
    pub fn private_op_plain(&self, c: &[u8]) -> Result<Vec<u8>> {
        let x = self.public.input(c)?;
        let n_mod = &self.public.n_mod;
        let m = n_mod.retrieve(&n_mod.pow(&n_mod.reduce(&x), &self.d, n_mod.bits()));
        let mut check = Zeroizing::new(vec![0; m.len()]);
        n_mod.pow_limbs_vartime(&mut check, &m, self.public.e.as_limbs());
        let ok = check.as_slice().ct_eq(x.as_slice());
        self.output(&m, ok)
    }

    /// RSADP / RSASP1 with the CRT (RFC 8017 §5.1.2, Garner's recombination, multi-prime
    /// included), base blinding with a fresh random r from `rng`, and a check of the result
    /// with the public exponent before it is returned: c^d mod n for an input of exactly k
    /// bytes below n, the result as k bytes.
    ///
    /// # Constant time
    ///
    /// Depends on the bit lengths of n and of the primes, on e, and on the (public) input
    /// only; the verdict of the fault check leaks, as does whether a random r had to be drawn
    /// again because it was not invertible (with probability about 2^(1 − bits/2)).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`], [`Error::InputOutOfRange`] as for
    /// [`RsaPublicKey::public_op`]; [`Error::Fault`] if the result fails its check (a fault in
    /// the computation): no result is returned then, so a faulty half never leaks a factor.
    pub fn private_op<R: CryptoRng + ?Sized>(&self, rng: &mut R, c: &[u8]) -> Result<Vec<u8>> {
        self.private_op_crt(rng, c, false)
    }

    /// [`RsaPrivateKey::private_op`] with a fault injected in the half modulo p, for the test
    /// that proves the fault check works (it must return [`Error::Fault`]). Not for use.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::private_op`]; with the fault, [`Error::Fault`].
    #[doc(hidden)]
    pub fn private_op_with_injected_fault<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        c: &[u8],
    ) -> Result<Vec<u8>> {
        self.private_op_crt(rng, c, true)
    }

    fn private_op_crt<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        c: &[u8],
        fault: bool,
    ) -> Result<Vec<u8>> {
        let x = self.public.input(c)?;
        let n_mod = &self.public.n_mod;
        let e = self.public.e.as_limbs();
        let nl = n_mod.limb_len();

        // Blinding: a fresh random r, invertible modulo n; c' = c·r^e mod n, plain (the plain c
        // times the residue r^e comes out of Montgomery form in the one multiplication).
        let (r, r_inv) = self.blinding_pair(rng);
        let mut cb = Zeroizing::new(vec![0; nl]);
        n_mod.mul_retrieve(&mut cb, &n_mod.pow_vartime(&r, e), &x);
        drop(r);

        // RFC 8017 §5.1.2, step 2.b.i: m_i = c'^(d_i) mod r_i; c' mod r_i through the secret
        // modulus's constant-time reduction.
        let mut ms: Vec<Residue> = self
            .primes
            .iter()
            .map(|p| p.m.pow(&p.m.reduce(&cb), &p.exp, p.m.bits()))
            .collect();
        if fault {
            let p = &self.primes[0].m;
            ms[0] = p.add(&ms[0], &p.one());
        }

        // Step 2.b.ii–iii: h = (m_1 − m_2)·qInv mod p, m = m_2 + q·h.
        let (p, q) = (&self.primes[0], &self.primes[1]);
        let m2 = q.m.retrieve(&ms[1]);
        let diff = p.m.sub(&ms[0], &p.m.reduce(&m2));
        let h = p.m.retrieve(&p.m.mul(&diff, coeff(p)));
        let total: usize = self.primes.iter().map(|p| p.m.limb_len()).sum();
        let mut m = Zeroizing::new(vec![0; total.max(nl) + 1]);
        let qh = crate::key::private_mul(q.m.as_limbs(), &h);
        add_into(&mut m, &qh);
        add_into(&mut m, &m2);
        // Step 2.b.iv (multi-prime): for i ≥ 3, h = (m_i − m)·t_i mod r_i, m = m + R_i·h,
        // with R_i = r_1·…·r_(i−1).
        for (ri, mi) in self.primes.iter().zip(&ms).skip(2) {
            let diff = ri.m.sub(mi, &ri.m.reduce(&m));
            let h = ri.m.retrieve(&ri.m.mul(&diff, coeff(ri)));
            add_into(&mut m, &crate::key::private_mul(&ri.product, &h));
        }

        // Unblind: m'·r⁻¹ mod n, plain. Garner's m' is below n (a value modulo the product
        // of the primes), so its low n limbs are all of it (the rest are zero limbs).
        let mut out = Zeroizing::new(vec![0; nl]);
        n_mod.mul_retrieve(&mut out, &r_inv, &m[..nl]);
        // The check, before anything leaves: out^e ≡ c (mod n), on plain integers.
        let mut check = Zeroizing::new(vec![0; nl]);
        n_mod.pow_limbs_vartime(&mut check, &out, e);
        let ok = check.as_slice().ct_eq(x.as_slice());
        self.output(&out, ok)
    }

    /// A random r in [1, n) invertible modulo n, in n's Montgomery form (uniform below n, so
    /// r is too), and r⁻¹, in Montgomery form.
    ///
    /// The inverse is blinded (as BoringSSL's `bn_mod_inverse_blinded`): with a second random
    /// s, a = r·s mod n is uniform and independent of r, so it may be declassified and
    /// inverted in variable time (Lehmer's extended Euclid, [`inv_mod_vartime`]); then
    /// r⁻¹ = a⁻¹·s. The constant-time inverse of `bignum::modular` costs more than the CRT
    /// exponentiations themselves at 2048 bits.
    fn blinding_pair<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> (Residue, Residue) {
        let n_mod = &self.public.n_mod;
        loop {
            let r = n_mod.random(rng);
            let s = n_mod.random(rng);
            // Leaks: whether r·s shared a factor with n (or was 0), which happens with
            // negligible probability; r and s are then discarded.
            if let Some(r_inv) = self.blinded_inverse(&r, &s) {
                return (r, r_inv);
            }
        }
    }

    /// r⁻¹ = (r·s)⁻¹·s mod n, or none if r·s is not invertible: a = r·s is uniform whatever r
    /// is (s is uniform and secret), so it is declassified and inverted in variable time.
    ///
    /// Not checked here (r·r⁻¹ = 1 would cost a multiplication): the private operation
    /// checks its final result with the public exponent after unblinding, so a wrong inverse
    /// could only ever turn into [`Error::Fault`], never into a wrong output.
    ///
    /// Never inlined: the constant-time check (`.ci/ct-check`) names this function in the
    /// valgrind suppression of the declassified a.
    #[inline(never)]
    fn blinded_inverse(&self, r: &Residue, s: &Residue) -> Option<Residue> {
        let n_mod = &self.public.n_mod;
        let a = Nat::from_limbs(&n_mod.retrieve(&n_mod.mul(r, s)));
        let a_inv = inv_mod_vartime(&a, &self.public.n)?;
        Some(n_mod.mul(&n_mod.reduce(a_inv.as_limbs()), s))
    }

    /// The result (n plain limbs) as k bytes if `ok`, else [`Error::Fault`] with the buffer
    /// zeroed by mask.
    ///
    /// Never inlined: the constant-time check (`.ci/ct-check`) names this function in the
    /// valgrind suppression of its one declassified bit.
    #[inline(never)]
    fn output(&self, m: &[Limb], ok: Choice) -> Result<Vec<u8>> {
        let mut out = vec![0; self.public.k];
        limbs_to_be_bytes(m, &mut out);
        let keep = 0u8.wrapping_sub(ok.unwrap_u8());
        for b in out.iter_mut() {
            *b &= keep;
        }
        // Leaks: whether the private operation faulted, which is the function's output.
        if bool::from(ok) {
            Ok(out)
        } else {
            Err(Error::Fault)
        }
    }
}

/// `limbs` (little-endian) as exactly `out.len()` big-endian bytes: the high bytes of a value
/// too long for `out` are dropped, a short one is zero-padded.
///
/// # Constant time
///
/// Depends on the lengths only.
fn limbs_to_be_bytes(limbs: &[Limb], out: &mut [u8]) {
    out.fill(0);
    for (chunk, l) in out.rchunks_mut(8).zip(limbs) {
        let bytes = l.to_be_bytes();
        chunk.copy_from_slice(&bytes[8 - chunk.len()..]);
    }
}

/// The CRT coefficient of a prime that has one (p and r_i, i ≥ 3).
fn coeff(p: &crate::key::CrtPrime) -> &Residue {
    p.coeff
        .as_ref()
        .expect("p and every prime after q carry a coefficient")
}

/// acc += b, `acc` longer than `b`, the sum fitting `acc` (carry propagated over its length).
fn add_into(acc: &mut [Limb], b: &[Limb]) {
    let (lo, hi) = acc.split_at_mut(b.len());
    let c = bignum::mpn::add_assign_n(lo, b);
    bignum::mpn::add_assign_1(hi, c);
}

/// x⁻¹ mod n for PUBLIC x and odd n > x, or none if gcd(x, n) ≠ 1: Lehmer's extended Euclid
/// (Knuth, TAOCP vol. 2, §4.5.2, Algorithm L) on the leading 63 bits, the multi-precision
/// updates done in place with `mpn` kernels.
///
/// The cofactors of x alternate in sign along the Euclidean sequence, and so do the entries of
/// each row of a Lehmer matrix, so only their magnitudes are kept (sums, never differences)
/// with the sign of `sa` on the side.
///
/// # Constant time
///
/// No: for public values only.
pub(crate) fn inv_mod_vartime(x: &Nat, n: &Nat) -> Option<Nat> {
    let l = n.as_limbs().len();
    let x = x % n;
    // Invariants: a ≡ ±|sa|·x and b ≡ ∓|sb|·x (mod n), the sign of sa being `sa_neg`; a ≥ b;
    // |sa|, |sb| ≤ n, so l + 1 limbs hold them and their Lehmer combinations.
    let mut a = n.as_limbs().to_vec();
    let mut b = x.to_limbs_padded(l)?;
    let mut sa = vec![0; l + 1];
    let mut sb = vec![0; l + 1];
    sb[0] = 1;
    let mut sa_neg = true;
    let (mut t1, mut t2) = (vec![0; l + 1], vec![0; l + 1]);
    let mut len = l;
    loop {
        len = mpn::normalized_len_vartime(&a[..len]);
        let blen = mpn::normalized_len_vartime(&b[..len]);
        if blen == 0 {
            break;
        }
        let abits = 64 * len - a[len - 1].leading_zeros() as usize;
        let shift = abits.saturating_sub(63);
        let (mut ah, mut bh) = (
            i128::from(bits_at(&a[..len], shift)),
            i128::from(bits_at(&b[..len], shift)),
        );
        // a' = ma·a + mb·b, b' = mc·a + md·b.
        let (mut ma, mut mb, mut mc, mut md) = (1i128, 0i128, 0i128, 1i128);
        loop {
            let (n1, d1, n2, d2) = (ah + ma, bh + mc, ah + mb, bh + md);
            // Stop where Knuth's test is undefined (and, conservatively, on a negative
            // numerator): fewer single-precision steps, never a wrong one. All four are below
            // 2⁶⁴ in magnitude, so u64 division serves (much faster than i128's).
            if d1 <= 0 || d2 <= 0 || n1 < 0 || n2 < 0 {
                break;
            }
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let (q, q2) = (quot(n1 as u64, d1 as u64), quot(n2 as u64, d2 as u64));
            if q != q2 {
                break;
            }
            let q = i128::from(q);
            (ma, mc) = (mc, ma - q * mc);
            (mb, md) = (md, mb - q * md);
            (ah, bh) = (bh, ah - q * bh);
        }
        if mb == 0 {
            // No single-precision step was certain: one full division step,
            // (a, b) ← (b, a − q·b), (sa, sb) ← (sb, sa − q·sb) with |sa − q·sb| = |sa| + q·|sb|.
            let (q, r) = Nat::from_limbs(&a[..len]).div_rem(&Nat::from_limbs(&b[..len]));
            let t = Nat::from_limbs(&sa) + &(&q * &Nat::from_limbs(&sb));
            core::mem::swap(&mut a, &mut b);
            b = r.to_limbs_padded(l)?;
            core::mem::swap(&mut sa, &mut sb);
            sb = t.to_limbs_padded(l + 1)?;
            sa_neg = !sa_neg;
        } else {
            lin(&mut t1[..len], ma, &a[..len], mb, &b[..len]);
            lin(&mut t2[..len], mc, &a[..len], md, &b[..len]);
            a[..len].copy_from_slice(&t1[..len]);
            b[..len].copy_from_slice(&t2[..len]);
            // ma·sa and mb·sb share a sign: sign(ma)·sign(sa) (or, ma = 0, of mb·sb).
            let neg = if ma != 0 {
                (ma < 0) != sa_neg
            } else {
                (mb < 0) == sa_neg
            };
            mag(&mut t1, ma, &sa, mb, &sb);
            mag(&mut t2, mc, &sa, md, &sb);
            sa.copy_from_slice(&t1);
            sb.copy_from_slice(&t2);
            sa_neg = neg;
        }
    }
    if !(a[0] == 1 && a[1..].iter().all(|&v| v == 0)) {
        return None;
    }
    let sa = &Nat::from_limbs(&sa) % n;
    Some(if sa_neg && !sa.is_zero() { n - &sa } else { sa })
}

/// ⌊n / d⌋ for d > 0: by subtraction for quotients up to 3 (about two thirds of the
/// quotients of the Euclidean algorithm, after the Gauss–Kuzmin distribution), which is
/// cheaper than the division instruction; by division beyond.
#[inline]
fn quot(n: u64, d: u64) -> u64 {
    let mut r = n;
    for q in 0..4 {
        if r < d {
            return q;
        }
        r -= d;
    }
    // Public values (the leading bits of a public a and b): `/` is fine.
    #[allow(clippy::integer_division_remainder_used)]
    let q = n / d;
    q
}

/// Bits [shift, shift + 63) of `a` (fewer at the top).
fn bits_at(a: &[Limb], shift: usize) -> u64 {
    let (i, o) = (shift >> 6, shift & 63);
    let lo = a.get(i).copied().unwrap_or(0) >> o;
    let hi = if o == 0 {
        0
    } else {
        a.get(i + 1).copied().unwrap_or(0) << (64 - o)
    };
    (lo | hi) & (u64::MAX >> 1)
}

/// r = c·u + d·v, known to be non-negative and below max(u, v) (Lehmer's update: c and d
/// have opposite signs or one is zero).
fn lin(r: &mut [Limb], c: i128, u: &[Limb], d: i128, v: &[Limb]) {
    #[allow(clippy::cast_possible_truncation)] // |c|, |d| < 2⁶⁴
    let (cu, du) = (c.unsigned_abs() as u64, d.unsigned_abs() as u64);
    // The positive term first, the negative one subtracted; the carry and the borrow cancel.
    let (p, pv, m, mv) = if c >= 0 && d <= 0 {
        (cu, u, du, v)
    } else {
        (du, v, cu, u)
    };
    mpn::mul_1(r, pv, p);
    mpn::submul_1(r, mv, m);
}

/// r = |c|·s + |d|·t (magnitudes of the cofactors; all l + 1 limbs, no overflow as the result
/// is at most n).
fn mag(r: &mut [Limb], c: i128, s: &[Limb], d: i128, t: &[Limb]) {
    #[allow(clippy::cast_possible_truncation)] // |c|, |d| < 2⁶⁴
    let (cu, du) = (c.unsigned_abs() as u64, d.unsigned_abs() as u64);
    mpn::mul_1(r, s, cu);
    mpn::addmul_1(r, t, du);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fixed pseudo-random Nat of `limbs` limbs (SplitMix64).
    fn nat(seed: u64, limbs: usize) -> Nat {
        let mut state = seed;
        let v: Vec<Limb> = (0..limbs)
            .map(|_| {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            })
            .collect();
        Nat::from_limbs(&v)
    }

    #[test]
    #[allow(clippy::integer_division_remainder_used)] // the oracle: public test values
    fn quot_is_integer_division() {
        let mut pairs = vec![
            (0, 1),
            (1, 1),
            (7, 2),
            (u64::MAX, 1),
            (u64::MAX, u64::MAX),
            (9, 3),
        ];
        for seed in 0..5000u64 {
            let n = nat(seed, 1).as_limbs()[0] >> (seed & 63);
            let d = (nat(seed ^ 0x5555, 1).as_limbs()[0] >> (seed.wrapping_mul(7) & 63)).max(1);
            pairs.push((n, d));
            // Quotients 0 to 5 around the subtraction/division boundary.
            let d = d >> 3 | 1;
            for k in 0..6 {
                pairs.push((d.saturating_mul(k), d));
                pairs.push((d.saturating_mul(k).saturating_add(d - 1), d));
            }
        }
        for (n, d) in pairs {
            assert_eq!(quot(n, d), n / d, "{n} / {d}");
        }
    }

    #[test]
    fn inv_mod_vartime_inverts_or_reports_a_common_factor() {
        for seed in 0..2000usize {
            let limbs = 1 + (seed & 31);
            let mut n = nat(seed as u64, limbs);
            n.set_bit(0, true);
            let x = nat(seed as u64 ^ 0xABCD, limbs + (seed & 1)) % &n;
            let g = x.gcd(&n);
            match inv_mod_vartime(&x, &n) {
                Some(y) => {
                    assert!(
                        g.is_one(),
                        "an inverse of a non-invertible value: seed {seed} n {n:x} x {x:x} g {g:x} y {y:x}"
                    );
                    assert!(y < n);
                    assert!(((&x * &y) % &n).is_one() || n.is_one(), "seed {seed}");
                }
                None => assert!(!g.is_one() || n.is_one(), "seed {seed}: no inverse found"),
            }
        }
        // Small edge cases: x = 1, x = n − 1, x = 0.
        let n = Nat::from(1_000_003u64);
        assert!(inv_mod_vartime(&Nat::one(), &n).unwrap().is_one());
        let m1 = &n - 1u64;
        assert_eq!(inv_mod_vartime(&m1, &n).unwrap(), m1);
        assert!(inv_mod_vartime(&Nat::ZERO, &n).is_none());
    }
}
