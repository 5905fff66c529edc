//! BMI2/ADX kernels in inline assembly: `mulx` for the products, `adcx`/`adox` for two
//! independent carry chains (CF and OF), `adc`/`sbb` for plain addition and subtraction.
//!
//! Each kernel runs a one-limb loop over the first `n mod k` limbs, then a loop over blocks of
//! k limbs: k = 8 for `addmul_1` and `submul_1` (the longer block pays the loop control half as
//! often, which shows on long operands), 4 for the others. The only branches are these loop
//! controls, on the public length `n`; no branch and no address depends on a limb value, so the
//! time depends on `n` only.
//!
//! Loop control must not disturb the carry chains: `lea` and `mov` leave every flag alone,
//! `dec` leaves CF alone (but writes OF), `jrcxz` tests RCX without reading flags. Kernels that
//! use only CF count down with `dec`/`jnz`; those that keep a chain in OF count down with
//! `lea rcx, [rcx - 1]` and `jrcxz`.
//!
//! # Safety
//!
//! Every function here is `unsafe` for two reasons the caller must guarantee: the CPU has BMI2
//! and ADX (a [`crate::cpu::Adx`] token), and the slices have the lengths documented on each
//! function (the assembly reads and writes `r.len()` limbs of every operand).

use core::arch::asm;

use crate::limb::Limb;

/// The 8-limb body of every ADX `addmul` row (`addmul_1`, and the row loops of
/// `mul::mul_basecase` and `mul::redc_rows`): r[0..8] += a[0..8]·rdx, the low halves plus the
/// previous high half in the CF chain (`adcx`), the limbs of r in the OF chain (`adox`). In
/// the `asm!` that uses it: `{ap}` points at a, `{rp}` at r (neither is advanced), `{c}`
/// carries the pending high half in and out, `{h0}`, `{l0}`, `{l1}` are scratch.
macro_rules! addmul_block_8 {
    () => {
        concat!(
            "mulx {h0}, {l0}, qword ptr [{ap}]\n",
            "adcx {l0}, {c}\n",
            "adox {l0}, qword ptr [{rp}]\n",
            "mov qword ptr [{rp}], {l0}\n",
            "mulx {c}, {l1}, qword ptr [{ap} + 8]\n",
            "adcx {l1}, {h0}\n",
            "adox {l1}, qword ptr [{rp} + 8]\n",
            "mov qword ptr [{rp} + 8], {l1}\n",
            "mulx {h0}, {l0}, qword ptr [{ap} + 16]\n",
            "adcx {l0}, {c}\n",
            "adox {l0}, qword ptr [{rp} + 16]\n",
            "mov qword ptr [{rp} + 16], {l0}\n",
            "mulx {c}, {l1}, qword ptr [{ap} + 24]\n",
            "adcx {l1}, {h0}\n",
            "adox {l1}, qword ptr [{rp} + 24]\n",
            "mov qword ptr [{rp} + 24], {l1}\n",
            "mulx {h0}, {l0}, qword ptr [{ap} + 32]\n",
            "adcx {l0}, {c}\n",
            "adox {l0}, qword ptr [{rp} + 32]\n",
            "mov qword ptr [{rp} + 32], {l0}\n",
            "mulx {c}, {l1}, qword ptr [{ap} + 40]\n",
            "adcx {l1}, {h0}\n",
            "adox {l1}, qword ptr [{rp} + 40]\n",
            "mov qword ptr [{rp} + 40], {l1}\n",
            "mulx {h0}, {l0}, qword ptr [{ap} + 48]\n",
            "adcx {l0}, {c}\n",
            "adox {l0}, qword ptr [{rp} + 48]\n",
            "mov qword ptr [{rp} + 48], {l0}\n",
            "mulx {c}, {l1}, qword ptr [{ap} + 56]\n",
            "adcx {l1}, {h0}\n",
            "adox {l1}, qword ptr [{rp} + 56]\n",
            "mov qword ptr [{rp} + 56], {l1}\n",
        )
    };
}
pub(super) use addmul_block_8;

