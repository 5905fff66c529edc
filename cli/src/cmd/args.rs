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
}
