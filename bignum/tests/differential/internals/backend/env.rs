//! `bignum::backend::env`: its internals.

use bignum::backend::engine::Width;
use bignum::backend::env::*;
use bignum::backend::kernels::KernelTable;
use std::string::String;

#[test]
fn backend_request_parses_each_kind() {
    use BackendRequest as R;
    assert_eq!(R::parse(None), R::Detect);
    assert_eq!(R::parse(Some("ifma")), R::Ifma);
    assert_eq!(R::parse(Some("ifma-model")), R::IfmaModel);
    assert_eq!(R::parse(Some("adx")), R::Table(KernelTable::Adx));
    assert_eq!(R::parse(Some("portable")), R::Table(KernelTable::Portable));
    for other in ["nonsense", "", " ", "ADX"] {
        assert_eq!(R::parse(Some(other)), R::Unknown(other.into()), "{other:?}");
    }
}

#[test]
fn shape_pins_parse() {
    let pin = |digits, width, interleave| Pin {
        digits,
        width,
        interleave,
    };
    let pins = |v| match ShapeRequest::parse(Some(v)) {
        Some(ShapeRequest::Pins(p)) => Some(p),
        _ => None,
    };
    assert_eq!(pins("256").unwrap(), [pin(None, Width::Bits256, None)]);
    assert_eq!(
        pins("1536:256-pair, 2048:512-single,").unwrap(),
        [
            pin(Some(30), Width::Bits256, Some(true)),
            pin(Some(40), Width::Bits512, Some(false))
        ]
    );
    for bad in ["128", "256-both", "x:256", "1536:", "99999:512", "512-"] {
        assert_eq!(ShapeRequest::parse(Some(bad)), None, "{bad}");
    }
}

/// An empty or blank value, or one of commas and spaces only, names no shape: it is
/// malformed (a warning, and the default), not an empty list of pins that would silently
/// turn the calibration off.
#[test]
fn empty_and_blank_shape_values_are_malformed() {
    for bad in ["", " ", "\t", ",", " , ,", ",,"] {
        assert_eq!(ShapeRequest::parse(Some(bad)), None, "{bad:?}");
    }
    assert_eq!(
        ShapeRequest::parse(Some(" table ")),
        Some(ShapeRequest::Table)
    );
    assert_eq!(ShapeRequest::parse(None), Some(ShapeRequest::Default));
}

#[test]
fn warnings_show_the_value_quoted() {
    assert_eq!(shown(&Ok(Some(String::from(" ")))), "\" \"");
    assert_eq!(shown(&Ok(Some(String::new()))), "\"\"");
    assert_eq!(shown(&Ok(Some(String::from("1536:1024")))), "1536:1024");
    assert_eq!(shown(&Err(NotUnicode)), "(not valid Unicode)");
}
