//! The vector operations of the 52-bit engine (`modular`'s IFMA exponentiation), and their
//! portable model.
//!
//! AVX-512 IFMA multiplies the low 52 bits of two 64-bit lanes into a 104-bit product and
//! adds its low half (`vpmadd52luq`) or its high half (`vpmadd52huq`) to a 64-bit lane. Numbers
//! are kept as 52-bit digits in 64-bit lanes, so the 12 spare bits of every lane absorb the
//! carries of many products before they need propagating.
//!
//! [`Ifma52`] is the handful of operations the engine needs. [`Model`] implements each of them
//! in plain Rust exactly as Intel's manual defines the instruction (operands taken modulo 2^52,
//! the 104-bit product, its low or high 52 bits added with wrap-around), for any lane count: it
//! is the oracle the real instructions are tested against, and it lets every machine (and
//! valgrind, which cannot execute AVX-512) run the whole algorithm. The real instructions are in
//! `x86_64/ifma_instructions.rs`, one thin function per instruction, reachable only with a [`cpu::Ifma`]
//! token.
//!
//! # Constant time
//!
//! Every operation's time is independent of the lane values, in both implementations: the
//! model has no branch and no value-dependent index (its comparisons are carry arithmetic).
//!
//! [`cpu::Ifma`]: crate::cpu::Ifma

/// The low 52 bits of a lane: one digit.
pub const MASK52: u64 = (1 << 52) - 1;

/// The vector operations of the 52-bit engine, on `LANES` lanes of u64.
///
/// Every method is a single instruction in the native implementations; masks are bit `i` for
/// lane `i`.
pub trait Ifma52: Copy {
    /// A vector of `LANES` 64-bit lanes.
    type V: Copy;
    /// Lanes per vector (4 or 8).
    const LANES: usize;
    /// Whether the engines call their multiplications and squarings (one function per shape)
    /// rather than inline them at each use: true for the model, whose lane operations are
    /// loops of 128-bit products, so that a dozen inlined copies per shape made its engines
    /// most of the crate's compile time; false for the instructions, whose code must be
    /// inlined into the function compiled with their CPU features ([`Task`]).
    const OUTLINE: bool = false;

    /// All lanes 0 (`vpxor`).
    fn zero(self) -> Self::V;
    /// Every lane x (`vpbroadcastq`).
    fn splat(self, x: u64) -> Self::V;
    /// The first `LANES` values of `src` (`vmovdqu64`). Panics if `src` is shorter.
    fn load(self, src: &[u64]) -> Self::V;
    /// The lanes into the first `LANES` values of `dst` (`vmovdqu64`). Panics if shorter.
    fn store(self, dst: &mut [u64], v: Self::V);
    /// acc + lo52(lo52(a)·lo52(b)), lane-wise, wrapping (`vpmadd52luq`).
    fn madd52lo(self, acc: Self::V, a: Self::V, b: Self::V) -> Self::V;
    /// acc + hi52(lo52(a)·lo52(b)), lane-wise, wrapping (`vpmadd52huq`).
    fn madd52hi(self, acc: Self::V, a: Self::V, b: Self::V) -> Self::V;
    /// [`Ifma52::madd52lo`] in the lanes whose bit of k is set, acc in the others
    /// (`vpmadd52luq` under a merge mask).
    fn madd52lo_mask(self, acc: Self::V, k: u8, a: Self::V, b: Self::V) -> Self::V;
    /// [`Ifma52::madd52hi`] in the lanes whose bit of k is set, acc in the others
    /// (`vpmadd52huq` under a merge mask).
    fn madd52hi_mask(self, acc: Self::V, k: u8, a: Self::V, b: Self::V) -> Self::V;
    /// The low halves of a and b interleaved: a_0, b_0, a_1, b_1, … a_{L/2−1}, b_{L/2−1}
    /// (`vpermt2q` by a constant index).
    fn interleave_lo(self, a: Self::V, b: Self::V) -> Self::V;
    /// The high halves of a and b interleaved: a_{L/2}, b_{L/2}, … a_{L−1}, b_{L−1}
    /// (`vpermt2q` by a constant index).
    fn interleave_hi(self, a: Self::V, b: Self::V) -> Self::V;
    /// a + b, lane-wise, wrapping (`vpaddq`).
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    /// a & b (`vpandq`).
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    /// a >> 52, lane-wise, logical (`vpsrlq` by 52).
    fn srl52(self, a: Self::V) -> Self::V;
    /// The lanes of `lo` moved down one place, lane `LANES − 1` taken from `hi`'s lane 0: the
    /// pair (hi, lo) shifted right by one lane (`valignq` by 1).
    fn shift_down(self, hi: Self::V, lo: Self::V) -> Self::V;
    /// The lanes of `hi` moved up one place, lane 0 taken from `lo`'s top lane: the pair
    /// (hi, lo) shifted left by one lane (`valignq` by `LANES − 1`).
    fn shift_up(self, hi: Self::V, lo: Self::V) -> Self::V;
    /// Lane 1 (`vpextrq` by 1).
    fn lane1(self, a: Self::V) -> u64;
    /// `a` with lane 0 replaced by x (`vpbroadcastq` under mask 1).
    fn set_lane0(self, a: Self::V, x: u64) -> Self::V;
    /// Bit i set where a_i > b_i, unsigned (`vpcmpuq` with predicate 6).
    fn cmpgt_mask(self, a: Self::V, b: Self::V) -> u8;
    /// Bit i set where a_i = b_i (`vpcmpuq` with predicate 0).
    fn cmpeq_mask(self, a: Self::V, b: Self::V) -> u8;
    /// a_i − b_i where bit i of k is set, else src_i (`vpsubq` under a merge mask).
    fn mask_sub(self, src: Self::V, k: u8, a: Self::V, b: Self::V) -> Self::V;

