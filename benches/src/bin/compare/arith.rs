//! The arithmetic cases: the `addmul_1` / `submul_1` kernels of every back end, `mul` and
//! `sqr`, division and modular exponentiation, ours against GMP and (for exponentiation)
//! num-bigint, crypto-bigint and OpenSSL's constant-time path. Every result is checked against
//! num-bigint (the kernels against GMP) before it is timed.

use std::hint::black_box;

use benches::{gmp, limbs, powm_operands};
use bignum::backend::PowPath;
use bignum::modular::Modulus;
use bignum::{Limb, mpn};

use super::harness::{Case, Imp, biguint, check};
use super::openssl_ct;

/// Kernel sizes in limbs, as in GMP's `speed` tables.
const KERNEL_LIMBS: [usize; 3] = [10, 100, 1000];
/// Operand sizes in bits for multiply, square and exponentiation.
const BITS: [usize; 7] = [256, 512, 1024, 1536, 2048, 3072, 4096];
/// An odd multiplier with the top bit set, so every product has full-width halves.
const M: u64 = 0xDEAD_BEEF_1234_5677 | 1 << 63;

/// GMP's kernel of that name.
fn gmp_kernel(op: &str) -> fn(&mut [Limb], &[Limb], Limb) -> Limb {
    if op == "addmul_1" {
        gmp::addmul_1
    } else {
        gmp::submul_1
    }
}

/// `mpn_addmul_1` / `mpn_submul_1` cases: every back end of ours against GMP.
pub fn kernel_cases(op: &'static str) -> Vec<Case> {
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
pub fn mul_sqr_cases(op: &'static str) -> Vec<Case> {
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
pub fn div_cases() -> Vec<Case> {
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

/// Modular exponentiation cases: ours constant-time and variable-time against GMP, num-bigint,
/// crypto-bigint and OpenSSL's constant-time `BN_mod_exp_mont_consttime`.
pub fn powm_cases() -> Vec<Case> {
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
            let limbs_too = bignum::backend::pow_path() != PowPath::Limbs;
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
                let (cb, ce) = benches::crypto_bigint_boxed_powm_operands(&b, &e, &m);
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
