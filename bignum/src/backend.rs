//! The one place that decides what runs: the 64-bit kernel table, the exponentiation path
//! (the 64-bit limbs or the 52-bit engine), from which sizes each operation takes the engine,
//! the engine's shape for each size on this CPU, and the names reports print for all of these.
//!
//! Everything else asks here: `mpn::kernels` caches the table named by
//! `choose_kernel_table`; `Modulus::pow`, `pow_vartime`, `pow_pair` and the batch engine ask
//! [`path_for_pow`], [`path_for_pow_vartime`], [`pow_path`] and [`path_for_batch`]; the engine
//! asks [`shape`]; `rsatool speedtest` and `speed` print [`available`], [`current`],
//! [`describe`] and [`describe_shapes_of`] (with the engine's layouts:
//! `modular::describe_shapes`). Nothing here touches a secret: every input is a CPU feature,
//! an environment variable or a public size.
//!
//! # The two environment variables (with `std`)
//!
//! - [`BACKEND_ENV`] (`BIGNUM_BACKEND`): a kernel table's name (`portable`, `adx`: that table,
//!   and the 64-bit limbs for exponentiation), `ifma` (the 52-bit engine, the kernels
//!   detected), or `ifma-model` (the engine on the portable model of the instructions, in
//!   builds with `test-hooks`). Unset: detection.
//! - [`SHAPE_ENV`] (`BIGNUM_SHAPE`): pins the engine's shape, see [`shape`].
//!
//! Each is read once per process, on first use. Without `std` there is no environment: the
//! detected choices, always.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicU8, Ordering};

use crate::cpu;

/// The environment variable that overrides the choice of back end: see the module doc.
pub const BACKEND_ENV: &str = "BIGNUM_BACKEND";

/// The environment variable that pins the 52-bit engine's shape: see [`shape`].
pub const SHAPE_ENV: &str = "BIGNUM_SHAPE";

/// What [`BACKEND_ENV`] asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Requested {
    /// Unset (always, without `std`): detect both.
    Detect,
    /// `ifma`: the 52-bit engine on the instructions; the kernels detected.
    Ifma,
    /// `ifma-model`: the 52-bit engine on the model of the instructions; the kernels detected.
    IfmaModel,
    /// Any other value, a kernel table's name: that table where this CPU runs it, and the
    /// 64-bit limbs for exponentiation.
    Kernels(String),
}

impl Requested {
    fn parse(value: Option<&str>) -> Requested {
        match value {
            None => Requested::Detect,
            Some("ifma") => Requested::Ifma,
            Some("ifma-model") => Requested::IfmaModel,
            Some(name) => Requested::Kernels(name.into()),
        }
    }

    /// The request in this process (read at each call: the callers cache what they choose).
    fn from_env() -> Requested {
        Requested::parse(env(BACKEND_ENV).as_deref())
    }
}

/// A variable of the environment, with `std`; none without.
fn env(name: &str) -> Option<String> {
    #[cfg(feature = "std")]
    return std::env::var(name).ok();
    #[cfg(not(feature = "std"))]
    {
        let _ = name;
        None
    }
}

/// A warning on stderr, with `std`; nothing without.
fn warn(message: &str) {
    #[cfg(feature = "std")]
    std::eprintln!("bignum: {message}");
    #[cfg(not(feature = "std"))]
    let _ = message;
}

// ---- The 64-bit kernel tables ----------------------------------------------------------------

/// Every kernel table's name, whether or not this CPU runs it, slowest first.
pub const KERNEL_TABLES: [&str; 2] = ["portable", "adx"];

/// The kernel tables this CPU runs, slowest first: `portable`, and `adx` where the CPU has
/// BMI2 and ADX. `mpn::all_available` gives the tables of these names, in this order.
pub fn kernel_tables() -> Vec<&'static str> {
    let mut names = alloc::vec!["portable"];
    if cfg!(target_arch = "x86_64") && cpu::adx().is_some() {
        names.push("adx");
    }
    names
}

