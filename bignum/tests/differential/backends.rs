//! Every kernel of every back end this CPU runs gives exactly the limbs and carry of `PORTABLE`.
//!
//! Inputs: proptest random (limbs biased towards 0, 1 and all-ones so carries ripple), and a
//! sweep of sizes 0..=64, 100 and 1000 over fixed patterns (all-zero, all-ones, top limb 0 or
//! `MAX`, random) and multipliers 0, 1, `MAX`, 2⁶³ and random, with random prior contents of
//! `r` (which the accumulating kernels read and the others must overwrite).
//!
//! The Montgomery kernels (`mont_mul`, `redc_1`, `redc_1_below_r`) are also checked against num-bigint, on every
//! modulus size 1..=64 with all-ones, top-bit-set and top-bit-clear moduli and operands 0, 1,
//! m-1, and on proptest random moduli of up to 40 limbs.
//!
//! `r` aliasing `a` cannot be expressed through the safe API (`&mut` and `&` to the same
//! limbs), so there is no aliasing case to test.

use bignum::Limb;
use bignum::mpn::{self, Kernels, MontMulKernel as MontMul, PORTABLE};
use num_bigint::BigUint;
use proptest::prelude::*;
use testkit::SplitMix64;

use crate::common::{self, edge_limb};

/// A two-operand kernel (`add_n`, `sub_n`).
type KernelN = fn(&mut [Limb], &[Limb], &[Limb]) -> Limb;
/// A one-limb-multiplier kernel (`mul_1`, `addmul_1`, `submul_1`).
type Kernel1 = fn(&mut [Limb], &[Limb], Limb) -> Limb;
/// A kernel run on its output only, the inputs bound: returns the carry or high limb.
type Run<'f> = &'f dyn Fn(&mut [Limb]) -> Limb;

/// The back ends to compare, printed once per test so the log says what ran.
fn backends(test: &str) -> Vec<&'static Kernels> {
    let all = mpn::all_available();
    let names: Vec<&str> = all.iter().map(|k| k.name).collect();
    eprintln!("{test}: back ends {names:?}");
    all
}

/// Runs all five kernels of `k` and of `PORTABLE` on the same inputs and requires identical
/// output limbs and carries. `r0` is the prior content of the output.
fn assert_kernels_equal(k: &Kernels, a: &[Limb], b: &[Limb], r0: &[Limb], m: Limb, case: &str) {
    let n = a.len();
    assert_eq!(b.len(), n);
    assert_eq!(r0.len(), n);
    let name = k.name;
    // A kernel of PORTABLE (`reference`) and the same of `k` (`tested`), from the same prior
    // content.
    let check = |kernel: &str, carry: &str, case: &str, reference: Run, tested: Run| {
        let mut want = r0.to_vec();
        let want_c = reference(&mut want);
        let mut got = r0.to_vec();
        let got_c = tested(&mut got);
        assert_eq!(
            got, want,
            "{kernel} limbs differ: {name} vs portable, n = {n}, {case}"
        );
        assert_eq!(
            got_c, want_c,
            "{kernel} {carry} differs: {name} vs portable, n = {n}, {case}"
        );
    };

    let two_arg: [(&str, KernelN, KernelN); 2] = [
        ("add_n", PORTABLE.add_n, k.add_n),
        ("sub_n", PORTABLE.sub_n, k.sub_n),
    ];
    for (kernel, reference, tested) in two_arg {
        check(kernel, "carry", case, &|r| reference(r, a, b), &|r| {
            tested(r, a, b)
        });
    }

    let one_limb: [(&str, Kernel1, Kernel1); 3] = [
        ("mul_1", PORTABLE.mul_1, k.mul_1),
        ("addmul_1", PORTABLE.addmul_1, k.addmul_1),
        ("submul_1", PORTABLE.submul_1, k.submul_1),
    ];
    let case = format!("b = {m:#x}, {case}");
    for (kernel, reference, tested) in one_limb {
        check(kernel, "high limb", &case, &|r| reference(r, a, m), &|r| {
            tested(r, a, m)
        });
    }
}

