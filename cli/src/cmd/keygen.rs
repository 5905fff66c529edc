//! `rsatool keygen`: a new RSA private key, PKCS #8 PEM by default.

use std::path::PathBuf;

use rsatool_rsa::{DEFAULT_EXPONENT, Encoding, KeyFormat, MAX_MODULUS_BITS, MIN_MODULUS_BITS};
use rsatool_rsa::{MAX_PRIMES, RsaPrivateKey};

use crate::cmd::args::OutputFormat;
use crate::exit::{CmdResult, Failure};
use crate::io::{self, Secrecy};

/// Sizes from this one up show a spinner with the elapsed time on a terminal: they take
/// seconds (a 16384-bit key, minutes).
const SPINNER_BITS: usize = 4096;

/// Generate an RSA private key (PKCS #8 PEM by default).
///
/// Generate an RSA private key (FIPS 186-5 probable primes), written as PKCS #8 PEM unless
/// asked otherwise. The file is created with mode 0600.
///
/// Passwords, as OpenSSL takes them: --passout pass:, env:, file:, fd: or piped stdin is taken
/// as given, any length, empty included; typed at the terminal prompt (--encrypt, or
/// --passout stdin on a terminal) it needs at least 4 bytes and is asked twice.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  rsatool keygen --bits 3072 -o key.pem\n  \
    rsatool keygen --bits 2048 --pkcs1 --format der -o key.der\n  \
    rsatool keygen --bits 3072 --passout env:KEYPASS -o key.pem\n  \
    rsatool keygen --bits 3072 --encrypt -o key.pem    (the password asked twice)\n  \
    rsatool keygen --bits 2048 --pss --hash sha256 --salt-len 32 -o pss.pem")]
pub struct Args {
    /// Modulus size in bits: even, from 1024 to 16384
    #[arg(long)]
    bits: usize,
    /// Public exponent: odd, at least 3
    #[arg(long, default_value_t = DEFAULT_EXPONENT)]
    exponent: u64,
    /// Output encoding (any case)
    #[arg(long, value_enum, ignore_case = true, default_value_t = OutputFormat::Pem)]
    format: OutputFormat,
    /// Write PKCS #1 (RSA PRIVATE KEY) instead of PKCS #8 (PRIVATE KEY)
    #[arg(long)]
    pkcs1: bool,
    /// Number of primes: 2, or more for a multi-prime key (RFC 8017; e = 65537 only), at
    /// most 3 below 4096 bits, 4 below 8192 and 5 from 8192 (OpenSSL's cap)
    #[arg(long, default_value_t = 2)]
    primes: usize,
    /// Make an RSA-PSS key (id-RSASSA-PSS, for PSS signatures only); --hash, --mgf1-hash and
    /// --salt-len restrict it (RFC 4055), as openssl genpkey -algorithm RSA-PSS does
    #[arg(long)]
    pss: bool,
    /// RSA-PSS key: the only message hash its signatures may use
    #[arg(long, value_parser = crate::cmd::args::parse_hash, requires = "pss")]
    hash: Option<rsatool_rsa::HashAlg>,
    /// RSA-PSS key: the only MGF1 hash (default: --hash)
    #[arg(long, value_parser = crate::cmd::args::parse_hash, value_name = "HASH", requires = "pss")]
    mgf1_hash: Option<rsatool_rsa::HashAlg>,
    /// RSA-PSS key: the smallest salt length (default: the hash length)
    #[arg(long, value_name = "N", requires = "pss")]
    salt_len: Option<usize>,
    /// Encrypt the key (PKCS #8, PBES2 with PBKDF2-SHA256 and AES-256-CBC) with the password
    /// from pass:TEXT, env:VAR, file:PATH, fd:N or stdin (any length; stdin on a terminal is
    /// asked twice, at least 4 bytes)
    #[arg(long, value_parser = crate::pass::parse_pass_source, value_name = "SRC")]
    passout: Option<crate::pass::PassSource>,
    /// Encrypt the key as --passout does, with a password asked twice on the terminal when
    /// --passout is not given (as openssl genpkey -aes256)
    #[arg(long)]
    encrypt: bool,
    /// Output file, or - for stdout (the default, as openssl genpkey writes)
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    output: PathBuf,
    /// Overwrite a read-only output file (it keeps its mode, owner and hard links)
    #[arg(long)]
    force: bool,
}

