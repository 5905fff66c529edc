//! The engine against num-bigint and the 64-bit exponentiation on every machine (through the
//! model), and the instructions against the model where the CPU has them.

mod batch;
mod calibrate;

use std::{borrow::Cow, vec, vec::Vec};

use bignum::backend::{
    IFMA_MAX_BITS, IFMA_MIN_BITS, PowPath, VARTIME_MIN_EXP_BITS, ifma_supports, pow_path,
};
use bignum::limb::Limb;
use bignum::modular::ifma_engine::calibrate::layout;
use bignum::modular::ifma_engine::convert::{from_digits, to_digits};
use bignum::modular::ifma_engine::entry_points::{
    pow_pair, pow_pair_on, pow_pair_vartime, public_bits,
};
use bignum::modular::ifma_engine::job::{PowJob, PowJobVartime, Prepared, clear_bits_from};
use bignum::modular::ifma_engine::single::{Exponent, run_one, run_two};
use bignum::modular::ifma_engine::vartime::SLIDING_MIN_BITS;
use bignum::modular::{Modulus, Residue};
use bignum::mpn::ifma_model::{Ifma52, MASK52, Model, Task};
use bignum::run_counters::{Counter, read_this_thread};
use num_bigint::BigUint;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// The value of little-endian limbs (also for the batch engine's tests).
pub(crate) fn big(a: &[Limb]) -> BigUint {
    BigUint::from_bytes_le(&a.iter().flat_map(|l| l.to_le_bytes()).collect::<Vec<u8>>())
}

/// `x` as exactly n limbs.
pub(crate) fn padded(x: &BigUint, n: usize) -> Vec<Limb> {
    let mut v = x.to_u64_digits();
    v.resize(n, 0);
    v
}

/// n random limbs.
pub(crate) fn random_limbs(rng: &mut ChaCha8Rng, n: usize) -> Vec<Limb> {
    (0..n).map(|_| rng.next_u64()).collect()
}

/// Odd moduli of exactly `bits` bits: random, just above 2^(bits−1), just below 2^bits.
fn moduli(rng: &mut ChaCha8Rng, bits: usize) -> Vec<Vec<Limb>> {
    let n = bits.div_ceil(64);
    let top = BigUint::from(1u8) << (bits - 1);
    let mut random = big(&random_limbs(rng, n)) % &top + &top;
    random |= BigUint::from(1u8);
    let low = &top + 1u8;
    let high = (BigUint::from(1u8) << bits) - 1u8;
    [random, low, high].iter().map(|m| padded(m, n)).collect()
}

/// Bases (as plain values below m): 0, 1, m − 1, random, and 2^(52·j) − 1 (all-ones
/// digits: lanes of 2^52 − 1, the carry ripple of the normalisation).
fn bases(rng: &mut ChaCha8Rng, m: &[Limb]) -> Vec<Vec<Limb>> {
    let n = m.len();
    let bm = big(m);
    let ones = (BigUint::from(1u8) << (52 * ((64 * n - 2) / 52))) - 1u8;
    [
        BigUint::from(0u8),
        BigUint::from(1u8),
        &bm - 1u8,
        big(&random_limbs(rng, n)) % &bm,
        ones % &bm,
    ]
    .iter()
    .map(|x| padded(x, n))
    .collect()
}

/// Exponents with their bit lengths: 0, 1, all ones, random of the modulus's size, and a
/// short one.
fn exponents(rng: &mut ChaCha8Rng, bits: usize) -> Vec<(Vec<Limb>, usize)> {
    let n = bits.div_ceil(64);
    vec![
        (vec![0; n], bits),
        (padded(&BigUint::from(1u8), n), bits),
        (vec![u64::MAX; n], bits),
        (random_limbs(rng, n), bits),
        (vec![0b1011], 4),
        (vec![u64::MAX], 0),
    ]
}

/// A random modulus of exactly `bits` bits (its limbs and context) and a random plain base
/// below it (its limbs and residue).
fn random_modulus_and_base(
    rng: &mut ChaCha8Rng,
    bits: usize,
) -> (Vec<Limb>, Modulus, Vec<Limb>, Residue) {
    let ml = moduli(rng, bits).remove(0);
    let m = Modulus::new_vartime(&ml).unwrap();
    let x = random_limbs(rng, ml.len());
    let x = padded(&(big(&x) % big(&ml)), ml.len());
    let base = m.reduce(&x);
    (ml, m, x, base)
}

/// A random exponent of exactly `ebits` bits (its top bit set).
fn exponent_of_exactly(rng: &mut ChaCha8Rng, ebits: usize) -> Vec<Limb> {
    let mut e = random_limbs(rng, ebits.div_ceil(64));
    clear_bits_from(&mut e, ebits);
    let top = ebits - 1;
    e[top >> 6] |= 1 << (top & 63);
    e
}

