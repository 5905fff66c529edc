//! `rsatool encrypt`: OAEP or PKCS #1 v1.5 encryption of a short message.

use std::path::PathBuf;

use rsatool_rsa::Pkcs1v15Encrypt;

use crate::cmd::args::{
    EncSchemeArgs, Help, KeyArgs, KeyTexts, PUBLIC_KEY_HELP, PUBLIC_PASSIN_HELP,
    check_encryption_paths, encryption_key,
};
use crate::exit::{CmdResult, Failure};
use crate::io::{self, Secrecy};

/// `encrypt`'s help texts of the shared options.
#[derive(Debug)]
pub struct Texts;

impl Help<KeyTexts> for Texts {
    const HELP: KeyTexts = KeyTexts {
        key: PUBLIC_KEY_HELP,
        passin: PUBLIC_PASSIN_HELP,
    };
}

/// Encrypt a short message to a public key (OAEP or PKCS #1 v1.5).
///
/// Encrypt a short message (a key, a password) to a public key: RSAES-OAEP or RSAES-PKCS1-v1_5.
/// The ciphertext is written raw, as many bytes as the modulus, like `openssl pkeyutl
/// -encrypt`. OAEP takes up to k − 2·hLen − 2 bytes (190 for a 2048-bit key and SHA-256),
/// PKCS #1 v1.5 up to k − 11.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  rsatool encrypt -k pub.pem --scheme oaep --hash sha256 -i secret.txt -o secret.enc\n  \
    rsatool encrypt -k pub.pem --scheme oaep --hash sha256 --mgf1-hash sha1 --label app -i secret.txt -o secret.enc"
)]
pub struct Args {
    #[command(flatten)]
    keyfile: KeyArgs<Texts>,
    #[command(flatten)]
    scheme: EncSchemeArgs,
    /// Message, or - for stdin
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    input: PathBuf,
    /// Ciphertext output, or - for stdout
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    output: PathBuf,
    /// Overwrite a read-only output file (it keeps its mode, owner and hard links)
    #[arg(long)]
    force: bool,
}

/// Runs `rsatool encrypt`.
pub fn run(args: &Args) -> CmdResult {
    let oaep = args.scheme.oaep()?;
    check_encryption_paths(&args.keyfile, &args.input, &args.output)?;
    let key = encryption_key(&args.keyfile, io::public_key_from)?;
    if let Some(oaep) = &oaep {
        // RFC 8017 §7.1.1: k ≥ 2·hLen + 2, else not even an empty message fits.
        let need = 2 * oaep.hash().output_len() + 2;
        if key.size() < need {
            return Err(Failure::error(format!(
                "{}: a {}-bit key is too small for OAEP with {} (it needs a modulus of at \
                 least {need} bytes, 2·hLen + 2); use a smaller --hash or a larger key",
                io::input_name(&args.keyfile.key),
                key.bits(),
                oaep.hash()
            )));
        }
    }
    let msg = io::read_input(&args.input, key.size())?;
    let mut rng = rsatool_rsa::os_rng();
    let pkcs1 = Pkcs1v15Encrypt::new();
    let (result, max, scheme_name) = match &oaep {
        Some(oaep) => (
            key.encrypt(&mut rng, oaep, &msg),
            oaep.max_message_len(&key),
            format!("OAEP with {}", oaep.hash()),
        ),
        None => (
            key.encrypt(&mut rng, &pkcs1, &msg),
            pkcs1.max_message_len(&key),
            "PKCS #1 v1.5".to_owned(),
        ),
    };
    let ciphertext = result.map_err(|e| match e {
        rsatool_rsa::Error::MessageTooLong => Failure::error(format!(
            "{}: message too long: {}{} bytes, but a {}-bit key with {scheme_name} takes at \
             most {max}",
            io::input_name(&args.input),
            if msg.len() > key.size() {
                "more than "
            } else {
                ""
            },
            msg.len().min(key.size()),
            key.bits(),
        )),
        other => Failure::error(format!("encryption failed: {other}")),
    })?;
    io::write_file(&args.output, &ciphertext, Secrecy::Public, args.force)
}
