//! File arguments and the words for what goes wrong with them, used by the file layer
//! ([`crate::io`]) and the password sources ([`crate::pass`]) alike: `-` for the standard
//! streams, and an I/O error in a few words for `rsatool: NAME: ...`.

use std::io;
use std::path::Path;

/// Whether the argument is `-` (stdin or stdout).
pub fn is_std(arg: &Path) -> bool {
    arg.as_os_str() == "-"
}

/// An I/O error in a few words, for `rsatool: NAME: ...`.
pub fn describe(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        io::ErrorKind::IsADirectory => "is a directory".to_owned(),
        io::ErrorKind::StorageFull => "no space left on device".to_owned(),
        _ => os_message(e),
    }
}

/// The system's wording of an error, first letter in lower case, without Rust's
/// " (os error N)" suffix.
fn os_message(e: &io::Error) -> String {
    let text = e.to_string();
    let text = match text.find(" (os error ") {
        Some(i) => &text[..i],
        None => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => "I/O error".to_owned(),
    }
}