/// The model, and the instructions where the CPU has them (a note says when `what` ran
/// through the model only).
fn model_and_native(what: &str) -> Vec<PowPath> {
    let mut paths = vec![PowPath::IfmaModel];
    if PowPath::Ifma.is_available() {
        paths.push(PowPath::Ifma);
    } else {
        eprintln!("note: no avx512ifma: {what} ran through the model only");
    }
    paths
}

/// Where the CPU has IFMA: runs `test` (a test of the instructions against the model) with
/// its random generator, and asserts that the counter `runs` grew, proof that the
/// instructions (`what`) ran; elsewhere says that the test is skipped.
fn on_the_instructions(runs: fn() -> u64, what: &str, test: impl FnOnce(&mut ChaCha8Rng)) {
    if !PowPath::Ifma.is_available() {
        eprintln!("skipped: no avx512ifma on this CPU (the model tests ran instead)");
        return;
    }
    let before = runs();
    test(&mut ChaCha8Rng::seed_from_u64(5));
    // Other tests run in parallel and may add runs, never take them away.
    assert!(runs() > before, "the IFMA {what} did not run");
}

/// One exponentiation's job.
fn pow_job<'a>(
    modulus: &'a Modulus,
    base: &'a Residue,
    exp: &'a [Limb],
    exp_bits: usize,
) -> PowJob<'a> {
    PowJob {
        modulus,
        base,
        exp,
        exp_bits,
    }
}

/// Both halves of a pair are the same Montgomery limbs as `want`'s.
fn assert_pair_eq(got: &(Residue, Residue), want: &(Residue, Residue)) {
    assert_eq!(got.0.as_montgomery_limbs(), want.0.as_montgomery_limbs());
    assert_eq!(got.1.as_montgomery_limbs(), want.1.as_montgomery_limbs());
}

fn expected(m: &[Limb], x: &[Limb], e: &[Limb], bits: usize) -> Vec<Limb> {
    let be = big(e) % (BigUint::from(1u8) << bits);
    padded(&big(x).modpow(&be, &big(m)), m.len())
}

/// Of [`exponents`], the ones [`check_size`] also runs on the instructions, against the model:
/// all ones and random, of the modulus's size. The engine runs the same instructions whatever
/// the exponent's value, and `native_operations_equal_the_model` compares each instruction
/// on extreme lanes.
const ON_THE_INSTRUCTIONS: core::ops::Range<usize> = 2..4;

/// One size: every modulus × base × exponent through the model, against num-bigint and the
/// 64-bit exponentiation; where the CPU has IFMA, the [`ON_THE_INSTRUCTIONS`] exponents
/// through the instructions too, single and as both halves of a pair, each equal to the
/// model's result bit for bit (and the run counter proves that they ran). The model's
/// exponentiation, by far the slowest of these, runs once for all of them.
/// The exponentiations on the native IFMA instructions that this thread ran (the tests beside
/// it run theirs on their own threads, and do not count here).
fn ifma_runs_here() -> u64 {
    read_this_thread(Counter::IfmaRuns)
}

fn check_size(bits: usize, seed: u64) {
    let native = PowPath::Ifma.is_available();
    let runs = ifma_runs_here();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for m in moduli(&mut rng, bits) {
        let ctx = Modulus::new_vartime(&m).unwrap();
        for x in bases(&mut rng, &m) {
            let base = ctx.reduce(&x);
            for (k, (e, eb)) in exponents(&mut rng, bits).into_iter().enumerate() {
                let got = ctx
                    .pow_on(PowPath::IfmaModel, &base, &e, eb)
                    .expect("size supported");
                let want = expected(&m, &x, &e, eb);
                assert_eq!(*ctx.retrieve(&got), want, "model: {bits} bits e {eb} bits");
                let limbs = ctx.pow_limbs(&base, &e, eb);
                assert_eq!(
                    got.as_montgomery_limbs(),
                    limbs.as_montgomery_limbs(),
                    "model: not the canonical residue, {bits} bits"
                );
                if native && ON_THE_INSTRUCTIONS.contains(&k) {
                    let single = ctx
                        .pow_on(PowPath::Ifma, &base, &e, eb)
                        .expect("the instructions take the model's sizes");
                    let job = pow_job(&ctx, &base, &e, eb);
                    let pair = pow_pair_on(PowPath::Ifma, &job, &job).expect("a pair");
                    for (r, what) in [
                        (&single, "single"),
                        (&pair.0, "pair a"),
                        (&pair.1, "pair b"),
                    ] {
                        assert_eq!(
                            r.as_montgomery_limbs(),
                            got.as_montgomery_limbs(),
                            "instructions ({what}) against the model: {bits} bits e {eb} bits"
                        );
                    }
                }
            }
        }
    }
    if native {
        assert!(ifma_runs_here() > runs, "the IFMA instructions did not run");
    } else {
        eprintln!("note: no avx512ifma: {bits} bits ran through the model only");
    }
}

