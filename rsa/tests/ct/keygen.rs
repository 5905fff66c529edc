//! Constant-time drivers for key generation after the primes are found, for the plain private
//! operation, and for the constant-time comparisons the key code uses; and the rsa crate's
//! negative control.
//!
//! Key generation: the primes (test data from num-bigint) are marked secret and handed to
//! `rsatool_rsa::key_values_from_primes_for_ct_tests`, which runs generation's steps after
//! the prime search (the |p − q| checks, n = ∏ r_i, λ = lcm(r_i − 1), d = e⁻¹ mod λ and its size
//! check, d_i = d mod (r_i − 1), qInv and the t_i) exactly as `generate` does. It calls back
//! [`Declassify`] on each value that generation makes public on purpose: n, and the verdicts of
//! the checks (a failure only means drawing new primes). The driver marks those defined;
//! everything else derived from the primes stays secret, so any other branch or address that
//! depends on them is a memcheck error. The key's own validation (`from_limbs`, shared with key
//! loading) is not run here. The outputs are compared with num-bigint.
//!
//! The negative control (`leaky_*`) is deliberately leaky code over a real key's secret d:
//! `.ci/ct-check` runs it alone under memcheck and fails unless memcheck flags it, which proves
//! that the rsa binary's secrets are really marked and that a leak in rsa code is seen (the
//! suppressions of `.ci/rsa-ct.supp` apply to it too). Natively it is an ordinary test.

use rsatool_rsa::hazmat::PrivateOp;
use std::cell::Cell;

use bignum::Limb;
use bignum::modular::Modulus;
use num_bigint::BigUint;
use num_integer::Integer;
use rsatool_rsa::{Declassify, RsaPrivateKey};
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

use super::common::{big, padded, parts_from_primes, prime, rng};
use super::memcheck::{mark_public, mark_public_bytes, mark_secret};

/// Marks each declassified value defined, and counts the calls.
struct MarkPublic(Cell<usize>);

impl Declassify for MarkPublic {
    fn declassify<T: ?Sized>(&self, x: &mut T) {
        mark_public_bytes(&*x);
        self.0.set(self.0.get() + 1);
    }
}

/// A BigUint as exactly `n` little-endian limbs.
fn limbs(x: &BigUint, n: usize) -> Zeroizing<Vec<Limb>> {
    let mut v = Zeroizing::new(vec![0; n]);
    for (i, digit) in x.iter_u64_digits().enumerate() {
        v[i] = digit;
    }
    v
}

/// Runs generation's steps after the prime search on secret primes of these sizes and checks
/// every value against num-bigint.
fn check_key_values(sizes: &[u64], seed: u64) {
    let mut r = rng(seed);
    // Primes with their top two bits set, as generation draws them: n has the full size.
    let primes: Vec<BigUint> = sizes
        .iter()
        .map(|&b| {
            loop {
                let p = prime(b, &mut r);
                if p.bit(b - 2) {
                    break p;
                }
            }
        })
        .collect();
    let n = primes.iter().product::<BigUint>();
    let bits = usize::try_from(n.bits()).unwrap();
    let lambda = primes
        .iter()
        .fold(BigUint::from(1u32), |a, p| a.lcm(&(p - 1u32)));
    let e = BigUint::from(65537u32);
    let d = e.modinv(&lambda).unwrap();

    let secret_primes: Vec<Zeroizing<Vec<Limb>>> = primes
        .iter()
        .map(|p| limbs(p, usize::try_from(p.bits().div_ceil(64)).unwrap()))
        .collect();
    for p in &secret_primes {
        mark_secret(p);
    }
    let hook = MarkPublic(Cell::new(0));
    // The prime sizes are public (generation asks for them), computed before marking.
    let sizes: Vec<usize> = sizes.iter().map(|&b| usize::try_from(b).unwrap()).collect();
    let values = rsatool_rsa::key_values_from_primes_for_ct_tests(
        bits,
        &sizes,
        &secret_primes,
        65537,
        &hook,
    )
    .unwrap()
    .expect("the primes meet the FIPS 186-5 conditions");
    // The public points: n, the |r_i − r_j| verdicts, the inverse's existence, d's size, and
    // one CtOption per d_i and per coefficient (modulus and inverse).
    let pairs = (sizes.len() * (sizes.len() - 1)) >> 1;
    assert_eq!(
        hook.0.get(),
        pairs + 3 + sizes.len() + 2 * (sizes.len() - 1)
    );

    mark_public(&values.d);
    let nl = values.public.n().as_limbs().len();
    assert_eq!(
        values.public.n(),
        &bignum::Nat::from_be_bytes(&n.to_bytes_be())
    );
    assert_eq!(values.d, limbs(&d, nl));
    for ((x, p), sp) in values.exps.iter().zip(&primes).zip(&secret_primes) {
        mark_public(x);
        assert_eq!(*x, limbs(&(&d % (p - 1u32)), sp.len()));
    }
    let mut product = &primes[0] * &primes[1];
    for (i, c) in values.coeffs.iter().enumerate() {
        mark_public(c);
        let (target, want) = if i == 0 {
            (0, primes[1].modinv(&primes[0]).unwrap())
        } else {
            let t = (&product % &primes[i + 1]).modinv(&primes[i + 1]).unwrap();
            product *= &primes[i + 1];
            (i + 1, t)
        };
        assert_eq!(*c, limbs(&want, secret_primes[target].len()));
    }
}

