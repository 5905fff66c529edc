//! Argument parsers shared by several subcommands, and the option blocks they share (each
//! with the command's own help texts).

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use rsatool_rsa::{HashAlg, Oaep};

use crate::exit::Failure;
use crate::io;
use crate::pass::{PassSource, parse_pass_source};

/// A comma-separated list of bit sizes, as `--bits` takes it.
#[derive(Debug, Clone)]
pub struct BitsList(pub Vec<usize>);

/// Parses a comma-separated list of bit sizes (`128,192,256`), each a multiple of 64 from 64
/// to 16384.
pub fn parse_bits_list(s: &str) -> Result<BitsList, String> {
    s.split(',')
        .map(|part| {
            let bits: usize = part
                .trim()
                .parse()
                .map_err(|_| format!("'{part}' is not a number of bits"))?;
            if !(64..=16384).contains(&bits) || bits & 63 != 0 {
                return Err(format!(
                    "{bits} bits: sizes must be multiples of 64 from 64 to 16384"
                ));
            }
            Ok(bits)
        })
        .collect::<Result<Vec<_>, _>>()
        .map(BitsList)
}

/// `--format` of the key tool's outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Text: base64 between BEGIN and END lines
    Pem,
    /// Binary ASN.1 DER
    Der,
}

impl From<OutputFormat> for rsatool_rsa::Encoding {
    fn from(f: OutputFormat) -> Self {
        match f {
            OutputFormat::Pem => rsatool_rsa::Encoding::Pem,
            OutputFormat::Der => rsatool_rsa::Encoding::Der,
        }
    }
}

/// `--scheme` of `sign` and `verify`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SigScheme {
    /// RSASSA-PKCS1-v1_5 (deterministic)
    Pkcs1v15,
    /// RSASSA-PSS with MGF1 over the same hash
    Pss,
}

/// Parses `--hash` and `--mgf1-hash`: sha1, sha224, sha256, sha384, sha512, sha512-224,
/// sha512-256, sha3-224, sha3-256, sha3-384, sha3-512, shake128, shake256 (SHAKE: PSS only).
pub fn parse_hash(s: &str) -> Result<rsatool_rsa::HashAlg, String> {
    s.parse::<rsatool_rsa::HashAlg>().map_err(|_| {
        let names: Vec<&str> = rsatool_rsa::HashAlg::EVERY
            .iter()
            .map(|h| h.cli_name())
            .collect();
        format!("unknown hash; give one of {}", names.join(", "))
    })
}

