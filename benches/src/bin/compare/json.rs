//! The figures for machines: `benches/results/compare.json`, every implementation's time per
//! operation and every ratio, with the machine and the build they came from.

use std::time::Duration;

use benches::gmp;
use bignum::mpn;
use serde_json::{Value, json};

use super::harness::Measured;
use super::tables::{Unit, unit_of};

/// The JSON report of `results`.
pub fn json_report(results: &[Measured], machine: &Value, tsc: f64, budget: Duration) -> Value {
    let mut rows = Vec::new();
    let mut ratios = Vec::new();
    for m in results {
        let unit = if matches!(unit_of(m.op), Unit::TicksPerLimb) {
            "limbs"
        } else {
            "bits"
        };
        let throughput = matches!(unit_of(m.op), Unit::OpsPerSec);
        for (name, t) in &m.times {
            let mut row = json!({
                "op": m.op, "size": m.size, "size_unit": unit, "impl": name, "seconds_per_op": t,
                "rounds": m.rounds,
            });
            if unit == "limbs" {
                row["tsc_ticks_per_limb"] = json!(t * tsc / m.size as f64);
            }
            if throughput {
                row["ops_per_second"] = json!(1.0 / t);
            }
            rows.push(row);
        }
        for (o, p) in &m.pairs {
            if let (Some(a), Some(b)) = (m.time(o), m.time(p)) {
                let mut ratio = json!({
                    "op": m.op, "size": m.size, "size_unit": unit, "ours": o, "peer": p, "ratio": a / b,
                });
                if throughput {
                    ratio["throughput_ratio"] = json!(b / a);
                }
                ratios.push(ratio);
            }
        }
    }
    json!({
        "machine": machine,
        "gmp": {
            "version": gmp::version(),
            "configure_host": gmp::configure_host(),
            "build": "benches/gmp/build-tuned.sh",
        },
        "backends": mpn::all_available().iter().map(|k| k.name).collect::<Vec<_>>(),
        "runtime_backend": mpn::kernels().name,
        "exponentiation_path": bignum::backend::pow_path().name(),
        "tsc_hz": tsc,
        "seconds_per_impl_and_size": budget.as_secs_f64(),
        "rows": rows,
        "ratios": ratios,
    })
}