/// Runs `rsatool keygen`.
pub fn run(args: &Args) -> CmdResult {
    let bits = args.bits;
    if !(MIN_MODULUS_BITS..=MAX_MODULUS_BITS).contains(&bits) {
        return Err(Failure::error(format!(
            "--bits {bits}: unsupported key size; give an even number of bits from \
             {MIN_MODULUS_BITS} to {MAX_MODULUS_BITS}"
        )));
    }
    if bits & 1 == 1 {
        return Err(Failure::error(format!(
            "--bits {bits}: unsupported key size; the size must be even"
        )));
    }
    if !(2..=MAX_PRIMES).contains(&args.primes) {
        return Err(Failure::error(format!(
            "--primes {}: give 2 to {MAX_PRIMES} primes",
            args.primes
        )));
    }
    if args.exponent < 3 || args.exponent & 1 == 0 {
        return Err(Failure::error(format!(
            "--exponent {}: the public exponent must be odd and at least 3",
            args.exponent
        )));
    }
    let cap = multi_prime_cap(bits);
    if args.primes > cap {
        return Err(Failure::error(format!(
            "--primes {}: a {bits}-bit key may have at most {cap} primes (3 below 4096 bits, \
             4 below 8192, 5 from 8192, as OpenSSL allows), or its primes are too small",
            args.primes
        )));
    }
    if args.pkcs1 && (args.pss || args.passout.is_some() || args.encrypt) {
        return Err(Failure::error(
            "--pkcs1: PKCS #1 cannot hold an RSA-PSS key or be written encrypted; use PKCS #8",
        ));
    }
    let algorithm = if args.pss {
        if args.hash.is_none() && args.mgf1_hash.is_none() && args.salt_len.is_none() {
            rsatool_rsa::KeyAlgorithm::RsaPss(None)
        } else {
            let hash = args.hash.unwrap_or(rsatool_rsa::HashAlg::Sha256);
            rsatool_rsa::KeyAlgorithm::RsaPss(Some(rsatool_rsa::PssKeyParams {
                hash,
                mgf1_hash: args.mgf1_hash.unwrap_or(hash),
                min_salt_len: args.salt_len.unwrap_or(hash.output_len()),
            }))
        }
    } else {
        rsatool_rsa::KeyAlgorithm::Rsa
    };
    io::distinct(
        &crate::pass::with_file(&[], "--passout", args.passout.as_ref()),
        &[("--output", &args.output)],
    )?;
    let password = (args.encrypt || args.passout.is_some())
        .then(|| crate::pass::new_password(args.passout.as_ref(), "--passout", "the new key"))
        .transpose()?;
    if args.primes > 2 && args.exponent != DEFAULT_EXPONENT {
        return Err(Failure::error(
            "--exponent: multi-prime keys (--primes above 2) use e = 65537 only",
        ));
    }

    let spinner = (bits >= SPINNER_BITS)
        .then(|| crate::progress::Spinner::start(format!("generating a {bits}-bit RSA key")))
        .flatten();
    let mut rng = rsatool_rsa::os_rng();
    let key = if args.primes > 2 {
        RsaPrivateKey::generate_multi_prime(bits, args.primes, &mut rng)
    } else {
        RsaPrivateKey::generate_with_exponent(bits, args.exponent, &mut rng)
    };
    drop(spinner);
    let key = key.map_err(|e| Failure::error(format!("key generation failed: {e}")))?;

    let format = if args.pkcs1 {
        KeyFormat::Pkcs1
    } else {
        KeyFormat::Pkcs8
    };
    let encoded = rsatool_rsa::encode_private_key_with(
        &key.to_parts(),
        &algorithm,
        format,
        Encoding::from(args.format),
        password.as_ref().map(|p| &p[..]),
    )
    .map_err(|e| Failure::error(format!("cannot encode the key: {e}")))?;
    io::write_file(&args.output, &encoded, Secrecy::Secret, args.force)
}

/// The most primes a key of `bits` bits may have: OpenSSL's `ossl_rsa_multip_cap` (3 below
/// 4096 bits, 4 below 8192, 5 from 8192), so that no prime is much under 1024 bits.
pub fn multi_prime_cap(bits: usize) -> usize {
    match bits {
        ..4096 => 3,
        4096..8192 => 4,
        _ => 5,
    }
}
