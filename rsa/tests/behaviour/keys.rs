//! Keys: generated keys satisfy every relation (checked with num-bigint), import round trips,
//! and every validation failure gives its own error and never panics.
// Test code on public test data: divisions and truncating casts are harmless here.
#![allow(
    clippy::unwrap_used,
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation
)]

use crate::common;

use common::{big, bytes, check_fips, check_relations, key_1024, parts_from_primes, rng, secret};
use num_bigint::BigUint;
use rsatool_rsa::{Error, KeyError, PrivateKeyParts, PublicKeyParts, RsaPrivateKey, RsaPublicKey};

const fn assert_send_sync<T: Send + Sync>() {}
const _: () = assert_send_sync::<RsaPrivateKey>();
const _: () = assert_send_sync::<RsaPublicKey>();

fn generated(bits: usize, seed: u64) {
    let key = RsaPrivateKey::generate(bits, &mut rng(seed)).unwrap();
    assert_eq!(key.bits(), bits);
    assert_eq!(key.size(), bits.div_ceil(8));
    let parts = key.to_parts();
    assert_eq!(big(&parts.e), BigUint::from(65537u32));
    check_relations(&parts, bits);
    check_fips(&parts, bits);
}

#[test]
fn generated_1024_keys_satisfy_every_relation() {
    for seed in 0..3 {
        generated(1024, seed);
    }
}

#[test]
fn generated_2048_keys_satisfy_every_relation() {
    for seed in 10..12 {
        generated(2048, seed);
    }
}

#[test]
fn generated_3072_key_satisfies_every_relation() {
    generated(3072, 20);
}

#[test]
fn generated_odd_multiple_of_64_size() {
    // 1090 bits: primes of 545 bits, 9 limbs each, n of 18 limbs.
    generated(1090, 21);
}

#[test]
fn generated_4096_key_satisfies_every_relation_when_slow_tests_are_on() {
    if std::env::var("RSA_SLOW_TESTS").as_deref() != Ok("1") {
        println!("skipped: set RSA_SLOW_TESTS=1 to generate a 4096-bit key");
        return;
    }
    generated(4096, 30);
}

#[test]
fn generated_with_small_exponents() {
    for (seed, e) in [(40, 3u64), (41, 17), (42, (1 << 32) + 15)] {
        let key = RsaPrivateKey::generate_with_exponent(1024, e, &mut rng(seed)).unwrap();
        let parts = key.to_parts();
        assert_eq!(big(&parts.e), BigUint::from(e));
        check_relations(&parts, 1024);
        check_fips(&parts, 1024);
    }
}

#[test]
fn generated_multi_prime_keys_satisfy_every_relation() {
    let key = RsaPrivateKey::generate_multi_prime(2048, 3, &mut rng(50)).unwrap();
    assert_eq!(key.prime_count(), 3);
    check_relations(&key.to_parts(), 2048);
    for (nprimes, seed) in [(4, 51), (5, 52)] {
        let key = RsaPrivateKey::generate_multi_prime(1024, nprimes, &mut rng(seed)).unwrap();
        assert_eq!(key.prime_count(), nprimes);
        check_relations(&key.to_parts(), 1024);
    }
}

#[test]
fn generate_refuses_bad_sizes_and_exponents() {
    let mut r = rng(60);
    assert_eq!(
        RsaPrivateKey::generate(1022, &mut r).unwrap_err(),
        Error::InvalidKey(KeyError::ModulusTooSmall {
            bits: 1022,
            min: 1024
        })
    );
    assert_eq!(
        RsaPrivateKey::generate(16386, &mut r).unwrap_err(),
        Error::InvalidKey(KeyError::ModulusTooLarge { bits: 16386 })
    );
    assert!(matches!(
        RsaPrivateKey::generate(1025, &mut r).unwrap_err(),
        Error::Unsupported(_)
    ));
    for e in [0, 1, 2, 4, 65536] {
        assert_eq!(
            RsaPrivateKey::generate_with_exponent(1024, e, &mut r).unwrap_err(),
            Error::InvalidKey(KeyError::PublicExponentInvalid)
        );
    }
    for count in [0, 1, 6] {
        assert_eq!(
            RsaPrivateKey::generate_multi_prime(1024, count, &mut r).unwrap_err(),
            Error::InvalidKey(KeyError::PrimeCount { count })
        );
    }
}

