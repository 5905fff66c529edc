//! Primes constructed from a seed, as FIPS 186-5 specifies them for RSA key generation
//! (the routines FIPS 186-4 numbers C.6, C.9 and C.10, which FIPS 186-5 keeps for its
//! Appendix A.1.2 and A.1.4–A.1.6):
//!
//! - [`st_random_prime`]: the Shawe–Taylor construction (J. Shawe-Taylor, "Generating strong
//!   primes", Electronics Letters, 1986), a prime of an exact length from a seed, proved prime
//!   by Pocklington's criterion;
//! - [`provable_prime`]: a provable prime p of L bits with p − 1 divisible by 2·p0·p1 and
//!   p + 1 by p2, for auxiliary provable primes p1, p2 (lengths N1, N2; 1 for none);
//! - [`probable_prime_from_auxiliary`]: a probable prime p ≡ 1 mod 2·r1 and ≡ −1 mod r2, the
//!   first from a starting value X;
//! - [`first_probable_prime_from`]: the first probable prime from an odd start (the auxiliary
//!   probable primes of A.1.6).
//!
//! The hash is the caller's (`hash(bytes) -> digest`): this crate knows no hash functions.
//! A seed is an integer of a fixed byte length (its length as given); `seed + i` wraps modulo
//! 2^(8·len) and keeps that length.
//!
//! # Constant time
//!
//! No: these run on [`Nat`], in variable time. They exist to reproduce keys from a seed
//! (validation, known answers); keys for use should come from the constant-time generator.

use crate::Nat;
use alloc::vec::Vec;

/// A hash function over bytes, as the constructions take it.
pub type HashFn<'a> = &'a dyn Fn(&[u8]) -> Vec<u8>;

/// A Shawe–Taylor prime with the state the callers continue from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StPrime {
    /// The prime.
    pub prime: Nat,
    /// The seed after the construction (its input seed advanced).
    pub seed: Vec<u8>,
    /// prime_gen_counter.
    pub counter: usize,
}

/// `seed + i` as bytes of the seed's length (wrapping).
pub fn seed_plus(seed: &[u8], i: u64) -> Vec<u8> {
    let mut out = seed.to_vec();
    let mut carry = u128::from(i);
    for b in out.iter_mut().rev() {
        if carry == 0 {
            break;
        }
        let v = u128::from(*b) + (carry & 0xff);
        *b = v.to_le_bytes()[0];
        carry = (carry >> 8) + (v >> 8);
    }
    out
}

/// Σ_{i=0..=iterations} Hash(seed + i)·2^(i·outlen), and the seed advanced by iterations + 1
/// (FIPS 186-4 C.6 steps 19–20, C.10 steps 10–11).
fn hash_sum(seed: &[u8], iterations: usize, hash: HashFn<'_>) -> (Nat, Vec<u8>) {
    let mut x = Nat::ZERO;
    let mut shift = 0;
    for i in 0..=iterations {
        let h = hash(&seed_plus(seed, i as u64));
        x += Nat::from_be_bytes(&h) << shift;
        shift += 8 * h.len();
    }
    (x, seed_plus(seed, iterations as u64 + 1))
}

/// Whether `c` (above 2¹⁵) has a factor below 2¹⁵. The constructions test each candidate by
/// Pocklington's criterion, which no composite passes; skipping the composites trial division
/// finds (about 89% of them at RSA sizes) gives the same primes, provided the seed still
/// advances as the skipped test would have advanced it.
fn has_small_factor(c: &Nat) -> bool {
    (0..super::SMALL_PRIMES.len()).any(|i| super::small::residue(c.as_limbs(), i) == 0)
}

fn outlen_bits(hash: HashFn<'_>) -> usize {
    8 * hash(&[]).len()
}

fn pow2(bits: usize) -> Nat {
    Nat::one() << bits
}

/// ⌈a / b⌉ for b > 0.
fn ceil_div(a: &Nat, b: &Nat) -> Nat {
    let (q, r) = a.div_rem(b);
    if r.is_zero() { q } else { q + 1u64 }
}

