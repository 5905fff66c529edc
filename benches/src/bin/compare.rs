//! A short side-by-side run of ours against the peers, for the ratio tables of `BENCHMARKS.md`.
//!
//! ```text
//! cargo run --release -p benches --features peers --bin compare [-- --time SECONDS]
//!     [--primes N] [--keys N] [--keygen-cap SECONDS] [--batch-items N]
//!     [--rsa-only | --powm-only | --batch-only] [--no-write]
//! ```
//!
//! For each operation and size it times every implementation with its own loop (batches of about
//! 1 ms, in rounds that interleave the implementations, for `--time` seconds each, default 0.4;
//! the fastest batch counts), so the ratios come from one run under the same load. It prints the tables, writes them
//! between `<!-- compare:begin -->` and `<!-- compare:end -->` in `BENCHMARKS.md`, and writes
//! the figures as JSON to `benches/results/compare.json`, and draws log-log SVG charts of time
//! against size (`benches/results/powm.svg`, `mulsqr.svg`, `rsa.svg`) with each curve's fitted
//! growth exponent in the legend. `--no-write` only prints; `--rsa-only` runs only the RSA rows
//! (batches included) and key generation, `--powm-only` only the exponentiation table,
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
//! OpenSSL, AWS-LC; `--batch-items N` per batch, default 64): the `batch` module; then the
//! issue-6, issue-16 and issue-17 targets and the 2003 Cryptokit figures next to the measured
//! ones.

use std::{
    fmt::Write as _,
    hint::black_box,
    path::Path,
    time::{Duration, Instant},
};

#[path = "compare/batch.rs"]
mod batch;
#[path = "compare/keygen.rs"]
mod keygen;
#[path = "compare/primegen.rs"]
mod primegen;
#[path = "compare/rsa.rs"]
mod rsa_rows;

use benches::{gmp, limbs, powm_operands};
use bignum::modular::{Modulus, PowPath};
use bignum::{Limb, mpn};
use serde_json::{Value, json};

/// Kernel sizes in limbs, as in GMP's `speed` tables.
const KERNEL_LIMBS: [usize; 3] = [10, 100, 1000];
/// Operand sizes in bits for multiply, square and exponentiation.
const BITS: [usize; 7] = [256, 512, 1024, 1536, 2048, 3072, 4096];
/// An odd multiplier with the top bit set, so every product has full-width halves.
const M: u64 = 0xDEAD_BEEF_1234_5677 | 1 << 63;
const BEGIN: &str = "<!-- compare:begin -->";
const END: &str = "<!-- compare:end -->";

/// One implementation of one operation at one size, as a closure that runs it once (or, for
/// a batch, `ops` operations at once).
struct Imp {
    name: String,
    run: Box<dyn FnMut()>,
    /// Operations per call of `run`: 1, or the items of a batch.
    ops: u32,
}

impl Imp {
    fn new(name: impl Into<String>, run: impl FnMut() + 'static) -> Self {
        Self::batch(name, 1, run)
    }

    /// A closure that does `ops` operations per call (a batch); its times are per operation.
    fn batch(name: impl Into<String>, ops: u32, run: impl FnMut() + 'static) -> Self {
        Imp {
            name: name.into(),
            run: Box::new(run),
            ops: ops.max(1),
        }
    }
}

/// How a table shows its figures.
#[derive(Clone, Copy)]
enum Unit {
    /// Time-stamp-counter ticks per limb (kernels; the TSC is not the core clock).
    TicksPerLimb,
    /// Nanoseconds per call.
    Nanos,
    /// Microseconds per call.
    Micros,
    /// Operations per second (batches: items per second); ratios of throughput.
    OpsPerSec,
}

/// One operation at one size: the implementations, and which ratios ours/peer to report.
struct Case {
    op: &'static str,
    size: usize,
    imps: Vec<Imp>,
    pairs: Vec<(String, String)>,
}

/// The measured result of a case.
struct Measured {
    op: &'static str,
    size: usize,
    times: Vec<(String, f64)>,
    pairs: Vec<(String, String)>,
    /// How many rounds ran.
    rounds: usize,
}