/// A pair on the limbs is computed at any size, the engine's or not (a modulus past
/// [`IFMA_MAX_BITS`], one below [`IFMA_MIN_BITS`]), against num-bigint: the pair's contract
/// for [`PowPath::Limbs`], which asks the engine for no layout.
#[test]
fn a_pair_on_the_limbs_runs_at_every_size() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    for bits in [512, IFMA_MAX_BITS + 64] {
        assert!(bits < IFMA_MIN_BITS || !ifma_supports(bits));
        let (ma, a, xa, base_a) = random_modulus_and_base(&mut rng, bits);
        let (mb, b, xb, base_b) = random_modulus_and_base(&mut rng, bits);
        let e = random_limbs(&mut rng, bits.div_ceil(64));
        let (ja, jb) = (
            pow_job(&a, &base_a, &e, bits),
            pow_job(&b, &base_b, &e, bits),
        );
        let (ra, rb) = pow_pair_on(PowPath::Limbs, &ja, &jb).expect("the limbs take any size");
        assert_eq!(
            *a.retrieve(&ra),
            expected(&ma, &xa, &e, bits),
            "{bits} bits, a"
        );
        assert_eq!(
            *b.retrieve(&rb),
            expected(&mb, &xb, &e, bits),
            "{bits} bits, b"
        );
    }
}

/// Every instantiated vector count, through the model: sizes at each count's lower and
/// upper end and the RSA half sizes, and both ends of the tight shapes (10 steps on twelve
/// lanes from 467 to 518 bits, 30 on 32 from 1507 to 1558) and just past them. In three tests,
/// so that they run side by side: the model's exponentiation grows about as bits³, which makes
/// 4096 bits alone the largest of the three, 2494 and 3072 bits together the next.
#[test]
fn model_pow_matches_num_bigint_at_every_size_up_to_2078_bits() {
    for bits in [
        467, 518, 520, 622, 830, 1024, 1038, 1246, 1507, 1536, 1558, 1559, 2048, 2078,
    ] {
        check_size(bits, bits as u64);
    }
}

/// [`model_pow_matches_num_bigint_at_every_size_up_to_2078_bits`]'s sizes of 48 and 60 digits.
#[test]
fn model_pow_matches_num_bigint_at_2494_and_3072_bits() {
    for bits in [2494, 3072] {
        check_size(bits, bits as u64);
    }
}

/// 3118 bits, the largest of 60 digits, on request only (`--ignored`; no CI step runs it): by
/// default 3072 bits runs the same instance with the same digit count (eight 512-bit
/// registers, 64 steps). There R is
/// 2^(52·64), so 3118 bits is no nearer the engine's bound than 3072; what it adds, a limb
/// above the 60 digits, the conversions also meet by default at 518, 1038, 1558 and 2078 bits.
#[test]
#[ignore = "3072 bits runs the same instance and digit count by default"]
fn model_pow_matches_num_bigint_at_3118_bits() {
    check_size(3118, 3118);
}

/// [`model_pow_matches_num_bigint_at_every_size_up_to_2078_bits`]'s largest size.
#[test]
fn model_pow_matches_num_bigint_at_4096_bits() {
    check_size(4096, 4096);
}

/// Small moduli (down to 3 bits, one digit vector) through the model.
#[test]
fn model_pow_matches_num_bigint_for_small_moduli() {
    for bits in [3, 17, 64, 65, 128, 300, 512] {
        check_size(bits, bits as u64);
    }
}