#[test]
fn parts_round_trip() {
    let key = key_1024();
    let parts = key.to_parts();
    let again = RsaPrivateKey::from_parts(&parts).unwrap();
    let parts2 = again.to_parts();
    assert_eq!(parts.n, parts2.n);
    assert_eq!(parts.e, parts2.e);
    assert_eq!(*parts.d, *parts2.d);
    assert_eq!(parts.primes, parts2.primes);
    assert_eq!(parts.exponents, parts2.exponents);
    assert_eq!(parts.coefficients, parts2.coefficients);
    let public = RsaPublicKey::from_parts(&key.public_key().to_parts()).unwrap();
    assert_eq!(&public, key.public_key());
    assert_eq!(public.to_parts().n, parts.n);
}

#[test]
fn imported_num_bigint_keys_round_trip() {
    // Unbalanced primes (different limb counts) and a multi-prime key built by the oracle.
    let mut r = rng(70);
    let p = common::prime(700, &mut r);
    let q = common::prime(330, &mut r);
    let parts = parts_from_primes(&[p, q], 65537);
    let key = RsaPrivateKey::from_parts(&parts).unwrap();
    assert_eq!(*key.to_parts().d, *parts.d);
    assert_eq!(key.to_parts().coefficients, parts.coefficients);
    let primes: Vec<BigUint> = [400, 350, 300]
        .iter()
        .map(|&b| common::prime(b, &mut r))
        .collect();
    let parts = parts_from_primes(&primes, 65537);
    let key = RsaPrivateKey::from_parts(&parts).unwrap();
    assert_eq!(key.prime_count(), 3);
    assert_eq!(key.to_parts().coefficients, parts.coefficients);
}

fn err(parts: &PrivateKeyParts) -> KeyError {
    match RsaPrivateKey::from_parts(parts) {
        Err(Error::InvalidKey(k)) => k,
        other => panic!("expected a key error, got {other:?}"),
    }
}

fn bump(x: &[u8], delta: i64) -> Vec<u8> {
    let v = big(x);
    let v = if delta >= 0 {
        v + BigUint::from(delta as u64)
    } else {
        v - BigUint::from((-delta) as u64)
    };
    bytes(&v)
}

#[test]
fn each_validation_failure_has_its_own_error() {
    let base = key_1024().to_parts();

    let mut p = base.clone();
    p.n = bump(&p.n, 1);
    assert_eq!(err(&p), KeyError::ModulusEven);

    for e in [vec![1u8, 0], vec![1], vec![], vec![2]] {
        let mut p = base.clone();
        p.e = e;
        assert_eq!(err(&p), KeyError::PublicExponentInvalid);
    }
    let mut p = base.clone();
    p.e = p.n.clone();
    assert_eq!(err(&p), KeyError::PublicExponentInvalid);
    let mut p = base.clone();
    p.e = bump(&p.n, 2);
    assert_eq!(err(&p), KeyError::PublicExponentInvalid);

    let mut p = base.clone();
    p.primes[1] = secret(&(big(&p.primes[1]) + 2u32));
    assert_eq!(err(&p), KeyError::PrimesProductMismatch);

    let mut p = base.clone();
    p.d = zeroize::Zeroizing::new(bump(&p.d, 2));
    assert_eq!(err(&p), KeyError::PrivateExponentInvalid);
    let mut p = base.clone();
    p.d = zeroize::Zeroizing::new(Vec::new());
    assert_eq!(err(&p), KeyError::PrivateExponentInvalid);
    let mut p = base.clone();
    p.d = zeroize::Zeroizing::new(vec![0xff; p.n.len() + 1]);
    assert_eq!(err(&p), KeyError::PrivateExponentInvalid);

    for i in 0..2 {
        let mut p = base.clone();
        p.exponents[i] = zeroize::Zeroizing::new(bump(&p.exponents[i], 2));
        assert_eq!(err(&p), KeyError::CrtValuesInconsistent, "exponent {i}");
    }
    let mut p = base.clone();
    p.coefficients[0] = zeroize::Zeroizing::new(bump(&p.coefficients[0], 1));
    assert_eq!(err(&p), KeyError::CrtValuesInconsistent);
    // qInv + p: the same residue, but not below p.
    let mut p = base.clone();
    p.coefficients[0] = secret(&(big(&p.coefficients[0]) + big(&p.primes[0])));
    assert_eq!(err(&p), KeyError::CrtValuesInconsistent);
    let mut p = base.clone();
    p.coefficients.push(p.coefficients[0].clone());
    assert_eq!(err(&p), KeyError::CrtValuesInconsistent);
    let mut p = base.clone();
    p.exponents.pop();
    assert_eq!(err(&p), KeyError::CrtValuesInconsistent);

    let mut p = base.clone();
    p.primes.truncate(1);
    assert_eq!(err(&p), KeyError::PrimeCount { count: 1 });
    let mut p = base.clone();
    p.primes = vec![p.primes[0].clone(); 6];
    assert_eq!(err(&p), KeyError::PrimeCount { count: 6 });
}

