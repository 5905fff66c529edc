//! ⚠️ Low-level "hazmat" RSA functions.
//!
//! <div class="warning">
//! <b> ☢️️ WARNING: HAZARDOUS API ☢️</b>
//!
//! This module holds functions that apply RSA's core encryption and decryption primitives to
//! raw data without adding or removing appropriate padding. A well-reviewed padding scheme is
//! crucial to the security of RSA, so there are very few valid uses cases for this API.
//! </div>
//!
//! The keys are generic (`impl PublicKeyParts` / `impl PrivateKeyParts`), so these work from
//! the integers the traits return, on our bignum: the public operation in variable time (n,
//! e and the input are public), the private one as a constant-time exponentiation modulo n
//! (without the CRT; an optional RNG is accepted and not needed, since the exponentiation's
//! time and memory accesses do not depend on the input or on d).

use alloc::vec::Vec;

use bignum::modular::Modulus;
use bignum::{Limb, Nat, mpn};
use crypto_bigint::BoxedUint;
use rand_core::TryCryptoRng;
use zeroize::Zeroizing;

use crate::errors::{Error, Result};
use crate::traits::{PrivateKeyParts, PublicKeyParts};

/// ⚠️ Raw RSA public-key operation on the integer representative `m`, without padding:
/// m^e mod n (RSAEP, RFC 8017 §5.1.1, and RSAVP1, §5.2.2), at n's precision. An input not
/// below n is reduced modulo n.
///
/// # Errors
///
/// None in practice (the `Result` is upstream's signature).
pub fn rsa_encrypt<K: PublicKeyParts>(key: &K, m: &BoxedUint) -> Result<BoxedUint> {
    let n = Nat::from_be_bytes(&key.n().to_be_bytes());
    let e = Nat::from_be_bytes(&key.e().to_be_bytes());
    let m = Nat::from_be_bytes(&m.to_be_bytes());
    let c = m.pow_mod(&e, &n);
    BoxedUint::from_be_slice(&c.to_be_bytes(), key.n().bits_precision()).map_err(Error::Decode)
}

/// ⚠️ Raw RSA private-key operation without padding or a fault check: c^d mod n (RSADP, RFC
/// 8017 §5.1.2, and RSASP1, §5.2.1), in constant time on our bignum.
///
/// # Errors
///
/// [`Error::Decryption`] if `c` is not at n's precision or not below n, [`Error::Rng`] if a
/// given RNG fails (it is asked for nothing, so only a broken RNG type could).
pub fn rsa_decrypt<R: TryCryptoRng + ?Sized>(
    _rng: Option<&mut R>,
    priv_key: &impl PrivateKeyParts,
    c: &BoxedUint,
) -> Result<BoxedUint> {
    let n = priv_key.n();
    if c.bits_precision() != n.as_ref().bits_precision() || c >= n.as_ref() {
        return Err(Error::Decryption);
    }
    let m = Modulus::from_be_bytes(&crate::bridge::be_bytes(n));
    // Leaks: whether n is a valid (odd) modulus, public.
    let m: Option<Modulus> = m.into();
    let m = m.ok_or(Error::InvalidModulus)?;
    let d = Zeroizing::new(limbs(&priv_key.d().to_be_bytes()));
    let d_bits = priv_key.d().bits_precision() as usize;
    let base = m.reduce(&limbs(&c.to_be_bytes()));
    let r = m.pow(&base, &d, d_bits);
    let mut out = Zeroizing::new(alloc::vec![0u8; 8 * m.limb_len()]);
    m.retrieve_be_bytes(&r, &mut out);
    BoxedUint::from_be_slice(&out, n.bits_precision()).map_err(Error::Decode)
}

/// ⚠️ [`rsa_decrypt`], then the result checked with the public exponent (m^e = c) against
/// faults.
///
/// # Errors
///
/// As [`rsa_decrypt`]; [`Error::Internal`] if the check fails.
pub fn rsa_decrypt_and_check<R: TryCryptoRng + ?Sized>(
    priv_key: &impl PrivateKeyParts,
    rng: Option<&mut R>,
    c: &BoxedUint,
) -> Result<BoxedUint> {
    let m = rsa_decrypt(rng, priv_key, c)?;
    let check = rsa_encrypt(priv_key, &m)?;
    if c != &check {
        return Err(Error::Internal);
    }
    Ok(m)
}

/// Big-endian bytes (whole limbs) as limbs, least significant first.
fn limbs(be: &[u8]) -> Vec<Limb> {
    let mut r = alloc::vec![0; be.len().div_ceil(8).max(1)];
    mpn::from_be_bytes(&mut r, be);
    r
}
