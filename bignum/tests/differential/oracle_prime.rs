//! Primality testing and prime generation against an independent oracle (trial division plus
//! Miller–Rabin written here on num-bigint), known primes, and known hard composites.

// The oracle is plain arithmetic on public test values: division is no timing concern here.
#![allow(clippy::integer_division_remainder_used)]

use std::sync::LazyLock;

use bignum::prime::{self, PrimeOptions};
use bignum::{Limb, Nat};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use proptest::prelude::*;
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;

use crate::common::{self, big};

/// The primes below 1000, by trial division, computed once for every call of the oracle.
static SMALL_PRIMES: LazyLock<Vec<u32>> = LazyLock::new(|| {
    (2u32..1000)
        .filter(|&v| (2..v).take_while(|d| d * d <= v).all(|d| v % d != 0))
        .collect()
});

/// Independent primality oracle: trial division by primes below 1000, then Miller–Rabin with
/// the first 40 primes as bases (no composite below 3.3·10²⁴ passes the first 13 of them).
fn oracle_is_prime(n: &BigUint) -> bool {
    let small = &*SMALL_PRIMES;
    if n < &BigUint::from(2u32) {
        return false;
    }
    for &p in small {
        if (n % p).is_zero() {
            return n == &BigUint::from(p);
        }
    }
    let one = BigUint::one();
    let nm1 = n - &one;
    let s = nm1.trailing_zeros().unwrap_or(0);
    let d = &nm1 >> s;
    small.iter().take(40).all(|&a| {
        let mut x = BigUint::from(a).modpow(&d, n);
        if x == one || x == nm1 {
            return true;
        }
        for _ in 1..s {
            x = &x * &x % n;
            if x == nm1 {
                return true;
            }
        }
        false
    })
}

fn limbs_of(x: &BigUint) -> Vec<Limb> {
    let v = x.to_u64_digits();
    if v.is_empty() { vec![0] } else { v }
}

fn ours(x: &BigUint) -> bool {
    prime::is_probable_prime(&limbs_of(x))
}

fn from_hex(s: &str) -> BigUint {
    BigUint::parse_bytes(s.as_bytes(), 16).expect("test constant is hex")
}

/// RFC 3526 MODP group 5 (1536 bits) and group 14 (2048 bits): safe primes.
const RFC3526_1536: &str = "ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b0bff5cb6f406b7edee386bfb5a899fa5ae9f24117c4b1fe649286651ece45b3dc2007cb8a163bf0598da48361c55d39a69163fa8fd24cf5f83655d23dca3ad961c62f356208552bb9ed529077096966d670c354e4abc9804f1746c08ca237327ffffffffffffffff";
const RFC3526_2048: &str = "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF";

#[test]
fn known_primes_are_accepted() {
    let one = BigUint::one();
    // Mersenne primes 2^p − 1.
    for p in [
        2u32, 3, 5, 7, 13, 17, 19, 31, 61, 89, 107, 127, 521, 607, 1279,
    ] {
        let m = (&one << p) - &one;
        assert!(ours(&m), "2^{p} - 1 is prime");
    }
    for hex in [RFC3526_1536, RFC3526_2048] {
        let p = from_hex(hex);
        assert!(ours(&p), "RFC 3526 prime of {} bits", p.bits());
        assert!(
            ours(&((&p - &one) >> 1)),
            "(p - 1)/2 of the {}-bit safe prime",
            p.bits()
        );
    }
    // The largest prime below 2⁶⁴ and the smallest above it.
    assert!(ours(&BigUint::from(u64::MAX - 58)));
    assert!(ours(&((&one << 64u32) + BigUint::from(13u32))));
}

#[test]
fn known_hard_composites_are_rejected() {
    let one = BigUint::one();
    let mut composites: Vec<BigUint> = Vec::new();
    // Carmichael numbers: Fermat liars for every coprime base.
    for c in [
        561u64,
        1105,
        1729,
        2465,
        2821,
        6601,
        8911,
        41041,
        825_265,
        321_197_185,
        9_746_347_772_161,
    ] {
        composites.push(BigUint::from(c));
    }
    // Strong pseudoprimes to every prime base up to 37 or 41 (checked with Python before use).
    for c in [
        "3215031751",
        "3825123056546413051",
        "318665857834031151167461",
        "3317044064679887385961981",
    ] {
        composites.push(BigUint::parse_bytes(c.as_bytes(), 10).expect("decimal"));
    }
    // Strong Lucas pseudoprimes (OEIS A217255): the Lucas half alone would accept them.
    for c in [
        5459u64, 5777, 10877, 16109, 18971, 22499, 24569, 25199, 40309, 58519,
    ] {
        composites.push(BigUint::from(c));
    }
    // Composite Mersenne numbers.
    for p in [11u32, 23, 29, 67, 257] {
        composites.push((&one << p) - &one);
    }
    // Products of two close primes, a prime square and cube (perfect powers), a safe prime times 3.
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for bits in [64usize, 256, 512] {
        let p = big(&prime::random_prime(bits, &mut rng));
        let mut q = &p + 2u32;
        while !oracle_is_prime(&q) {
            q += 2u32;
        }
        composites.push(&p * &q);
        composites.push(&p * &p);
        composites.push(&p * &p * &p);
    }
    composites.push(from_hex(RFC3526_2048) * 3u32);
    for c in &composites {
        assert!(!oracle_is_prime(c), "test input {c} must be composite");
        assert!(!ours(c), "{c} is composite");
    }
}

