//! Batch rows: PKCS #1 v1.5 signatures with SHA-256 per second at 2048, 3072 and
//! 4096 bits, ours one at a time (`RsaPrivateKey::sign`, the single CRT private operation),
//! ours through [`rsatool_rsa::Batch`] on one thread and on every thread, OpenSSL and AWS-LC (one
//! signature per call, one core), all on the same key, in one interleaved case per size; then
//! the batch's targets on those figures.
//!
//! Everyone signs (AWS-LC has no raw private operation), so the hash of the 60-byte message and
//! the padding are in every figure; they are a fraction of a percent of a 2048-bit signature.
//! A one-thread batch call signs `items` messages (`--batch-items`, default 4: one group of
//! four CRT items in eight lanes), an all-threads call `items` per thread, so that each
//! thread does the same work as the one-thread call and the scaling ratio compares like with
//! like; each call counts as that many operations. Why not 64 or more: the harness keeps the
//! fastest of its rounds, which on a loaded machine only works for calls shorter than a
//! scheduler time slice, and longer batch calls lost part of their per-signature rate from run
//! to run on a loaded machine where four items kept the rates of `rsa/examples/batch_speed.rs`
//! (measured: see docs/benchmarks-log.md, "The batch rows' call length"). A longer batch does
//! no other work per item: it runs the same groups of four one after another
//! (`rsa/src/batch.rs`), so one group measures its throughput; `--batch-items 64` is for a
//! quiet machine. Before timing, every batch item must equal the
//! single signature (PKCS #1 v1.5 is deterministic), and ours, OpenSSL's and AWS-LC's single
//! signatures must be equal.

use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::Arc;

use benches::rsa_peers::{self, AWS_LC, Keys, MESSAGE, OPENSSL, OURS, OURS_PKCS1};
use bignum::backend::{PowPath, pow_path};
use rsatool_rsa::Batch;
use serde_json::{Value, json};

use super::harness::{Case, Imp, Measured};
use super::rsa_rows::{fail, imp};

/// The table's operation name.
pub const BATCH_SIGN: &str = "pkcs1v15_sign_batch";
/// Key sizes of the batch rows.
pub const BITS: [usize; 3] = [2048, 3072, 4096];
/// Ours through [`Batch`] with one thread.
pub const BATCH_ONE: &str = "ours-batch-1";
/// Ours through [`Batch`] with its default thread count (every core).
pub const BATCH_ALL: &str = "ours-batch-all";
/// Messages per one-thread batch call (and per thread in the all-threads call), by default.
pub const ITEMS: u32 = 4;

/// What the table measures, for its heading.
pub fn describe(items: u32) -> String {
    format!(
        "RSASSA-PKCS1-v1_5 with SHA-256 over a 60-byte message, hashing included; `{OURS}`, \
         `{OPENSSL}`, `{AWS_LC}`: one signature per call on one thread; `{BATCH_ONE}`: \
         `rsatool_rsa::Batch::threads(1)` on {items} messages a call, `{BATCH_ALL}`: \
         `rsatool_rsa::Batch` on {} \
         threads, {items} messages per thread a call, counted per signature; exponentiation \
         path {}",
        threads(),
        pow_path().name()
    )
}

/// The threads of the all-cores batch.
pub fn threads() -> usize {
    Batch::new().max_threads()
}

/// The batch cases, one per size of [`BITS`], on the keys of `keys` of that size (made here
/// where `keys` lacks one), each checked before anything is timed.
pub fn cases(keys: &[Keys], items: u32) -> Vec<Case> {
    BITS.iter()
        .map(|&bits| {
            rsa_peers::with_keys_of(keys, bits, "RSA key and batch checks", |keys| {
                case(keys, items)
            })
        })
        .collect()
}

fn case(keys: &Keys, items: u32) -> Case {
    let bits = keys.bits;
    let mut ops: Vec<_> = keys
        .pkcs1v15_sign_ops()
        .into_iter()
        .filter(|o| [OURS, OPENSSL, AWS_LC].contains(&o.name))
        .collect();
    rsa_peers::check_equal(BATCH_SIGN, bits, &mut ops).unwrap_or_else(|e| fail(e));
    let want = (ops[0].run)();
    let mut imps = Vec::new();
    let mut ops = ops.into_iter();
    imps.extend(ops.next().map(imp));
    let per_thread = u32::try_from(threads()).unwrap_or(u32::MAX);
    for (name, batch, items) in [
        (BATCH_ONE, Batch::new().threads(1), items),
        (BATCH_ALL, Batch::new(), items.saturating_mul(per_thread)),
    ] {
        let key = Arc::clone(&keys.ours);
        let mut r = rsa_peers::rng(5);
        let msgs: Vec<&'static [u8]> = vec![MESSAGE; items as usize];
        let sigs = batch.sign(&key, &mut r, &OURS_PKCS1, &msgs);
        if sigs.len() != msgs.len() || sigs.iter().any(|s| s.as_deref().ok() != Some(&want[..])) {
            fail(format!(
                "{BATCH_SIGN} at {bits}: a signature of {name} differs from the single one"
            ));
        }
        imps.push(Imp::batch(name, items, move || {
            black_box(batch.sign(&key, &mut r, &OURS_PKCS1, black_box(&msgs)));
        }));
    }
    imps.extend(ops.map(imp));
    let pair = |o: &str, p: &str| (o.to_owned(), p.to_owned());
    let mut pairs = vec![pair(BATCH_ONE, OURS), pair(BATCH_ONE, OPENSSL)];
    if imps.iter().any(|i| i.name == AWS_LC) {
        pairs.push(pair(BATCH_ONE, AWS_LC));
    }
    pairs.push(pair(BATCH_ALL, BATCH_ONE));
    Case {
        op: BATCH_SIGN,
        size: bits,
        imps,
        pairs,
    }
}

