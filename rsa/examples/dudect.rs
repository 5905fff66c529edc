//! A statistical timing test in the style of dudect (Reparaz, Balasch, Verbauwhede, "Dude, is
//! my code constant time?", DATE 2017): two classes of inputs, interleaved at random, each
//! operation timed; the timings are cropped at a series of percentiles (keeping the fast part of
//! the distribution, where noise from the rest of the machine is rarer) and compared with
//! Welch's t-test. |t| > 4.5 on any of the tests means the two classes are distinguishable: a
//! timing leak (false positives are rare at that threshold; the machine's noise can only hide a
//! leak, not make one).
//!
//! ```text
//! cargo run --release -p rsatool-rsa --example dudect -- MODE [--seconds N] [--bits B]
//! ```
//!
//! MODE is one of
//!
//! - `private`: the CRT private operation with blinding (`private_op`), with classes that
//!   differ only in what is secret, as in the Marvin test: both are ciphertexts c = m^e of the
//!   full length (uniform-looking, public), class 0 of plaintexts whose top four bytes are
//!   zero, class 1 of random plaintexts;
//! - `private-plain`: the same for `private_op_plain` (no CRT, no blinding);
//! - `private-ifma`: `private` on the 52-bit AVX-512 IFMA engine (the two CRT halves as one
//!   interleaved pair). It refuses to run, exit 2, where the CPU lacks IFMA or
//!   `BIGNUM_BACKEND` turns it off;
//! - `private-public`: a PUBLIC-INPUT CONTROL, not a test of a secret: class 0 the fixed
//!   ciphertext 2, class 1 fresh random ciphertexts below n. The classes differ in the public
//!   input, which the operation may depend on; a |t| above the threshold here says the
//!   measurement sees the input, not that a secret leaks;
//! - `stages`: the classes of `private-public`, each stage of the private operation timed on
//!   its own (`private_op_by_stages`: input checks, the draw of r and s, the blinded inverse,
//!   the blinding, the exponentiations, Garner, the unblinding, the check, the output), one
//!   t-test per stage: where the public input's signal comes from;
//! - `oaep`: OAEP decryption (SHA-256) up to the declassification of its verdict
//!   (`Oaep::decrypt_unsliced`), class 0 valid ciphertexts (fresh encryptions of random
//!   messages), class 1 ciphertexts c = x^e of random blocks x (bad padding): both
//!   uniform-looking and of the full length, so that only the secret padding differs (random
//!   bytes below n would sometimes have a zero top byte, a shorter ciphertext once its leading
//!   zeros are stripped: a public difference that the test sees);
//! - `pkcs1v15`: the same for PKCS #1 v1.5 decryption with explicit rejection;
//! - `pkcs1v15-implicit`: the whole PKCS #1 v1.5 decryption with implicit rejection
//!   (`decrypt`), where a bad padding gives a synthetic message: nothing may differ;
//! - `pkcs1v15-paths`: a HARNESS CONTROL, not a test of a secret: `pkcs1v15`'s operation on
//!   two classes of VALID ciphertexts that differ only in how the harness made them: class 0
//!   by `encrypt`, class 1 by the public operation on a block built by hand (as `pkcs1v15`'s
//!   class 0 is made, so that its classes differ in the secret block alone). Nothing secret
//!   differs; a |t| above the threshold here is the harness;
//! - `leaky`: the NEGATIVE CONTROL: the first ten squarings of a textbook exponentiation,
//!   x ← x² mod n from x = c, in the variable-time `Nat` arithmetic (whose cost follows the
//!   length of its operands, so the small fixed ciphertext is fast), classes as in
//!   `private-public`. The test must flag it; if it does not, the measurement is blind.
//!
//! The results, with the machine, date and load of each run, are in docs/benchmarks-log.md ("Timing
//! tests (dudect)"), with the analysis of the runs that flagged.
//!
//! Timings are `Instant` differences in nanoseconds (the operations take tens of microseconds
//! or more, far above the clock's resolution). The exit status is 1 if a leak was detected,
//! else 0 (so `leaky` must exit 1).

