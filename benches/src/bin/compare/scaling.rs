//! Threads on one key: throughput of PKCS #1 v1.5 signatures (SHA-256) and OAEP
//! decryptions (SHA-256) at 2048, 3072 and 4096 bits when N threads share one key, for N = 1,
//! 2, every core and four times every core.
//!
//! Implementations, each on the same key:
//!
//! - `ours`: N threads calling `RsaPrivateKey::sign` / `decrypt` on one `Arc`'d key;
//! - `ours-coalesced`: the same on `RsaPrivateKey::coalescing()` (concurrent calls run four at
//!   a time on the eight IFMA lanes where more threads call than there are cores);
//! - `ours-processes`: N processes of this binary, each with its own copy of the key, one
//!   thread each: the ceiling that threads sharing a key should reach;
//! - `ours-batch`: one caller of `rsatool_rsa::Batch::threads(N)`, four items per thread a
//!   call (one group of eight lanes per thread; sign only);
//! - `openssl`: N threads sharing one `PKey` (the `openssl` crate on the system's OpenSSL 3);
//! - `aws-lc`: N threads sharing one `aws_lc_rs::rsa::KeyPair` (sign) or
//!   `OaepPrivateDecryptingKey` (decrypt).
//!
//! Each is timed over [`ROUNDS`] windows of `--time` seconds (at least 0.5), the
//! implementations in turn, and the best window counts. In a window every thread (or
//! process) runs one operation before the start, waits at a barrier (processes: for a start
//! time on the wall clock), then runs operations until a stop flag (processes: the window's
//! end), each call timed. Throughput is all operations over the longest thread's time from the
//! start to the end of its last operation, so a thread that lags is counted against the
//! implementation, and a fixed count of operations per thread (which waits for the slowest)
//! is not what is measured. The median call is the median of every call of every thread.
//!
//! Before anything is timed, every implementation's output is checked: signatures equal ours
//! (PKCS #1 v1.5 is deterministic), decryptions give the message back.

use std::fmt::Write as _;
use std::hint::black_box;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use benches::rsa_peers::{self, AWS_LC, Keys, MESSAGE, OPENSSL, OURS, OURS_PKCS1, ours_oaep};
use bignum::backend::pow_path;
use openssl::hash::MessageDigest;
use openssl::pkey::{PKey, Private};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use rsatool_rsa::{Batch, RsaPrivateKey};

use super::primegen::median;
use super::rsa_rows::fail;

/// Key sizes of the scaling rows.
pub const BITS: [usize; 3] = [2048, 3072, 4096];
/// Ours, on a coalescing key.
pub const COALESCED: &str = "ours-coalesced";
/// Ours, one process per thread.
pub const PROCESSES: &str = "ours-processes";
/// Ours through `Batch::threads(N)`.
pub const BATCH: &str = "ours-batch";
/// The hidden first argument of a worker process.
pub const WORKER: &str = "--scaling-worker";
/// Items per thread in one batch call.
const BATCH_ITEMS: usize = 4;
/// Windows per implementation and thread count; the best counts.
const ROUNDS: usize = 3;

/// The two operations.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// PKCS #1 v1.5 signature with SHA-256 over [`MESSAGE`].
    Sign,
    /// OAEP decryption (SHA-256, MGF1-SHA-256, empty label) of a ciphertext of [`MESSAGE`].
    Decrypt,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Sign => "sign",
            Op::Decrypt => "decrypt",
        }
    }

    fn parse(s: &str) -> Option<Op> {
        [Op::Sign, Op::Decrypt].into_iter().find(|o| o.name() == s)
    }
}

/// One window's figures.
#[derive(Clone, Copy)]
pub struct Rate {
    /// Operations per second, all threads together.
    pub per_second: f64,
    /// The median call, seconds.
    pub median_call: f64,
}

