//! `rsatool sign`: a PKCS #1 v1.5 or PSS signature over a file, or over several (one
//! signature beside each).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use rsatool_rsa::{HashAlg, RsaPrivateKey};

use crate::cmd::args::{
    Help, KeyTexts, PRIVATE_PASSIN_HELP, SaltArg, Scheme, SigArgs, SigTexts, input_digest,
    parse_salt_len, signature_scheme,
};
use crate::exit::{CmdResult, Failure};
use crate::io::{self, Secrecy};

/// From this many inputs on, a progress bar is shown on a terminal.
const PROGRESS_INPUTS: usize = 16;

/// `sign`'s help texts of the shared options.
#[derive(Debug)]
pub struct Texts;

impl Help<SigTexts> for Texts {
    const HELP: SigTexts = SigTexts {
        keyfile: KeyTexts {
            key: "Private key (PEM or DER, PKCS #8 or PKCS #1, encrypted or not), or - for stdin",
            passin: PRIVATE_PASSIN_HELP,
        },
        hash: "Message hash: sha224, sha256, sha384, sha512, sha512-224, sha512-256 (SHA-1 is \
            for verifying old signatures only); default sha256, or an RSA-PSS key's",
    };
}

/// Sign a file, or several (PKCS #1 v1.5 or PSS).
///
/// Sign a file with a private key: RSASSA-PKCS1-v1_5 or RSASSA-PSS. The input is hashed as it
/// is read, so it may be of any size (with --prehashed it is the digest itself); the signature
/// is written raw, as many bytes as the modulus, like `openssl pkeyutl -sign` / `openssl dgst
/// -sign`. Several inputs (`-i a.txt b.txt`, or `-i` repeated) are each signed into a file
/// beside it with `.sig` appended (`a.txt.sig`); an input that cannot be read is named on
/// stderr, the others are still signed, and the exit code is 2. An RSA-PSS key's parameters
/// are the defaults (and the limits) of --hash, --mgf1-hash and --salt-len.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  rsatool sign -k key.pem --scheme pss --hash sha256 -i msg.txt -o msg.sig\n  \
    rsatool sign -k key.pem --scheme pkcs1v15 --hash sha384 -i msg.txt -o msg.sig\n  \
    rsatool sign -k key.pem --scheme pss -i a.txt b.txt c.txt\n  \
    rsatool sign -k key.pem --scheme pkcs1v15 --prehashed -i msg.sha256 -o msg.sig"
)]
pub struct Args {
    #[command(flatten)]
    sig: SigArgs<Texts>,
    /// PSS salt length in bytes, digest (the hash length), or max (the largest the key
    /// allows; auto means max when signing, as in OpenSSL); default: the hash length, or an
    /// RSA-PSS key's minimum
    #[arg(long, value_parser = parse_salt_len, value_name = "N|digest|max", allow_hyphen_values = true)]
    salt_len: Option<SaltArg>,
    /// The input is the digest itself (as long as the hash's output), as `openssl pkeyutl
    /// -sign -pkeyopt digest:sha256` takes it
    #[arg(long)]
    prehashed: bool,
    /// Message(s) to sign, or - for stdin; several give one FILE.sig beside each
    #[arg(short, long, value_name = "FILE", num_args = 1.., default_value = "-")]
    input: Vec<PathBuf>,
    /// Signature output, or - for stdout (one input only)
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Overwrite a read-only output file (it keeps its mode, owner and hard links)
    #[arg(long)]
    force: bool,
}

/// Signs one digest with the key, as a library user signs one message
/// (`RsaPrivateKey::sign_prehashed`: the single operation's path, no batch machinery).
fn sign_one(key: &RsaPrivateKey, scheme: &Scheme, digest: &[u8]) -> rsatool_rsa::Result<Vec<u8>> {
    let mut rng = rsatool_rsa::os_rng();
    match scheme {
        Scheme::Pkcs1(s) => key.sign_prehashed(&mut rng, s, digest),
        Scheme::Pss(s) => key.sign_prehashed(&mut rng, s, digest),
    }
}

/// Signs each digest with the key, for several inputs: through the batch API
/// (`rsatool_rsa::Batch`: eight exponentiations per pass where the CPU has AVX-512 IFMA,
/// spread over the cores; each signature with its own blinding and fault check, and its own
/// result).
pub fn sign_many(
    key: &RsaPrivateKey,
    scheme: &Scheme,
    digests: &[&[u8]],
) -> Vec<rsatool_rsa::Result<Vec<u8>>> {
    let mut rng = rsatool_rsa::os_rng();
    match scheme {
        Scheme::Pkcs1(s) => key.sign_prehashed_batch(&mut rng, s, digests),
        Scheme::Pss(s) => key.sign_prehashed_batch(&mut rng, s, digests),
    }
}

