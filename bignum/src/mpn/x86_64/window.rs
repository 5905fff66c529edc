//! Kernels that keep a window of eight limbs in registers (r8..r15) and add eight rows per
//! pass over the destination, in BMI2/ADX assembly, for lengths that are multiples of 8:
//! Montgomery reduction ([`redc_blocks`]), the schoolbook product ([`mul_blocks`]) and the
//! square's off-diagonal triangle ([`sqr_triangle_blocks`]).
//!
//! The row kernels of [`super::mul`] add one row per pass: every limb of the destination is
//! loaded and stored once per row. Here a block of eight rows, with multipliers q₀..q₇ parked
//! on the stack, streams through the destination once:
//!
//! - For each 8-limb chunk of the multiplicand, the next eight limbs of the destination are
//!   added to the window (the carry out of that addition is kept as a mask on the stack and
//!   added at the next chunk boundary), then eight rows: row j adds qⱼ times the chunk to the
//!   window, after which the window's low limb is final and is stored, and the window slides
//!   up one limb.
//! - At the end of the block the window holds the block's top eight limbs: the limbs of the
//!   destination there, the chunk carry and the block carry of the block before are added,
//!   and the carry out becomes the block carry, due at the top of the next block.
//!
//! A row adds q·c[0..8] (q in rdx, the chunk c at rsi) to the window w₀..w₇ in two chains:
//! `mulx` writes the high half of product i straight into the register of wᵢ (already read),
//! the OF chain adds wᵢ₊₁ to it and the CF chain adds the low half of product i+1, so the
//! window slides down one register per row with no moves; the top register gets the last high
//! half plus both chain carries (it cannot overflow: w + q·c < 2⁵⁷⁶).
//!
//! The scheme of the reduction in OpenSSL's `sqrx8x` Montgomery code (Andy Polyakov's
//! `x86_64-mont5`), written from the description above. Measured against GMP's kernels by
//! `benches/src/bin/kernels.rs` (docs/benchmarks-log.md, "Kernels against GMP", with the row
//! kernels' figures from before).
//!
//! No branch and no address depends on a limb value: the loop counts are public lengths.

use core::arch::asm;

use crate::limb::Limb;

/// Whether the window kernels take a length of n ≥ 1 limbs (a multiple of eight): the one
/// place the ADX back end chooses between them and the row kernels. (Exactly `n & 7 == 0`:
/// the callers' code, and so the register allocation around their asm, stays as it was; a
/// `jrcxz` in it reaches only 127 bytes.)
#[inline(always)]
pub(super) const fn fits(n: usize) -> bool {
    n & 7 == 0
}

/// One row: the window r8..r15 plus q·c[0..8] (q in rdx, c at rsi), the window's old low limb
/// plus the first low half left in rcx (its carry already in the CF chain), the window slid
/// down one register, the new top limb in r15. CF and OF must be clear on entry; they are
/// clear on exit. rax is scratch. With a register that holds zero as `$zero`, the chains end
/// on it instead of on a zero written to rax (one instruction less per row).
macro_rules! window_row {
    () => {
        concat!(window_row!(@products), "mov eax, 0\n", window_row!(@end "rax"))
    };
    ($zero:literal) => {
        concat!(window_row!(@products), window_row!(@end $zero))
    };
    (@end $zero:literal) => {
        concat!("adox r15, ", $zero, "\n", "adcx r15, ", $zero, "\n")
    };
    (@products) => {
        concat!(
            "mov rcx, r8\n",
            "mulx r8, rax, qword ptr [rsi]\n",
            "adcx rcx, rax\n",
            "adox r8, r9\n",
            "mulx r9, rax, qword ptr [rsi + 8]\n",
            "adcx r8, rax\n",
            "adox r9, r10\n",
            "mulx r10, rax, qword ptr [rsi + 16]\n",
            "adcx r9, rax\n",
            "adox r10, r11\n",
            "mulx r11, rax, qword ptr [rsi + 24]\n",
            "adcx r10, rax\n",
            "adox r11, r12\n",
            "mulx r12, rax, qword ptr [rsi + 32]\n",
            "adcx r11, rax\n",
            "adox r12, r13\n",
            "mulx r13, rax, qword ptr [rsi + 40]\n",
            "adcx r12, rax\n",
            "adox r13, r14\n",
            "mulx r14, rax, qword ptr [rsi + 48]\n",
            "adcx r13, rax\n",
            "adox r14, r15\n",
            "mulx r15, rax, qword ptr [rsi + 56]\n",
            "adcx r14, rax\n",
        )
    };
}

