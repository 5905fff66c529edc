//! ⚠️ Low-level "hazmat" RSA functions, on rsatool-rsa's raw primitives
//! ([`rsatool_rsa::hazmat`]).
//!
//! # ☢️️ WARNING: HAZARDOUS API ☢️
//!
//! This module holds functions that apply RSA's core encryption and decryption
//! primitives to raw data without adding or removing appropriate padding. A
//! well-reviewed padding scheme is crucial to the security of RSA, so there are
//! very few valid uses cases for this API. It's intended to be used for
//! implementing well-reviewed higher-level constructions.
//!
//! We do NOT recommend using it to implement any algorithm which has not
//! received extensive peer review by cryptographers.

use num_bigint::BigUint;
use rand_core::CryptoRngCore;
use rsatool_rsa::hazmat::PublicOp;

use crate::RsaPrivateKey;
use crate::bridge::{padded, uint};
use crate::errors::{Error, Result, from_rsatool};
use crate::traits::{PrivateKeyParts, PublicKeyParts};

/// ⚠️ Raw RSA encryption of m with the public key (m^e mod n). No padding is performed.
///
/// # ☢️️ WARNING: HAZARDOUS API ☢️
///
/// Use this function with great care! Raw RSA should never be used without an appropriate padding
/// or signature scheme. See the [module-level documentation][crate::hazmat] for more information.
///
/// # Errors
///
/// [`Error::InvalidModulus`] for a key rsatool-rsa refuses (even n, e even or not below n).
pub fn rsa_encrypt<K: PublicKeyParts>(key: &K, m: &BigUint) -> Result<BigUint> {
    let parts = rsatool_rsa::PublicKeyParts {
        n: key.n().to_bytes_be(),
        e: key.e().to_bytes_be(),
    };
    let public = rsatool_rsa::RsaPublicKey::from_parts_allowing_small(&parts, 0)
        .map_err(|_| Error::InvalidModulus)?;
    // 0.9 raises any m; m mod n first (public values).
    let n = bignum::Nat::from_be_bytes(&parts.n);
    let m = bignum::Nat::from_be_bytes(&m.to_bytes_be())
        .checked_rem(&n)
        .ok_or(Error::InvalidModulus)?;
    let m = m.to_be_bytes_padded(public.size()).ok_or(Error::Internal)?;
    public.public_op(&m).map(|c| uint(&c)).map_err(from_rsatool)
}

/// ⚠️ Performs raw RSA decryption with no padding.
///
/// Returns a plaintext `BigUint`. The private operation is blinded with `rng` (with the
/// operating system's RNG if `None`, with the `std` feature) and checked with the public
/// exponent, as [`rsa_decrypt_and_check`].
///
/// # ☢️️ WARNING: HAZARDOUS API ☢️
///
/// Use this function with great care! Raw RSA should never be used without an appropriate padding
/// or signature scheme. See the [module-level documentation][crate::hazmat] for more information.
///
/// # Errors
///
/// [`Error::Decryption`] if c ≥ n; the key's errors (see
/// [`RsaPrivateKey::from_components`]); [`Error::Internal`] if the result fails its check.
pub fn rsa_decrypt<R: CryptoRngCore + ?Sized>(
    rng: Option<&mut R>,
    priv_key: &impl PrivateKeyParts,
    c: &BigUint,
) -> Result<BigUint> {
    let key = RsaPrivateKey::of_parts(priv_key)?;
    let c = padded(c, key.size()).ok_or(Error::Decryption)?;
    key.private_op(rng, &c).map(|m| uint(&m))
}

/// ⚠️ Performs raw RSA decryption with no padding.
///
/// Returns a plaintext `BigUint`. Performs RSA blinding with `rng` (as
/// [`rsa_decrypt`]). This will also check for errors in the CRT computation.
///
/// # ☢️️ WARNING: HAZARDOUS API ☢️
///
/// Use this function with great care! Raw RSA should never be used without an appropriate padding
/// or signature scheme. See the [module-level documentation][crate::hazmat] for more information.
///
/// # Errors
///
/// As [`rsa_decrypt`].
pub fn rsa_decrypt_and_check<R: CryptoRngCore + ?Sized>(
    priv_key: &impl PrivateKeyParts,
    rng: Option<&mut R>,
    c: &BigUint,
) -> Result<BigUint> {
    rsa_decrypt(rng, priv_key, c)
}