impl Measured {
    fn time(&self, name: &str) -> Option<f64> {
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
fn measure(mut case: Case, budget: Duration) -> Measured {
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

/// GMP's kernel of that name.
fn gmp_kernel(op: &str) -> fn(&mut [Limb], &[Limb], Limb) -> Limb {
    if op == "addmul_1" {
        gmp::addmul_1
    } else {
        gmp::submul_1
    }
}

/// `mpn_addmul_1` / `mpn_submul_1` cases: every back end of ours against GMP.
fn kernel_cases(op: &'static str) -> Vec<Case> {
    KERNEL_LIMBS
        .iter()
        .map(|&n| {
            let mut imps = Vec::new();
            let mut pairs = Vec::new();
            for k in mpn::all_available() {
                let f = if op == "addmul_1" {
                    k.addmul_1
                } else {
                    k.submul_1
                };
                let (a, mut r) = (limbs(1, n), limbs(3, n));
                let name = format!("ours-{}", k.name);
                let (mut mine, mut theirs) = (r.clone(), r.clone());
                let carries = (f(&mut mine, &a, M), gmp_kernel(op)(&mut theirs, &a, M));
                if mine != theirs || carries.0 != carries.1 {
                    eprintln!("compare: {op} at {n}: {name} disagrees with GMP; no figures");
                    std::process::exit(1);
                }
                imps.push(Imp::new(&name, move || {
                    black_box(f(black_box(&mut r), black_box(&a), M));
                }));
                pairs.push((name, "gmp".to_owned()));
            }
            let g = gmp_kernel(op);
            let (a, mut r) = (limbs(1, n), limbs(3, n));
            imps.push(Imp::new("gmp", move || {
                black_box(g(black_box(&mut r), black_box(&a), M));
            }));
            Case {
                op,
                size: n,
                imps,
                pairs,
            }
        })
        .collect()
}

/// `mul` / `sqr` cases: ours (run-time back end; allocating, and with caller scratch) against
/// `mpn_mul_n` / `mpn_sqr`.
fn mul_sqr_cases(op: &'static str) -> Vec<Case> {
    let ours = format!("ours-{}", mpn::kernels().name);
    let scratch_name = format!("{ours}-scratch");
    BITS.iter()
        .map(|&bits| {
            let n = bits >> 6;
            let (a, b) = (limbs(1, n), limbs(2, n));
            let (a2, b2, a3, b3) = (a.clone(), b.clone(), a.clone(), b.clone());
            let (mut r, mut r2, mut r3) = (vec![0; 2 * n], vec![0; 2 * n], vec![0; 2 * n]);
            let scratch_len = if op == "mul" {
                mpn::mul_scratch_len(n, n)
            } else {
                mpn::sqr_scratch_len(n)
            };
            let mut scratch = vec![0; scratch_len];
            let want = if op == "mul" {
                mpn::mul(&mut r, &a, &b);
                mpn::mul_with_scratch(&mut r3, &a, &b, &mut scratch);
                gmp::mul_n(&mut r2, &a, &b);
                biguint(&a) * biguint(&b)
            } else {
                mpn::sqr(&mut r, &a);
                mpn::sqr_with_scratch(&mut r3, &a, &mut scratch);
                gmp::sqr(&mut r2, &a);
                biguint(&a) * biguint(&a)
            };
            check(op, bits, &ours, &r, &want);
            check(op, bits, &scratch_name, &r3, &want);
            check(op, bits, "gmp", &r2, &want);
            let imps = if op == "mul" {
                vec![
                    Imp::new(&ours, move || {
                        mpn::mul(black_box(&mut r), black_box(&a), black_box(&b))
                    }),
                    Imp::new(&scratch_name, move || {
                        mpn::mul_with_scratch(
                            black_box(&mut r3),
                            black_box(&a3),
                            black_box(&b3),
                            &mut scratch,
                        )
                    }),
                    Imp::new("gmp", move || {
                        gmp::mul_n(black_box(&mut r2), black_box(&a2), black_box(&b2))
                    }),
                ]
            } else {
                vec![
                    Imp::new(&ours, move || mpn::sqr(black_box(&mut r), black_box(&a))),
                    Imp::new(&scratch_name, move || {
                        mpn::sqr_with_scratch(black_box(&mut r3), black_box(&a3), &mut scratch)
                    }),
                    Imp::new("gmp", move || gmp::sqr(black_box(&mut r2), black_box(&a2))),
                ]
            };
            Case {
                op,
                size: bits,
                imps,
                pairs: vec![
                    (ours.clone(), "gmp".to_owned()),
                    (scratch_name.clone(), "gmp".to_owned()),
                ],
            }
        })
        .collect()
}

/// Division cases: a 2n-limb dividend by an n-limb divisor (size = the divisor's bits), ours
/// `div_qr_vartime` against `mpn_tdiv_qr`.
fn div_cases() -> Vec<Case> {
    BITS.iter()
        .map(|&bits| {
            let n = bits >> 6;
            let a = limbs(5, 2 * n);
            let d = limbs(6, n);
            let (a2, d2) = (a.clone(), d.clone());
            let (mut q, mut r) = (vec![0; n + 1], vec![0; n]);
            let (mut q2, mut r2) = (vec![0; n + 1], vec![0; n]);
            mpn::div_qr_vartime(&mut q, &mut r, &a, &d);
            gmp::tdiv_qr(&mut q2, &mut r2, &a, &d);
            let (want_q, want_r) = (biguint(&a) / biguint(&d), biguint(&a) % biguint(&d));
            check("div", bits, "ours quotient", &q, &want_q);
            check("div", bits, "ours remainder", &r, &want_r);
            check("div", bits, "gmp quotient", &q2, &want_q);
            check("div", bits, "gmp remainder", &r2, &want_r);
            Case {
                op: "div",
                size: bits,
                imps: vec![
                    Imp::new("ours-vartime", move || {
                        mpn::div_qr_vartime(
                            black_box(&mut q),
                            black_box(&mut r),
                            black_box(&a),
                            black_box(&d),
                        )
                    }),
                    Imp::new("gmp", move || {
                        gmp::tdiv_qr(
                            black_box(&mut q2),
                            black_box(&mut r2),
                            black_box(&a2),
                            black_box(&d2),
                        )
                    }),
                ],
                pairs: vec![("ours-vartime".to_owned(), "gmp".to_owned())],
            }
        })
        .collect()
}

/// Stops the run if an implementation computes something else than num-bigint: a ratio against
/// a wrong answer would mean nothing.
fn check(op: &str, size: usize, name: &str, got: &[Limb], want: &num_bigint::BigUint) {
    if biguint(got) != *want {
        eprintln!("compare: {op} at {size}: {name} disagrees with num-bigint; no figures");
        std::process::exit(1);
    }
}

fn biguint(limbs: &[Limb]) -> num_bigint::BigUint {
    num_bigint::BigUint::from_bytes_le(
        &limbs
            .iter()
            .flat_map(|l| l.to_le_bytes())
            .collect::<Vec<_>>(),
    )
}

/// crypto-bigint's fixed-size constant-time exponentiation, `L` limbs.
fn crypto_bigint_fixed<const L: usize>(b: &[Limb], e: &[Limb], m: &[Limb]) -> Imp {
    use crypto_bigint::{
        Odd, Uint,
        modular::{FixedMontyForm, FixedMontyParams},
    };
    let words = |x: &[Limb]| -> [u64; L] { x.try_into().expect("operand of L limbs") };
    let want = biguint(b).modpow(&biguint(e), &biguint(m));
    let m = Odd::new(Uint::<L>::from_words(words(m)))
        .into_option()
        .expect("odd modulus");
    let params = FixedMontyParams::new(m);
    let base = FixedMontyForm::new(&Uint::<L>::from_words(words(b)), &params);
    let exp = Uint::<L>::from_words(words(e));
    check(
        "powm",
        b.len() << 6,
        "crypto-bigint-fixed",
        base.pow(&exp).retrieve().as_words(),
        &want,
    );
    Imp::new("crypto-bigint-fixed", move || {
        black_box(black_box(&base).pow(black_box(&exp)));
    })
}

/// OpenSSL's constant-time exponentiation, `BN_mod_exp_mont_consttime`, through libcrypto's C ABI
/// (the `openssl` crate links it but wraps only `BN_mod_exp`, which needs `BN_FLG_CONSTTIME` on
/// the exponent to take this path). The Montgomery context is made once, as OpenSSL's RSA caches
/// it per prime (`_method_mod_p`), so a call times the exponentiation only, like `Modulus::pow`.
mod openssl_ct {
    // Calling C is unsafe by definition; each call sits in the safe wrapper below, which owns
    // every pointer it passes and checks each allocation.
    #![allow(unsafe_code)]

    use std::ffi::{c_int, c_void};

    use bignum::Limb;

    // SAFETY: these match the prototypes of OpenSSL 3.0's openssl/bn.h; BIGNUM, BN_CTX and
    // BN_MONT_CTX are opaque and only ever handled through these pointers.
    unsafe extern "C" {
        fn BN_CTX_new() -> *mut c_void;
        fn BN_CTX_free(ctx: *mut c_void);
        fn BN_new() -> *mut c_void;
        fn BN_free(a: *mut c_void);
        fn BN_lebin2bn(s: *const u8, len: c_int, ret: *mut c_void) -> *mut c_void;
        fn BN_bn2lebinpad(a: *const c_void, to: *mut u8, tolen: c_int) -> c_int;
        fn BN_MONT_CTX_new() -> *mut c_void;
        fn BN_MONT_CTX_set(mont: *mut c_void, m: *const c_void, ctx: *mut c_void) -> c_int;
        fn BN_MONT_CTX_free(mont: *mut c_void);
        fn BN_mod_exp_mont_consttime(
            rr: *mut c_void,
            a: *const c_void,
            p: *const c_void,
            m: *const c_void,
            ctx: *mut c_void,
            in_mont: *mut c_void,
        ) -> c_int;
    }

    /// A BIGNUM from little-endian limbs.
    fn bn(x: &[Limb]) -> *mut c_void {
        let bytes: Vec<u8> = x.iter().flat_map(|l| l.to_le_bytes()).collect();
        let len = c_int::try_from(bytes.len()).expect("operand fits a C int of bytes");
        // SAFETY: `bytes` is `len` readable bytes; a null `ret` asks for a new BIGNUM.
        let r = unsafe { BN_lebin2bn(bytes.as_ptr(), len, std::ptr::null_mut()) };
        assert!(!r.is_null(), "BN_lebin2bn failed");
        r
    }

    /// b^e mod m for one fixed (b, e, m), m odd, b < m.
    pub struct Pow {
        n: usize,
        r: *mut c_void,
        b: *mut c_void,
        e: *mut c_void,
        m: *mut c_void,
        ctx: *mut c_void,
        mont: *mut c_void,
    }

    impl Pow {
        /// Copies the operands into BIGNUMs and makes the Montgomery context of `m`.
        pub fn new(b: &[Limb], e: &[Limb], m: &[Limb]) -> Self {
            // SAFETY: plain constructors; each result is checked for null before use.
            let (r, ctx, mont) = unsafe { (BN_new(), BN_CTX_new(), BN_MONT_CTX_new()) };
            assert!(
                !r.is_null() && !ctx.is_null() && !mont.is_null(),
                "OpenSSL allocation"
            );
            let pow = Pow {
                n: m.len(),
                r,
                b: bn(b),
                e: bn(e),
                m: bn(m),
                ctx,
                mont,
            };
            // SAFETY: `mont`, `m` and `ctx` are live objects owned by `pow`.
            let ok = unsafe { BN_MONT_CTX_set(pow.mont, pow.m, pow.ctx) };
            assert_eq!(ok, 1, "BN_MONT_CTX_set");
            pow
        }

        /// Runs the exponentiation once into the result BIGNUM.
        pub fn run(&mut self) {
            // SAFETY: every pointer is a live object owned by `self`; `r` is distinct from the
            // inputs; `mont` was set for `m`.
            let ok = unsafe {
                BN_mod_exp_mont_consttime(self.r, self.b, self.e, self.m, self.ctx, self.mont)
            };
            assert_eq!(ok, 1, "BN_mod_exp_mont_consttime");
        }

        /// The last result, as little-endian limbs of the modulus' length.
        pub fn result(&self) -> Vec<Limb> {
            let mut bytes = vec![0u8; self.n << 3];
            let len = c_int::try_from(bytes.len()).expect("result fits a C int of bytes");
            // SAFETY: `bytes` is `len` writable bytes; `r` is live.
            let ok = unsafe { BN_bn2lebinpad(self.r, bytes.as_mut_ptr(), len) };
            assert_eq!(ok, len, "BN_bn2lebinpad");
            bytes
                .chunks_exact(8)
                .map(|c| Limb::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect()
        }
    }

    impl Drop for Pow {
        fn drop(&mut self) {
            // SAFETY: each object was made by its constructor above and is freed once, here.
            unsafe {
                BN_MONT_CTX_free(self.mont);
                BN_CTX_free(self.ctx);
                for x in [self.r, self.b, self.e, self.m] {
                    BN_free(x);
                }
            }
        }
    }
}

/// Modular exponentiation cases: ours constant-time and variable-time against GMP, num-bigint,
/// crypto-bigint and OpenSSL's constant-time `BN_mod_exp_mont_consttime`.
fn powm_cases() -> Vec<Case> {
    BITS.iter()
        .map(|&bits| {
            let (b, e, m) = powm_operands(bits);
            let ctx = Modulus::new_vartime(&m).expect("odd modulus");
            let base = ctx.reduce(&b);
            let want = biguint(&b).modpow(&biguint(&e), &biguint(&m));
            let got = ctx.retrieve(&ctx.pow(&base, &e, bits));
            check("powm", bits, "ours-ct", &got, &want);
            let got = ctx.retrieve(&ctx.pow_vartime(&base, &e));
            check("powm", bits, "ours-vartime", &got, &want);
            let (ctx2, base2, e2) = (ctx.clone(), base.clone(), e.clone());
            let ours_e = e.clone();
            // The 64-bit path beside the chosen one (when that is IFMA), as a peer in the same run.
            let limbs_too = bignum::modular::pow_path() != PowPath::Limbs;
            let (ctx3, base3, e3) = (ctx.clone(), base.clone(), e.clone());
            let mut imps = vec![
                Imp::new("ours-ct", move || {
                    black_box(ctx.pow(black_box(&base), black_box(&ours_e), bits));
                }),
                Imp::new("ours-vartime", move || {
                    black_box(ctx2.pow_vartime(black_box(&base2), black_box(&e2)));
                }),
            ];
            for sec in [true, false] {
                let (gb, ge, gm) = (
                    gmp::Mpz::from_limbs(&b),
                    gmp::Mpz::from_limbs(&e),
                    gmp::Mpz::from_limbs(&m),
                );
                let mut r = gmp::Mpz::from_limbs(&[]);
                let name = if sec { "gmp-sec" } else { "gmp" };
                if sec {
                    r.powm_sec(&gb, &ge, &gm);
                } else {
                    r.powm(&gb, &ge, &gm);
                }
                check("powm", bits, name, &r.to_limbs(), &want);
                imps.push(Imp::new(name, move || {
                    if sec {
                        r.powm_sec(black_box(&gb), black_box(&ge), black_box(&gm));
                    } else {
                        r.powm(black_box(&gb), black_box(&ge), black_box(&gm));
                    }
                }));
            }
            let (nb, ne, nm) = (biguint(&b), biguint(&e), biguint(&m));
            imps.push(Imp::new("num-bigint", move || {
                black_box(black_box(&nb).modpow(black_box(&ne), black_box(&nm)));
            }));
            {
                use crypto_bigint::{
                    BoxedUint, Odd,
                    modular::{BoxedMontyForm, BoxedMontyParams},
                };
                let cm = Odd::new(BoxedUint::from_words(m.iter().copied()))
                    .into_option()
                    .expect("odd modulus");
                let params = BoxedMontyParams::new(cm);
                let cb = BoxedMontyForm::new(BoxedUint::from_words(b.iter().copied()), &params);
                let ce = BoxedUint::from_words(e.iter().copied());
                let got = cb.pow(&ce).retrieve();
                check("powm", bits, "crypto-bigint-boxed", got.as_words(), &want);
                imps.push(Imp::new("crypto-bigint-boxed", move || {
                    black_box(black_box(&cb).pow(black_box(&ce)));
                }));
            }
            imps.push(match bits {
                256 => crypto_bigint_fixed::<4>(&b, &e, &m),
                512 => crypto_bigint_fixed::<8>(&b, &e, &m),
                1024 => crypto_bigint_fixed::<16>(&b, &e, &m),
                1536 => crypto_bigint_fixed::<24>(&b, &e, &m),
                2048 => crypto_bigint_fixed::<32>(&b, &e, &m),
                3072 => crypto_bigint_fixed::<48>(&b, &e, &m),
                _ => crypto_bigint_fixed::<64>(&b, &e, &m),
            });
            if limbs_too {
                imps.push(Imp::new("ours-ct-limbs", move || {
                    black_box(ctx3.pow_on(PowPath::Limbs, black_box(&base3), black_box(&e3), bits));
                }));
            }
            let mut ossl = openssl_ct::Pow::new(&b, &e, &m);
            ossl.run();
            check("powm", bits, "openssl-ct", &ossl.result(), &want);
            imps.push(Imp::new("openssl-ct", move || {
                black_box(&mut ossl).run();
            }));
            let pair = |o: &str, p: &str| (o.to_owned(), p.to_owned());
            Case {
                op: "powm",
                size: bits,
                imps,
                pairs: vec![
                    pair("ours-ct", "gmp-sec"),
                    pair("ours-vartime", "gmp"),
                    pair("ours-ct", "crypto-bigint-fixed"),
                    pair("ours-ct", "crypto-bigint-boxed"),
                    pair("ours-ct", "openssl-ct"),
                    pair("ours-vartime", "num-bigint"),
                    pair("ours-ct", "ours-ct-limbs"),
                ],
            }
        })
        .collect()
}

/// One curve of a chart: its label and (size, value) points.
type Curve = (String, Vec<(f64, f64)>);

/// Least-squares slope of ln(value) against ln(size): t ∝ size^slope.
fn growth_exponent(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(sx, sy), &(x, y)| (sx + x.ln(), sy + y.ln()));
    let (mx, my) = (sx / n, sy / n);
    let (num, den) = points.iter().fold((0.0, 0.0), |(num, den), &(x, y)| {
        let dx = x.ln() - mx;
        (num + dx * (y.ln() - my), den + dx * dx)
    });
    num / den
}

/// An SVG chart, log-log, one line per curve, the fitted growth exponent in each legend entry.
fn chart(path: &Path, title: &str, y_desc: &str, curves: &[Curve]) -> Result<(), String> {
    use plotters::prelude::*;
    let all = curves.iter().flat_map(|(_, p)| p.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, 0.0f64, f64::MAX, 0.0f64);
    for &(x, y) in all {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let root = SVGBackend::new(path, (900, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut ch = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(
            (x0 * 0.9..x1 * 1.1).log_scale(),
            (y0 * 0.8..y1 * 1.25).log_scale(),
        )
        .map_err(|e| err(&e))?;
    ch.configure_mesh()
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y}"))
        .x_desc("operand size (bits)")
        .y_desc(y_desc)
        .draw()
        .map_err(|e| err(&e))?;
    for (i, (label, points)) in curves.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let style = ShapeStyle::from(color).stroke_width(2);
        let k = growth_exponent(points);
        ch.draw_series(LineSeries::new(points.iter().copied(), style))
            .map_err(|e| err(&e))?
            .label(format!("{label}: time ∝ bits^{k:.2}"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        ch.draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, 3, ShapeStyle::from(color).filled())),
        )
        .map_err(|e| err(&e))?;
    }
    ch.configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// The curves of the operations `ops` (one per operation and implementation), in µs.
fn curves(results: &[Measured], ops: &[&str]) -> Vec<Curve> {
    let mut out: Vec<Curve> = Vec::new();
    for m in results.iter().filter(|m| ops.contains(&m.op)) {
        for (name, t) in &m.times {
            let label = if ops.len() > 1 {
                format!("{} {name}", m.op)
            } else {
                name.clone()
            };
            let point = (m.size as f64, t * 1e6);
            match out.iter_mut().find(|(l, _)| *l == label) {
                Some((_, points)) => points.push(point),
                None => out.push((label, vec![point])),
            }
        }
    }
    out
}

/// Writes `powm.svg` and `mulsqr.svg` into `dir`; returns the Markdown that shows them.
fn charts(results: &[Measured], dir: &Path, gmp_host: &str) -> Result<String, String> {
    let note = format!("GMP {} --host={gmp_host}", gmp::version());
    chart(
        &dir.join("powm.svg"),
        &format!("modular exponentiation, base = exponent = modulus size ({note})"),
        "µs per call",
        &curves(results, &["powm"]),
    )?;
    chart(
        &dir.join("mulsqr.svg"),
        &format!("multiply and square, n × n bits ({note})"),
        "µs per call",
        &curves(results, &["mul", "sqr"]),
    )?;
    chart(
        &dir.join("rsa.svg"),
        "RSA private operation with the CRT (raw, blinded, checked), modulus bits",
        "µs per call",
        &curves(results, &[rsa_rows::PRIVATE_CRT]),
    )?;
    Ok(
        "Charts (log-log; the legend gives each curve's least-squares growth exponent):\n\n\
        ![powm: time against size](benches/results/powm.svg)\n\n\
        ![mul and sqr: time against size](benches/results/mulsqr.svg)\n\n\
        ![RSA CRT private operation: time against modulus size](benches/results/rsa.svg)\n\n"
            .to_owned(),
    )
}

/// TSC ticks per second, from a short spin against the monotonic clock.
fn tsc_hz() -> f64 {
    let (t0, c0) = (Instant::now(), tsc());
    while t0.elapsed() < Duration::from_millis(50) {}
    let (t1, c1) = (t0.elapsed(), tsc());
    c1.wrapping_sub(c0) as f64 / t1.as_secs_f64()
}

/// The time-stamp counter, for the ticks-per-limb columns. A copy of the `rsatool` CLI's
/// (`cli/src/timing.rs`), whose binary-only crate this one cannot depend on.
#[allow(unsafe_code)] // the rdtsc intrinsic is an unsafe fn; see the SAFETY note
fn tsc() -> u64 {
    // SAFETY: rdtsc exists on every x86-64 CPU, reads no memory and has no preconditions.
    unsafe { core::arch::x86_64::_rdtsc() }
}

/// The machine, for the report: CPU model, the flags that matter, cores, load, date.
fn machine() -> Value {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        cpuinfo
            .lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_owned())
            .unwrap_or_default()
    };
    let flags = field("flags");
    let has: Vec<&str> = ["bmi2", "adx", "avx512ifma"]
        .into_iter()
        .filter(|f| flags.split_whitespace().any(|x| x == *f))
        .collect();
    let lacks: Vec<&str> = ["bmi2", "adx", "avx512ifma"]
        .into_iter()
        .filter(|f| !has.contains(f))
        .collect();
    let cores = cpuinfo
        .lines()
        .filter(|l| l.starts_with("processor"))
        .count();
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_default();
    let date = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    json!({
        "cpu": field("model name"),
        "family": field("cpu family"),
        "model": field("model"),
        "logical_cpus": cores,
        "flags": has,
        "lacks": lacks,
        "load_average_1min": load,
        "date": date,
    })
}

fn unit_of(op: &str) -> Unit {
    match op {
        "addmul_1" | "submul_1" => Unit::TicksPerLimb,
        "mul" | "sqr" | "div" => Unit::Nanos,
        batch::BATCH_SIGN => Unit::OpsPerSec,
        _ => Unit::Micros,
    }
}

/// Markdown tables, one per operation: the figures of every implementation, then the ratios.
fn tables(results: &[Measured], tsc: f64, batch_items: u32) -> String {
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

fn report(
    results: &[Measured],
    machine: &Value,
    tsc: f64,
    budget: Duration,
    batch_items: u32,
) -> String {
    let flags = machine["flags"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    let lacks = machine["lacks"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    let backends: Vec<&str> = mpn::all_available().iter().map(|k| k.name).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Generated by `cargo run --release -p benches --features peers --bin compare{}` on {}.\n",
        std::env::args()
            .skip(1)
            .fold(String::new(), |acc, a| if acc.is_empty() {
                format!(" -- {a}")
            } else {
                format!("{acc} {a}")
            }),
        machine["date"].as_str().unwrap_or("?")
    );
    let _ = writeln!(
        out,
        "- CPU: {} (family {}, model {}), {} logical CPUs; has {flags}; lacks {}. \
         Load average (1 min) at the start: {}.",
        machine["cpu"].as_str().unwrap_or("?"),
        machine["family"].as_str().unwrap_or("?"),
        machine["model"].as_str().unwrap_or("?"),
        machine["logical_cpus"],
        if lacks.is_empty() { "nothing" } else { &lacks },
        machine["load_average_1min"].as_str().unwrap_or("?"),
    );
    let _ = writeln!(
        out,
        "- GMP {} built by `benches/gmp/build-tuned.sh` with `--host={}` (static, not fat).",
        gmp::version(),
        gmp::configure_host()
    );
    let _ = writeln!(
        out,
        "- Our back ends: {} (run-time choice: {}; exponentiation path: {}, where `ours-ct` \
         runs; `ours-ct-limbs` is the 64-bit path beside it).",
        backends.join(", "),
        mpn::kernels().name,
        bignum::modular::pow_path().name()
    );
    let _ = writeln!(
        out,
        "- Timing: per operation and size, the implementations run in interleaved rounds, each a \
         batch of about 1 ms (at least one call), for about {:.2} s each ({}-{} rounds); the \
         fastest batch counts. TSC at {:.3} GHz (a fixed-rate counter, not the core clock).\n",
        budget.as_secs_f64(),
        results.iter().map(|m| m.rounds).min().unwrap_or(0),
        results.iter().map(|m| m.rounds).max().unwrap_or(0),
        tsc / 1e9
    );
    out.push_str(&tables(results, tsc, batch_items));
    out
}

fn json_report(results: &[Measured], machine: &Value, tsc: f64, budget: Duration) -> Value {
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
        "exponentiation_path": bignum::modular::pow_path().name(),
        "tsc_hz": tsc,
        "seconds_per_impl_and_size": budget.as_secs_f64(),
        "rows": rows,
        "ratios": ratios,
    })
}

/// Replaces the text between the compare markers of `path`.
fn splice(path: &Path, body: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (Some(b), Some(e)) = (text.find(BEGIN), text.find(END)) else {
        return Err(format!("{}: no {BEGIN} ... {END} markers", path.display()));
    };
    if e < b {
        return Err(format!("{}: markers out of order", path.display()));
    }
    let new = format!("{}{BEGIN}\n{body}{}", &text[..b], &text[e..]);
    std::fs::write(path, new).map_err(|e| format!("{}: {e}", path.display()))
}

/// The value of `flag`: a positive number of seconds, or exit 2 with a message.
fn seconds_arg(value: Option<String>, flag: &str) -> Duration {
    value
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|&t| t > 0.0 && t < 1e6)
        .map(Duration::from_secs_f64)
        .unwrap_or_else(|| {
            eprintln!("compare: {flag} needs a positive number of seconds");
            std::process::exit(2)
        })
}

/// The value of `flag`: a positive count, or exit 2 with a message.
fn count_arg(value: Option<String>, flag: &str) -> usize {
    value
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| {
            eprintln!("compare: {flag} needs a positive count");
            std::process::exit(2)
        })
}