/// The index in [`kernel_tables`] of the table to use (`mpn::kernels` calls it once and caches
/// the table): the one [`BACKEND_ENV`] names where this CPU runs it (else a warning, and
/// detection), otherwise the last, fastest.
pub(crate) fn choose_kernel_table() -> usize {
    let tables = kernel_tables();
    let fastest = tables.len() - 1;
    match Requested::from_env() {
        Requested::Kernels(wanted) => {
            tables.iter().position(|&t| t == wanted).unwrap_or_else(|| {
                warn(&format!(
                    "{BACKEND_ENV}={wanted} is not available here, detecting instead"
                ));
                fastest
            })
        }
        Requested::Ifma if cpu::ifma().is_none() => {
            warn(&format!(
                "{BACKEND_ENV}=ifma: this CPU has no AVX-512 IFMA, detecting instead"
            ));
            fastest
        }
        // `ifma` and `ifma-model` name the 52-bit engine, not a table (`pow_path` warns about
        // the model): the kernels are the detected ones.
        _ => fastest,
    }
}

// ---- The exponentiation path -----------------------------------------------------------------

/// The smallest modulus, in bits, that [`path_for_pow`] sends to the 52-bit engine: below it
/// the 64-bit kernels are as fast.
pub const IFMA_MIN_BITS: usize = 1000;

/// The shortest public exponent, in bits, that [`path_for_pow_vartime`] sends to the engine
/// (from [`IFMA_MIN_BITS`]-bit moduli): shorter ones (RSA's e) do not pay for the conversions
/// into and out of radix 2^52.
pub const VARTIME_MIN_EXP_BITS: usize = 256;

/// The largest modulus the engine takes, in bits: 80 digits of 52 bits less the two spare bits
/// (RSA-8192's halves).
pub const IFMA_MAX_BITS: usize = 52 * 80 - 2;

/// Whether the engine takes a modulus of `bits` bits ([`IFMA_MAX_BITS`] at most).
pub fn ifma_supports(bits: usize) -> bool {
    (3..=IFMA_MAX_BITS).contains(&bits)
}

/// An exponentiation engine, for `Modulus::pow_on` and `modular::pow_pair_on`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PowPath {
    /// The 64-bit limbs and the `mpn` kernels of the back end in use.
    Limbs,
    /// The 52-bit engine on the AVX-512 IFMA instructions.
    Ifma,
    /// The 52-bit engine on the portable model of the instructions: slow, for tests and the
    /// constant-time check on every machine. Compiled only with the `test-hooks` feature
    /// (elsewhere it is never available).
    IfmaModel,
}

impl PowPath {
    /// The path's name in reports: `limbs`, `ifma`, `ifma-model`.
    pub fn name(self) -> &'static str {
        match self {
            PowPath::Limbs => "limbs",
            PowPath::Ifma => "ifma",
            PowPath::IfmaModel => "ifma-model",
        }
    }

    /// Whether this CPU runs the path (the limbs run everywhere, the model wherever it is
    /// compiled in: with the `test-hooks` feature).
    pub fn is_available(self) -> bool {
        match self {
            PowPath::Limbs => true,
            PowPath::Ifma => cpu::ifma().is_some(),
            PowPath::IfmaModel => cfg!(any(test, feature = "test-hooks")),
        }
    }

    /// Every path this CPU runs.
    pub fn available() -> Vec<PowPath> {
        [PowPath::Limbs, PowPath::Ifma, PowPath::IfmaModel]
            .into_iter()
            .filter(|p| p.is_available())
            .collect()
    }
}

/// The path the exponentiations take for the sizes the engine supports, chosen once: IFMA when
/// the CPU has it, unless [`BACKEND_ENV`] names a kernel table (`adx`, `portable`);
/// `ifma-model` sends them through the model of the instructions (slow: for the constant-time
/// check under valgrind, which cannot execute AVX-512).
pub fn pow_path() -> PowPath {
    // 0 until chosen, then 1 + the path's index in `PATHS`. Relaxed: the byte is the whole
    // message; a race on the first call makes the same choice twice.
    const PATHS: [PowPath; 3] = [PowPath::Limbs, PowPath::Ifma, PowPath::IfmaModel];
    static CHOSEN: AtomicU8 = AtomicU8::new(0);
    let code = usize::from(CHOSEN.load(Ordering::Relaxed));
    if let Some(&p) = code.checked_sub(1).and_then(|i| PATHS.get(i)) {
        return p;
    }
    let path = choose_pow_path();
    let at = PATHS.iter().position(|&p| p == path).unwrap_or(0);
    CHOSEN.store(u8::try_from(at + 1).unwrap_or(0), Ordering::Relaxed);
    path
}

