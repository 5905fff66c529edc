//! The AVX-512 IFMA instructions behind [`Ifma52`]: one `core::arch` intrinsic per method, on
//! 256-bit registers ([`Avx512Ifma256`], four lanes) and 512-bit ones ([`Avx512Ifma512`],
//! eight lanes).
//!
//! Each method is `#[inline(always)]` and calls its intrinsic in an `unsafe` block whose proof
//! is the [`cpu::Ifma`] token inside the value: only `cpu::detect()` makes one, after CPUID
//! reported AVX-512 F, VL and IFMA. The methods are meant to be inlined into a function
//! compiled with those features, which is what [`Avx512Ifma256::run`] and
//! [`Avx512Ifma512::run`] are: the engine's code runs inside them, so every method becomes the
//! single instruction its doc names (and none is a call).

use core::arch::x86_64::{
    __m256i, __m512i, _mm_extract_epi64, _mm256_add_epi64, _mm256_alignr_epi64, _mm256_and_si256,
    _mm256_castsi256_si128, _mm256_cmpeq_epu64_mask, _mm256_cmpgt_epu64_mask, _mm256_loadu_si256,
    _mm256_madd52hi_epu64, _mm256_madd52lo_epu64, _mm256_mask_madd52hi_epu64,
    _mm256_mask_madd52lo_epu64, _mm256_mask_set1_epi64, _mm256_mask_sub_epi64,
    _mm256_permutex2var_epi64, _mm256_set_epi64x, _mm256_set1_epi64x, _mm256_setzero_si256,
    _mm256_srli_epi64, _mm256_storeu_si256, _mm512_add_epi64, _mm512_alignr_epi64,
    _mm512_and_si512, _mm512_castsi512_si128, _mm512_cmpeq_epu64_mask, _mm512_cmpgt_epu64_mask,
    _mm512_loadu_si512, _mm512_madd52hi_epu64, _mm512_madd52lo_epu64, _mm512_mask_madd52hi_epu64,
    _mm512_mask_madd52lo_epu64, _mm512_mask_set1_epi64, _mm512_mask_sub_epi64,
    _mm512_permutex2var_epi64, _mm512_set_epi64, _mm512_set1_epi64, _mm512_setzero_si512,
    _mm512_srli_epi64, _mm512_storeu_si512,
};

use crate::cpu;
use crate::mpn::ifma_model::{Call, Ifma52, Task};

/// AVX-512 IFMA on 256-bit registers (four lanes; needs AVX-512 VL).
#[derive(Clone, Copy, Debug)]
pub struct Avx512Ifma256(cpu::Ifma);

/// AVX-512 IFMA on 512-bit registers (eight lanes).
#[derive(Clone, Copy, Debug)]
pub struct Avx512Ifma512(cpu::Ifma);

/// Defines, in a module of its own, `$entry`: `$isa` with a function compiled with AVX-512 F,
/// VL and IFMA enabled that runs a task. `Task::run` is `#[inline(always)]`, so the task's
/// code, and every operation it inlines, is compiled there with the features (a closure would
/// not be forced inline, and its operations would stay calls to the intrinsics).
///
/// Four entries, each in a module of its own: rustc places every instance of a generic method
/// (one per engine shape here) in the codegen unit of the module of its self type, so that
/// the engine's instances, most of bignum's build, are optimised by LLVM in four codegen
/// units side by side rather than one after the other in one (docs/benchmarks-log.md, "The
/// engine's instances over four codegen units, and certificates without x509-cert"). Singles
/// and pairs on each width split them about evenly.
macro_rules! entry {
    ($module:ident, $entry:ident, $isa:ident) => {
        mod $module {
            use super::{Task, $isa};

            pub(super) struct $entry(pub(super) $isa);

            impl $entry {
                #[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
                pub(super) fn with_features<T: Task>(self, task: T) -> T::Output {
                    task.run(self.0)
                }
            }
        }
    };
}
entry!(singles256, Singles256, Avx512Ifma256);
entry!(pairs256, Pairs256, Avx512Ifma256);
entry!(singles512, Singles512, Avx512Ifma512);
entry!(pairs512, Pairs512, Avx512Ifma512);

/// Runs `f` inside a function of its own, compiled with AVX-512 F, VL and IFMA enabled and
/// never inlined: [`Ifma52::call`] of the instructions.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn call_with_features<I: Ifma52, F: Call<I>>(isa: I, f: F) -> F::Output {
    f.run(isa)
}

impl Avx512Ifma256 {
    /// The implementation, proved by the token.
    pub fn new(t: cpu::Ifma) -> Self {
        Avx512Ifma256(t)
    }

