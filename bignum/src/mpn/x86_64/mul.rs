//! The schoolbook product and Montgomery reduction in BMI2/ADX assembly: every row in one
//! assembly loop.
//!
//! Row i adds a·bᵢ into r[i..=i+n] with the body of [`super::adx::addmul_1`] (`mulx`, the high
//! halves in the CF chain with `adcx`, the limbs of r in the OF chain with `adox`), but the loop
//! over the rows is in the assembly too: no call, no length check and no carry store in Rust
//! between rows, and the pointers step back by lea only. Measured against the per-row calls in
//! `benches/src/bin/kernels.rs`.
//!
//! No branch and no address depends on a limb value: the loop counts are the public lengths.

use core::arch::asm;

use super::adx::{addmul_block_8, addmul_step_1};
use crate::limb::Limb;

/// One whole ADX `addmul` row of n limbs, after its multiplier is in rdx: the n mod 8 single
/// limbs, then the n / 8 blocks of eight ([`addmul_step_1`], [`addmul_block_8`]), then CF and
/// OF folded into `{c}` (the row's high limb; `mov` keeps the flags). Starts the chains itself
/// (`xor` clears `{c}`, CF and OF). Operands as in the row bodies, plus `{negn}` = -n and
/// `{blocks}` = n / 8; uses rcx and the local labels 3 to 7. `{ap}` and `{rp}` end n limbs on.
macro_rules! addmul_row {
    () => {
        concat!(
            "mov rcx, {negn}\n",
            "neg rcx\n",
            "and ecx, 7\n",
            "xor {c:e}, {c:e}\n",
            "jrcxz 4f\n",
            "3:\n",
            addmul_step_1!(),
            "lea rcx, [rcx - 1]\n",
            "jrcxz 4f\n",
            "jmp 3b\n",
            "4:\n",
            "mov rcx, {blocks}\n",
            "jmp 6f\n",
            ".p2align 5\n",
            "5:\n",
            addmul_block_8!(),
            "lea {ap}, [{ap} + 64]\n",
            "lea {rp}, [{rp} + 64]\n",
            "lea rcx, [rcx - 1]\n",
            "6:\n",
            "jrcxz 7f\n",
            "jmp 5b\n",
            "7:\n",
            "mov {l0:e}, 0\n",
            "adcx {c}, {l0}\n",
            "adox {c}, {l0}\n",
        )
    };
}

/// r = a·b for `a.len() = n ≥ 1`, `b.len() ≥ 1`, `r.len() == n + b.len()`. When both lengths
/// are multiples of 8, [`super::window::mul_blocks`] (eight rows per pass, the window in
/// registers); otherwise the rows below.
///
/// # Safety
/// The CPU has BMI2 and ADX; the lengths are as above.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn mul_basecase(r: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = a.len();
    invariant!(n >= 1 && !b.is_empty() && r.len() == n + b.len());
    if super::window::fits(n) && super::window::fits(b.len()) {
        // SAFETY: both lengths are non-zero multiples of 8 and r holds their sum; the caller
        // guarantees BMI2 and ADX.
        unsafe { super::window::mul_blocks(r, a, b) };
        return;
    }
    // Row 0 writes r[0..=n].
    // SAFETY: r[..n] and a both hold n limbs; the features are the caller's guarantee.
    r[n] = unsafe { super::adx::mul_1(&mut r[..n], a, b[0]) };
    let rows = b.len() - 1;
    if rows == 0 {
        return;
    }
    // Row i (1 ≤ i < b.len()) reads and writes r[i..i+n], then writes r[i+n].
    // SAFETY: the caller guarantees the lengths: row i touches r[i..=i+n] ⊂ r[..n+b.len()],
    // a[..n] and b[i]. Each row walks (n mod 8) single limbs, then n / 8 blocks of eight, and
    // steps back by n limbs; no stack use.
    unsafe {
        asm!(
            // Row i: b_i as the multiplier, then the row.
            "2:",
            "mov rdx, qword ptr [{bp}]",
            addmul_row!(),
            // Store the row's high limb as r[i+n], which no row has written yet.
            "mov qword ptr [{rp}], {c}",
            // Next row: a from its start, r one limb further than this row's start.
            "lea {ap}, [{ap} + {negn} * 8]",
            "lea {rp}, [{rp} + {negn} * 8 + 8]",
            "lea {bp}, [{bp} + 8]",
            "dec {rows}",
            "jnz 2b",
            rows = inout(reg) rows => _,
            negn = in(reg) n.wrapping_neg(),
            blocks = in(reg) n >> 3,
            bp = inout(reg) b[1..].as_ptr() => _,
            ap = inout(reg) a.as_ptr() => _,
            rp = inout(reg) r[1..].as_mut_ptr() => _,
            c = out(reg) _,
            h0 = out(reg) _,
            l0 = out(reg) _,
            l1 = out(reg) _,
            out("rcx") _,
            out("rdx") _,
            options(nostack),
        );
    }
}

/// The n rows of Montgomery reduction (REDC) on a 2n-limb t, n = `m.len()` ≥ 1: row i adds
/// qᵢ·m to t[i..i+n] with qᵢ = tᵢ·`minv` mod 2⁶⁴, which zeroes tᵢ, and parks the row's carry
/// limb (which belongs at limb i+n) in tᵢ. The caller adds the parked carries t[..n] to
/// t[n..] (as GMP's `mpn_redc_1`).
///
/// # Safety
/// The CPU has BMI2 and ADX; `t.len() == 2·m.len()`, `m` non-empty.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn redc_rows(t: &mut [Limb], m: &[Limb], minv: Limb) {
    let n = m.len();
    invariant!(n >= 1 && t.len() == 2 * n);
    // SAFETY: the caller guarantees the lengths: row i reads and writes t[i..i+n] ⊂ t[..2n]
    // and m[..n]. Each row walks (n mod 8) single limbs, then n / 8 blocks of eight, and steps
    // back by n - 1 limbs; no stack use.
    unsafe {
        asm!(
            // `{ap}` walks m and `{rp}` walks t: the operand names of the shared row body.
            // Row i: q = t_i·m' as the multiplier, then the row.
            "2:",
            "mov rdx, {minv}",
            "imul rdx, qword ptr [{rp}]",
            addmul_row!(),
            // Park the row's carry limb in t_i (zeroed by this row).
            "mov qword ptr [{rp} + {negn} * 8], {c}",
            // Next row: m from its start, t one limb further than this row's start.
            "lea {ap}, [{ap} + {negn} * 8]",
            "lea {rp}, [{rp} + {negn} * 8 + 8]",
            "dec {rows}",
            "jnz 2b",
            rows = inout(reg) n => _,
            negn = in(reg) n.wrapping_neg(),
            blocks = in(reg) n >> 3,
            minv = in(reg) minv,
            ap = inout(reg) m.as_ptr() => _,
            rp = inout(reg) t.as_mut_ptr() => _,
            c = out(reg) _,
            h0 = out(reg) _,
            l0 = out(reg) _,
            l1 = out(reg) _,
            out("rcx") _,
            out("rdx") _,
            options(nostack),
        );
    }
}