/// One limb of an ADX `addmul` row, the operands as in [`addmul_block_8`]: `r[0] += a[0]·rdx`
/// with the chains carried on, then `{ap}` and `{rp}` step one limb.
macro_rules! addmul_step_1 {
    () => {
        concat!(
            "mulx {h0}, {l0}, qword ptr [{ap}]\n",
            "adcx {l0}, {c}\n",
            "adox {l0}, qword ptr [{rp}]\n",
            "mov qword ptr [{rp}], {l0}\n",
            "mov {c}, {h0}\n",
            "lea {ap}, [{ap} + 8]\n",
            "lea {rp}, [{rp} + 8]\n",
        )
    };
}
pub(super) use addmul_step_1;

/// r = a + b; returns the carry (0 or 1).
///
/// # Safety
/// The CPU has BMI2 and ADX; `r.len() == a.len() == b.len()`.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn add_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    invariant!(r.len() == a.len() && a.len() == b.len());
    let n = r.len();
    let carry: Limb;
    // SAFETY: the caller guarantees the slices all hold n limbs; the loops touch exactly limbs
    // 0..n of each ((n mod 4) single limbs, then n / 4 blocks of four). No stack use.
    unsafe {
        asm!(
            "xor {c:e}, {c:e}",
            "test {rem}, {rem}",
            "jz 3f",
            "2:",
            "mov {t0}, qword ptr [{ap}]",
            "adc {t0}, qword ptr [{bp}]",
            "mov qword ptr [{rp}], {t0}",
            "lea {ap}, [{ap} + 8]",
            "lea {bp}, [{bp} + 8]",
            "lea {rp}, [{rp} + 8]",
            "dec {rem}",
            "jnz 2b",
            "3:",
            "jrcxz 5f",
            ".p2align 4",
            "4:",
            "mov {t0}, qword ptr [{ap}]",
            "mov {t1}, qword ptr [{ap} + 8]",
            "adc {t0}, qword ptr [{bp}]",
            "adc {t1}, qword ptr [{bp} + 8]",
            "mov qword ptr [{rp}], {t0}",
            "mov qword ptr [{rp} + 8], {t1}",
            "mov {t0}, qword ptr [{ap} + 16]",
            "mov {t1}, qword ptr [{ap} + 24]",
            "adc {t0}, qword ptr [{bp} + 16]",
            "adc {t1}, qword ptr [{bp} + 24]",
            "mov qword ptr [{rp} + 16], {t0}",
            "mov qword ptr [{rp} + 24], {t1}",
            "lea {ap}, [{ap} + 32]",
            "lea {bp}, [{bp} + 32]",
            "lea {rp}, [{rp} + 32]",
            "dec rcx",
            "jnz 4b",
            "5:",
            "adc {c:e}, 0",
            c = out(reg) carry,
            rem = inout(reg) n & 3 => _,
            inout("rcx") n >> 2 => _,
            ap = inout(reg) a.as_ptr() => _,
            bp = inout(reg) b.as_ptr() => _,
            rp = inout(reg) r.as_mut_ptr() => _,
            t0 = out(reg) _,
            t1 = out(reg) _,
            options(nostack),
        );
    }
    carry
}

