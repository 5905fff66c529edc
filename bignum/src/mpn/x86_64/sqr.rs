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

/// The off-diagonal triangle of the schoolbook square: `r[1..2n-1] = Σ_{i<j} aᵢaⱼ·Bⁱ⁺ʲ`
/// (limbs 1 ..= 2n-2), for n = `a.len()` ≥ 2; limbs 0 and 2n-1 are left alone.
///
/// All n-1 rows run inside one asm block. Row i (i = 0 ..= n-2, len = n-1-i limbs) adds
/// aᵢ·a[i+1..n] to r[2i+1 .. n+i] and writes its high limb to r[n+i]; row 0 adds onto zeros
/// (the `fill` below). Per limb: `mulx` for the product, `adcx` adds the high half of the
/// previous product (CF chain), `adox` adds the limb of r (OF chain); the row's high limb is
/// the last high half + CF + OF, which fits because r + aᵢ·a[i+1..n] < B^(len+1).
///
/// The rows run through a ring of four copies of a 4-limb unrolled loop, one per class of
/// len mod 4 (after GMP's `coreibwl/sqr_basecase`, which rings eight): a row of class k
/// enters its copy at slot (-len) mod 4 with both pointers lowered by that many limbs, and
/// when it ends, it falls into the setup of the next row, of class k-1. So the only choice of
/// entry is made once, from n; each copy's loop count changes every fourth row only, which
/// keeps the exits predictable (one entry chosen per row by a computed branch was slower than
/// the old `addmul_1` calls). Every branch depends on n and the row number only.
///
/// # Safety
/// The CPU has BMI2 and ADX; `a.len() ≥ 2` and `r.len() == 2·a.len()`.
#[target_feature(enable = "bmi2,adx")]
pub(super) unsafe fn sqr_triangle(r: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    debug_assert!(n >= 2 && r.len() == 2 * n);
    r[1..n].fill(0);
    // SAFETY: the caller guarantees r holds 2n limbs and a holds n ≥ 2. Row i (len = n-1-i
    // from n-1 down to 1, s = (-len) mod 4) runs ⌈len/4⌉ blocks from a + i + 1 - s and
    // r + 2i + 1 - s, skipping the first s slots of the first block: it reads a[i] and
    // a[i+1 .. n], reads and writes r[2i+1 .. n+i], then writes r[n+i] ≤ r[2n-2]. No stack use.
    unsafe {
        asm!(
            // Enter the ring at the class of the first row, len = n - 1 (mod 4): a choice on n only.
            "test {len:l}, 1",
            "jnz 2f",
            "test {len:l}, 2",
            "jz 40f",
            "jmp 42f",
            "2:",
            "test {len:l}, 2",
            "jz 41f",
            "jmp 43f",
            // Row with len ≡ 3 (mod 4): enter the body at slot 1, both pointers 1 limbs low.
            "43:",
            "mov rdx, qword ptr [{ai}]",
            "mov {ap}, {ai}",
            "lea {rp}, [{rs} - 8]",
            "lea rcx, [{len} + 3]",
            "shr rcx, 2",
            "xor {c:e}, {c:e}",
            // `xor` clears CF and OF: both chains start at zero.
            "xor {h0:e}, {h0:e}",
            "jmp 531f",
            ".p2align 4",
            "63:",
            "mulx {h0}, {l0}, qword ptr [{ap}]",
            "adcx {l0}, {c}",
            "adox {l0}, qword ptr [{rp}]",
            "mov qword ptr [{rp}], {l0}",
            "531:",
            "mulx {c}, {l1}, qword ptr [{ap} + 8]",
            "adcx {l1}, {h0}",
            "adox {l1}, qword ptr [{rp} + 8]",
            "mov qword ptr [{rp} + 8], {l1}",
            "mulx {h0}, {l0}, qword ptr [{ap} + 16]",
            "adcx {l0}, {c}",
            "adox {l0}, qword ptr [{rp} + 16]",
            "mov qword ptr [{rp} + 16], {l0}",
            "mulx {c}, {l1}, qword ptr [{ap} + 24]",
            "adcx {l1}, {h0}",
            "adox {l1}, qword ptr [{rp} + 24]",
            "mov qword ptr [{rp} + 24], {l1}",
            "lea {ap}, [{ap} + 32]",
            "lea {rp}, [{rp} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 73f",
            "jmp 63b",
            // High limb of the row, r[n+i] = c + CF + OF (`mov` keeps the flags); next row.
            "73:",
            "mov {l0:e}, 0",
            "adcx {c}, {l0}",
            "adox {c}, {l0}",
            "mov qword ptr [{rp}], {c}",
            "lea {rs}, [{rs} + 16]",
            "lea {ai}, [{ai} + 8]",
            "dec {len}",
            "jz 9f",
            // Row with len ≡ 2 (mod 4): enter the body at slot 2, both pointers 2 limbs low.
            "42:",
            "mov rdx, qword ptr [{ai}]",
            "lea {ap}, [{ai} - 8]",
            "lea {rp}, [{rs} - 16]",
            "lea rcx, [{len} + 3]",
            "shr rcx, 2",
            "xor {c:e}, {c:e}",
            // `xor` clears CF and OF: both chains start at zero.
            "xor {h0:e}, {h0:e}",
            "jmp 522f",
            ".p2align 4",
            "62:",
            "mulx {h0}, {l0}, qword ptr [{ap}]",
            "adcx {l0}, {c}",
            "adox {l0}, qword ptr [{rp}]",
            "mov qword ptr [{rp}], {l0}",
            "mulx {c}, {l1}, qword ptr [{ap} + 8]",
            "adcx {l1}, {h0}",
            "adox {l1}, qword ptr [{rp} + 8]",
            "mov qword ptr [{rp} + 8], {l1}",
            "522:",
            "mulx {h0}, {l0}, qword ptr [{ap} + 16]",
            "adcx {l0}, {c}",
            "adox {l0}, qword ptr [{rp} + 16]",
            "mov qword ptr [{rp} + 16], {l0}",
            "mulx {c}, {l1}, qword ptr [{ap} + 24]",
            "adcx {l1}, {h0}",
            "adox {l1}, qword ptr [{rp} + 24]",
            "mov qword ptr [{rp} + 24], {l1}",
            "lea {ap}, [{ap} + 32]",
            "lea {rp}, [{rp} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 72f",
            "jmp 62b",
            // High limb of the row, r[n+i] = c + CF + OF (`mov` keeps the flags); next row.
            "72:",
            "mov {l0:e}, 0",
            "adcx {c}, {l0}",
            "adox {c}, {l0}",
            "mov qword ptr [{rp}], {c}",
            "lea {rs}, [{rs} + 16]",
            "lea {ai}, [{ai} + 8]",
            "dec {len}",
            "jz 9f",
            // Row with len ≡ 1 (mod 4): enter the body at slot 3, both pointers 3 limbs low.
            "41:",
            "mov rdx, qword ptr [{ai}]",
            "lea {ap}, [{ai} - 16]",
            "lea {rp}, [{rs} - 24]",
            "lea rcx, [{len} + 3]",
            "shr rcx, 2",
            "xor {c:e}, {c:e}",
            // `xor` clears CF and OF: both chains start at zero.
            "xor {h0:e}, {h0:e}",
            "jmp 513f",
            ".p2align 4",
            "61:",
            "mulx {h0}, {l0}, qword ptr [{ap}]",
            "adcx {l0}, {c}",
            "adox {l0}, qword ptr [{rp}]",
            "mov qword ptr [{rp}], {l0}",
            "mulx {c}, {l1}, qword ptr [{ap} + 8]",
            "adcx {l1}, {h0}",
            "adox {l1}, qword ptr [{rp} + 8]",
            "mov qword ptr [{rp} + 8], {l1}",
            "mulx {h0}, {l0}, qword ptr [{ap} + 16]",
            "adcx {l0}, {c}",
            "adox {l0}, qword ptr [{rp} + 16]",
            "mov qword ptr [{rp} + 16], {l0}",
            "513:",
            "mulx {c}, {l1}, qword ptr [{ap} + 24]",
            "adcx {l1}, {h0}",
            "adox {l1}, qword ptr [{rp} + 24]",
            "mov qword ptr [{rp} + 24], {l1}",
            "lea {ap}, [{ap} + 32]",
            "lea {rp}, [{rp} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 71f",
            "jmp 61b",
            // High limb of the row, r[n+i] = c + CF + OF (`mov` keeps the flags); next row.
            "71:",
            "mov {l0:e}, 0",
            "adcx {c}, {l0}",
            "adox {c}, {l0}",
            "mov qword ptr [{rp}], {c}",
            "lea {rs}, [{rs} + 16]",
            "lea {ai}, [{ai} + 8]",
            "dec {len}",
            "jz 9f",
            // Row with len ≡ 0 (mod 4): enter the body at slot 0, both pointers 0 limbs low.
            "40:",
            "mov rdx, qword ptr [{ai}]",
            "lea {ap}, [{ai} + 8]",
            "mov {rp}, {rs}",
            "lea rcx, [{len} + 3]",
            "shr rcx, 2",
            "xor {c:e}, {c:e}",
            // `xor` clears CF and OF: both chains start at zero.
            "xor {h0:e}, {h0:e}",
            ".p2align 4",
            "60:",
            "mulx {h0}, {l0}, qword ptr [{ap}]",
            "adcx {l0}, {c}",
            "adox {l0}, qword ptr [{rp}]",
            "mov qword ptr [{rp}], {l0}",
            "mulx {c}, {l1}, qword ptr [{ap} + 8]",
            "adcx {l1}, {h0}",
            "adox {l1}, qword ptr [{rp} + 8]",
            "mov qword ptr [{rp} + 8], {l1}",
            "mulx {h0}, {l0}, qword ptr [{ap} + 16]",
            "adcx {l0}, {c}",
            "adox {l0}, qword ptr [{rp} + 16]",
            "mov qword ptr [{rp} + 16], {l0}",
            "mulx {c}, {l1}, qword ptr [{ap} + 24]",
            "adcx {l1}, {h0}",
            "adox {l1}, qword ptr [{rp} + 24]",
            "mov qword ptr [{rp} + 24], {l1}",
            "lea {ap}, [{ap} + 32]",
            "lea {rp}, [{rp} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 70f",
            "jmp 60b",
            // High limb of the row, r[n+i] = c + CF + OF (`mov` keeps the flags); next row.
            "70:",
            "mov {l0:e}, 0",
            "adcx {c}, {l0}",
            "adox {c}, {l0}",
            "mov qword ptr [{rp}], {c}",
            "lea {rs}, [{rs} + 16]",
            "lea {ai}, [{ai} + 8]",
            "dec {len}",
            "jz 9f",
            "jmp 43b",
            "9:",
            len = inout(reg) n - 1 => _,
            ai = inout(reg) a.as_ptr() => _,
            rs = inout(reg) r.as_mut_ptr().add(1) => _,
            ap = out(reg) _,
            rp = out(reg) _,
            out("rcx") _,
            out("rdx") _,
            c = out(reg) _,
            h0 = out(reg) _,
            l0 = out(reg) _,
            l1 = out(reg) _,
            options(nostack),
        );
    }
}

/// r = a² for `r.len() == 2·a.len()`, a non-empty: the triangle ([`sqr_triangle`]) then the
/// doubling-and-diagonal pass ([`sqr_diag_addlsh1`]), both in assembly, with no call per row.
///
/// # Safety
/// The CPU has BMI2 and ADX; `a.len() ≥ 1` and `r.len() == 2·a.len()`.
#[target_feature(enable = "bmi2,adx")]
pub unsafe fn sqr_basecase(r: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    debug_assert!(n >= 1 && r.len() == 2 * n);
    r[0] = 0;
    r[2 * n - 1] = 0;
    if n >= 2 {
        // SAFETY: n ≥ 2 and r has 2n limbs; the caller guarantees BMI2 and ADX.
        unsafe { sqr_triangle(r, a) };
    }
    // SAFETY: as above.
    unsafe { sqr_diag_addlsh1(r, a) };
}