#[test]
fn kept_engine_constants_equal_fresh_ones_and_give_the_same_powers() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    // R's digits: one per digit the modulus needs on the tight shapes (RSA-1024's and
    // RSA-3072's halves), one per lane elsewhere (4096 bits need 79).
    for (bits, d) in [(512, 10), (1024, 20), (1536, 30), (2048, 40), (4096, 80)] {
        for m in moduli(&mut rng, bits) {
            let fresh = Modulus::new_vartime(&m).unwrap();
            let mut kept = fresh.clone();
            kept.keep_engine_constants_on(PowPath::Limbs);
            assert!(
                kept.engine_constants_for_tests().is_none(),
                "kept on the 64-bit path"
            );
            kept.keep_engine_constants_on(PowPath::IfmaModel);
            let (lanes, nv) = layout(bits).unwrap().lanes_nv();
            let len = lanes * nv;
            let got = kept.engine_constants_for_tests().expect("kept");
            // Against num-bigint: m, 2^(104·d − 64·n) mod m and 2^(64·n) mod m in len digits,
            // and k0·m ≡ −1 (mod 2^52).
            let digits = |x: &[u64]| {
                x.iter()
                    .rev()
                    .fold(BigUint::ZERO, |acc, &g| (acc << 52u32) + g)
            };
            let (mb, n) = (big(&m), 64 * m.len());
            let one = BigUint::from(1u8);
            assert_eq!(
                (got.d, got.m.len(), got.into.len(), got.out.len()),
                (d, len, len, len)
            );
            assert_eq!(digits(&got.m), mb);
            assert_eq!(digits(&got.into), (&one << (104 * d - n)) % &mb);
            assert_eq!(digits(&got.out), (&one << n) % &mb);
            let mask = (&one << 52u32) - 1u8;
            assert_eq!((BigUint::from(got.k0) * &mb + 1u8) & &mask, BigUint::ZERO);
            assert_eq!(kept.engine_digits_for_ct_tests().len(), 3);
            let x = kept.reduce(&random_limbs(&mut rng, m.len()));
            let e = random_limbs(&mut rng, m.len());
            let limbs = fresh.pow_limbs(&x, &e, bits);
            let got = kept.pow_on(PowPath::IfmaModel, &x, &e, bits).unwrap();
            assert_eq!(
                got.as_montgomery_limbs(),
                limbs.as_montgomery_limbs(),
                "{bits} bits, single"
            );
            let job = pow_job(&kept, &x, &e, bits);
            let (a, b) = pow_pair_on(PowPath::IfmaModel, &job, &job).unwrap();
            assert_eq!(
                (&a.as_montgomery_limbs(), &b.as_montgomery_limbs()),
                (&limbs.as_montgomery_limbs(), &limbs.as_montgomery_limbs()),
                "{bits} bits, pair"
            );
            // The exponentiations take the kept constants, not fresh ones, at their digit
            // count, and so does the batch engine, whose digits are R's here.
            assert!(matches!(Prepared::new(&job, d, len).c, Cow::Borrowed(_)));
            let batch_d = bignum::modular::ifma_engine::batch::batch_digits(bits).unwrap();
            assert_eq!(batch_d, d);
            assert!(matches!(Prepared::new(&job, d, d).c, Cow::Borrowed(_)));
            assert!(matches!(Prepared::new(&job, d - 1, d).c, Cow::Owned(_)));
            let batch =
                bignum::modular::ifma_engine::batch::pow_batch_on(PowPath::IfmaModel, &[job]);
            assert_eq!(
                batch.unwrap()[0].as_montgomery_limbs(),
                limbs.as_montgomery_limbs(),
                "{bits} bits, batch"
            );
        }
    }
    let mut huge = Modulus::new_vartime(&vec![u64::MAX; IFMA_MAX_BITS.div_ceil(64) + 1]).unwrap();
    huge.keep_engine_constants_on(PowPath::IfmaModel);
    assert!(
        huge.engine_constants_for_tests().is_none(),
        "kept outside the engine's sizes"
    );
}

#[test]
fn sizes_outside_the_engine_are_refused() {
    assert!(!ifma_supports(IFMA_MAX_BITS + 1));
    let m = vec![u64::MAX; IFMA_MAX_BITS.div_ceil(64) + 1];
    let ctx = Modulus::new_vartime(&m).unwrap();
    let one = ctx.one();
    assert!(ctx.pow_on(PowPath::IfmaModel, &one, &[3], 2).is_none());
    assert!(ctx.pow_on(PowPath::Limbs, &one, &[3], 2).is_some());
}

/// The interleaved pair equals the two single exponentiations, for halves of equal and of
/// different bit lengths and exponent lengths; moduli of different digit counts are
/// refused by the pair and done one after the other by `pow_pair`.
#[test]
fn model_pair_equals_two_singles() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    // 512/480 share the tight shape's 10 steps, 512/600 one shape with 10 and 12 digits (so
    // both take 12 steps).
    for (ba, bb) in [
        (512, 480),
        (512, 600),
        (1024, 1024),
        (1024, 1000),
        (1536, 1530),
        (2048, 2048),
        (1024, 2048),
    ] {
        let ma = moduli(&mut rng, ba).remove(0);
        let mb = moduli(&mut rng, bb).remove(2);
        let (ca, cb) = (
            Modulus::new_vartime(&ma).unwrap(),
            Modulus::new_vartime(&mb).unwrap(),
        );
        let (xa, xb) = (ca.reduce(&random_limbs(&mut rng, 3)), cb.reduce(&[5]));
        let ea = random_limbs(&mut rng, ba.div_ceil(64));
        let eb = random_limbs(&mut rng, bb.div_ceil(64) - 1);
        let ja = pow_job(&ca, &xa, &ea, ba);
        let jb = pow_job(&cb, &xb, &eb, 64 * eb.len());
        let want = (
            ca.pow_limbs(&xa, &ea, ba),
            cb.pow_limbs(&xb, &eb, 64 * eb.len()),
        );
        let same_count = layout(ba).map(|l| l.lanes_nv()) == layout(bb).map(|l| l.lanes_nv());
        match pow_pair_on(PowPath::IfmaModel, &ja, &jb) {
            Some(got) => {
                assert!(same_count);
                assert_pair_eq(&got, &want);
            }
            None => assert!(!same_count, "pair refused for {ba}/{bb} bits"),
        }
        assert_pair_eq(&pow_pair(&ja, &jb), &want);
    }
}

