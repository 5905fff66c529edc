//! A short side-by-side run of ours against the peers, for the ratio tables of `BENCHMARKS.md`.
//!
//! ```text
//! cargo run --release -p benches --features peers --bin compare [-- --time SECONDS]
//!     [--primes N] [--keys N] [--keygen-cap SECONDS] [--batch-items N]
//!     [--rsa-only | --powm-only | --batch-only | --threads-only] [--no-write]
//! ```
//!
//! For each operation and size it times every implementation with its own loop (batches of about
//! 1 ms, in rounds that interleave the implementations, for `--time` seconds each, default 0.4;
//! the fastest batch counts), so the ratios come from one run under the same load. It prints the tables, writes them
//! between `<!-- compare:begin -->` and `<!-- compare:end -->` in `BENCHMARKS.md`, and writes
//! the figures as JSON to `benches/results/compare.json`, and draws log-log SVG charts of time
//! against size (`benches/results/powm.svg`, `mulsqr.svg`, `rsa.svg`) with each curve's fitted
//! growth exponent in the legend. `--no-write` only prints; `--rsa-only` runs only the RSA rows
//! (batches included) and key generation, not the threads-on-one-key rows (`--threads-only`), `--powm-only` only the exponentiation table,
//! `--batch-only` only the batch rows and their targets; all three only print.
//!
//! Before timing, every implementation's result is checked against num-bigint (the kernels
//! against GMP's); a disagreement stops the run without figures.
//!
//! Implementations: `ours-<backend>` (every `bignum::mpn` back end for the kernels, the run-time
//! choice elsewhere; `-scratch`: `mul_with_scratch`/`sqr_with_scratch`, no allocation), division
//! `ours-vartime` (`mpn::div_qr_vartime`, 2n by n limbs) against `mpn_tdiv_qr`, `ours-ct` (`Modulus::pow`) and `ours-vartime` (`Modulus::pow_vartime`);
//! `gmp` and `gmp-sec` (`mpz_powm`, `mpz_powm_sec`) from the GMP built for this CPU by
//! `benches/gmp/build-tuned.sh`; `num-bigint` (`BigUint::modpow`); `crypto-bigint-boxed` and
//! `crypto-bigint-fixed` (`BoxedMontyForm::pow`, `FixedMontyForm::pow`, both constant-time);
//! `openssl-ct` (OpenSSL's `BN_mod_exp_mont_consttime`, Montgomery context made once).
//! Prime generation (`--primes N` per size, default 51, at 512 and 1024 bits) against OpenSSL's
//! `BN_generate_prime_ex`, as medians: see the `primegen` module. RSA rows (raw public and CRT
//! private, PKCS #1 v1.5 and PSS signatures, OAEP) against OpenSSL 3, AWS-LC, RustCrypto `rsa`
//! 0.9 and 0.10 and ring on the same key: the `rsa` module; RSA key generation (`--keys N` at
//! 1024 and 2048 bits, default 21; N/4 and N/8, at least 3, at 3072 and 4096, where an
//! implementation stops after `--keygen-cap` seconds, default 20), as medians: the `keygen`
//! module; batch signatures per second (ours single, ours batched on one thread and on all,
//! OpenSSL, AWS-LC; `--batch-items N` per batch, default 4): the `batch` module; then the
//! speed targets (RSA at 2048 bits, with AVX-512 IFMA, and the batch's) and the 2003 Cryptokit
//! figures next to the measured ones; then the threads on one key (`--threads-only` alone): ours
//! on N threads sharing a key, on a coalescing key, in N processes, through `Batch` on N
//! threads, OpenSSL and AWS-LC on N threads sharing their key, and their targets: the `scaling`
//! module.
//!
//! The files of `compare/`, one job each: `args` (the command line), `harness` (the timing
//! loop and the check against num-bigint), `arith` (the kernel, mul/sqr, division and powm
//! cases), `openssl_ct` (OpenSSL's constant-time exponentiation through its C ABI), `rsa`,
//! `keygen`, `primegen` and `batch` (the RSA rows and their targets), `machine` (CPU and TSC
//! rate), `tables`, `report`, `json` and `charts` (the outputs), `splice` (the generated
//! section of `BENCHMARKS.md`). This file runs them in order.

use std::path::Path;
use std::time::Instant;

#[path = "compare/args.rs"]
mod args;
#[path = "compare/arith.rs"]
mod arith;
#[path = "compare/batch.rs"]
mod batch;
#[path = "compare/charts.rs"]
mod charts;
#[path = "compare/harness.rs"]
mod harness;
#[path = "compare/json.rs"]
mod json;
#[path = "compare/keygen.rs"]
mod keygen;
#[path = "compare/machine.rs"]
mod machine;
#[path = "compare/openssl_ct.rs"]
mod openssl_ct;
#[path = "compare/primegen.rs"]
mod primegen;
#[path = "compare/report.rs"]
mod report;
#[path = "compare/rsa.rs"]
mod rsa_rows;
#[path = "compare/scaling.rs"]
mod scaling;
#[path = "compare/splice.rs"]
mod splice;
#[path = "compare/tables.rs"]
mod tables;

use args::Args;
use benches::gmp;
use bignum::mpn;
use harness::{Measured, measure};
use serde_json::Value;
use tables::tables;

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.first().map(String::as_str) == Some(scaling::WORKER) {
        scaling::worker(&argv[1..]);
        return;
    }
    let Some(args) = args::parse() else { return };
    let machine = machine::machine();
    let tsc = machine::tsc_hz();
    eprintln!(
        "compare: GMP {} --host={}, back ends {:?}, {:.2} s per implementation and size",
        gmp::version(),
        gmp::configure_host(),
        mpn::all_available()
            .iter()
            .map(|k| k.name)
            .collect::<Vec<_>>(),
        args.budget.as_secs_f64()
    );
    let started = Instant::now();
    if args.powm_only {
        powm_only(&args, tsc, started);
    } else if args.threads_only {
        let rows = scaling::run(&[], args.budget);
        println!("{}", scaling::markdown(&rows));
        eprintln!(
            "compare: {:.0} s; --threads-only prints only",
            started.elapsed().as_secs_f64()
        );
    } else if args.batch_only {
        batch_only(&args, tsc, started);
    } else {
        all(&args, &machine, tsc, started);
    }
}

