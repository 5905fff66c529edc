//! The RSA primitives of RFC 8017 §5.1: RSAEP / RSAVP1 (the public operation) and RSADP /
//! RSASP1 (the private operation), plain and with the CRT.
//!
//! The private operation with the CRT follows the order of STYLE §3: blind the input with a
//! fresh random r (c' = c·r^e mod n), exponentiate modulo each prime, recombine by Garner's
//! formula (RFC 8017 §5.1.2, multi-prime included), check the result against the public
//! exponent (m'^e ≡ c' mod n, against the fault attack of Boneh, DeMillo and Lipton, "On the
//! Importance of Checking Cryptographic Protocols for Faults", 1997), unblind (m = m'·r⁻¹),
//! and write the output unconditionally, zeroed by mask if the check failed.

use bignum::Limb;
use bignum::modular::Residue;
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
        let n_mod = &self.n_mod;
        let r = n_mod.pow_vartime(&n_mod.reduce(&x), self.e.as_limbs());
        let mut out = vec![0; self.k];
        n_mod.retrieve_be_bytes(&r, &mut out);
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
        if c >= self.n.to_be_bytes().as_slice() {
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
        let c = n_mod.reduce(&x);
        let m = n_mod.pow(&c, &self.d, n_mod.bits());
        let ok = n_mod.pow_vartime(&m, self.public.e.as_limbs()).ct_eq(&c);
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

        // Blinding: a random r, invertible modulo n; c' = c·r^e mod n.
        let (r, r_inv) = self.blinding_pair(rng);
        let cb = n_mod.mul(&n_mod.reduce(&x), &n_mod.pow_vartime(&r, e));
        let cb_limbs = n_mod.retrieve(&cb);

        // RFC 8017 §5.1.2, step 2.b.i: m_i = c'^(d_i) mod r_i; c' mod r_i through the secret
        // modulus's constant-time reduction.
        let mut ms: Vec<Residue> = self
            .primes
            .iter()
            .map(|p| p.m.pow(&p.m.reduce(&cb_limbs), &p.exp, p.m.bits()))
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

        // m < n: into n's Montgomery form, check m'^e ≡ c' (mod n) before anything leaves.
        let mb = n_mod.reduce(&m);
        let ok = n_mod.pow_vartime(&mb, e).ct_eq(&cb);
        // Unblind: m = m'·r⁻¹ mod n.
        let out = n_mod.mul(&mb, &r_inv);
        drop(r);
        self.output(&out, ok)
    }

    /// A random r in [1, n) invertible modulo n, and r⁻¹, both in n's Montgomery form.
    fn blinding_pair<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> (Residue, Residue) {
        let n_mod = &self.public.n_mod;
        // 64 extra bits make r mod n statistically close to uniform.
        let mut bytes = Zeroizing::new(vec![0u8; self.public.k + 8]);
        loop {
            rng.fill_bytes(&mut bytes);
            let r = n_mod.reduce_be_bytes(&bytes);
            let inv: Option<Residue> = n_mod.inv(&r).into();
            // Leaks: whether r shared a factor with n (or was 0), which happens with
            // negligible probability and says nothing about the key's secrets but a factor,
            // which the loop then discards.
            if let Some(inv) = inv {
                return (r, inv);
            }
        }
    }

    /// The result as k bytes if `ok`, else [`Error::Fault`] with the buffer zeroed by mask.
    fn output(&self, m: &Residue, ok: Choice) -> Result<Vec<u8>> {
        let mut out = vec![0; self.public.k];
        self.public.n_mod.retrieve_be_bytes(m, &mut out);
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