pub(super) use window_row;

/// Row j (j·8 = `$off`) with its parked multiplier: q from [rsp + `$off`], the final low limb
/// stored at [rdi + `$off`]. `xor` clears CF and OF, so the row does not wait for the flags
/// of the row before.
macro_rules! window_row_parked {
    ($off:literal) => {
        concat!(
            "mov rdx, qword ptr [rsp + ",
            $off,
            "]\n",
            "xor eax, eax\n",
            window_row!(),
            "mov qword ptr [rdi + ",
            $off,
            "], rcx\n",
        )
    };
}

/// The eight rows of a chunk with the parked multipliers, then the destination (rdi) and the
/// chunk (rsi) step eight limbs.
macro_rules! window_chunk {
    () => {
        concat!(
            window_row_parked!("0"),
            window_row_parked!("8"),
            window_row_parked!("16"),
            window_row_parked!("24"),
            window_row_parked!("32"),
            window_row_parked!("40"),
            window_row_parked!("48"),
            window_row_parked!("56"),
            "lea rdi, [rdi + 64]\n",
            "lea rsi, [rsi + 64]\n",
        )
    };
}

/// The window loaded from the eight limbs of the destination at rdi.
macro_rules! window_load {
    () => {
        concat!(
            "mov r8, qword ptr [rdi]\n",
            "mov r9, qword ptr [rdi + 8]\n",
            "mov r10, qword ptr [rdi + 16]\n",
            "mov r11, qword ptr [rdi + 24]\n",
            "mov r12, qword ptr [rdi + 32]\n",
            "mov r13, qword ptr [rdi + 40]\n",
            "mov r14, qword ptr [rdi + 48]\n",
            "mov r15, qword ptr [rdi + 56]\n",
        )
    };
}

/// The window plus the eight limbs of the destination at rdi, with CF as the carry in; the
/// carry out in CF.
macro_rules! window_adc_dest {
    () => {
        concat!(
            "adc r8, qword ptr [rdi]\n",
            "adc r9, qword ptr [rdi + 8]\n",
            "adc r10, qword ptr [rdi + 16]\n",
            "adc r11, qword ptr [rdi + 24]\n",
            "adc r12, qword ptr [rdi + 32]\n",
            "adc r13, qword ptr [rdi + 40]\n",
            "adc r14, qword ptr [rdi + 48]\n",
            "adc r15, qword ptr [rdi + 56]\n",
        )
    };
}

/// The chunks after the first: while rsi is not the end of the multiplicand ([rsp + 72]), add
/// the next eight limbs of the destination and the chunk carry (mask at [rsp + 80]) to the
/// window, keep the carry out as the new mask, and run the chunk. Local labels 3 and 4.
macro_rules! window_chunks {
    () => {
        concat!(
            "3:\n",
            "cmp rsi, qword ptr [rsp + 72]\n",
            "je 4f\n",
            "bt qword ptr [rsp + 80], 0\n",
            window_adc_dest!(),
            "sbb rax, rax\n",
            "mov qword ptr [rsp + 80], rax\n",
            window_chunk!(),
            "jmp 3b\n",
            "4:\n",
        )
    };
}