    /// Runs `task` with the implementation, compiled with the features, so that the methods
    /// it inlines become single instructions.
    #[inline(always)]
    pub fn run<T: Task>(self, task: T) -> T::Output {
        // SAFETY: the token in `self` proves AVX-512 F, VL and IFMA.
        unsafe { singles256::Singles256(self).with_features(task) }
    }

    /// [`Self::run`] for the tasks of two numbers interleaved (compiled in a codegen unit of
    /// their own).
    #[inline(always)]
    pub(crate) fn run_pair<T: Task>(self, task: T) -> T::Output {
        // SAFETY: as in `run`.
        unsafe { pairs256::Pairs256(self).with_features(task) }
    }
}

impl Avx512Ifma512 {
    /// The implementation, proved by the token.
    pub fn new(t: cpu::Ifma) -> Self {
        Avx512Ifma512(t)
    }

    /// Runs `task` with the implementation, compiled with the features (see
    /// [`Avx512Ifma256::run`]).
    #[inline(always)]
    pub fn run<T: Task>(self, task: T) -> T::Output {
        // SAFETY: the token in `self` proves AVX-512 F, VL and IFMA.
        unsafe { singles512::Singles512(self).with_features(task) }
    }

    /// [`Self::run`] for the tasks of two numbers interleaved (compiled in a codegen unit of
    /// their own).
    #[inline(always)]
    pub(crate) fn run_pair<T: Task>(self, task: T) -> T::Output {
        // SAFETY: as in `run`.
        unsafe { pairs512::Pairs512(self).with_features(task) }
    }
}

// SAFETY (every block below): the intrinsics need AVX-512 F, VL and IFMA (AVX and AVX2 for
// the plain ones, which AVX-512 F implies); `self` holds a `cpu::Ifma`, which proves them.
// Loads and stores go through slices of at least four (eight) u64 checked by indexing.
impl Ifma52 for Avx512Ifma256 {
    type V = __m256i;
    const LANES: usize = 4;

    fn call<F: Call<Self>>(self, f: F) -> F::Output {
        // SAFETY: the token in `self` proves AVX-512 F, VL and IFMA.
        unsafe { call_with_features(self, f) }
    }

    #[inline(always)]
    fn zero(self) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_setzero_si256() }
    }

    #[inline(always)]
    #[allow(clippy::cast_possible_wrap)] // a bit pattern, not a number
    fn splat(self, x: u64) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_set1_epi64x(x as i64) }
    }

    #[inline(always)]
    fn load(self, src: &[u64]) -> __m256i {
        let src = &src[..4];
        // SAFETY: see the impl; `src` is four u64, and the load is unaligned.
        unsafe { _mm256_loadu_si256(src.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(self, dst: &mut [u64], v: __m256i) {
        let dst = &mut dst[..4];
        // SAFETY: see the impl; `dst` is four u64, and the store is unaligned.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), v) }
    }

    #[inline(always)]
    fn madd52lo(self, acc: __m256i, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_madd52lo_epu64(acc, a, b) }
    }

    #[inline(always)]
    fn madd52hi(self, acc: __m256i, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_madd52hi_epu64(acc, a, b) }
    }

    #[inline(always)]
    fn madd52lo_mask(self, acc: __m256i, k: u8, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_mask_madd52lo_epu64(acc, k, a, b) }
    }

    #[inline(always)]
    fn madd52hi_mask(self, acc: __m256i, k: u8, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_mask_madd52hi_epu64(acc, k, a, b) }
    }

    #[inline(always)]
    fn interleave_lo(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl. Index bit 2 picks b.
        unsafe { _mm256_permutex2var_epi64(a, _mm256_set_epi64x(5, 1, 4, 0), b) }
    }

    #[inline(always)]
    fn interleave_hi(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl. Index bit 2 picks b.
        unsafe { _mm256_permutex2var_epi64(a, _mm256_set_epi64x(7, 3, 6, 2), b) }
    }

    #[inline(always)]
    fn add(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_add_epi64(a, b) }
    }

    #[inline(always)]
    fn and(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_and_si256(a, b) }
    }

    #[inline(always)]
    fn srl52(self, a: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_srli_epi64::<52>(a) }
    }

    #[inline(always)]
    fn shift_down(self, hi: __m256i, lo: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_alignr_epi64::<1>(hi, lo) }
    }

    #[inline(always)]
    fn shift_up(self, hi: __m256i, lo: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_alignr_epi64::<3>(hi, lo) }
    }

    #[inline(always)]
    #[allow(clippy::cast_sign_loss)] // a bit pattern, not a number
    fn lane1(self, a: __m256i) -> u64 {
        // SAFETY: see the impl.
        unsafe { _mm_extract_epi64::<1>(_mm256_castsi256_si128(a)) as u64 }
    }

    #[inline(always)]
    #[allow(clippy::cast_possible_wrap)] // a bit pattern, not a number
    fn set_lane0(self, a: __m256i, x: u64) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_mask_set1_epi64(a, 1, x as i64) }
    }

    #[inline(always)]
    fn cmpgt_mask(self, a: __m256i, b: __m256i) -> u8 {
        // SAFETY: see the impl.
        unsafe { _mm256_cmpgt_epu64_mask(a, b) }
    }

    #[inline(always)]
    fn cmpeq_mask(self, a: __m256i, b: __m256i) -> u8 {
        // SAFETY: see the impl.
        unsafe { _mm256_cmpeq_epu64_mask(a, b) }
    }

    #[inline(always)]
    fn mask_sub(self, src: __m256i, k: u8, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl.
        unsafe { _mm256_mask_sub_epi64(src, k, a, b) }
    }
}

