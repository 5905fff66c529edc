//! The RSA primitives of RFC 8017 §5.1: RSAEP / RSAVP1 (the public operation) and RSADP /
//! RSASP1 (the private operation), plain and with the CRT.
//!
//! The private operation with the CRT: blind the input with a random r (c' = c·r^e, formed
//! modulo each prime; r from the key's cached blinding pair, see [`blinding`], or drawn
//! afresh), exponentiate modulo each prime, recombine by Garner's formula
//! (RFC 8017 §5.1.2, multi-prime included), unblind (m = m'·r⁻¹ mod n), check the result
//! against the public exponent (m^e ≡ c modulo every prime, which is m^e ≡ c mod n; against
//! the fault attack of Boneh, DeMillo and Lipton, "On the Importance of Checking
//! Cryptographic Protocols for Faults", 1997), and write the output
//! unconditionally, zeroed by mask if the check failed. The check comes after the unblinding
//! so that it covers the blinding, its inverse and the unblinding multiplication as well as
//! the CRT: whatever goes wrong anywhere, no wrong result leaves. (x ↦ x^e permutes ℤ/n, so
//! out^e ≡ c (mod n) has one solution, c^d: a result that passes is the right one, whatever
//! values, cached or fresh, went into it; [`blinding`] says what a corrupted pair does.)
//!
//! Values move between plain integers and Montgomery form only where they must: a plain x
//! times a residue y comes out plain in one Montgomery multiplication ([`Modulus::mul_retrieve`]),
//! and x^e on plain integers costs one conversion and no REDC
//! ([`Modulus::pow_limbs_vartime`]).
//!
//! [`Modulus::mul_retrieve`]: bignum::modular::Modulus::mul_retrieve
//! [`Modulus::pow_limbs_vartime`]: bignum::modular::Modulus::pow_limbs_vartime

use alloc::{vec, vec::Vec};
use bignum::modular::{PowJob, PowJobVartime, Residue, pow_pair, pow_pair_vartime};
use bignum::{Limb, Nat, mpn};
use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

use crate::hazmat::{PrivateOp, PublicOp};
use crate::key::{RsaPrivateKey, RsaPublicKey, be_to_limbs};
use crate::{Error, Result};

mod blinding;

pub(crate) use blinding::BlindingCache;

impl PublicOp for RsaPublicKey {
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
    fn public_op(&self, m: &[u8]) -> Result<Vec<u8>> {
        let x = self.input(m)?;
        // x^e on plain integers: into Montgomery form once, out of it by the last multiply.
        let mut y = vec![0; x.len()];
        self.n_mod.pow_limbs_vartime(&mut y, &x, self.e.as_limbs());
        let mut out = vec![0; self.k];
        mpn::to_be_bytes(&mut out, &y);
        Ok(out)
    }
}

impl RsaPublicKey {
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

impl PrivateOp for RsaPrivateKey {
    /// RSADP / RSASP1 without the CRT: c^d mod n for an input of exactly k bytes below n, the
    /// result as k bytes, checked with the public exponent before it is returned. No blinding
    /// (this is the "private-key operation" of the speed test; use
    /// [`PrivateOp::private_op`]).
    ///
    /// # Constant time
    ///
    /// The exponentiation is constant-time with the bit length of n as d's public length
    /// (d < n); only the verdict of the check leaks.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`], [`Error::InputOutOfRange`] as for
    /// [`PublicOp::public_op`]; [`Error::Fault`] if the result fails its check (no result
    /// is returned then).
    fn private_op_plain(&self, c: &[u8]) -> Result<Vec<u8>> {
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
    /// [`PublicOp::public_op`]; [`Error::Fault`] if the result fails its check (a fault in
    /// the computation): no result is returned then, so a faulty half never leaks a factor.
    fn private_op<R: CryptoRng + ?Sized>(&self, rng: &mut R, c: &[u8]) -> Result<Vec<u8>> {
        let input = self.crt_prepare(rng, c)?;
        #[cfg(feature = "std")]
        if let Some(coalescer) = &self.coalescer.0 {
            // With the other callers of this moment, on the eight lanes (`coalesce`).
            return coalescer.run(self, input);
        }
        let ms = self.crt_exponentiate(&input);
        self.crt_finish(&input, &ms)
    }
}

impl RsaPrivateKey {
    /// The first stage of the CRT private operation (shared by the single and the batch
    /// operation): the input checks, the blinding, the reductions modulo each prime.
    pub(crate) fn crt_prepare<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        c: &[u8],
    ) -> Result<CrtInput> {
        let x = self.crt_input(c)?;
        let blinding = self.blinding_for_op(rng);
        Ok(self.blind_with(&x, blinding))
    }

