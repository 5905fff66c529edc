//! Constant-time check drivers for `bignum::modular` (ARCHITECTURE.md, "Constant time").
//!
//! Each driver marks its secret inputs undefined with memcheck client requests
//! ([`ct::mark_secret`]), runs the operation, and marks the outputs defined
//! ([`ct::mark_public`]) before comparing them with num-bigint. Under
//! `valgrind --error-exitcode=1` any branch or memory address that depends on a secret is an
//! error; natively the requests do nothing and these are ordinary tests. `.ci/ct-check` runs
//! them under valgrind (release build: debug assertions are off there, as in production; in a
//! debug build `subtle`'s own `debug_assert!` on `Choice` values would branch on secrets), and
//! runs the `leaky_*` negative controls, which must be flagged.
//!
//! Accepted leaks (left public on purpose): limb counts and exponent bit lengths (sizes are
//! public by design); the `CtOption` choice of a result, declassified by [`ct::declassify`] at the
//! end of each driver (whether an inverse exists or a modulus is valid is the API's one output
//! bit); `Modulus::bits` (the bit length of m is public, computed from m without a branch but
//! declassified with the `CtOption` it sits in); RSA's public exponent e in
//! `inv_public_mod_secret` and `pow_vartime`.
// Test code: `expect` on expected values is the assertion; u64 → u32 splits in `common`.
#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)]

mod common;
#[path = "ct/memcheck.rs"]
mod ct;
#[path = "ct/ifma_batch.rs"]
mod ifma_batch;
#[path = "ct/leaky.rs"]
mod leaky;

use bignum::Limb;
use bignum::modular::{self, Modulus, Residue};
use common::big;
use ct::{declassify, mark_public, mark_public_bytes, mark_secret};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// Limb counts the drivers run at: 64, 256 and 1024 bits (valgrind is ~50x slower).
const SIZES: [usize; 3] = [1, 4, 16];

/// Limb counts at and above every size threshold that secret data crosses, run once each:
/// Karatsuba multiplication from [`bignum::mpn::KARATSUBA_MUL_THRESHOLD`] (48 limbs: the
/// products of key generation's lcm and of Garner's recombination) and Karatsuba squaring
/// from [`bignum::mpn::KARATSUBA_SQR_THRESHOLD`] (96 limbs: the squarings of the
/// exponentiations of 12288- to 16384-bit keys' primes), each with an odd size (one more limb)
/// for the uneven halves.
const LARGE_SIZES: [usize; 4] = [
    bignum::mpn::KARATSUBA_MUL_THRESHOLD,
    bignum::mpn::KARATSUBA_MUL_THRESHOLD + 1,
    bignum::mpn::KARATSUBA_SQR_THRESHOLD,
    bignum::mpn::KARATSUBA_SQR_THRESHOLD + 1,
];

/// The exponent bits of the large-size exponentiations: the squarings cross the threshold
/// whatever the exponent's length, and a full-length exponent at 96 limbs would cost minutes
/// under valgrind.
const LARGE_EXP_BITS: usize = 256;

/// n deterministic pseudo-random limbs (SplitMix64); `odd_top` forces an odd value with the top
/// bit set (a modulus).
pub(crate) fn n_limbs(n: usize, seed: u64, odd_top: bool) -> Vec<Limb> {
    let mut v = testkit::limbs(seed.wrapping_mul(0x2545_F491_4F6C_DD1D), n);
    if odd_top {
        v[0] |= 1;
        v[n - 1] |= 1 << 63;
    }
    v
}

/// A secret copy of `a`.
fn secret(a: &[Limb]) -> Vec<Limb> {
    let s = a.to_vec();
    mark_secret(&s);
    s
}

/// The oracle's value as `n` limbs.
fn want(x: &BigUint, n: usize) -> Vec<Limb> {
    common::limbs(x, n)
}

/// A Montgomery context built from a SECRET modulus.
fn secret_modulus(m: &[Limb]) -> Modulus {
    declassify(Modulus::new(&secret(m))).expect("valid modulus")
}

