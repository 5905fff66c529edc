//! The measurement loop: one implementation of an operation is a closure ([`Imp`]), the
//! implementations of one operation at one size a [`Case`]; [`measure`] times them in
//! interleaved rounds of batches of about 1 ms and keeps each one's fastest batch. And
//! [`check`], which every case runs against num-bigint before anything is timed.

use std::time::{Duration, Instant};

use bignum::Limb;

/// One implementation of one operation at one size, as a closure that runs it once (or, for
/// a batch, `ops` operations at once).
pub struct Imp {
    pub name: String,
    pub run: Box<dyn FnMut()>,
    /// Operations per call of `run`: 1, or the items of a batch.
    pub ops: u32,
}

impl Imp {
    pub fn new(name: impl Into<String>, run: impl FnMut() + 'static) -> Self {
        Self::batch(name, 1, run)
    }

    /// A closure that does `ops` operations per call (a batch); its times are per operation.
    pub fn batch(name: impl Into<String>, ops: u32, run: impl FnMut() + 'static) -> Self {
        Imp {
            name: name.into(),
            run: Box::new(run),
            ops: ops.max(1),
        }
    }
}

/// One operation at one size: the implementations, and which ratios ours/peer to report.
pub struct Case {
    pub op: &'static str,
    pub size: usize,
    pub imps: Vec<Imp>,
    pub pairs: Vec<(String, String)>,
}

/// The measured result of a case.
pub struct Measured {
    pub op: &'static str,
    pub size: usize,
    pub times: Vec<(String, f64)>,
    pub pairs: Vec<(String, String)>,
    /// How many rounds ran.
    pub rounds: usize,
}

impl Measured {
    pub fn time(&self, name: &str) -> Option<f64> {
        self.times.iter().find(|(n, _)| n == name).map(|&(_, t)| t)
    }
}

/// Calls per batch so that one batch lasts at least `target`.
fn calibrate(run: &mut dyn FnMut(), target: Duration) -> u64 {
    let mut iters = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..iters {
            run();
        }
        let elapsed = start.elapsed();
        if elapsed >= target || iters >= 1 << 30 {
            return iters;
        }
        // Aim a little past the target from what one batch took, at most 100x per step.
        let want = target.as_secs_f64() * 1.2 / elapsed.as_secs_f64().max(1e-9);
        // At most 2^30 · 100 calls: far inside u64, so the cast cannot truncate.
        #[allow(clippy::cast_possible_truncation)]
        let next = (iters as f64 * want.clamp(2.0, 100.0)).ceil() as u64;
        iters = next;
    }
}

/// Fewest rounds per case, however long its calls.
const MIN_ROUNDS: usize = 10;
/// Most rounds per case, however short its calls.
const MAX_ROUNDS: usize = 5000;

/// Best seconds per call of every implementation: rounds that interleave the implementations,
/// each a batch of about `BATCH` (at least one call), until every implementation has spent
/// `budget` and at least [`MIN_ROUNDS`] rounds ran. Short batches and many rounds are what make
/// the minimum hold on a loaded machine: a batch shorter than the scheduler's time slice has a
/// fair chance to run uninterrupted.
pub fn measure(mut case: Case, budget: Duration) -> Measured {
    const BATCH: Duration = Duration::from_millis(1);
    let iters: Vec<u64> = case
        .imps
        .iter_mut()
        .map(|imp| calibrate(&mut imp.run, BATCH))
        .collect();
    let mut best = vec![f64::INFINITY; case.imps.len()];
    let start = Instant::now();
    let total = budget * u32::try_from(case.imps.len()).unwrap_or(u32::MAX);
    let mut rounds = 0;
    while rounds < MAX_ROUNDS && (rounds < MIN_ROUNDS || start.elapsed() < total) {
        for ((imp, &n), best) in case.imps.iter_mut().zip(&iters).zip(&mut best) {
            let t = Instant::now();
            for _ in 0..n {
                (imp.run)();
            }
            *best = best.min(t.elapsed().as_secs_f64() / (n as f64 * f64::from(imp.ops)));
        }
        rounds += 1;
    }
    Measured {
        op: case.op,
        size: case.size,
        times: case.imps.into_iter().map(|i| i.name).zip(best).collect(),
        pairs: case.pairs,
        rounds,
    }
}

/// Stops the run if an implementation computes something else than num-bigint: a ratio against
/// a wrong answer would mean nothing.
pub fn check(op: &str, size: usize, name: &str, got: &[Limb], want: &num_bigint::BigUint) {
    if biguint(got) != *want {
        eprintln!("compare: {op} at {size}: {name} disagrees with num-bigint; no figures");
        std::process::exit(1);
    }
}

pub fn biguint(limbs: &[Limb]) -> num_bigint::BigUint {
    num_bigint::BigUint::from_bytes_le(
        &limbs
            .iter()
            .flat_map(|l| l.to_le_bytes())
            .collect::<Vec<_>>(),
    )
}
