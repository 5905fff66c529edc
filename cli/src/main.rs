//! `rsatool`: RSA key tool and benchmark reports on rsatool's own constant-time bignum.

mod cmd;
mod exit;
mod file_args;
mod io;
mod pass;
mod progress;
mod report;
mod timing;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// RSA key tool and benchmark reports on rsatool's own constant-time bignum.
#[derive(Parser, Debug)]
#[command(name = "rsatool", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    // The key tool's commands take their help (a summary line, then details) from the doc
    // comment of their `Args`.
    Keygen(cmd::keygen::Args),
    Pubkey(cmd::pubkey::Args),
    Key(cmd::key::Args),
    Sign(cmd::sign::Args),
    Verify(cmd::verify::Args),
    Encrypt(cmd::encrypt::Args),
    Decrypt(cmd::decrypt::Args),
    Kat(cmd::kat::Args),
    Acvp(cmd::acvp::Args),
    /// Cryptokit's RSA speed test: key generation, public, private and CRT operations.
    Speedtest(cmd::speedtest::Args),
    /// Random probable primes of an exact size, or a primality check.
    Prime(cmd::prime::Args),
    /// The MPI library's prime generation timings (min, avg, max, sum per size).
    Primegen(cmd::primegen::Args),
    /// The MPI library's modular exponentiation timing table.
    Metime(cmd::metime::Args),
    /// The MPI library's multiply-versus-square table.
    Mulsqr(cmd::mulsqr::Args),
    /// GMP-style kernel timing: seconds per call, or cycles per limb with -C.
    Speed(cmd::speed::Args),
    Completions(cmd::completions::Args),
    Man(cmd::man::Args),
}

fn main() -> ExitCode {
    install_panic_hook();
    if let Some(hint) = openssl_spelling() {
        eprintln!("rsatool: {hint}");
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    let result = match cli.command {
        Command::Keygen(args) => cmd::keygen::run(&args),
        Command::Pubkey(args) => cmd::pubkey::run(&args),
        Command::Key(args) => cmd::key::run(&args),
        Command::Sign(args) => cmd::sign::run(&args),
        Command::Verify(args) => cmd::verify::run(&args),
        Command::Encrypt(args) => cmd::encrypt::run(&args),
        Command::Decrypt(args) => cmd::decrypt::run(&args),
        Command::Kat(args) => cmd::kat::run(&args),
        Command::Acvp(args) => cmd::acvp::run(&args),
        Command::Speedtest(args) => cmd::speedtest::run(&args),
        Command::Prime(args) => cmd::prime::run(&args),
        Command::Primegen(args) => cmd::primegen::run(&args),
        Command::Metime(args) => cmd::metime::run(&args),
        Command::Mulsqr(args) => cmd::mulsqr::run(&args),
        Command::Speed(args) => cmd::speed::run(&args),
        Command::Completions(args) => cmd::completions::run(&args, cli_command()),
        Command::Man(args) => cmd::man::run(&args, cli_command()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            if failure.has_message() {
                eprintln!("rsatool: {failure}");
            }
            failure.exit_code()
        }
    }
}

/// The whole command line's clap definition, for completions and manual pages.
fn cli_command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// Help and version go to stdout with exit 0, as clap prints them; a usage error becomes one
/// line on stderr (`rsatool: ...`, clap's message without its usage block) and exit 2.
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            eprintln!("rsatool: no command given (see rsatool --help)");
            ExitCode::from(2)
        }
        _ => {
            eprintln!("rsatool: {}", one_line(&e.render().to_string()));
            ExitCode::from(2)
        }
    }
}

/// OpenSSL's single-dash options and the options of ours that do their job. Clap alone would
/// read `-in msg` as `-i n` and then trip over `msg`, or worse take it as one more input.
const OPENSSL_SPELLINGS: [(&str, &str); 20] = [
    ("-in", "-i/--input"),
    ("-out", "-o/--output"),
    ("-inkey", "-k/--key"),
    ("-key", "-k/--key"),
    (
        "-pubin",
        "-k/--key (a public key file is recognised as such)",
    ),
    ("-sigfile", "-s/--signature"),
    ("-signature", "-s/--signature"),
    ("-passin", "--passin"),
    ("-passout", "--passout"),
    ("-pubout", "--pubout"),
    ("-text", "--text"),
    ("-check", "--check"),
    ("-outform", "--format"),
    ("-keyform", "-k/--key (the input format is detected)"),
    ("-inform", "-k/--key (the input format is detected)"),
    ("-sha1", "--hash sha1"),
    ("-sha224", "--hash sha224"),
    ("-sha256", "--hash sha256"),
    ("-sha384", "--hash sha384"),
    ("-sha512", "--hash sha512"),
];

/// A hint when the command line uses an OpenSSL spelling (`-in`, `-out`, `-inkey`, ...),
/// before clap misreads it.
fn openssl_spelling() -> Option<String> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    args.iter()
        .take_while(|a| *a != "--")
        .filter_map(|a| a.to_str())
        .find_map(|a| {
            OPENSSL_SPELLINGS
                .iter()
                .find(|(theirs, _)| *theirs == a)
                .map(|(theirs, ours)| {
                    format!(
                        "{theirs} is OpenSSL's spelling; did you mean {ours}? (see {})",
                        help_hint()
                    )
                })
        })
}

/// `rsatool SUBCOMMAND --help` if the command line names a subcommand, else `rsatool --help`.
fn help_hint() -> String {
    let cmd = <Cli as clap::CommandFactory>::command();
    std::env::args()
        .nth(1)
        .and_then(|name| {
            cmd.find_subcommand(&name)
                .map(|sub| format!("rsatool {} --help", sub.get_name()))
        })
        .unwrap_or_else(|| "rsatool --help".to_owned())
}

/// Clap's error text up to its first blank line (the usage block follows it), folded into
/// one line, without the `error: ` prefix, with a pointer to `--help`.
fn one_line(text: &str) -> String {
    let parts: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let joined = parts.join(" ");
    let msg = joined.strip_prefix("error: ").unwrap_or(&joined);
    if msg.contains("--help") {
        msg.to_owned()
    } else {
        format!("{msg} (see {})", help_hint())
    }
}

/// A bug must still end as one line on stderr and exit 2, not a panic message and backtrace.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".to_owned());
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!(
            "rsatool: internal error{place}: {}",
            what.replace('\n', " ")
        );
        std::process::exit(2);
    }));
}