/// The signature scheme of `sign` / `verify` from their options and the key's algorithm: an
/// RSA-PSS key (RFC 4055) allows PSS only, and its parameters are the defaults of `--hash`,
/// `--mgf1-hash` and the salt length, and limits on them, as in OpenSSL.
///
/// # Errors
///
/// An option that does not apply to the scheme, or that the key's restrictions refuse.
pub fn signature_scheme(
    name: &str,
    algorithm: &rsatool_rsa::KeyAlgorithm,
    scheme: Option<SigScheme>,
    hash: Option<rsatool_rsa::HashAlg>,
    mgf1_hash: Option<rsatool_rsa::HashAlg>,
    salt: Option<SaltArg>,
    verifying: bool,
) -> Result<Scheme, crate::exit::Failure> {
    use crate::exit::Failure;
    // Without --scheme: PKCS #1 v1.5, as `openssl dgst -sign` / `-verify`, but PSS for an
    // RSA-PSS key, which allows nothing else.
    let scheme = scheme.unwrap_or(match algorithm {
        rsatool_rsa::KeyAlgorithm::RsaPss(_) => SigScheme::Pss,
        _ => SigScheme::Pkcs1v15,
    });
    let params = match algorithm {
        rsatool_rsa::KeyAlgorithm::RsaPss(p) => {
            if scheme != SigScheme::Pss {
                return Err(Failure::error(format!(
                    "{name}: an RSA-PSS key signs with --scheme pss only"
                )));
            }
            *p
        }
        _ => None,
    };
    match scheme {
        SigScheme::Pkcs1v15 => {
            if salt.is_some() || mgf1_hash.is_some() {
                return Err(Failure::error(
                    "--salt-len and --mgf1-hash apply to --scheme pss only",
                ));
            }
            Ok(Scheme::Pkcs1(rsatool_rsa::Pkcs1v15Sign::new(
                hash.unwrap_or(rsatool_rsa::HashAlg::Sha256),
            )))
        }
        SigScheme::Pss => {
            // `auto` when signing is the largest salt, as OpenSSL's rsa_pss_saltlen:auto.
            let salt = match salt {
                Some(SaltArg::Auto) if !verifying => Some(SaltArg::Max),
                other => other,
            };
            let hash = hash
                .or(params.map(|p| p.hash))
                .unwrap_or(rsatool_rsa::HashAlg::Sha256);
            let mgf1 = mgf1_hash.or(params.map(|p| p.mgf1_hash)).unwrap_or(hash);
            let salt_len = match (salt, params) {
                (Some(s), _) => rsatool_rsa::SaltLen::from(s),
                (None, _) if verifying => rsatool_rsa::SaltLen::Auto,
                (None, Some(p)) => rsatool_rsa::SaltLen::Exact(p.min_salt_len),
                (None, None) => rsatool_rsa::SaltLen::HashLen,
            };
            let mut pss = rsatool_rsa::Pss::new(hash)
                .with_mgf1_hash(mgf1)
                .with_salt_len(salt_len);
            if let Some(p) = params {
                p.check(&pss).map_err(|e| match e {
                    rsatool_rsa::Error::Unsupported(what) => {
                        Failure::error(format!("{name}: {what}"))
                    }
                    other => Failure::error(format!("{name}: {other}")),
                })?;
                pss = pss.with_salt_len(p.verifying_salt(salt_len));
            }
            Ok(Scheme::Pss(pss))
        }
    }
}

/// A signature scheme with its parameters.
#[derive(Debug, Clone, Copy)]
pub enum Scheme {
    /// RSASSA-PKCS1-v1_5.
    Pkcs1(rsatool_rsa::Pkcs1v15Sign),
    /// RSASSA-PSS.
    Pss(rsatool_rsa::Pss),
}

impl Scheme {
    /// The message hash.
    pub fn hash(&self) -> rsatool_rsa::HashAlg {
        match self {
            Scheme::Pkcs1(s) => rsatool_rsa::SignatureScheme::hash(s),
            Scheme::Pss(s) => s.hash,
        }
    }
}

/// The digest `sign` / `verify` work on: the input hashed as it is read, or with
/// `--prehashed` the input itself, which must be as long as the hash's output.
///
/// # Errors
///
/// The input cannot be read, or (prehashed) has the wrong length.
pub fn input_digest(
    spec: &std::path::Path,
    hash: rsatool_rsa::HashAlg,
    prehashed: bool,
) -> Result<Vec<u8>, crate::exit::Failure> {
    if !prehashed {
        return crate::io::hash_input(spec, hash);
    }
    let data = crate::io::read_input(spec, hash.output_len())?;
    if data.len() != hash.output_len() {
        return Err(crate::exit::Failure::error(format!(
            "{}: --prehashed: a {hash} digest is {} bytes, this input is {}{}",
            crate::io::input_name(spec),
            hash.output_len(),
            if data.len() > hash.output_len() {
                "more than "
            } else {
                ""
            },
            data.len().min(hash.output_len())
        )));
    }
    Ok(data.to_vec())
}

/// `--salt-len` of PSS: a number of bytes, `digest`, `max` or `auto`, as OpenSSL's
/// `rsa_pss_saltlen` takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaltArg {
    /// Exactly this many bytes.
    Exact(usize),
    /// As many bytes as the hash's output.
    Digest,
    /// The largest the key allows.
    Max,
    /// Whatever the signature has (verification); the largest (signing), as OpenSSL.
    Auto,
}