/// The end of a block: the window is the destination's eight limbs at rdi; add the block carry
/// of the block before ([rsp + 88], due at rdi), then those limbs with the chunk carry, store
/// the sum there and keep the carry out (0, 1 or 2) as the new block carry.
macro_rules! window_block_end {
    () => {
        concat!(
            "xor ecx, ecx\n",
            "add r8, qword ptr [rsp + 88]\n",
            "adc r9, 0\n",
            "adc r10, 0\n",
            "adc r11, 0\n",
            "adc r12, 0\n",
            "adc r13, 0\n",
            "adc r14, 0\n",
            "adc r15, 0\n",
            "adc rcx, 0\n",
            "bt qword ptr [rsp + 80], 0\n",
            window_adc_dest!(),
            "adc rcx, 0\n",
            "mov qword ptr [rsp + 88], rcx\n",
            "mov qword ptr [rdi], r8\n",
            "mov qword ptr [rdi + 8], r9\n",
            "mov qword ptr [rdi + 16], r10\n",
            "mov qword ptr [rdi + 24], r11\n",
            "mov qword ptr [rdi + 32], r12\n",
            "mov qword ptr [rdi + 40], r13\n",
            "mov qword ptr [rdi + 48], r14\n",
            "mov qword ptr [rdi + 56], r15\n",
        )
    };
}

/// Row j of a REDC block's first chunk (j·8 = `$off`): q = w₀·m' (m' at [rsp + 64]) from the
/// window's low limb, a register, so the next q waits only for the first two steps of the row
/// before; parked at [rsp + `$off`]. `test` clears the CF and OF that `imul` sets. The low
/// limb that drops out is zero.
macro_rules! redc_row_first {
    ($off:literal) => {
        concat!(
            "mov rdx, r8\n",
            "imul rdx, qword ptr [rsp + 64]\n",
            "mov qword ptr [rsp + ",
            $off,
            "], rdx\n",
            "test rdx, rdx\n",
            window_row!(),
        )
    };
}

