//! The Montgomery product of eight limbs (512 bits: RSA-1024's CRT halves) in one pass of
//! BMI2/ADX assembly, with the whole accumulator in registers.
//!
//! Below 16 limbs the product-then-REDC kernels lose to their own overhead: the 2n-limb
//! product goes through memory, and REDC's eight rows wait on the chain q → `mulx` → the next
//! q (about ten cycles a row) with nothing else to run beside it. Here the rows of the product
//! and of the reduction alternate (CIOS, Koç, Acar and Kaliski 1996): for i = 0..8,
//!
//! - row P adds aᵢ·b to the accumulator S (nine limbs, the top one 0 or 1), and slides it
//!   down one register as it goes: t₀ is left in rcx, the new limbs 1..9 in r8..r15, rbp;
//! - row R adds q·m at the same place, q = t₀·m' mod 2⁶⁴, so that t₀ becomes zero.
//!
//! Each row is one `mulx` per limb and two carry chains (`adcx` for the low halves, `adox`
//! for the high ones). Row P's products do not depend on q, so the out-of-order core runs them
//! while row R waits for its q: the chain costs about a row per pair of rows, and the
//! multiplier unit, not the chain, sets the pace.
//!
//! S stays below R + m (R = 2⁵¹²) for any a, b < R: S' = (S + aᵢ·b + q·m)/2⁶⁴ <
//! (R + m + (2⁶⁴ − 1)(R + m))/2⁶⁴ = R + m. So the sum before the slide is below 2⁶⁵·R: its limb
//! 9 is 0 or 1, and the top register (rbp) never overflows. The result is a·b·R⁻¹ mod m plus 0
//! or m, below R + m; the last pass subtracts m by mask if asked (`sec`), which brings a value
//! with its top bit set below R, or returns that bit for the caller to finish with.
//!
//! No branch and no address depends on a limb value.

use core::arch::asm;

use super::window::{sqr_triangle_8, window_row};
use crate::limb::Limb;

/// Row P for limb `$off`/8 of a (a's address at [rsp + 216]): S (r8..r15, top limb rbp) plus
/// aᵢ·b (b at rsi), slid down one limb: the low limb t₀ in rcx, limbs 1..8 in r8..r15, limb 9
/// in rbp. Its products are [`window_row`]'s (low halves up the CF chain, high halves up the
/// OF chain); the end adds S's top limb and keeps both chains' carries as limb 9.
macro_rules! mont8_row_p {
    ($off:literal) => {
        concat!(
            "mov rdx, qword ptr [rsp + 216]\n",
            "mov rdx, qword ptr [rdx + ",
            $off,
            "]\n",
            "xor eax, eax\n",
            window_row!(@products),
            "adox r15, rbp\n",
            "mov eax, 0\n",
            "mov ebp, 0\n",
            "adcx r15, rax\n",
            "adox rbp, rax\n",
            "adcx rbp, rax\n",
        )
    };
}

/// Row R: q = t₀·m' (m' at [rsp + 192]), then q·m (m at rdi) added to t₀ (rcx, which becomes
/// zero), limbs 1..8 (r8..r15) and limb 9 (rbp). Afterwards r8..r15 and rbp are S' (limbs
/// 0..7 and the top limb).
macro_rules! mont8_row_r {
    () => {
        concat!(
            "mov rdx, rcx\n",
            "imul rdx, qword ptr [rsp + 192]\n",
            "xor eax, eax\n",
            "mulx rbx, rax, qword ptr [rdi]\n",
            "adcx rcx, rax\n",
            "adox r8, rbx\n",
            "mulx rbx, rax, qword ptr [rdi + 8]\n",
            "adcx r8, rax\n",
            "adox r9, rbx\n",
            "mulx rbx, rax, qword ptr [rdi + 16]\n",
            "adcx r9, rax\n",
            "adox r10, rbx\n",
            "mulx rbx, rax, qword ptr [rdi + 24]\n",
            "adcx r10, rax\n",
            "adox r11, rbx\n",
            "mulx rbx, rax, qword ptr [rdi + 32]\n",
            "adcx r11, rax\n",
            "adox r12, rbx\n",
            "mulx rbx, rax, qword ptr [rdi + 40]\n",
            "adcx r12, rax\n",
            "adox r13, rbx\n",
            "mulx rbx, rax, qword ptr [rdi + 48]\n",
            "adcx r13, rax\n",
            "adox r14, rbx\n",
            "mulx rbx, rax, qword ptr [rdi + 56]\n",
            "adcx r14, rax\n",
            "adox r15, rbx\n",
            "mov eax, 0\n",
            "adcx r15, rax\n",
            "adox rbp, rax\n",
            "adcx rbp, rax\n",
        )
    };
}

