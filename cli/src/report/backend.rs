//! The back end in words, for the reports' headers and JSON: what runs, on which CPU, and the
//! 52-bit engine's shapes with where each came from. The facts come from `bignum::backend`
//! and `bignum::modular::tuning`; the wording is here.

use bignum::backend::{Shape, ShapeSource, cpu_row_name};
use bignum::modular::tuning::engine_shapes;

/// What a back end of `bignum::backend::available` is: `the 52-bit AVX-512 IFMA exponentiation
/// in shapes 1024: 256-pair, ... for AMD Zen 5 (AuthenticAMD family 26 model 2), adx kernels
/// elsewhere`, `BMI2/ADX assembly kernels`, `plain Rust kernels`.
pub fn describe(backend: &str) -> String {
    let kernels = bignum::mpn::kernels().name;
    match backend {
        "ifma" => format!(
            "the 52-bit AVX-512 IFMA exponentiation in shapes {} for {}, {kernels} kernels \
             elsewhere",
            shapes(),
            cpu()
        ),
        "ifma-model" => format!(
            "the 52-bit engine on its portable model of the instructions, shapes {}",
            shapes()
        ),
        "adx" => "BMI2/ADX assembly kernels".into(),
        _ => "plain Rust kernels".into(),
    }
}

/// The CPU as the table of measured shapes knows it: `AMD Zen 5 (AuthenticAMD family 26 model
/// 2)`, or `GenuineIntel family 6 model 207 (not in the table)`.
pub fn cpu() -> String {
    let Some(id) = bignum::cpu::Identity::of_this_cpu() else {
        return "not x86-64".into();
    };
    let which = format!(
        "{} family {} model {}",
        id.vendor_str(),
        id.family,
        id.model
    );
    match cpu_row_name() {
        Some(name) => format!("{name} ({which})"),
        None => format!("{which} (not in the table)"),
    }
}

/// The engine's shapes for RSA-2048, 3072 and 4096's halves as it lays them out, with where
/// each came from: `1024: 256-pair, 1536: 512-pair (pinned), 2048: 512-pair (calibrated)`;
/// `(to be calibrated)` where this process calibrates and has not used the size yet, and
/// `(pinned 256-pair has no instance)` where a pin could not be followed. Empty where the
/// engine does not run.
pub fn shapes() -> String {
    engine_shapes()
        .iter()
        .map(|e| format!("{}: {}{}", e.bits, e.shape, note(e.shape, e.source)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The note after a shape that `source` gave, where `runs` is what the engine lays out.
fn note(runs: Shape, source: ShapeSource) -> String {
    match source {
        ShapeSource::Table => String::new(),
        ShapeSource::Pinned(asked) if asked == runs => " (pinned)".into(),
        ShapeSource::Pinned(asked) => format!(" (pinned {asked} has no instance)"),
        ShapeSource::Calibrated => " (calibrated)".into(),
        ShapeSource::ToBeCalibrated => " (to be calibrated)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bignum::backend::Width;

    #[test]
    fn notes_say_where_a_shape_came_from() {
        let pair = Shape {
            width: Width::Bits256,
            interleave: true,
        };
        let single = Shape {
            interleave: false,
            ..pair
        };
        assert_eq!(note(pair, ShapeSource::Table), "");
        assert_eq!(note(pair, ShapeSource::Pinned(pair)), " (pinned)");
        assert_eq!(
            note(single, ShapeSource::Pinned(pair)),
            " (pinned 256-pair has no instance)"
        );
        assert_eq!(note(pair, ShapeSource::Calibrated), " (calibrated)");
        assert_eq!(
            note(pair, ShapeSource::ToBeCalibrated),
            " (to be calibrated)"
        );
    }
}
