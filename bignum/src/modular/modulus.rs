//! [`Modulus`]: the Montgomery context of an odd modulus, and arithmetic on its residues.

use alloc::{boxed::Box, vec, vec::Vec};
use core::fmt;

use rand_core::CryptoRng;
use subtle::{Choice, CtOption};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::limb::{self, Limb};
use crate::mpn;
use crate::{Error, Result};

use super::{Residue, ct, mont};

/// The Montgomery context of an odd modulus m ≥ 3 of n limbs: m, m' = -m⁻¹ mod 2⁶⁴,
/// R mod m and R² mod m with R = 2^(64·n), computed once at construction.
///
/// The modulus may be secret (an RSA prime): construction and every operation take time that
/// depends on n only. `Send + Sync + Clone`; wiped on drop; `Debug` prints only the bit length.
///
/// Operations take and return [`Residue`]s, secret values in Montgomery form.
#[derive(Clone)]
pub struct Modulus {
    /// m, n limbs (the high limbs may be zero: the limb count is the public size).
    m: Vec<Limb>,
    /// m' = -m⁻¹ mod 2⁶⁴ (boxed, like every secret part, so that `CtOption<Modulus>`'s inline
    /// bytes are public: the constant-time check declassifies them to unwrap it).
    minv: Box<Limb>,
    /// R mod m, the Montgomery form of 1.
    one: Vec<Limb>,
    /// R² mod m, which takes a value into Montgomery form.
    r2: Vec<Limb>,
    /// The bit length of m (public, as the limb count).
    bits: Limb,
    /// The 52-bit engine's constants for m, where [`Modulus::keep_engine_constants`] kept
    /// them.
    pub(super) engine: Option<Box<super::ifma_engine::EngineConstants>>,
    /// A number given to this context alone (kept by its clones): every residue carries its
    /// context's, and every operation checks it ([`Modulus::check`]), so that residues of two
    /// moduli of the same limb count (RSA's p, q and the r_i) cannot be mixed unnoticed, in
    /// any build.
    id: usize,
}