/// r = a - b; returns the borrow (0 or 1).
///
/// # Safety
/// The CPU has BMI2 and ADX; `r.len() == a.len() == b.len()`.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn sub_n(r: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    invariant!(r.len() == a.len() && a.len() == b.len());
    let n = r.len();
    let borrow: Limb;
    // SAFETY: the caller guarantees the slices all hold n limbs; the loops touch exactly limbs
    // 0..n of each ((n mod 4) single limbs, then n / 4 blocks of four). No stack use.
    unsafe {
        asm!(
            "xor {c:e}, {c:e}",
            "test {rem}, {rem}",
            "jz 3f",
            "2:",
            "mov {t0}, qword ptr [{ap}]",
            "sbb {t0}, qword ptr [{bp}]",
            "mov qword ptr [{rp}], {t0}",
            "lea {ap}, [{ap} + 8]",
            "lea {bp}, [{bp} + 8]",
            "lea {rp}, [{rp} + 8]",
            "dec {rem}",
            "jnz 2b",
            "3:",
            "jrcxz 5f",
            ".p2align 4",
            "4:",
            "mov {t0}, qword ptr [{ap}]",
            "mov {t1}, qword ptr [{ap} + 8]",
            "sbb {t0}, qword ptr [{bp}]",
            "sbb {t1}, qword ptr [{bp} + 8]",
            "mov qword ptr [{rp}], {t0}",
            "mov qword ptr [{rp} + 8], {t1}",
            "mov {t0}, qword ptr [{ap} + 16]",
            "mov {t1}, qword ptr [{ap} + 24]",
            "sbb {t0}, qword ptr [{bp} + 16]",
            "sbb {t1}, qword ptr [{bp} + 24]",
            "mov qword ptr [{rp} + 16], {t0}",
            "mov qword ptr [{rp} + 24], {t1}",
            "lea {ap}, [{ap} + 32]",
            "lea {bp}, [{bp} + 32]",
            "lea {rp}, [{rp} + 32]",
            "dec rcx",
            "jnz 4b",
            "5:",
            "adc {c:e}, 0",
            c = out(reg) borrow,
            rem = inout(reg) n & 3 => _,
            inout("rcx") n >> 2 => _,
            ap = inout(reg) a.as_ptr() => _,
            bp = inout(reg) b.as_ptr() => _,
            rp = inout(reg) r.as_mut_ptr() => _,
            t0 = out(reg) _,
            t1 = out(reg) _,
            options(nostack),
        );
    }
    borrow
}

/// r = a · b; returns the high limb.
///
/// Limb i is lo(a_i·b) + hi(a_(i-1)·b) + CF, one `adc` chain; `mulx` leaves the flags alone.
///
/// # Safety
/// The CPU has BMI2 and ADX; `r.len() == a.len()`.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn mul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    invariant!(r.len() == a.len());
    let n = r.len();
    let high: Limb;
    // SAFETY: the caller guarantees r and a hold n limbs; the loops touch exactly limbs 0..n
    // of each. No stack use.
    unsafe {
        asm!(
            "xor {c:e}, {c:e}",
            "test {rem}, {rem}",
            "jz 3f",
            "2:",
            "mulx {h0}, {l0}, qword ptr [{ap}]",
            "adc {l0}, {c}",
            "mov qword ptr [{rp}], {l0}",
            "mov {c}, {h0}",
            "lea {ap}, [{ap} + 8]",
            "lea {rp}, [{rp} + 8]",
            "dec {rem}",
            "jnz 2b",
            "3:",
            "jrcxz 5f",
            ".p2align 4",
            "4:",
            "mulx {h0}, {l0}, qword ptr [{ap}]",
            "adc {l0}, {c}",
            "mov qword ptr [{rp}], {l0}",
            "mulx {c}, {l1}, qword ptr [{ap} + 8]",
            "adc {l1}, {h0}",
            "mov qword ptr [{rp} + 8], {l1}",
            "mulx {h0}, {l0}, qword ptr [{ap} + 16]",
            "adc {l0}, {c}",
            "mov qword ptr [{rp} + 16], {l0}",
            "mulx {c}, {l1}, qword ptr [{ap} + 24]",
            "adc {l1}, {h0}",
            "mov qword ptr [{rp} + 24], {l1}",
            "lea {ap}, [{ap} + 32]",
            "lea {rp}, [{rp} + 32]",
            "dec rcx",
            "jnz 4b",
            "5:",
            // hi(a_(n-1)·b) ≤ 2⁶⁴ - 2, so adding the last carry cannot wrap.
            "adc {c}, 0",
            c = out(reg) high,
            rem = inout(reg) n & 3 => _,
            inout("rcx") n >> 2 => _,
            in("rdx") b,
            ap = inout(reg) a.as_ptr() => _,
            rp = inout(reg) r.as_mut_ptr() => _,
            h0 = out(reg) _,
            l0 = out(reg) _,
            l1 = out(reg) _,
            options(nostack),
        );
    }
    high
}