/// The end of both kernels: the window r8..r15 with its carry c (0 or 1) in rbp; r = window −
/// m·(c & sec) mod R, written to r (address at [rsp + 200], `sec` at [rsp + 208], m at the
/// register `$m`), and c in rax. m is masked into [rsp + 128..192] first (`and` would break
/// the `sbb` chain), then subtracted in one chain.
macro_rules! mont8_finish {
    ($m:literal) => {
        concat!(
            "mov rdx, rbp\n",
            "neg rdx\n",
            "and rdx, qword ptr [rsp + 208]\n",
            mont8_mask_limb!($m, "0", "128"),
            mont8_mask_limb!($m, "8", "136"),
            mont8_mask_limb!($m, "16", "144"),
            mont8_mask_limb!($m, "24", "152"),
            mont8_mask_limb!($m, "32", "160"),
            mont8_mask_limb!($m, "40", "168"),
            mont8_mask_limb!($m, "48", "176"),
            mont8_mask_limb!($m, "56", "184"),
            "sub r8, qword ptr [rsp + 128]\n",
            "sbb r9, qword ptr [rsp + 136]\n",
            "sbb r10, qword ptr [rsp + 144]\n",
            "sbb r11, qword ptr [rsp + 152]\n",
            "sbb r12, qword ptr [rsp + 160]\n",
            "sbb r13, qword ptr [rsp + 168]\n",
            "sbb r14, qword ptr [rsp + 176]\n",
            "sbb r15, qword ptr [rsp + 184]\n",
            "mov rcx, qword ptr [rsp + 200]\n",
            "mov qword ptr [rcx], r8\n",
            "mov qword ptr [rcx + 8], r9\n",
            "mov qword ptr [rcx + 16], r10\n",
            "mov qword ptr [rcx + 24], r11\n",
            "mov qword ptr [rcx + 32], r12\n",
            "mov qword ptr [rcx + 40], r13\n",
            "mov qword ptr [rcx + 48], r14\n",
            "mov qword ptr [rcx + 56], r15\n",
            "mov rax, rbp\n",
        )
    };
}

/// Limb `$off`/8 of m (at the register `$m`) and the mask in rdx, stored at [rsp + `$to`].
macro_rules! mont8_mask_limb {
    ($m:literal, $off:literal, $to:literal) => {
        concat!(
            "mov rax, qword ptr [",
            $m,
            " + ",
            $off,
            "]\n",
            "and rax, rdx\n",
            "mov qword ptr [rsp + ",
            $to,
            "], rax\n",
        )
    };
}