/// A secret modulus of n limbs from `seed`, and two secret residues: a (n limbs) and b (2n
/// limbs, as c mod p in RSA-CRT) reduced by it; with the num-bigint values of m, a and b.
struct Operands {
    ctx: Modulus,
    a: Vec<Limb>,
    ra: Residue,
    rb: Residue,
    bm: BigUint,
    ba: BigUint,
    bb: BigUint,
}

fn operands(n: usize, seed: u64) -> Operands {
    let (m, a, b) = (
        n_limbs(n, seed, true),
        n_limbs(n, seed + 1, false),
        n_limbs(2 * n, seed + 2, false),
    );
    let ctx = secret_modulus(&m);
    let ra = ctx.reduce(&secret(&a));
    let rb = ctx.reduce(&secret(&b));
    Operands {
        bm: big(&m),
        ba: big(&a),
        bb: big(&b),
        a,
        ra,
        rb,
        ctx,
    }
}

/// Each result out of Montgomery form, made public, against the oracle's value (n limbs).
fn check_results(ctx: &Modulus, n: usize, cases: impl IntoIterator<Item = (Residue, BigUint)>) {
    for (got, expect) in cases {
        let got = ctx.retrieve(&got);
        mark_public(&got);
        assert_eq!(*got, want(&expect, n), "n = {n}");
    }
}

/// A secret modulus m of n limbs from `seed` and a secret base a from `seed + 1` reduced by
/// it: returns a, m's num-bigint value, the context and the base.
fn secret_modulus_and_base(n: usize, seed: u64) -> (Vec<Limb>, BigUint, Modulus, Residue) {
    let (m, a) = (n_limbs(n, seed, true), n_limbs(n, seed + 1, false));
    let bm = big(&m);
    let ctx = secret_modulus(&m);
    let base = ctx.reduce(&secret(&a));
    (a, bm, ctx, base)
}

/// A power `r` out of Montgomery form, made public, against a^e mod m by num-bigint.
fn check_pow(ctx: &Modulus, r: &Residue, a: &[Limb], e: &[Limb], bm: &BigUint) {
    let got = ctx.retrieve(r);
    mark_public(&got);
    assert_eq!(*got, want(&big(a).modpow(&big(e), bm), a.len()));
}

/// The products every size checks: a·b and a² (mod m), with their oracle values.
fn mul_and_sqr(o: &Operands) -> [(Residue, BigUint); 2] {
    let (ctx, ba, bb, bm) = (&o.ctx, &o.ba, &o.bb, &o.bm);
    [
        (ctx.mul(&o.ra, &o.rb), ba * bb % bm),
        (ctx.sqr(&o.ra), ba * ba % bm),
    ]
}

/// The gcd and the lcm of two secrets of n limbs (secret copies of `p1` and `q1`), made
/// public, against num-bigint; returns the secret copy of `p1` and the (public) lcm.
fn gcd_and_lcm(p1: &[Limb], q1: &[Limb]) -> (Vec<Limb>, Zeroizing<Vec<Limb>>) {
    let n = p1.len();
    let (bp, bq) = (big(p1), big(q1));
    let (sp, sq) = (secret(p1), secret(q1));
    let g = modular::gcd(&sp, &sq);
    mark_public(&g);
    assert_eq!(*g, want(&bp.gcd(&bq), n), "n = {n}");
    let l = modular::lcm(&sp, &sq);
    mark_public(&l);
    assert_eq!(*l, want(&bp.lcm(&bq), 2 * n), "n = {n}");
    (sp, l)
}

#[test]
fn modulus_construction_with_secret_modulus() {
    println!("running on valgrind: {}", ct::running_on_valgrind());
    for (i, &n) in SIZES.iter().enumerate() {
        let m = n_limbs(n, 100 + i as u64, true);
        let ctx = secret_modulus(&m);
        // R mod m out of Montgomery form is 1; R² mod m reduces a one-limb 1 to R mod m.
        let one = ctx.retrieve(&ctx.one());
        mark_public(&one);
        assert_eq!(*one, want(&BigUint::one(), n));
        let r = ctx.reduce(&[1]);
        let r = r.as_montgomery_limbs().to_vec();
        mark_public(&r);
        assert_eq!(big(&r), (BigUint::one() << (64 * n)) % big(&m));
        let mut top_clear = m.clone();
        top_clear[n - 1] &= !(1 << 63);
        let bytes: Vec<u8> = big(&top_clear).to_bytes_be();
        let sb = bytes.clone();
        ct::mark_secret_bytes(&sb[..]);
        let ctx2 = declassify(Modulus::from_be_bytes(&sb)).expect("valid modulus");
        let one = ctx2.retrieve(&ctx2.one());
        mark_public(&one);
        assert_eq!(big(&one), BigUint::one());
    }
}

