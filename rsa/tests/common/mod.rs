//! Helpers shared by the rsa integration tests: num-bigint conversions (the oracle), a seeded
//! RNG, key relations checked independently of the code under test, and small keys built with
//! num-bigint for the validation tests.
// Test code on public test data: divisions and truncating casts are harmless here.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation
)]

pub mod der;
pub mod tools;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use rsatool_rsa::{PrivateKeyParts, RsaPrivateKey};
use zeroize::Zeroizing;

/// A deterministic RNG for reproducible tests.
pub fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

/// `k` bytes, the first zero and the rest from `r`: a value below any k-byte modulus (as a
/// ciphertext, badly padded for every scheme with overwhelming probability).
pub fn random_below(k: usize, r: &mut impl Rng) -> Vec<u8> {
    let mut c = vec![0u8; k];
    r.fill_bytes(&mut c[1..]);
    c
}

/// Big-endian bytes as a BigUint.
pub fn big(b: &[u8]) -> BigUint {
    BigUint::from_bytes_be(b)
}

/// A BigUint as big-endian bytes without leading zeros (zero is empty), as the parts hold them.
pub fn bytes(x: &BigUint) -> Vec<u8> {
    if x.is_zero() {
        Vec::new()
    } else {
        x.to_bytes_be()
    }
}

/// A BigUint as a secret part.
pub fn secret(x: &BigUint) -> Zeroizing<Vec<u8>> {
    Zeroizing::new(bytes(x))
}

/// A BigUint as exactly `k` big-endian bytes.
pub fn padded(x: &BigUint, k: usize) -> Vec<u8> {
    let b = x.to_bytes_be();
    let mut v = vec![0; k - b.len()];
    v.extend_from_slice(&b);
    v
}

/// 2^(p − 1) ≡ 1 (mod p) and 3^(p−1) ≡ 1: a Fermat test, enough to catch a composite
/// "prime" in these tests.
pub fn fermat(p: &BigUint) -> bool {
    let pm1 = p - 1u32;
    [2u32, 3, 5]
        .iter()
        .all(|&a| BigUint::from(a).modpow(&pm1, p).is_one())
}

/// Checks every relation of a private key's parts with num-bigint, for a key of `bits` bits:
/// n = ∏ r_i, n has exactly `bits` bits, each r_i probably prime, e·d ≡ 1 (mod lcm(r_i − 1)),
/// d_i = d mod (r_i − 1), qInv·q ≡ 1 (mod p), t_i·R_i ≡ 1 (mod r_i), coefficients below their
/// primes.
pub fn check_relations(parts: &PrivateKeyParts, bits: usize) {
    let n = big(&parts.n);
    let e = big(&parts.e);
    let d = big(&parts.d);
    let primes: Vec<BigUint> = parts.primes.iter().map(|p| big(p)).collect();
    assert_eq!(n.bits(), bits as u64, "n has the wrong size");
    let product = primes.iter().fold(BigUint::one(), |a, p| a * p);
    assert_eq!(product, n, "n is not the product of the primes");
    let mut lambda = BigUint::one();
    for (p, dp) in primes.iter().zip(&parts.exponents) {
        assert!(fermat(p), "a prime is composite");
        let pm1 = p - 1u32;
        assert_eq!(big(dp), &d % &pm1, "d_i is not d mod (r_i - 1)");
        assert!(e.gcd(&pm1).is_one(), "gcd(e, p - 1) != 1");
        lambda = lambda.lcm(&pm1);
    }
    assert!(((&e * &d) % &lambda).is_one(), "e*d != 1 mod lcm");
    assert!(d < lambda, "d not reduced modulo lcm");
    assert_eq!(parts.coefficients.len(), primes.len() - 1);
    let qinv = big(&parts.coefficients[0]);
    assert!(qinv < primes[0]);
    assert!(
        ((&qinv * &primes[1]) % &primes[0]).is_one(),
        "qinv*q != 1 mod p"
    );
    let mut r = &primes[0] * &primes[1];
    for (i, t) in parts.coefficients.iter().enumerate().skip(1) {
        let ri = &primes[i + 1];
        let t = big(t);
        assert!(&t < ri);
        assert!(((&t * &r) % ri).is_one(), "t_i*R_i != 1 mod r_i");
        r *= ri;
    }
}