/// One row: an operation, a size, a thread count, and each implementation's rate.
pub struct Row {
    op: Op,
    bits: usize,
    threads: usize,
    rates: Vec<(&'static str, Rate)>,
}

impl Row {
    fn rate(&self, name: &str) -> Option<Rate> {
        self.rates.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
    }
}

/// Makes one thread's work: called once per thread with the thread's index.
type Maker<'a> = dyn Fn(usize) -> Box<dyn FnMut() + Send + 'a> + Sync + 'a;

/// The thread counts: 1, 2, every core, four times every core (each once).
pub fn thread_counts() -> Vec<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut counts = vec![1, 2, cores, 4 * cores];
    counts.sort_unstable();
    counts.dedup();
    counts
}

/// `threads` threads, each running its work from `make` over one window of `time`; `per_call`
/// operations per call.
fn window(threads: usize, time: Duration, per_call: usize, make: &Maker<'_>) -> Rate {
    let barrier = Barrier::new(threads + 1);
    let stop = AtomicBool::new(false);
    let (calls, longest) = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                let mut work = make(i);
                let (barrier, stop) = (&barrier, &stop);
                s.spawn(move || {
                    work();
                    barrier.wait();
                    let start = Instant::now();
                    let mut calls = Vec::new();
                    while !stop.load(Relaxed) {
                        let t = Instant::now();
                        work();
                        calls.push(t.elapsed().as_secs_f64());
                    }
                    (calls, start.elapsed().as_secs_f64())
                })
            })
            .collect();
        barrier.wait();
        std::thread::sleep(time);
        stop.store(true, Relaxed);
        let mut all = Vec::new();
        let mut longest = 0f64;
        for h in handles {
            let (calls, took) = h
                .join()
                .unwrap_or_else(|_| fail("a scaling thread panicked".to_owned()));
            all.extend(calls);
            longest = longest.max(took);
        }
        (all, longest)
    });
    rate(calls, longest, per_call)
}

/// The rate of `calls` (seconds each) done in `seconds`, `per_call` operations a call.
fn rate(calls: Vec<f64>, seconds: f64, per_call: usize) -> Rate {
    let median_call = if calls.is_empty() {
        0.0
    } else {
        median(&calls)
    };
    // Counts: exact in f64.
    #[allow(clippy::cast_precision_loss)]
    let per_second = (calls.len() * per_call) as f64 / seconds.max(1e-9);
    Rate {
        per_second,
        median_call,
    }
}

/// The ciphertext the decryption rows decrypt (OpenSSL's, so ours is not checked against
/// itself).
fn ciphertext(keys: &Keys, op: Op) -> Vec<u8> {
    match op {
        Op::Sign => Vec::new(),
        Op::Decrypt => keys.openssl_oaep_ciphertext(),
    }
}

/// Ours, one call: a signature or a decryption on `key`.
fn ours_call(key: &RsaPrivateKey, op: Op, c: &[u8], rng: &mut ChaCha20Rng) -> Vec<u8> {
    match op {
        Op::Sign => key.sign(rng, &OURS_PKCS1, MESSAGE),
        Op::Decrypt => key.decrypt(rng, &ours_oaep(), c),
    }
    .unwrap_or_else(|e| fail(format!("ours {}: {e}", op.name())))
}

/// OpenSSL, one call.
fn openssl_call(pkey: &PKey<Private>, op: Op, c: &[u8]) -> Vec<u8> {
    match op {
        Op::Sign => {
            let mut signer =
                openssl::sign::Signer::new(MessageDigest::sha256(), pkey).expect("signer");
            signer.sign_oneshot_to_vec(MESSAGE).expect("sign")
        }
        Op::Decrypt => rsa_peers::openssl_oaep_decrypt_with(pkey, c)
            .unwrap_or_else(|| fail("OpenSSL rejects the OAEP ciphertext".to_owned())),
    }
}