use rsatool_rsa::hazmat::{PrivateOp, PublicOp};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use rsatool_rsa::{HashAlg, Oaep, Pkcs1v15Encrypt, RsaPrivateKey};

/// |t| above this is a leak (dudect's threshold).
const T_THRESHOLD: f64 = 4.5;

/// Measurements per batch (inputs are made before a batch, outside the timed region).
const BATCH: usize = 2000;

/// How many cropped tests, besides the uncropped one.
const CROPS: usize = 20;

/// Welford's online mean and variance for the two classes of one test.
#[derive(Clone, Default)]
struct Welch {
    n: [f64; 2],
    mean: [f64; 2],
    m2: [f64; 2],
}

impl Welch {
    fn push(&mut self, class: usize, x: f64) {
        self.n[class] += 1.0;
        let delta = x - self.mean[class];
        self.mean[class] += delta / self.n[class];
        self.m2[class] += delta * (x - self.mean[class]);
    }

    /// Welch's t statistic, or 0 with too few measurements in a class.
    fn t(&self) -> f64 {
        if self.n[0] < 100.0 || self.n[1] < 100.0 {
            return 0.0;
        }
        let var = |c: usize| self.m2[c] / (self.n[c] - 1.0);
        let se = (var(0) / self.n[0] + var(1) / self.n[1]).sqrt();
        if se == 0.0 {
            return 0.0;
        }
        (self.mean[0] - self.mean[1]) / se
    }

    fn count(&self) -> f64 {
        self.n[0] + self.n[1]
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Private,
    PrivatePlain,
    PrivateIfma,
    PrivatePublic,
    Stages,
    Oaep,
    Pkcs1v15,
    Pkcs1v15Implicit,
    Pkcs1v15Paths,
    Leaky,
}

impl Mode {
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "private" => Mode::Private,
            "private-plain" => Mode::PrivatePlain,
            "private-ifma" => Mode::PrivateIfma,
            "private-public" => Mode::PrivatePublic,
            "stages" => Mode::Stages,
            "oaep" => Mode::Oaep,
            "pkcs1v15" => Mode::Pkcs1v15,
            "pkcs1v15-implicit" => Mode::Pkcs1v15Implicit,
            "pkcs1v15-paths" => Mode::Pkcs1v15Paths,
            "leaky" => Mode::Leaky,
            _ => return None,
        })
    }
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: dudect private|private-plain|private-ifma|private-public|stages|oaep|pkcs1v15|\
         pkcs1v15-implicit|pkcs1v15-paths|leaky [--seconds N] [--bits B]"
    );
    ExitCode::from(2)
}

/// k random bytes below n (the top byte cleared: n has at least 8(k − 1) + 1 bits).
fn random_below_n(rng: &mut ChaCha20Rng, k: usize) -> Vec<u8> {
    let mut c = vec![0u8; k];
    rng.fill_bytes(&mut c[1..]);
    c
}

