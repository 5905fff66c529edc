//! `rsatool pubkey`: the public key of a private key (or a public key re-encoded).

use std::path::PathBuf;

use rsatool_rsa::{Encoding, PublicFormat};

use crate::cmd::args::OutputFormat;
use crate::exit::{CmdResult, Failure};
use crate::io::{self, Secrecy};

/// Write the public key of a key file (SubjectPublicKeyInfo PEM by default).
///
/// Write the public key of a key file: SubjectPublicKeyInfo PEM unless asked otherwise. The
/// key may be private or public, PEM or DER, PKCS #8 (encrypted or not), PKCS #1,
/// SubjectPublicKeyInfo or an X.509 certificate. A private key is validated first. An RSA-PSS
/// key keeps its algorithm and parameters.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  rsatool pubkey -k key.pem -o pub.pem\n  \
    rsatool pubkey -k key.pem --pkcs1 --format der -o pub.der\n  \
    rsatool pubkey -k cert.pem -o pub.pem")]
pub struct Args {
    /// Key file (private or public, or an X.509 certificate; PEM or DER), or - for stdin
    #[arg(short, long, value_name = "KEY")]
    key: PathBuf,
    /// Where the password of an encrypted private key comes from: pass:TEXT, env:VAR,
    /// file:PATH, fd:N or stdin (default: a prompt on the terminal)
    #[arg(long, value_parser = crate::pass::parse_pass_source, value_name = "SRC")]
    passin: Option<crate::pass::PassSource>,
    /// Output file, or - for stdout
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    output: PathBuf,
    /// Output encoding (any case)
    #[arg(long, value_enum, ignore_case = true, default_value_t = OutputFormat::Pem)]
    format: OutputFormat,
    /// Write PKCS #1 (RSA PUBLIC KEY) instead of SubjectPublicKeyInfo (PUBLIC KEY)
    #[arg(long)]
    pkcs1: bool,
    /// Overwrite a read-only output file (it keeps its mode, owner and hard links)
    #[arg(long)]
    force: bool,
}

/// Runs `rsatool pubkey`.
pub fn run(args: &Args) -> CmdResult {
    io::distinct(
        &crate::pass::with_file(&[("--key", &args.key)], "--passin", args.passin.as_ref()),
        &[("--output", &args.output)],
    )?;
    let loaded = io::read_key(&args.key, args.passin.as_ref(), io::public_key_from)?;
    let format = if args.pkcs1 {
        PublicFormat::Pkcs1
    } else {
        PublicFormat::Spki
    };
    let encoded = rsatool_rsa::encode_public_key_with(
        &loaded.key.to_parts(),
        &loaded.algorithm,
        format,
        Encoding::from(args.format),
    )
    .map_err(|e| Failure::error(format!("cannot encode the key: {e}")))?;
    io::write_file(&args.output, &encoded, Secrecy::Public, args.force)
}