/// `--powm-only`: the exponentiation table, printed.
fn powm_only(args: &Args, tsc: f64, started: Instant) {
    let results: Vec<Measured> = arith::powm_cases()
        .into_iter()
        .map(|case| {
            eprintln!("compare: {} {} ...", case.op, case.size);
            measure(case, args.budget)
        })
        .collect();
    println!("{}", tables(&results, tsc, args.batch_items));
    eprintln!(
        "compare: {:.0} s; --powm-only prints only",
        started.elapsed().as_secs_f64()
    );
}

/// `--batch-only`: the batch rows and their targets, printed.
fn batch_only(args: &Args, tsc: f64, started: Instant) {
    let results: Vec<Measured> = batch::cases(&[], args.batch_items)
        .into_iter()
        .map(|case| {
            eprintln!("compare: {} {} ...", case.op, case.size);
            measure(case, args.budget)
        })
        .collect();
    println!(
        "{}{}",
        tables(&results, tsc, args.batch_items),
        batch::targets(&results)
    );
    eprintln!(
        "compare: {:.0} s; --batch-only prints only",
        started.elapsed().as_secs_f64()
    );
}

/// Every row (or with `--rsa-only` the RSA rows and key generation, without the scaling rows
/// of `--threads-only`), printed, then written unless `--no-write` or `--rsa-only`.
fn all(args: &Args, machine: &Value, tsc: f64, started: Instant) {
    let mut cases = Vec::new();
    if !args.rsa_only {
        cases.extend(arith::kernel_cases("addmul_1"));
        cases.extend(arith::kernel_cases("submul_1"));
        cases.extend(arith::mul_sqr_cases("mul"));
        cases.extend(arith::mul_sqr_cases("sqr"));
        cases.extend(arith::div_cases());
        cases.extend(arith::powm_cases());
    }
    let (rsa_cases, rsa_keys) = rsa_rows::cases();
    cases.extend(rsa_cases);
    cases.extend(batch::cases(&rsa_keys, args.batch_items));
    let mut results = Vec::new();
    for case in cases {
        eprintln!("compare: {} {} ...", case.op, case.size);
        results.push(measure(case, args.budget));
    }
    let prime_rows = if args.rsa_only {
        Vec::new()
    } else {
        primegen::run(&[512, 1024], args.primes)
    };
    // Fewer keys at the large sizes, where one key takes up to seconds.
    let key_sizes = [
        (1024, args.keys),
        (2048, args.keys),
        (3072, (args.keys >> 2).max(3)),
        (4096, (args.keys >> 3).max(3)),
    ];
    let keygen_rows = keygen::run(&key_sizes, args.keygen_cap);
    let plain = rsa_rows::private_plain_1024(&rsa_keys);
    let mut text = report::report(&results, machine, tsc, args.budget, args.batch_items);
    if !prime_rows.is_empty() {
        text.push_str(&primegen::markdown(&prime_rows));
    }
    text.push_str(&keygen::markdown(&keygen_rows, args.keygen_cap));
    text.push_str(&rsa_rows::targets(&results, &keygen_rows, plain));
    text.push_str(&batch::targets(&results));
    if !args.rsa_only {
        text.push_str(&scaling::markdown(&scaling::run(&rsa_keys, args.budget)));
    }
    println!("{text}");
    eprintln!("compare: {:.0} s", started.elapsed().as_secs_f64());
    if args.write && args.rsa_only {
        eprintln!("compare: --rsa-only prints only; run without it to write BENCHMARKS.md");
    } else if args.write {
        write(
            &results,
            machine,
            tsc,
            args.budget,
            &mut text,
            &prime_rows,
            &keygen_rows,
        );
    }
}

/// Writes `benches/results/compare.json`, the charts beside it, and the report (with the
/// charts' Markdown) into `BENCHMARKS.md`; exits 2 on the first failure.
fn write(
    results: &[Measured],
    machine: &Value,
    tsc: f64,
    budget: std::time::Duration,
    text: &mut String,
    prime_rows: &[primegen::Row],
    keygen_rows: &[keygen::Row],
) {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.parent().unwrap_or(manifest);
    let mut json = json::json_report(results, machine, tsc, budget);
    json["primegen"] = primegen::json(prime_rows);
    json["rsa_keygen"] = keygen::json(keygen_rows);
    json["rsa_batch"] = batch::json(results);
    let dir = manifest.join("results");
    let out = dir.join("compare.json");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("compare: {}: {e}", dir.display());
        std::process::exit(2);
    }
    match charts::charts(results, &dir, gmp::configure_host()) {
        Ok(md) => text.push_str(&md),
        Err(e) => {
            eprintln!("compare: {e}");
            std::process::exit(2);
        }
    }
    let body = serde_json::to_string_pretty(&json).expect("JSON of plain values");
    if let Err(e) = std::fs::write(&out, body + "\n") {
        eprintln!("compare: {}: {e}", out.display());
        std::process::exit(2);
    }
    if let Err(e) = splice::splice(&root.join("BENCHMARKS.md"), text) {
        eprintln!("compare: {e}");
        std::process::exit(2);
    }
    eprintln!(
        "compare: wrote {}, the charts beside it, and BENCHMARKS.md",
        out.display()
    );
}