/// r += a · b; returns the high limb.
///
/// Limb i is lo(a_i·b) + hi(a_(i-1)·b) + r_i: `adcx` adds the high half of the previous
/// product in the CF chain, `adox` adds r_i in the OF chain. At the end the high limb is
/// hi(a_(n-1)·b) + CF + OF, which fits because r + a·b < 2^(64·(n+1)).
///
/// # Safety
/// The CPU has BMI2 and ADX; `r.len() == a.len()`.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn addmul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    invariant!(r.len() == a.len());
    let n = r.len();
    let high: Limb;
    // SAFETY: the caller guarantees r and a hold n limbs; the loops touch exactly limbs 0..n
    // of each. No stack use.
    unsafe {
        asm!(
            // c = 0 and CF = OF = 0.
            "xor {c:e}, {c:e}",
            "mov rcx, {rem}",
            "jrcxz 3f",
            "2:",
            addmul_step_1!(),
            "lea rcx, [rcx - 1]",
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            "mov rcx, {blocks}",
            // Enter at the loop test: `jrcxz` reaches only ±127 bytes, too short to skip the
            // body, so it sits just before the exit and the back edge is a plain `jmp`.
            "jmp 6f",
            ".p2align 5",
            "4:",
            addmul_block_8!(),
            "lea {ap}, [{ap} + 64]",
            "lea {rp}, [{rp} + 64]",
            "lea rcx, [rcx - 1]",
            "6:",
            "jrcxz 5f",
            "jmp 4b",
            "5:",
            // `mov` keeps the flags: fold CF and OF into the high limb.
            "mov {l0:e}, 0",
            "adcx {c}, {l0}",
            "adox {c}, {l0}",
            c = out(reg) high,
            rem = in(reg) n & 7,
            blocks = in(reg) n >> 3,
            out("rcx") _,
            in("rdx") b,
            ap = inout(reg) a.as_ptr() => _,
            rp = inout(reg) r.as_mut_ptr() => _,
            h0 = out(reg) _,
            l0 = out(reg) _,
            l1 = out(reg) _,
            options(nostack),
        );
    }
    high
}