    /// A fresh blinding: r and s drawn from `rng` (again while r·s is not invertible, with
    /// probability about 2^(1 − bits/2)), r⁻¹ by the blinded inverse
    /// ([`blinded_inverse`](Self::blinded_inverse)), r^e modulo each prime; and whether r ≠ s,
    /// still secret (see `blinding`: a pair whose draws were equal may come from a stuck RNG
    /// and is not cached).
    pub(crate) fn fresh_blinding<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> (Blinding, Choice) {
        loop {
            let draw = self.draw_blinding(rng);
            // Leaks: whether r·s shared a factor with n (or was 0), which happens with
            // negligible probability; r and s are then discarded.
            if let Some(r_inv) = self.blinded_inverse(&draw.r, &draw.s) {
                let apart = !draw.r.ct_eq(&draw.s);
                return (self.blinding_of(&draw.r, r_inv), apart);
            }
        }
    }

    /// The first stage's input checks ([`Error::InvalidLength`], [`Error::InputOutOfRange`]):
    /// the input as limbs, for [`blind_with`](Self::blind_with).
    pub(crate) fn crt_input(&self, c: &[u8]) -> Result<Zeroizing<Vec<Limb>>> {
        self.public.input(c)
    }

    /// The random values of one blinding, the part of a fresh blinding that needs the RNG: r,
    /// uniform in [0, n), and s, which masks r in its inverse (see
    /// [`blinded_inverse`](Self::blinded_inverse)), both in n's Montgomery form.
    pub(crate) fn draw_blinding<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> BlindingDraw {
        let n_mod = &self.public.n_mod;
        let r = n_mod.random(rng);
        let s = n_mod.random(rng);
        BlindingDraw { r, s }
    }

    /// The blinding pair of r (n's Montgomery form; r_inv its inverse): r^e is formed modulo
    /// each prime ((r mod r_i)^e), which costs about half of r^e mod n: the exponentiation by
    /// e is on values of half the length; p and q as one pair where the 52-bit engine runs.
    fn blinding_of(&self, r: &Residue, r_inv: Residue) -> Blinding {
        let r_e = self.pow_e_mod_each_prime(&self.public.n_mod.retrieve(r));
        Blinding { r_e, r_inv }
    }

    /// The blinding of a checked input x by r (n's Montgomery form; r_inv its inverse), and
    /// the reductions of x modulo each prime: the fresh path's stages one by one, for the
    /// test hooks' stage timings.
    #[cfg(feature = "test-hooks")]
    pub(crate) fn blind(&self, x: &[Limb], r: &Residue, r_inv: Residue) -> CrtInput {
        self.blind_with(x, self.blinding_of(r, r_inv))
    }

    /// The blinding of a checked input x by a blinding whose r^e is given modulo each prime,
    /// and the reductions of x modulo each prime: c'_i = (c mod r_i)·(r^e mod r_i).
    pub(crate) fn blind_with(&self, x: &[Limb], blinding: Blinding) -> CrtInput {
        // c mod r_i, kept for the check at the end; through the secret moduli's constant-time
        // reduction.
        let xs: Vec<Residue> = self.primes.iter().map(|p| p.m.reduce(x)).collect();
        let blinded: Vec<Residue> = self
            .primes
            .iter()
            .zip(xs.iter().zip(&blinding.r_e))
            .map(|(p, (xi, rei))| p.m.mul(xi, rei))
            .collect();
        CrtInput {
            xs,
            blinded,
            r_inv: blinding.r_inv,
        }
    }

