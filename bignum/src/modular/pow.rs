//! Modular exponentiation: fixed-window constant-time [`Modulus::pow`] and the left-to-right
//! [`Modulus::pow_vartime`] for public exponents.

use alloc::{vec, vec::Vec};
use zeroize::Zeroizing;

use crate::limb::{self, Limb};
use crate::mpn;

use super::{Modulus, Residue, ct, mont};

/// The window width of [`Modulus::pow`] for an exponent of `exp_bits` bits (public).
///
/// Narrower than [`window_bits`]: the constant-time gather reads all 2^w table entries for each
/// multiplication, which costs more than the multiplications a wider window saves. Each width
/// is the fastest (or within the noise of the fastest) measured at its sizes on the ADX back
/// end; at 2048 bits, where ADX's w=5 and w=6 are close, w=6, which the portable back end
/// (slower multiplications, so the gather weighs less) prefers. Measured: see
/// docs/benchmarks-log.md, "The constant-time window widths".
pub(crate) const fn ct_window_bits(exp_bits: usize) -> usize {
    width_above(exp_bits, [1536, 700, 89, 22])
}

/// The window width for a public exponent of `exp_bits` bits in [`Modulus::pow_vartime`]: the
/// one minimising squarings + multiplications + 2^(w-1) odd table entries (the thresholds of
/// BoringSSL's `BN_window_bits_for_ctime_exponent_size`).
pub(crate) const fn window_bits(exp_bits: usize) -> usize {
    width_above(exp_bits, [937, 306, 89, 22])
}

/// A window width by the exponent's bit length (public): 6, 5, 4 or 3 above the first, second,
/// third or fourth of the (falling) `thresholds`, 1 at or below the last.
const fn width_above(exp_bits: usize, thresholds: [usize; 4]) -> usize {
    let mut i = 0;
    while i < thresholds.len() {
        if exp_bits > thresholds[i] {
            return 6 - i;
        }
        i += 1;
    }
    1
}

/// `width` ≤ 63 bits of `exp` starting at bit `lo` (both public), as a secret limb.
pub(super) fn exp_bits_at(exp: &[Limb], lo: usize, width: usize) -> Limb {
    let idx = lo >> 6;
    let off = lo & 63;
    let mut v = exp[idx] >> off;
    if off + width > 64 && idx + 1 < exp.len() {
        v |= exp[idx + 1] << (64 - off);
    }
    v & ((1 << width) - 1)
}

/// The Montgomery arithmetic of one exponentiation: the back end's kernels looked up once and
/// the scratch allocated once. Products come fully reduced (the final subtraction by the back
/// end's `sub_n` into a spare buffer and a masked copy) or lazily, below R only (the back end's
/// `redc_1_below_r`).
pub(crate) struct Engine<'a> {
    m: &'a [Limb],
    minv: Limb,
    k: &'static mpn::Kernels,
    /// The scratch of the Montgomery multiplication (also the 2n-limb square before REDC and
    /// the squaring's own scratch from the Karatsuba threshold on), then n limbs for r − m
    /// (kept or dropped by mask), then `extra` n-limb buffers for the caller
    /// ([`Engine::with_spare`]): one allocation for the whole exponentiation, at every size.
    buf: Zeroizing<Vec<Limb>>,
}

impl<'a> Engine<'a> {
    /// The engine of `modulus`, with `extra` spare n-limb buffers.
    pub(crate) fn new(modulus: &'a Modulus, extra: usize) -> Self {
        let n = modulus.limb_len();
        Engine {
            m: modulus.as_limbs(),
            minv: modulus.minv(),
            k: mpn::kernels(),
            buf: Zeroizing::new(vec![0; Self::wide_len(n) + (1 + extra) * n]),
        }
    }

    const fn wide_len(n: usize) -> usize {
        let (a, b) = (mont::mul_scratch_len(n), mont::sqr_scratch_len(n));
        if a > b { a } else { b }
    }