/// A valid PKCS #1 v1.5 encryption block of k bytes: 0x00 ‖ 0x02 ‖ PS (nonzero random) ‖
/// 0x00 ‖ a random 16-byte message.
fn pkcs1_block(rng: &mut ChaCha20Rng, k: usize) -> Vec<u8> {
    let mut em = vec![0u8; k];
    em[1] = 2;
    rng.fill_bytes(&mut em[2..]);
    for b in &mut em[2..k - 17] {
        while *b == 0 {
            *b = rng.next_u32().to_le_bytes()[0];
        }
    }
    em[k - 17] = 0;
    em
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(mode) = args.first().and_then(|m| Mode::parse(m)) else {
        return usage();
    };
    let mut seconds = 60u64;
    let mut bits = 1024usize;
    let mut it = args[1..].iter();
    while let Some(flag) = it.next() {
        let value = it.next().and_then(|v| v.parse::<u64>().ok());
        match (flag.as_str(), value) {
            ("--seconds", Some(v)) => seconds = v,
            ("--bits", Some(v)) => match usize::try_from(v) {
                Ok(v) => bits = v,
                Err(_) => return usage(),
            },
            _ => return usage(),
        }
    }

    if mode == Mode::PrivateIfma && bignum::backend::pow_path() != bignum::backend::PowPath::Ifma {
        eprintln!(
            "dudect: private-ifma needs the IFMA engine: this CPU has no AVX-512 IFMA, or \
             BIGNUM_BACKEND chose another path"
        );
        return ExitCode::from(2);
    }
    let mut seed = [0u8; 32];
    rsatool_rsa::os_rng().fill_bytes(&mut seed);
    let mut rng = ChaCha20Rng::from_seed(seed);
    let key = match RsaPrivateKey::generate(bits, &mut rng) {
        Ok(k) => k,
        Err(e) => {
            eprintln!("dudect: key generation failed: {e}");
            return ExitCode::from(2);
        }
    };
    let public = key.public_key().clone();
    let k = key.size();
    let oaep = Oaep::new(HashAlg::Sha256);
    let pkcs1_explicit = Pkcs1v15Encrypt::explicit_rejection();
    let pkcs1_implicit = Pkcs1v15Encrypt::new();
    let mut fixed = vec![0u8; k];
    fixed[k - 1] = 2;
    let n_nat = key.n().clone();

    // One input: class 0 or 1, by the mode's definition.
    // c = x^e for a block x below n (which every block made here is: a zero top byte).
    let seal = |x: &[u8], rng: &mut ChaCha20Rng| {
        public
            .public_op(x)
            .unwrap_or_else(|_| random_below_n(rng, k))
    };
    // One input: class 0 or 1, by the mode's definition.
    let make_input = |class: usize, rng: &mut ChaCha20Rng| -> Vec<u8> {
        let mut msg = [0u8; 16];
        rng.fill_bytes(&mut msg);
        match mode {
            Mode::PrivatePublic | Mode::Stages | Mode::Leaky => {
                if class == 0 {
                    fixed.clone()
                } else {
                    random_below_n(rng, k)
                }
            }
            Mode::Private | Mode::PrivatePlain | Mode::PrivateIfma => {
                // The plaintext is the secret that differs; c = m^e is public either way.
                let mut m = random_below_n(rng, k);
                if class == 0 {
                    m[..4].fill(0);
                }
                seal(&m, rng)
            }
            Mode::Pkcs1v15Paths if class == 0 => public
                .encrypt(rng, &pkcs1_explicit, &msg)
                .unwrap_or_else(|_| random_below_n(rng, k)),
            Mode::Pkcs1v15Paths => seal(&pkcs1_block(rng, k), rng),
            // Both classes are c = x^e, uniform-looking ciphertexts of the full length: the
            // secret x is a valid encoding or a random block (a bad padding but for a chance
            // of about 2^-16 with PKCS #1 v1.5).
            Mode::Oaep if class == 0 => public
                .encrypt(rng, &oaep, &msg)
                .unwrap_or_else(|_| random_below_n(rng, k)),
            // A valid PKCS #1 v1.5 block, through the same public operation as class 1's
            // random block (not `encrypt`): the classes' inputs come out of one code path and
            // differ only in the secret block.
            Mode::Pkcs1v15 | Mode::Pkcs1v15Implicit if class == 0 => {
                seal(&pkcs1_block(rng, k), rng)
            }
            Mode::Oaep | Mode::Pkcs1v15 | Mode::Pkcs1v15Implicit => {
                seal(&random_below_n(rng, k), rng)
            }
        }
    };

    // One operation, timed: its stages' durations in ns (one, the whole operation, except in
    // `stages`), and a byte of its result so that nothing is optimised away.
    let mut blind = ChaCha20Rng::from_seed(seed.map(|b| b ^ 0x5a));
    let mut run = |c: &[u8], times: &mut Vec<f64>| -> u8 {
        let start = Instant::now();
        let out = match mode {
            Mode::Private | Mode::PrivateIfma | Mode::PrivatePublic => {
                key.private_op(&mut blind, c).map(|m| m[k - 1])
            }
            Mode::Stages => {
                let mut last = start;
                key.private_op_by_stages(&mut blind, c, &mut |_| {
                    let now = Instant::now();
                    times.push((now - last).as_nanos() as f64);
                    last = now;
                })
                .map(|m| m[k - 1])
            }
            Mode::PrivatePlain => key.private_op_plain(c).map(|m| m[k - 1]),
            Mode::Oaep => oaep
                .decrypt_unsliced(&key, &mut blind, c)
                .map(|u| u.block[k - 1] ^ u.valid.unwrap_u8()),
            Mode::Pkcs1v15 | Mode::Pkcs1v15Paths => pkcs1_explicit
                .decrypt_unsliced(&key, &mut blind, c)
                .map(|u| u.block[k - 1] ^ u.valid.unwrap_u8()),
            Mode::Pkcs1v15Implicit => key
                .decrypt(&mut blind, &pkcs1_implicit, c)
                .map(|m| m.first().copied().unwrap_or(0)),
            Mode::Leaky => {
                let mut x = bignum::Nat::from_be_bytes(c);
                for _ in 0..10 {
                    x = x.square() % &n_nat;
                }
                Ok(x.as_limbs().first().copied().unwrap_or(0).to_le_bytes()[0])
            }
        };
        if mode != Mode::Stages {
            times.push(start.elapsed().as_nanos() as f64);
        }
        out.unwrap_or(0xff)
    };
    let stage_names: &[&str] = if mode == Mode::Stages {
        &RsaPrivateKey::PRIVATE_OP_STAGES
    } else {
        &["operation"]
    };

    println!(
        "dudect: mode {}, {bits}-bit key, {seconds} s, {} cropped tests + uncropped, |t| > {T_THRESHOLD} is a leak",
        args[0], CROPS
    );

    let deadline = Instant::now() + Duration::from_secs(seconds);
    // Per stage: the uncropped test, then one per cropping threshold.
    let mut tests = vec![vec![Welch::default(); CROPS + 1]; stage_names.len()];
    let mut thresholds: Option<Vec<Vec<f64>>> = None;
    let mut sink = 0u8;
    let mut batches = 0u64;
    let mut last_report = Instant::now();
    let mut times = Vec::with_capacity(stage_names.len());
    while Instant::now() < deadline {
        let classes: Vec<usize> = (0..BATCH)
            .map(|_| usize::from(rng.next_u32() & 1 == 1))
            .collect();
        let inputs: Vec<Vec<u8>> = classes.iter().map(|&c| make_input(c, &mut rng)).collect();
        // timings[s][i]: stage s of measurement i.
        let mut timings = vec![Vec::with_capacity(BATCH); stage_names.len()];
        for input in &inputs {
            times.clear();
            sink ^= std::hint::black_box(run(std::hint::black_box(input), &mut times));
            if times.len() != stage_names.len() {
                // The operation stopped early (an error): no timing of its stages.
                times.resize(stage_names.len(), f64::NAN);
            }
            for (column, &t) in timings.iter_mut().zip(&times) {
                column.push(t);
            }
        }
        batches += 1;
        // The first batch only fixes the cropping percentiles (and warms up): dudect's
        // thresholds 1 − 0.5^(10·(i + 1)/CROPS) of the whole distribution, per stage.
        let Some(th) = &thresholds else {
            thresholds = Some(timings.iter().map(|column| percentiles(column)).collect());
            continue;
        };
        for ((stage_tests, column), limits) in tests.iter_mut().zip(&timings).zip(th) {
            for (&class, &t) in classes.iter().zip(column) {
                if t.is_nan() {
                    continue;
                }
                stage_tests[0].push(class, t);
                for (test, &limit) in stage_tests[1..].iter_mut().zip(limits) {
                    if t < limit {
                        test.push(class, t);
                    }
                }
            }
        }
        if last_report.elapsed() > Duration::from_secs(10) {
            last_report = Instant::now();
            let (s, i, t) = max_t_of_stages(&tests);
            println!(
                "  {:>9} measurements, max |t| = {:7.2} ({}test {i}), uncropped t = {:7.2}",
                tests[0][0].count(),
                t.abs(),
                if stage_names.len() > 1 {
                    format!("stage {}, ", stage_names[s])
                } else {
                    String::new()
                },
                tests[s][0].t()
            );
        }
    }
    if stage_names.len() > 1 {
        println!(
            "| stage | mean class 0 (ns) | mean class 1 (ns) | uncropped t | max |t| (test) |"
        );
        for (name, stage_tests) in stage_names.iter().zip(&tests) {
            let (i, t) = max_t(stage_tests);
            println!(
                "| {name} | {:.0} | {:.0} | {:.2} | {:.2} ({i}) |",
                stage_tests[0].mean[0],
                stage_tests[0].mean[1],
                stage_tests[0].t(),
                t.abs()
            );
        }
    }
    let (s, i, t) = max_t_of_stages(&tests);
    let means = &tests[s][0].mean;
    println!(
        "dudect: {} measurements in {batches} batches; mean time class 0 {:.0} ns, class 1 {:.0} ns{}",
        tests[s][0].count(),
        means[0],
        means[1],
        if stage_names.len() > 1 {
            format!(" (stage {})", stage_names[s])
        } else {
            String::new()
        }
    );
    println!(
        "dudect: max |t| = {:.2} (test {i}: {}), uncropped t = {:.2} (sink {sink})",
        t.abs(),
        if i == 0 {
            "uncropped".to_string()
        } else {
            format!("cropped at percentile {i}")
        },
        tests[s][0].t()
    );
    if t.abs() > T_THRESHOLD {
        println!("dudect: LEAK: the two classes are distinguishable (|t| > {T_THRESHOLD})");
        ExitCode::from(1)
    } else {
        println!("dudect: no leak detected (|t| <= {T_THRESHOLD})");
        ExitCode::SUCCESS
    }
}

