//! Argument parsers shared by several subcommands.

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

impl From<OutputFormat> for rsa::Encoding {
    fn from(f: OutputFormat) -> Self {
        match f {
            OutputFormat::Pem => rsa::Encoding::Pem,
            OutputFormat::Der => rsa::Encoding::Der,
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
pub fn parse_hash(s: &str) -> Result<rsa::HashAlg, String> {
    s.parse::<rsa::HashAlg>().map_err(|_| {
        let names: Vec<&str> = rsa::HashAlg::EVERY.iter().map(|h| h.cli_name()).collect();
        format!("unknown hash; give one of {}", names.join(", "))
    })
}

/// `--salt-len` of PSS: a number of bytes, `max`, or (`verify` only) `auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaltArg {
    /// Exactly this many bytes.
    Exact(usize),
    /// The largest the key allows.
    Max,
    /// Whatever the signature has (verification only).
    Auto,
}

impl From<SaltArg> for rsa::SaltLen {
    fn from(s: SaltArg) -> Self {
        match s {
            SaltArg::Exact(n) => rsa::SaltLen::Exact(n),
            SaltArg::Max => rsa::SaltLen::Max,
            SaltArg::Auto => rsa::SaltLen::Auto,
        }
    }
}

/// Parses `--salt-len`: a number of bytes (at most 2048, the largest a 16384-bit key holds),
/// `max` or `auto`.
pub fn parse_salt_len(s: &str) -> Result<SaltArg, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "max" => Ok(SaltArg::Max),
        "auto" => Ok(SaltArg::Auto),
        n => match n.parse::<usize>() {
            Ok(n) if n <= 2048 => Ok(SaltArg::Exact(n)),
            _ => Err("give a number of bytes (0 to 2048), max or auto".to_owned()),
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
        assert_eq!(parse_hash("sha512-256"), Ok(rsa::HashAlg::Sha512_256));
        assert_eq!(parse_hash("SHA384"), Ok(rsa::HashAlg::Sha384));
        assert_eq!(parse_hash("sha3-256"), Ok(rsa::HashAlg::Sha3_256));
        assert_eq!(parse_hash("shake256"), Ok(rsa::HashAlg::Shake256));
        for bad in ["md5", "sha3-1024", "", "sha"] {
            assert!(parse_hash(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_salt_len("0"), Ok(SaltArg::Exact(0)));
        assert_eq!(parse_salt_len("32"), Ok(SaltArg::Exact(32)));
        assert_eq!(parse_salt_len("MAX"), Ok(SaltArg::Max));
        assert_eq!(parse_salt_len("auto"), Ok(SaltArg::Auto));
        for bad in ["-1", "2049", "x", ""] {
            assert!(parse_salt_len(bad).is_err(), "{bad:?}");
        }
    }
}
