//! The Markdown tables: one per operation, a row per size, the figures of every
//! implementation in the operation's unit, then the ratios ours / peer.

use std::fmt::Write as _;

use super::harness::Measured;
use super::{batch, rsa_rows};

/// How a table shows its figures.
#[derive(Clone, Copy)]
pub enum Unit {
    /// Time-stamp-counter ticks per limb (kernels; the TSC is not the core clock).
    TicksPerLimb,
    /// Nanoseconds per call.
    Nanos,
    /// Microseconds per call.
    Micros,
    /// Operations per second (batches: items per second); ratios of throughput.
    OpsPerSec,
}

pub fn unit_of(op: &str) -> Unit {
    match op {
        "addmul_1" | "submul_1" => Unit::TicksPerLimb,
        "mul" | "sqr" | "div" => Unit::Nanos,
        batch::BATCH_SIGN => Unit::OpsPerSec,
        _ => Unit::Micros,
    }
}

/// Markdown tables, one per operation: the figures of every implementation, then the ratios.
pub fn tables(results: &[Measured], tsc: f64, batch_items: u32) -> String {
    let mut out = String::new();
    // Each operation once, in the order of first appearance (the RSA cases go size by size).
    let mut ops: Vec<&str> = Vec::new();
    for m in results {
        if !ops.contains(&m.op) {
            ops.push(m.op);
        }
    }
    for op in ops {
        let rows: Vec<&Measured> = results.iter().filter(|m| m.op == op).collect();
        let unit = unit_of(op);
        let (what, size) = match unit {
            Unit::TicksPerLimb => ("TSC ticks per limb", "limbs"),
            Unit::Nanos => ("ns per call", "bits"),
            Unit::Micros => ("µs per call", "bits"),
            Unit::OpsPerSec => ("operations per second", "bits"),
        };
        // Every implementation and pair of any size (some peers skip some sizes), in the
        // order of the row that has the most.
        let widest = rows
            .iter()
            .max_by_key(|m| m.times.len())
            .unwrap_or(&rows[0]);
        let mut names: Vec<&str> = widest.times.iter().map(|(n, _)| n.as_str()).collect();
        let mut pairs: Vec<(String, String)> = widest.pairs.clone();
        for m in &rows {
            for (n, _) in &m.times {
                if !names.contains(&n.as_str()) {
                    names.push(n);
                }
            }
            for p in &m.pairs {
                if !pairs.contains(p) {
                    pairs.push(p.clone());
                }
            }
        }
        let detail = match op {
            "div" => "; a 2·bits-bit dividend by a bits-bit divisor".to_owned(),
            "powm" => "; base, exponent and modulus of the same size".to_owned(),
            batch::BATCH_SIGN => format!("; {}", batch::describe(batch_items)),
            _ => rsa_rows::describe(op)
                .map(|d| format!("; {d}"))
                .unwrap_or_default(),
        };
        let throughput = matches!(unit, Unit::OpsPerSec);
        let sense = if throughput {
            "ratio = ours / peer in operations per second, above 1 means ours is faster"
        } else {
            "ratio = ours / peer, below 1 means ours is faster"
        };
        let _ = writeln!(
            out,
            "**{op}** ({what}{detail}; {sense}; - where a library lacks the operation or size)\n"
        );
        let mut header = format!("| {size} |");
        let mut rule = String::from("| ---: |");
        for n in &names {
            let _ = write!(header, " {n} |");
            rule.push_str(" ---: |");
        }
        for (o, p) in &pairs {
            let _ = write!(header, " {o} / {p} |");
            rule.push_str(" ---: |");
        }
        let _ = writeln!(out, "{header}\n{rule}");
        for m in rows {
            let _ = write!(out, "| {} |", m.size);
            for name in &names {
                let Some(t) = m.time(name) else {
                    out.push_str(" - |");
                    continue;
                };
                let v = match unit {
                    Unit::TicksPerLimb => t * tsc / m.size as f64,
                    Unit::Nanos => t * 1e9,
                    Unit::Micros => t * 1e6,
                    Unit::OpsPerSec => 1.0 / t,
                };
                let _ = write!(out, " {} |", fmt3(v));
            }
            for (o, p) in &pairs {
                match (m.time(o), m.time(p)) {
                    (Some(a), Some(b)) => {
                        let r = if throughput { b / a } else { a / b };
                        let _ = write!(out, " **{r:.2}** |");
                    }
                    _ => out.push_str(" - |"),
                }
            }
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

/// Three significant digits, no exponent for the ranges printed here.
fn fmt3(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(size: usize, times: &[(&str, f64)]) -> Measured {
        Measured {
            op: rsa_rows::PKCS1_SIGN,
            size,
            times: times.iter().map(|&(n, t)| (n.to_owned(), t)).collect(),
            pairs: times
                .iter()
                .filter(|(n, _)| *n != "ours")
                .map(|(n, _)| ("ours".to_owned(), (*n).to_owned()))
                .collect(),
            rounds: 10,
        }
    }

    #[test]
    fn tables_put_a_dash_where_a_peer_skips_a_size() {
        // At 1024 bits the peer "ring" is absent: its figure and its ratio must be "-", and
        // the other columns must stay under their own headers.
        let rows = [
            measured(1024, &[("ours", 2e-6), ("openssl", 4e-6)]),
            measured(2048, &[("ours", 3e-6), ("openssl", 6e-6), ("ring", 1.5e-6)]),
        ];
        let text = tables(&rows, 1e9, batch::ITEMS);
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("| ")).collect();
        assert_eq!(
            lines[0],
            "| bits | ours | openssl | ring | ours / openssl | ours / ring |"
        );
        assert_eq!(lines[1], "| ---: | ---: | ---: | ---: | ---: | ---: |");
        assert_eq!(lines[2], "| 1024 | 2.00 | 4.00 | - | **0.50** | - |");
        assert_eq!(
            lines[3],
            "| 2048 | 3.00 | 6.00 | 1.50 | **0.50** | **2.00** |"
        );
    }

    #[test]
    fn tables_show_each_operation_once_when_sizes_interleave() {
        let mut other = measured(1024, &[("ours", 1e-6)]);
        other.op = rsa_rows::PKCS1_VERIFY;
        let mut other2 = measured(2048, &[("ours", 1e-6)]);
        other2.op = rsa_rows::PKCS1_VERIFY;
        let rows = [
            measured(1024, &[("ours", 1e-6)]),
            other,
            measured(2048, &[("ours", 1e-6)]),
            other2,
        ];
        let text = tables(&rows, 1e9, batch::ITEMS);
        assert_eq!(text.matches("**pkcs1v15_sign**").count(), 1);
        assert_eq!(text.matches("**pkcs1v15_verify**").count(), 1);
        assert_eq!(text.matches("| 2048 |").count(), 2);
    }

    #[test]
    fn batch_table_shows_operations_per_second_and_throughput_ratios() {
        // 2e-4 s per signature is 5000/s; a batch at 1e-4 s is 10000/s, 2.00x the single.
        let mut row = measured(2048, &[("ours", 2e-4), (batch::BATCH_ONE, 1e-4)]);
        row.op = batch::BATCH_SIGN;
        row.pairs = vec![(batch::BATCH_ONE.to_owned(), "ours".to_owned())];
        let text = tables(&[row], 1e9, batch::ITEMS);
        assert!(text.contains("operations per second"), "{text}");
        assert!(text.contains("above 1 means ours is faster"), "{text}");
        assert!(
            text.contains("| 2048 | 5000 | 10000 | **2.00** |"),
            "{text}"
        );
    }
}
