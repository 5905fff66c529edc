//! The doubling-and-diagonal pass of the schoolbook square, in BMI2/ADX assembly.
//!
//! No branch and no address depends on a limb value; the loop count is the public n.

use core::arch::asm;

use crate::limb::Limb;

/// r = 2·r + Σ aᵢ²·B²ⁱ for `r.len() == 2·a.len()`, where r holds the off-diagonal triangle
/// Σ_{i<j} aᵢaⱼ·Bⁱ⁺ʲ (so the result is a² and no carry comes out).
///
/// Per limb aᵢ: `mulx` gives aᵢ² = (lo, hi); the pair r₂ᵢ, r₂ᵢ₊₁ is doubled in the CF chain
/// (`adcx x, x` shifts left by one bit, the bit shifted out of the pair below coming in as CF)
/// and the square is added in the OF chain (`adox`). Both chains end with a zero carry
/// because the total a² < B²ⁿ.
///
/// # Safety
/// The CPU has BMI2 and ADX; `r.len() == 2·a.len()`.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn sqr_diag_addlsh1(r: &mut [Limb], a: &[Limb]) {
    debug_assert!(r.len() == 2 * a.len());
    let n = a.len();
    // SAFETY: the caller guarantees r holds 2n limbs and a holds n; iteration i reads a[i] and
    // reads and writes r[2i] and r[2i+1], for i < n (limb 0 alone when n is odd, then pairs of
    // limbs). No stack use.
    unsafe {
        asm!(
            // `test` clears CF and OF: both chains start at zero. An odd n does limb 0 alone first.
            "test {odd}, {odd}",
            "jz 4f",
            "mov rdx, qword ptr [{ap}]",
            "mulx {hi}, {lo}, rdx",
            "mov {x0}, qword ptr [{rp}]",
            "mov {x1}, qword ptr [{rp} + 8]",
            "adcx {x0}, {x0}",
            "adcx {x1}, {x1}",
            "adox {x0}, {lo}",
            "adox {x1}, {hi}",
            "mov qword ptr [{rp}], {x0}",
            "mov qword ptr [{rp} + 8], {x1}",
            "lea {ap}, [{ap} + 8]",
            "lea {rp}, [{rp} + 16]",
            "4:",
            "jrcxz 3f",
            ".p2align 4",
            "2:",
            "mov rdx, qword ptr [{ap}]",
            "mulx {hi}, {lo}, rdx",
            "mov {x0}, qword ptr [{rp}]",
            "mov {x1}, qword ptr [{rp} + 8]",
            "adcx {x0}, {x0}",
            "adcx {x1}, {x1}",
            "adox {x0}, {lo}",
            "adox {x1}, {hi}",
            "mov qword ptr [{rp}], {x0}",
            "mov qword ptr [{rp} + 8], {x1}",
            "mov rdx, qword ptr [{ap} + 8]",
            "mulx {hi}, {lo}, rdx",
            "mov {x0}, qword ptr [{rp} + 16]",
            "mov {x1}, qword ptr [{rp} + 24]",
            "adcx {x0}, {x0}",
            "adcx {x1}, {x1}",
            "adox {x0}, {lo}",
            "adox {x1}, {hi}",
            "mov qword ptr [{rp} + 16], {x0}",
            "mov qword ptr [{rp} + 24], {x1}",
            "lea {ap}, [{ap} + 16]",
            "lea {rp}, [{rp} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            inout("rcx") n >> 1 => _,
            odd = in(reg) n & 1,
            out("rdx") _,
            ap = inout(reg) a.as_ptr() => _,
            rp = inout(reg) r.as_mut_ptr() => _,
            lo = out(reg) _,
            hi = out(reg) _,
            x0 = out(reg) _,
            x1 = out(reg) _,
            options(nostack),
        );
    }
}
