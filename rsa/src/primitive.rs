//! The RSA primitives of RFC 8017 §5.1: RSAEP / RSAVP1 (the public operation) and RSADP /
//! RSASP1 (the private operation), plain and with the CRT.
//!
//! The private operation with the CRT: blind the input with a random r (c' = c·r^e, formed
//! modulo each prime; r from the key's cached blinding pair, see [`blinding`], or drawn
//! afresh), exponentiate modulo each prime, recombine by Garner's formula
//! (RFC 8017 §5.1.2, multi-prime included), unblind (m = m'·r⁻¹ mod n), check the result
//! against the public exponent (m^e ≡ c modulo every prime, which is m^e ≡ c mod n; against
//! the fault attack of Boneh, DeMillo and Lipton, "On the Importance of Checking
//! Cryptographic Protocols for Faults", 1997), and write the output
//! unconditionally, zeroed by mask if the check failed. The check comes after the unblinding
//! so that it covers the blinding, its inverse and the unblinding multiplication as well as
//! the CRT: whatever goes wrong anywhere, no wrong result leaves. (x ↦ x^e permutes ℤ/n, so
//! out^e ≡ c (mod n) has one solution, c^d: a result that passes is the right one, whatever
//! values, cached or fresh, went into it; [`blinding`] says what a corrupted pair does.)
//!
//! Values move between plain integers and Montgomery form only where they must: a plain x
//! times a residue y comes out plain in one Montgomery multiplication ([`Modulus::mul_retrieve`]),
//! and x^e on plain integers costs one conversion and no REDC
//! ([`Modulus::pow_limbs_vartime`]).
//!
//! This file has the public operation (on [`RsaPublicKey`]) and the input checks both share.
//! The private operation is [`CrtKey`]'s (`crt_key.rs`): a private key's values with its
//! table of blinding pairs ([`blinding`]) and its meeting point for concurrent callers, and the
//! stages above as its methods, those of the single operation and those that `Batch` and the
//! coalescer run over many items.
//!
//! [`Modulus::mul_retrieve`]: bignum::modular::Modulus::mul_retrieve
//! [`Modulus::pow_limbs_vartime`]: bignum::modular::Modulus::pow_limbs_vartime

use alloc::{vec, vec::Vec};
use bignum::Limb;
use bignum::mpn;
use zeroize::Zeroizing;

use crate::key::{RsaPublicKey, be_to_limbs};
use crate::{Error, Result};

mod blinding;
mod crt_key;

pub(crate) use blinding::Blinding;
#[cfg(feature = "std")]
pub(crate) use crt_key::MeetingPoint;
pub(crate) use crt_key::{CrtInput, CrtKey, ITEMS_PER_GROUP};

impl RsaPublicKey {
    /// RSAEP / RSAVP1: m^e mod n for an input of exactly k bytes (the modulus length),
    /// big-endian, below n; the result as k bytes (the contract is
    /// [`PublicOp::public_op`](crate::hazmat::PublicOp::public_op)'s).
    ///
    /// # Constant time
    ///
    /// No in e (public); the input is treated as public.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`] if `m` is not k bytes, [`Error::InputOutOfRange`] if m ≥ n.
    pub(crate) fn rsaep(&self, m: &[u8]) -> Result<Vec<u8>> {
        let x = self.input(m)?;
        // x^e on plain integers: into Montgomery form once, out of it by the last multiply.
        let mut y = vec![0; x.len()];
        self.n_mod.pow_limbs_vartime(&mut y, &x, self.e.as_limbs());
        let mut out = vec![0; self.k];
        mpn::to_be_bytes(&mut out, &y);
        Ok(out)
    }

    /// The input as limbs after the checks: exactly k bytes, below n.
    pub(crate) fn input(&self, c: &[u8]) -> Result<Zeroizing<Vec<Limb>>> {
        if c.len() != self.k {
            return Err(Error::InvalidLength {
                expected: self.k,
                actual: c.len(),
            });
        }
        // Both are k bytes big-endian: the byte order is the numeric order. The input is
        // public (a ciphertext or a signature), so this comparison may take variable time.
        if c >= self.n_be.as_slice() {
            return Err(Error::InputOutOfRange);
        }
        be_to_limbs(c, self.n_mod.limb_len()).ok_or(Error::InputOutOfRange)
    }
}