/// Public exponents (RSA's e and others, of different lengths, zero), paired, through the
/// model and (where the CPU has it) the instructions, against `pow_vartime`.
#[test]
fn pow_vartime_on_the_engine_matches_num_bigint() {
    // pow_vartime takes the engine (where the path in use is IFMA) from IFMA_MIN_BITS
    // moduli and VARTIME_MIN_EXP_BITS exponents: both sides of each threshold, against
    // num-bigint, and the engine proven to have run where the CPU has it.
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let engine = pow_path() == PowPath::Ifma;
    if !engine {
        eprintln!("note: the path in use is not ifma: pow_vartime ran on the limbs only");
    }
    for bits in [IFMA_MIN_BITS - 8, 1024, 2048, 3072, 4096] {
        let (ml, m, x, base) = random_modulus_and_base(&mut rng, bits);
        for ebits in [VARTIME_MIN_EXP_BITS - 1, VARTIME_MIN_EXP_BITS, bits] {
            let e = exponent_of_exactly(&mut rng, ebits);
            let before = ifma_runs_here();
            let got = m.retrieve(&m.pow_vartime(&base, &e));
            assert_eq!(
                *got,
                expected(&ml, &x, &e, ebits),
                "{bits} bits, e of {ebits}"
            );
            let took = engine && bits >= IFMA_MIN_BITS && ebits >= VARTIME_MIN_EXP_BITS;
            if took {
                assert!(
                    ifma_runs_here() > before,
                    "{bits} bits, e of {ebits}: not on the engine"
                );
            }
        }
    }
}

#[test]
fn sliding_window_public_pow_matches_num_bigint() {
    // One public exponent from SLIDING_MIN_BITS bits runs by sliding window: on the model
    // everywhere, and on the instructions where the CPU has them, against num-bigint, with
    // exponents whose windows end at every offset (dense, sparse, runs of zeros longer than
    // a window, the shortest length that slides, one below it).
    let mut rng = ChaCha8Rng::seed_from_u64(61);
    let paths = model_and_native("the public pows by sliding window");
    for bits in [1024, 2048] {
        let (ml, m, x, base) = random_modulus_and_base(&mut rng, bits);
        let mut exps: Vec<Vec<Limb>> = vec![
            vec![Limb::MAX; 4],
            vec![1 << 63 | 1; 2],
            vec![0x8000_0000_0000_0041, 0x0400_0000_0000_0000, 0, 1 << 40],
            vec![1 << (SLIDING_MIN_BITS - 1)],
            vec![(1 << (SLIDING_MIN_BITS - 2)) | 0x15],
        ];
        for ebits in [SLIDING_MIN_BITS, 300, bits] {
            exps.push(exponent_of_exactly(&mut rng, ebits));
        }
        for e in &exps {
            let ebits = public_bits(e);
            for &path in &paths {
                let r = m
                    .run_single(path, &base, e, ebits, Exponent::Public)
                    .expect("the engine takes this size");
                assert_eq!(
                    *m.retrieve(&r),
                    expected(&ml, &x, e, ebits),
                    "{} {bits} bits, e of {ebits} bits",
                    path.name()
                );
            }
        }
    }
}

#[test]
fn public_exponent_pairs_equal_pow_vartime() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let paths = model_and_native("the public pairs");
    for bits in [512, 1024, 1536, 2048] {
        let ms = moduli(&mut rng, bits);
        let (ca, cb) = (
            Modulus::new_vartime(&ms[0]).unwrap(),
            Modulus::new_vartime(&ms[2]).unwrap(),
        );
        let (xa, xb) = (
            ca.reduce(&random_limbs(&mut rng, 2)),
            cb.reduce(&ms[2].iter().map(|l| l >> 1).collect::<Vec<_>>()),
        );
        let exps: [(&[Limb], &[Limb]); 4] = [
            (&[65537], &[65537]),
            (&[3], &[65537]),
            (&[0], &[1 << 63, 5]),
            (&[u64::MAX, 1], &[0]),
        ];
        for (ea, eb) in exps {
            let want = (ca.pow_vartime(&xa, ea), cb.pow_vartime(&xb, eb));
            let jobs = [
                pow_job(&ca, &xa, ea, public_bits(ea)),
                pow_job(&cb, &xb, eb, public_bits(eb)),
            ];
            for &path in &paths {
                let [ra, rb] = run_two(
                    path,
                    layout(bits).unwrap().lanes_nv(),
                    [&jobs[0], &jobs[1]],
                    Exponent::Public,
                )
                .unwrap();
                assert_pair_eq(&(ra, rb), &want);
            }
            let (pa, pb) = (
                PowJobVartime {
                    modulus: &ca,
                    base: &xa,
                    exp: ea,
                },
                PowJobVartime {
                    modulus: &cb,
                    base: &xb,
                    exp: eb,
                },
            );
            assert_pair_eq(&pow_pair_vartime(&pa, &pb), &want);
        }
    }
}

