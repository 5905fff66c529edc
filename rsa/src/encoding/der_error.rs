//! The wording of DER decoding errors, shared by the key structures (`asn1.rs`) and the
//! RSASSA-PSS parameters (`pss_der.rs`).

use alloc::format;
use alloc::string::ToString;
use der::{ErrorKind, Tag};

use crate::Error;

/// A DER decoding error, with the structure being decoded and the clearest wording of the
/// common hostile cases.
pub(super) fn der_error(context: &str, e: der::Error) -> Error {
    let detail = match e.kind() {
        ErrorKind::Noncanonical { tag: Tag::Integer } => {
            "an INTEGER is empty or has a superfluous leading byte, which DER forbids".into()
        }
        ErrorKind::IndefiniteLength => "indefinite length (BER), which DER forbids".into(),
        ErrorKind::Incomplete { .. } => "truncated".into(),
        ErrorKind::TrailingData { remaining, .. } => {
            format!("trailing data ({remaining} bytes) after the end of a DER structure")
        }
        kind => kind.to_string(),
    };
    match e.position() {
        Some(pos) => Error::Encoding(format!("{context}: {detail} (at byte {pos})")),
        None => Error::Encoding(format!("{context}: {detail}")),
    }
}
