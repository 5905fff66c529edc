//! `rsatool`: RSA key tool and benchmark reports on rsatool's own constant-time bignum.

mod cmd;
mod exit;
mod report;
mod timing;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// RSA key tool and benchmark reports on rsatool's own constant-time bignum.
#[derive(Parser, Debug)]
#[command(name = "rsatool", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// GMP-style kernel timing: seconds per call, or cycles per limb with -C.
    Speed(cmd::speed::Args),
    /// The MPI library's multiply-versus-square table.
    Mulsqr(cmd::mulsqr::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Speed(args) => cmd::speed::run(&args),
        Command::Mulsqr(args) => cmd::mulsqr::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("rsatool: {failure}");
            failure.exit_code()
        }
    }
}