    /// The engine's scratch, its r − m buffer, and the caller's spare buffers (all zeroed on
    /// drop with the engine).
    fn split(&mut self) -> (&mut [Limb], &mut [Limb], &mut [Limb]) {
        let n = self.m.len();
        let (wide, rest) = self.buf.split_at_mut(Self::wide_len(n));
        let (diff, extra) = rest.split_at_mut(n);
        (wide, diff, extra)
    }

    /// The arithmetic, and the caller's spare buffers (`extra`·n limbs in one slice), borrowed
    /// apart.
    pub(crate) fn with_spare(&mut self) -> (Arith<'_, 'a>, &mut [Limb]) {
        let (m, minv, k) = (self.m, self.minv, self.k);
        let (wide, diff, extra) = self.split();
        (
            Arith {
                m,
                minv,
                k,
                wide,
                diff,
            },
            extra,
        )
    }
}

/// The arithmetic of an [`Engine`], borrowed apart from its spare buffers.
pub(crate) struct Arith<'b, 'a> {
    m: &'a [Limb],
    minv: Limb,
    k: &'static mpn::Kernels,
    wide: &'b mut [Limb],
    diff: &'b mut [Limb],
}

impl Arith<'_, '_> {
    /// r = r − m if r ≥ m or `hi` is 1, else r unchanged (r + hi·2^(64·n) < 2m on entry).
    #[inline]
    fn finish(&mut self, r: &mut [Limb], hi: Limb) {
        let borrow = (self.k.sub_n)(self.diff, r, self.m);
        ct::cnd_copy(limb::mask(hi | (borrow ^ 1)), r, self.diff);
    }

    /// r = a·b·R⁻¹ mod m, fully reduced: `a` < m, `b` any n limbs, all of length n.
    #[inline]
    pub(crate) fn mul(&mut self, r: &mut [Limb], a: &[Limb], b: &[Limb]) {
        let hi = (self.k.mont_mul)(r, a, b, self.m, self.minv, self.wide);
        self.finish(r, hi);
    }

    /// r ≡ a·b·R⁻¹ (mod m) with r < R, for any n-limb a and b: the value is kept below R
    /// only, with no comparison with m ([`mpn::redc_1_below_r`]).
    #[inline]
    pub(crate) fn mul_lazy(&mut self, r: &mut [Limb], a: &[Limb], b: &[Limb]) {
        (self.k.mont_mul_below_r)(r, a, b, self.m, self.minv, self.wide);
    }

    /// `squarings` ≥ 1 squarings in a row: r ≡ a^(2^k)·R^(1−2^k) (mod m), k = `squarings`,
    /// with r < R, for any n-limb a (see [`Arith::mul_lazy`]).
    #[inline]
    pub(crate) fn sqr_lazy(&mut self, r: &mut [Limb], a: &[Limb], squarings: usize) {
        (self.k.mont_sqr_below_r)(r, a, squarings, self.m, self.minv, self.wide);
    }
}

impl Modulus {
    /// base^exp mod m for a SECRET exponent: the low `exp_bits` bits of `exp` (little-endian).
    ///
    /// Where the CPU has AVX-512 IFMA and m has at least [`IFMA_MIN_BITS`] bits, this runs the
    /// 52-bit engine ([`PowPath::Ifma`]; `BIGNUM_BACKEND=adx` or `portable` turns it off);
    /// otherwise the 64-bit kernels: a fixed window of w bits (w from `exp_bits`), a table of
    /// base^0 … base^(2^w - 1), and per window w dedicated Montgomery squarings and one
    /// multiplication by a table entry fetched by a gather that reads every entry and keeps one
    /// by mask. No early exit: a zero exponent costs the same as any other of its bit length.
    /// The table and the accumulator are kept below R only, not below m
    /// ([`mpn::redc_1_below_r`], as GMP's `mpn_sec_powm`): no comparison with m per product, and
    /// one product by R mod m at the end.
    ///
    /// [`IFMA_MIN_BITS`]: crate::backend::IFMA_MIN_BITS
    /// [`PowPath::Ifma`]: crate::backend::PowPath::Ifma
    ///
    /// # Constant time
    ///
    /// Depends on n, `exp.len()` and `exp_bits` only (the bit length of m and of the exponent
    /// are public; base and exponent values are not).
    ///
    /// # Panics
    ///
    /// If `exp_bits > 64·exp.len()`, or `base` belongs to another modulus (any other, in every
    /// build).
    // Never inlined: the constant-time check's callgrind pass (`.ci/ct-check`) counts the
    // instructions inside this symbol.
    #[inline(never)]
    pub fn pow(&self, base: &Residue, exp: &[Limb], exp_bits: usize) -> Residue {
        self.check_pow_args(base, exp, exp_bits);
        if let Some(r) = self.pow_ifma_if_chosen(base, exp, exp_bits) {
            return r;
        }
        self.pow_limbs(base, exp, exp_bits)
    }