/// Limbs 2i and 2i+1 of the square, from the triangle's (at [rsp + `$t`], doubled in the CF
/// chain) and aᵢ² (aᵢ at [rsi + `$a`], added in the OF chain), into the registers `$x0`, `$x1`.
/// rdx, rax and rcx are scratch.
macro_rules! mont8_diag_pair {
    ($a:literal, $t:literal, $t1:literal, $x0:literal, $x1:literal) => {
        concat!(
            "mov rdx, qword ptr [rsi + ",
            $a,
            "]\n",
            "mulx rcx, rax, rdx\n",
            "mov ",
            $x0,
            ", qword ptr [rsp + ",
            $t,
            "]\n",
            "mov ",
            $x1,
            ", qword ptr [rsp + ",
            $t1,
            "]\n",
            "adcx ",
            $x0,
            ", ",
            $x0,
            "\n",
            "adcx ",
            $x1,
            ", ",
            $x1,
            "\n",
            "adox ",
            $x0,
            ", rax\n",
            "adox ",
            $x1,
            ", rcx\n",
        )
    };
}

/// The same pair written back to [rsp + `$t`] through rbp and rdi.
macro_rules! mont8_diag_pair_stored {
    ($a:literal, $t:literal, $t1:literal) => {
        concat!(
            mont8_diag_pair!($a, $t, $t1, "rbp", "rdi"),
            "mov qword ptr [rsp + ",
            $t,
            "], rbp\n",
            "mov qword ptr [rsp + ",
            $t1,
            "], rdi\n",
        )
    };
}

/// A row of the square's reduction: q = w₀·m' (m' at [rsp + 192]) and the window plus q·m (m
/// at rsi), slid down one limb ([`window_row`], its chains ending on rbp, zero during the
/// reduction; the limb that drops out, in rcx, is zero).
macro_rules! mont8_redc_row {
    () => {
        concat!(
            "mov rdx, r8\n",
            "imul rdx, qword ptr [rsp + 192]\n",
            "test rdx, rdx\n",
            window_row!("rbp"),
        )
    };
}

