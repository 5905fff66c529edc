//! Time per variable-time modular inverse x⁻¹ mod n, the one the CRT private operation does per
//! call (on the blinded r·s, `inv_mod_vartime` in `src/primitive.rs`), at 1024, 2048 and 4096
//! bits, against a copy of the first implementation (Lehmer on 63 leading bits, commit
//! 0d6785f), interleaved so both see the same load.
//!
//! ```text
//! cargo run --release -p rsatool-rsa --example inv_bench [-- ROUNDS | profile]
//! ```
//!
//! `crt` times the CRT private operation of a fixed 2048-bit key instead (best of 300 batches:
//! compare two builds). `profile` runs only the current implementation, at 2048 bits, for three seconds (for
//! `perf record`).
//!
//! n is a random odd number of the size with its top bit set, and x random below n (32 pairs per
//! size, the same every run). Each round times one pass over the 32 inverses with each
//! implementation; the best round of ROUNDS (default 200) counts. Both results are checked
//! against each other first (and x·x⁻¹ ≡ 1).

use rsa::hazmat::PrivateOp;
use std::hint::black_box;
use std::time::Instant;

use bignum::{Limb, Nat, mpn};

/// Fixed pseudo-random limbs (SplitMix64).
fn limbs(seed: u64, n: usize) -> Vec<Limb> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
        .collect()
}

/// The CRT private operation of a fixed 2048-bit key (`private_op`, whose one inverse is this
/// one): the best of 300 batches of 10, in µs per operation. Compare two builds with it.
fn crt() {
    use rand_chacha::ChaCha20Rng;
    use rand_chacha::rand_core::SeedableRng;
    let mut rng = ChaCha20Rng::seed_from_u64(2048);
    let key = rsa::RsaPrivateKey::generate(2048, &mut rng).expect("keygen");
    let mut c = vec![0x5a; key.size()];
    c[0] = 0x01;
    let mut best = f64::INFINITY;
    for _ in 0..300 {
        let t = Instant::now();
        for _ in 0..10 {
            black_box(key.private_op(&mut rng, black_box(&c)).expect("private op"));
        }
        best = best.min(t.elapsed().as_secs_f64() / 10.0);
    }
    println!("private_op 2048: {:.1} µs", best * 1e6);
}

/// 32 pairs (x, n) of `bits` bits: n odd with its top bit set, x below n.
fn pairs(bits: usize) -> Vec<(Nat, Nat)> {
    let l = bits >> 6;
    (0..32u64)
        .map(|i| {
            let mut m = limbs(bits as u64 * 1000 + i, l);
            m[0] |= 1;
            m[l - 1] |= 1 << 63;
            let n = Nat::from_limbs(&m);
            let x = &Nat::from_limbs(&limbs(!(bits as u64 * 1000 + i), l)) % &n;
            (x, n)
        })
        .collect()
}

/// Seconds per inverse of one pass of `f` over `pairs`.
fn time(pairs: &[(Nat, Nat)], f: fn(&Nat, &Nat) -> Option<Nat>) -> f64 {
    let t = Instant::now();
    for (x, n) in pairs {
        black_box(f(black_box(x), black_box(n)));
    }
    t.elapsed().as_secs_f64() / pairs.len() as f64
}

fn main() {
    let arg = std::env::args().nth(1);
    if arg.as_deref() == Some("profile") {
        // The current implementation alone at 2048 bits for a few seconds, for `perf record`.
        let pairs = pairs(2048);
        let t = Instant::now();
        while t.elapsed().as_secs() < 3 {
            time(&pairs, rsa::inv_mod_vartime_for_bench);
        }
        return;
    }
    if arg.as_deref() == Some("crt") {
        crt();
        return;
    }
    let rounds: usize = arg.and_then(|a| a.parse().ok()).unwrap_or(200);
    println!("| bits | before (µs) | after (µs) | after / before |");
    println!("| ---: | ---: | ---: | ---: |");
    for bits in [1024usize, 2048, 4096] {
        let pairs = pairs(bits);
        for (x, n) in &pairs {
            let new = rsa::inv_mod_vartime_for_bench(x, n);
            assert_eq!(new, lehmer63(x, n), "the two implementations disagree");
            if let Some(y) = new {
                assert!(((x * &y) % n).is_one(), "not an inverse");
            }
        }
        let (mut before, mut after) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..rounds {
            before = before.min(time(&pairs, lehmer63));
            after = after.min(time(&pairs, rsa::inv_mod_vartime_for_bench));
        }
        println!(
            "| {bits} | {:.2} | {:.2} | {:.2} |",
            before * 1e6,
            after * 1e6,
            after / before
        );
    }
}