    /// The preconditions of [`Modulus::pow`], asserted.
    pub(crate) fn check_pow_args(&self, base: &Residue, exp: &[Limb], exp_bits: usize) {
        assert!(
            exp_bits <= 64 * exp.len(),
            "pow: exp_bits beyond the exponent"
        );
        self.check(base);
    }

    internal! {
        /// [`Modulus::pow`] on the 64-bit kernels ([`PowPath::Limbs`](crate::backend::PowPath::Limbs)).
        pub(crate) fn pow_limbs(&self, base: &Residue, exp: &[Limb], exp_bits: usize) -> Residue {
            if exp_bits == 0 {
                return self.one();
            }
            let n = self.limb_len();
            let w = ct_window_bits(exp_bits);
            let size = 1usize << w;

            let mut eng = Engine::new(self, 0);
            // Borrowed apart once for the whole exponentiation, not per product.
            let (mut ar, _) = eng.with_spare();
            let mut table = Zeroizing::new(vec![0; size * n]);
            table[..n].copy_from_slice(&self.one().limbs);
            table[n..2 * n].copy_from_slice(&base.limbs);
            for j in 2..size {
                let (done, rest) = table.split_at_mut(j * n);
                let out = &mut rest[..n];
                if j & 1 == 0 {
                    // j is public: base^j = (base^(j/2))².
                    let half = j >> 1;
                    ar.sqr_lazy(out, &done[half * n..(half + 1) * n], 1);
                } else {
                    ar.mul_lazy(out, &done[(j - 1) * n..j * n], &base.limbs);
                }
            }

            let mut acc = Zeroizing::new(vec![0; n]);
            let mut tmp = Zeroizing::new(vec![0; n]);
            let mut entry = Zeroizing::new(vec![0; n]);
            // Windows from the top; the top one takes the exp_bits mod w leftover bits (or w).
            let windows = exp_bits.div_ceil(w);
            let top_lo = (windows - 1) * w;
            (ar.k.tabselect)(
                &mut acc,
                &table,
                exp_bits_at(exp, top_lo, exp_bits - top_lo),
            );
            for k in (0..windows - 1).rev() {
                ar.sqr_lazy(&mut tmp, &acc, w);
                core::mem::swap(&mut acc, &mut tmp);
                (ar.k.tabselect)(&mut entry, &table, exp_bits_at(exp, k * w, w));
                ar.mul_lazy(&mut tmp, &acc, &entry);
                core::mem::swap(&mut acc, &mut tmp);
            }
            // Below m at last: acc·(R mod m)·R⁻¹ ≡ acc, and (R mod m)·acc < m·R gives a value
            // below 2m, which the fully reducing multiplication brings below m.
            ar.mul(&mut tmp, &self.one().limbs, &acc);
            self.residue(tmp.to_vec())
        }
    }

