//! `rsatool decrypt`: OAEP or PKCS #1 v1.5 decryption; exit 1 if the ciphertext is rejected.

use std::path::PathBuf;

use rsatool_rsa::Pkcs1v15Encrypt;

use crate::cmd::args::{
    EncSchemeArgs, Help, KeyArgs, KeyTexts, PRIVATE_PASSIN_HELP, check_encryption_paths,
    encryption_key,
};
use crate::exit::{CmdResult, Failure};
use crate::io::{self, Secrecy};

/// `decrypt`'s help texts of the shared options.
#[derive(Debug)]
pub struct Texts;

impl Help<KeyTexts> for Texts {
    const HELP: KeyTexts = KeyTexts {
        key: "Private key (PEM or DER, PKCS #8 or PKCS #1), or - for stdin",
        passin: PRIVATE_PASSIN_HELP,
    };
}

/// Decrypt a ciphertext: exit 1 if rejected.
///
/// Decrypt a ciphertext with a private key: RSAES-OAEP or RSAES-PKCS1-v1_5. A rejected
/// ciphertext exits 1 and writes nothing. PKCS #1 v1.5 uses implicit rejection, as OpenSSL
/// 3.2+ does: a ciphertext with bad padding decrypts, with exit 0, to a pseudo-random message
/// derived from the key and the ciphertext, so neither the time nor the exit code says whether
/// the padding was good. The message is written with mode 0600.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  rsatool decrypt -k key.pem --scheme oaep --hash sha256 -i secret.enc -o secret.txt\n  \
    rsatool decrypt -k key.pem --scheme pkcs1v15 -i legacy.enc -o secret.txt"
)]
pub struct Args {
    #[command(flatten)]
    keyfile: KeyArgs<Texts>,
    #[command(flatten)]
    scheme: EncSchemeArgs,
    /// PKCS #1 v1.5 only: fail with exit 1 on bad padding instead of returning a pseudo-random
    /// message. DANGEROUS: a caller who can tell failure from success (exit code, error
    /// message, log line, timing) has a padding oracle, and Bleichenbacher's attack (and its
    /// descendants ROBOT and Marvin) decrypts any ciphertext, or forges a signature, from
    /// enough such answers. Use it only on data no attacker can submit, such as your own files
    #[arg(long)]
    explicit_rejection: bool,
    /// Ciphertext (raw bytes, as long as the modulus), or - for stdin
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    input: PathBuf,
    /// Decrypted message output, or - for stdout
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    output: PathBuf,
    /// Overwrite a read-only output file (it keeps its mode, owner and hard links)
    #[arg(long)]
    force: bool,
}

/// Runs `rsatool decrypt`.
pub fn run(args: &Args) -> CmdResult {
    let oaep = args.scheme.oaep()?;
    if args.explicit_rejection && oaep.is_some() {
        return Err(Failure::error(
            "--explicit-rejection applies to --scheme pkcs1v15 only (OAEP always rejects)",
        ));
    }
    check_encryption_paths(&args.keyfile, &args.input, &args.output)?;
    let key = encryption_key(&args.keyfile, io::private_key_from)?;
    let ciphertext = io::read_input(&args.input, key.size())?;
    let mut rng = rsatool_rsa::os_rng();
    let result = match &oaep {
        Some(oaep) => key.decrypt(&mut rng, oaep, &ciphertext),
        None if args.explicit_rejection => key.decrypt(
            &mut rng,
            &Pkcs1v15Encrypt::explicit_rejection(),
            &ciphertext,
        ),
        None => key.decrypt(&mut rng, &Pkcs1v15Encrypt::new(), &ciphertext),
    };
    let msg = zeroize::Zeroizing::new(result.map_err(|e| match e {
        rsatool_rsa::Error::Decryption => {
            let name = io::input_name(&args.input);
            Failure::Negative(Some(if ciphertext.len() == key.size() {
                format!(
                    "{name}: decryption failed: the ciphertext was rejected{}",
                    args.scheme.oaep_hint()
                )
            } else {
                format!(
                    "{name}: decryption failed: {}",
                    io::wrong_length(ciphertext.len(), key.size(), key.bits(), "ciphertexts")
                )
            }))
        }
        other => Failure::error(format!("decryption failed: {other}")),
    })?);
    io::write_file(&args.output, &msg, Secrecy::Secret, args.force)
}
