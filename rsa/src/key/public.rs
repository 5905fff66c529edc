//! [`RsaPublicKey`].

use alloc::string::ToString;
use alloc::vec::Vec;
use core::fmt;

use bignum::Nat;
use bignum::modular::Modulus;

use super::{MAX_MODULUS_BITS, MIN_MODULUS_BITS, PublicKeyParts, bit_len_be, strip_leading_zeros};
use crate::{KeyError, Result};

/// An RSA public key: the modulus n and the public exponent e, with n's Montgomery context
/// computed once at construction.
///
/// n and e are public: they are held in [`Nat`] and may be handled in variable time.
#[derive(Clone)]
pub struct RsaPublicKey {
    pub(crate) n: Nat,
    pub(crate) e: Nat,
    /// The Montgomery context of n (public).
    pub(crate) n_mod: Modulus,
    /// k, the length of n in bytes.
    pub(crate) k: usize,
    /// n as k big-endian bytes, for the range checks of inputs.
    pub(crate) n_be: Vec<u8>,
}

impl RsaPublicKey {
    /// A public key from its integers, validated: n odd, of [`MIN_MODULUS_BITS`] to
    /// [`MAX_MODULUS_BITS`] bits (the upper bound checked before any arithmetic); e odd,
    /// at least 3 and below n.
    ///
    /// # Constant time
    ///
    /// No: n and e are public.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidKey`](crate::Error::InvalidKey) with [`KeyError::ModulusTooLarge`],
    /// [`KeyError::ModulusTooSmall`], [`KeyError::ModulusEven`] or
    /// [`KeyError::PublicExponentInvalid`].
    pub fn from_parts(parts: &PublicKeyParts) -> Result<Self> {
        Self::from_parts_allowing_small(parts, MIN_MODULUS_BITS)
    }

    /// [`RsaPublicKey::from_parts`], accepting moduli down to `min_bits` bits. For tests and
    /// legacy data only: keys below 1024 bits are insecure.
    ///
    /// # Constant time
    ///
    /// No: n and e are public.
    ///
    /// # Errors
    ///
    /// As [`RsaPublicKey::from_parts`], with `min_bits` as the lower bound.
    pub fn from_parts_allowing_small(parts: &PublicKeyParts, min_bits: usize) -> Result<Self> {
        let (n, e) = check_public(&parts.n, &parts.e, min_bits)?;
        let n_mod = Modulus::new_vartime(n.as_limbs()).map_err(|_| KeyError::ModulusEven)?;
        let k = n.byte_len();
        let n_be = n.to_be_bytes();
        Ok(RsaPublicKey {
            n,
            e,
            n_mod,
            k,
            n_be,
        })
    }

    /// The integers of this key, big-endian without leading zeros.
    pub fn to_parts(&self) -> PublicKeyParts {
        PublicKeyParts {
            n: self.n.to_be_bytes(),
            e: self.e.to_be_bytes(),
        }
    }

    /// The modulus n.
    pub fn n(&self) -> &Nat {
        &self.n
    }

    /// The public exponent e.
    pub fn e(&self) -> &Nat {
        &self.e
    }

    /// k, the length of n in bytes (the length of every ciphertext and signature).
    pub fn size(&self) -> usize {
        self.k
    }

    /// The bit length of n.
    pub fn bits(&self) -> usize {
        self.n.bits()
    }
}

/// Checks n and e (public) and parses them: size limits first, before any arithmetic.
pub(crate) fn check_public(n: &[u8], e: &[u8], min_bits: usize) -> Result<(Nat, Nat)> {
    let n = strip_leading_zeros(n);
    let n_bits = bit_len_be(n);
    if n_bits > MAX_MODULUS_BITS {
        return Err(KeyError::ModulusTooLarge { bits: n_bits }.into());
    }
    if n_bits < min_bits || n_bits < 3 {
        return Err(KeyError::ModulusTooSmall {
            bits: n_bits,
            min: min_bits,
        }
        .into());
    }
    if n.last().is_some_and(|&b| b & 1 == 0) {
        return Err(KeyError::ModulusEven.into());
    }
    let e = strip_leading_zeros(e);
    if e.len() > n.len() {
        return Err(KeyError::PublicExponentInvalid.into());
    }
    let n = Nat::from_be_bytes(n);
    let e = Nat::from_be_bytes(e);
    if e.is_even() || e.bits() < 2 || e >= n {
        return Err(KeyError::PublicExponentInvalid.into());
    }
    Ok((n, e))
}

impl PartialEq for RsaPublicKey {
    fn eq(&self, other: &Self) -> bool {
        self.n == other.n && self.e == other.e
    }
}

impl Eq for RsaPublicKey {}

impl fmt::Debug for RsaPublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RsaPublicKey")
            .field("bits", &self.n.bits())
            .field("e", &self.e.to_string())
            .finish_non_exhaustive()
    }
}