/// The operand patterns of the sweep, each as (name, limbs).
fn patterns(n: usize, rng: &mut SplitMix64) -> Vec<(&'static str, Vec<Limb>)> {
    let mut top0 = rng.limbs(n);
    let mut top_max = rng.limbs(n);
    if n > 0 {
        top0[n - 1] = 0;
        top_max[n - 1] = Limb::MAX;
    }
    vec![
        ("zero", vec![0; n]),
        ("ones", vec![Limb::MAX; n]),
        ("one", (0..n).map(|i| Limb::from(i == 0)).collect()),
        ("random", rng.limbs(n)),
        ("top limb 0", top0),
        ("top limb MAX", top_max),
    ]
}

/// Runs `cases` on every back end (see [`backends`]) with one generator seeded by `seed`,
/// and reports the number of cases it counted; both log lines name the test (the test
/// harness names each test's thread after it).
fn for_each_backend(seed: u64, cases: impl Fn(&Kernels, &mut SplitMix64, &mut u64)) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let mut rng = SplitMix64::new(seed);
    let mut count = 0u64;
    for k in backends(test) {
        cases(k, &mut rng, &mut count);
    }
    eprintln!("{test}: {count} cases");
}

fn sweep_sizes() -> Vec<usize> {
    (0..=64).chain([100, 1000]).collect()
}

#[test]
fn adx_is_available_when_the_cpu_has_it() {
    let names: Vec<&str> = backends("adx_is_available_when_the_cpu_has_it")
        .iter()
        .map(|k| k.name)
        .collect();
    assert_eq!(names[0], "portable", "portable must come first");
    #[cfg(target_arch = "x86_64")]
    {
        let has_adx = std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("adx");
        assert_eq!(
            names.contains(&"adx"),
            has_adx,
            "the CPU {} BMI2+ADX but all_available() is {names:?}",
            if has_adx { "has" } else { "lacks" }
        );
        assert_eq!(bignum::cpu::adx().is_some(), has_adx);
    }
    for name in &names {
        let k = mpn::by_name(name).unwrap();
        assert_eq!(k.name, *name);
    }
    assert!(mpn::by_name("no-such-backend").is_none());
}

#[test]
fn dispatched_calls_use_the_backend_kernels_names() {
    let all = backends("dispatched_calls_use_the_backend_kernels_names");
    let chosen = mpn::kernels();
    eprintln!("kernels() = {}", chosen.name);
    match std::env::var("BIGNUM_BACKEND") {
        Ok(wanted) if all.iter().any(|k| k.name == wanted) => assert_eq!(chosen.name, wanted),
        _ => assert_eq!(
            chosen.name,
            all.last().unwrap().name,
            "the fastest is the default"
        ),
    }
    let named = mpn::by_name(chosen.name).unwrap();
    assert!(std::ptr::eq(chosen, named));
    assert!(std::ptr::fn_addr_eq(chosen.addmul_1, named.addmul_1));
    if chosen.name != "portable" {
        // A real other back end: its kernels are other functions than the portable ones.
        assert!(!std::ptr::fn_addr_eq(chosen.addmul_1, PORTABLE.addmul_1));
    }

    let mut rng = SplitMix64::new(7);
    let a = rng.limbs(37);
    let r0 = rng.limbs(37);
    let m = rng.next_u64();
    let mut via_mpn = r0.clone();
    let c_mpn = mpn::addmul_1(&mut via_mpn, &a, m);
    let mut via_table = r0.clone();
    let c_table = (chosen.addmul_1)(&mut via_table, &a, m);
    assert_eq!((via_mpn, c_mpn), (via_table, c_table));
}

#[test]
fn all_kernels_equal_portable_on_sized_sweep() {
    for_each_backend(0x5EED, |k, rng, count| {
        for n in sweep_sizes() {
            let pats = patterns(n, rng);
            let multipliers = [0, 1, 2, Limb::MAX, Limb::MAX - 1, 1 << 63, rng.next_u64()];
            let outputs = [vec![0; n], vec![Limb::MAX; n], rng.limbs(n)];
            for (an, a) in &pats {
                for (bn, b) in &pats {
                    for r0 in &outputs {
                        for &m in &multipliers {
                            let case = format!("a {an}, b {bn}");
                            assert_kernels_equal(k, a, b, r0, m, &case);
                            *count += 1;
                        }
                    }
                }
            }
        }
    });
}

