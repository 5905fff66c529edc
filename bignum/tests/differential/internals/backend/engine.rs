//! `bignum::backend::engine`: its internals.

use bignum::backend::engine::*;

/// The rule's arithmetic, on the measured row: the sizes RSA uses and the edges.
#[test]
fn zen5_rule_gives_the_measured_shapes() {
    let s = |bits| MEASURED_ON_ZEN5.shape(digits(bits));
    let (narrow, wide) = (Width::Bits256, Width::Bits512);
    assert_eq!(s(1024), Shape::of(narrow, true));
    assert_eq!(s(1536), Shape::of(wide, true));
    assert_eq!(s(2048), Shape::of(wide, true));
    assert_eq!(s(52 * 24 - 2), Shape::of(narrow, false));
    assert_eq!(s(52 * 24 - 1), Shape::of(wide, true));
    assert_eq!(s(4096), Shape::of(wide, false));
}

#[test]
fn shapes_print_as_the_environment_spells_them() {
    let names: std::vec::Vec<_> = Shape::ALL
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    assert_eq!(names, ["256-pair", "256-single", "512-pair", "512-single"]);
}