/// REDC on a 2n-limb t, n = `m.len()` a non-zero multiple of 8: with Q < 2^(64n) the
/// multiple of m that zeroes t's low n limbs (Qᵢ = tᵢ·`minv`, `minv` = -m⁻¹ mod 2⁶⁴), and
/// h + c·2^(64n) = (t + Q·m) / 2^(64n), writes r = h − (m if c and `sec` are set, else 0)
/// mod 2^(64n) and returns c. `sec` is 0 or all-ones. t is destroyed.
///
/// Block b (rows 8b..8b+8) streams m through the window, starting from t[8b..8b+8]; its first
/// chunk computes q₀..q₇ as it goes. A last pass writes r from t's high half, subtracting m
/// by mask: the copy of [`super::mul::redc_rows`]'s callers and the conditional subtraction
/// of an exponentiation that keeps its values below 2^(64n) in one.
///
/// # Safety
/// The CPU has BMI2 and ADX; `m.len()` is a non-zero multiple of 8, `r.len() == m.len()` and
/// `t.len() == 2·m.len()`.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn redc_blocks(
    r: &mut [Limb],
    t: &mut [Limb],
    m: &[Limb],
    minv: Limb,
    sec: Limb,
) -> Limb {
    let n = m.len();
    invariant!(n > 0 && fits(n) && r.len() == n && t.len() == 2 * n);
    let carry: Limb;
    // SAFETY: the caller guarantees the lengths. Block b (b < n/8) reads and writes
    // t[8b..8b+n+8] ⊂ t[..2n] and reads m[..n]; the last pass reads t[n..2n] and m and writes
    // r[..n]. The stack frame (160 bytes below the entry rsp, released before the end) holds
    // q₀..q₇ at 0..64, m' at 64, the end of m at 72, the chunk carry mask at 80, the block
    // carry at 88, the blocks left at 96, the start of m at 104, the rewind 8n - 64 bytes at
    // 112, r at 120, `sec` at 128, t + n at 136 and n / 8 at 144.
    unsafe {
        asm!(
            "sub rsp, 160",
            "mov qword ptr [rsp + 64], rdx",
            "mov qword ptr [rsp + 120], r8",
            "mov qword ptr [rsp + 128], r9",
            "lea rax, [rsi + rcx * 8]",
            "mov qword ptr [rsp + 72], rax",
            "mov qword ptr [rsp + 104], rsi",
            "lea rax, [rdi + rcx * 8]",
            "mov qword ptr [rsp + 136], rax",
            "lea rax, [rcx * 8 - 64]",
            "mov qword ptr [rsp + 112], rax",
            "shr rcx, 3",
            "mov qword ptr [rsp + 96], rcx",
            "mov qword ptr [rsp + 144], rcx",
            "mov qword ptr [rsp + 88], 0",
            // Block loop: the window from t[8b..8b+8], then chunk 0 computes q₀..q₇.
            "2:",
            window_load!(),
            redc_row_first!("0"),
            redc_row_first!("8"),
            redc_row_first!("16"),
            redc_row_first!("24"),
            redc_row_first!("32"),
            redc_row_first!("40"),
            redc_row_first!("48"),
            redc_row_first!("56"),
            "lea rdi, [rdi + 64]",
            "lea rsi, [rsi + 64]",
            "mov qword ptr [rsp + 80], 0",
            window_chunks!(),
            // The window is t[8b+n..8b+n+8]; the block carry is due at 8b+n+8, the top of the
            // next block.
            window_block_end!(),
            // Next block: t eight limbs further than this block's start, m from its start.
            "sub rdi, qword ptr [rsp + 112]",
            "mov rsi, qword ptr [rsp + 104]",
            "dec qword ptr [rsp + 96]",
            "jnz 2b",
            // r = t[n..2n] − m·(c & sec): `mulx` by the bit c & sec (0 or 1) masks each limb of m
            // without touching the flags, so one `sbb` chain runs through all n limbs (`dec` keeps
            // CF). The high halves (zero) go to rax.
            "mov rdx, qword ptr [rsp + 88]",
            "and rdx, qword ptr [rsp + 128]",
            "mov rsi, qword ptr [rsp + 104]",
            "mov rdi, qword ptr [rsp + 136]",
            "mov r8, qword ptr [rsp + 120]",
            "mov rcx, qword ptr [rsp + 144]",
            "clc",
            "5:",
            "mov r9, qword ptr [rdi + 0]",
            "mulx rax, r10, qword ptr [rsi + 0]",
            "sbb r9, r10",
            "mov qword ptr [r8 + 0], r9",
            "mov r9, qword ptr [rdi + 8]",
            "mulx rax, r10, qword ptr [rsi + 8]",
            "sbb r9, r10",
            "mov qword ptr [r8 + 8], r9",
            "mov r9, qword ptr [rdi + 16]",
            "mulx rax, r10, qword ptr [rsi + 16]",
            "sbb r9, r10",
            "mov qword ptr [r8 + 16], r9",
            "mov r9, qword ptr [rdi + 24]",
            "mulx rax, r10, qword ptr [rsi + 24]",
            "sbb r9, r10",
            "mov qword ptr [r8 + 24], r9",
            "mov r9, qword ptr [rdi + 32]",
            "mulx rax, r10, qword ptr [rsi + 32]",
            "sbb r9, r10",
            "mov qword ptr [r8 + 32], r9",
            "mov r9, qword ptr [rdi + 40]",
            "mulx rax, r10, qword ptr [rsi + 40]",
            "sbb r9, r10",
            "mov qword ptr [r8 + 40], r9",
            "mov r9, qword ptr [rdi + 48]",
            "mulx rax, r10, qword ptr [rsi + 48]",
            "sbb r9, r10",
            "mov qword ptr [r8 + 48], r9",
            "mov r9, qword ptr [rdi + 56]",
            "mulx rax, r10, qword ptr [rsi + 56]",
            "sbb r9, r10",
            "mov qword ptr [r8 + 56], r9",
            "lea rsi, [rsi + 64]",
            "lea rdi, [rdi + 64]",
            "lea r8, [r8 + 64]",
            "dec rcx",
            "jnz 5b",
            "mov rax, qword ptr [rsp + 88]",
            "add rsp, 160",
            inout("rdi") t.as_mut_ptr() => _,
            inout("rsi") m.as_ptr() => _,
            inout("rdx") minv => _,
            inout("rcx") n => _,
            inout("r8") r.as_mut_ptr() => _,
            inout("r9") sec => _,
            out("rax") carry,
            out("r10") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
        );
    }
    carry
}

