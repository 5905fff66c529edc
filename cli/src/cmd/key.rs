//! `rsatool key`: `openssl pkey` / `openssl rsa` for this tool: convert a key between PKCS #8
//! and PKCS #1, PEM and DER, plain and encrypted; its public half; its components as text;
//! its full validation.

use std::fmt::Write as _;
use std::path::PathBuf;

use rsatool_rsa::{
    Encoding, KeyAlgorithm, KeyFormat, PrivateKeyParts, PublicFormat, PublicKeyParts,
};
use zeroize::Zeroizing;

use crate::cmd::args::OutputFormat;
use crate::exit::{CmdResult, Failure};
use crate::io::{self, Secrecy};
use crate::pass::{PassSource, parse_pass_source};

/// Convert, inspect or check a key (like openssl pkey / openssl rsa).
///
/// Read a key (private or public, PEM or DER, PKCS #8 plain or encrypted, PKCS #1, a
/// certificate's) and write it again: PKCS #8 PEM by default, --pkcs1 for PKCS #1, --format
/// der, --passout to encrypt (PKCS #8), --pubout for the public key only. --text prints the
/// components in OpenSSL's layout instead; --check runs the full validation (n = p·q, the
/// primes prime and distinct, d and the CRT values consistent) and prints "RSA key ok", or
/// says what is wrong and exits 1.
///
/// Passwords, as OpenSSL takes them: from pass:, env:, file:, fd: or piped stdin, taken as
/// given, any length, empty included (an empty line is an empty password), to read a key and
/// to write one; typed at the terminal prompt, a new one (--passout stdin on a terminal,
/// --encrypt) needs at least 4 bytes and is asked twice.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  rsatool key -k key.pem --pkcs1 -o key-pkcs1.pem\n  \
    rsatool key -k key.pem --passout env:KEYPASS -o key-enc.pem\n  \
    rsatool key -k key.pem --encrypt -o key-enc.pem    (the password asked twice)\n  \
    rsatool key -k key-enc.pem --passin env:KEYPASS --format der -o key.der\n  \
    rsatool key -k key.pem --text\n  \
    rsatool key -k key.pem --check"
)]
pub struct Args {
    /// Key file, or - for stdin
    #[arg(short, long, value_name = "KEY")]
    key: PathBuf,
    /// Output file, or - for stdout
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    output: PathBuf,
    /// Write PKCS #1 (RSA PRIVATE KEY / RSA PUBLIC KEY) instead of PKCS #8 / SubjectPublicKeyInfo
    #[arg(long)]
    pkcs1: bool,
    /// Output encoding (any case)
    #[arg(long, value_enum, ignore_case = true, default_value_t = OutputFormat::Pem)]
    format: OutputFormat,
    /// Password of an encrypted input key: pass:TEXT, env:VAR, file:PATH, fd:N or stdin
    /// (taken as given, empty included); without it, asked on the terminal
    #[arg(long, value_parser = parse_pass_source, value_name = "SRC")]
    passin: Option<PassSource>,
    /// Encrypt the output key (PKCS #8, PBES2 with PBKDF2-SHA256 and AES-256-CBC) with the
    /// password from this source (any length; stdin on a terminal is asked twice, at least 4
    /// bytes)
    #[arg(long, value_parser = parse_pass_source, value_name = "SRC")]
    passout: Option<PassSource>,
    /// Encrypt the output key as --passout does, with a password asked twice on the terminal
    /// when --passout is not given (as openssl pkey -aes256)
    #[arg(long)]
    encrypt: bool,
    /// Write the public key only
    #[arg(long)]
    pubout: bool,
    /// Print the key's components as text (OpenSSL's layout) instead of the key (the public
    /// ones only with --pubout)
    #[arg(long, conflicts_with_all = ["passout", "encrypt", "pkcs1"])]
    text: bool,
    /// Validate the private key fully; exit 1 if it is bad
    #[arg(long, conflicts_with_all = ["pubout", "passout", "encrypt", "pkcs1", "text"])]
    check: bool,
    /// Overwrite a read-only output file (it keeps its mode, owner and hard links)
    #[arg(long)]
    force: bool,
}

