//! What the 52-bit engine takes and how it can lay a size out: the sizes it supports, the
//! register widths and shapes, and the table of shapes measured per CPU. Facts, not choices:
//! `shape.rs` chooses among them.

use crate::cpu;

/// The smallest modulus, in bits, that a single exponentiation sends to the 52-bit engine:
/// below it the 64-bit kernels are as fast.
pub const IFMA_MIN_BITS: usize = 1000;

/// The shortest public exponent, in bits, that a variable-time exponentiation sends to the
/// engine (from [`IFMA_MIN_BITS`]-bit moduli): shorter ones (RSA's e) do not pay for the
/// conversions into and out of radix 2^52.
pub const VARTIME_MIN_EXP_BITS: usize = 256;

/// The largest modulus the engine takes, in bits: 80 digits of 52 bits less the two spare bits
/// (RSA-8192's halves).
pub const IFMA_MAX_BITS: usize = 52 * 80 - 2;

/// Whether the engine takes a modulus of `bits` bits ([`IFMA_MAX_BITS`] at most).
pub fn ifma_supports(bits: usize) -> bool {
    (3..=IFMA_MAX_BITS).contains(&bits)
}

/// The digit count of a modulus of `bits` bits: the least d with 52·d ≥ bits + 2.
pub fn digits(bits: usize) -> usize {
    (bits + 2).div_ceil(52)
}

/// The vector registers one number spans on the 52-bit engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// 256-bit registers, four 52-bit digits each (`ymm`).
    Bits256,
    /// 512-bit registers, eight digits each (`zmm`).
    Bits512,
}

impl Width {
    /// The digits (64-bit lanes) of one register.
    pub fn lanes(self) -> usize {
        match self {
            Width::Bits256 => 4,
            Width::Bits512 => 8,
        }
    }

    fn bits(self) -> u32 {
        match self {
            Width::Bits256 => 256,
            Width::Bits512 => 512,
        }
    }
}

/// How the engine runs the exponentiations modulo one size: the register width, and whether
/// the two of a pair run interleaved in one loop or one after the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// The register width.
    pub width: Width,
    /// Two exponentiations of a pair interleaved (true) or one after the other.
    pub interleave: bool,
}

impl Shape {
    internal! {
        /// Every shape: the widths, each interleaved and not.
        pub(crate) const ALL: [Shape; 4] = [
            Shape::of(Width::Bits256, true),
            Shape::of(Width::Bits256, false),
            Shape::of(Width::Bits512, true),
            Shape::of(Width::Bits512, false),
        ];

        const fn of(width: Width, interleave: bool) -> Shape {
            Shape { width, interleave }
        }
    }
}

/// `256-pair`, `512-single`: as `BIGNUM_SHAPE` spells a shape.
impl core::fmt::Display for Shape {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let how = if self.interleave { "pair" } else { "single" };
        write!(f, "{}-{how}", self.width.bits())
    }
}

/// The rule that gives each digit count its shape, in one CPU's row of [`CPU_SHAPES`].
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// Up to this many digits a number takes 256-bit registers, above it 512-bit ones.
    max_digits_on_256: usize,
    /// Pairs interleave up to this many registers a number, and run one after the other above.
    max_pair_registers: usize,
}

impl Rule {
    pub fn shape(self, d: usize) -> Shape {
        let width = if d <= self.max_digits_on_256 {
            Width::Bits256
        } else {
            Width::Bits512
        };
        Shape {
            width,
            interleave: d.div_ceil(width.lanes()) <= self.max_pair_registers,
        }
    }
}

/// One row of the table: the CPUs it covers, the rule, and where the rule's figures come from.
struct CpuRow {
    /// A name for reports.
    name: &'static str,
    vendor: &'static [u8; 12],
    family: u32,
    /// Models covered (inclusive).
    models: (u32, u32),
    rule: Rule,
}

/// The rule measured on AMD Zen 5 with `bignum/examples/pow_paths.rs --shapes` (figures:
/// BENCHMARKS.md, "Engine shapes by CPU"): RSA-2048's halves (20 digits) fastest as an
/// interleaved pair on 256-bit registers, RSA-3072's (30) and RSA-4096's (40) as pairs on
/// 512-bit ones; a pair of more than five 512-bit registers a number (RSA-8192's halves)
/// spills, and runs faster as two singles.
pub const MEASURED_ON_ZEN5: Rule = Rule {
    max_digits_on_256: 24,
    max_pair_registers: 5,
};

/// The rule for CPUs no row covers: the measured row's.
const DEFAULT_RULE: Rule = MEASURED_ON_ZEN5;

/// The table of shapes by CPU, filled from measurements only (`pow_paths --shapes` on the CPU,
/// or `benches/device/engine-shapes.sh` on a lent machine). A CPU not listed takes
/// [`DEFAULT_RULE`] (and, with `std`, calibrates: `shape.rs`).
const CPU_SHAPES: [CpuRow; 1] = [CpuRow {
    name: "AMD Zen 5",
    vendor: b"AuthenticAMD",
    family: 0x1a,
    models: (0x00, 0xff),
    rule: MEASURED_ON_ZEN5,
}];

/// This CPU's row of [`CPU_SHAPES`] (none: the default rule), looked up once (CPUID traps to
/// the hypervisor in a VM).
fn cpu_row() -> Option<&'static CpuRow> {
    use core::sync::atomic::{AtomicU8, Ordering};
    // 0 until looked up, then 1 + the row's index, or 255 for none.
    static ROW: AtomicU8 = AtomicU8::new(0);
    let code = ROW.load(Ordering::Relaxed);
    if code == 0 {
        let id = cpu::Identity::of_this_cpu();
        let at = CPU_SHAPES.iter().position(|r| {
            id.is_some_and(|id| {
                &id.vendor == r.vendor
                    && id.family == r.family
                    && (r.models.0..=r.models.1).contains(&id.model)
            })
        });
        let code = at.map_or(255, |i| u8::try_from(i + 1).unwrap_or(255));
        ROW.store(code, Ordering::Relaxed);
        return at.and_then(|i| CPU_SHAPES.get(i));
    }
    usize::from(code)
        .checked_sub(1)
        .and_then(|i| CPU_SHAPES.get(i))
}

/// The name of this CPU's row in the table of measured shapes (`AMD Zen 5`), or none where
/// the table has no row for it (it then takes the default rule, and calibrates).
pub fn cpu_row_name() -> Option<&'static str> {
    cpu_row().map(|r| r.name)
}

/// Whether the table has a row for this CPU.
pub fn cpu_is_listed() -> bool {
    cpu_row().is_some()
}

/// The table's shape for `d` digits on this CPU, pins and calibration aside.
pub fn table_shape(d: usize) -> Shape {
    cpu_row().map_or(DEFAULT_RULE, |r| r.rule).shape(d)
}