#[test]
fn carries_ripple_through_every_length() {
    // Known answers, not just agreement: MAX…MAX + 1 and 0…0 - 1 ripple through all n limbs.
    for k in backends("carries_ripple_through_every_length") {
        for n in sweep_sizes().into_iter().filter(|&n| n > 0) {
            let ones = vec![Limb::MAX; n];
            let mut one = vec![0; n];
            one[0] = 1;
            let mut r = vec![7; n];
            assert_eq!(
                (k.add_n)(&mut r, &ones, &one),
                1,
                "{} add_n n = {n}",
                k.name
            );
            assert_eq!(r, vec![0; n]);
            assert_eq!(
                (k.sub_n)(&mut r, &vec![0; n], &one),
                1,
                "{} sub_n n = {n}",
                k.name
            );
            assert_eq!(r, ones);
            // (2^(64n) - 1)·(2^64 - 1) = (2^64 - 2)·2^(64n) + 2^(64n) - 2^64 + 1:
            // limbs [1, MAX, …, MAX], high limb MAX - 1.
            let mut want = ones.clone();
            want[0] = 1;
            let mut r = vec![7; n];
            assert_eq!(
                (k.mul_1)(&mut r, &ones, Limb::MAX),
                Limb::MAX - 1,
                "{} mul_1",
                k.name
            );
            assert_eq!(r, want);
            // (2^(64n) - 1) + (2^(64n) - 1)·(2^64 - 1) = (2^(64n) - 1)·2^64:
            // limbs [0, MAX, …, MAX], high limb MAX.
            want[0] = 0;
            let mut r = ones.clone();
            assert_eq!(
                (k.addmul_1)(&mut r, &ones, Limb::MAX),
                Limb::MAX,
                "{} addmul_1",
                k.name
            );
            assert_eq!(r, want);
            // 0 - 1·(2^(64n) - 1) = 1 - 2^(64n): limbs [1, 0, …] and borrow 1.
            let mut r = vec![0; n];
            assert_eq!((k.submul_1)(&mut r, &ones, 1), 1, "{} submul_1", k.name);
            assert_eq!(r, one);
        }
    }
}

/// n limbs for a, b and r0, plus a multiplier; n mostly small (every unrolling remainder), up
/// to 300.
fn operands() -> impl Strategy<Value = (Vec<Limb>, Vec<Limb>, Vec<Limb>, Limb)> {
    prop_oneof![3 => 0usize..=40, 1 => 0usize..=300].prop_flat_map(|n| {
        (
            prop::collection::vec(edge_limb(), n),
            prop::collection::vec(edge_limb(), n),
            prop::collection::vec(edge_limb(), n),
            edge_limb(),
        )
    })
}

proptest! {
    #![proptest_config(common::config())]

    #[test]
    fn all_kernels_equal_portable_on_random_inputs((a, b, r0, m) in operands()) {
        for k in mpn::all_available() {
            assert_kernels_equal(k, &a, &b, &r0, m, "proptest");
        }
    }
}

// ---- Montgomery kernels: `mont_mul` and `redc_1` ----

/// m' = -m⁻¹ mod 2⁶⁴ for odd `m0`, by Newton's iteration x ← x·(2 - m·x): x = 1 is correct
/// to one bit (m odd) and each step doubles the correct bits, so six steps give 64.
fn minv(m0: Limb) -> Limb {
    let mut x: Limb = 1;
    for _ in 0..6 {
        x = x.wrapping_mul(2u64.wrapping_sub(m0.wrapping_mul(x)));
    }
    assert_eq!(m0.wrapping_mul(x), 1, "test bug: m0 must be odd");
    x.wrapping_neg()
}

/// Checks the unreduced Montgomery result `r + hi·R` against num-bigint: it is < 2m and
/// (r + hi·R)·R ≡ x (mod m), i.e. it is x·R⁻¹ mod m or that plus m.
fn assert_montgomery(r: &[Limb], hi: Limb, x: &BigUint, m: &[Limb], what: &str) {
    let n = m.len();
    let big_m = common::big(m);
    let v = common::big(r) + (BigUint::from(hi) << (64 * n));
    assert!(hi <= 1, "{what}: high limb {hi} > 1, n = {n}");
    assert!(v < &big_m << 1, "{what}: result ≥ 2m, n = {n}");
    let reduced = (&v << (64 * n)) % &big_m;
    assert_eq!(reduced, x % &big_m, "{what}: not x·R⁻¹ mod m, n = {n}");
}