const USAGE: &str = "usage: compare [--time SECONDS] [--primes N] [--keys N] \
     [--keygen-cap SECONDS] [--batch-items N] [--rsa-only | --powm-only | --batch-only] [--no-write]";

fn main() {
    let mut budget = Duration::from_millis(400);
    let mut batch_only = false;
    let mut batch_items = batch::ITEMS;
    let mut write = true;
    let mut primes = 51;
    let mut keys = 21;
    let mut rsa_only = false;
    let mut powm_only = false;
    let mut keygen_cap = Duration::from_secs(20);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--time" => budget = seconds_arg(args.next(), "--time"),
            "--no-write" => write = false,
            "--rsa-only" => rsa_only = true,
            "--powm-only" => powm_only = true,
            "--batch-only" => batch_only = true,
            "--batch-items" => {
                batch_items =
                    u32::try_from(count_arg(args.next(), "--batch-items")).unwrap_or(u32::MAX);
            }
            "-h" | "--help" => {
                println!("{USAGE}\n\nSee the module documentation of benches/src/bin/compare.rs.");
                return;
            }
            "--primes" => primes = count_arg(args.next(), "--primes"),
            "--keys" => keys = count_arg(args.next(), "--keys"),
            "--keygen-cap" => keygen_cap = seconds_arg(args.next(), "--keygen-cap"),
            _ => {
                eprintln!("{USAGE}");
                std::process::exit(2);
            }
        }
    }
    if [rsa_only, powm_only, batch_only]
        .iter()
        .filter(|&&b| b)
        .count()
        > 1
    {
        eprintln!("compare: --rsa-only, --powm-only and --batch-only exclude each other");
        std::process::exit(2);
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.parent().unwrap_or(manifest).to_path_buf();
    let machine = machine();
    let tsc = tsc_hz();
    eprintln!(
        "compare: GMP {} --host={}, back ends {:?}, {:.2} s per implementation and size",
        gmp::version(),
        gmp::configure_host(),
        mpn::all_available()
            .iter()
            .map(|k| k.name)
            .collect::<Vec<_>>(),
        budget.as_secs_f64()
    );
    let started = Instant::now();
    if powm_only {
        let results: Vec<Measured> = powm_cases()
            .into_iter()
            .map(|case| {
                eprintln!("compare: {} {} ...", case.op, case.size);
                measure(case, budget)
            })
            .collect();
        println!("{}", tables(&results, tsc, batch_items));
        eprintln!(
            "compare: {:.0} s; --powm-only prints only",
            started.elapsed().as_secs_f64()
        );
        return;
    }
    if batch_only {
        let results: Vec<Measured> = batch::cases(&[], batch_items)
            .into_iter()
            .map(|case| {
                eprintln!("compare: {} {} ...", case.op, case.size);
                measure(case, budget)
            })
            .collect();
        println!(
            "{}{}",
            tables(&results, tsc, batch_items),
            batch::targets(&results)
        );
        eprintln!(
            "compare: {:.0} s; --batch-only prints only",
            started.elapsed().as_secs_f64()
        );
        return;
    }
    let mut cases = Vec::new();
    if !rsa_only {
        cases.extend(kernel_cases("addmul_1"));
        cases.extend(kernel_cases("submul_1"));
        cases.extend(mul_sqr_cases("mul"));
        cases.extend(mul_sqr_cases("sqr"));
        cases.extend(div_cases());
        cases.extend(powm_cases());
    }
    let (rsa_cases, rsa_keys) = rsa_rows::cases();
    cases.extend(rsa_cases);
    cases.extend(batch::cases(&rsa_keys, batch_items));
    let mut results = Vec::new();
    for case in cases {
        eprintln!("compare: {} {} ...", case.op, case.size);
        results.push(measure(case, budget));
    }
    let prime_rows = if rsa_only {
        Vec::new()
    } else {
        primegen::run(&[512, 1024], primes)
    };
    // Fewer keys at the large sizes, where one key takes up to seconds.
    let key_sizes = [
        (1024, keys),
        (2048, keys),
        (3072, (keys >> 2).max(3)),
        (4096, (keys >> 3).max(3)),
    ];
    let keygen_rows = keygen::run(&key_sizes, keygen_cap);
    let plain = rsa_rows::private_plain_1024(&rsa_keys);
    let mut text = report(&results, &machine, tsc, budget, batch_items);
    if !prime_rows.is_empty() {
        text.push_str(&primegen::markdown(&prime_rows));
    }
    text.push_str(&keygen::markdown(&keygen_rows, keygen_cap));
    text.push_str(&rsa_rows::targets(&results, &keygen_rows, plain));
    text.push_str(&batch::targets(&results));
    println!("{text}");
    eprintln!("compare: {:.0} s", started.elapsed().as_secs_f64());
    if write && rsa_only {
        eprintln!("compare: --rsa-only prints only; run without it to write BENCHMARKS.md");
    } else if write {
        let mut json = json_report(&results, &machine, tsc, budget);
        json["primegen"] = primegen::json(&prime_rows);
        json["rsa_keygen"] = keygen::json(&keygen_rows);
        json["rsa_batch"] = batch::json(&results);
        let dir = manifest.join("results");
        let out = dir.join("compare.json");
        if let Err(e) = std::fs::create_dir_all(&dir) {
            eprintln!("compare: {}: {e}", dir.display());
            std::process::exit(2);
        }
        match charts(&results, &dir, gmp::configure_host()) {
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
        if let Err(e) = splice(&root.join("BENCHMARKS.md"), &text) {
            eprintln!("compare: {e}");
            std::process::exit(2);
        }
        eprintln!(
            "compare: wrote {}, the charts beside it, and BENCHMARKS.md",
            out.display()
        );
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

    #[test]
    fn growth_exponent_recovers_a_power_law() {
        let points: Vec<(f64, f64)> = [256.0, 512.0, 1024.0, 4096.0]
            .iter()
            .map(|&x: &f64| (x, 3.5 * x.powf(2.6)))
            .collect();
        assert!((growth_exponent(&points) - 2.6).abs() < 1e-9);
    }

    #[test]
    fn splice_replaces_only_between_the_markers() {
        let path = std::env::temp_dir().join(format!("compare-splice-{}.md", std::process::id()));
        let before = format!("head\n{BEGIN}\nold table\n{END}\ntail\n");
        std::fs::write(&path, &before).unwrap();
        splice(&path, "new table\n").unwrap();
        let after = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(after, format!("head\n{BEGIN}\nnew table\n{END}\ntail\n"));
    }

    #[test]
    fn splice_refuses_a_file_without_markers() {
        let path = std::env::temp_dir().join(format!("compare-nomark-{}.md", std::process::id()));
        std::fs::write(&path, "no markers\n").unwrap();
        assert!(splice(&path, "x").is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "no markers\n");
        std::fs::remove_file(&path).unwrap();
    }
}
