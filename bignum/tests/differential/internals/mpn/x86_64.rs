//! `bignum::mpn::x86_64`: its internals.

use bignum::cpu;
use bignum::limb::Limb;
use bignum::mpn::x86_64::*;
use std::{string::String, vec::Vec};

#[test]
fn wrappers_reject_length_mismatch_before_the_asm() {
    let Some(token) = cpu::adx() else {
        eprintln!("no BMI2/ADX on this CPU: the ADX table cannot be built, nothing to check");
        return;
    };
    let k = kernels(token);
    let mismatches: [(&str, fn()); 5] = [
        ("add_n", || {
            _ = (kernels(cpu::adx().unwrap()).add_n)(&mut [0; 3], &[1; 4], &[1; 4])
        }),
        ("sub_n", || {
            _ = (kernels(cpu::adx().unwrap()).sub_n)(&mut [0; 4], &[1; 4], &[1; 3])
        }),
        ("mul_1", || {
            _ = (kernels(cpu::adx().unwrap()).mul_1)(&mut [0; 5], &[1; 4], 3)
        }),
        ("addmul_1", || {
            _ = (kernels(cpu::adx().unwrap()).addmul_1)(&mut [0; 3], &[1; 4], 3)
        }),
        ("submul_1", || {
            _ = (kernels(cpu::adx().unwrap()).submul_1)(&mut [0; 3], &[1; 4], 3)
        }),
    ];
    for (name, call) in mismatches {
        let err = std::panic::catch_unwind(call).expect_err(name);
        let msg = err
            .downcast_ref::<String>()
            .map(String::as_str)
            .or(err.downcast_ref::<&str>().copied());
        assert!(
            msg.is_some_and(|m| m.contains("length mismatch")),
            "{name}: {msg:?}"
        );
    }
    // Equal lengths go through.
    assert_eq!((k.add_n)(&mut [0; 4], &[1; 4], &[1; 4]), 0);
}

#[test]
fn small_known_products() {
    let Some(token) = cpu::adx() else { return };
    let k = kernels(token);
    let mut r = [Limb::MAX, 1];
    // (2⁶⁴ - 1 + 2⁶⁴) + (3 + 2⁶⁴)·(2⁶⁴ - 1)
    assert_eq!((k.addmul_1)(&mut r, &[3, 1], Limb::MAX), 1);
    // low limb: 2⁶⁴ - 1 + 3·(2⁶⁴ - 1) = 4·2⁶⁴ - 4 → limb 2⁶⁴ - 4, carry 3
    // limb 1: 1 + (2⁶⁴ - 1) + 3 = 2⁶⁴ + 3 → limb 3, high 1
    assert_eq!(r, [Limb::MAX - 3, 3]);
    let mut r = [0, 0];
    assert_eq!((k.submul_1)(&mut r, &[1, 0], 1), 1);
    assert_eq!(r, [Limb::MAX, Limb::MAX]);
}

/// xorshift64* limbs, every fourth one an edge value (0, 1, MAX) so carries ripple.
fn limbs(seed: &mut u64, n: usize) -> Vec<Limb> {
    (0..n)
        .map(|i| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            match (i & 3, *seed & 3) {
                (0, 0) => 0,
                (0, 1) => 1,
                (0, 2) => Limb::MAX,
                _ => seed.wrapping_mul(0x2545_f491_4f6c_dd1d),
            }
        })
        .collect()
}

#[test]
fn sqr_diag_addlsh1_matches_portable() {
    let Some(token) = cpu::adx() else { return };
    let diag = |r: &mut [Limb], a: &[Limb]| adx_sqr_diag_addlsh1(token, r, a);
    let mut seed = 0x5eed;
    for n in (0..=70).chain([100, 1000]) {
        for case in 0..3 {
            let mut a = limbs(&mut seed, n);
            if case == 1 {
                a.fill(Limb::MAX);
            }
            // Any r below a²/2 is valid input: the true triangle, or here a random value
            // with the top two limbs cleared (below B²ⁿ⁻² ≤ a²/2 once a's top limb ≥ 2³²).
            let mut r0 = limbs(&mut seed, 2 * n);
            if n > 0 {
                a[n - 1] |= 1 << 40;
                r0[2 * n - 1] = 0;
                r0[2 * n - 2] = 0;
            }
            let mut want = r0.clone();
            bignum::mpn::portable::diag_addlsh1(&mut want, &a);
            let mut got = r0.clone();
            diag(&mut got, &a);
            assert_eq!(got, want, "n = {n}, case {case}");
        }
    }
}

