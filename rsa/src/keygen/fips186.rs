//! RSA primes and keys from the inputs FIPS 186-5 Appendix A.1 names (a seed, the auxiliary
//! primes' lengths, the random starting values), deterministically: what a validation
//! server (NIST's ACVP, `infoGeneratedByServer`) hands an implementation to reproduce.
//!
//! - A.1.2 (FIPS 186-4 B.3.2), [`PrimeMethod::Provable`]: p and q by the provable
//!   construction (Shawe–Taylor, no auxiliary primes) from the seed;
//! - A.1.4 (B.3.4), [`PrimeMethod::ProvableWithProvableAux`]: the same with auxiliary provable
//!   primes p1, p2, q1, q2 of the given lengths;
//! - A.1.5 (B.3.5), [`PrimeMethod::ProbableWithProvableAux`]: auxiliary Shawe–Taylor primes
//!   from the seed, then probable primes from the given xP, xQ;
//! - A.1.6 (B.3.6), [`PrimeMethod::ProbableWithProbableAux`]: auxiliary probable primes from
//!   the given xP1, xP2, xQ1, xQ2, then probable primes from xP, xQ.
//!
//! The prime constructions are `bignum::prime`'s; this module chains them as Appendix A.1
//! does and assembles the key (d = e⁻¹ mod lcm(p − 1, q − 1), FIPS 186-5 A.1.1).
//!
//! # Constant time
//!
//! No: the construction runs on public-value `Nat` arithmetic (variable time). It exists to
//! reproduce known answers; [`RsaPrivateKey::generate`] makes keys for use.

use alloc::{format, vec, vec::Vec};
use bignum::Nat;
use bignum::prime::{
    first_probable_prime_from, is_probable_prime, probable_prime_from_auxiliary, provable_prime,
    sqrt2_times_pow2, st_random_prime,
};
use zeroize::Zeroizing;

use crate::{Error, HashAlg, PrivateKeyParts, Result, RsaPrivateKey};

/// How p and q are made, with the inputs each method takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrimeMethod {
    /// A.1.2: provable primes from `seed`.
    Provable {
        /// The seed (2·security strength bits).
        seed: Vec<u8>,
    },
    /// A.1.4: provable primes with provable auxiliary primes of lengths `bitlens` (p1, p2,
    /// q1, q2).
    ProvableWithProvableAux {
        /// The seed.
        seed: Vec<u8>,
        /// len(p1), len(p2), len(q1), len(q2).
        bitlens: [usize; 4],
    },
    /// A.1.5: probable primes from xP, xQ with provable auxiliary primes from `seed`.
    ProbableWithProvableAux {
        /// The seed.
        seed: Vec<u8>,
        /// len(p1), len(p2), len(q1), len(q2).
        bitlens: [usize; 4],
        /// The starting value of p.
        xp: Vec<u8>,
        /// The starting value of q.
        xq: Vec<u8>,
    },
    /// A.1.6: probable primes from xP, xQ with probable auxiliary primes from xP1, xP2, xQ1,
    /// xQ2.
    ProbableWithProbableAux {
        /// The starting value of p.
        xp: Vec<u8>,
        /// The starting value of q.
        xq: Vec<u8>,
        /// The starting values of p1, p2, q1, q2.
        x_aux: [Vec<u8>; 4],
    },
}