/// The digit conversions round-trip and place bits where 52-bit digits put them.
#[test]
fn digits_round_trip() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for n in 1..=20 {
        let x = random_limbs(&mut rng, n);
        let d = (64 * n).div_ceil(52);
        let digits = to_digits(&x, d);
        let bx = big(&x);
        for (j, &dg) in digits.iter().enumerate() {
            let want = (&bx >> (52 * j)) % (BigUint::from(1u8) << 52);
            assert_eq!(BigUint::from(dg), want, "digit {j} of {n} limbs");
        }
        let mut back = vec![0; n];
        from_digits(&mut back, &digits);
        assert_eq!(back, x);
    }
}

/// Where the CPU has IFMA: each operation of the trait on the instructions equals the
/// model, bit for bit, on extreme and random lanes, for both register widths.
#[cfg(target_arch = "x86_64")]
#[test]
fn native_operations_equal_the_model() {
    use bignum::mpn::x86_64::ifma_instructions::{Avx512Ifma256, Avx512Ifma512};
    let Some(tok) = bignum::cpu::ifma() else {
        eprintln!("skipped: no avx512ifma on this CPU (the model tests ran instead)");
        return;
    };
    Avx512Ifma256::new(tok).run(CompareOps::<4>);
    Avx512Ifma512::new(tok).run(CompareOps::<8>);
}

/// Runs every operation on an implementation of L lanes and on the model.
struct CompareOps<const L: usize>;

impl<const L: usize> Task for CompareOps<L> {
    type Output = ();

    #[inline(always)]
    fn run<I: Ifma52>(self, i: I) {
        assert_eq!(I::LANES, L);
        compare_ops(i, Model::<L>);
    }
}

#[inline(always)]
fn compare_ops<I: Ifma52, const L: usize>(i: I, m: Model<L>) {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let extremes = [
        0,
        1,
        MASK52,
        MASK52 + 1,
        u64::MAX,
        1 << 63,
        MASK52 - 1,
        0xFFF,
    ];
    let vec = |rng: &mut ChaCha8Rng, round: usize| -> [u64; L] {
        core::array::from_fn(|j| {
            if round.is_multiple_of(2) {
                extremes[(round / 2 + j * 3 + rng.next_u64() as usize) % extremes.len()]
            } else {
                rng.next_u64()
            }
        })
    };
    let nat = |v: [u64; L]| i.load(&v);
    let back = |v: I::V| {
        let mut out = [0; L];
        i.store(&mut out, v);
        out
    };
    for round in 0..2000 {
        let (a, b, c) = (
            vec(&mut rng, round),
            vec(&mut rng, round + 1),
            vec(&mut rng, round),
        );
        let k = (rng.next_u64() & 0xFF) as u8;
        let x = rng.next_u64();
        let (na, nb, nc) = (nat(a), nat(b), nat(c));
        assert_eq!(
            back(i.madd52lo(na, nb, nc)),
            m.madd52lo(a, b, c),
            "madd52lo"
        );
        assert_eq!(
            back(i.madd52hi(na, nb, nc)),
            m.madd52hi(a, b, c),
            "madd52hi"
        );
        assert_eq!(
            back(i.madd52lo_mask(na, k, nb, nc)),
            m.madd52lo_mask(a, k, b, c),
            "madd52lo_mask"
        );
        assert_eq!(
            back(i.madd52hi_mask(na, k, nb, nc)),
            m.madd52hi_mask(a, k, b, c),
            "madd52hi_mask"
        );
        assert_eq!(
            back(i.interleave_lo(na, nb)),
            m.interleave_lo(a, b),
            "interleave_lo"
        );
        assert_eq!(
            back(i.interleave_hi(na, nb)),
            m.interleave_hi(a, b),
            "interleave_hi"
        );
        assert_eq!(back(i.add(na, nb)), m.add(a, b), "add");
        assert_eq!(back(i.and(na, nb)), m.and(a, b), "and");
        assert_eq!(back(i.srl52(na)), m.srl52(a), "srl52");
        assert_eq!(back(i.shift_down(na, nb)), m.shift_down(a, b), "shift_down");
        assert_eq!(back(i.shift_up(na, nb)), m.shift_up(a, b), "shift_up");
        assert_eq!(i.lane1(na), m.lane1(a), "lane1");
        assert_eq!(back(i.set_lane0(na, x)), m.set_lane0(a, x), "set_lane0");
        assert_eq!(back(i.splat(x)), m.splat(x), "splat");
        assert_eq!(back(i.zero()), m.zero(), "zero");
        let lanes = if L == 8 { 0xFF } else { 0x0F };
        assert_eq!(i.cmpgt_mask(na, nb) & lanes, m.cmpgt_mask(a, b), "cmpgt");
        assert_eq!(i.cmpeq_mask(na, nb) & lanes, m.cmpeq_mask(a, b), "cmpeq");
        assert_eq!(
            i.cmpeq_mask(na, na) & lanes,
            m.cmpeq_mask(a, a),
            "cmpeq self"
        );
        assert_eq!(
            back(i.mask_sub(nc, k, na, nb)),
            m.mask_sub(c, k, a, b),
            "mask_sub"
        );
    }
}