/// r -= a · b; returns the high limb still to subtract (the borrow, up to `b`).
///
/// With p = a·b (n + 1 limbs), r - p_low = r + ¬p_low + 1 - 2^(64·n). The product limbs come
/// from the CF chain (`adcx`, as in [`mul_1`]), are complemented with `not` (which keeps the
/// flags), and added to r in the OF chain (`adox`) started with OF = 1 for the "+ 1". The OF
/// left at the end is 1 exactly when no borrow came out, so the result is p_n + 1 - OF.
///
/// # Safety
/// The CPU has BMI2 and ADX; `r.len() == a.len()`.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn submul_1(r: &mut [Limb], a: &[Limb], b: Limb) -> Limb {
    invariant!(r.len() == a.len());
    let n = r.len();
    let high: Limb;
    // SAFETY: the caller guarantees r and a hold n limbs; the loops touch exactly limbs 0..n
    // of each. No stack use.
    unsafe {
        asm!(
            // 0x7fffffff + 1 overflows as a signed 32-bit number but not as an unsigned one:
            // OF = 1, CF = 0. Then c = 0 with `mov`, which keeps the flags.
            "mov {c:e}, 0x7fffffff",
            "add {c:e}, 1",
            "mov {c:e}, 0",
            "mov rcx, {rem}",
            "jrcxz 3f",
            "2:",
            "mulx {h0}, {l0}, qword ptr [{ap}]",
            "adcx {l0}, {c}",
            "not {l0}",
            "adox {l0}, qword ptr [{rp}]",
            "mov qword ptr [{rp}], {l0}",
            "mov {c}, {h0}",
            "lea {ap}, [{ap} + 8]",
            "lea {rp}, [{rp} + 8]",
            "lea rcx, [rcx - 1]",
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            "mov rcx, {blocks}",
            // Enter at the loop test: `jrcxz` reaches only ±127 bytes, too short to skip the
            // body, so it sits just before the exit and the back edge is a plain `jmp`.
            "jmp 6f",
            ".p2align 5",
            "4:",
            "mulx {h0}, {l0}, qword ptr [{ap}]",
            "adcx {l0}, {c}",
            "not {l0}",
            "adox {l0}, qword ptr [{rp}]",
            "mov qword ptr [{rp}], {l0}",
            "mulx {c}, {l1}, qword ptr [{ap} + 8]",
            "adcx {l1}, {h0}",
            "not {l1}",
            "adox {l1}, qword ptr [{rp} + 8]",
            "mov qword ptr [{rp} + 8], {l1}",
            "mulx {h0}, {l0}, qword ptr [{ap} + 16]",
            "adcx {l0}, {c}",
            "not {l0}",
            "adox {l0}, qword ptr [{rp} + 16]",
            "mov qword ptr [{rp} + 16], {l0}",
            "mulx {c}, {l1}, qword ptr [{ap} + 24]",
            "adcx {l1}, {h0}",
            "not {l1}",
            "adox {l1}, qword ptr [{rp} + 24]",
            "mov qword ptr [{rp} + 24], {l1}",
            "mulx {h0}, {l0}, qword ptr [{ap} + 32]",
            "adcx {l0}, {c}",
            "not {l0}",
            "adox {l0}, qword ptr [{rp} + 32]",
            "mov qword ptr [{rp} + 32], {l0}",
            "mulx {c}, {l1}, qword ptr [{ap} + 40]",
            "adcx {l1}, {h0}",
            "not {l1}",
            "adox {l1}, qword ptr [{rp} + 40]",
            "mov qword ptr [{rp} + 40], {l1}",
            "mulx {h0}, {l0}, qword ptr [{ap} + 48]",
            "adcx {l0}, {c}",
            "not {l0}",
            "adox {l0}, qword ptr [{rp} + 48]",
            "mov qword ptr [{rp} + 48], {l0}",
            "mulx {c}, {l1}, qword ptr [{ap} + 56]",
            "adcx {l1}, {h0}",
            "not {l1}",
            "adox {l1}, qword ptr [{rp} + 56]",
            "mov qword ptr [{rp} + 56], {l1}",
            "lea {ap}, [{ap} + 64]",
            "lea {rp}, [{rp} + 64]",
            "lea rcx, [rcx - 1]",
            "6:",
            "jrcxz 5f",
            "jmp 4b",
            "5:",
            // c = p_n = hi(a_(n-1)·b) + CF (cannot wrap: the high half is at most 2⁶⁴ - 2);
            // then l0 = OF and c = p_n + 1 - OF.
            "mov {l0:e}, 0",
            "adcx {c}, {l0}",
            "adox {l0}, {l0}",
            "sub {c}, {l0}",
            "add {c}, 1",
            c = out(reg) high,
            rem = in(reg) n & 7,
            blocks = in(reg) n >> 3,
            out("rcx") _,
            in("rdx") b,
            ap = inout(reg) a.as_ptr() => _,
            rp = inout(reg) r.as_mut_ptr() => _,
            h0 = out(reg) _,
            l0 = out(reg) _,
            l1 = out(reg) _,
            options(nostack),
        );
    }
    high
}