/// The off-diagonal triangle of eight limbs: r[0..16] = Σ_{i<j<8} aᵢaⱼ·Bⁱ⁺ʲ, a at rsi, r at
/// rdi (`r[0] = r[15] = 0`). Straight-line code with a register per limb position, printed by
/// `tri8.py` beside this file (which says how it works). Uses rdx, rax, rcx, r8..r15.
macro_rules! sqr_triangle_8 {
    () => {
        concat!(
            "mov rdx, qword ptr [rsi]\n",
            "mulx r8, r9, qword ptr [rsi + 8]\n",
            "mulx r10, r11, qword ptr [rsi + 16]\n",
            "add r11, r8\n",
            "mulx r12, r13, qword ptr [rsi + 24]\n",
            "adc r13, r10\n",
            "mulx r14, r15, qword ptr [rsi + 32]\n",
            "adc r15, r12\n",
            "mulx rax, rcx, qword ptr [rsi + 40]\n",
            "adc rcx, r14\n",
            "mulx r8, r10, qword ptr [rsi + 48]\n",
            "adc r10, rax\n",
            "mulx r12, r14, qword ptr [rsi + 56]\n",
            "adc r14, r8\n",
            "adc r12, 0\n",
            "mov qword ptr [rdi], 0\n",
            "mov qword ptr [rdi + 8], r9\n",
            "mov qword ptr [rdi + 16], r11\n",
            "mov rdx, qword ptr [rsi + 8]\n",
            "xor rax, rax\n",
            "mulx r8, rax, qword ptr [rsi + 16]\n",
            "adox r13, rax\n",
            "adcx r15, r8\n",
            "mulx r9, rax, qword ptr [rsi + 24]\n",
            "adox r15, rax\n",
            "adcx rcx, r9\n",
            "mulx r11, rax, qword ptr [rsi + 32]\n",
            "adox rcx, rax\n",
            "adcx r10, r11\n",
            "mulx r8, rax, qword ptr [rsi + 40]\n",
            "adox r10, rax\n",
            "adcx r14, r8\n",
            "mulx r9, rax, qword ptr [rsi + 48]\n",
            "adox r14, rax\n",
            "adcx r12, r9\n",
            "mulx r11, rax, qword ptr [rsi + 56]\n",
            "adox r12, rax\n",
            "mov rax, 0\n",
            "adcx r11, rax\n",
            "adox r11, rax\n",
            "mov qword ptr [rdi + 24], r13\n",
            "mov rdx, qword ptr [rsi + 16]\n",
            "xor r8, r8\n",
            "mulx r9, r8, qword ptr [rsi + 24]\n",
            "adox rcx, r8\n",
            "adcx r10, r9\n",
            "mulx rax, r8, qword ptr [rsi + 32]\n",
            "adox r10, r8\n",
            "adcx r14, rax\n",
            "mulx r13, r8, qword ptr [rsi + 40]\n",
            "adox r14, r8\n",
            "adcx r12, r13\n",
            "mulx r9, r8, qword ptr [rsi + 48]\n",
            "adox r12, r8\n",
            "adcx r11, r9\n",
            "mulx rax, r8, qword ptr [rsi + 56]\n",
            "adox r11, r8\n",
            "mov r8, 0\n",
            "adcx rax, r8\n",
            "adox rax, r8\n",
            "mov qword ptr [rdi + 32], r15\n",
            "mov rdx, qword ptr [rsi + 24]\n",
            "xor r13, r13\n",
            "mulx r9, r13, qword ptr [rsi + 32]\n",
            "adox r14, r13\n",
            "adcx r12, r9\n",
            "mulx r8, r13, qword ptr [rsi + 40]\n",
            "adox r12, r13\n",
            "adcx r11, r8\n",
            "mulx r15, r13, qword ptr [rsi + 48]\n",
            "adox r11, r13\n",
            "adcx rax, r15\n",
            "mulx r9, r13, qword ptr [rsi + 56]\n",
            "adox rax, r13\n",
            "mov r13, 0\n",
            "adcx r9, r13\n",
            "adox r9, r13\n",
            "mov qword ptr [rdi + 40], rcx\n",
            "mov rdx, qword ptr [rsi + 32]\n",
            "xor r8, r8\n",
            "mulx r15, r8, qword ptr [rsi + 40]\n",
            "adox r11, r8\n",
            "adcx rax, r15\n",
            "mulx r13, r8, qword ptr [rsi + 48]\n",
            "adox rax, r8\n",
            "adcx r9, r13\n",
            "mulx rcx, r8, qword ptr [rsi + 56]\n",
            "adox r9, r8\n",
            "mov r8, 0\n",
            "adcx rcx, r8\n",
            "adox rcx, r8\n",
            "mov qword ptr [rdi + 48], r10\n",
            "mov rdx, qword ptr [rsi + 40]\n",
            "xor r15, r15\n",
            "mulx r13, r15, qword ptr [rsi + 48]\n",
            "adox r9, r15\n",
            "adcx rcx, r13\n",
            "mulx r8, r15, qword ptr [rsi + 56]\n",
            "adox rcx, r15\n",
            "mov r15, 0\n",
            "adcx r8, r15\n",
            "adox r8, r15\n",
            "mov qword ptr [rdi + 56], r14\n",
            "mov rdx, qword ptr [rsi + 48]\n",
            "xor r10, r10\n",
            "mulx r13, r10, qword ptr [rsi + 56]\n",
            "adox r8, r10\n",
            "mov r10, 0\n",
            "adcx r13, r10\n",
            "adox r13, r10\n",
            "mov qword ptr [rdi + 64], r12\n",
            "mov qword ptr [rdi + 72], r11\n",
            "mov qword ptr [rdi + 80], rax\n",
            "mov qword ptr [rdi + 88], r9\n",
            "mov qword ptr [rdi + 96], rcx\n",
            "mov qword ptr [rdi + 104], r8\n",
            "mov qword ptr [rdi + 112], r13\n",
            "mov qword ptr [rdi + 120], 0\n",
        )
    };
}