impl Ifma52 for Avx512Ifma512 {
    type V = __m512i;
    const LANES: usize = 8;

    fn call<F: Call<Self>>(self, f: F) -> F::Output {
        // SAFETY: the token in `self` proves AVX-512 F, VL and IFMA.
        unsafe { call_with_features(self, f) }
    }

    #[inline(always)]
    fn zero(self) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_setzero_si512() }
    }

    #[inline(always)]
    #[allow(clippy::cast_possible_wrap)] // a bit pattern, not a number
    fn splat(self, x: u64) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_set1_epi64(x as i64) }
    }

    #[inline(always)]
    fn load(self, src: &[u64]) -> __m512i {
        let src = &src[..8];
        // SAFETY: see the impl of `Avx512Ifma256`; `src` is eight u64, the load unaligned.
        unsafe { _mm512_loadu_si512(src.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(self, dst: &mut [u64], v: __m512i) {
        let dst = &mut dst[..8];
        // SAFETY: see the impl of `Avx512Ifma256`; `dst` is eight u64, the store unaligned.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), v) }
    }

    #[inline(always)]
    fn madd52lo(self, acc: __m512i, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_madd52lo_epu64(acc, a, b) }
    }

    #[inline(always)]
    fn madd52hi(self, acc: __m512i, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_madd52hi_epu64(acc, a, b) }
    }

    #[inline(always)]
    fn madd52lo_mask(self, acc: __m512i, k: u8, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_mask_madd52lo_epu64(acc, k, a, b) }
    }

    #[inline(always)]
    fn madd52hi_mask(self, acc: __m512i, k: u8, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_mask_madd52hi_epu64(acc, k, a, b) }
    }

    #[inline(always)]
    fn interleave_lo(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`. Index bit 3 picks b.
        unsafe { _mm512_permutex2var_epi64(a, _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0), b) }
    }

    #[inline(always)]
    fn interleave_hi(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`. Index bit 3 picks b.
        unsafe { _mm512_permutex2var_epi64(a, _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4), b) }
    }

    #[inline(always)]
    fn add(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_add_epi64(a, b) }
    }

    #[inline(always)]
    fn and(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_and_si512(a, b) }
    }

    #[inline(always)]
    fn srl52(self, a: __m512i) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_srli_epi64::<52>(a) }
    }

    #[inline(always)]
    fn shift_down(self, hi: __m512i, lo: __m512i) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_alignr_epi64::<1>(hi, lo) }
    }

    #[inline(always)]
    fn shift_up(self, hi: __m512i, lo: __m512i) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_alignr_epi64::<7>(hi, lo) }
    }

    #[inline(always)]
    #[allow(clippy::cast_sign_loss)] // a bit pattern, not a number
    fn lane1(self, a: __m512i) -> u64 {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm_extract_epi64::<1>(_mm512_castsi512_si128(a)) as u64 }
    }

    #[inline(always)]
    #[allow(clippy::cast_possible_wrap)] // a bit pattern, not a number
    fn set_lane0(self, a: __m512i, x: u64) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_mask_set1_epi64(a, 1, x as i64) }
    }

    #[inline(always)]
    fn cmpgt_mask(self, a: __m512i, b: __m512i) -> u8 {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_cmpgt_epu64_mask(a, b) }
    }

    #[inline(always)]
    fn cmpeq_mask(self, a: __m512i, b: __m512i) -> u8 {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_cmpeq_epu64_mask(a, b) }
    }

    #[inline(always)]
    fn mask_sub(self, src: __m512i, k: u8, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see the impl of `Avx512Ifma256`.
        unsafe { _mm512_mask_sub_epi64(src, k, a, b) }
    }
}