/// AWS-LC's key for `op`, shared by the threads.
enum AwsKey {
    Sign(aws_lc_rs::rsa::KeyPair),
    Decrypt(aws_lc_rs::rsa::OaepPrivateDecryptingKey),
}

impl AwsKey {
    fn new(keys: &Keys, op: Op) -> Option<AwsKey> {
        match op {
            Op::Sign => aws_lc_rs::rsa::KeyPair::from_pkcs8(&keys.pkcs8)
                .ok()
                .map(AwsKey::Sign),
            Op::Decrypt => aws_lc_rs::rsa::PrivateDecryptingKey::from_pkcs8(&keys.pkcs8)
                .ok()
                .and_then(|k| aws_lc_rs::rsa::OaepPrivateDecryptingKey::new(k).ok())
                .map(AwsKey::Decrypt),
        }
    }

    fn call(&self, k: usize, c: &[u8], rng: &aws_lc_rs::rand::SystemRandom) -> Vec<u8> {
        let mut out = vec![0u8; k];
        match self {
            AwsKey::Sign(key) => {
                key.sign(
                    &aws_lc_rs::signature::RSA_PKCS1_SHA256,
                    rng,
                    MESSAGE,
                    &mut out,
                )
                .expect("sign");
            }
            AwsKey::Decrypt(key) => {
                let n = key
                    .decrypt(&aws_lc_rs::rsa::OAEP_SHA256_MGF1SHA256, c, &mut out, None)
                    .expect("decrypt")
                    .len();
                out.truncate(n);
            }
        }
        out
    }
}

/// Every row of one size and operation, checked first.
fn rows_of(keys: &Keys, op: Op, time: Duration) -> Vec<Row> {
    let bits = keys.bits;
    let c = ciphertext(keys, op);
    let want = match op {
        Op::Sign => ours_call(&keys.ours, op, &c, &mut rsa_peers::rng(1)),
        Op::Decrypt => MESSAGE.to_vec(),
    };
    let plain = Arc::clone(&keys.ours);
    let coalesced = Arc::new((*keys.ours).clone().coalescing());
    let pkey = PKey::private_key_from_pkcs8(&keys.pkcs8).expect("OpenSSL reads our PKCS #8");
    let aws = AwsKey::new(keys, op);
    let aws_rng = aws_lc_rs::rand::SystemRandom::new();
    let check = |name: &str, got: Vec<u8>| {
        if got != want {
            fail(format!("scaling {} at {bits}: {name} disagrees", op.name()));
        }
    };
    check(OURS, ours_call(&plain, op, &c, &mut rsa_peers::rng(2)));
    check(
        COALESCED,
        ours_call(&coalesced, op, &c, &mut rsa_peers::rng(3)),
    );
    check(OPENSSL, openssl_call(&pkey, op, &c));
    if let Some(aws) = &aws {
        check(AWS_LC, aws.call(keys.k, &c, &aws_rng));
    }
    if op == Op::Sign {
        let sigs = Batch::new().threads(2).sign(
            &plain,
            &mut rsa_peers::rng(4),
            &OURS_PKCS1,
            &[MESSAGE; 8],
        );
        for s in sigs {
            check(BATCH, s.unwrap_or_else(|e| fail(format!("batch: {e}"))));
        }
    }
    let key_file = key_file(keys);
    let mut rows = Vec::new();
    for threads in thread_counts() {
        eprintln!("compare: scaling {} {bits} on {threads} ...", op.name());
        let ours_on = |key: Arc<RsaPrivateKey>| {
            let c = c.clone();
            move |i: usize| -> Box<dyn FnMut() + Send> {
                let (key, c) = (Arc::clone(&key), c.clone());
                let mut rng = ChaCha20Rng::seed_from_u64(100 + i as u64);
                Box::new(move || {
                    black_box(ours_call(&key, op, &c, &mut rng));
                })
            }
        };
        let ours_plain = ours_on(Arc::clone(&plain));
        let ours_coalesced = ours_on(Arc::clone(&coalesced));
        let batch = Batch::new().threads(threads);
        let items = BATCH_ITEMS * threads;
        let batch_make = |_: usize| -> Box<dyn FnMut() + Send + '_> {
            let key = Arc::clone(&plain);
            let msgs = vec![MESSAGE; items];
            let mut rng = ChaCha20Rng::seed_from_u64(7);
            Box::new(move || {
                black_box(batch.sign(&key, &mut rng, &OURS_PKCS1, &msgs));
            })
        };
        let openssl_make = |_: usize| -> Box<dyn FnMut() + Send + '_> {
            let (pkey, c) = (&pkey, &c);
            Box::new(move || {
                black_box(openssl_call(pkey, op, c));
            })
        };
        let aws_make = |_: usize| -> Box<dyn FnMut() + Send + '_> {
            let rng = aws_lc_rs::rand::SystemRandom::new();
            let (aws, c) = (aws.as_ref(), &c);
            Box::new(move || {
                if let Some(aws) = aws {
                    black_box(aws.call(keys.k, c, &rng));
                }
            })
        };
        // Each implementation's best window of `ROUNDS`, the implementations in turn in every
        // round, so that a burst of load from elsewhere hits one window, not one
        // implementation.
        let mut rates: Vec<(&'static str, Rate)> = Vec::new();
        for _ in 0..ROUNDS {
            let mut round = vec![
                (OURS, window(threads, time, 1, &ours_plain)),
                (COALESCED, window(threads, time, 1, &ours_coalesced)),
                (PROCESSES, processes(threads, time, op, bits, &key_file)),
            ];
            if op == Op::Sign {
                round.push((BATCH, window(1, time, items, &batch_make)));
            }
            round.push((OPENSSL, window(threads, time, 1, &openssl_make)));
            if aws.is_some() {
                round.push((AWS_LC, window(threads, time, 1, &aws_make)));
            }
            for (name, r) in round {
                match rates.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, best)) if best.per_second >= r.per_second => {}
                    Some((_, best)) => *best = r,
                    None => rates.push((name, r)),
                }
            }
        }
        rows.push(Row {
            op,
            bits,
            threads,
            rates,
        });
    }
    let _ = std::fs::remove_file(&key_file);
    rows
}

