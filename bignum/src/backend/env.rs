//! The two environment variables, read once per process (with `std`; without it there is no
//! environment and every choice is the detected one), parsed into requests; a malformed value
//! is a warning on stderr and the default.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::engine::{Width, digits, ifma_supports};
use super::kernels::KernelTable;

/// The environment variable that overrides the choice of back end: a kernel table's name
/// (`portable`, `adx`: that table, and the 64-bit limbs for exponentiation), `ifma` (the
/// 52-bit engine, the kernels detected), or `ifma-model` (the engine on the portable model of
/// the instructions, in builds with `test-hooks`). Unset: detection.
pub const BACKEND_ENV: &str = "BIGNUM_BACKEND";

/// The environment variable that chooses the 52-bit engine's shapes: `table` (the table's,
/// never a calibration), `calibrate` (a calibration on every CPU), or pins, comma-separated
/// `[BITS:]WIDTH[-pair|-single]` (`256`, `512-single`, `1536:256-pair,2048:512`). Unset: the
/// table, or a calibration on a CPU the table lacks.
pub const SHAPE_ENV: &str = "BIGNUM_SHAPE";

/// What [`BACKEND_ENV`] asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "std"), allow(dead_code))]
pub enum BackendRequest {
    /// Unset (always, without `std`): detect.
    Detect,
    /// `ifma`: the 52-bit engine on the instructions; the kernels detected.
    Ifma,
    /// `ifma-model`: the 52-bit engine on the model of the instructions; the kernels detected.
    IfmaModel,
    /// A kernel table (which this CPU may lack): that table, and the 64-bit limbs for
    /// exponentiation.
    Table(KernelTable),
    /// Any other value, taken as the name of a table that does not exist: the 64-bit limbs,
    /// the kernels detected (after a warning).
    Unknown(String),
}

#[cfg_attr(not(feature = "std"), allow(dead_code))]
impl BackendRequest {
    /// The request a value of [`BACKEND_ENV`] makes.
    pub fn parse(value: Option<&str>) -> BackendRequest {
        match value {
            None => BackendRequest::Detect,
            Some("ifma") => BackendRequest::Ifma,
            Some("ifma-model") => BackendRequest::IfmaModel,
            Some(name) => KernelTable::from_name(name).map_or_else(
                || BackendRequest::Unknown(name.into()),
                BackendRequest::Table,
            ),
        }
    }
}

/// The request of [`BACKEND_ENV`] in this process, read once (a value that is not valid
/// Unicode names no table: [`BackendRequest::Unknown`]).
pub fn backend_request() -> &'static BackendRequest {
    #[cfg(feature = "std")]
    {
        static REQUEST: std::sync::OnceLock<BackendRequest> = std::sync::OnceLock::new();
        REQUEST.get_or_init(|| match var(BACKEND_ENV) {
            Ok(value) => BackendRequest::parse(value.as_deref()),
            Err(NotUnicode) => BackendRequest::Unknown(shown(&Err(NotUnicode))),
        })
    }
    #[cfg(not(feature = "std"))]
    &BackendRequest::Detect
}

/// One entry of [`SHAPE_ENV`]: a shape for one digit count, or for all (`None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pin {
    pub digits: Option<usize>,
    pub width: Width,
    pub interleave: Option<bool>,
}

/// What [`SHAPE_ENV`] asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "std"), allow(dead_code))]
pub enum ShapeRequest {
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

#[cfg_attr(not(feature = "std"), allow(dead_code))]
impl ShapeRequest {
    /// The request a value of [`SHAPE_ENV`] makes: none for a malformed value (an empty or
    /// blank one included: it names no shape).
    pub fn parse(value: Option<&str>) -> Option<ShapeRequest> {
        Some(match value.map(str::trim) {
            None => ShapeRequest::Default,
            Some("table") => ShapeRequest::Table,
            Some("calibrate") => ShapeRequest::Calibrate,
            Some(pins) => ShapeRequest::Pins(parse_pins(pins)?),
        })
    }
}

/// The entries of a [`SHAPE_ENV`] value: comma-separated `[BITS:]WIDTH[-pair|-single]`, with
/// WIDTH `256` or `512` and BITS a modulus size the engine takes (it pins every modulus of that
/// digit count); an entry without BITS applies to every size. None if any entry is malformed
/// or there is none.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
fn parse_pins(value: &str) -> Option<Vec<Pin>> {
    let pins = value
        .split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(|entry| {
            let (bits, rest) = match entry.split_once(':') {
                Some((b, r)) => (Some(b.trim().parse::<usize>().ok()?), r.trim()),
                None => (None, entry),
            };
            if bits.is_some_and(|b| !ifma_supports(b)) {
                return None;
            }
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
                digits: bits.map(digits),
                width,
                interleave,
            })
        })
        .collect::<Option<Vec<Pin>>>()?;
    (!pins.is_empty()).then_some(pins)
}

/// The request of [`SHAPE_ENV`] in this process, parsed once (a malformed value: a warning, and
/// the default).
pub fn shape_request() -> &'static ShapeRequest {
    #[cfg(feature = "std")]
    {
        static REQUEST: std::sync::OnceLock<ShapeRequest> = std::sync::OnceLock::new();
        REQUEST.get_or_init(|| {
            let value = var(SHAPE_ENV);
            let parsed = match &value {
                Ok(v) => ShapeRequest::parse(v.as_deref()),
                Err(NotUnicode) => None,
            };
            parsed.unwrap_or_else(|| {
                warn(&format!(
                    "{SHAPE_ENV}={}: expected table, calibrate, or entries like 256, \
                     512-single or 1536:256-pair separated by commas; using the default",
                    shown(&value)
                ));
                ShapeRequest::Default
            })
        })
    }
    #[cfg(not(feature = "std"))]
    &ShapeRequest::Default
}

/// A variable that is not valid Unicode.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
pub struct NotUnicode;

/// A variable of the environment: none where it is unset (always, without `std`).
#[cfg_attr(not(feature = "std"), allow(dead_code))]
fn var(name: &str) -> Result<Option<String>, NotUnicode> {
    #[cfg(feature = "std")]
    return match std::env::var(name) {
        Ok(v) => Ok(Some(v)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(NotUnicode),
    };
    #[cfg(not(feature = "std"))]
    {
        let _ = name;
        Ok(None)
    }
}

/// A value as a warning shows it: as it is, or quoted where it is empty or starts or ends with
/// white space, so that it can be seen.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
pub fn shown(value: &Result<Option<String>, NotUnicode>) -> String {
    match value {
        Ok(Some(v)) if v.is_empty() || v.trim() != v => format!("{v:?}"),
        Ok(Some(v)) => v.clone(),
        Ok(None) => String::from("(unset)"),
        Err(NotUnicode) => String::from("(not valid Unicode)"),
    }
}

/// A warning on stderr, with `std`; nothing without.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
pub fn warn(message: &str) {
    #[cfg(feature = "std")]
    std::eprintln!("bignum: {message}");
    #[cfg(not(feature = "std"))]
    let _ = message;
}
