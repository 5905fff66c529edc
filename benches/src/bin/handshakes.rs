//! TLS handshakes per second, side by side: rustls servers on aws-lc-rs's provider, on ring's,
//! and on this workspace's key provider (`rsatool_rustls`, plain and coalescing), the client
//! on aws-lc-rs in every row, so that only the server's provider changes.
//!
//! ```text
//! cargo run --release -p benches --features tls --bin handshakes -- [--seconds S] [--rounds R]
//!     [--bits 2048,3072] [--only a,b,c] [--servers aws-lc-rs,ring,ours,ours-coalescing]
//!     [--threads 1,2,...] [--clients N] [--tasks N]
//!     [--scheme rsa_pss_sha256|rsa_pss_sha384|rsa_pss_sha512] [--no-adx-row] [--fixtures DIR]
//! ```
//!
//! Every handshake is a full TLS 1.3 handshake (no session cache, no tickets, resumption off
//! on the client) with X25519, against an RSA certificate of `tls/tests/data` (made by
//! openssl: `server-BITS.crt.pem` and its key; `--fixtures DIR` reads them from another
//! folder, for a binary run away from its checkout). The client offers one signature scheme
//! (`--scheme`, rsa_pss_rsae_sha256 by default), and every handshake is checked: complete,
//! TLS 1.3, full, X25519, one server signature of that scheme verified by webpki on aws-lc-rs
//! against the fixtures' CA, and in (b) and (c) a byte each way and the server's close_notify.
//! A failed check stops the run without figures.
//!
//! Server rows: `aws-lc-rs` (`rustls::crypto::aws_lc_rs::default_provider()`), `ring`,
//! `ours` (`rsatool_rustls::provider(aws_lc_rs::default_provider(), RsaKeyProvider::new())`)
//! and `ours-coalescing` (`RsaKeyProvider::new().coalescing()`); each provider with X25519 its
//! only key exchange group. `--servers` keeps some of them (for a profile of one, say).
//!
//! The settings (`--only`, default all three):
//!
//! - (a) one thread, in memory: the server's CPU time per handshake (the thread's CPU clock
//!   around the server connection's calls alone), as handshakes per second of server time, at
//!   each of `--bits` (default 2048 and 3072). With AVX-512 IFMA on the CPU
//!   and unless `--no-adx-row`, the same table again from a child process of this binary run
//!   with `BIGNUM_BACKEND=adx` (ours without IFMA) and `OPENSSL_ia32cap=":~0x200000"` (AWS-LC
//!   without IFMA): both read at start-up, hence the second process. The `memory` module.
//! - (b) blocking loopback TCP: a `std::net` server of N threads accepting on one listener,
//!   N = `--threads` (default 1, 2, every core, four times every core), under `--clients`
//!   client threads of this process (default twice the largest N); beside the rates, each
//!   side's CPU per handshake and the cores the process kept busy. The `blocking` module.
//! - (c) tokio-rustls: the server on a tokio runtime with the default workers, `--tasks` client
//!   tasks (default 64) on a second runtime; beside the four rows, three whose signatures run
//!   inside `tokio::task::block_in_place` (aws-lc-rs, ours, ours-coalescing); beside the
//!   rates, the process's CPU per handshake and the cores it kept busy. The `on_tokio` module.
//!
//! (b) and (c) run at each of `--bits` when it is given, else at 2048 bits. Each window lasts
//! `--seconds` (default 1; (b) and (c) add a warm-up of a fifth of it), `--rounds` windows
//! (default 3) per server, the servers alternated round by round. The output is Markdown: a
//! header with the date, the CPU, the commit and this command, then a table per setting and
//! size, each figure beside its ratio to aws-lc-rs's in the same table.
//!
//! The files of `handshakes/`: `args` (the command line), `setup` (fixtures, configurations,
//! the check of each handshake), `memory`, `blocking`, `on_tokio` (the settings), `stats`
//! (best and median of the windows, the CPU clocks), `report` (the header and tables).

use std::sync::Arc;
use std::time::Instant;

#[path = "handshakes/args.rs"]
mod args;
#[path = "handshakes/blocking.rs"]
mod blocking;
#[path = "handshakes/memory.rs"]
mod memory;
#[path = "handshakes/on_tokio.rs"]
mod on_tokio;
#[path = "handshakes/report.rs"]
mod report;
#[path = "handshakes/setup.rs"]
mod setup;
#[path = "handshakes/stats.rs"]
mod stats;

use args::Args;
use setup::{Client, Provider, Server};

fn main() {
    let args = args::parse();
    if let Err(e) = run(&args) {
        eprintln!("handshakes: {e}; no figures");
        std::process::exit(1);
    }
}

/// Our back end: `ifma`, or the kernel table the exponentiations run on.
fn backend() -> &'static str {
    bignum::backend::current()
}

/// Our back end, with the 52-bit engine's shape for the CRT halves of an RSA-`bits` key where
/// it runs them (asked after the first signature, which calibrates it where the CPU does).
fn backend_at(bits: usize) -> String {
    match bignum::backend::shape(bits >> 1).filter(|_| backend() == "ifma") {
        Some(shape) => format!("ifma, halves' shape {shape}"),
        None => backend().to_owned(),
    }
}