impl From<SaltArg> for rsatool_rsa::SaltLen {
    fn from(s: SaltArg) -> Self {
        match s {
            SaltArg::Exact(n) => rsatool_rsa::SaltLen::Exact(n),
            SaltArg::Digest => rsatool_rsa::SaltLen::HashLen,
            SaltArg::Max => rsatool_rsa::SaltLen::Max,
            SaltArg::Auto => rsatool_rsa::SaltLen::Auto,
        }
    }
}

/// Parses `--salt-len`: a number of bytes (at most 2048, the largest a 16384-bit key holds),
/// `digest` (the hash length), `max` or `auto`, as OpenSSL's `rsa_pss_saltlen` (and its
/// `-1`, `-2`, `-3` for digest, auto/max and max).
pub fn parse_salt_len(s: &str) -> Result<SaltArg, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "digest" | "-1" => Ok(SaltArg::Digest),
        "max" | "-3" => Ok(SaltArg::Max),
        "auto" | "-2" => Ok(SaltArg::Auto),
        n => match n.parse::<usize>() {
            Ok(n) if n <= 2048 => Ok(SaltArg::Exact(n)),
            _ => Err("give a number of bytes (0 to 2048), digest, max or auto".to_owned()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_lists_parse_and_bad_ones_are_refused() {
        assert_eq!(
            parse_bits_list("64, 128,2048").unwrap().0,
            vec![64, 128, 2048]
        );
        for bad in ["", "63", "100", "0", "32768", "a", "64,,128"] {
            assert!(parse_bits_list(bad).is_err(), "{bad:?} should be refused");
        }
    }

    #[test]
    fn hashes_and_salt_lengths_parse_and_bad_ones_are_refused() {
        assert_eq!(
            parse_hash("sha512-256"),
            Ok(rsatool_rsa::HashAlg::Sha512_256)
        );
        assert_eq!(parse_hash("SHA384"), Ok(rsatool_rsa::HashAlg::Sha384));
        assert_eq!(parse_hash("sha3-256"), Ok(rsatool_rsa::HashAlg::Sha3_256));
        assert_eq!(parse_hash("shake256"), Ok(rsatool_rsa::HashAlg::Shake256));
        for bad in ["md5", "sha3-1024", "", "sha"] {
            assert!(parse_hash(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_salt_len("0"), Ok(SaltArg::Exact(0)));
        assert_eq!(parse_salt_len("32"), Ok(SaltArg::Exact(32)));
        assert_eq!(parse_salt_len("MAX"), Ok(SaltArg::Max));
        assert_eq!(parse_salt_len("auto"), Ok(SaltArg::Auto));
        assert_eq!(parse_salt_len("Digest"), Ok(SaltArg::Digest));
        for bad in ["-4", "2049", "x", ""] {
            assert!(parse_salt_len(bad).is_err(), "{bad:?}");
        }
    }
}

/// `--key` of the commands that take a public key, a certificate or a private key's public half.
pub const PUBLIC_KEY_HELP: &str =
    "Public key, certificate or private key (PEM or DER, any format), or - for stdin";

/// `--passin` of those commands: a private key given as `--key` may be encrypted.
pub const PUBLIC_PASSIN_HELP: &str = "The password of an encrypted private key given as --key: \
    pass:TEXT, env:VAR, file:PATH, fd:N or stdin";

/// `--passin` of the commands that read a private key.
pub const PRIVATE_PASSIN_HELP: &str = "Where the password of an encrypted key comes from: \
    pass:TEXT, env:VAR, file:PATH, fd:N or stdin (default: a prompt on the terminal)";

/// A command's help texts `T` for options it shares with other commands: each command words
/// them for what it does (a key to sign with, a key to encrypt to, ...).
pub trait Help<T> {
    /// The texts.
    const HELP: T;
}

/// The help texts of [`KeyArgs`].
#[derive(Debug)]
pub struct KeyTexts {
    /// `--key`
    pub key: &'static str,
    /// `--passin`
    pub passin: &'static str,
}

/// The key file and its password source.
#[derive(clap::Args, Debug)]
pub struct KeyArgs<H: Help<KeyTexts>> {
    // Help: the command's own text.
    #[arg(short, long, value_name = "KEY", help = H::HELP.key)]
    pub key: PathBuf,
    // Help: the command's own text.
    #[arg(long, value_parser = parse_pass_source, value_name = "SRC", help = H::HELP.passin)]
    pub passin: Option<PassSource>,
    #[arg(skip)]
    _texts: PhantomData<H>,
}

impl<H: Help<KeyTexts>> KeyArgs<H> {
    /// Reads the key file and decodes it with `decode`, the password from `--passin`.
    ///
    /// # Errors
    ///
    /// As [`io::read_key`].
    pub fn read<K>(&self, decode: io::KeyDecoder<K>) -> Result<io::Loaded<K>, Failure> {
        io::read_key(&self.key, self.passin.as_ref(), decode)
    }
}

/// The help texts of [`SigArgs`].
#[derive(Debug)]
pub struct SigTexts {
    /// `--key` and `--passin`
    pub keyfile: KeyTexts,
    /// `--hash`
    pub hash: &'static str,
}

/// The [`KeyTexts`] of a [`SigArgs`]' texts `H`.
#[derive(Debug)]
pub struct SigKeyTexts<H>(PhantomData<H>);

impl<H: Help<SigTexts>> Help<KeyTexts> for SigKeyTexts<H> {
    const HELP: KeyTexts = H::HELP.keyfile;
}

/// The key, its password source, the scheme and the hashes, as `sign` and `verify` take them.
#[derive(clap::Args, Debug)]
pub struct SigArgs<H: Help<SigTexts>> {
    #[command(flatten)]
    pub keyfile: KeyArgs<SigKeyTexts<H>>,
    /// Signature scheme (any case); default pkcs1v15 as openssl dgst, or pss for an RSA-PSS key
    #[arg(long, value_enum, ignore_case = true)]
    pub scheme: Option<SigScheme>,
    // Help: the command's own text.
    #[arg(long, value_parser = parse_hash, help = H::HELP.hash)]
    pub hash: Option<HashAlg>,
    /// PSS: the hash of MGF1 (default: --hash's, or an RSA-PSS key's)
    #[arg(long, value_parser = parse_hash, value_name = "HASH")]
    pub mgf1_hash: Option<HashAlg>,
}

/// `--scheme` of `encrypt` and `decrypt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EncScheme {
    /// RSAES-OAEP
    Oaep,
    /// RSAES-PKCS1-v1_5 (legacy)
    Pkcs1v15,
}

/// The scheme options `encrypt` and `decrypt` share.
#[derive(clap::Args, Debug)]
pub struct EncSchemeArgs {
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

impl EncSchemeArgs {
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
pub fn check_encryption_paths<H: Help<KeyTexts>>(
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

/// The help texts of [`ReportArgs`].
#[derive(Debug)]
pub struct ReportTexts {
    /// `--seed`
    pub seed: &'static str,
    /// `--json`
    pub json: &'static str,
    /// `--then`
    pub then: &'static str,
}

/// The options `primegen`, `metime` and `mulsqr` share after their sizes and counts.
#[derive(clap::Args, Debug)]
pub struct ReportArgs<H: Help<ReportTexts>> {
    // Help: the command's own text.
    #[arg(long, default_value_t = 1, help = H::HELP.seed)]
    pub seed: u64,
    // Help: the command's own text.
    #[arg(long, help = H::HELP.json)]
    pub json: bool,
    // Help: the command's own text.
    #[arg(long, conflicts_with = "json", help = H::HELP.then)]
    pub then: bool,
    #[arg(skip)]
    _texts: PhantomData<H>,
}
