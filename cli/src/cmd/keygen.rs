//! `rsatool keygen`: a new RSA private key, PKCS #8 PEM by default.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use rsa::{DEFAULT_EXPONENT, Encoding, KeyFormat, MAX_MODULUS_BITS, MIN_MODULUS_BITS};
use rsa::{MAX_PRIMES, RsaPrivateKey};

use crate::cmd::args::OutputFormat;
use crate::exit::{CmdResult, Failure};
use crate::io::{self, Secrecy};

/// Sizes from this one up show a spinner on a terminal: they take seconds.
const SPINNER_BITS: usize = 4096;

/// Generate an RSA private key (PKCS #8 PEM by default).
///
/// Generate an RSA private key (FIPS 186-5 probable primes), written as PKCS #8 PEM unless
/// asked otherwise. The file is created with mode 0600.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  rsatool keygen --bits 3072 -o key.pem\n  \
    rsatool keygen --bits 2048 --pkcs1 --format der -o key.der")]
pub struct Args {
    /// Modulus size in bits: even, from 1024 to 16384
    #[arg(long)]
    bits: usize,
    /// Public exponent: odd, at least 3
    #[arg(long, default_value_t = DEFAULT_EXPONENT)]
    exponent: u64,
    /// Output encoding
    #[arg(long, value_enum, default_value_t = OutputFormat::Pem)]
    format: OutputFormat,
    /// Write PKCS #1 (RSA PRIVATE KEY) instead of PKCS #8 (PRIVATE KEY)
    #[arg(long)]
    pkcs1: bool,
    /// Number of primes: 2, or 3 to 5 for a multi-prime key (RFC 8017; e = 65537 only)
    #[arg(long, default_value_t = 2)]
    primes: usize,
    /// Output file, or - for stdout
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
}

/// Runs `rsatool keygen`.
pub fn run(args: &Args) -> CmdResult {
    let bits = args.bits;
    if !(MIN_MODULUS_BITS..=MAX_MODULUS_BITS).contains(&bits) {
        return Err(Failure::error(format!(
            "--bits {bits}: unsupported key size; give an even number of bits from \
             {MIN_MODULUS_BITS} to {MAX_MODULUS_BITS}"
        )));
    }
    if bits & 1 == 1 {
        return Err(Failure::error(format!(
            "--bits {bits}: unsupported key size; the size must be even"
        )));
    }
    if !(2..=MAX_PRIMES).contains(&args.primes) {
        return Err(Failure::error(format!(
            "--primes {}: give 2 to {MAX_PRIMES} primes",
            args.primes
        )));
    }
    if args.exponent < 3 || args.exponent & 1 == 0 {
        return Err(Failure::error(format!(
            "--exponent {}: the public exponent must be odd and at least 3",
            args.exponent
        )));
    }
    if args.primes > 2 && args.exponent != DEFAULT_EXPONENT {
        return Err(Failure::error(
            "--exponent: multi-prime keys (--primes above 2) use e = 65537 only",
        ));
    }

    let spinner = (bits >= SPINNER_BITS && std::io::stderr().is_terminal()).then(|| {
        let pb = indicatif::ProgressBar::new_spinner();
        pb.set_message(format!("generating a {bits}-bit RSA key"));
        pb.enable_steady_tick(Duration::from_millis(100));
        pb
    });
    let mut rng = rsa::os_rng();
    let key = if args.primes > 2 {
        RsaPrivateKey::generate_multi_prime(bits, args.primes, &mut rng)
    } else {
        RsaPrivateKey::generate_with_exponent(bits, args.exponent, &mut rng)
    };
    if let Some(pb) = spinner {
        pb.finish_and_clear();
    }
    let key = key.map_err(|e| Failure::error(format!("key generation failed: {e}")))?;

    let format = if args.pkcs1 {
        KeyFormat::Pkcs1
    } else {
        KeyFormat::Pkcs8
    };
    let encoded = rsa::encode_private_key(&key.to_parts(), format, Encoding::from(args.format))
        .map_err(|e| Failure::error(format!("cannot encode the key: {e}")))?;
    io::write_output(&args.output, &encoded, Secrecy::Secret)
}
