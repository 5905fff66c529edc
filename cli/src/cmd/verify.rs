//! `rsatool verify`: check a PKCS #1 v1.5 or PSS signature; exit 0 if valid, 1 if not.

use std::path::PathBuf;

use rsa::{HashAlg, Pkcs1v15Sign, Pss, SaltLen};

use crate::cmd::args::{SaltArg, SigScheme, parse_hash, parse_salt_len};
use crate::exit::{CmdResult, Failure};
use crate::io;
use crate::report::outln;

/// Verify a signature: exit 0 if valid, 1 if not.
///
/// Verify a signature over a file with a public key (or the public half of a private key).
/// Prints "Verified OK" and exits 0 for a valid signature; exits 1 for an invalid one (of
/// the wrong length or not below n included); 2 for any other error.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  rsatool verify -k pub.pem --scheme pss --hash sha256 -i msg.txt -s msg.sig\n  \
    rsatool verify -k pub.pem --scheme pss --salt-len auto -i msg.txt -s openssl.sig"
)]
pub struct Args {
    /// Public or private key (PEM or DER, any format), or - for stdin
    #[arg(short, long, value_name = "KEY")]
    key: PathBuf,
    /// Signature scheme
    #[arg(long, value_enum)]
    scheme: SigScheme,
    /// Message hash: sha1 (old signatures), sha224, sha256, sha384, sha512, sha512-224,
    /// sha512-256
    #[arg(long, value_parser = parse_hash, default_value = "sha256")]
    hash: HashAlg,
    /// PSS salt length in bytes, max, or auto (whatever the signature has: needed for
    /// signatures made with OpenSSL's or Python's maximum salt); default: the hash length
    #[arg(long, value_parser = parse_salt_len, value_name = "N|max|auto", allow_hyphen_values = true)]
    salt_len: Option<SaltArg>,
    /// Signed message, or - for stdin
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    input: PathBuf,
    /// Signature (raw bytes, as long as the modulus), or - for stdin
    #[arg(short, long, value_name = "SIG")]
    signature: PathBuf,
}

/// Runs `rsatool verify`.
pub fn run(args: &Args) -> CmdResult {
    let salt = match (args.scheme, args.salt_len) {
        (SigScheme::Pkcs1v15, Some(_)) => {
            return Err(Failure::error("--salt-len applies to --scheme pss only"));
        }
        (_, s) => s.map_or(SaltLen::HashLen, SaltLen::from),
    };
    io::one_stdin(("--key", &args.key), ("--input", &args.input))?;
    io::one_stdin(("--key", &args.key), ("--signature", &args.signature))?;
    io::one_stdin(("--input", &args.input), ("--signature", &args.signature))?;
    let key = io::read_public_key(&args.key)?;
    let signature = io::read_input(&args.signature, key.size())?;
    let digest = io::hash_input(&args.input, args.hash)?;
    let verdict = match args.scheme {
        SigScheme::Pkcs1v15 => {
            key.verify_prehashed(&Pkcs1v15Sign::new(args.hash), &digest, &signature)
        }
        SigScheme::Pss => key.verify_prehashed(
            &Pss::new(args.hash).with_salt_len(salt),
            &digest,
            &signature,
        ),
    };
    match verdict {
        Ok(()) => {
            outln!("Verified OK");
            Ok(())
        }
        Err(rsa::Error::Verification) => {
            let name = io::input_name(&args.signature);
            Err(Failure::Negative(Some(if signature.len() == key.size() {
                format!("{name}: invalid signature")
            } else {
                format!(
                    "{name}: invalid signature: {}{} bytes, but a {}-bit key's signatures \
                     are {} bytes",
                    if signature.len() > key.size() {
                        "more than "
                    } else {
                        ""
                    },
                    signature.len().min(key.size()),
                    key.bits(),
                    key.size()
                )
            })))
        }
        Err(other) => Err(Failure::error(format!("verification failed: {other}"))),
    }
}
