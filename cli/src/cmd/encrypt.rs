//! `rsatool encrypt`: OAEP or PKCS #1 v1.5 encryption of a short message.

use std::path::{Path, PathBuf};

use rsatool_rsa::{HashAlg, Oaep, Pkcs1v15Encrypt};

use crate::cmd::args::{Help, KeyArgs, KeyTexts, PUBLIC_KEY_HELP, PUBLIC_PASSIN_HELP, parse_hash};
use crate::exit::{CmdResult, Failure};
use crate::io::{self, Secrecy};

/// `--scheme` of `encrypt` and `decrypt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EncScheme {
    /// RSAES-OAEP
    Oaep,
    /// RSAES-PKCS1-v1_5 (legacy)
    Pkcs1v15,
}

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
    scheme: SchemeArgs,
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

/// The scheme options `encrypt` and `decrypt` share.
#[derive(clap::Args, Debug)]
pub struct SchemeArgs {
    /// Encryption scheme (any case)
    #[arg(long, value_enum, ignore_case = true)]
    scheme: EncScheme,
    /// OAEP hash, for the label and for MGF1 unless --mgf1-hash is given: sha1, sha224,
    /// sha256 (the default), sha384, sha512, sha512-224, sha512-256
    #[arg(long, value_parser = parse_hash)]
    hash: Option<HashAlg>,
    /// OAEP: the hash of MGF1, if not --hash's
    #[arg(long, value_parser = parse_hash, value_name = "HASH")]
    mgf1_hash: Option<HashAlg>,
    /// OAEP label (its bytes as given); encryption and decryption must be given the same
    #[arg(long, value_name = "TEXT")]
    label: Option<String>,
}

impl SchemeArgs {
    /// For a rejected OAEP ciphertext: the parameters tried, and how to match OpenSSL's
    /// default (`openssl pkeyutl -encrypt -pkeyopt rsa_padding_mode:oaep` uses SHA-1 for both
    /// hashes and no label). Empty for PKCS #1 v1.5.
    pub fn oaep_hint(&self) -> String {
        if self.scheme != EncScheme::Oaep {
            return String::new();
        }
        let hash = self.hash.unwrap_or(HashAlg::Sha256);
        let mgf1 = self.mgf1_hash.unwrap_or(hash);
        let label = match &self.label {
            Some(l) => format!("label {l:?}"),
            None => "no label".to_owned(),
        };
        let mut hint = format!(" (tried OAEP with {hash}, MGF1 with {mgf1}, {label})");
        if hash != HashAlg::Sha1 || mgf1 != HashAlg::Sha1 {
            hint.push_str(
                "; OpenSSL's OAEP uses SHA-1 by default: for a ciphertext made by openssl \
                 pkeyutl without rsa_oaep_md, give --hash sha1",
            );
        }
        hint
    }

    /// The OAEP scheme of `--hash`, `--mgf1-hash` and `--label` (`None` for PKCS #1 v1.5), or
    /// an error if they were given with `--scheme pkcs1v15`.
    pub fn oaep(&self) -> Result<Option<Oaep>, Failure> {
        match self.scheme {
            EncScheme::Pkcs1v15 => {
                if self.hash.is_some() || self.mgf1_hash.is_some() || self.label.is_some() {
                    return Err(Failure::error(
                        "--hash, --mgf1-hash and --label apply to --scheme oaep only",
                    ));
                }
                Ok(None)
            }
            EncScheme::Oaep => {
                let hash = self.hash.unwrap_or(HashAlg::Sha256);
                let mut oaep = Oaep::new(hash).with_mgf1_hash(self.mgf1_hash.unwrap_or(hash));
                if let Some(label) = &self.label {
                    oaep = oaep.with_label(label.as_bytes());
                }
                Ok(Some(oaep))
            }
        }
    }
}

/// Refuses what `encrypt` and `decrypt` cannot do: the key (or its password) and the input
/// both on stdin, and an output that is one of the files read.
pub fn check_paths<H: Help<KeyTexts>>(
    keyfile: &KeyArgs<H>,
    input: &Path,
    output: &Path,
) -> Result<(), Failure> {
    io::one_stdin(("--key", &keyfile.key), ("--input", input))?;
    crate::pass::one_stdin("--passin", keyfile.passin.as_ref(), &[("--input", input)])?;
    io::distinct(
        &crate::pass::with_file(
            &[("--key", &keyfile.key), ("--input", input)],
            "--passin",
            keyfile.passin.as_ref(),
        ),
        &[("--output", output)],
    )
}

/// The key of `encrypt` or `decrypt`, read as `decode` does; an RSA-PSS key is refused: it is
/// for PSS signatures only.
pub fn encryption_key<H: Help<KeyTexts>, K>(
    keyfile: &KeyArgs<H>,
    decode: io::KeyDecoder<K>,
) -> Result<K, Failure> {
    let loaded = keyfile.read(decode)?;
    if loaded.algorithm != rsatool_rsa::KeyAlgorithm::Rsa {
        return Err(Failure::error(format!(
            "{}: an RSA-PSS key is for PSS signatures only",
            io::input_name(&keyfile.key)
        )));
    }
    Ok(loaded.key)
}

/// Runs `rsatool encrypt`.
pub fn run(args: &Args) -> CmdResult {
    let oaep = args.scheme.oaep()?;
    check_paths(&args.keyfile, &args.input, &args.output)?;
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
