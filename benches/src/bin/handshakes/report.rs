//! The report: a header naming the machine, the commit and the command, then a Markdown table
//! per setting, each figure beside its ratio to aws-lc-rs's in the same run.

use std::fmt::Write as _;
use std::process::Command;

use super::blocking;
use super::memory;
use super::on_tokio;
use super::setup::AWS_LC;
use super::stats::Spread;

/// A field of `/proc/cpuinfo` (its first occurrence).
fn cpuinfo(name: &str) -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find(|l| l.split(':').next().map(str::trim) == Some(name))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_owned())
}

/// Whether the CPU has AVX-512 IFMA.
pub fn has_ifma() -> bool {
    cpuinfo("flags").is_some_and(|f| f.split_whitespace().any(|x| x == "avx512ifma"))
}

/// The 1-minute load average.
pub fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".to_owned())
}

/// A command's trimmed output, run in the current directory (the checkout the run is in, not
/// the one the binary was built in), or `?`.
fn output(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "?".to_owned())
}

/// The header: date, CPU, commit, command, load.
pub fn header() -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // `?`: no git or no repository here (a copied tree), so nothing is known to be changed.
    let status = output("git", &["status", "--porcelain", "--untracked-files=no"]);
    let dirty = if status.is_empty() || status == "?" {
        ""
    } else {
        " (with uncommitted changes)"
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = if args.is_empty() {
        String::new()
    } else {
        format!(" -- {}", args.join(" "))
    };
    format!(
        "## TLS handshakes per second (rustls), {date}\n\n\
         - CPU: {cpu} (family {family} model {model}), {cores} logical CPUs, AVX-512 IFMA: {ifma}\n\
         - commit: `{commit}`{dirty}\n\
         - command: `cargo run --release -p benches --features tls --bin handshakes{command}`\n\
         - 1-minute load average at the start: {load}\n\n\
         Full TLS 1.3 handshakes (no resumption), X25519, the client on rustls with aws-lc-rs \
         in every row, offering one signature scheme (`--scheme`, rsa_pss_rsae_sha256 unless \
         told otherwise); \
         servers: rustls on aws-lc-rs's provider, on ring's, and on `rsatool_rustls::provider` \
         over aws-lc-rs's (`ours`: `RsaKeyProvider::new()`, `ours-coalescing`: \
         `.coalescing()`). Ratios: the row's handshakes per second over aws-lc-rs's in the same \
         table (above 1: faster than aws-lc-rs).\n",
        date = output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
        cpu = cpuinfo("model name").unwrap_or_else(|| "?".to_owned()),
        family = cpuinfo("cpu family").unwrap_or_default(),
        model = cpuinfo("model").unwrap_or_default(),
        ifma = if has_ifma() { "yes" } else { "no" },
        commit = output("git", &["rev-parse", "--short", "HEAD"]),
        load = load(),
    )
}

fn ratio(x: f64, reference: Option<f64>) -> String {
    match reference {
        Some(r) if r > 0.0 => format!("{:.2}", x / r),
        _ => "-".to_owned(),
    }
}

fn rate(s: &Spread) -> String {
    format!("{:.0} ({:.0})", s.best, s.median)
}

/// A table of setting (a) or (c) below `title`: a row per server with its rate (best and
/// median) and the rate's ratios to aws-lc-rs's (best to best, median to median), then its
/// cells of `more`, the columns named (with their Markdown alignment) in `heads`.
fn rate_table(title: &str, heads: &[(&str, &str)], rows: &[(&str, Spread, String)]) -> String {
    let mut s = format!(
        "{title}\n\n\
         | server | handshakes/s, best (median) | / aws-lc-rs, best | / aws-lc-rs, median |"
    );
    for (head, _) in heads {
        let _ = write!(s, " {head} |");
    }
    s.push_str("\n| --- | ---: | ---: | ---: |");
    for (_, align) in heads {
        let _ = write!(s, " {align} |");
    }
    s.push('\n');
    let reference = rows
        .iter()
        .find(|(name, ..)| *name == AWS_LC)
        .map(|(_, rate, _)| *rate);
    for (name, spread, more) in rows {
        let _ = writeln!(
            s,
            "| {name} | {} | {} | {} | {more} |",
            rate(spread),
            ratio(spread.best, reference.map(|x| x.best)),
            ratio(spread.median, reference.map(|x| x.median)),
        );
    }
    s
}

