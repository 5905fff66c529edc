//! `rsatool`: RSA key tool and benchmark reports.

use clap::Parser;

/// RSA key tool and benchmark reports on rsatool's own constant-time bignum.
#[derive(Parser, Debug)]
#[command(name = "rsatool", version, about, long_about = None)]
struct Cli {}

fn main() {
    let _cli = Cli::parse();
    println!(
        "rsatool {}: no subcommand yet; see `rsatool --help`.",
        env!("CARGO_PKG_VERSION")
    );
}