pub(super) use sqr_triangle_8;

/// The off-diagonal triangle of the square, r = Σ_{i<j} aᵢaⱼ·Bⁱ⁺ʲ, for n = `a.len()` a
/// non-zero multiple of 8 and `r.len() == 2n`: with A_b = a[8b..8b+8], the triangle is the sum
/// of the triangles of the blocks A_b at B^(16b) (disjoint, so written side by side) and of
/// the rectangles A_b·a[8b+8..n] at B^(16b+8), each added as one window block with the eight
/// limbs of A_b as its multipliers.
///
/// # Safety
/// The CPU has BMI2 and ADX; `a.len()` is a non-zero multiple of 8 and `r.len() == 2·a.len()`.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn sqr_triangle_blocks(r: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    invariant!(n > 0 && fits(n) && r.len() == 2 * n);
    // SAFETY: block b reads a[8b..8b+8] and writes r[16b..16b+16], b < n/8; the end of a is
    // kept at [rsp] (16 bytes below the entry rsp, released before the end).
    unsafe {
        asm!(
            "sub rsp, 16",
            "mov qword ptr [rsp], rdx",
            "2:",
            sqr_triangle_8!(),
            "lea rsi, [rsi + 64]",
            "lea rdi, [rdi + 128]",
            "cmp rsi, qword ptr [rsp]",
            "jne 2b",
            "add rsp, 16",
            inout("rsi") a.as_ptr() => _,
            inout("rdi") r.as_mut_ptr() => _,
            inout("rdx") a.as_ptr_range().end => _,
            out("rax") _,
            out("rcx") _,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
        );
    }
    if n == 8 {
        return;
    }
    // Rectangle b (b < n/8 - 1): A_b = a[8b..8b+8] times a[8b+8..n], added at limb 16b+8.
    // SAFETY: rectangle b reads a[8b..n] and reads and writes r[16b+8..8b+n+8] ⊂ r[..2n-8];
    // its block carry is due at limb 8b+n+8, the last one's at 2n-8.
    let carry = unsafe {
        addmul_blocks(AddmulBlocks {
            r: r[8..].as_mut_ptr(),
            r_step: 16,
            x: a.as_ptr(),
            blocks: (n >> 3) - 1,
            c: a[8..].as_ptr(),
            c_end: a.as_ptr_range().end,
            c_step: 8,
        })
    };
    // The last block carry into r[2n-8..2n]: no carry out, the triangle is below B^(2n)/2.
    // One `adc` chain keeps the carry in CF; a Rust loop would carry it through `setb` and
    // memory from limb to limb.
    // SAFETY: r[2n-8..2n] is in bounds (n ≥ 16 here); no stack use.
    unsafe {
        asm!(
            "add qword ptr [{p}], {c}",
            "adc qword ptr [{p} + 8], 0",
            "adc qword ptr [{p} + 16], 0",
            "adc qword ptr [{p} + 24], 0",
            "adc qword ptr [{p} + 32], 0",
            "adc qword ptr [{p} + 40], 0",
            "adc qword ptr [{p} + 48], 0",
            "adc qword ptr [{p} + 56], 0",
            p = in(reg) r[2 * n - 8..].as_mut_ptr(),
            c = in(reg) carry,
            options(nostack),
        );
    }
}