#[test]
fn montgomery_mul_sqr_and_conversions() {
    for (i, &n) in SIZES.iter().enumerate() {
        let o = operands(n, 200 + 10 * i as u64);
        let products = mul_and_sqr(&o);
        let Operands {
            ctx,
            a,
            ra,
            rb,
            bm,
            ba,
            bb,
        } = o;
        let cases = [
            (ctx.add(&ra, &rb), (&ba + &bb) % &bm),
            (ctx.sub(&ra, &rb), (&ba % &bm + &bm - &bb % &bm) % &bm),
            (ctx.neg(&ra), (&bm - &ba % &bm) % &bm),
            (ra.clone(), &ba % &bm),
        ];
        check_results(&ctx, n, products.into_iter().chain(cases));
        let mut eq = ra.ct_eq(&rb);
        mark_public_bytes(&eq);
        assert!(!bool::from(eq));
        eq = ra.ct_eq(&ra.clone());
        mark_public_bytes(&eq);
        assert!(bool::from(eq));
        let mut z = ctx.is_zero(&ra);
        mark_public_bytes(&z);
        assert!(!bool::from(z));
        let mut sel = ctx.one();
        sel.conditional_assign(&ra, eq);
        z = ctx.is_zero(&ctx.sub(&sel, &ra));
        mark_public_bytes(&z);
        assert!(bool::from(z));
        let mut bytes = vec![0u8; 8 * n];
        ctx.retrieve_be_bytes(&ctx.reduce_be_bytes(&big(&a).to_bytes_be()), &mut bytes);
        mark_public_bytes(&bytes[..]);
        assert_eq!(BigUint::from_bytes_be(&bytes), &ba % &bm);
    }
}

/// The 52-bit (IFMA) engine through its model of the instructions, which runs the same generic
/// code as the AVX-512 path (same control flow and memory accesses; valgrind cannot execute
/// AVX-512): single exponentiations at a four-lane size (1024 bits) and an eight-lane size
/// (1536 bits), and an interleaved pair, with secret moduli, bases and exponents (extreme
/// ones too: 0, all-ones, m − 1).
#[test]
fn ifma_model_pow_and_pair_with_secret_inputs() {
    use bignum::backend::PowPath;
    use bignum::modular::PowJob;
    use bignum::modular::tuning::pow_pair_on;
    for (n, seed) in [(8usize, 690u64), (16, 700), (24, 710)] {
        let (a, bm, ctx, base) = secret_modulus_and_base(n, seed);
        let exps = [
            n_limbs(n, seed + 2, false),
            vec![Limb::MAX; n],
            want(&(&bm - 1u8), n),
        ];
        for e in &exps {
            let r = ctx
                .pow_on(PowPath::IfmaModel, &base, &secret(e), 64 * n)
                .expect("supported size");
            check_pow(&ctx, &r, &a, e, &bm);
        }
    }
    // The pair at RSA-2048's halves and at RSA-1024's (10 steps on twelve lanes).
    for (n, seed) in [(16usize, 720u64), (8, 730)] {
        let (m1, m2) = (n_limbs(n, seed, true), n_limbs(n, seed + 1, true));
        let (c1, c2) = (secret_modulus(&m1), secret_modulus(&m2));
        let (x1, x2) = (
            c1.reduce(&secret(&n_limbs(n, seed + 2, false))),
            c2.reduce(&secret(&[0])),
        );
        let (e1, e2) = (secret(&n_limbs(n, seed + 3, false)), secret(&vec![0; n]));
        let j1 = PowJob {
            modulus: &c1,
            base: &x1,
            exp: &e1,
            exp_bits: 64 * n,
        };
        let j2 = PowJob {
            modulus: &c2,
            base: &x2,
            exp: &e2,
            exp_bits: 64 * n,
        };
        let (r1, r2) = pow_pair_on(PowPath::IfmaModel, &j1, &j2).expect("equal shapes");
        let (g1, g2) = (c1.retrieve(&r1), c2.retrieve(&r2));
        mark_public(&g1);
        mark_public(&g2);
        let b1 = big(&m1);
        let x1 = big(&n_limbs(n, seed + 2, false)) % &b1;
        assert_eq!(
            *g1,
            want(&x1.modpow(&big(&n_limbs(n, seed + 3, false)), &b1), n)
        );
        assert_eq!(*g2, want(&BigUint::one(), n));
    }
}

