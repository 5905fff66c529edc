//! `rsatool verify`: check a PKCS #1 v1.5 or PSS signature; exit 0 if valid, 1 if not.

use std::path::PathBuf;

use crate::cmd::args::{
    Help, KeyTexts, PUBLIC_KEY_HELP, PUBLIC_PASSIN_HELP, SaltArg, Scheme, SigArgs, SigTexts,
    input_digest, parse_salt_len, signature_scheme,
};
use crate::exit::{CmdResult, Failure};
use crate::io;
use crate::report::outln;

/// `verify`'s help texts of the shared options.
#[derive(Debug)]
pub struct Texts;

impl Help<SigTexts> for Texts {
    const HELP: SigTexts = SigTexts {
        keyfile: KeyTexts {
            key: PUBLIC_KEY_HELP,
            passin: PUBLIC_PASSIN_HELP,
        },
        hash: "Message hash: sha1 (old signatures), sha224, sha256, sha384, sha512, sha512-224, \
            sha512-256; default sha256, or an RSA-PSS key's",
    };
}

/// Verify a signature: exit 0 if valid, 1 if not.
///
/// Verify a signature over a file with a public key, an X.509 certificate, or the public half
/// of a private key. Prints "Verified OK" and exits 0 for a valid signature; exits 1 for an
/// invalid one (of the wrong length or not below n included); 2 for any other error. PSS
/// recovers the salt length by default, as OpenSSL's and Go's verifiers do.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  rsatool verify -k pub.pem --scheme pss --hash sha256 -i msg.txt -s msg.sig\n  \
    rsatool verify -k cert.pem --scheme pkcs1v15 -i msg.txt -s msg.sig\n  \
    rsatool verify -k pub.pem --scheme pss --salt-len 32 -i msg.txt -s msg.sig"
)]
pub struct Args {
    #[command(flatten)]
    sig: SigArgs<Texts>,
    /// PSS salt length in bytes (enforced), digest (the hash length), max, or auto (whatever
    /// the signature has; the default)
    #[arg(long, value_parser = parse_salt_len, value_name = "N|digest|max|auto", allow_hyphen_values = true)]
    salt_len: Option<SaltArg>,
    /// The input is the digest itself (as long as the hash's output)
    #[arg(long)]
    prehashed: bool,
    /// Signed message, or - for stdin
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    input: PathBuf,
    /// Signature (raw bytes, as long as the modulus), or - for stdin
    #[arg(short, long, value_name = "SIG")]
    signature: PathBuf,
}

/// Runs `rsatool verify`.
pub fn run(args: &Args) -> CmdResult {
    io::one_stdin(("--key", &args.sig.keyfile.key), ("--input", &args.input))?;
    io::one_stdin(
        ("--key", &args.sig.keyfile.key),
        ("--signature", &args.signature),
    )?;
    io::one_stdin(("--input", &args.input), ("--signature", &args.signature))?;
    crate::pass::one_stdin(
        "--passin",
        args.sig.keyfile.passin.as_ref(),
        &[("--input", &args.input), ("--signature", &args.signature)],
    )?;
    let loaded = args.sig.keyfile.read(io::public_key_from)?;
    let key = &loaded.key;
    let scheme = signature_scheme(
        &io::input_name(&args.sig.keyfile.key),
        &loaded.algorithm,
        args.sig.scheme,
        args.sig.hash,
        args.sig.mgf1_hash,
        args.salt_len,
        true,
    )?;
    let signature = io::read_input(&args.signature, key.size())?;
    let digest = input_digest(&args.input, scheme.hash(), args.prehashed)?;
    let verdict = match &scheme {
        Scheme::Pkcs1(s) => key.verify_prehashed(s, &digest, &signature),
        Scheme::Pss(s) => key.verify_prehashed(s, &digest, &signature),
    };
    match verdict {
        Ok(()) => {
            outln!("Verified OK");
            Ok(())
        }
        Err(rsatool_rsa::Error::Verification) => {
            let name = io::input_name(&args.signature);
            Err(Failure::Negative(Some(if signature.len() == key.size() {
                format!("{name}: invalid signature")
            } else {
                format!(
                    "{name}: invalid signature: {}",
                    io::wrong_length(signature.len(), key.size(), key.bits(), "signatures")
                )
            })))
        }
        Err(other) => Err(Failure::error(format!("verification failed: {other}"))),
    }
}