    /// Runs `f` in a function of its own, one per `F`, called rather than inlined where it is
    /// used: for code that runs rarely enough that one copy can serve every place that uses
    /// it. The native implementations compile that function with their CPU features; the
    /// model runs `f` in place (its products are functions of their own already, [`OUTLINE`]).
    ///
    /// [`OUTLINE`]: Ifma52::OUTLINE
    fn call<F: Call<Self>>(self, f: F) -> F::Output;
}

/// Code for one implementation `I` (its vectors may appear in the signature), run by
/// [`Ifma52::call`]; `run` must be `#[inline(always)]` so that its code is compiled in the
/// function `call` makes.
pub trait Call<I: Ifma52> {
    /// What the code returns.
    type Output;
    /// Runs the code on `isa`.
    fn run(self, isa: I) -> Self::Output;
}

/// Code generic over [`Ifma52`], to run on one implementation. The native ones call
/// [`Task::run`] inside a function compiled with their CPU features; it must be
/// `#[inline(always)]` so that the task's code is compiled there.
pub trait Task {
    /// What the task returns.
    type Output;
    /// Runs the task on `isa`.
    fn run<I: Ifma52>(self, isa: I) -> Self::Output;
}

/// The portable model of the instructions, on `L` lanes: exact to Intel's definitions. Compiled
/// for tests and with the `test-hooks` feature only.
#[cfg(feature = "test-hooks")]
#[derive(Clone, Copy, Debug, Default)]
pub struct Model<const L: usize>;

/// All ones where bit `i` of `k` is set, else 0, without a branch: [`crate::limb::mask`], opaque to
/// the optimiser, so that LLVM cannot turn a masked operation on a secret mask into a branch.
#[cfg(feature = "test-hooks")]
#[inline(always)]
fn lane_mask(k: u8, i: usize) -> u64 {
    crate::limb::mask(u64::from((k >> i) & 1))
}

/// `new` in the lanes whose bit of k is set, `old` in the others (a merge mask), by
/// [`lane_mask`].
#[cfg(feature = "test-hooks")]
#[inline(always)]
fn merge<const L: usize>(k: u8, new: [u64; L], old: [u64; L]) -> [u64; L] {
    core::array::from_fn(|i| {
        let m = lane_mask(k, i);
        (new[i] & m) | (old[i] & !m)
    })
}

/// The 104-bit product of the low 52 bits of a and b (the multiplier of IFMA).
#[cfg(feature = "test-hooks")]
#[inline(always)]
fn product52(a: u64, b: u64) -> u128 {
    u128::from(a & MASK52) * u128::from(b & MASK52)
}

// Lane indices below are public loop counters; the truncating casts take the low half of a
// product or a carry bit, which is the instruction's definition.
#[cfg(feature = "test-hooks")]
#[allow(clippy::cast_possible_truncation)]
impl<const L: usize> Ifma52 for Model<L> {
    type V = [u64; L];
    const LANES: usize = L;
    const OUTLINE: bool = true;

    #[inline(always)]
    fn call<F: Call<Self>>(self, f: F) -> F::Output {
        f.run(self)
    }