#[test]
fn equal_primes_are_refused() {
    let p = common::prime(512, &mut rng(80));
    let mut parts = parts_from_primes(&[p.clone(), common::prime(512, &mut rng(81))], 65537);
    parts.n = bytes(&(&p * &p));
    parts.primes[1] = parts.primes[0].clone();
    assert_eq!(err(&parts), KeyError::PrimesNotDistinct);
}

#[test]
fn prime_sharing_a_factor_with_e_is_refused() {
    let parts = key_1024().to_parts();
    let pm1 = big(&parts.primes[0]) - 1u32;
    // The smallest odd prime factor of p - 1 below 1000 (one exists for almost every p; the
    // test key is fixed, so this is deterministic).
    let f = (3u32..1000)
        .step_by(2)
        .find(|&f| (&pm1 % f) == BigUint::from(0u32))
        .expect("p - 1 has a small odd factor");
    let mut p = parts.clone();
    p.e = bytes(&BigUint::from(f));
    assert_eq!(err(&p), KeyError::PrimesNotCoprimeToE);
}

#[test]
fn size_limits() {
    let small = common::small_parts(256, 256, 90);
    assert_eq!(
        err(&small),
        KeyError::ModulusTooSmall {
            bits: 512,
            min: 1024
        }
    );
    let key = RsaPrivateKey::from_parts_allowing_small(&small, 512).unwrap();
    assert_eq!(key.bits(), 512);
    let public = PublicKeyParts {
        n: small.n.clone(),
        e: small.e.clone(),
    };
    assert_eq!(
        RsaPublicKey::from_parts(&public).unwrap_err(),
        Error::InvalidKey(KeyError::ModulusTooSmall {
            bits: 512,
            min: 1024
        })
    );
    assert!(RsaPublicKey::from_parts_allowing_small(&public, 512).is_ok());

    // Over 16384 bits: refused on its length, before any arithmetic.
    let mut huge = key_1024().to_parts();
    huge.n = vec![0xff; 2049];
    assert_eq!(err(&huge), KeyError::ModulusTooLarge { bits: 16392 });
    let public = PublicKeyParts {
        n: vec![0xff; 4096],
        e: vec![1, 0, 1],
    };
    assert_eq!(
        RsaPublicKey::from_parts(&public).unwrap_err(),
        Error::InvalidKey(KeyError::ModulusTooLarge { bits: 32768 })
    );
}

#[test]
fn mutated_parts_never_panic() {
    use rand_core::Rng;
    let base = common::small_parts(300, 260, 91);
    let mut r = rng(92);
    for i in 0..300 {
        let mut p = base.clone();
        let field = (r.next_u32() % 6) as usize;
        let buf: &mut Vec<u8> = match field {
            0 => &mut p.n,
            1 => &mut p.e,
            2 => &mut p.d,
            3 => &mut p.primes[(i & 1) as usize],
            4 => &mut p.exponents[(i & 1) as usize],
            _ => &mut p.coefficients[0],
        };
        match r.next_u32() % 4 {
            0 if !buf.is_empty() => {
                let j = r.next_u32() as usize % buf.len();
                buf[j] ^= 1 << (r.next_u32() % 8);
            }
            1 => buf.truncate(buf.len() / 2),
            2 => buf.push(r.next_u32() as u8),
            _ => buf.insert(0, 0),
        }
        // Leading zeros are tolerated; anything else must be refused, never a panic.
        let _ = RsaPrivateKey::from_parts_allowing_small(&p, 256);
    }
}

#[test]
fn debug_prints_no_secret() {
    let key = key_1024();
    let parts = key.to_parts();
    let s = format!("{key:?}");
    assert!(s.contains("1024") && s.contains("65537"), "{s}");
    let d_dec = big(&parts.d).to_string();
    assert!(!s.contains(&d_dec[..20]));
    let s = format!("{parts:?}");
    assert!(!s.contains(&format!("{:?}", &parts.d[..4])) || parts.d.len() < 4);
}