/// Runs `rsatool key`.
pub fn run(args: &Args) -> CmdResult {
    if args.pkcs1 && (args.passout.is_some() || args.encrypt) {
        return Err(Failure::error(
            "--pkcs1: PKCS #1 cannot be written encrypted; use PKCS #8 (leave out --pkcs1)",
        ));
    }
    let name = io::input_name(&args.key);
    io::key_and_passin(&args.key, args.passin.as_ref())?;
    let mut inputs =
        crate::pass::with_file(&[("--key", &args.key)], "--passin", args.passin.as_ref());
    if let Some(PassSource::File(path)) = &args.passout {
        inputs.push(("--passout", path));
    }
    io::distinct(&inputs, &[("--output", &args.output)])?;
    // Read once: stdin (`-k -`) cannot be read twice.
    let data = io::read_key_bytes(&args.key)?;
    if args.check {
        return check(args, &name, &data);
    }
    let private = rsatool_rsa::is_encrypted_private_key(&data)
        || rsatool_rsa::decode_private_key(&data).is_ok();
    if private && !args.pubout {
        let loaded = io::private_key_from(&name, &data, args.passin.as_ref())?;
        let parts = loaded.key.to_parts();
        if args.text {
            let text = private_text(&parts, loaded.key.bits(), &loaded.algorithm);
            return io::write_file(&args.output, text.as_bytes(), Secrecy::Secret, args.force);
        }
        let password = (args.encrypt || args.passout.is_some())
            .then(|| {
                crate::pass::new_password(args.passout.as_ref(), "--passout", "the output key")
            })
            .transpose()?;
        let format = if args.pkcs1 {
            KeyFormat::Pkcs1
        } else {
            KeyFormat::Pkcs8
        };
        let encoded = rsatool_rsa::encode_private_key_with(
            &parts,
            &loaded.algorithm,
            format,
            Encoding::from(args.format),
            password.as_ref().map(|p| &p[..]),
        )
        .map_err(|e| Failure::error(format!("cannot encode the key: {e}")))?;
        return io::write_file(&args.output, &encoded, Secrecy::Secret, args.force);
    }
    if args.passout.is_some() || args.encrypt {
        return Err(Failure::error(
            "--passout/--encrypt: a public key is not encrypted (give a private key, without \
             --pubout)",
        ));
    }
    let loaded = io::public_key_from(&name, &data, args.passin.as_ref())?;
    let parts = loaded.key.to_parts();
    if args.text {
        let text = public_text(&parts, loaded.key.bits(), &loaded.algorithm);
        return io::write_file(&args.output, text.as_bytes(), Secrecy::Public, args.force);
    }
    let format = if args.pkcs1 {
        PublicFormat::Pkcs1
    } else {
        PublicFormat::Spki
    };
    let encoded = rsatool_rsa::encode_public_key_with(
        &parts,
        &loaded.algorithm,
        format,
        Encoding::from(args.format),
    )
    .map_err(|e| Failure::error(format!("cannot encode the key: {e}")))?;
    io::write_file(&args.output, &encoded, Secrecy::Public, args.force)
}

/// `--check`: the key's structure must decode (exit 2 otherwise); then every validation,
/// each failure with its own message and exit 1, as `openssl rsa -check`.
fn check(args: &Args, name: &str, data: &[u8]) -> CmdResult {
    let passin = args.passin.as_ref();
    let parts = match rsatool_rsa::decode_private_key_with(data, None) {
        Err(rsatool_rsa::Error::NeedPassword) => {
            let pw = crate::pass::password_to_read(passin, "--passin", name)?;
            rsatool_rsa::decode_private_key_with(data, Some(&pw))
        }
        other => other,
    };
    let (parts, _) = match parts {
        Ok(p) => p,
        Err(_) => {
            // Not a private key (or not a key): the reader's message says which.
            io::private_key_from(name, data, passin)?;
            return Err(Failure::error(format!("{name}: not a private key")));
        }
    };
    if let Some(other) = io::mismatch(data, &parts.n, &parts.e) {
        return Err(Failure::Negative(Some(format!(
            "{name}: RSA key not ok: {other}"
        ))));
    }
    if let Err(e) = rsatool_rsa::RsaPrivateKey::from_parts(&parts) {
        let what = match e {
            rsatool_rsa::Error::InvalidKey(k) => k.to_string(),
            other => other.to_string(),
        };
        return Err(Failure::Negative(Some(format!(
            "{name}: RSA key not ok: {what}"
        ))));
    }
    for (i, p) in parts.primes.iter().enumerate() {
        let limbs = be_limbs(p);
        if !bignum::prime::is_probable_prime(&limbs) {
            return Err(Failure::Negative(Some(format!(
                "{name}: RSA key not ok: {} is not prime",
                prime_name(i)
            ))));
        }
    }
    crate::report::outln!("RSA key ok");
    Ok(())
}