#[test]
fn pow_with_secret_base_exponent_and_modulus() {
    for (i, &n) in SIZES.iter().enumerate() {
        let seed = 300 + 10 * i as u64;
        let (a, bm, ctx, base) = secret_modulus_and_base(n, seed);
        // Extreme exponents too: the time may depend on the exponent's bit length only.
        let exps = [
            n_limbs(n, seed + 2, false),
            vec![0; n],
            vec![Limb::MAX; n],
            want(&(&bm - 1u8), n),
        ];
        for e in &exps {
            check_pow(&ctx, &ctx.pow(&base, &secret(e), 64 * n), &a, e, &bm);
        }
        // Public exponent (RSA's e), secret base and modulus.
        check_pow(&ctx, &ctx.pow_vartime(&base, &[65537]), &a, &[65537], &bm);
    }
}

/// Above the Karatsuba thresholds ([`LARGE_SIZES`]), once each: a secret modulus (its R² is
/// formed by Montgomery squarings), reduction of a 2n-limb secret, multiplication and
/// squaring, exponentiation with a secret base and exponent, and the gcd and lcm of two even
/// secrets (the lcm's product is a Karatsuba multiplication from 48 limbs).
#[test]
fn large_sizes_above_the_karatsuba_thresholds() {
    for (i, &n) in LARGE_SIZES.iter().enumerate() {
        let seed = 1000 + 10 * i as u64;
        let o = operands(n, seed);
        let e = n_limbs(LARGE_EXP_BITS >> 6, seed + 3, false);
        let products = mul_and_sqr(&o);
        let pow = (
            o.ctx.pow(&o.ra, &secret(&e), LARGE_EXP_BITS),
            o.ba.modpow(&big(&e), &o.bm),
        );
        check_results(&o.ctx, n, products.into_iter().chain([pow]));
        if n >= bignum::mpn::KARATSUBA_SQR_THRESHOLD {
            // The lcm's product crossed its threshold at 48 limbs already.
            continue;
        }
        let (mut p1, mut q1) = (n_limbs(n, seed + 4, true), n_limbs(n, seed + 5, true));
        p1[0] &= !1;
        q1[0] &= !3;
        gcd_and_lcm(&p1, &q1);
    }
}

#[test]
fn inv_modulo_secret_odd_modulus() {
    for (i, &n) in SIZES.iter().enumerate() {
        let seed = 400 + 10 * i as u64;
        // m = 3·k: a multiple of 3 has no inverse, a random value (almost surely) has one.
        let k = n_limbs(n, seed, false);
        let m3 = want(&(big(&k) >> 2u32 | BigUint::one()), n);
        let m = want(&(big(&m3) * 3u8), n);
        let bm = big(&m);
        let ctx = secret_modulus(&m);
        for a in [
            n_limbs(n, seed + 1, false),
            vec![0; n],
            want(&(BigUint::from(3u8) * 5u8), n),
        ] {
            let x = ctx.reduce(&secret(&a));
            let got = declassify(ctx.inv(&x)).map(|r| {
                let r = ctx.retrieve(&r);
                mark_public(&r);
                r.to_vec()
            });
            let expect = (big(&a) % &bm).modinv(&bm).map(|v| want(&v, n));
            assert_eq!(got, expect);
        }
    }
}