/// Our key as PKCS #8 DER in a temporary file, for the worker processes.
fn key_file(keys: &Keys) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!(
        "rsatool-compare-scaling-{}-{}.der",
        std::process::id(),
        keys.bits
    ));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
        .open(&path)
        .and_then(|mut f| f.write_all(&keys.pkcs8))
        .unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
    path
}

/// Milliseconds since the Unix epoch.
fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis())
}

/// `threads` worker processes of this binary over one window of `time` that starts at the
/// same moment on the wall clock for all; their operations per second added up.
fn processes(threads: usize, time: Duration, op: Op, bits: usize, key: &std::path::Path) -> Rate {
    let exe = std::env::current_exe().unwrap_or_else(|e| fail(format!("this binary: {e}")));
    // Time to start, read the key and run one operation first.
    let start = now_ms() + 400 + 20 * threads as u128;
    let children: Vec<_> = (0..threads)
        .map(|i| {
            std::process::Command::new(&exe)
                .arg(WORKER)
                .arg(op.name())
                .arg(key)
                .arg(start.to_string())
                .arg(time.as_millis().to_string())
                .arg(i.to_string())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| fail(format!("scaling worker: {e}")))
        })
        .collect();
    let mut per_second = 0.0;
    let mut medians = Vec::new();
    for child in children {
        let out = child
            .wait_with_output()
            .unwrap_or_else(|e| fail(format!("scaling worker: {e}")));
        let text = String::from_utf8_lossy(&out.stdout);
        let mut it = text.split_whitespace().map(str::parse::<f64>);
        match (it.next(), it.next(), out.status.success()) {
            (Some(Ok(r)), Some(Ok(m)), true) => {
                per_second += r;
                medians.push(m);
            }
            _ => fail(format!(
                "scaling worker at {bits} bits failed: {}",
                text.trim()
            )),
        }
    }
    Rate {
        per_second,
        median_call: if medians.is_empty() {
            0.0
        } else {
            median(&medians)
        },
    }
}