/// The Shawe–Taylor random prime of exactly `length` bits from `seed` (FIPS 186-4 C.6,
/// ST_Random_Prime). `None` for `length` < 2 or when the construction fails (its counter
/// runs out, which FIPS 186 allows and a new seed fixes).
pub fn st_random_prime(length: usize, seed: &[u8], hash: HashFn<'_>) -> Option<StPrime> {
    if length < 2 {
        return None;
    }
    if length < 33 {
        // Steps 3–13: hash pairs until an odd value of `length` bits is prime.
        let mut prime_seed = seed.to_vec();
        let mut counter = 0;
        loop {
            let a = Nat::from_be_bytes(&hash(&prime_seed));
            let b = Nat::from_be_bytes(&hash(&seed_plus(&prime_seed, 1)));
            let c = xor(&a, &b);
            let half = pow2(length - 1);
            let c = &half + &(c % &half);
            let c = (c >> 1 << 1) + 1u64;
            counter += 1;
            prime_seed = seed_plus(&prime_seed, 2);
            // A value below 2³³: Baillie–PSW is exact there.
            if super::is_probable_prime(c.as_limbs()) {
                return Some(StPrime {
                    prime: c,
                    seed: prime_seed,
                    counter,
                });
            }
            if counter > 4 * length {
                return None;
            }
        }
    }
    // Step 14: c0, a prime of ⌈length/2⌉ + 1 bits, recursively.
    let st = st_random_prime(length.div_ceil(2) + 1, seed, hash)?;
    let (c0, mut prime_seed, mut counter) = (st.prime, st.seed, st.counter);
    let outlen = outlen_bits(hash);
    let iterations = length.div_ceil(outlen) - 1;
    let old_counter = counter;
    // Steps 18–21.
    let (x, s) = hash_sum(&prime_seed, iterations, hash);
    prime_seed = s;
    let half = pow2(length - 1);
    let x = &half + &(x % &half);
    let two_c0 = &c0 << 1;
    // Step 22: t = ⌈x / 2c0⌉.
    let mut t = ceil_div(&x, &two_c0);
    loop {
        // Step 23: back to the bottom of the range if 2tc0 + 1 is too long.
        if &(&t * &two_c0) + &Nat::one() > pow2(length) {
            t = ceil_div(&half, &two_c0);
        }
        // Steps 24–25.
        let c = &(&t * &two_c0) + &Nat::one();
        counter += 1;
        // Steps 26–29: a = 2 + (a mod (c − 3)); for a composite c found by trial division
        // only the seed moves on (its test would fail anyway).
        let found = if has_small_factor(&c) {
            prime_seed = seed_plus(&prime_seed, iterations as u64 + 1);
            false
        } else {
            let (a, s) = hash_sum(&prime_seed, iterations, hash);
            prime_seed = s;
            let a = (a % &(&c - 3u64)) + 2u64;
            // Steps 30–31: Pocklington, z = a^(2t) mod c.
            let z = a.pow_mod(&(&t << 1), &c);
            (&z - 1u64).gcd(&c).is_one() && z.pow_mod(&c0, &c).is_one()
        };
        if found {
            return Some(StPrime {
                prime: c,
                seed: prime_seed,
                counter,
            });
        }
        // Step 32.
        if counter >= 4 * length + old_counter {
            return None;
        }
        t += 1u64;
    }
}

fn xor(a: &Nat, b: &Nat) -> Nat {
    let (a, b) = (a.as_limbs(), b.as_limbs());
    let n = a.len().max(b.len());
    let limbs: Vec<_> = (0..n)
        .map(|i| a.get(i).copied().unwrap_or(0) ^ b.get(i).copied().unwrap_or(0))
        .collect();
    Nat::from_limbs(&limbs)
}

/// ⌊√2 · 2^(bits − 1)⌋ = ⌊√(2^(2·bits − 1))⌋, the lower bound of RSA primes.
pub fn sqrt2_times_pow2(bits: usize) -> Nat {
    pow2(2 * bits - 1).sqrt()
}

/// A provable prime with conditions (FIPS 186-4 C.10): the output of
/// [`provable_prime`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProvablePrime {
    /// p, of L bits, ≥ √2·2^(L−1).
    pub p: Nat,
    /// The auxiliary prime p1 (1 if N1 = 1).
    pub p1: Nat,
    /// The auxiliary prime p2 (1 if N2 = 1).
    pub p2: Nat,
    /// The seed after the construction.
    pub seed: Vec<u8>,
}