/// Runs `rsatool sign`.
pub fn run(args: &Args) -> CmdResult {
    if args.sig.hash == Some(HashAlg::Sha1) {
        return Err(Failure::error(
            "--hash sha1: SHA-1 is accepted for verifying old signatures only; sign with sha256 \
             or stronger",
        ));
    }
    let several = args.input.len() > 1;
    if several && args.output.is_some() {
        return Err(Failure::error(
            "--output: with several inputs each signature goes beside its input (FILE.sig)",
        ));
    }
    if several && args.input.iter().any(|p| crate::file_args::is_std(p)) {
        return Err(Failure::error(
            "--input: - (stdin) can be signed on its own only",
        ));
    }
    io::one_stdin(
        ("--key", &args.sig.keyfile.key),
        ("--input", &args.input[0]),
    )?;
    crate::pass::one_stdin(
        "--passin",
        args.sig.keyfile.passin.as_ref(),
        &[("--input", &args.input[0])],
    )?;
    let outputs: Vec<PathBuf> = if several {
        args.input.iter().map(|p| signature_path(p)).collect()
    } else {
        vec![args.output.clone().unwrap_or_else(|| PathBuf::from("-"))]
    };
    let mut inputs = vec![("--key", args.sig.keyfile.key.as_path())];
    inputs.extend(args.input.iter().map(|p| ("--input", p.as_path())));
    io::distinct(
        &crate::pass::with_file(&inputs, "--passin", args.sig.keyfile.passin.as_ref()),
        &outputs
            .iter()
            .map(|p| ("--output", p.as_path()))
            .collect::<Vec<_>>(),
    )?;
    let loaded = args.sig.keyfile.read(io::private_key_from)?;
    let key = &loaded.key;
    let key_name = io::input_name(&args.sig.keyfile.key);
    let scheme = signature_scheme(
        &key_name,
        &loaded.algorithm,
        args.sig.scheme,
        args.sig.hash,
        args.sig.mgf1_hash,
        args.salt_len,
        false,
    )?;
    let hash = scheme.hash();
    let signing_error = |e: rsatool_rsa::Error| match e {
        rsatool_rsa::Error::MessageTooLong => Failure::error(format!(
            "{key_name}: a {}-bit key is too small for {} with {hash} and this salt length",
            key.bits(),
            match scheme {
                Scheme::Pkcs1(_) => "PKCS #1 v1.5",
                Scheme::Pss(_) => "PSS",
            },
        )),
        other => Failure::error(format!("signing failed: {other}")),
    };

    if !several {
        let input = &args.input[0];
        let digest = input_digest(input, hash, args.prehashed)?;
        let signature = sign_one(key, &scheme, &digest).map_err(signing_error)?;
        return io::write_file(&outputs[0], &signature, Secrecy::Public, args.force);
    }

    let progress =
        (args.input.len() >= PROGRESS_INPUTS && std::io::stderr().is_terminal()).then(|| {
            let pb = indicatif::ProgressBar::new(args.input.len() as u64 * 2);
            pb.set_message("signing");
            pb
        });
    let tick = || {
        if let Some(pb) = &progress {
            pb.inc(1);
        }
    };
    // Read (hash) every input, then sign all the digests at once, then write.
    let mut failures = Vec::new();
    let mut ready: Vec<(&Path, Vec<u8>)> = Vec::new();
    for input in &args.input {
        match input_digest(input, hash, args.prehashed) {
            Ok(digest) => ready.push((input, digest)),
            Err(f) => failures.push(f),
        }
        tick();
    }
    let digests: Vec<&[u8]> = ready.iter().map(|(_, d)| d.as_slice()).collect();
    let signatures = sign_many(key, &scheme, &digests);
    for ((input, _), signature) in ready.iter().zip(signatures) {
        let written = signature.map_err(signing_error).and_then(|sig| {
            io::write_file(&signature_path(input), &sig, Secrecy::Public, args.force)
        });
        if let Err(f) = written {
            failures.push(f);
        }
        tick();
    }
    if let Some(pb) = progress {
        pb.finish_and_clear();
    }
    if failures.is_empty() {
        return Ok(());
    }
    for f in &failures {
        eprintln!("rsatool: {f}");
    }
    Err(Failure::Reported)
}

/// `a.txt` -> `a.txt.sig`.
fn signature_path(input: &Path) -> PathBuf {
    let mut name = input.as_os_str().to_owned();
    name.push(".sig");
    PathBuf::from(name)
}
