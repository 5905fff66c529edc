//! RSA keys' values: [`RsaPublicKey`] (n, e), a private key's validated values
//! (`PrivateValues`: n, e, d, the primes and the CRT values), and their plain
//! [`PublicKeyParts`] / [`PrivateKeyParts`]. The bottom of the crate's keys: nothing here runs
//! a private operation (`primitive`) or knows the private key type built on these values.
//!
//! Secrets live in `bignum::modular` types ([`Modulus`](bignum::modular::Modulus) for each
//! prime, [`Residue`](bignum::modular::Residue) for the CRT coefficients) or in
//! `Zeroizing<Vec<Limb>>` buffers, never in [`Nat`](bignum::Nat), which is for the public n and
//! e only. The Montgomery contexts of n and of every prime are computed once, when the key is
//! built; every operation takes `&self`.

mod parts;
mod private;
mod public;

use alloc::{vec, vec::Vec};
use bignum::{Limb, mpn};
use zeroize::Zeroizing;

pub use parts::{PrivateKeyParts, PublicKeyParts};
pub(crate) use private::{CrtPrime, PrivateValues, mul as private_mul, to_parts};
pub use public::RsaPublicKey;

/// The smallest modulus, in bits, accepted without asking explicitly (the
/// `*_allowing_small` constructors, meant for tests).
pub const MIN_MODULUS_BITS: usize = 1024;

/// The largest modulus accepted, in bits; larger inputs are refused before any arithmetic.
pub const MAX_MODULUS_BITS: usize = 16384;

/// The most primes a key may have (as OpenSSL's `RSA_MAX_PRIME_NUM`).
pub const MAX_PRIMES: usize = 5;

/// `bytes` without its leading zero bytes.
///
/// # Constant time
///
/// No: the count of leading zero bytes leaks, as it does in any DER encoding of the value.
pub(crate) fn strip_leading_zeros(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
    &bytes[start..]
}

/// Big-endian bytes (leading zeros already stripped by the caller, or not) as exactly `n`
/// little-endian limbs, or `None` if they do not fit.
///
/// # Constant time
///
/// Depends on `bytes.len()` and `n` only (after stripping, on the value's byte length).
pub(crate) fn be_to_limbs(bytes: &[u8], n: usize) -> Option<Zeroizing<Vec<Limb>>> {
    let bytes = strip_leading_zeros(bytes);
    if bytes.len() > 8 * n {
        return None;
    }
    let mut r = Zeroizing::new(vec![0; n]);
    mpn::from_be_bytes(&mut r, bytes);
    Some(r)
}

/// Little-endian limbs as big-endian bytes without leading zero bytes (zero is empty).
///
/// # Constant time
///
/// The conversion depends on the limb count only; the final strip leaks the value's byte
/// length, as its DER encoding does.
pub(crate) fn limbs_to_be(limbs: &[Limb]) -> Zeroizing<Vec<u8>> {
    let mut out = Zeroizing::new(vec![0u8; 8 * limbs.len()]);
    mpn::to_be_bytes(&mut out, limbs);
    let skip = out.len() - strip_leading_zeros(&out).len();
    Zeroizing::new(out[skip..].to_vec())
}

/// The bit length of big-endian bytes (leading zeros allowed).
///
/// # Constant time
///
/// No: for public values (n, e).
pub(crate) fn bit_len_be(bytes: &[u8]) -> usize {
    let b = strip_leading_zeros(bytes);
    match b.first() {
        None => 0,
        Some(&top) => 8 * b.len() - top.leading_zeros() as usize,
    }
}