/// Setting (a)'s table at `bits`.
pub fn memory_table(
    rows: &[memory::Row],
    bits: usize,
    title: &str,
    windows: &str,
    path: &str,
) -> String {
    let title = format!(
        "**(a) one thread, in memory, RSA-{bits}{title}** (handshakes per second of the \
         server's CPU time: the server's calls alone timed; best of {windows}, median in \
         brackets; our back end: {path})"
    );
    let heads = [
        ("server µs / handshake", "---:"),
        ("client µs / handshake", "---:"),
        ("cipher suite", "---"),
    ];
    let rows: Vec<_> = rows
        .iter()
        .map(|r| {
            let more = format!("{:.1} | {:.1} | {}", r.server_us, r.client_us, r.suite);
            (r.name, r.rate, more)
        })
        .collect();
    rate_table(&title, &heads, &rows)
}

/// Setting (b)'s tables at `bits`: the rates, then the CPU per handshake.
pub fn blocking_table(
    rows: &[blocking::Row],
    bits: usize,
    clients: usize,
    windows: &str,
) -> String {
    let Some(first) = rows.first() else {
        return String::new();
    };
    let names: Vec<&str> = first.cells.iter().map(|(n, _)| *n).collect();
    let others: Vec<&str> = names.iter().copied().filter(|n| *n != AWS_LC).collect();
    let mut s = format!(
        "**(b) blocking loopback TCP, RSA-{bits}** (handshakes per second, all server threads \
         together; {clients} client threads in the same process; best of {windows}, median in \
         brackets; ratios of the best)\n\n| server threads |"
    );
    for n in &names {
        let _ = write!(s, " {n} |");
    }
    for n in &others {
        let _ = write!(s, " {n} / aws-lc-rs |");
    }
    s.push_str(" ours-coalescing / ours |\n| ---: |");
    for _ in 0..names.len() + others.len() + 1 {
        s.push_str(" ---: |");
    }
    s.push('\n');
    for row in rows {
        let get = |name: &str| {
            row.cells
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, c)| c.rate)
        };
        let reference = get(AWS_LC).map(|r| r.best);
        let _ = write!(s, "| {} |", row.threads);
        for (_, c) in &row.cells {
            let _ = write!(s, " {} |", rate(&c.rate));
        }
        for n in &others {
            let x = get(n).map_or(0.0, |r| r.best);
            let _ = write!(s, " {} |", ratio(x, reference));
        }
        let coalescing = get("ours-coalescing").map_or(0.0, |r| r.best);
        let _ = writeln!(s, " {} |", ratio(coalescing, get("ours").map(|r| r.best)));
    }
    let _ = write!(
        s,
        "\nCPU µs per handshake in (b), server threads + client threads (their connections' \
         time on the threads' CPU clocks, kernel time included), and the cores the process \
         kept busy (medians):\n\n\
         | server threads |"
    );
    for n in &names {
        let _ = write!(s, " {n} |");
    }
    s.push_str("\n| ---: |");
    for _ in &names {
        s.push_str(" ---: |");
    }
    s.push('\n');
    for row in rows {
        let _ = write!(s, "| {} |", row.threads);
        for (_, c) in &row.cells {
            let _ = write!(
                s,
                " {:.0} + {:.0}, {:.2} cores |",
                c.server_us, c.client_us, c.cores
            );
        }
        s.push('\n');
    }
    s
}

/// Setting (c)'s table at `bits`.
pub fn tokio_table(rows: &[on_tokio::Row], bits: usize, tasks: usize, windows: &str) -> String {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let title = format!(
        "**(c) tokio-rustls, RSA-{bits}** (handshakes per second; the server on a runtime of \
         {workers} workers, tokio's default; {tasks} client tasks on a second runtime in the \
         same process; best of {windows}, median in brackets; `block_in_place`: the server's \
         signature inside `tokio::task::block_in_place`)"
    );
    let heads = [
        ("process CPU µs / handshake", "---:"),
        ("cores busy", "---:"),
    ];
    let rows: Vec<_> = rows
        .iter()
        .map(|r| (r.name, r.rate, format!("{:.0} | {:.2}", r.cpu_us, r.cores)))
        .collect();
    rate_table(&title, &heads, &rows)
}