#[test]
fn keygen_after_primes_with_secret_primes() {
    // The smallest sizes generation accepts (1024 bits): two primes, and three (1056 bits).
    check_key_values(&[512, 512], 41);
    check_key_values(&[352, 352, 352], 42);
}

#[test]
fn plain_private_op_with_secret_key() {
    let key = small_key(43);
    let parts = key.to_parts();
    for limbs in key.secret_limbs_for_ct_tests() {
        mark_secret(limbs);
    }
    for seed in [44, 45] {
        let mut c = vec![0u8; key.size()];
        rand_core::Rng::fill_bytes(&mut rng(seed), &mut c[1..]);
        let want = padded(&big(&c).modpow(&big(&parts.d), &big(&parts.n)), key.size());
        let m = key.private_op_plain(&c).unwrap();
        mark_public_bytes(m.as_slice());
        assert_eq!(m, want);
    }
}

/// `subtle`'s comparisons on limbs and on residues, as the key validation and the fault check
/// use them, with both operands secret: the verdict is the only output.
#[test]
fn constant_time_comparisons_on_secret_limbs_and_residues() {
    let key = small_key(46);
    let d: Vec<Limb> = key.secret_limbs_for_ct_tests()[0].to_vec();
    let mut other = d.clone();
    other[0] ^= 1 << 17;
    let p = Modulus::new_vartime(key.n().as_limbs()).unwrap();
    for (a, b, equal) in [(&d, &d, true), (&d, &other, false)] {
        let (a, b) = (a.clone(), b.clone());
        mark_secret(&a);
        mark_secret(&b);
        let verdict: Choice = a.ct_eq(&b);
        let (ra, rb) = (p.reduce(&a), p.reduce(&b));
        let residues: Choice = ra.ct_eq(&rb);
        mark_public_bytes(&verdict);
        mark_public_bytes(&residues);
        assert_eq!(bool::from(verdict), equal);
        assert_eq!(bool::from(residues), equal);
    }
}

/// Little-endian limbs as a BigUint.
fn big_limbs(a: &[Limb]) -> BigUint {
    let bytes: Vec<u8> = a.iter().flat_map(|l| l.to_le_bytes()).collect();
    BigUint::from_bytes_le(&bytes)
}

/// A 768-bit two-prime test key (valgrind is ~50x slower than native).
fn small_key(seed: u64) -> RsaPrivateKey {
    let mut r = rng(seed);
    let primes = [prime(384, &mut r), prime(384, &mut r)];
    RsaPrivateKey::from_parts_allowing_small(&parts_from_primes(&primes, 65537), 512).unwrap()
}

/// NEGATIVE CONTROL: the textbook private operation c^d mod n by square-and-multiply, without
/// blinding, multiplying only when a bit of the secret d is set: a branch on the secret.
#[test]
fn leaky_unblinded_square_and_multiply_branches_on_d() {
    let key = small_key(31);
    let parts = key.to_parts();
    let n_limbs: Vec<Limb> = key.n().as_limbs().to_vec();
    let n = Modulus::new_vartime(&n_limbs).expect("odd modulus");
    let d: Vec<Limb> = key.secret_limbs_for_ct_tests()[0].to_vec();
    mark_secret(&d);
    let c = big(&parts.n) / 3u32;
    let c_limbs: Vec<Limb> = {
        let mut v = vec![0; n_limbs.len()];
        for (i, digit) in c.iter_u64_digits().enumerate() {
            v[i] = digit;
        }
        v
    };
    let base = n.reduce(&c_limbs);
    let mut acc = n.one();
    for bit in (0..64 * d.len()).rev() {
        acc = n.sqr(&acc);
        if (d[bit >> 6] >> (bit & 63)) & 1 == 1 {
            acc = n.mul(&acc, &base);
        }
    }
    let m = n.retrieve(&acc);
    mark_public(&m);
    assert_eq!(big_limbs(&m), c.modpow(&big(&parts.d), &big(&parts.n)));
}