/// The choice of [`pow_path`].
#[cold]
fn choose_pow_path() -> PowPath {
    let detected = if PowPath::Ifma.is_available() {
        PowPath::Ifma
    } else {
        PowPath::Limbs
    };
    match Requested::from_env() {
        Requested::IfmaModel if PowPath::IfmaModel.is_available() => PowPath::IfmaModel,
        Requested::IfmaModel => {
            warn(&format!(
                "{BACKEND_ENV}=ifma-model: built without the model (the `test-hooks` feature), \
                 detecting instead"
            ));
            detected
        }
        // A kernel table (even one this CPU lacks, which `choose_kernel_table` warns about):
        // the 64-bit limbs.
        Requested::Kernels(_) => PowPath::Limbs,
        Requested::Detect | Requested::Ifma => detected,
    }
}

/// The path of one secret-exponent exponentiation (`Modulus::pow`) modulo `bits` bits:
/// [`pow_path`] from [`IFMA_MIN_BITS`] up to [`IFMA_MAX_BITS`], the limbs elsewhere.
pub fn path_for_pow(bits: usize) -> PowPath {
    if bits < IFMA_MIN_BITS || !ifma_supports(bits) {
        return PowPath::Limbs;
    }
    pow_path()
}

/// The path of one public-exponent exponentiation (`Modulus::pow_vartime`): as
/// [`path_for_pow`], and the limbs for exponents shorter than [`VARTIME_MIN_EXP_BITS`].
pub fn path_for_pow_vartime(bits: usize, exp_bits: usize) -> PowPath {
    if exp_bits < VARTIME_MIN_EXP_BITS {
        return PowPath::Limbs;
    }
    path_for_pow(bits)
}

/// The path of a pair (`modular::pow_pair`, `pow_pair_vartime`: RSA's CRT halves): [`pow_path`]
/// for every size the engine supports, even below [`IFMA_MIN_BITS`] (two numbers interleaved
/// keep the multipliers busy where one does not).
pub fn path_for_pair(bits: usize) -> PowPath {
    if !ifma_supports(bits) {
        return PowPath::Limbs;
    }
    pow_path()
}

/// Whether groups of private operations take the eight-lane batch engine (`pow_batch`): only
/// on the real instructions (the model would be slower than the single path's limbs).
pub fn path_for_batch() -> Option<PowPath> {
    (pow_path() == PowPath::Ifma).then_some(PowPath::Ifma)
}

// ---- The engine's shape ----------------------------------------------------------------------

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

impl core::fmt::Display for Shape {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let how = if self.interleave { "pair" } else { "single" };
        write!(f, "{}-{how}", self.width.bits())
    }
}

/// The digit count of a modulus of `bits` bits: the least d with 52·d ≥ bits + 2.
pub fn digits(bits: usize) -> usize {
    (bits + 2).div_ceil(52)
}

/// The rule that gives each digit count its shape, in one CPU's row of [`CPU_SHAPES`].
#[derive(Clone, Copy, Debug)]
struct Rule {
    /// Up to this many digits a number takes 256-bit registers, above it 512-bit ones.
    max_digits_on_256: usize,
    /// Pairs interleave up to this many registers a number, and run one after the other above.
    max_pair_registers: usize,
}