#[test]
fn mul_basecase_matches_portable_rows() {
    let Some(token) = cpu::adx() else { return };
    let mul = kernels(token).mul_basecase;
    let p = &bignum::mpn::PORTABLE;
    let mut seed = 0xb0a5;
    let sizes: Vec<(usize, usize)> = (1..=40)
        .flat_map(|n| (1..=n + 2).map(move |m| (n, m)))
        .chain([(64, 64), (64, 3), (100, 17), (3, 100)])
        .collect();
    for (an, bn) in sizes {
        for case in 0..2 {
            let (mut a, mut b) = (limbs(&mut seed, an), limbs(&mut seed, bn));
            if case == 1 {
                a.fill(Limb::MAX);
                b.fill(Limb::MAX);
            }
            // The product by the portable rows (mul_1, then addmul_1 per limb of b).
            let mut want = vec![0; an + bn];
            want[an] = (p.mul_1)(&mut want[..an], &a, b[0]);
            for (i, &bi) in b.iter().enumerate().skip(1) {
                want[an + i] = (p.addmul_1)(&mut want[i..an + i], &a, bi);
            }
            // Garbage in r must not matter: every limb is written.
            let mut got = limbs(&mut seed, an + bn);
            mul(&mut got, &a, &b);
            assert_eq!(got, want, "{an} x {bn}, case {case}");
        }
    }
    let err = std::panic::catch_unwind(|| {
        let mul = kernels(cpu::adx().unwrap()).mul_basecase;
        mul(&mut [0; 4], &[1; 2], &[1; 3]);
    });
    assert!(
        err.is_err(),
        "a wrong r length must be refused before the asm"
    );
}

/// The portable schoolbook square (rows of `PORTABLE`'s `mul_1`/`addmul_1`, then the
/// portable doubling-and-diagonal pass), whatever table `mpn::kernels()` picked.
fn portable_sqr(a: &[Limb]) -> Vec<Limb> {
    let p = &bignum::mpn::PORTABLE;
    let n = a.len();
    let mut r = vec![0; 2 * n];
    for i in 0..n - 1 {
        r[n + i] = if i == 0 {
            (p.mul_1)(&mut r[1..n], &a[1..], a[0])
        } else {
            (p.addmul_1)(&mut r[2 * i + 1..n + i], &a[i + 1..], a[i])
        };
    }
    bignum::mpn::portable::diag_addlsh1(&mut r, a);
    r
}

fn to_big(x: &[Limb]) -> num_bigint::BigUint {
    num_bigint::BigUint::from_bytes_le(&x.iter().flat_map(|l| l.to_le_bytes()).collect::<Vec<u8>>())
}

#[test]
fn sqr_basecase_matches_portable_and_num_bigint() {
    let Some(token) = cpu::adx() else { return };
    let sqr = kernels(token).sqr_basecase;
    let mut seed = 0x5151;
    for n in (1..=80).chain([100, 127, 200]) {
        for case in 0..7 {
            let mut a = limbs(&mut seed, n);
            match case {
                1 => a.fill(Limb::MAX),
                2 => a.fill(0),
                3 => {
                    a.fill(0);
                    a[0] = 1;
                }
                4 => a[n - 1] = Limb::MAX,
                5 => a[n - 1] = 0,
                6 => {
                    a.fill(Limb::MAX);
                    a[0] = 0;
                }
                _ => {}
            }
            let want = portable_sqr(&a);
            // Garbage in r: the kernel must not read what it did not write.
            let mut got = limbs(&mut seed, 2 * n);
            sqr(&mut got, &a);
            assert_eq!(got, want, "n = {n}, case {case}: ADX against portable");
            let big = to_big(&a);
            assert_eq!(
                to_big(&got),
                &big * &big,
                "n = {n}, case {case}: num-bigint"
            );
        }
    }
}

#[test]
fn sqr_basecase_wrapper_rejects_length_mismatch() {
    let Some(token) = cpu::adx() else { return };
    let sqr = kernels(token).sqr_basecase;
    for (rn, an) in [(2, 0), (0, 0), (5, 3), (7, 4)] {
        let err = std::panic::catch_unwind(|| sqr(&mut vec![0; rn], &vec![1; an]))
            .expect_err("length mismatch must panic");
        let msg = err.downcast_ref::<&str>().copied().unwrap_or_default();
        assert!(msg.contains("length mismatch"), "{rn}, {an}: {msg:?}");
    }
}