/// r = a·b for `a.len()` and `b.len()` non-zero multiples of 8 and
/// `r.len() == a.len() + b.len()`: r zeroed, then each block b[8k..8k+8] of multipliers
/// streams a through the window, added at limb 8k.
///
/// # Safety
/// The CPU has BMI2 and ADX; the lengths are as above.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn mul_blocks(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let (na, nb) = (a.len(), b.len());
    invariant!(na > 0 && nb > 0 && fits(na) && fits(nb) && r.len() == na + nb);
    r.fill(0);
    // SAFETY: block k (k < nb/8) reads b[8k..8k+8] and a, and reads and writes
    // r[8k..8k+na+8] ⊂ r[..na+nb]; the last block carry (due at limb na+nb) is zero because
    // a·b < B^(na+nb).
    let carry = unsafe {
        addmul_blocks(AddmulBlocks {
            r: r.as_mut_ptr(),
            r_step: 8,
            x: b.as_ptr(),
            blocks: nb >> 3,
            c: a.as_ptr(),
            c_end: a.as_ptr_range().end,
            c_step: 0,
        })
    };
    debug_assert_eq!(carry, 0);
}

/// The operands of [`addmul_blocks`]; the steps are in limbs.
struct AddmulBlocks {
    /// Where block 0 adds (its low limb).
    r: *mut Limb,
    /// How much further each block adds than the one before.
    r_step: usize,
    /// The multipliers: eight limbs per block, one block after the other.
    x: *const Limb,
    /// The number of blocks, at least 1.
    blocks: usize,
    /// Block 0's multiplicand; each block's multiplicand runs to `c_end` (a multiple of eight
    /// limbs, at least eight).
    c: *const Limb,
    /// The end of every block's multiplicand.
    c_end: *const Limb,
    /// How much later each block's multiplicand starts than the one before.
    c_step: usize,
}