/// The squaring against the AMM of a number by itself, through the model, on every shape the
/// engine compiles (the two must give the same digits: see `ams`), for one number and for
/// pairs; and against num-bigint: a²·2^(−52·S) mod m, below 2m.
#[test]
fn model_squaring_equals_the_amm_and_num_bigint() {
    fn check<const L: usize, const NV: usize, const S: usize, const K: usize>(seed: u64) {
        use bignum::modular::ifma_engine::amm::{Operands, amm, load_m, parts};
        use bignum::modular::ifma_engine::ams::ams;
        let (i, d) = (Model::<L>, NV * L);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let digit = |rng: &mut ChaCha8Rng, all_ones: bool| {
            if all_ones {
                MASK52
            } else {
                rng.next_u64() & MASK52
            }
        };
        for round in 0..40 {
            // K moduli of S digits below R/4 (the engine's bound), odd; a_k < 2·m_k.
            let mut ms = vec![0u64; K * d];
            let mut xs = vec![0u64; K * d];
            let mut k0s = [0u64; K];
            let r = BigUint::from(1u8) << (52 * S);
            for k in 0..K {
                let m = &mut ms[k * d..k * d + S];
                for x in m.iter_mut() {
                    *x = digit(&mut rng, round % 5 == 0);
                }
                m[0] |= 1;
                m[S - 1] >>= 2 + (round % 3);
                m[S - 1] |= 1 << 40;
                let inv = (0..6).fold(1u64, |v, _| {
                    v.wrapping_mul(2u64.wrapping_sub(m[0].wrapping_mul(v)))
                });
                k0s[k] = inv.wrapping_neg() & MASK52;
                let mb = digits_value(m);
                // a: 2m − 1, m − 1, or random below 2m.
                let a = match round % 4 {
                    0 => &mb * 2u8 - 1u8,
                    1 => &mb - 1u8,
                    _ => {
                        digits_value(&(0..S).map(|_| rng.next_u64() & MASK52).collect::<Vec<_>>())
                            % (&mb * 2u8)
                    }
                };
                for (j, x) in xs[k * d..(k + 1) * d].iter_mut().enumerate() {
                    *x = ((&a >> (52 * j)) & BigUint::from(MASK52))
                        .iter_u64_digits()
                        .next()
                        .unwrap_or(0);
                }
            }
            let ops: [Operands<'_>; K] = core::array::from_fn(|k| Operands {
                m: &ms[k * d..(k + 1) * d],
                into: &[],
                out: &[],
                base: &[],
                k0: k0s[k],
                exp: &[],
            });
            let mv = load_m::<Model<L>, NV, K>(i, &ops);
            let got = ams::<Model<L>, NV, S, K>(i, parts(&xs, d), &ops, &mv);
            let want = amm::<Model<L>, NV, S, K>(i, parts(&xs, d), parts(&xs, d), &ops, &mv);
            assert_eq!(got, want, "L {L} NV {NV} S {S} K {K} round {round}");
            for k in 0..K {
                let flat: Vec<u64> = got[k].iter().flatten().copied().collect();
                let (m, a) = (
                    digits_value(&ms[k * d..(k + 1) * d]),
                    digits_value(&xs[k * d..(k + 1) * d]),
                );
                let value = digits_value(&flat);
                assert!(value < &m * 2u8, "L {L} NV {NV} S {S}: not below 2m");
                assert_eq!(
                    (&value * &r) % &m,
                    (&a * &a) % &m,
                    "L {L} NV {NV} S {S}: not a²/R"
                );
            }
        }
    }
    fn digits_value(d: &[u64]) -> BigUint {
        d.iter()
            .rev()
            .fold(BigUint::default(), |v, &x| (v << 52) + x)
    }
    check::<4, 3, 10, 1>(1);
    check::<4, 3, 10, 2>(2);
    check::<4, 3, 12, 2>(3);
    check::<4, 4, 16, 2>(4);
    check::<4, 5, 20, 1>(5);
    check::<4, 5, 20, 2>(6);
    check::<4, 6, 24, 1>(7);
    check::<8, 4, 30, 2>(8);
    check::<8, 4, 32, 2>(9);
    check::<8, 5, 40, 2>(10);
    check::<8, 10, 80, 1>(11);
}