/// Runs `mont_mul` and `redc_1` of `k` and of `PORTABLE` on a, b (< m) and requires identical
/// limbs and high limbs, and checks both against num-bigint.
fn assert_montgomery_kernels(k: &Kernels, a: &[Limb], b: &[Limb], m: &[Limb], case: &str) {
    let n = m.len();
    let name = k.name;
    let mi = minv(m[0]);
    let (ba, bb) = (common::big(a), common::big(b));

    let kernels: [(MontMul, &str); 2] = [(PORTABLE.mont_mul, "portable"), (k.mont_mul, name)];
    let mut results = Vec::new();
    for (f, who) in kernels {
        // Prior contents of r and scratch are garbage the kernel must not read.
        let mut r = vec![0xDEAD_BEEF; n];
        let mut scratch = vec![Limb::MAX; mpn::mont_mul_scratch_len(n)];
        let hi = f(&mut r, a, b, m, mi, &mut scratch);
        assert_montgomery(&r, hi, &(&ba * &bb), m, &format!("mont_mul {who}, {case}"));
        results.push((r, hi));
    }
    assert_eq!(
        results[0], results[1],
        "mont_mul differs: {name} vs portable, n = {n}, {case}"
    );

    // redc_1 on t = a·b (< m²) and on t = (m-1)·R + R - 1, the largest t < m·R.
    let mut m_minus_1 = m.to_vec();
    m_minus_1[0] -= 1; // m is odd: no borrow
    let ts = [
        common::limbs(&(&ba * &bb), 2 * n),
        [vec![Limb::MAX; n], m_minus_1].concat(),
    ];
    for t in ts {
        let bt = common::big(&t);
        let mut results = Vec::new();
        for (f, who) in [(PORTABLE.redc_1, "portable"), (k.redc_1, name)] {
            let mut r = vec![0xDEAD_BEEF; n];
            let mut tt = t.clone();
            let hi = f(&mut r, &mut tt, m, mi);
            assert_montgomery(&r, hi, &bt, m, &format!("redc_1 {who}, {case}"));
            results.push((r, hi));
        }
        assert_eq!(
            results[0], results[1],
            "redc_1 differs: {name} vs portable, n = {n}, {case}"
        );
        assert_redc_1_below_r(k, &t, m, case);
    }
}

/// `redc_1_below_r` of `k` and of `PORTABLE` on t (any 2n limbs): r < R (n limbs, nothing else
/// returned), r ≡ t·R⁻¹ (mod m), and the same limbs from both.
fn assert_redc_1_below_r(k: &Kernels, t: &[Limb], m: &[Limb], case: &str) {
    let mi = minv(m[0]);
    assert_below_r(k, "redc_1_below_r", &common::big(t), m, case, |k, r| {
        (k.redc_1_below_r)(r, &mut t.to_vec(), m, mi);
    });
}

/// A kernel that keeps its result below R (`run`: the kernel of a back end, writing r) on
/// `PORTABLE` and on `k`, over garbage in r: r ≡ x·R⁻¹ (mod m), r < R (it is n limbs and
/// nothing else is returned), and the same limbs from both.
fn assert_below_r(
    k: &Kernels,
    kernel: &str,
    x: &BigUint,
    m: &[Limb],
    case: &str,
    run: impl Fn(&Kernels, &mut [Limb]),
) {
    assert_below_r_powers(k, kernel, x, 1, m, case, run);
}

/// [`assert_below_r`] for a result r ≡ x·R^(−`r_powers`) (mod m).
fn assert_below_r_powers(
    k: &Kernels,
    kernel: &str,
    x: &BigUint,
    r_powers: usize,
    m: &[Limb],
    case: &str,
    run: impl Fn(&Kernels, &mut [Limb]),
) {
    let n = m.len();
    let big_m = common::big(m);
    let mut results = Vec::new();
    for (kernels, who) in [(&PORTABLE, "portable"), (k, k.name)] {
        let mut r = vec![0xDEAD_BEEF; n];
        run(kernels, &mut r);
        assert_eq!(
            (common::big(&r) << (64 * n * r_powers)) % &big_m,
            x % &big_m,
            "{kernel} {who}: not x·R^-{r_powers} mod m, n = {n}, {case}"
        );
        results.push(r);
    }
    assert_eq!(
        results[0], results[1],
        "{kernel} differs: {} vs portable, n = {n}, {case}",
        k.name
    );
}