/// p and q of an `nlen`-bit key with public exponent `e` by `method`, with `hash` for the
/// seeded constructions.
///
/// # Errors
///
/// [`Error::Unsupported`] if a construction fails for these inputs (FIPS 186-5 would draw new
/// random values, which the caller gave) or |p − q| ≤ 2^(nlen/2 − 100) where the method has no
/// way to continue.
pub fn fips186_primes_vartime(
    nlen: usize,
    e: &Nat,
    hash: HashAlg,
    method: &PrimeMethod,
) -> Result<(Nat, Nat)> {
    let h = move |data: &[u8]| hash.digest(data);
    let fail = |what: &str| Error::Unsupported(format!("FIPS 186-5 key generation: {what}"));
    if nlen < 1024 || nlen & 1 == 1 {
        return Err(fail("nlen must be even and at least 1024"));
    }
    let half = nlen >> 1;
    let is_prime = |n: &Nat| is_probable_prime(n.as_limbs());
    let far_apart = |p: &Nat, q: &Nat| {
        let d = if p > q { p - q } else { q - p };
        d.bits() > half.saturating_sub(100)
    };
    match method {
        PrimeMethod::Provable { seed } | PrimeMethod::ProvableWithProvableAux { seed, .. } => {
            let [n1, n2, n3, n4] = match method {
                PrimeMethod::ProvableWithProvableAux { bitlens, .. } => *bitlens,
                _ => [1; 4],
            };
            // A.1.2 / A.1.4 steps 5–6: p, then q from where p's seed left off, again until
            // |p − q| > 2^(nlen/2 − 100).
            let p = provable_prime(half, n1, n2, seed, e, &h).ok_or_else(|| fail("p"))?;
            let mut working = p.seed;
            loop {
                let q = provable_prime(half, n3, n4, &working, e, &h).ok_or_else(|| fail("q"))?;
                working = q.seed;
                if far_apart(&p.p, &q.p) {
                    return Ok((p.p, q.p));
                }
            }
        }
        PrimeMethod::ProbableWithProvableAux {
            seed,
            bitlens,
            xp,
            xq,
        } => {
            // A.1.5 steps 4–5: p1, p2, q1, q2 chained Shawe–Taylor primes, then B.9.
            let p1 = st_random_prime(bitlens[0], seed, &h).ok_or_else(|| fail("p1"))?;
            let p2 = st_random_prime(bitlens[1], &p1.seed, &h).ok_or_else(|| fail("p2"))?;
            let q1 = st_random_prime(bitlens[2], &p2.seed, &h).ok_or_else(|| fail("q1"))?;
            let q2 = st_random_prime(bitlens[3], &q1.seed, &h).ok_or_else(|| fail("q2"))?;
            let p = from_aux(&p1.prime, &p2.prime, xp, nlen, e, &is_prime)
                .ok_or_else(|| fail("p from xP"))?;
            let q = from_aux(&q1.prime, &q2.prime, xq, nlen, e, &is_prime)
                .ok_or_else(|| fail("q from xQ"))?;
            if !far_apart(&p, &q) {
                return Err(fail("|p − q| too small for the given xP, xQ"));
            }
            Ok((p, q))
        }
        PrimeMethod::ProbableWithProbableAux { xp, xq, x_aux } => {
            // A.1.6 step 4: the first probable primes from the auxiliary starting values.
            let aux: Vec<Nat> = x_aux
                .iter()
                .map(|x| {
                    first_probable_prime_from(&Nat::from_be_bytes(x), 100_000, &is_prime)
                        .ok_or_else(|| fail("an auxiliary prime"))
                })
                .collect::<Result<_>>()?;
            let p = from_aux(&aux[0], &aux[1], xp, nlen, e, &is_prime)
                .ok_or_else(|| fail("p from xP"))?;
            let q = from_aux(&aux[2], &aux[3], xq, nlen, e, &is_prime)
                .ok_or_else(|| fail("q from xQ"))?;
            if !far_apart(&p, &q) {
                return Err(fail("|p − q| too small for the given xP, xQ"));
            }
            Ok((p, q))
        }
    }
}

/// B.9 (FIPS 186-4 C.9) from a given X, which must lie in [√2·2^(nlen/2 − 1), 2^(nlen/2)).
fn from_aux(
    r1: &Nat,
    r2: &Nat,
    x: &[u8],
    nlen: usize,
    e: &Nat,
    is_prime: &dyn Fn(&Nat) -> bool,
) -> Option<Nat> {
    let x = Nat::from_be_bytes(x);
    if x < sqrt2_times_pow2(nlen >> 1) || x.bits() > nlen >> 1 {
        return None;
    }
    probable_prime_from_auxiliary(r1, r2, &x, nlen, e, is_prime)
}

/// The two-prime key of p, q and e: d = e⁻¹ mod lcm(p − 1, q − 1) (FIPS 186-5 A.1.1), the CRT
/// values, validated as every key is.
///
/// # Errors
///
/// [`Error::InvalidKey`] if p, q and e do not make a valid key (e not invertible, a modulus
/// out of range, ...).
pub fn key_from_primes_vartime(p: &Nat, q: &Nat, e: &Nat) -> Result<RsaPrivateKey> {
    let invalid = || Error::InvalidKey(crate::KeyError::PrivateExponentInvalid);
    let (p1, q1) = (p - 1u64, q - 1u64);
    let g = p1.gcd(&q1);
    let lcm = &(&p1 * &q1) / &g;
    let d = e.inv_mod_vartime(&lcm).ok_or_else(invalid)?;
    let qinv = q.inv_mod_vartime(p).ok_or_else(invalid)?;
    let secret = |x: &Nat| Zeroizing::new(x.to_be_bytes());
    RsaPrivateKey::from_parts_allowing_small(
        &PrivateKeyParts {
            n: (p * q).to_be_bytes(),
            e: e.to_be_bytes(),
            d: secret(&d),
            primes: vec![secret(p), secret(q)],
            exponents: vec![secret(&(&d % &p1)), secret(&(&d % &q1))],
            coefficients: vec![secret(&qinv)],
        },
        512,
    )
}