    /// The exponentiations of the CRT private operation, one per prime: c'^(d_i) mod r_i.
    pub(crate) fn crt_jobs<'a>(&'a self, input: &'a CrtInput) -> Vec<PowJob<'a>> {
        self.primes
            .iter()
            .zip(&input.blinded)
            .map(|(p, base)| PowJob {
                modulus: &p.m,
                base,
                exp: &p.exp,
                exp_bits: p.m.bits(),
            })
            .collect()
    }

    /// RFC 8017 §5.1.2, step 2.b.i: m_i = c'^(d_i) mod r_i; the first two (p and q) as one
    /// interleaved pair where the 52-bit engine runs (`bignum::modular::pow_pair`).
    pub(crate) fn crt_exponentiate(&self, input: &CrtInput) -> Vec<Residue> {
        let jobs = self.crt_jobs(input);
        let (m1, m2) = pow_pair(&jobs[0], &jobs[1]);
        let mut ms = vec![m1, m2];
        ms.extend(
            jobs[2..]
                .iter()
                .map(|j| j.modulus.pow(j.base, j.exp, j.exp_bits)),
        );
        ms
    }

    /// The last stage of the CRT private operation: Garner's recombination of the
    /// exponentiations' results `ms` (one per prime), the unblinding, the fault check and the
    /// output.
    pub(crate) fn crt_finish(&self, input: &CrtInput, ms: &[Residue]) -> Result<Vec<u8>> {
        let m = self.garner(ms);
        let out = self.unblind(input, &m);
        let ok = self.check(input, &out);
        let result = self.output(&out, ok);
        if result.is_err() {
            // The verdict is public (`output`). The fault may have been in the cached
            // blinding pair: drop it, so that the next operation draws a fresh one rather than
            // fault again on the pair's squares.
            self.forget_blinding();
        }
        result
    }

    /// Garner's recombination of the exponentiations' results `ms` (one per prime): the value
    /// below n that they are modulo each prime, plain, in at least n's limbs plus one.
    pub(crate) fn garner(&self, ms: &[Residue]) -> Zeroizing<Vec<Limb>> {
        let nl = self.public.n_mod.limb_len();
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
        for (ri, mi) in self.primes.iter().zip(ms).skip(2) {
            let diff = ri.m.sub(mi, &ri.m.reduce(&m));
            let h = ri.m.retrieve(&ri.m.mul(&diff, coeff(ri)));
            add_into(&mut m, &crate::key::private_mul(&ri.product, &h));
        }
        m
    }

    /// The unblinding: m'·r⁻¹ mod n, plain (n limbs). Garner's m' is below n (a value modulo
    /// the product of the primes), so its low n limbs are all of it (the rest are zero).
    pub(crate) fn unblind(&self, input: &CrtInput, m: &[Limb]) -> Zeroizing<Vec<Limb>> {
        let n_mod = &self.public.n_mod;
        let nl = n_mod.limb_len();
        let mut out = Zeroizing::new(vec![0; nl]);
        n_mod.mul_retrieve(&mut out, &input.r_inv, &m[..nl]);
        out
    }

    /// The fault check, before anything leaves: out^e ≡ c modulo every prime, which by the
    /// CRT is out^e ≡ c (mod n), at about half the cost of the check modulo n.
    pub(crate) fn check(&self, input: &CrtInput, out: &[Limb]) -> Choice {
        let mut ok = Choice::from(1);
        for (oe, xi) in self.pow_e_mod_each_prime(out).iter().zip(&input.xs) {
            ok &= oe.ct_eq(xi);
        }
        ok
    }

    /// x^e modulo each prime, for a plain x (n limbs, secret): the first two as one interleaved
    /// pair where the 52-bit engine runs (`bignum::modular::pow_pair_vartime`; e is public).
    fn pow_e_mod_each_prime(&self, x: &[Limb]) -> Vec<Residue> {
        let e = self.public.e.as_limbs();
        let bases: Vec<Residue> = self.primes.iter().map(|p| p.m.reduce(x)).collect();
        let job = |i: usize| PowJobVartime {
            modulus: &self.primes[i].m,
            base: &bases[i],
            exp: e,
        };
        let (a, b) = pow_pair_vartime(&job(0), &job(1));
        let mut out = vec![a, b];
        out.extend((2..self.primes.len()).map(|i| self.primes[i].m.pow_vartime(&bases[i], e)));
        out
    }

