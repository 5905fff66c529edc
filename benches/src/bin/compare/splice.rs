//! The generated section of `BENCHMARKS.md`: the text between its two markers.

use std::path::Path;

pub const BEGIN: &str = "<!-- compare:begin -->";
pub const END: &str = "<!-- compare:end -->";

/// Replaces the text between the compare markers of `path`.
pub fn splice(path: &Path, body: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (Some(b), Some(e)) = (text.find(BEGIN), text.find(END)) else {
        return Err(format!("{}: no {BEGIN} ... {END} markers", path.display()));
    };
    if e < b {
        return Err(format!("{}: markers out of order", path.display()));
    }
    let new = format!("{}{BEGIN}\n{body}{}", &text[..b], &text[e..]);
    std::fs::write(path, new).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_replaces_only_between_the_markers() {
        let path = std::env::temp_dir().join(format!("compare-splice-{}.md", std::process::id()));
        let before = format!("head\n{BEGIN}\nold table\n{END}\ntail\n");
        std::fs::write(&path, &before).unwrap();
        splice(&path, "new table\n").unwrap();
        let after = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(after, format!("head\n{BEGIN}\nnew table\n{END}\ntail\n"));
    }

    #[test]
    fn splice_refuses_a_file_without_markers() {
        let path = std::env::temp_dir().join(format!("compare-nomark-{}.md", std::process::id()));
        std::fs::write(&path, "no markers\n").unwrap();
        assert!(splice(&path, "x").is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "no markers\n");
        std::fs::remove_file(&path).unwrap();
    }
}