/// Every compiled instance of the single and paired engine, on both widths, through the model
/// (and the instructions where the CPU has them) against the 64-bit limbs and num-bigint:
/// `layout_of` lays each size out on its instance, `run` finds it, and it computes correctly.
/// Short exponents: the loop is the same at every length.
#[test]
fn every_compiled_shape_runs_on_the_model() {
    use bignum::backend::{Shape, Width};
    use bignum::modular::ifma_engine::shape::{
        PAIR_256, PAIR_512, SINGLE_256, SINGLE_512, layout_of,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(50);
    let paths = model_and_native("every compiled shape");
    for (width, singles, pairs) in [
        (Width::Bits256, SINGLE_256, PAIR_256),
        (Width::Bits512, SINGLE_512, PAIR_512),
    ] {
        for &(nv, steps) in singles {
            // The largest modulus of `steps` digits: 52·steps − 2 bits.
            let bits = 52 * steps - 2;
            let interleave = pairs.contains(&(nv, steps));
            let lay = layout_of(
                bits,
                Shape {
                    width,
                    interleave: true,
                },
            )
            .unwrap();
            assert_eq!(
                (lay.lanes_nv(), lay.steps, lay.interleave),
                ((width.lanes(), nv), steps, interleave),
                "{bits} bits on {width:?}"
            );
            let (ml, ma, xa, a) = random_modulus_and_base(&mut rng, bits);
            let (_, mb, _, b) = random_modulus_and_base(&mut rng, bits);
            let e = exponent_of_exactly(&mut rng, 70);
            let want = padded(&big(&xa).modpow(&big(&e), &big(&ml)), ml.len());
            let (ja, jb) = (pow_job(&ma, &a, &e, 70), pow_job(&mb, &b, &e, 70));
            let limbs = (ma.pow_limbs(&a, &e, 70), mb.pow_limbs(&b, &e, 70));
            for &path in &paths {
                let r = run_one(path, lay.lanes_nv(), &ja, Exponent::Secret)
                    .unwrap_or_else(|| panic!("no single instance ({nv}, {steps}) on {width:?}"));
                assert_eq!(*ma.retrieve(&r), want, "{bits} bits, {width:?}, {path:?}");
                if interleave {
                    let [ra, rb] = run_two(path, lay.lanes_nv(), [&ja, &jb], Exponent::Secret)
                        .unwrap_or_else(|| panic!("no pair instance ({nv}, {steps})"));
                    assert_pair_eq(&(ra, rb), &limbs);
                }
            }
        }
    }
}

/// `pow_pair_shaped` in every shape at RSA's sizes (the candidates `pow_paths --shapes` and the
/// device script time), on the model, against the limbs; a shape with no instance for a size
/// gives none, never a wrong answer.
#[test]
fn each_shape_at_rsa_sizes_equals_the_limbs() {
    use bignum::backend::{Shape, Width};
    use bignum::modular::ifma_engine::entry_points::pow_pair_shaped;
    let mut rng = ChaCha8Rng::seed_from_u64(51);
    for bits in [1024, 1536, 2048] {
        let (_, ma, _, a) = random_modulus_and_base(&mut rng, bits);
        let (_, mb, _, b) = random_modulus_and_base(&mut rng, bits);
        let e = exponent_of_exactly(&mut rng, 40);
        let want = (ma.pow_limbs(&a, &e, 40), mb.pow_limbs(&b, &e, 40));
        let (ja, jb) = (pow_job(&ma, &a, &e, 40), pow_job(&mb, &b, &e, 40));
        let mut ran = 0;
        for width in [Width::Bits256, Width::Bits512] {
            for interleave in [true, false] {
                let shape = Shape { width, interleave };
                if let Some(got) = pow_pair_shaped(PowPath::IfmaModel, shape, &ja, &jb) {
                    assert_pair_eq(&got, &want);
                    ran += 1;
                }
            }
        }
        // 1024 bits: 256-bit registers only; 1536: all four; 2048: no 256-bit pair (ten
        // registers a number).
        let want = match bits {
            1024 => 2,
            1536 => 4,
            _ => 3,
        };
        assert_eq!(ran, want, "{bits} bits");
    }
}
