//! The command line (see the binary's documentation for what each option does).

use std::time::Duration;

use rustls::SignatureScheme;

use super::setup::Provider;

/// What the command line asked for.
pub struct Args {
    /// `--seconds`: each window's length.
    pub window: Duration,
    /// `--rounds`: windows per server (and thread count).
    pub rounds: usize,
    /// `--bits`, for setting (a).
    pub bits_a: Vec<usize>,
    /// `--bits`, for settings (b) and (c).
    pub bits_bc: Vec<usize>,
    /// `--only`: which of (a), (b), (c) run.
    pub a: bool,
    /// See `a`.
    pub b: bool,
    /// See `a`.
    pub c: bool,
    /// `--threads`: server thread counts of (b).
    pub threads: Vec<usize>,
    /// `--clients`: client threads of (b).
    pub clients: usize,
    /// `--tasks`: client tasks of (c).
    pub tasks: usize,
    /// `--servers`: the server providers of every setting.
    pub providers: Vec<Provider>,
    /// `--scheme`: the one signature scheme the client offers.
    pub scheme: SignatureScheme,
    /// Not `--no-adx-row`: setting (a) once more in a child process without IFMA.
    pub adx_row: bool,
    /// The hidden `--adx-child`: this process is that child (prints only its table).
    pub adx_child: bool,
}

/// The hidden flag of the child that runs setting (a) without IFMA.
pub const ADX_CHILD: &str = "--adx-child";

const USAGE: &str = "usage: handshakes [--seconds S] [--rounds R] [--bits 2048,3072] \
     [--only a,b,c] [--servers aws-lc-rs,ring,ours,ours-coalescing] [--threads 1,2,...] \
     [--clients N] [--tasks N] \
     [--scheme rsa_pss_sha256|rsa_pss_sha384|rsa_pss_sha512] [--no-adx-row] [--fixtures DIR]";

fn bad(what: &str) -> ! {
    eprintln!("handshakes: {what}\n{USAGE}");
    std::process::exit(2)
}

/// A comma-separated list of positive counts.
fn counts(value: Option<String>, flag: &str) -> Vec<usize> {
    let list: Option<Vec<usize>> = value.and_then(|v| {
        v.split(',')
            .map(|x| x.trim().parse::<usize>().ok().filter(|&n| n > 0))
            .collect()
    });
    match list {
        Some(list) if !list.is_empty() => list,
        _ => bad(&format!(
            "{flag} needs a comma-separated list of positive counts"
        )),
    }
}

/// The server thread counts of (b) by default: 1, 2, every core, four times every core.
pub fn default_threads() -> Vec<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut v = vec![1, 2, cores, 4 * cores];
    v.sort_unstable();
    v.dedup();
    v
}

/// The arguments; exits 0 after `--help`, 2 with the usage on a bad one.
pub fn parse() -> Args {
    let mut window = Duration::from_secs(1);
    let mut rounds = 3;
    let mut bits: Option<Vec<usize>> = None;
    let mut only: Option<String> = None;
    let mut threads = default_threads();
    let mut clients = None;
    let mut tasks = 64;
    let mut scheme = SignatureScheme::RSA_PSS_SHA256;
    let mut providers = Provider::ALL.to_vec();
    let mut adx_row = true;
    let mut adx_child = false;
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--seconds" => {
                window = it
                    .next()
                    .and_then(|v| v.parse::<f64>().ok())
                    .filter(|&t| t > 0.0 && t < 1e5)
                    .map(Duration::from_secs_f64)
                    .unwrap_or_else(|| bad("--seconds needs a positive number"));
            }
            "--rounds" => rounds = counts(it.next(), "--rounds")[0],
            "--bits" => {
                let list = counts(it.next(), "--bits");
                if list.iter().any(|b| ![2048, 3072, 4096].contains(b)) {
                    bad("--bits: the fixtures are of 2048, 3072 and 4096 bits");
                }
                bits = Some(list);
            }
            "--only" => only = it.next(),
            "--servers" => {
                let list: Option<Vec<Provider>> = it
                    .next()
                    .and_then(|v| v.split(',').map(|x| Provider::parse(x.trim())).collect());
                providers = match list {
                    Some(list) if !list.is_empty() => list,
                    _ => bad(
                        "--servers takes aws-lc-rs, ring, ours, ours-coalescing, comma-separated",
                    ),
                };
            }
            "--threads" => threads = counts(it.next(), "--threads"),
            "--clients" => clients = Some(counts(it.next(), "--clients")[0]),
            "--tasks" => tasks = counts(it.next(), "--tasks")[0],
            "--scheme" => {
                scheme = match it.next().as_deref() {
                    Some("rsa_pss_sha256") => SignatureScheme::RSA_PSS_SHA256,
                    Some("rsa_pss_sha384") => SignatureScheme::RSA_PSS_SHA384,
                    Some("rsa_pss_sha512") => SignatureScheme::RSA_PSS_SHA512,
                    _ => bad("--scheme: one of TLS 1.3's RSA schemes"),
                }
            }
            "--no-adx-row" => adx_row = false,
            "--fixtures" => match it.next() {
                Some(dir) => {
                    let _ = super::setup::FIXTURES.set(dir);
                }
                None => bad("--fixtures needs a folder"),
            },
            ADX_CHILD => adx_child = true,
            "-h" | "--help" => {
                println!("{USAGE}\n\nSee the documentation of benches/src/bin/handshakes.rs.");
                std::process::exit(0);
            }
            other => bad(&format!("unknown argument {other}")),
        }
    }
    let (mut a, mut b, mut c) = (true, true, true);
    if let Some(only) = only {
        (a, b, c) = (false, false, false);
        for s in only.split(',') {
            match s.trim() {
                "a" => a = true,
                "b" => b = true,
                "c" => c = true,
                _ => bad("--only takes a, b, c or a comma-separated list of them"),
            }
        }
    }
    let max_threads = threads.iter().copied().max().unwrap_or(1);
    Args {
        window,
        rounds,
        bits_a: bits.clone().unwrap_or_else(|| vec![2048, 3072]),
        bits_bc: bits.unwrap_or_else(|| vec![2048]),
        a,
        b,
        c,
        threads,
        clients: clients.unwrap_or(2 * max_threads),
        tasks,
        providers,
        scheme,
        adx_row,
        adx_child,
    }
}