    #[inline(always)]
    fn zero(self) -> [u64; L] {
        [0; L]
    }

    #[inline(always)]
    fn splat(self, x: u64) -> [u64; L] {
        [x; L]
    }

    #[inline(always)]
    fn load(self, src: &[u64]) -> [u64; L] {
        let mut v = [0; L];
        v.copy_from_slice(&src[..L]);
        v
    }

    #[inline(always)]
    fn store(self, dst: &mut [u64], v: [u64; L]) {
        dst[..L].copy_from_slice(&v);
    }

    #[inline(always)]
    fn madd52lo(self, acc: [u64; L], a: [u64; L], b: [u64; L]) -> [u64; L] {
        core::array::from_fn(|i| acc[i].wrapping_add(product52(a[i], b[i]) as u64 & MASK52))
    }

    #[inline(always)]
    fn madd52hi(self, acc: [u64; L], a: [u64; L], b: [u64; L]) -> [u64; L] {
        core::array::from_fn(|i| acc[i].wrapping_add((product52(a[i], b[i]) >> 52) as u64))
    }

    #[inline(always)]
    fn madd52lo_mask(self, acc: [u64; L], k: u8, a: [u64; L], b: [u64; L]) -> [u64; L] {
        merge(k, self.madd52lo(acc, a, b), acc)
    }

    #[inline(always)]
    fn madd52hi_mask(self, acc: [u64; L], k: u8, a: [u64; L], b: [u64; L]) -> [u64; L] {
        merge(k, self.madd52hi(acc, a, b), acc)
    }

    #[inline(always)]
    fn interleave_lo(self, a: [u64; L], b: [u64; L]) -> [u64; L] {
        core::array::from_fn(|i| if i & 1 == 0 { a[i >> 1] } else { b[i >> 1] })
    }

    #[inline(always)]
    fn interleave_hi(self, a: [u64; L], b: [u64; L]) -> [u64; L] {
        core::array::from_fn(|i| {
            let x = (L >> 1) + (i >> 1);
            if i & 1 == 0 { a[x] } else { b[x] }
        })
    }

    #[inline(always)]
    fn add(self, a: [u64; L], b: [u64; L]) -> [u64; L] {
        core::array::from_fn(|i| a[i].wrapping_add(b[i]))
    }

    #[inline(always)]
    fn and(self, a: [u64; L], b: [u64; L]) -> [u64; L] {
        core::array::from_fn(|i| a[i] & b[i])
    }

    #[inline(always)]
    fn srl52(self, a: [u64; L]) -> [u64; L] {
        core::array::from_fn(|i| a[i] >> 52)
    }

    #[inline(always)]
    fn shift_down(self, hi: [u64; L], lo: [u64; L]) -> [u64; L] {
        core::array::from_fn(|i| if i + 1 < L { lo[i + 1] } else { hi[0] })
    }

    #[inline(always)]
    fn shift_up(self, hi: [u64; L], lo: [u64; L]) -> [u64; L] {
        core::array::from_fn(|i| if i == 0 { lo[L - 1] } else { hi[i - 1] })
    }

    #[inline(always)]
    fn lane1(self, a: [u64; L]) -> u64 {
        a[1]
    }

    #[inline(always)]
    fn set_lane0(self, a: [u64; L], x: u64) -> [u64; L] {
        let mut v = a;
        v[0] = x;
        v
    }

    #[inline(always)]
    fn cmpgt_mask(self, a: [u64; L], b: [u64; L]) -> u8 {
        // a > b exactly when b − a borrows: bit 127 of the 128-bit difference.
        (0..L).fold(0, |k, i| {
            let borrow = (u128::from(b[i]).wrapping_sub(u128::from(a[i])) >> 127) as u8;
            k | (borrow << i)
        })
    }

    #[inline(always)]
    fn cmpeq_mask(self, a: [u64; L], b: [u64; L]) -> u8 {
        (0..L).fold(0, |k, i| {
            let x = a[i] ^ b[i];
            // (x | −x) has its top bit set exactly when x ≠ 0.
            let ne = ((x | x.wrapping_neg()) >> 63) as u8;
            k | ((ne ^ 1) << i)
        })
    }

    #[inline(always)]
    fn mask_sub(self, src: [u64; L], k: u8, a: [u64; L], b: [u64; L]) -> [u64; L] {
        merge(k, core::array::from_fn(|i| a[i].wrapping_sub(b[i])), src)
    }
}