/// The FIPS 186-5 checks specific to two-prime generated keys: p, q of bits/2 bits with their
/// top two bits set, |p − q| > 2^(bits/2 − 100), d > 2^(bits/2).
pub fn check_fips(parts: &PrivateKeyParts, bits: usize) {
    let half = (bits / 2) as u64;
    for p in &parts.primes {
        let p = big(p);
        assert_eq!(p.bits(), half, "prime of the wrong size");
        assert!(p.bit(half - 2), "second top bit not set");
    }
    let (p, q) = (big(&parts.primes[0]), big(&parts.primes[1]));
    let diff = if p > q { &p - &q } else { &q - &p };
    assert!(diff > BigUint::one() << (half - 100), "|p - q| too small");
    assert!(big(&parts.d) > BigUint::one() << half, "d too small");
}

/// A random prime of exactly `bits` bits (num-bigint and a Fermat test: test data only).
pub fn prime(bits: u64, rng: &mut ChaCha20Rng) -> BigUint {
    use rand_core::Rng;
    loop {
        let mut b = vec![0u8; bits.div_ceil(8) as usize];
        rng.fill_bytes(&mut b);
        let mut p = BigUint::from_bytes_be(&b) % (BigUint::one() << bits);
        p.set_bit(bits - 1, true);
        p.set_bit(0, true);
        if fermat(&p) && (&p - 1u32).gcd(&BigUint::from(65537u32)).is_one() {
            return p;
        }
    }
}

/// The parts of a key made from these primes and e, all values computed with num-bigint.
pub fn parts_from_primes(primes: &[BigUint], e: u64) -> PrivateKeyParts {
    let e = BigUint::from(e);
    let n = primes.iter().fold(BigUint::one(), |a, p| a * p);
    let lambda = primes
        .iter()
        .fold(BigUint::one(), |a, p| a.lcm(&(p - 1u32)));
    let d = e.modinv(&lambda).unwrap();
    let exponents = primes.iter().map(|p| secret(&(&d % (p - 1u32)))).collect();
    let mut coefficients = vec![secret(&primes[1].modinv(&primes[0]).unwrap())];
    let mut r = &primes[0] * &primes[1];
    for p in &primes[2..] {
        coefficients.push(secret(&(&r % p).modinv(p).unwrap()));
        r *= p;
    }
    PrivateKeyParts {
        n: bytes(&n),
        e: bytes(&e),
        d: secret(&d),
        primes: primes.iter().map(secret).collect(),
        exponents,
        coefficients,
    }
}

/// A small two-prime key (test data) with primes of `pbits` and `qbits` bits.
pub fn small_parts(pbits: u64, qbits: u64, seed: u64) -> PrivateKeyParts {
    let mut rng = rng(seed);
    let p = prime(pbits, &mut rng);
    let q = loop {
        let q = prime(qbits, &mut rng);
        if q != p {
            break q;
        }
    };
    parts_from_primes(&[p, q], 65537)
}

/// A 1024-bit generated key, shared by the tests of one binary.
pub fn key_1024() -> &'static RsaPrivateKey {
    static KEY: std::sync::OnceLock<RsaPrivateKey> = std::sync::OnceLock::new();
    KEY.get_or_init(|| RsaPrivateKey::generate(1024, &mut rng(1024)).unwrap())
}

/// A 2048-bit generated key, shared by the tests of one binary.
pub fn key_2048() -> &'static RsaPrivateKey {
    static KEY: std::sync::OnceLock<RsaPrivateKey> = std::sync::OnceLock::new();
    KEY.get_or_init(|| RsaPrivateKey::generate(2048, &mut rng(2048)).unwrap())
}

/// The 1024- and 2048-bit keys.
pub fn keys() -> [&'static RsaPrivateKey; 2] {
    [key_1024(), key_2048()]
}