/// The servers of `--servers` at `bits`.
fn servers(args: &Args, bits: usize) -> Result<Vec<Server>, String> {
    args.providers
        .iter()
        .map(|&p| setup::server(p, bits))
        .collect()
}

fn run(args: &Args) -> Result<(), String> {
    let started = Instant::now();
    let client = Arc::new(Client::new(args.scheme)?);
    let windows = format!("{} windows of {} s", args.rounds, args.window.as_secs_f64());
    if args.adx_child {
        return adx_child(args, &client, &windows);
    }
    println!("{}", report::header());
    if args.a {
        for &bits in &args.bits_a {
            eprintln!("handshakes: (a) RSA-{bits} ...");
            let rows = memory::run(&servers(args, bits)?, &client, args.window, args.rounds)?;
            let path = backend_at(bits);
            println!("{}", report::memory_table(&rows, bits, "", &windows, &path));
        }
        if args.adx_row && report::has_ifma() {
            println!("{}", adx_parent(args)?);
        }
    }
    if args.b {
        for &bits in &args.bits_bc {
            let servers = servers(args, bits)?;
            memory::check_each(&servers, &client)?;
            let rows = blocking::run(
                &servers,
                &client,
                &args.threads,
                args.clients,
                args.window,
                args.rounds,
            )?;
            println!(
                "{}",
                report::blocking_table(&rows, bits, args.clients, &windows)
            );
        }
    }
    if args.c {
        for &bits in &args.bits_bc {
            eprintln!("handshakes: (c) RSA-{bits} ...");
            let mut servers = servers(args, bits)?;
            // Before the block_in_place rows, which need a runtime for a handshake.
            memory::check_each(&servers, &client)?;
            for (p, name) in [
                (Provider::AwsLc, "aws-lc-rs, block_in_place"),
                (Provider::Ours, "ours, block_in_place"),
                (Provider::OursCoalescing, "ours-coalescing, block_in_place"),
            ] {
                if args.providers.contains(&p) {
                    servers.push(setup::server_signing_in_place(p, bits, name)?);
                }
            }
            let rows = on_tokio::run(&servers, &client, args.tasks, args.window, args.rounds)?;
            println!("{}", report::tokio_table(&rows, bits, args.tasks, &windows));
        }
    }
    println!(
        "1-minute load average at the end: {}; {:.0} s in all.",
        report::load(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Setting (a) in a child process without IFMA on either side; its table.
fn adx_parent(args: &Args) -> Result<String, String> {
    eprintln!("handshakes: (a) without IFMA, in a child process ...");
    let exe = std::env::current_exe().map_err(|e| format!("this binary: {e}"))?;
    let bits: Vec<String> = args.bits_a.iter().map(usize::to_string).collect();
    let providers: Vec<&str> = args.providers.iter().map(|p| p.name()).collect();
    let scheme = match args.scheme {
        rustls::SignatureScheme::RSA_PSS_SHA384 => "rsa_pss_sha384",
        rustls::SignatureScheme::RSA_PSS_SHA512 => "rsa_pss_sha512",
        _ => "rsa_pss_sha256",
    };
    let mut child = std::process::Command::new(exe);
    if let Some(dir) = setup::FIXTURES.get() {
        child.args(["--fixtures", dir]);
    }
    let out = child
        .args(["--only", "a", "--seconds"])
        .arg(args.window.as_secs_f64().to_string())
        .args([
            "--rounds",
            &args.rounds.to_string(),
            "--bits",
            &bits.join(","),
        ])
        .args([
            "--scheme",
            scheme,
            "--servers",
            &providers.join(","),
            args::ADX_CHILD,
        ])
        .env("BIGNUM_BACKEND", "adx")
        .env("OPENSSL_ia32cap", ":~0x200000")
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("the child without IFMA: {e}"))?;
    if !out.status.success() {
        return Err("the child without IFMA failed".to_owned());
    }
    String::from_utf8(out.stdout).map_err(|e| format!("the child's output: {e}"))
}

/// The child: setting (a)'s tables alone, titled as without IFMA.
fn adx_child(args: &Args, client: &Client, windows: &str) -> Result<(), String> {
    let requested = std::env::var("BIGNUM_BACKEND").unwrap_or_default();
    let ia32cap = std::env::var("OPENSSL_ia32cap").unwrap_or_default();
    let path = backend();
    if requested != "adx" || path != "adx" {
        return Err(format!(
            "the child runs with BIGNUM_BACKEND=adx (got {requested:?}, back end {path})"
        ));
    }
    let title =
        format!(", without IFMA (`BIGNUM_BACKEND={requested} OPENSSL_ia32cap=\"{ia32cap}\"`)");
    for &bits in &args.bits_a {
        eprintln!("handshakes: (a) RSA-{bits} without IFMA ...");
        let rows = memory::run(&servers(args, bits)?, client, args.window, args.rounds)?;
        println!(
            "{}",
            report::memory_table(&rows, bits, &title, windows, path)
        );
    }
    Ok(())
}
