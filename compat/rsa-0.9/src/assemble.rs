//! The values of a private key that 0.9's constructors take without them (the CRT values, d,
//! n), computed from the primes on bignum's constant-time integer helpers, so that every key
//! reaches rsatool-rsa's validating `from_parts`. Only [`recover_primes_vartime`] (0.9's
//! `from_components` without primes) runs in variable time.
//!
//! With primes r_1, …, r_u: d_i = d mod (r_i − 1); qInv = q⁻¹ mod p; t_i = (r_1·…·r_(i−1))⁻¹
//! mod r_i for i ≥ 3 (RFC 8017 §3.2); d = e⁻¹ mod φ(n) = ∏(r_i − 1) (0.9's `from_primes` and
//! key generation) or mod λ(n) = lcm(p − 1, q − 1) (its `from_p_q`, NIST SP 800-56B §6.2.1).

use alloc::vec;
use alloc::vec::Vec;

use bignum::modular::{self, Modulus};
use bignum::{Limb, Nat, mpn};
use num_bigint::BigUint;
use subtle::CtOption;
use zeroize::Zeroizing;

/// The little-endian limbs of a secret integer: as many as its bytes need, at least one.
///
/// # Constant time
///
/// Depends on the byte length of `x` only.
pub(crate) fn limbs(x: &BigUint) -> Zeroizing<Vec<Limb>> {
    let bytes = Zeroizing::new(x.to_bytes_be());
    let mut r = Zeroizing::new(vec![0; bytes.len().div_ceil(8).max(1)]);
    mpn::from_be_bytes(&mut r, &bytes);
    r
}

/// Little-endian limbs as big-endian bytes without leading zeros.
///
/// # Constant time
///
/// The final strip leaks the byte length of the value, as its DER encoding does.
pub(crate) fn be_bytes(x: &[Limb]) -> Zeroizing<Vec<u8>> {
    let mut out = Zeroizing::new(vec![0u8; 8 * x.len()]);
    mpn::to_be_bytes(&mut out, x);
    let skip = out.iter().take_while(|&&b| b == 0).count();
    Zeroizing::new(out[skip..].to_vec())
}

/// The integers as limbs (see [`limbs`]).
pub(crate) fn all_limbs(xs: &[BigUint]) -> Vec<Zeroizing<Vec<Limb>>> {
    xs.iter().map(limbs).collect()
}

/// The product of `primes`, as many limbs as they have together.
///
/// # Constant time
///
/// Depends on the limb counts only.
pub(crate) fn product(primes: &[Zeroizing<Vec<Limb>>]) -> Zeroizing<Vec<Limb>> {
    let mut acc = Zeroizing::new(vec![1]);
    for p in primes {
        let mut r = Zeroizing::new(vec![0; acc.len() + p.len()]);
        if acc.len() >= p.len() {
            mpn::mul(&mut r, &acc, p);
        } else {
            mpn::mul(&mut r, p, &acc);
        }
        acc = r;
    }
    acc
}

/// p − 1 for p ≥ 1 (the caller has refused primes below 2).
fn minus_one(p: &[Limb]) -> Zeroizing<Vec<Limb>> {
    let mut r = Zeroizing::new(p.to_vec());
    mpn::sub_assign_1(&mut r, 1);
    r
}

/// A secret option made a plain one.
fn declassify<T>(x: CtOption<T>) -> Option<T> {
    // Leaks: whether the key's values exist (an invertible q mod p, a non-zero r_i − 1); a key
    // without them is refused, which the caller learns anyway.
    x.into()
}

/// Secret integers as big-endian bytes, each wiped on drop.
pub(crate) type SecretInts = Vec<Zeroizing<Vec<u8>>>;