/// A new context identity ([`Modulus`]'s `id`).
fn next_id() -> usize {
    use core::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Modulus {
    /// The Montgomery context of `m` (little-endian limbs), or none unless m is odd and ≥ 3.
    ///
    /// For a secret modulus (an RSA prime): the context is computed whatever m is, and validity
    /// comes back as the `CtOption`'s choice. No division: R mod m is found by 64·n
    /// constant-time doublings of 1, R² mod m by a few more doublings and Montgomery squarings.
    ///
    /// # Constant time
    ///
    /// Depends on `m.len()` only, including validity.
    ///
    /// # Panics
    ///
    /// If `m` is empty.
    pub fn new(m: &[Limb]) -> CtOption<Self> {
        let n = m.len();
        assert!(n > 0, "Modulus::new: empty modulus");
        let odd = m[0] & 1;
        let is_one = limb::is_zero(m[0] ^ 1) & ct::is_zero(&m[1..]);
        let valid = ct::choice_of(odd & (is_one ^ 1));
        // For an even m the inverse below is garbage, for m = 1 everything is 0: no fault, no
        // branch, and the result is flagged invalid.
        let minv = limb::inv(m[0]).wrapping_neg();

        // R mod m: 64·n doublings of 1 (1 < m), each 2t mod m by one masked subtraction.
        let mut t = vec![0; n];
        t[0] = 1;
        let double = |t: &mut [Limb]| {
            let hi = mpn::lshift_assign(t, 1);
            ct::reduce_once(t, hi, m);
        };
        for _ in 0..64 * n {
            double(&mut t);
        }
        let one = t.clone();

        // R² mod m = R·2^(64·n): write 64·n = s·2^k, double R mod m s more times to get R·2^s,
        // then k Montgomery squarings: (R·2^x)²·R⁻¹ = R·2^(2x).
        let k = (64 * n).trailing_zeros();
        let s = (64 * n) >> k;
        for _ in 0..s {
            double(&mut t);
        }
        let mut scratch = Zeroizing::new(vec![0; mont::sqr_scratch_len(n)]);
        let mut r2 = vec![0; n];
        for _ in 0..k {
            mont::sqr(&mut r2, &t, m, minv, &mut scratch);
            t.copy_from_slice(&r2);
        }
        t.zeroize();
        let modulus = Modulus {
            m: m.to_vec(),
            minv: Box::new(minv),
            one,
            r2,
            bits: ct::bit_len(m),
            engine: None,
            id: next_id(),
        };
        CtOption::new(modulus, valid)
    }

    /// The Montgomery context of a PUBLIC modulus, checked: [`Modulus::new`] with its validity
    /// turned into a `Result` by a branch.
    ///
    /// # Constant time
    ///
    /// As [`Modulus::new`], except for the branch on validity (hence `_vartime`; for secret
    /// moduli use [`Modulus::new`]).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidModulus`] if `m` is empty, even, or 1.
    pub fn new_vartime(m: &[Limb]) -> Result<Self> {
        if m.is_empty() {
            return Err(Error::InvalidModulus);
        }
        Option::from(Self::new(m)).ok_or(Error::InvalidModulus)
    }

    /// The Montgomery context of a big-endian byte string (leading zero bytes allowed; the limb
    /// count is `bytes.len()` rounded up to 8), or none unless it is odd and ≥ 3.
    ///
    /// # Constant time
    ///
    /// As [`Modulus::new`]: depends on `bytes.len()` only.
    ///
    /// # Panics
    ///
    /// If `bytes` is empty.
    pub fn from_be_bytes(bytes: &[u8]) -> CtOption<Self> {
        Self::new(&limbs_from_be_bytes(bytes))
    }

    /// [`Modulus::from_be_bytes`] for a PUBLIC modulus, with validity as a `Result`.
    ///
    /// # Constant time
    ///
    /// As [`Modulus::new_vartime`].
    ///
    /// # Errors
    ///
    /// [`Error::InvalidModulus`] if `bytes` is empty or its value is even or 1.
    pub fn from_be_bytes_vartime(bytes: &[u8]) -> Result<Self> {
        Self::new_vartime(&limbs_from_be_bytes(bytes))
    }

    /// The limb count n (public).
    pub fn limb_len(&self) -> usize {
        self.m.len()
    }

    /// The bit length of m (public, like the limb count).
    #[allow(clippy::cast_possible_truncation)] // at most 64·n, which fits a usize
    pub fn bits(&self) -> usize {
        self.bits as usize
    }

    /// m itself, n little-endian limbs (secret if the modulus is).
    pub fn as_limbs(&self) -> &[Limb] {
        &self.m
    }

    pub(crate) fn minv(&self) -> Limb {
        *self.minv
    }

    pub(crate) fn r2(&self) -> &[Limb] {
        &self.r2
    }

    /// Panics unless `a` is a residue of this modulus: by its limb count and by the context
    /// identity it carries (the same limb count is not enough), in every build.
    pub(crate) fn check(&self, a: &Residue) {
        assert_eq!(a.limbs.len(), self.m.len(), "residue of another modulus");
        assert_eq!(a.modulus, self.id, "residue of another modulus");
    }

    /// The residue of this modulus whose Montgomery form is `limbs` (n limbs, below m).
    pub(crate) fn residue(&self, limbs: Vec<Limb>) -> Residue {
        invariant!(limbs.len() == self.m.len());
        Residue {
            limbs,
            modulus: self.id,
        }
    }

    /// Zero.
    pub fn zero(&self) -> Residue {
        self.residue(vec![0; self.m.len()])
    }

    /// One (R mod m in Montgomery form).
    pub fn one(&self) -> Residue {
        self.residue(self.one.clone())
    }

    /// a mod m, into Montgomery form, for `a` of any length and value (little-endian limbs).
    ///
    /// Horner on n-limb chunks from the top: with acc ≡ x·R (the Montgomery form of the part
    /// seen so far, acc < m) and the next chunk c < R, x·R + c ≡ acc + c, which is below
    /// m + R < 2R: one masked subtraction of m on a carry brings it under R, and one Montgomery
    /// multiplication by R² takes it to (x·R + c)·R. One multiplication per chunk. This is the
    /// reduction to use for a secret modulus (c mod p in RSA-CRT).
    ///
    /// # Constant time
    ///
    /// Depends on `a.len()` and n only.
    pub fn reduce(&self, a: &[Limb]) -> Residue {
        let mut acc = vec![0; self.m.len()];
        self.reduce_into(&mut acc, a);
        self.residue(acc)
    }

    /// [`Modulus::reduce`] into `out` (n limbs, overwritten), allocation-free apart from the
    /// multiplication's scratch.
    fn reduce_into(&self, out: &mut [Limb], a: &[Limb]) {
        let n = self.m.len();
        let mut scratch = Zeroizing::new(vec![0; mont::mul_scratch_len(n)]);
        let mut chunk = Zeroizing::new(vec![0; n]);
        let chunks = a.len().div_ceil(n).max(1);
        out.fill(0);
        for c in (0..chunks).rev() {
            let lo = c * n;
            let hi = (lo + n).min(a.len());
            // chunk = acc + a[lo..hi] (acc = 0 for the top chunk), below R after the masked
            // subtraction of m on a carry (acc < m, so acc + c − m < c < R).
            chunk.fill(0);
            if lo < hi {
                chunk[..hi - lo].copy_from_slice(&a[lo..hi]);
            }
            let carry = mpn::add_assign_n(&mut chunk, out);
            ct::cnd_sub_assign(limb::mask(carry), &mut chunk, &self.m);
            // chunk·R²·R⁻¹ = chunk·R (any n-limb chunk may be the second operand).
            mont::mul(out, &self.r2, &chunk, &self.m, *self.minv, &mut scratch);
        }
    }

    /// The plain value a·b mod m, out of Montgomery form, for a residue `a` and a plain
    /// integer `b` (n limbs, any value, not in Montgomery form): one Montgomery
    /// multiplication, (a·R)·b·R⁻¹ = a·b. Writes n limbs to `out`, fully reduced.
    ///
    /// This fuses a multiplication with [`Modulus::retrieve`] (RSA's unblinding, and c·r^e
    /// with a plain c).
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    ///
    /// # Panics
    ///
    /// If `a` belongs to another modulus (any other, in every build),
    /// or `b` or `out` is not n limbs.
    pub fn mul_retrieve(&self, out: &mut [Limb], a: &Residue, b: &[Limb]) {
        self.check(a);
        let n = self.m.len();
        assert!(
            b.len() == n && out.len() == n,
            "mul_retrieve: b and out must have the modulus's limb count"
        );
        let mut scratch = Zeroizing::new(vec![0; mont::mul_scratch_len(n)]);
        mont::mul(out, &a.limbs, b, &self.m, *self.minv, &mut scratch);
    }

    /// A uniformly random residue (uniform in [0, m), so its Montgomery form is too), drawn
    /// by rejection: n random limbs, the bits above m's bit length cleared, kept if below m.
    ///
    /// # Constant time
    ///
    /// Depends on n and the bit length of m, and on the number of draws, which is independent
    /// of the value returned (on average at most 2 draws).
    pub fn random<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> Residue {
        let n = self.m.len();
        let mut limbs = vec![0; n];
        let mut bytes = Zeroizing::new(vec![0u8; 8 * n]);
        let bits = self.bits();
        loop {
            rng.fill_bytes(&mut bytes);
            for (l, b) in limbs.iter_mut().zip(bytes.chunks_exact(8)) {
                *l = Limb::from_le_bytes(b.try_into().expect("8 bytes"));
            }
            // Clear the bits at and above `bits` (public): whole limbs, then the top one.
            for (i, l) in limbs.iter_mut().enumerate() {
                let lo = 64 * i;
                if lo >= bits {
                    *l = 0;
                } else if bits - lo < 64 {
                    *l &= (1 << (bits - lo)) - 1;
                }
            }
            let below = ct::lt(&limbs, &self.m);
            // Leaks: whether this draw was rejected (the value is then discarded); the value
            // kept is uniform below m whatever the number of draws.
            if below == 1 {
                return self.residue(limbs);
            }
        }
    }

    /// a mod m into Montgomery form, for `a` given as big-endian bytes of any length.
    ///
    /// # Constant time
    ///
    /// Depends on `bytes.len()` and n only.
    pub fn reduce_be_bytes(&self, bytes: &[u8]) -> Residue {
        self.reduce(&limbs_from_be_bytes(bytes))
    }

    /// The value of `a` out of Montgomery form: a mod m as n little-endian limbs, fully reduced.
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    ///
    /// # Panics
    ///
    /// If `a` belongs to another modulus (any other, in every build).
    pub fn retrieve(&self, a: &Residue) -> Zeroizing<Vec<Limb>> {
        self.check(a);
        let n = self.m.len();
        let mut t = Zeroizing::new(vec![0; 2 * n]);
        t[..n].copy_from_slice(&a.limbs);
        let mut r = Zeroizing::new(vec![0; n]);
        mont::redc(&mut r, &mut t, &self.m, *self.minv);
        r
    }

    /// The value of `a` out of Montgomery form as big-endian bytes, exactly `out.len()` of them
    /// (the high bytes of a value too long for `out` are dropped; a short value is zero-padded).
    ///
    /// # Constant time
    ///
    /// Depends on n and `out.len()` only.
    ///
    /// # Panics
    ///
    /// If `a` belongs to another modulus (any other, in every build).
    pub fn retrieve_be_bytes(&self, a: &Residue, out: &mut [u8]) {
        mpn::to_be_bytes(out, &self.retrieve(a));
    }

    /// a + b mod m.
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    ///
    /// # Panics
    ///
    /// If a residue belongs to another modulus (any other, in every build).
    pub fn add(&self, a: &Residue, b: &Residue) -> Residue {
        self.check(a);
        self.check(b);
        let mut r = a.limbs.clone();
        let c = mpn::add_assign_n(&mut r, &b.limbs);
        ct::reduce_once(&mut r, c, &self.m);
        self.residue(r)
    }

    /// a - b mod m.
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    ///
    /// # Panics
    ///
    /// If a residue belongs to another modulus (any other, in every build).
    pub fn sub(&self, a: &Residue, b: &Residue) -> Residue {
        self.check(a);
        self.check(b);
        let mut r = a.limbs.clone();
        let borrow = mpn::sub_assign_n(&mut r, &b.limbs);
        ct::cnd_add_assign(limb::mask(borrow), &mut r, &self.m);
        self.residue(r)
    }

    /// -a mod m.
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    ///
    /// # Panics
    ///
    /// If `a` belongs to another modulus (any other, in every build).
    pub fn neg(&self, a: &Residue) -> Residue {
        self.sub(&self.zero(), a)
    }

    /// a·b mod m (Montgomery multiplication: the product, then REDC).
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    ///
    /// # Panics
    ///
    /// If a residue belongs to another modulus (any other, in every build).
    pub fn mul(&self, a: &Residue, b: &Residue) -> Residue {
        self.check(a);
        self.check(b);
        let n = self.m.len();
        let mut scratch = Zeroizing::new(vec![0; mont::mul_scratch_len(n)]);
        let mut r = vec![0; n];
        mont::mul(
            &mut r,
            &a.limbs,
            &b.limbs,
            &self.m,
            *self.minv,
            &mut scratch,
        );
        self.residue(r)
    }

    /// a² mod m (dedicated Montgomery square: `mpn::sqr`, then REDC).
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    ///
    /// # Panics
    ///
    /// If `a` belongs to another modulus (any other, in every build).
    pub fn sqr(&self, a: &Residue) -> Residue {
        self.check(a);
        let n = self.m.len();
        let mut scratch = Zeroizing::new(vec![0; mont::sqr_scratch_len(n)]);
        let mut r = vec![0; n];
        mont::sqr(&mut r, &a.limbs, &self.m, *self.minv, &mut scratch);
        self.residue(r)
    }

    /// Whether a ≡ 0 (mod m).
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    pub fn is_zero(&self, a: &Residue) -> Choice {
        self.check(a);
        a.is_zero()
    }
}

/// Big-endian bytes to little-endian limbs, `bytes.len()` rounded up to whole limbs.
pub(crate) fn limbs_from_be_bytes(bytes: &[u8]) -> Zeroizing<Vec<Limb>> {
    let mut r = Zeroizing::new(vec![0; bytes.len().div_ceil(8)]);
    mpn::from_be_bytes(&mut r, bytes);
    r
}

impl Drop for Modulus {
    fn drop(&mut self) {
        self.m.zeroize();
        self.minv.as_mut().zeroize();
        self.one.zeroize();
        self.r2.zeroize();
    }
}

impl ZeroizeOnDrop for Modulus {}

impl fmt::Debug for Modulus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Modulus")
            .field("bits", &self.bits)
            .finish_non_exhaustive()
    }
}
