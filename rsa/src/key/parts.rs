//! Plain "parts" of keys: the integers of PKCS #1 as big-endian bytes, the interface between
//! the key types and the encodings.

use alloc::vec::Vec;
use core::fmt;

use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

/// The integers of an RSA public key (PKCS #1 `RSAPublicKey`).
///
/// Big-endian unsigned integers without leading zero bytes (zero is empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicKeyParts {
    /// The modulus n.
    pub n: Vec<u8>,
    /// The public exponent e.
    pub e: Vec<u8>,
}

/// The integers of an RSA private key (PKCS #1 `RSAPrivateKey`, with `otherPrimeInfos` for
/// multi-prime keys), as big-endian unsigned integers without leading zero bytes.
///
/// Zeroized on drop; `Debug` prints no secret.
#[derive(Clone, Default)]
pub struct PrivateKeyParts {
    /// The modulus n.
    pub n: Vec<u8>,
    /// The public exponent e.
    pub e: Vec<u8>,
    /// The private exponent d.
    pub d: Zeroizing<Vec<u8>>,
    /// The primes: p, q, then r_3, … for a multi-prime key.
    pub primes: Vec<Zeroizing<Vec<u8>>>,
    /// The CRT exponents d mod (r_i − 1), in the order of `primes` (dP, dQ, d_3, …).
    pub exponents: Vec<Zeroizing<Vec<u8>>>,
    /// The CRT coefficients: qInv = q⁻¹ mod p, then t_i = (r_1·…·r_(i−1))⁻¹ mod r_i for
    /// i ≥ 3 (RFC 8017 §A.1.2); one fewer than the primes.
    pub coefficients: Vec<Zeroizing<Vec<u8>>>,
}

impl Zeroize for PrivateKeyParts {
    fn zeroize(&mut self) {
        self.d.zeroize();
        for v in self
            .primes
            .iter_mut()
            .chain(self.exponents.iter_mut())
            .chain(self.coefficients.iter_mut())
        {
            v.zeroize();
        }
    }
}

// Every secret field is `Zeroizing` and wipes itself on drop (no `Drop` impl here, so that
// the fields can still be moved out); n and e are public.
impl ZeroizeOnDrop for PrivateKeyParts {}

impl fmt::Debug for PrivateKeyParts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrivateKeyParts")
            .field("n_bytes", &self.n.len())
            .field("e", &self.e)
            .field("primes", &self.primes.len())
            .finish_non_exhaustive()
    }
}
