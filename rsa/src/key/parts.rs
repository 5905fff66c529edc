//! Key components as big-endian byte strings: the seam between key types and encodings.
use zeroize::Zeroizing;

/// Big-endian unsigned integers without leading zero bytes (zero is empty).
#[derive(Clone, Debug)]
pub struct PublicKeyParts {
    /// The modulus n.
    pub n: Vec<u8>,
    /// The public exponent e.
    pub e: Vec<u8>,
}

/// Zeroized on drop; Debug prints no secret.
#[derive(Clone)]
pub struct PrivateKeyParts {
    /// The modulus n.
    pub n: Vec<u8>,
    /// The public exponent e.
    pub e: Vec<u8>,
    /// The private exponent d.
    pub d: Zeroizing<Vec<u8>>,
    /// p, q, then r_3.. for multi-prime.
    pub primes: Vec<Zeroizing<Vec<u8>>>,
    /// d mod (p_i - 1), same order.
    pub exponents: Vec<Zeroizing<Vec<u8>>>,
    /// [qInv, then t_i per RFC 8017 A.1.2].
    pub coefficients: Vec<Zeroizing<Vec<u8>>>,
}

impl core::fmt::Debug for PrivateKeyParts {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PrivateKeyParts")
            .field("n", &self.n)
            .field("e", &self.e)
            .finish_non_exhaustive()
    }
}