/// Constructs a provable prime p of `l` bits, with gcd(p − 1, e) = 1, from `first_seed`
/// (FIPS 186-4 C.10): auxiliary Shawe–Taylor primes p1 of `n1` bits and p2 of `n2` bits (1:
/// none), p0 of ⌈L/2⌉ + 1 bits, then p = 2(t·p2 − y)·p0·p1 + 1 ≡ −1 mod p2, proved by
/// Pocklington with p0. `None` if the construction fails (a new seed fixes it).
pub fn provable_prime(
    l: usize,
    n1: usize,
    n2: usize,
    first_seed: &[u8],
    e: &Nat,
    hash: HashFn<'_>,
) -> Option<ProvablePrime> {
    if l < 2 || n1 == 0 || n2 == 0 {
        return None;
    }
    // Steps 2–5.
    let (p1, p1_seed) = if n1 == 1 {
        (Nat::one(), first_seed.to_vec())
    } else {
        let s = st_random_prime(n1, first_seed, hash)?;
        (s.prime, s.seed)
    };
    let (p2, p2_seed) = if n2 == 1 {
        (Nat::one(), p1_seed)
    } else {
        let s = st_random_prime(n2, &p1_seed, hash)?;
        (s.prime, s.seed)
    };
    // Step 6.
    let st = st_random_prime(l.div_ceil(2) + 1, &p2_seed, hash)?;
    let (p0, mut pseed) = (st.prime, st.seed);
    // Steps 7–12.
    let outlen = outlen_bits(hash);
    let iterations = l.div_ceil(outlen) - 1;
    let mut pgen_counter = 0;
    let (x, s) = hash_sum(&pseed, iterations, hash);
    pseed = s;
    let low = sqrt2_times_pow2(l);
    let x = &low + &(x % &(&pow2(l) - &low));
    // Steps 13–14: y in [1, p2] with y·p0·p1 ≡ 1 mod p2.
    let p0p1 = &p0 * &p1;
    if !p0p1.gcd(&p2).is_one() {
        return None;
    }
    let y = if p2.is_one() {
        Nat::one()
    } else {
        p0p1.inv_mod_vartime(&p2)?
    };
    let two_p0p1 = &p0p1 << 1;
    let step = &two_p0p1 * &p2;
    // Step 15.
    let mut t = ceil_div(&(&(&two_p0p1 * &y) + &x), &step);
    loop {
        // Step 16: back to the bottom of the range if p would be too long.
        if &(&(&(&t * &p2) - &y) * &two_p0p1) + &Nat::one() > pow2(l) {
            t = ceil_div(&(&(&two_p0p1 * &y) + &low), &step);
        }
        // Steps 17–18.
        let k = &(&t * &p2) - &y;
        let p = &(&k * &two_p0p1) + &Nat::one();
        pgen_counter += 1;
        // Step 19 (a composite p found by trial division only moves the seed on, as in
        // `st_random_prime`).
        if (&p - 1u64).gcd(e).is_one() && has_small_factor(&p) {
            pseed = seed_plus(&pseed, iterations as u64 + 1);
        } else if (&p - 1u64).gcd(e).is_one() {
            let (a, s) = hash_sum(&pseed, iterations, hash);
            pseed = s;
            let a = (a % &(&p - 3u64)) + 2u64;
            let z = a.pow_mod(&(&(&k << 1) * &p1), &p);
            if (&z - 1u64).gcd(&p).is_one() && z.pow_mod(&p0, &p).is_one() {
                return Some(ProvablePrime {
                    p,
                    p1,
                    p2,
                    seed: pseed,
                });
            }
        }
        // Step 20.
        if pgen_counter >= 5 * l {
            return None;
        }
        t += 1u64;
    }
}

/// A probable prime from auxiliary primes (FIPS 186-4 C.9, steps 1, 2 and 4–11, with the
/// random X of step 3 given): the first Y = X + ((R − X) mod 2·r1·r2) + j·2·r1·r2 below
/// 2^(nlen/2) with gcd(Y − 1, e) = 1 that `is_prime` accepts, where R ≡ 1 mod 2·r1 and
/// R ≡ −1 mod r2. `None` if gcd(2·r1, r2) ≠ 1, if the search leaves the range (step 6 would
/// draw a new X) or runs out (step 9).
pub fn probable_prime_from_auxiliary(
    r1: &Nat,
    r2: &Nat,
    x: &Nat,
    nlen: usize,
    e: &Nat,
    is_prime: &dyn Fn(&Nat) -> bool,
) -> Option<Nat> {
    let two_r1 = r1 << 1;
    // Step 1.
    if !two_r1.gcd(r2).is_one() {
        return None;
    }
    // Step 2: R = (r2⁻¹ mod 2r1)·r2 − ((2r1)⁻¹ mod r2)·2r1, taken mod 2·r1·r2.
    let m = &two_r1 * r2;
    let a = &(&r2.inv_mod_vartime(&two_r1).unwrap_or_else(Nat::one) * r2) % &m;
    let b = if r2.is_one() {
        Nat::ZERO
    } else {
        &(&two_r1.inv_mod_vartime(r2)? * &two_r1) % &m
    };
    let r = (&a + &m - &b) % &m;
    // Step 4: Y = X + ((R − X) mod 2r1r2).
    let x_mod = x % &m;
    let mut y = x + &((&r + &m - &x_mod) % &m);
    let top = pow2(nlen >> 1);
    // Steps 5–11.
    for _ in 0..5 * (nlen >> 1) {
        if y >= top {
            return None;
        }
        if (&y - 1u64).gcd(e).is_one() && is_prime(&y) {
            return Some(y);
        }
        y += &m;
    }
    None
}

/// The first integer ≥ `start` (made odd by adding 1 if even) that `is_prime` accepts,
/// stepping by 2: the auxiliary probable primes of FIPS 186-5 A.1.6 (FIPS 186-4 B.3.6 step
/// 4) from the server's Xp1, Xp2, Xq1, Xq2. `None` after `limit` candidates.
pub fn first_probable_prime_from(
    start: &Nat,
    limit: usize,
    is_prime: &dyn Fn(&Nat) -> bool,
) -> Option<Nat> {
    let mut c = if start.is_even() {
        start + 1u64
    } else {
        start.clone()
    };
    for _ in 0..limit {
        if is_prime(&c) {
            return Some(c);
        }
        c += 2u64;
    }
    None
}