impl Rule {
    fn shape(self, d: usize) -> Shape {
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

/// The rule measured on AMD Zen 5 (`bignum/examples/pow_paths.rs --shapes`, 2026-12-04, best of
/// 7, two alternated runs, BENCHMARKS.md "Engine shapes"): RSA-2048's halves (20 digits) fastest
/// as an interleaved pair on 256-bit registers (three 512-bit registers a number: 0.99-1.00x,
/// an instance since dropped; two singles: 1.37x),
/// RSA-3072's (30) and RSA-4096's (40) as pairs on 512-bit (256-bit x 8: 1.5x; 256-bit x 10
/// singles: 1.8x); a pair of more than five 512-bit registers a number (RSA-8192's halves)
/// spills: 6.2 ms against 2 x 2.4 ms as singles.
const MEASURED_ON_ZEN5: Rule = Rule {
    max_digits_on_256: 24,
    max_pair_registers: 5,
};

/// The rule for CPUs no row covers: Zen 5's, the only one measured shape by shape so far.
const DEFAULT_RULE: Rule = MEASURED_ON_ZEN5;

/// The table of shapes by CPU, filled from measurements only (`pow_paths --shapes` on the CPU,
/// or `benches/device/engine-shapes.sh` on the lent Intel machine). A CPU not listed takes
/// [`DEFAULT_RULE`].
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

/// One entry of [`SHAPE_ENV`]: a shape for one digit count, or for all (`None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pin {
    digits: Option<usize>,
    width: Width,
    interleave: Option<bool>,
}

/// The entries of a [`SHAPE_ENV`] value: comma-separated `[BITS:]WIDTH[-pair|-single]`, with
/// WIDTH `256` or `512` and BITS a modulus size (it pins every modulus of that digit count);
/// an entry without BITS applies to every size. None if any entry is malformed.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
fn parse_pins(value: &str) -> Option<Vec<Pin>> {
    value
        .split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(|entry| {
            let (bits, rest) = match entry.split_once(':') {
                Some((b, r)) => (Some(b.trim().parse::<usize>().ok()?), r.trim()),
                None => (None, entry),
            };
            let (width, how) = match rest.split_once('-') {
                Some((w, h)) => (w, Some(h)),
                None => (rest, None),
            };
            let width = match width {
                "256" => Width::Bits256,
                "512" => Width::Bits512,
                _ => return None,
            };
            let interleave = match how {
                None => None,
                Some("pair") => Some(true),
                Some("single") => Some(false),
                Some(_) => return None,
            };
            Some(Pin {
                digits: bits.filter(|&b| ifma_supports(b)).map(digits),
                width,
                interleave,
            })
            .filter(|_| bits.is_none_or(ifma_supports))
        })
        .collect()
}

/// What [`SHAPE_ENV`] asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "std"), allow(dead_code))]
enum ShapeRequest {
    /// Unset (always, without `std`): the CPU's row of the table, or a calibration where the
    /// table has no row for this CPU.
    Default,
    /// `table`: the table's rule, never a calibration.
    Table,
    /// `calibrate`: a calibration on every CPU, listed or not.
    Calibrate,
    /// Pins (the last one covering a size wins), the table for the other sizes.
    Pins(Vec<Pin>),
}

/// The request of [`SHAPE_ENV`] in this process, parsed once (a malformed value: a warning, and
/// the default).
fn shape_request() -> &'static ShapeRequest {
    #[cfg(feature = "std")]
    {
        static REQUEST: std::sync::OnceLock<ShapeRequest> = std::sync::OnceLock::new();
        REQUEST.get_or_init(|| match env(SHAPE_ENV).as_deref() {
            None => ShapeRequest::Default,
            Some("table") => ShapeRequest::Table,
            Some("calibrate") => ShapeRequest::Calibrate,
            Some(value) => parse_pins(value).map_or_else(
                || {
                    warn(&format!(
                        "{SHAPE_ENV}={value}: expected table, calibrate, or entries like 256, \
                         512-single or 1536:256-pair separated by commas; using the default"
                    ));
                    ShapeRequest::Default
                },
                ShapeRequest::Pins,
            ),
        })
    }
    #[cfg(not(feature = "std"))]
    &ShapeRequest::Default
}

/// The pins of [`SHAPE_ENV`], if it pins any.
fn pins() -> &'static [Pin] {
    match shape_request() {
        ShapeRequest::Pins(p) => p,
        _ => &[],
    }
}

// ---- Calibration --------------------------------------------------------------------------