    /// base^exp mod m for a PUBLIC exponent (RSA's e): left-to-right square-and-multiply that
    /// branches on the exponent's bits. Where the path in use is the 52-bit IFMA engine
    /// ([`pow_path`](crate::backend::pow_path)), moduli from [`IFMA_MIN_BITS`](crate::backend::IFMA_MIN_BITS)
    /// bits with exponents of at least 256 bits run there.
    ///
    /// # Constant time
    ///
    /// Not in the exponent: time depends on its bits. The base and the modulus may be secret
    /// (time depends on n and the exponent only).
    ///
    /// # Panics
    ///
    /// If `base` belongs to another modulus (any other, in every build).
    pub fn pow_vartime(&self, base: &Residue, exp: &[Limb]) -> Residue {
        self.check(base);
        if let Some(r) = self.pow_vartime_ifma_if_chosen(base, exp) {
            return r;
        }
        let n = self.limb_len();
        let mut acc = vec![0; n];
        if exp_bit_len(exp) == 0 {
            acc.copy_from_slice(&self.one().limbs);
        } else {
            let mut eng = Engine::new(self, 2);
            let (mut ar, spare) = eng.with_spare();
            let (lazy, tmp) = spare.split_at_mut(n);
            self.pow_montgomery_vartime(&mut ar, lazy, &base.limbs, exp, tmp);
            // Below m at last, as in `pow_limbs`: lazy·(R mod m)·R⁻¹ ≡ lazy, and
            // (R mod m)·lazy < m·R gives a value below 2m, which the multiplication reduces.
            ar.mul(&mut acc, &self.one().limbs, lazy);
        }
        self.residue(acc)
    }

    /// x^exp mod m for a PUBLIC exponent on plain integers, neither in Montgomery form: `x` of
    /// n limbs (any value, not necessarily below m), the result fully reduced into `out`
    /// (n limbs).
    ///
    /// For RSA's public operation and fault check: x goes into Montgomery form with one
    /// multiplication by R², and the last multiplication of square-and-multiply (for an odd
    /// exponent, by x mod m) takes a plain value, which brings the result out of Montgomery
    /// form with no separate REDC: (x^(e−1)·R)·x·R⁻¹ = x^e. The squarings keep their values
    /// below R only (as [`Modulus::pow`]'s), each run of them one call of the back end's
    /// kernel. e = 65537 costs one run of 16 squarings and 2 multiplications (3 where m is
    /// below R/2, for x mod m), with no table (as BoringSSL does for small public exponents),
    /// and one allocation.
    ///
    /// # Constant time
    ///
    /// Not in the exponent; x and the modulus may be secret (time depends on n and the
    /// exponent only).
    ///
    /// # Panics
    ///
    /// If `x` or `out` is not n limbs long.
    pub fn pow_limbs_vartime(&self, out: &mut [Limb], x: &[Limb], exp: &[Limb]) {
        let n = self.limb_len();
        assert!(
            x.len() == n && out.len() == n,
            "pow_limbs_vartime: x and out must have the modulus's limb count"
        );
        let bits = exp_bit_len(exp);
        if bits == 0 {
            // x⁰ = 1 < m (m ≥ 3).
            out.fill(0);
            out[0] = 1;
            return;
        }
        // Spare buffers: 1 (plain), x·R, x mod m, the accumulator, and a temporary.
        let mut eng = Engine::new(self, 5);
        let (mut ar, spare) = eng.with_spare();
        let (one_plain, rest) = spare.split_at_mut(n);
        let (xr, rest) = rest.split_at_mut(n);
        let (x_mod, rest) = rest.split_at_mut(n);
        let (acc, tmp) = rest.split_at_mut(n);
        one_plain[0] = 1;
        // x·R mod m (R² mod m < m is the operand the kernel needs below m).
        ar.mul(xr, self.r2(), x);
        if bits == 1 {
            // x mod m: (x·R)·1·R⁻¹.
            ar.mul(out, xr, one_plain);
            return;
        }
        // x^(e − e mod 2) in Montgomery form (bits ≥ 2, so that exponent is not 0), its
        // trailing squarings one run; then the multiplication by the plain x or 1.
        let mut even = Zeroizing::new(exp.to_vec());
        even[0] &= !1;
        self.pow_montgomery_vartime(&mut ar, acc, xr, &even, tmp);
        // acc is below R only: the plain factor must be below m for the product to come out
        // below 2m (x itself may be any n limbs).
        let last = if exp[0] & 1 == 1 {
            if self.bits() == 64 * n {
                // m ≥ R/2 (RSA's moduli and primes), so x < R ≤ 2m: one subtraction by mask.
                x_mod.copy_from_slice(x);
                ar.finish(x_mod, 0);
            } else {
                // x mod m: (x·R)·1·R⁻¹.
                ar.mul(x_mod, xr, one_plain);
            }
            &*x_mod
        } else {
            &*one_plain
        };
        ar.mul(out, last, acc);
    }