/// r = a·b·R⁻¹ − m·(c & `sec`) mod R, R = 2⁵¹², where r + c·R ≡ a·b·R⁻¹ (mod m) is below
/// R + m, and returns c (0 or 1); `sec` is 0 or all-ones. With `sec` = 0 this is the contract of
/// [`crate::mpn::mont_mul`] (for a < m the value is below 2m); with `sec` all-ones, of
/// [`crate::mpn::redc_1_below_r`] applied to a·b (any a, b < R; r < R). `minv` = −m⁻¹ mod 2⁶⁴.
///
/// # Safety
/// The CPU has BMI2 and ADX.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn mont_mul_8(
    r: &mut [Limb; 8],
    a: &[Limb; 8],
    b: &[Limb; 8],
    m: &[Limb; 8],
    minv: Limb,
    sec: Limb,
) -> Limb {
    let carry: Limb;
    // SAFETY: the arrays are eight limbs each; r is written only at the end, after every read
    // of a and b. rbx and rbp are saved and restored around the block; the frame (224 bytes
    // below the two pushes, released before the end) holds the masked m at 128..192, m' at
    // 192, r's address at 200, `sec` at 208 and a's address at 216.
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            "sub rsp, 224",
            "mov qword ptr [rsp + 216], rcx",
            "mov qword ptr [rsp + 192], rdx",
            "mov qword ptr [rsp + 200], r8",
            "mov qword ptr [rsp + 208], r9",
            "xor r8d, r8d",
            "xor r9d, r9d",
            "xor r10d, r10d",
            "xor r11d, r11d",
            "xor r12d, r12d",
            "xor r13d, r13d",
            "xor r14d, r14d",
            "xor r15d, r15d",
            "xor ebp, ebp",
            mont8_row_p!("0"),
            mont8_row_r!(),
            mont8_row_p!("8"),
            mont8_row_r!(),
            mont8_row_p!("16"),
            mont8_row_r!(),
            mont8_row_p!("24"),
            mont8_row_r!(),
            mont8_row_p!("32"),
            mont8_row_r!(),
            mont8_row_p!("40"),
            mont8_row_r!(),
            mont8_row_p!("48"),
            mont8_row_r!(),
            mont8_row_p!("56"),
            mont8_row_r!(),
            mont8_finish!("rdi"),
            "add rsp, 224",
            "pop rbp",
            "pop rbx",
            in("rsi") b.as_ptr(),
            in("rdi") m.as_ptr(),
            inout("rcx") a.as_ptr() => _,
            inout("rdx") minv => _,
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

/// `squarings` ≥ 1 times [`mont_mul_8`] of the value by itself, starting from a, in one asm
/// loop: each time the square by its off-diagonal triangle (28 `mulx`, into the frame),
/// doubled with the diagonal added (the low eight limbs straight into the window r8..r15),
/// then REDC's eight rows on the window and the high eight limbs added at the end: 100
/// `mulx` against the 128 of the product. After the first time the value squared is r's.
/// Returns the last carry.
///
/// # Safety
/// The CPU has BMI2 and ADX; `squarings` ≥ 1.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn mont_sqr_8(
    r: &mut [Limb; 8],
    a: &[Limb; 8],
    squarings: usize,
    m: &[Limb; 8],
    minv: Limb,
    sec: Limb,
) -> Limb {
    invariant!(squarings > 0);
    let carry: Limb;
    // SAFETY: the arrays are eight limbs each; r is written only at the end of each squaring,
    // after every read of that squaring's operand (a, then r itself). rbx and rbp are saved
    // and restored around the block; the frame (224 bytes below the two pushes, released
    // before the end) holds the square at 0..128, the masked m at 128..192, m' at 192, r's
    // address at 200, `sec` at 208 and the squarings left at 216. The loop count is public.
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            "sub rsp, 224",
            "mov qword ptr [rsp + 192], rdx",
            "mov qword ptr [rsp + 200], r8",
            "mov qword ptr [rsp + 208], r9",
            "mov qword ptr [rsp + 216], rcx",
            "mov rbx, rdi",
            "2:",
            "mov rdi, rsp",
            sqr_triangle_8!(),
            // 2·triangle + diagonal: limbs 0..8 into the window, 8..16 back to the frame.
            "xor eax, eax",
            mont8_diag_pair!("0", "0", "8", "r8", "r9"),
            mont8_diag_pair!("8", "16", "24", "r10", "r11"),
            mont8_diag_pair!("16", "32", "40", "r12", "r13"),
            mont8_diag_pair!("24", "48", "56", "r14", "r15"),
            mont8_diag_pair_stored!("32", "64", "72"),
            mont8_diag_pair_stored!("40", "80", "88"),
            mont8_diag_pair_stored!("48", "96", "104"),
            mont8_diag_pair_stored!("56", "112", "120"),
            "mov rsi, rbx",
            "xor ebp, ebp",
            mont8_redc_row!(),
            mont8_redc_row!(),
            mont8_redc_row!(),
            mont8_redc_row!(),
            mont8_redc_row!(),
            mont8_redc_row!(),
            mont8_redc_row!(),
            mont8_redc_row!(),
            // (low + Q·m)/R plus the high half: below R + m, its carry c in rbp.
            "add r8, qword ptr [rsp + 64]",
            "adc r9, qword ptr [rsp + 72]",
            "adc r10, qword ptr [rsp + 80]",
            "adc r11, qword ptr [rsp + 88]",
            "adc r12, qword ptr [rsp + 96]",
            "adc r13, qword ptr [rsp + 104]",
            "adc r14, qword ptr [rsp + 112]",
            "adc r15, qword ptr [rsp + 120]",
            "mov ebp, 0",
            "adc rbp, 0",
            mont8_finish!("rsi"),
            // The next squaring is of r (its address in rcx).
            "mov rsi, rcx",
            "dec qword ptr [rsp + 216]",
            "jnz 2b",
            "add rsp, 224",
            "pop rbp",
            "pop rbx",
            inout("rsi") a.as_ptr() => _,
            inout("rdi") m.as_ptr() => _,
            inout("rdx") minv => _,
            inout("r8") r.as_mut_ptr() => _,
            inout("r9") sec => _,
            inout("rcx") squarings => _,
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
