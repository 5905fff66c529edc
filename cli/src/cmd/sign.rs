//! `rsatool sign`: a PKCS #1 v1.5 or PSS signature over a file.

use std::path::PathBuf;

use rsa::{HashAlg, Pkcs1v15Sign, Pss, SaltLen};

use crate::cmd::args::{SaltArg, SigScheme, parse_hash, parse_salt_len};
use crate::exit::{CmdResult, Failure};
use crate::io::{self, Secrecy};

/// Sign a file (PKCS #1 v1.5 or PSS).
///
/// Sign a file with a private key: RSASSA-PKCS1-v1_5 or RSASSA-PSS (MGF1 over the same hash).
/// The input is hashed as it is read, so it may be of any size; the signature is written raw,
/// as many bytes as the modulus, like `openssl pkeyutl -sign` / `openssl dgst -sign`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  rsatool sign -k key.pem --scheme pss --hash sha256 -i msg.txt -o msg.sig\n  \
    rsatool sign -k key.pem --scheme pkcs1v15 --hash sha384 -i msg.txt -o msg.sig"
)]
pub struct Args {
    /// Private key (PEM or DER, PKCS #8 or PKCS #1), or - for stdin
    #[arg(short, long, value_name = "KEY")]
    key: PathBuf,
    /// Signature scheme
    #[arg(long, value_enum)]
    scheme: SigScheme,
    /// Message hash: sha224, sha256, sha384, sha512, sha512-224, sha512-256 (SHA-1 is for
    /// verifying old signatures only)
    #[arg(long, value_parser = parse_hash, default_value = "sha256")]
    hash: HashAlg,
    /// PSS salt length in bytes, or max (the largest the key allows); default: the hash
    /// length
    #[arg(long, value_parser = parse_salt_len, value_name = "N|max", allow_hyphen_values = true)]
    salt_len: Option<SaltArg>,
    /// Message to sign, or - for stdin
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    input: PathBuf,
    /// Signature output, or - for stdout
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    output: PathBuf,
}

/// Runs `rsatool sign`.
pub fn run(args: &Args) -> CmdResult {
    if args.hash == HashAlg::Sha1 {
        return Err(Failure::error(
            "--hash sha1: SHA-1 is accepted for verifying old signatures only; sign with sha256 \
             or stronger",
        ));
    }
    let salt = match (args.scheme, args.salt_len) {
        (SigScheme::Pkcs1v15, Some(_)) => {
            return Err(Failure::error("--salt-len applies to --scheme pss only"));
        }
        (_, Some(SaltArg::Auto)) => {
            return Err(Failure::error(
                "--salt-len auto: only verify recovers the salt length; sign with a number of \
                 bytes or max",
            ));
        }
        (_, s) => s.map_or(SaltLen::HashLen, SaltLen::from),
    };
    io::one_stdin(("--key", &args.key), ("--input", &args.input))?;
    let key = io::read_private_key(&args.key)?;
    let digest = io::hash_input(&args.input, args.hash)?;
    let mut rng = rsa::os_rng();
    let signature = match args.scheme {
        SigScheme::Pkcs1v15 => key.sign_prehashed(&mut rng, &Pkcs1v15Sign::new(args.hash), &digest),
        SigScheme::Pss => {
            key.sign_prehashed(&mut rng, &Pss::new(args.hash).with_salt_len(salt), &digest)
        }
    }
    .map_err(|e| match e {
        rsa::Error::MessageTooLong => Failure::error(format!(
            "{}: a {}-bit key is too small for {} with {} and this salt length",
            io::input_name(&args.key),
            key.bits(),
            match args.scheme {
                SigScheme::Pkcs1v15 => "PKCS #1 v1.5",
                SigScheme::Pss => "PSS",
            },
            args.hash,
        )),
        other => Failure::error(format!("signing failed: {other}")),
    })?;
    io::write_output(&args.output, &signature, Secrecy::Public)
}