/// One target of the batch on the measured figures.
struct Target {
    what: String,
    /// The measured ratio, if both figures were measured.
    ratio: Option<f64>,
    /// The ratio must be at least this.
    at_least: f64,
}

/// Operations per second of `name` at `bits`.
fn rate(results: &[Measured], bits: usize, name: &str) -> Option<f64> {
    results
        .iter()
        .find(|m| m.op == BATCH_SIGN && m.size == bits)
        .and_then(|m| m.time(name))
        .map(|t| 1.0 / t)
}

fn throughput(results: &[Measured], bits: usize, ours: &str, peer: &str) -> Option<f64> {
    Some(rate(results, bits, ours)? / rate(results, bits, peer)?)
}

fn targets_of(results: &[Measured]) -> Vec<Target> {
    let n = threads();
    let mut out = vec![
        Target {
            what: "2048: batch on one core at least 1.8x OpenSSL's one-core signatures".to_owned(),
            ratio: throughput(results, 2048, BATCH_ONE, OPENSSL),
            at_least: 1.8,
        },
        Target {
            what: "2048: batch on one core at least 1.5x our single operation".to_owned(),
            ratio: throughput(results, 2048, BATCH_ONE, OURS),
            at_least: 1.5,
        },
    ];
    for bits in [3072, 4096] {
        out.push(Target {
            what: format!("{bits}: batch on one core at least 1.5x AWS-LC's one-core signatures"),
            ratio: throughput(results, bits, BATCH_ONE, AWS_LC),
            at_least: 1.5,
        });
    }
    if pow_path() != PowPath::Ifma {
        for bits in BITS {
            out.push(Target {
                what: format!("{bits}: without IFMA, batch on one core at least 1.0x single"),
                ratio: throughput(results, bits, BATCH_ONE, OURS),
                at_least: 1.0,
            });
        }
    }
    for bits in BITS {
        // Public counts: the cast is exact for any thread count.
        #[allow(clippy::cast_precision_loss)]
        let ratio = throughput(results, bits, BATCH_ALL, BATCH_ONE).map(|r| r / n as f64);
        out.push(Target {
            what: format!("{bits}: all {n} threads at least 0.9 x {n} x the one-core batch"),
            ratio,
            at_least: 0.9,
        });
    }
    out
}

/// The batch's targets as a Markdown table, like the RSA targets with AVX-512 IFMA.
pub fn targets(results: &[Measured]) -> String {
    let mut s = format!(
        "**Batch targets** (PKCS #1 v1.5 SHA-256 signatures per second from the \
         `{BATCH_SIGN}` table; ratio = ours / peer in throughput, at least the target to meet it; \
         exponentiation path in this run: {})\n\n| target | ratio | verdict |\n| --- | ---: | --- |\n",
        pow_path().name()
    );
    for t in targets_of(results) {
        let verdict = match t.ratio {
            Some(r) if r >= t.at_least => format!("**{r:.2}** | met"),
            Some(r) => format!("**{r:.2}** | not met"),
            None => "- | not measured".to_owned(),
        };
        let _ = writeln!(s, "| {} | {verdict} |", t.what);
    }
    s.push('\n');
    s
}

/// The same targets for `compare.json`.
pub fn json(results: &[Measured]) -> Value {
    let rows: Vec<Value> = targets_of(results)
        .into_iter()
        .map(|t| {
            json!({
                "target": t.what,
                "ratio": t.ratio,
                "at_least": t.at_least,
                "met": t.ratio.map(|r| r >= t.at_least),
            })
        })
        .collect();
    json!({ "threads": threads(), "targets": rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(size: usize, times: &[(&str, f64)]) -> Measured {
        Measured {
            op: BATCH_SIGN,
            size,
            times: times.iter().map(|&(n, t)| (n.to_owned(), t)).collect(),
            pairs: Vec::new(),
            rounds: 10,
        }
    }

    #[test]
    fn targets_compare_throughput_not_time() {
        // Batch 2x OpenSSL's rate (half its time): 2.00, met; 1.2x our single: not met;
        // AWS-LC at 3072 absent: not measured.
        let rows = [measured(
            2048,
            &[
                (OURS, 1.2e-4),
                (BATCH_ONE, 1e-4),
                (BATCH_ALL, 5e-5),
                (OPENSSL, 2e-4),
            ],
        )];
        let text = targets(&rows);
        assert!(text.contains("| 2048: batch on one core at least 1.8x OpenSSL's one-core signatures | **2.00** | met |"), "{text}");
        assert!(
            text.contains("at least 1.5x our single operation | **1.20** | not met |"),
            "{text}"
        );
        assert!(text.contains("| 3072: batch on one core at least 1.5x AWS-LC's one-core signatures | - | not measured |"), "{text}");
        let n = threads() as f64;
        let want = format!("**{:.2}**", 2.0 / n);
        assert!(
            text.contains(&format!("| 2048: all {} threads at least", threads())),
            "{text}"
        );
        assert!(
            text.lines()
                .any(|l| l.contains("2048: all") && l.contains(&want)),
            "{text}"
        );
    }
}
