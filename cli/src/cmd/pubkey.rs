//! `rsatool pubkey`: the public key of a private key (or a public key re-encoded).

use std::path::PathBuf;

use rsa::{Encoding, PublicFormat};

use crate::cmd::args::OutputFormat;
use crate::exit::{CmdResult, Failure};
use crate::io::{self, Secrecy};

/// Write the public key of a key file (SubjectPublicKeyInfo PEM by default).
///
/// Write the public key of a key file: SubjectPublicKeyInfo PEM unless asked otherwise. The
/// key may be private or public, PEM or DER, PKCS #8, PKCS #1 or SubjectPublicKeyInfo.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  rsatool pubkey -k key.pem -o pub.pem\n  \
    rsatool pubkey -k key.pem --pkcs1 --format der -o pub.der")]
pub struct Args {
    /// Key file (private or public, PEM or DER), or - for stdin
    #[arg(short, long, value_name = "KEY")]
    key: PathBuf,
    /// Output file, or - for stdout
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    output: PathBuf,
    /// Output encoding
    #[arg(long, value_enum, default_value_t = OutputFormat::Pem)]
    format: OutputFormat,
    /// Write PKCS #1 (RSA PUBLIC KEY) instead of SubjectPublicKeyInfo (PUBLIC KEY)
    #[arg(long)]
    pkcs1: bool,
}

/// Runs `rsatool pubkey`.
pub fn run(args: &Args) -> CmdResult {
    let key = io::read_public_key(&args.key)?;
    let format = if args.pkcs1 {
        PublicFormat::Pkcs1
    } else {
        PublicFormat::Spki
    };
    let encoded = rsa::encode_public_key(&key.to_parts(), format, Encoding::from(args.format))
        .map_err(|e| Failure::error(format!("cannot encode the key: {e}")))?;
    io::write_output(&args.output, &encoded, Secrecy::Public)
}