/// `mont_mul_below_r` on a·b, and `mont_sqr_below_r` on a² and with three squarings in a row
/// on a⁸ (r ≡ a⁸·R⁻⁷), for any a, b < R, of `k` and of `PORTABLE`, by
/// [`assert_below_r_powers`]; the scratch starts as garbage.
fn assert_products_below_r(k: &Kernels, a: &[Limb], b: &[Limb], m: &[Limb], case: &str) {
    let n = m.len();
    let mi = minv(m[0]);
    let (ba, bb) = (common::big(a), common::big(b));
    assert_below_r(k, "mont_mul_below_r", &(&ba * &bb), m, case, |k, r| {
        let mut scratch = vec![Limb::MAX; mpn::mont_mul_scratch_len(n)];
        (k.mont_mul_below_r)(r, a, b, m, mi, &mut scratch);
    });
    for (squarings, power, r_powers) in [(1, 2u32, 1), (3, 8, 7)] {
        let kernel = format!("mont_sqr_below_r x{squarings}");
        assert_below_r_powers(k, &kernel, &ba.pow(power), r_powers, m, case, |k, r| {
            let mut scratch = vec![Limb::MAX; mpn::mont_sqr_scratch_len(n)];
            (k.mont_sqr_below_r)(r, a, squarings, m, mi, &mut scratch);
        });
    }
}

/// What a Montgomery reduction of x (a·b, or t = a·b) must give for operands below R: r +
/// hi·R below `bound` (R + m) and congruent to x·R⁻¹ mod m.
struct Below<'x> {
    n: usize,
    x: &'x BigUint,
    big_m: &'x BigUint,
    bound: &'x BigUint,
    case: String,
}

impl Below<'_> {
    /// `run` (the kernel `kernel` of a back end: writes r, returns the high limb) on PORTABLE
    /// and on `k`, over garbage in r: each result as [`Below`] says, and the two equal.
    fn check(
        &self,
        k: &Kernels,
        kernel: &str,
        x: &str,
        run: impl Fn(&Kernels, &mut [Limb]) -> Limb,
    ) {
        let case = &self.case;
        let mut got = Vec::new();
        for (kernels, who) in [(&PORTABLE, "portable"), (k, k.name)] {
            let n = self.n;
            let mut r = vec![0xDEAD_BEEF; n];
            let hi = run(kernels, &mut r);
            let v = common::big(&r) + (BigUint::from(hi) << (64 * n));
            assert!(&v < self.bound, "{kernel} {who}: ≥ R + m, {case}");
            assert_eq!(
                (&v << (64 * n)) % self.big_m,
                self.x % self.big_m,
                "{kernel} {who}: not {x}·R⁻¹, {case}"
            );
            got.push((r, hi));
        }
        assert_eq!(got[0], got[1], "{kernel} {} vs portable, {case}", k.name);
    }
}

/// Odd moduli of n limbs: random, all-ones (2⁶⁴-1 in every limb), all-ones with the top bit
/// clear, top limb 1, and random with the top bit set and clear.
fn moduli(n: usize, rng: &mut SplitMix64) -> Vec<(&'static str, Vec<Limb>)> {
    let mut out = vec![
        ("random", rng.limbs(n)),
        ("all ones", vec![Limb::MAX; n]),
        ("ones, top bit clear", vec![Limb::MAX; n]),
        ("top limb 1", rng.limbs(n)),
        ("top bit set", rng.limbs(n)),
        ("top bit clear", rng.limbs(n)),
    ];
    for (name, m) in &mut out {
        let top = &mut m[n - 1];
        match *name {
            "ones, top bit clear" | "top bit clear" => *top >>= 1,
            // For n = 1, m = 3: m = 1 would make every residue 0.
            "top limb 1" => *top = if n == 1 { 3 } else { 1 },
            "top bit set" => *top |= 1 << 63,
            _ => {}
        }
        m[0] |= 1;
    }
    out
}

/// Operands < m: 0, 1, m - 1, m - 2 and random below m; b may also be any n limbs, so all-ones
/// is added for b.
fn residues(m: &[Limb], rng: &mut SplitMix64) -> Vec<Vec<Limb>> {
    let n = m.len();
    let big_m = common::big(m);
    let one = BigUint::from(1u8);
    let two = BigUint::from(2u8);
    [
        BigUint::from(0u8),
        one.clone(),
        &big_m - &one,
        if big_m > two { &big_m - &two } else { one },
        common::big(&rng.limbs(n)) % &big_m,
    ]
    .iter()
    .map(|x| common::limbs(x, n))
    .collect()
}