#[test]
fn even_modulus_inverse_gcd_and_division_helpers() {
    for (i, &n) in [1usize, 4, 8].iter().enumerate() {
        let seed = 500 + 10 * i as u64;
        // p - 1 and q - 1 style: even secrets of n limbs.
        let mut p1 = n_limbs(n, seed, true);
        let mut q1 = n_limbs(n, seed + 1, true);
        p1[0] &= !1;
        q1[0] &= !1;
        q1[0] ^= 6; // a different power of two for a more interesting gcd
        let (bp, bq) = (big(&p1), big(&q1));
        let (sp, l) = gcd_and_lcm(&p1, &q1);

        let (q, r) = declassify(modular::div_rem(&l, &sp)).expect("non-zero divisor");
        mark_public(&q);
        mark_public(&r);
        assert_eq!(big(&q), bp.lcm(&bq) / &bp);
        assert_eq!(big(&r), BigUint::ZERO);
        let r = declassify(modular::rem(&secret(&n_limbs(2 * n, seed + 2, false)), &sp))
            .expect("non-zero");
        mark_public(&r);
        assert_eq!(big(&r), big(&n_limbs(2 * n, seed + 2, false)) % &bp);

        for e in [3 as Limb, 65537] {
            let got = declassify(modular::inv_public_mod_secret(e, &l)).map(|d| {
                mark_public(&d);
                d.to_vec()
            });
            let expect = BigUint::from(e)
                .modinv(&bp.lcm(&bq))
                .map(|d| want(&d, 2 * n));
            assert_eq!(got, expect);
        }
    }
}

/// (base, exponent) index pairs for [`callgrind_pow_extremes`]: 0, 1, m - 1, random, all-ones.
const POW_CASES: [(usize, usize); 8] = [
    (3, 4),
    (0, 0),
    (1, 1),
    (2, 2),
    (4, 4),
    (3, 0),
    (0, 4),
    (2, 3),
];

/// pow on extreme bases and exponents (0, 1, m - 1, all-ones limbs, random), at 4, 8 and 96
/// limbs. `.ci/ct-check` asks for the number of cases (`CT_POW_CASE=count`: prints
/// `CT_POW_CASES=8`), then runs each case alone (`CT_POW_CASE=k`) under callgrind, counting
/// only inside `pow`, and requires equal instruction counts; natively (no `CT_POW_CASE`) every
/// case is checked against num-bigint.
#[test]
fn callgrind_pow_extremes() {
    let selected: Option<usize> = match std::env::var("CT_POW_CASE").ok().as_deref() {
        Some("count") => {
            println!("CT_POW_CASES={}", POW_CASES.len());
            return;
        }
        Some(k) => Some(k.parse().unwrap()),
        None => None,
    };
    // 4 limbs: the row kernels; 8: the eight-row window kernels of the ADX back end; 96: the
    // Karatsuba squaring (a short exponent: the squarings are of 96 limbs whatever its length).
    // Every pow runs before any check: the oracle's allocations depend on the values, and would
    // leave the heap (and so malloc's instruction count in the next pow) different from case
    // to case.
    let mut runs = Vec::new();
    for (n, exp_bits) in [(4, 256), (8, 512), (96, LARGE_EXP_BITS)] {
        let m = n_limbs(n, 900, true);
        let values = [
            vec![0; n],
            want(&BigUint::one(), n),
            want(&(big(&m) - 1u8), n),
            n_limbs(n, 901, false),
            vec![Limb::MAX; n],
        ];
        let ctx = Modulus::new_vartime(&m).expect("odd modulus");
        for (k, &(b, e)) in POW_CASES.iter().enumerate() {
            if selected.is_some_and(|s| s != k) {
                continue;
            }
            let base = ctx.reduce(&values[b]);
            let got = ctx.retrieve(&ctx.pow(&base, &values[e], exp_bits));
            runs.push((
                k,
                m.clone(),
                values[b].clone(),
                values[e].clone(),
                exp_bits,
                got,
            ));
        }
    }
    for (k, m, b, e, exp_bits, got) in runs {
        let n = m.len();
        let e = big(&e) % (BigUint::one() << exp_bits);
        assert_eq!(
            *got,
            want(&big(&b).modpow(&e, &big(&m)), n),
            "case {k}, n = {n}"
        );
    }
}