/// Whether the engine's shapes are chosen by a calibration in this process: where the CPU has
/// no row in the table of measured CPUs (unless [`SHAPE_ENV`] is `table` or pins shapes), or where
/// [`SHAPE_ENV`] is `calibrate`; only with `std` (a clock) and on the real instructions (the
/// model's times say nothing of the CPU's).
pub fn calibrates() -> bool {
    let asked = match shape_request() {
        ShapeRequest::Default => cpu_row().is_none(),
        ShapeRequest::Calibrate => true,
        ShapeRequest::Table | ShapeRequest::Pins(_) => false,
    };
    asked && cfg!(feature = "std") && pow_path() == PowPath::Ifma
}

/// The shapes a calibration times, in order: the table's first (ties go to it).
pub fn shape_candidates(d: usize) -> [Shape; 4] {
    let table = table_shape(d);
    let mut all = [Width::Bits256, Width::Bits512]
        .map(|width| [true, false].map(|interleave| Shape { width, interleave }));
    let flat = all.as_flattened_mut();
    if let Some(at) = flat.iter().position(|&s| s == table) {
        flat.swap(0, at);
    }
    [flat[0], flat[1], flat[2], flat[3]]
}

/// A calibration's verdict from each candidate's best time (seconds; none where a shape has no
/// instance for the size), the table's shape first: the fastest, where it beats the table's
/// by more than [`CALIBRATION_MARGIN`], else the table's. The margin keeps a noisy timing from
/// moving a process off the measured rule for less than it could win.
pub fn calibration_verdict(times: &[(Shape, Option<f64>)]) -> Option<Shape> {
    let (best, best_time) = times
        .iter()
        .filter_map(|&(s, t)| Some((s, t?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    match times.first() {
        Some(&(table, Some(table_time))) if best_time >= CALIBRATION_MARGIN * table_time => {
            Some(table)
        }
        _ => Some(best),
    }
}

/// A calibrated shape must take less than this fraction of the table shape's time.
pub const CALIBRATION_MARGIN: f64 = 0.95;

/// The calibrated shape per digit count (index d, up to the engine's 80): 0 not calibrated,
/// else 1 + the shape's code ([`shape_code`]).
static CALIBRATED: [AtomicU8; 81] = [const { AtomicU8::new(0) }; 81];

fn shape_code(s: Shape) -> u8 {
    u8::from(s.width == Width::Bits512) << 1 | u8::from(s.interleave)
}

fn shape_of_code(c: u8) -> Shape {
    Shape {
        width: if c & 2 == 0 {
            Width::Bits256
        } else {
            Width::Bits512
        },
        interleave: c & 1 == 1,
    }
}

/// The calibrated shape for `d` digits, if a calibration chose one.
fn calibrated(d: usize) -> Option<Shape> {
    let code = CALIBRATED.get(d)?.load(Ordering::Relaxed);
    code.checked_sub(1).map(shape_of_code)
}

/// Whether moduli of `bits` bits wait for a calibration ([`calibrates`], none recorded yet):
/// the engine then times the candidates and calls [`record_calibration`].
pub fn needs_calibration(bits: usize) -> bool {
    ifma_supports(bits) && calibrates() && calibrated(digits(bits)).is_none()
}

/// Records the calibrated shape for moduli of `bits` bits (the engine's calibration).
pub fn record_calibration(bits: usize, shape: Shape) {
    if let Some(slot) = CALIBRATED.get(digits(bits)) {
        slot.store(1 + shape_code(shape), Ordering::Relaxed);
    }
}

/// The shape the engine takes for moduli of `bits` bits (none outside [`ifma_supports`]): the
/// last entry of [`SHAPE_ENV`] that covers the size, where there is one; else the calibrated
/// shape where this process calibrates ([`calibrates`]: CPUs the table lacks) and has done so
/// for the size; else this CPU's row of the table, measured per CPU
/// (`modular::describe_shapes` names the source). The engine falls back to the table's shape
/// where a pinned one has no compiled instance (`modular`'s shape module says which exist).
pub fn shape(bits: usize) -> Option<Shape> {
    if !ifma_supports(bits) {
        return None;
    }
    let d = digits(bits);
    let table = calibrated(d)
        .filter(|_| calibrates())
        .unwrap_or_else(|| table_shape(d));
    let pin = pins()
        .iter()
        .rev()
        .find(|p| p.digits.is_none_or(|pd| pd == d));
    Some(pin.map_or(table, |p| Shape {
        width: p.width,
        interleave: p.interleave.unwrap_or(table.interleave),
    }))
}

/// The table's shape for `d` digits on this CPU, pins aside.
pub fn table_shape(d: usize) -> Shape {
    cpu_row().map_or(DEFAULT_RULE, |r| r.rule).shape(d)
}

// ---- Names in reports ------------------------------------------------------------------------

/// The back ends this CPU runs, as `BIGNUM_BACKEND` spells them, slowest first: the kernel
/// tables, then `ifma`.
pub fn available() -> Vec<&'static str> {
    let mut names = kernel_tables();
    if PowPath::Ifma.is_available() {
        names.push("ifma");
    }
    names
}

/// The back end this process runs: `ifma` (or `ifma-model`) when the exponentiations take the
/// 52-bit engine, else the name of the kernel table (`kernels`, `mpn::kernels().name`, passed
/// in: the table lives a layer up).
pub fn current(kernels: &'static str) -> &'static str {
    match pow_path() {
        PowPath::Ifma => "ifma",
        PowPath::IfmaModel => "ifma-model",
        PowPath::Limbs => kernels,
    }
}

/// What a back end of [`available`] is, for a report's header (`kernels`: the kernel table in
/// use, `mpn::kernels().name`; `shapes`: the engine's, `modular::describe_shapes()`, which
/// [`describe_shapes_of`] words).
pub fn describe(backend: &str, kernels: &str, shapes: &str) -> String {
    match backend {
        "ifma" => format!(
            "the 52-bit AVX-512 IFMA exponentiation in shapes {shapes} for {}, {kernels} \
             kernels elsewhere",
            describe_cpu()
        ),
        "ifma-model" => {
            format!("the 52-bit engine on its portable model of the instructions, shapes {shapes}")
        }
        "adx" => "BMI2/ADX assembly kernels".into(),
        _ => "plain Rust kernels".into(),
    }
}

/// The CPU as the shape table knows it: `AMD Zen 5 (AuthenticAMD family 26 model 2)`, or
/// `GenuineIntel family 6 model 207 (not in the table)`.
pub fn describe_cpu() -> String {
    let Some(id) = cpu::Identity::of_this_cpu() else {
        return "not x86-64".into();
    };
    let which = format!(
        "{} family {} model {}",
        id.vendor_str(),
        id.family,
        id.model
    );
    match cpu_row() {
        Some(row) => format!("{} ({which})", row.name),
        None => format!("{which} (not in the table)"),
    }
}

/// The engine's shapes for RSA-2048, 3072 and 4096's halves, as `effective` says the engine
/// lays each size out (`modular::describe_shapes` passes its layout), with where each came
/// from: `1024: 256-pair, 1536: 512-pair (pinned), 2048: 512-pair (calibrated)`; `(to be
/// calibrated)` where this process calibrates and has not used the size yet, and `(pinned
/// 256-pair has no instance)` where a pin could not be followed.
pub fn describe_shapes_of(effective: impl Fn(usize) -> Option<Shape>) -> String {
    [1024, 1536, 2048]
        .iter()
        .filter_map(|&bits| {
            let s = effective(bits)?;
            let d = digits(bits);
            let pin = pins()
                .iter()
                .rev()
                .find(|p| p.digits.is_none_or(|pd| pd == d));
            let asked = shape(bits);
            let note = match pin {
                Some(_) if asked == Some(s) => String::from(" (pinned)"),
                Some(_) => format!(
                    " (pinned {} has no instance)",
                    asked.map_or(String::new(), |a| format!("{a}"))
                ),
                None if !calibrates() => String::new(),
                None if calibrated(d).is_some() => String::from(" (calibrated)"),
                None => String::from(" (to be calibrated)"),
            };
            Some(format!("{bits}: {s}{note}"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backend_request_parses_each_kind() {
        assert_eq!(Requested::parse(None), Requested::Detect);
        assert_eq!(Requested::parse(Some("ifma")), Requested::Ifma);
        assert_eq!(Requested::parse(Some("ifma-model")), Requested::IfmaModel);
        assert_eq!(
            Requested::parse(Some("adx")),
            Requested::Kernels("adx".into())
        );
        assert_eq!(
            Requested::parse(Some("nonsense")),
            Requested::Kernels("nonsense".into())
        );
    }

    #[test]
    fn shape_pins_parse() {
        let pin = |digits, width, interleave| Pin {
            digits,
            width,
            interleave,
        };
        assert_eq!(
            parse_pins("256").unwrap(),
            [pin(None, Width::Bits256, None)]
        );
        assert_eq!(
            parse_pins("1536:256-pair, 2048:512-single,").unwrap(),
            [
                pin(Some(30), Width::Bits256, Some(true)),
                pin(Some(40), Width::Bits512, Some(false))
            ]
        );
        for bad in ["128", "256-both", "x:256", "1536:", "99999:512", "512-"] {
            assert_eq!(parse_pins(bad), None, "{bad}");
        }
    }

    /// The rule's arithmetic, on the measured row: the sizes RSA uses and the edges.
    #[test]
    fn zen5_rule_gives_the_measured_shapes() {
        let s = |bits| MEASURED_ON_ZEN5.shape(digits(bits));
        let (narrow, wide) = (Width::Bits256, Width::Bits512);
        assert_eq!(
            s(1024),
            Shape {
                width: narrow,
                interleave: true
            }
        );
        assert_eq!(
            s(1536),
            Shape {
                width: wide,
                interleave: true
            }
        );
        assert_eq!(
            s(2048),
            Shape {
                width: wide,
                interleave: true
            }
        );
        assert_eq!(
            s(52 * 24 - 2),
            Shape {
                width: narrow,
                interleave: false
            }
        );
        assert_eq!(
            s(52 * 24 - 1),
            Shape {
                width: wide,
                interleave: true
            }
        );
        assert_eq!(
            s(4096),
            Shape {
                width: wide,
                interleave: false
            }
        );
    }

    #[test]
    fn calibration_keeps_the_table_unless_clearly_beaten() {
        let shapes = shape_candidates(30);
        assert_eq!(shapes[0], table_shape(30), "the table's shape first");
        let mut all = shapes.to_vec();
        all.sort_by_key(|&s| shape_code(s));
        all.dedup();
        assert_eq!(all.len(), 4, "each shape once: {shapes:?}");
        let [t, a, b, c] = shapes;
        // 4% faster: within the margin, the table's stays.
        let close = [(t, Some(1.0)), (a, Some(0.96)), (b, None), (c, Some(1.5))];
        assert_eq!(calibration_verdict(&close), Some(t));
        // 10% faster: the calibration moves.
        let clear = [(t, Some(1.0)), (a, Some(1.2)), (b, Some(0.9)), (c, None)];
        assert_eq!(calibration_verdict(&clear), Some(b));
        // The table's shape without an instance: the fastest of the others.
        let none = [(t, None), (a, Some(2.0)), (b, Some(1.0)), (c, None)];
        assert_eq!(calibration_verdict(&none), Some(b));
        assert_eq!(calibration_verdict(&[(t, None)]), None);
        for s in shapes {
            assert_eq!(shape_of_code(shape_code(s)), s);
        }
    }

    #[test]
    fn paths_by_size() {
        assert_eq!(path_for_pow(IFMA_MIN_BITS - 1), PowPath::Limbs);
        assert_eq!(path_for_pow(IFMA_MAX_BITS + 1), PowPath::Limbs);
        assert_eq!(
            path_for_pow_vartime(2048, VARTIME_MIN_EXP_BITS - 1),
            PowPath::Limbs
        );
        assert_eq!(path_for_pow(2048), pow_path());
        assert_eq!(path_for_pair(512), pow_path());
    }
}
