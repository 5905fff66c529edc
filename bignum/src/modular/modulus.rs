//! [`Modulus`]: the Montgomery context of an odd modulus, and arithmetic on its residues.

use core::fmt;

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
        let minv = ct::inv_limb(m[0]).wrapping_neg();

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

    fn check(&self, a: &Residue) {
        assert_eq!(a.limbs.len(), self.m.len(), "residue of another modulus");
    }

    /// Zero.
    pub fn zero(&self) -> Residue {
        Residue::from_limbs(vec![0; self.m.len()])
    }

    /// One (R mod m in Montgomery form).
    pub fn one(&self) -> Residue {
        Residue::from_limbs(self.one.clone())
    }

    /// a mod m, into Montgomery form, for `a` of any length and value (little-endian limbs).
    ///
    /// Folds n-limb chunks from the top: x ← x·R + chunk, each step two Montgomery
    /// multiplications by R² and a modular addition. This is the reduction to use for a secret
    /// modulus (c mod p in RSA-CRT).
    ///
    /// # Constant time
    ///
    /// Depends on `a.len()` and n only.
    pub fn reduce(&self, a: &[Limb]) -> Residue {
        let n = self.m.len();
        let mut scratch = Zeroizing::new(vec![0; mont::mul_scratch_len(n)]);
        let mut chunk = Zeroizing::new(vec![0; n]);
        let mut term = Zeroizing::new(vec![0; n]);
        let mut acc = Zeroizing::new(vec![0; n]);
        let chunks = a.len().div_ceil(n).max(1);
        for c in (0..chunks).rev() {
            let lo = c * n;
            let hi = (lo + n).min(a.len());
            chunk.fill(0);
            if lo < hi {
                chunk[..hi - lo].copy_from_slice(&a[lo..hi]);
            }
            if c + 1 < chunks {
                // acc = (x·R)·R²·R⁻¹ = (x·R)·R: the Montgomery form of x·R.
                mont::mul(&mut term, &self.r2, &acc, &self.m, *self.minv, &mut scratch);
                acc.copy_from_slice(&term);
            }
            // chunk·R² ·R⁻¹ = chunk·R (any n-limb chunk may be the scanned operand).
            mont::mul(
                &mut term,
                &self.r2,
                &chunk,
                &self.m,
                *self.minv,
                &mut scratch,
            );
            let c = mpn::add_assign_n(&mut acc, &term);
            ct::reduce_once(&mut acc, c, &self.m);
        }
        Residue::from_limbs(acc.to_vec())
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
    /// If `a` belongs to a modulus of another limb count.
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
    /// If `a` belongs to a modulus of another limb count.
    pub fn retrieve_be_bytes(&self, a: &Residue, out: &mut [u8]) {
        let r = self.retrieve(a);
        let len = out.len();
        for (i, o) in out.iter_mut().enumerate() {
            let byte = len - 1 - i;
            let limb = byte >> 3;
            *o = if limb < r.len() {
                // The shift keeps one byte: truncation is the point.
                #[allow(clippy::cast_possible_truncation)]
                let b = (r[limb] >> ((byte & 7) * 8)) as u8;
                b
            } else {
                0
            };
        }
    }

    /// a + b mod m.
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    ///
    /// # Panics
    ///
    /// If a residue belongs to a modulus of another limb count.
    pub fn add(&self, a: &Residue, b: &Residue) -> Residue {
        self.check(a);
        self.check(b);
        let mut r = a.limbs.clone();
        let c = mpn::add_assign_n(&mut r, &b.limbs);
        ct::reduce_once(&mut r, c, &self.m);
        Residue::from_limbs(r)
    }

    /// a - b mod m.
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    ///
    /// # Panics
    ///
    /// If a residue belongs to a modulus of another limb count.
    pub fn sub(&self, a: &Residue, b: &Residue) -> Residue {
        self.check(a);
        self.check(b);
        let mut r = a.limbs.clone();
        let borrow = mpn::sub_assign_n(&mut r, &b.limbs);
        ct::cnd_add_assign(ct::mask(borrow), &mut r, &self.m);
        Residue::from_limbs(r)
    }

    /// -a mod m.
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    ///
    /// # Panics
    ///
    /// If `a` belongs to a modulus of another limb count.
    pub fn neg(&self, a: &Residue) -> Residue {
        self.sub(&self.zero(), a)
    }

    /// a·b mod m (Montgomery multiplication, CIOS).
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    ///
    /// # Panics
    ///
    /// If a residue belongs to a modulus of another limb count.
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
        Residue::from_limbs(r)
    }

    /// a² mod m (dedicated Montgomery square: `mpn::sqr`, then REDC).
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    ///
    /// # Panics
    ///
    /// If `a` belongs to a modulus of another limb count.
    pub fn sqr(&self, a: &Residue) -> Residue {
        self.check(a);
        let n = self.m.len();
        let mut scratch = Zeroizing::new(vec![0; mont::sqr_scratch_len(n)]);
        let mut r = vec![0; n];
        mont::sqr(&mut r, &a.limbs, &self.m, *self.minv, &mut scratch);
        Residue::from_limbs(r)
    }

    /// Whether a ≡ 0 (mod m).
    ///
    /// # Constant time
    ///
    /// Depends on n only.
    pub fn is_zero(&self, a: &Residue) -> Choice {
        a.is_zero()
    }
}

/// Big-endian bytes to little-endian limbs, `bytes.len()` rounded up to whole limbs.
pub(crate) fn limbs_from_be_bytes(bytes: &[u8]) -> Zeroizing<Vec<Limb>> {
    let n = bytes.len().div_ceil(8);
    let mut r = Zeroizing::new(vec![0; n]);
    for (i, &b) in bytes.iter().rev().enumerate() {
        r[i >> 3] |= Limb::from(b) << ((i & 7) * 8);
    }
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
