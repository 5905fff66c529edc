//! `--json` output: one JSON object on stdout, times in seconds per operation.

use serde_json::Value;

/// Prints `value` as one line of JSON on stdout.
pub fn print(value: &Value) {
    super::line(&value.to_string());
}
