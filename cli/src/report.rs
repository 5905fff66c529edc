//! Report formatting shared by the commands: the benchmarks' text tables and `--json` output,
//! and the lists of failed vectors of `kat` and `acvp`.

pub mod backend;
pub mod json;
pub mod seeds;

use std::io::Write;

/// Writes one line on stdout, like `println!`, but a reader that went away (`rsatool speed |
/// head`) ends the process quietly instead of with a panic.
pub fn line(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{text}").and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("rsatool: cannot write to stdout: {e}");
        std::process::exit(2);
    }
}

/// `println!` through [`line()`].
macro_rules! outln {
    ($($arg:tt)*) => { $crate::report::line(&format!($($arg)*)) };
}
pub(crate) use outln;

/// Prints the first `shown` of `failures`, indented, then how many more there are of the
/// `failed` in all.
pub fn print_failures(failures: &[String], failed: usize, shown: usize) {
    for line in failures.iter().take(shown) {
        outln!("  {line}");
    }
    if failed > shown {
        outln!("  ... and {} more", failed - shown);
    }
}