/// dudect's cropping thresholds of one batch's timings: the values at the percentiles
/// 1 − 0.5^(10·(i + 1)/CROPS), i < CROPS (NaNs, from operations that stopped, last).
fn percentiles(times: &[f64]) -> Vec<f64> {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let last = (sorted.len() - 1) as f64;
    (0..CROPS)
        .map(|i| {
            let p = 1.0 - 0.5f64.powf(10.0 * (i as f64 + 1.0) / CROPS as f64);
            // p·last is in [0, BATCH − 1]: the cast cannot truncate.
            #[allow(clippy::cast_possible_truncation)]
            let i = (p * last).round() as usize;
            sorted[i]
        })
        .collect()
}

/// The stage, test and t of the largest |t| over every stage's tests.
fn max_t_of_stages(tests: &[Vec<Welch>]) -> (usize, usize, f64) {
    tests
        .iter()
        .enumerate()
        .map(|(s, stage_tests)| {
            let (i, t) = max_t(stage_tests);
            (s, i, t)
        })
        .fold(
            (0, 0, 0.0),
            |best, x| {
                if x.2.abs() > best.2.abs() { x } else { best }
            },
        )
}

/// The test with the largest |t| and its t.
fn max_t(tests: &[Welch]) -> (usize, f64) {
    tests
        .iter()
        .map(Welch::t)
        .enumerate()
        .fold(
            (0, 0.0),
            |best, (i, t)| if t.abs() > best.1.abs() { (i, t) } else { best },
        )
}