    /// r⁻¹ = (r·s)⁻¹·s mod n, or none if r·s is not invertible.
    ///
    /// The inverse is blinded (as BoringSSL's `bn_mod_inverse_blinded`): a = r·s mod n is
    /// uniform and independent of r, so it may be declassified and inverted in variable time
    /// (Lehmer's extended Euclid, [`Nat::inv_mod_vartime`]); then r⁻¹ = a⁻¹·s. The
    /// constant-time inverse of `bignum::modular` costs more than the CRT exponentiations
    /// themselves at 2048 bits.
    ///
    /// Not checked here (r·r⁻¹ = 1 would cost a multiplication): the private operation
    /// checks its final result with the public exponent after unblinding, so a wrong inverse
    /// could only ever turn into [`Error::Fault`], never into a wrong output.
    ///
    /// Never inlined: the constant-time check (`.ci/ct-check`) names this function in the
    /// valgrind suppression of the declassified a.
    #[inline(never)]
    pub(crate) fn blinded_inverse(&self, r: &Residue, s: &Residue) -> Option<Residue> {
        let n_mod = &self.public.n_mod;
        let a = Nat::from_limbs(&n_mod.retrieve(&n_mod.mul(r, s)));
        let a_inv = a.inv_mod_vartime(&self.public.n)?;
        Some(n_mod.mul(&n_mod.reduce(a_inv.as_limbs()), s))
    }

    /// The result (n plain limbs) as k bytes if `ok`, else [`Error::Fault`] with the buffer
    /// zeroed by mask.
    ///
    /// Never inlined: the constant-time check (`.ci/ct-check`) names this function in the
    /// valgrind suppression of its one declassified bit.
    #[inline(never)]
    pub(crate) fn output(&self, m: &[Limb], ok: Choice) -> Result<Vec<u8>> {
        let mut out = vec![0; self.public.k];
        mpn::to_be_bytes(&mut out, m);
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

/// The random values of one blinding ([`RsaPrivateKey::draw_blinding`]); wiped on drop (the
/// residues wipe themselves).
pub(crate) struct BlindingDraw {
    pub(crate) r: Residue,
    pub(crate) s: Residue,
}

/// One operation's blinding: r^e modulo each prime (in each prime's Montgomery form) and
/// r⁻¹ mod n (in n's). Secret; wiped on drop (its parts are [`Residue`]s). Cloned only out of
/// the key's cache ([`BlindingCache`]), for one operation.
#[derive(Clone)]
pub(crate) struct Blinding {
    /// r^e mod r_i, one per prime.
    pub(crate) r_e: Vec<Residue>,
    /// r⁻¹ mod n.
    pub(crate) r_inv: Residue,
}

/// A CRT private operation's input after [`RsaPrivateKey::crt_prepare`]: what the
/// exponentiations and [`RsaPrivateKey::crt_finish`] need. Secret; wiped on drop (its parts
/// are [`Residue`]s).
pub(crate) struct CrtInput {
    /// c mod r_i, for the fault check.
    xs: Vec<Residue>,
    /// The blinded input c' mod r_i: the exponentiations' bases.
    blinded: Vec<Residue>,
    /// r⁻¹ mod n, in Montgomery form, for the unblinding.
    r_inv: Residue,
}

#[cfg(feature = "test-hooks")]
impl CrtInput {
    /// The blinded input modulo the first prime doubled: the exponentiation then gives a wrong
    /// half, which the fault check must catch (the coalescing tests' per-item fault).
    pub(crate) fn corrupt_for_tests(&mut self, key: &RsaPrivateKey) {
        let m = &key.primes[0].m;
        self.blinded[0] = m.add(&self.blinded[0], &self.blinded[0]);
    }

    /// The blinded input dropped: the exponentiations then find no base and panic (the
    /// coalescing tests' request whose arithmetic panics).
    pub(crate) fn poison_for_tests(&mut self) {
        self.blinded.clear();
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
    let c = mpn::add_assign_n(lo, b);
    mpn::add_assign_1(hi, c);
}