#[test]
fn random_primes_have_the_exact_length_and_are_prime() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for bits in (2usize..=40).chain([63, 64, 65, 127, 128, 129, 192, 256, 511, 512, 768, 1024]) {
        for top_two_bits in [false, true] {
            if top_two_bits && bits < 2 {
                continue;
            }
            let opts = PrimeOptions {
                top_two_bits,
                ..PrimeOptions::default()
            };
            let p = big(&prime::random_prime_with(bits, &opts, &mut rng));
            assert_eq!(p.bits(), bits as u64, "{bits}-bit prime");
            if top_two_bits {
                assert!(p.bit(bits as u64 - 2), "second bit of a {bits}-bit prime");
            }
            assert!(oracle_is_prime(&p), "{p} ({bits} bits) must be prime");
        }
    }
}

#[test]
fn the_public_exponent_condition_holds() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    for e in [3u64, 17, 65537, 3 * 5 * 7 * 11, (1 << 61) - 1] {
        for bits in [40usize, 256, 512] {
            let opts = PrimeOptions {
                top_two_bits: true,
                coprime_to_p_minus_1: Some(e),
                ..Default::default()
            };
            let p = big(&prime::random_prime_with(bits, &opts, &mut rng));
            assert!(oracle_is_prime(&p));
            let g = (&p - 1u32).gcd(&BigUint::from(e));
            assert!(g.is_one(), "gcd(p - 1, {e}) = {g} for p = {p}");
        }
    }
}

#[test]
fn round_counts_follow_fips_186_5_table_b1() {
    // Table B.1 (p and q for 2048-, 3072- and 4096-bit keys, the stronger error bound).
    assert_eq!(prime::rounds_for_bits(1024), 5);
    assert_eq!(prime::rounds_for_bits(1536), 4);
    assert_eq!(prime::rounds_for_bits(2048), 4);
    // The Damgård–Landrock–Pomerance bound for 2⁻¹⁰⁰, computed independently in Python.
    for (bits, rounds) in [
        (256, 17),
        (320, 13),
        (384, 11),
        (448, 9),
        (512, 8),
        (768, 5),
    ] {
        assert_eq!(prime::rounds_for_bits(bits), rounds, "{bits} bits");
    }
    // Below 256 bits, 4⁻⁵⁰ = 2⁻¹⁰⁰ for any odd number.
    assert_eq!(prime::rounds_for_bits(255), 50);
}

#[test]
fn nat_values_work_through_their_limbs() {
    let p: Nat = "170141183460469231731687303715884105727"
        .parse()
        .expect("2^127 - 1");
    assert!(prime::is_probable_prime(p.as_limbs()));
    assert!(!prime::is_probable_prime((p * Nat::from(3u64)).as_limbs()));
    assert!(!prime::is_probable_prime(Nat::ZERO.as_limbs()));
}

/// Odd numbers of 2..=1024 bits, some nudged to the next prime so both verdicts are exercised;
/// each with the oracle's verdict where the nudging has it already (the number it stops at is
/// one the oracle calls prime), so that the property does not run the oracle's 40 rounds on
/// that number a second time.
fn candidate() -> impl Strategy<Value = (BigUint, Option<bool>)> {
    (2usize..=1024, any::<u64>(), any::<bool>()).prop_map(|(bits, seed, to_prime)| {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let limbs: Vec<Limb> = (0..bits.div_ceil(64))
            .map(|_| rand_chacha::rand_core::Rng::next_u64(&mut rng))
            .collect();
        let mut x = big(&limbs) >> (64 * bits.div_ceil(64) - bits);
        x |= BigUint::one();
        if !to_prime {
            return (x, None);
        }
        while !oracle_is_prime(&x) {
            x += 2u32;
        }
        (x, Some(true))
    })
}

proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: (common::cases() / 20).max(50),
        ..common::config()
    })]

    #[test]
    fn is_probable_prime_agrees_with_the_oracle((n, verdict) in candidate()) {
        let oracle = verdict.unwrap_or_else(|| oracle_is_prime(&n));
        prop_assert_eq!(ours(&n), oracle, "n = {}", n);
    }
}