/// A worker process (`compare --scaling-worker OP KEY START_MS WINDOW_MS INDEX`): reads the
/// key, runs one operation, waits for the start, runs operations until the window ends, and
/// prints its operations per second and median call.
pub fn worker(args: &[String]) {
    let [op, key, start, ms, index] = args else {
        fail("usage: --scaling-worker OP KEY START_MS WINDOW_MS INDEX".to_owned());
    };
    let op = Op::parse(op).unwrap_or_else(|| fail(format!("unknown operation {op}")));
    let der = std::fs::read(key).unwrap_or_else(|e| fail(format!("{key}: {e}")));
    let parts =
        rsatool_rsa::decode_private_key(&der).unwrap_or_else(|e| fail(format!("{key}: {e}")));
    let key = RsaPrivateKey::from_parts(&parts).unwrap_or_else(|e| fail(format!("key: {e}")));
    let keys = Keys::from_ours(Arc::new(key));
    let c = ciphertext(&keys, op);
    let (start, ms, index): (u128, u128, u64) = match (start.parse(), ms.parse(), index.parse()) {
        (Ok(s), Ok(m), Ok(i)) => (s, m, i),
        _ => fail("bad worker arguments".to_owned()),
    };
    let mut rng = ChaCha20Rng::seed_from_u64(100 + index);
    black_box(ours_call(&keys.ours, op, &c, &mut rng));
    while now_ms() < start {
        std::thread::sleep(Duration::from_millis(1));
    }
    let begin = Instant::now();
    let mut calls = Vec::new();
    while now_ms() < start + ms {
        let t = Instant::now();
        black_box(ours_call(&keys.ours, op, &c, &mut rng));
        calls.push(t.elapsed().as_secs_f64());
    }
    let r = rate(calls, begin.elapsed().as_secs_f64(), 1);
    println!("{} {}", r.per_second, r.median_call);
}

/// Every row at every size and both operations, on the keys of `keys` where they have the
/// size (made here otherwise).
pub fn run(keys: &[Keys], time: Duration) -> Vec<Row> {
    let time = time.max(Duration::from_millis(500));
    let mut rows = Vec::new();
    for bits in BITS {
        rsa_peers::with_keys_of(keys, bits, "RSA key", |keys| {
            for op in [Op::Sign, Op::Decrypt] {
                rows.extend(rows_of(keys, op, time));
            }
        });
    }
    rows
}

/// The names in table order.
const NAMES: [&str; 6] = [OURS, COALESCED, PROCESSES, BATCH, OPENSSL, AWS_LC];

/// The rows as Markdown tables (one per operation and size), then their targets.
pub fn markdown(rows: &[Row]) -> String {
    let mut s = format!(
        "**Threads on one key** (operations per second, all threads together; exponentiation \
         path {}; `ours-processes`: one process per thread, each with its own copy of the key; \
         `ours-batch`: `Batch::threads(N)`, {BATCH_ITEMS} items per thread a call; median call \
         in µs in brackets)\n\n",
        pow_path().name()
    );
    let mut last = None;
    for row in rows {
        if last != Some((row.op, row.bits)) {
            last = Some((row.op, row.bits));
            let _ = write!(
                s,
                "\n{} at {} bits:\n\n| threads | {} | ours / processes | coalesced / openssl \
                 |\n| ---: |{} ---: | ---: |\n",
                row.op.name(),
                row.bits,
                NAMES.join(" | "),
                " ---: |".repeat(NAMES.len())
            );
        }
        let _ = write!(s, "| {} |", row.threads);
        for name in NAMES {
            match row.rate(name) {
                Some(r) => {
                    let _ = write!(s, " {:.0} ({:.0}) |", r.per_second, r.median_call * 1e6);
                }
                None => s.push_str(" - |"),
            }
        }
        let ratio = |a: &str, b: &str| match (row.rate(a), row.rate(b)) {
            (Some(a), Some(b)) => format!("{:.2}", a.per_second / b.per_second),
            _ => "-".to_owned(),
        };
        let _ = writeln!(
            s,
            " {} | {} |",
            ratio(OURS, PROCESSES),
            ratio(COALESCED, OPENSSL)
        );
    }
    s.push('\n');
    s.push_str(&targets(rows));
    s
}