/// For each block k: r_k[0..len_k+8] += x[8k..8k+8]·c_k[0..len_k] where r_k = r + k·r_step,
/// c_k = c + k·c_step and len_k = c_end − c_k; the carry out of block k is due at the top of
/// r_k, and is added by block k+1 if its top is there; the last block's is returned (0, 1 or 2).
/// The blocks run one after the other, so a block sees what the ones before it wrote.
///
/// # Safety
/// The CPU has BMI2 and ADX; every pointer range above is valid (r_k for len_k + 8 limbs, read
/// and written) and len_k is a non-zero multiple of 8; the carry of block k lands in block
/// k+1's window end (r_(k+1) + len_(k+1) = r_k + len_k + 8), as it does for the square's
/// rectangles and the product.
#[target_feature(enable = "bmi2,adx")]
unsafe fn addmul_blocks(op: AddmulBlocks) -> Limb {
    let carry: Limb;
    // SAFETY: the caller guarantees the ranges. The stack frame (160 bytes below the entry
    // rsp, released before the end) holds the block's multipliers at 0..64, the end of the
    // multiplicand at 72, the chunk carry mask at 80, the block carry at 88, the blocks left
    // at 96, the next block's multiplicand and r at 104 and 112, the next multipliers at 120,
    // and the steps in bytes at 128 (c) and 136 (r).
    unsafe {
        asm!(
            "sub rsp, 160",
            "mov qword ptr [rsp + 72], r8",
            "mov qword ptr [rsp + 96], rcx",
            "mov qword ptr [rsp + 120], rdx",
            "shl r9, 3",
            "mov qword ptr [rsp + 128], r9",
            "shl r10, 3",
            "mov qword ptr [rsp + 136], r10",
            "mov qword ptr [rsp + 88], 0",
            // Block k: rdi = r_k, rsi = c_k. Park its multipliers.
            "2:",
            "mov rdx, qword ptr [rsp + 120]",
            "mov rax, qword ptr [rdx]",
            "mov qword ptr [rsp], rax",
            "mov rax, qword ptr [rdx + 8]",
            "mov qword ptr [rsp + 8], rax",
            "mov rax, qword ptr [rdx + 16]",
            "mov qword ptr [rsp + 16], rax",
            "mov rax, qword ptr [rdx + 24]",
            "mov qword ptr [rsp + 24], rax",
            "mov rax, qword ptr [rdx + 32]",
            "mov qword ptr [rsp + 32], rax",
            "mov rax, qword ptr [rdx + 40]",
            "mov qword ptr [rsp + 40], rax",
            "mov rax, qword ptr [rdx + 48]",
            "mov qword ptr [rsp + 48], rax",
            "mov rax, qword ptr [rdx + 56]",
            "mov qword ptr [rsp + 56], rax",
            "lea rdx, [rdx + 64]",
            "mov qword ptr [rsp + 120], rdx",
            "mov rax, qword ptr [rsp + 128]",
            "add rax, rsi",
            "mov qword ptr [rsp + 104], rax",
            "mov rax, qword ptr [rsp + 136]",
            "add rax, rdi",
            "mov qword ptr [rsp + 112], rax",
            // The window from r_k[0..8], then the first chunk.
            window_load!(),
            "mov qword ptr [rsp + 80], 0",
            window_chunk!(),
            window_chunks!(),
            window_block_end!(),
            "mov rsi, qword ptr [rsp + 104]",
            "mov rdi, qword ptr [rsp + 112]",
            "dec qword ptr [rsp + 96]",
            "jnz 2b",
            "mov rax, qword ptr [rsp + 88]",
            "add rsp, 160",
            inout("rdi") op.r => _,
            inout("rsi") op.c => _,
            inout("rdx") op.x => _,
            inout("rcx") op.blocks => _,
            inout("r8") op.c_end => _,
            inout("r9") op.c_step => _,
            inout("r10") op.r_step => _,
            out("rax") carry,
            out("r11") _,
            out("r12") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
        );
    }
    carry
}