#[test]
fn montgomery_kernels_equal_portable_and_num_bigint_on_sized_sweep() {
    for_each_backend(0x30_4D, |k, rng, count| {
        for n in 1..=64 {
            for (mn, m) in moduli(n, rng) {
                let xs = residues(&m, rng);
                let mut bs = xs.clone();
                bs.push(vec![Limb::MAX; n]);
                for a in &xs {
                    for b in &bs {
                        assert_montgomery_kernels(k, a, b, &m, &format!("m {mn}"));
                        *count += 1;
                    }
                }
            }
        }
    });
}

/// Operands anywhere below R (not only below m), the bound `mpn::mont_mul` documents: every
/// back end's `mont_mul`, and `redc_1` on t = a·b < R², must return r + hi·R < R + m,
/// congruent to a·b·R⁻¹, and agree with the portable kernels.
#[test]
fn montgomery_kernels_keep_the_bound_for_operands_below_r() {
    for_each_backend(0x1A2F, |k, rng, count| {
        for n in 1..=40 {
            for (mn, m) in moduli(n, rng) {
                let big_m = common::big(&m);
                let bound = (BigUint::from(1u8) << (64 * n)) + &big_m;
                let mi = minv(m[0]);
                let mut m_plus = m.clone();
                // m with 2⁶³ added to its low limb (mod 2⁶⁴): a value near m, above or below.
                m_plus[0] = m_plus[0].wrapping_add(1 << 63);
                let xs = [vec![Limb::MAX; n], m.clone(), m_plus, rng.limbs(n)];
                for a in &xs {
                    for b in &xs {
                        let x = common::big(a) * common::big(b);
                        let below = Below {
                            n,
                            x: &x,
                            big_m: &big_m,
                            bound: &bound,
                            case: format!("n = {n}, m {mn}"),
                        };
                        below.check(k, "mont_mul", "a·b", |k, r| {
                            let mut scratch = vec![Limb::MAX; mpn::mont_mul_scratch_len(n)];
                            (k.mont_mul)(r, a, b, &m, mi, &mut scratch)
                        });
                        let t = common::limbs(&x, 2 * n);
                        below.check(k, "redc_1", "t", |k, r| {
                            (k.redc_1)(r, &mut t.clone(), &m, mi)
                        });
                        let case = format!("m {mn}, operands below R");
                        assert_redc_1_below_r(k, &t, &m, &case);
                        assert_products_below_r(k, a, b, &m, &case);
                        *count += 1;
                    }
                }
            }
        }
    });
}

/// The eight-limb kernels (RSA-1024's halves, where the ADX back end has its own one-pass
/// Montgomery product and square) on many operands below R, random and near its edges (limbs
/// of all ones, which make every carry chain ripple), against num-bigint and the portable
/// kernels: `mont_mul` (below 2m for a < m, below R + m otherwise) and the products below R.
#[test]
fn eight_limb_montgomery_kernels_on_many_operands() {
    let n = 8;
    for_each_backend(0x8_11B5, |k, rng, count| {
        for (mn, m) in moduli(n, rng) {
            let big_m = common::big(&m);
            let bound = (BigUint::from(1u8) << (64 * n)) + &big_m;
            let mi = minv(m[0]);
            for i in 0..300 {
                let mut draw = |j: usize| -> Vec<Limb> {
                    let mut x = rng.limbs(n);
                    match (i + j) & 3 {
                        0 => x.iter_mut().skip(j).for_each(|l| *l = Limb::MAX),
                        1 => x[n - 1] = Limb::MAX,
                        _ => {}
                    }
                    x
                };
                let (a, b) = (draw(0), draw(3));
                let case = format!("m {mn}, pair {i}");
                let x = common::big(&a) * common::big(&b);
                Below {
                    n,
                    x: &x,
                    big_m: &big_m,
                    bound: &bound,
                    case: case.clone(),
                }
                .check(k, "mont_mul", "a·b", |k, r| {
                    let mut scratch = vec![Limb::MAX; mpn::mont_mul_scratch_len(n)];
                    (k.mont_mul)(r, &a, &b, &m, mi, &mut scratch)
                });
                assert_products_below_r(k, &a, &b, &m, &case);
                *count += 1;
            }
        }
    });
}