    /// acc ≡ base^exp in Montgomery form, below R but not necessarily below m (the lazy
    /// products of [`Arith::mul_lazy`] and [`Arith::sqr_lazy`], each run of squarings one call),
    /// for a public exponent with at least one bit set and any n-limb `base`; `tmp` n limbs of
    /// scratch.
    fn pow_montgomery_vartime(
        &self,
        ar: &mut Arith<'_, '_>,
        acc: &mut [Limb],
        base: &[Limb],
        exp: &[Limb],
        tmp: &mut [Limb],
    ) {
        let n = self.limb_len();
        let exp_bits = exp_bit_len(exp);
        invariant!(exp_bits > 0);
        let bit = |i: usize| (exp[i >> 6] >> (i & 63)) & 1;
        // Sliding window (Menezes, van Oorschot, Vanstone, Handbook of Applied Cryptography,
        // 1996, Algorithm 14.85): odd powers base¹, base³, …, base^(2ʷ−1); each window of up
        // to w bits that starts and ends with a 1 costs one multiplication. Short exponents
        // (RSA's e = 65537) use w = 1, plain square-and-multiply, with no table to build.
        let w = if exp_bits > 64 {
            window_bits(exp_bits)
        } else {
            1
        };
        // Squarings owed to acc and not yet done: done as one run before the next
        // multiplication, or at the end.
        let mut owed = 0;
        if w == 1 {
            acc.copy_from_slice(base);
            for i in (0..exp_bits - 1).rev() {
                owed += 1;
                if bit(i) == 1 {
                    ar.sqr_lazy(tmp, acc, owed);
                    ar.mul_lazy(acc, tmp, base);
                    owed = 0;
                }
            }
            Self::square_owed(ar, acc, tmp, owed);
            return;
        }
        let odd_count = 1usize << (w - 1);
        let mut table = Zeroizing::new(vec![0; odd_count * n]);
        table[..n].copy_from_slice(base);
        {
            let mut b2 = Zeroizing::new(vec![0; n]);
            ar.sqr_lazy(&mut b2, base, 1);
            for k in 1..odd_count {
                let (done, rest) = table.split_at_mut(k * n);
                ar.mul_lazy(&mut rest[..n], &done[(k - 1) * n..], &b2);
            }
        }
        let mut started = false;
        let mut i = exp_bits; // bits i-1 .. 0 remain
        while i > 0 {
            if bit(i - 1) == 0 {
                owed += 1;
                i -= 1;
                continue;
            }
            // The window: bits i-1 down to j, at most w of them, ending in a 1.
            let mut j = i.saturating_sub(w);
            while bit(j) == 0 {
                j += 1;
            }
            let value = (j..i)
                .rev()
                .fold(0usize, |v, b| (v << 1) | usize::from(bit(b) == 1));
            let odd = &table[(value >> 1) * n..((value >> 1) + 1) * n];
            if started {
                ar.sqr_lazy(tmp, acc, owed + (i - j));
                ar.mul_lazy(acc, tmp, odd);
            } else {
                // The top bit is set, so nothing is owed before the first window.
                acc.copy_from_slice(odd);
                started = true;
            }
            owed = 0;
            i = j;
        }
        Self::square_owed(ar, acc, tmp, owed);
    }

    /// acc = acc^(2^owed) (lazily, as [`Arith::sqr_lazy`]), through `tmp`; nothing if `owed` is 0.
    fn square_owed(ar: &mut Arith<'_, '_>, acc: &mut [Limb], tmp: &mut [Limb], owed: usize) {
        if owed > 0 {
            ar.sqr_lazy(tmp, acc, owed);
            acc.copy_from_slice(tmp);
        }
    }
}

/// The bit length of a public exponent (0 for zero).
fn exp_bit_len(exp: &[Limb]) -> usize {
    exp.iter()
        .rposition(|&e| e != 0)
        .map_or(0, |top| 64 * top + 64 - exp[top].leading_zeros() as usize)
}