/// The CRT exponents d_i and coefficients (qInv, then t_i) of a key with `primes` (each
/// at least 2) and private exponent `d`, as big-endian bytes; `None` if a coefficient does not
/// exist (two primes not coprime, an even prime).
///
/// # Constant time
///
/// Depends on the limb counts only, until the final verdict.
pub(crate) fn crt_values(
    d: &[Limb],
    primes: &[Zeroizing<Vec<Limb>>],
) -> Option<(SecretInts, SecretInts)> {
    let mut exponents = Vec::with_capacity(primes.len());
    for p in primes {
        exponents.push(be_bytes(&declassify(modular::rem(d, &minus_one(p)))?));
    }
    let mut coefficients = Vec::with_capacity(primes.len().saturating_sub(1));
    for i in (0..primes.len()).filter(|&i| i != 1) {
        // qInv belongs to p (its "previous primes" are q alone); t_i to r_i, i ≥ 3.
        let (target, previous) = if i == 0 {
            (&primes[0], product(&primes[1..2]))
        } else {
            (&primes[i], product(&primes[..i]))
        };
        let m = declassify(Modulus::new(target))?;
        let inv = declassify(m.inv(&m.reduce(&previous)))?;
        coefficients.push(be_bytes(&m.retrieve(&inv)));
    }
    Some((exponents, coefficients))
}

/// Which multiple of every r_i − 1 the private exponent inverts e modulo.
#[derive(Clone, Copy)]
pub(crate) enum Totient {
    /// φ(n) = ∏(r_i − 1).
    Euler,
    /// λ(n) = lcm(r_i − 1).
    Carmichael,
}

/// d = e⁻¹ mod φ(n) or λ(n) for `primes` (each at least 2); `None` if e is not invertible
/// (or even, or below 3).
///
/// # Constant time
///
/// Depends on the limb counts and e only, until the final verdict.
pub(crate) fn private_exponent(
    primes: &[Zeroizing<Vec<Limb>>],
    e: u64,
    totient: Totient,
) -> Option<Zeroizing<Vec<Limb>>> {
    let pm1s: Vec<_> = primes.iter().map(|p| minus_one(p)).collect();
    let modulus = match totient {
        Totient::Euler => product(&pm1s),
        Totient::Carmichael => {
            let mut acc = pm1s.first()?.clone();
            for pm1 in &pm1s[1..] {
                let len = acc.len().max(pm1.len());
                let (mut a, mut b) = (acc.to_vec(), pm1.to_vec());
                a.resize(len, 0);
                b.resize(len, 0);
                let (a, b) = (Zeroizing::new(a), Zeroizing::new(b));
                acc = modular::lcm(&a, &b);
            }
            acc
        }
    };
    declassify(modular::inv_public_mod_secret(e, &modulus))
}

/// p and q from n, e and d by NIST SP 800-56B Rev. 2 Appendix C.2 (for 2¹⁶ < e < 2²⁵⁶):
/// a = (de − 1)·gcd(n − 1, de − 1); a = m·n + r with 0 ≤ r < n; b = (n − r)/(m + 1) + 1,
/// exactly, with b² > 4n; γ = √(b² − 4n), exactly; p = (b + γ)/2, q = (b − γ)/2.
///
/// # Constant time
///
/// No: on bignum's public `Nat`, whose temporaries are not wiped. For 0.9's
/// `from_components` without primes only; a key with its primes does not come here.
pub(crate) fn recover_primes_vartime(
    n: &BigUint,
    e: &BigUint,
    d: &BigUint,
) -> Option<(BigUint, BigUint)> {
    let nat = |x: &BigUint| Nat::from_be_bytes(&Zeroizing::new(x.to_bytes_be()));
    let uint = |x: &Nat| BigUint::from_bytes_be(&Zeroizing::new(x.to_be_bytes()));
    let (n, e, d) = (nat(n), nat(e), nat(d));
    if e <= Nat::from(1u64 << 16) || e.bits() > 256 || n.is_zero() || d.is_zero() {
        return None;
    }
    let de1 = &(&d * &e) - 1u64;
    let a = &de1 * &(&n - 1u64).gcd(&de1);
    let (m, r) = a.div_rem(&n);
    let (b, rest) = (&n - &r).div_rem(&(&m + 1u64));
    if !rest.is_zero() {
        return None;
    }
    let b = &b + 1u64;
    let disc = b.square().checked_sub(&(&n << 2))?;
    if disc.is_zero() {
        return None;
    }
    let gamma = disc.sqrt();
    if gamma.square() != disc {
        return None;
    }
    let p = &(&b + &gamma) >> 1;
    let q = &(&b - &gamma) >> 1;
    Some((uint(&p), uint(&q)))
}