/// Every back end's schoolbook product and square (`Kernels::mul_basecase`,
/// `Kernels::sqr_basecase`) against num-bigint, for every shape up to 40 limbs, on random and
/// all-ones operands, with garbage in r beforehand.
#[test]
fn basecase_products_and_squares_match_num_bigint() {
    for_each_backend(0xBA5E, |k, rng, count| {
        // Every a up to 40 limbs with b up to a + 2, and b longer than a in whole blocks of 8
        // (the window kernels' multipliers outnumbering the multiplicand).
        let long_b = (1..=40)
            .map(|an| (an, an + 2))
            .chain([(8, 16), (8, 24), (16, 32), (8, 40)]);
        for (an, bn_max) in long_b {
            for bn in 1..=bn_max {
                for ones in [false, true] {
                    let (a, b) = if ones {
                        (vec![Limb::MAX; an], vec![Limb::MAX; bn])
                    } else {
                        (rng.limbs(an), rng.limbs(bn))
                    };
                    let mut r = rng.limbs(an + bn);
                    (k.mul_basecase)(&mut r, &a, &b);
                    let want = common::big(&a) * common::big(&b);
                    assert_eq!(common::big(&r), want, "{} mul_basecase {an} x {bn}", k.name);
                    *count += 1;
                }
            }
            for a in [rng.limbs(an), vec![Limb::MAX; an]] {
                let mut r = rng.limbs(2 * an);
                (k.sqr_basecase)(&mut r, &a);
                let want = common::big(&a) * common::big(&a);
                assert_eq!(common::big(&r), want, "{} sqr_basecase {an}", k.name);
                *count += 1;
            }
        }
    });
}

#[test]
fn montgomery_wrappers_check_lengths() {
    let m = [Limb::MAX, 5];
    let mut scratch = [0; 5];
    let mut r = [0; 2];
    // 3·5·R⁻¹ with a known answer through the public entry point, against num-bigint.
    let a = [3, 0];
    let b = [5, 0];
    let hi = mpn::mont_mul(&mut r, &a, &b, &m, minv(m[0]), &mut scratch);
    assert_montgomery(&r, hi, &BigUint::from(15u8), &m, "mpn::mont_mul");
    let calls: [(&str, fn()); 3] = [
        ("mont_mul", || {
            _ = mpn::mont_mul(&mut [0; 2], &[0; 3], &[0; 2], &[1, 1], 1, &mut [0; 5]);
        }),
        ("mont_mul", || {
            _ = mpn::mont_mul(&mut [0; 2], &[0; 2], &[0; 2], &[1, 1], 1, &mut [0; 4]);
        }),
        ("redc_1", || {
            _ = mpn::redc_1(&mut [0; 2], &mut [0; 3], &[1, 1], 1);
        }),
    ];
    for (name, call) in calls {
        assert!(
            std::panic::catch_unwind(call).is_err(),
            "{name} accepted bad lengths"
        );
    }
}

/// An odd modulus of 1..=40 limbs from edge limbs, and two operands reduced below it.
fn montgomery_operands() -> impl Strategy<Value = (Vec<Limb>, Vec<Limb>, Vec<Limb>)> {
    (1usize..=40).prop_flat_map(|n| {
        (
            prop::collection::vec(edge_limb(), n),
            prop::collection::vec(edge_limb(), n),
            prop::collection::vec(edge_limb(), n),
        )
            .prop_map(move |(mut m, a, b)| {
                m[0] |= 1;
                if n == 1 && m[0] == 1 {
                    m[0] = 3;
                }
                let big_m = common::big(&m);
                let a = common::limbs(&(common::big(&a) % &big_m), n);
                let b = common::limbs(&(common::big(&b) % &big_m), n);
                (m, a, b)
            })
    })
}

proptest! {
    #![proptest_config(common::config())]

    #[test]
    fn montgomery_kernels_equal_portable_and_num_bigint_on_random_inputs(
        (m, a, b) in montgomery_operands()
    ) {
        for k in mpn::all_available() {
            assert_montgomery_kernels(k, &a, &b, &m, "proptest");
        }
    }
}