/// The targets of threads on one key (against processes, the batch's scaling, the coalescing
/// key against OpenSSL) on the rows.
fn targets(rows: &[Row]) -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut s = String::from(
        "**Targets of threads on one key** (ratio of throughputs; at least the target to meet it)\n\n\
         | target | ratios (2048 / 3072 / 4096) | verdict |\n| --- | --- | --- |\n",
    );
    let find = |op: Op, bits: usize, threads: usize| {
        rows.iter()
            .find(|r| r.op == op && r.bits == bits && r.threads == threads)
    };
    let mut line = |what: String, at_least: f64, f: &dyn Fn(usize) -> Option<f64>| {
        let ratios: Vec<Option<f64>> = BITS.iter().map(|&b| f(b)).collect();
        let text: Vec<String> = ratios
            .iter()
            .map(|r| r.map_or("-".to_owned(), |r| format!("{r:.2}")))
            .collect();
        let verdict = if ratios.iter().all(|r| r.is_some_and(|r| r >= at_least)) {
            "met"
        } else if ratios.iter().any(Option::is_none) {
            "not measured"
        } else {
            "not met"
        };
        let _ = writeln!(s, "| {what} | {} | {verdict} |", text.join(" / "));
    };
    let mut counts = vec![2, cores];
    counts.dedup();
    for op in [Op::Sign, Op::Decrypt] {
        for &n in &counts {
            line(
                format!(
                    "{}: {n} threads on one key at least 0.95x {n} processes",
                    op.name()
                ),
                0.95,
                &|b| {
                    let r = find(op, b, n)?;
                    Some(r.rate(OURS)?.per_second / r.rate(PROCESSES)?.per_second)
                },
            );
        }
    }
    // Thread counts are small: exact in f64.
    #[allow(clippy::cast_precision_loss)]
    line(
        format!("sign: the batch on {cores} threads at least 0.9 x {cores} x the one-thread batch"),
        0.9,
        &|b| {
            let all = find(Op::Sign, b, cores)?.rate(BATCH)?.per_second;
            let one = find(Op::Sign, b, 1)?.rate(BATCH)?.per_second;
            Some(all / (cores as f64 * one))
        },
    );
    let busy = 4 * cores;
    let goal = if cores >= 16 { 2.0 } else { 1.6 };
    line(
        format!(
            "sign: {busy} threads on a coalescing key at least {goal}x OpenSSL's {busy} threads"
        ),
        goal,
        &|b| {
            let r = find(Op::Sign, b, busy)?;
            Some(r.rate(COALESCED)?.per_second / r.rate(OPENSSL)?.per_second)
        },
    );
    line(
        format!(
            "sign: {busy} threads on a coalescing key, a single operation over the median call \
             at least 0.5 (the call at most 2x one operation)"
        ),
        0.5,
        &|b| {
            let single = find(Op::Sign, b, 1)?.rate(OURS)?.median_call;
            let call = find(Op::Sign, b, busy)?.rate(COALESCED)?.median_call;
            Some(single / call)
        },
    );
    s.push('\n');
    s
}
