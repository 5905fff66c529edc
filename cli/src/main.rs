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
    /// Cryptokit's RSA speed test: key generation, public, private and CRT operations.
    Speedtest(cmd::speedtest::Args),
    /// Random probable primes of an exact size, or a primality check.
    Prime(cmd::prime::Args),
    /// The MPI library's prime generation timings (min, avg, max, sum per size).
    Primegen(cmd::primegen::Args),
    /// The MPI library's modular exponentiation timing table.
    Metime(cmd::metime::Args),
    /// The MPI library's multiply-versus-square table.
    Mulsqr(cmd::mulsqr::Args),
    /// GMP-style kernel timing: seconds per call, or cycles per limb with -C.
    Speed(cmd::speed::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Speedtest(args) => cmd::speedtest::run(&args),
        Command::Prime(args) => cmd::prime::run(&args),
        Command::Primegen(args) => cmd::primegen::run(&args),
        Command::Metime(args) => cmd::metime::run(&args),
        Command::Mulsqr(args) => cmd::mulsqr::run(&args),
        Command::Speed(args) => cmd::speed::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            if failure.has_message() {
                eprintln!("rsatool: {failure}");
            }
            failure.exit_code()
        }
    }
}