#[test]
fn portable_row_kernels_match_num_bigint_for_every_unroll_remainder() {
    // The portable mul_1 and addmul_1 (and so redc_1's rows) go four limbs a step and finish
    // the last n mod 4 one at a time: every length up to 40 covers each remainder many times.
    let mut rng = SplitMix64::new(0xC0FFEE);
    let mut count = 0u64;
    for n in 0..=40 {
        for (an, a) in patterns(n, &mut rng) {
            let outputs = [vec![0; n], vec![Limb::MAX; n], rng.limbs(n)];
            for r0 in &outputs {
                for b in [0, 1, Limb::MAX, 1 << 63, rng.next_u64()] {
                    let product = common::big(&a) * BigUint::from(b);
                    let mut r = vec![7; n];
                    let hi = (PORTABLE.mul_1)(&mut r, &a, b);
                    let got = common::big(&r) + (BigUint::from(hi) << (64 * n));
                    assert_eq!(got, product, "mul_1 n = {n}, a {an}, b = {b:#x}");
                    let mut r = r0.clone();
                    let hi = (PORTABLE.addmul_1)(&mut r, &a, b);
                    let got = common::big(&r) + (BigUint::from(hi) << (64 * n));
                    let want = common::big(r0) + &product;
                    assert_eq!(got, want, "addmul_1 n = {n}, a {an}, b = {b:#x}");
                    count += 1;
                }
            }
        }
    }
    eprintln!("{count} cases");
}

/// `tabselect` of every back end (and through the dispatcher) returns entry `which` for
/// entry lengths 1..=40 and tables of 1 to 130 entries (past the 64-entry groups of the
/// portable kernel), and zero for a `which` past the last entry.
#[test]
fn tabselect_picks_the_entry_asked_for() {
    for_each_backend(0x7AB5, |k, rng, count| {
        for n in (1..=20).chain([24, 31, 32, 40]) {
            for entries in [1usize, 2, 3, 8, 32, 64, 65, 130] {
                let table = rng.limbs(n * entries);
                let mut r = rng.limbs(n);
                for which in 0..entries {
                    (k.tabselect)(&mut r, &table, which as Limb);
                    assert_eq!(
                        r,
                        &table[which * n..(which + 1) * n],
                        "{} n {n} entries {entries} which {which}",
                        k.name
                    );
                }
                for which in [entries as Limb, Limb::MAX] {
                    (k.tabselect)(&mut r, &table, which);
                    assert_eq!(r, vec![0; n], "{} n {n} which {which} past the end", k.name);
                }
                *count += 1;
            }
        }
    });
    let table: Vec<Limb> = (0..12).collect();
    let mut r = [0; 3];
    mpn::tabselect(&mut r, &table, 2);
    assert_eq!(r, [6, 7, 8]);
    let err = std::panic::catch_unwind(|| mpn::tabselect(&mut [0; 5], &[0; 12], 0));
    assert!(
        err.is_err(),
        "a table that is not whole entries must be refused"
    );
}

/// Set in the child process of [`backend_override_warns_only_about_what_it_cannot_give`].
const CHILD: &str = "BIGNUM_BACKENDS_TEST_CHILD";

/// In a child process (and a no-op otherwise): makes both choices that read `BIGNUM_BACKEND`
/// (the kernel table and the exponentiation path) and prints them.
#[test]
fn backend_override_child() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let k = mpn::kernels().name;
    let path = bignum::backend::pow_path().name();
    println!("chosen: kernels {k}, pow path {path}");
}

/// `BIGNUM_BACKEND` is read once for both choices: `ifma-model` (the model of the 52-bit
/// engine, compiled in here by the test hooks) is the pow path's to take, and neither choice
/// prints a warning about it; an unknown name is warned about, once (the negative control:
/// this test sees the warnings).
#[test]
fn backend_override_warns_only_about_what_it_cannot_give() {
    // The child test's name as the harness knows it: its path below the test crate's root.
    let child = match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::backend_override_child"),
        None => "backend_override_child".to_owned(),
    };
    let run = |value: &str| {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", &child, "--nocapture", "-q"])
            .env(CHILD, "1")
            .env("BIGNUM_BACKEND", value)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "child with BIGNUM_BACKEND={value} failed"
        );
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let detected = mpn::all_available().last().unwrap().name;

    let (stdout, stderr) = run("ifma-model");
    assert!(
        stdout.contains(&format!("chosen: kernels {detected}, pow path ifma-model")),
        "{stdout}"
    );
    assert!(
        !stderr.contains("bignum:"),
        "a warning for ifma-model: {stderr}"
    );

    let (stdout, stderr) = run("no-such-backend");
    assert!(
        stdout.contains(&format!("chosen: kernels {detected}, pow path limbs")),
        "{stdout}"
    );
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("bignum:"))
        .collect();
    assert_eq!(
        warnings,
        ["bignum: BIGNUM_BACKEND=no-such-backend is not available here, detecting instead"],
        "{stderr}"
    );
}