/// The first implementation, for comparison: Lehmer's extended Euclid (Knuth, TAOCP vol. 2,
/// §4.5.2, Algorithm L) on the leading 63 bits.
fn lehmer63(x: &Nat, n: &Nat) -> Option<Nat> {
    let l = n.as_limbs().len();
    let x = x % n;
    // Invariants: a ≡ ±|sa|·x and b ≡ ∓|sb|·x (mod n), the sign of sa being `sa_neg`; a ≥ b;
    // |sa|, |sb| ≤ n, so l + 1 limbs hold them and their Lehmer combinations.
    let mut a = n.as_limbs().to_vec();
    let mut b = x.to_limbs_padded(l)?;
    let mut sa = vec![0; l + 1];
    let mut sb = vec![0; l + 1];
    sb[0] = 1;
    let mut sa_neg = true;
    let (mut t1, mut t2) = (vec![0; l + 1], vec![0; l + 1]);
    let mut len = l;
    loop {
        len = mpn::normalized_len_vartime(&a[..len]);
        let blen = mpn::normalized_len_vartime(&b[..len]);
        if blen == 0 {
            break;
        }
        let abits = 64 * len - a[len - 1].leading_zeros() as usize;
        let shift = abits.saturating_sub(63);
        let (mut ah, mut bh) = (
            i128::from(bits_at(&a[..len], shift)),
            i128::from(bits_at(&b[..len], shift)),
        );
        // a' = ma·a + mb·b, b' = mc·a + md·b.
        let (mut ma, mut mb, mut mc, mut md) = (1i128, 0i128, 0i128, 1i128);
        loop {
            let (n1, d1, n2, d2) = (ah + ma, bh + mc, ah + mb, bh + md);
            // Stop where Knuth's test is undefined (and, conservatively, on a negative
            // numerator): fewer single-precision steps, never a wrong one. All four are below
            // 2⁶⁴ in magnitude, so u64 division serves (much faster than i128's).
            if d1 <= 0 || d2 <= 0 || n1 < 0 || n2 < 0 {
                break;
            }
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let (q, q2) = (quot(n1 as u64, d1 as u64), quot(n2 as u64, d2 as u64));
            if q != q2 {
                break;
            }
            let q = i128::from(q);
            (ma, mc) = (mc, ma - q * mc);
            (mb, md) = (md, mb - q * md);
            (ah, bh) = (bh, ah - q * bh);
        }
        if mb == 0 {
            // No single-precision step was certain: one full division step,
            // (a, b) ← (b, a − q·b), (sa, sb) ← (sb, sa − q·sb) with |sa − q·sb| = |sa| + q·|sb|.
            let (q, r) = Nat::from_limbs(&a[..len]).div_rem(&Nat::from_limbs(&b[..len]));
            let t = Nat::from_limbs(&sa) + &(&q * &Nat::from_limbs(&sb));
            core::mem::swap(&mut a, &mut b);
            b = r.to_limbs_padded(l)?;
            core::mem::swap(&mut sa, &mut sb);
            sb = t.to_limbs_padded(l + 1)?;
            sa_neg = !sa_neg;
        } else {
            lin(&mut t1[..len], ma, &a[..len], mb, &b[..len]);
            lin(&mut t2[..len], mc, &a[..len], md, &b[..len]);
            a[..len].copy_from_slice(&t1[..len]);
            b[..len].copy_from_slice(&t2[..len]);
            // ma·sa and mb·sb share a sign: sign(ma)·sign(sa) (or, ma = 0, of mb·sb).
            let neg = if ma != 0 {
                (ma < 0) != sa_neg
            } else {
                (mb < 0) == sa_neg
            };
            mag(&mut t1, ma, &sa, mb, &sb);
            mag(&mut t2, mc, &sa, md, &sb);
            sa.copy_from_slice(&t1);
            sb.copy_from_slice(&t2);
            sa_neg = neg;
        }
    }
    if !(a[0] == 1 && a[1..].iter().all(|&v| v == 0)) {
        return None;
    }
    let sa = &Nat::from_limbs(&sa) % n;
    Some(if sa_neg && !sa.is_zero() { n - &sa } else { sa })
}

/// ⌊n / d⌋ for d > 0: by subtraction for quotients up to 3 (about two thirds of the
/// quotients of the Euclidean algorithm, after the Gauss–Kuzmin distribution), which is
/// cheaper than the division instruction; by division beyond.
#[inline]
fn quot(n: u64, d: u64) -> u64 {
    let mut r = n;
    for q in 0..4 {
        if r < d {
            return q;
        }
        r -= d;
    }
    // Public values (the leading bits of a public a and b): `/` is fine.
    #[allow(clippy::integer_division_remainder_used)]
    let q = n / d;
    q
}

/// Bits [shift, shift + 63) of `a` (fewer at the top).
fn bits_at(a: &[Limb], shift: usize) -> u64 {
    let (i, o) = (shift >> 6, shift & 63);
    let lo = a.get(i).copied().unwrap_or(0) >> o;
    let hi = if o == 0 {
        0
    } else {
        a.get(i + 1).copied().unwrap_or(0) << (64 - o)
    };
    (lo | hi) & (u64::MAX >> 1)
}

/// r = c·u + d·v, known to be non-negative and below max(u, v) (Lehmer's update: c and d
/// have opposite signs or one is zero).
fn lin(r: &mut [Limb], c: i128, u: &[Limb], d: i128, v: &[Limb]) {
    #[allow(clippy::cast_possible_truncation)] // |c|, |d| < 2⁶⁴
    let (cu, du) = (c.unsigned_abs() as u64, d.unsigned_abs() as u64);
    // The positive term first, the negative one subtracted; the carry and the borrow cancel.
    let (p, pv, m, mv) = if c >= 0 && d <= 0 {
        (cu, u, du, v)
    } else {
        (du, v, cu, u)
    };
    mpn::mul_1(r, pv, p);
    mpn::submul_1(r, mv, m);
}

/// r = |c|·s + |d|·t (magnitudes of the cofactors; all l + 1 limbs, no overflow as the result
/// is at most n).
fn mag(r: &mut [Limb], c: i128, s: &[Limb], d: i128, t: &[Limb]) {
    #[allow(clippy::cast_possible_truncation)] // |c|, |d| < 2⁶⁴
    let (cu, du) = (c.unsigned_abs() as u64, d.unsigned_abs() as u64);
    mpn::mul_1(r, s, cu);
    mpn::addmul_1(r, t, du);
}