fn prime_name(i: usize) -> String {
    match i {
        0 => "the prime p".to_owned(),
        1 => "the prime q".to_owned(),
        _ => format!("prime {}", i + 1),
    }
}

/// Big-endian bytes as little-endian limbs (a public test on a value about to be declared
/// good or bad; the key file is not treated as secret while it is checked).
fn be_limbs(bytes: &[u8]) -> Vec<bignum::Limb> {
    bignum::Nat::from_be_bytes(bytes).as_limbs().to_vec()
}

/// OpenSSL's `ASN1_bn_print` layout: a leading 00 when the top bit is set, 15 bytes a line,
/// four spaces in, bytes joined by ':'. Writes straight into `out` (no copy of a secret is
/// left elsewhere).
fn hex_block(out: &mut String, bytes: &[u8]) {
    let pad = bytes.first().is_none_or(|b| b & 0x80 != 0);
    let total = bytes.len() + usize::from(pad);
    let all = pad.then_some(&0u8).into_iter().chain(bytes);
    let mut column = 0;
    for (i, b) in all.enumerate() {
        if column == 0 {
            out.push_str("    ");
        }
        let _ = write!(out, "{b:02x}");
        if i + 1 < total {
            out.push(':');
        }
        column += 1;
        if column == 15 || i + 1 == total {
            out.push('\n');
            column = 0;
        }
    }
}

/// `NAME: 65537 (0x10001)` for a value of one limb, else a hex block.
fn small_or_block(out: &mut String, name: &str, bytes: &[u8]) {
    let n = bignum::Nat::from_be_bytes(bytes);
    match n.to_u64() {
        Some(v) => {
            let _ = writeln!(out, "{name} {v} (0x{v:x})");
        }
        None => {
            let _ = writeln!(out, "{name}");
            hex_block(out, bytes);
        }
    }
}

fn pss_text(out: &mut String, algorithm: &KeyAlgorithm) {
    match algorithm {
        KeyAlgorithm::RsaPss(Some(p)) => {
            let _ = writeln!(out, "PSS parameter restrictions:\n{p}");
        }
        KeyAlgorithm::RsaPss(None) => out.push_str("No PSS parameter restrictions\n"),
        KeyAlgorithm::Rsa => {}
    }
}

/// `openssl pkey -text -noout` of a private key.
fn private_text(
    parts: &PrivateKeyParts,
    bits: usize,
    algorithm: &KeyAlgorithm,
) -> Zeroizing<String> {
    let mut out = Zeroizing::new(String::new());
    let _ = writeln!(
        out,
        "Private-Key: ({bits} bit, {} primes)",
        parts.primes.len()
    );
    out.push_str("modulus:\n");
    hex_block(&mut out, &parts.n);
    small_or_block(&mut out, "publicExponent:", &parts.e);
    out.push_str("privateExponent:\n");
    hex_block(&mut out, &parts.d);
    let names = ["prime1", "prime2", "exponent1", "exponent2", "coefficient"];
    let values = [
        &parts.primes[0],
        &parts.primes[1],
        &parts.exponents[0],
        &parts.exponents[1],
        &parts.coefficients[0],
    ];
    for (name, value) in names.iter().zip(values) {
        let _ = writeln!(out, "{name}:");
        hex_block(&mut out, value);
    }
    for i in 2..parts.primes.len() {
        for (name, value) in [
            ("prime", &parts.primes[i]),
            ("exponent", &parts.exponents[i]),
            ("coefficient", &parts.coefficients[i - 1]),
        ] {
            let _ = writeln!(out, "{name}{}:", i + 1);
            hex_block(&mut out, value);
        }
    }
    pss_text(&mut out, algorithm);
    out
}

/// `openssl pkey -pubin -text -noout` of a public key.
fn public_text(parts: &PublicKeyParts, bits: usize, algorithm: &KeyAlgorithm) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Public-Key: ({bits} bit)");
    out.push_str("Modulus:\n");
    hex_block(&mut out, &parts.n);
    small_or_block(&mut out, "Exponent:", &parts.e);
    pss_text(&mut out, algorithm);
    out
}
