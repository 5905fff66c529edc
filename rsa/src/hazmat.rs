//! ⚠️ The raw RSA primitives of RFC 8017 §5.1, without padding: "hazardous materials".
//!
//! RSAEP / RSAVP1 ([`PublicOp::public_op`], m^e mod n) and RSADP / RSASP1
//! ([`PrivateOp::private_op`], c^d mod n with the CRT, blinding and the fault check;
//! [`PrivateOp::private_op_plain`], without the CRT or blinding). Textbook RSA on its own is
//! neither a secure encryption nor a secure signature: it is deterministic, malleable
//! (multiplicative) and leaks through the structure of its inputs. These are here for
//! protocols that define their own padding, for benchmarks and for known-answer tests of the
//! primitives; everything else should use the padding schemes
//! ([`pss`](crate::pss), [`oaep`](crate::oaep), [`pkcs1v15`](crate::pkcs1v15)). RustCrypto's
//! `rsa` keeps its raw operations behind a `hazmat` feature and module too.
//!
//! Batches of the private operation ([`BatchPrivateOp`] on a [`Batch`](crate::Batch)) are raw
//! too.
//!
//! The methods are on traits so that they are called only where this module is imported
//! (their implementations here are thin calls into the crate's `primitive` module, where the
//! operations are):
//!
//! ```
//! use rsatool_rsa::hazmat::{PrivateOp, PublicOp};
//!
//! let mut rng = rsatool_rsa::os_rng();
//! let key = rsatool_rsa::RsaPrivateKey::new(&mut rng, 1024)?;
//! let mut m = vec![0u8; key.size()];
//! m[key.size() - 1] = 42; // a message representative below n
//! let c = key.public_key().public_op(&m)?;
//! assert_eq!(key.private_op(&mut rng, &c)?, m);
//! assert_eq!(key.private_op_plain(&c)?, m);
//! # Ok::<(), rsatool_rsa::Error>(())
//! ```

use alloc::vec::Vec;
use rand_core::CryptoRng;

use crate::{Result, RsaPrivateKey, RsaPublicKey};

/// RSAEP / RSAVP1, the raw public operation. See the [module documentation](self).
pub trait PublicOp {
    /// m^e mod n for an input of exactly k bytes (the modulus length), big-endian, below n;
    /// the result as k bytes.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`](crate::Error::InvalidLength) if `m` is not k bytes,
    /// [`Error::InputOutOfRange`](crate::Error::InputOutOfRange) if m ≥ n.
    fn public_op(&self, m: &[u8]) -> Result<Vec<u8>>;
}

/// RSADP / RSASP1, the raw private operation. See the [module documentation](self).
pub trait PrivateOp {
    /// c^d mod n with the CRT (Garner's recombination, multi-prime included), base blinding
    /// with a fresh random r from `rng`, and the result checked with the public exponent
    /// before it is returned; the input exactly k bytes below n, the result k bytes.
    ///
    /// # Errors
    ///
    /// As [`PublicOp::public_op`] for the input; [`Error::Fault`](crate::Error::Fault) if
    /// the result fails its check (no result is returned then).
    fn private_op<R: CryptoRng + ?Sized>(&self, rng: &mut R, c: &[u8]) -> Result<Vec<u8>>;

    /// c^d mod n without the CRT and without blinding (the "private-key operation" of the
    /// speed test), checked with the public exponent before it is returned.
    ///
    /// # Errors
    ///
    /// As [`PrivateOp::private_op`].
    fn private_op_plain(&self, c: &[u8]) -> Result<Vec<u8>>;
}

/// RSADP / RSASP1 of many inputs together, on a [`Batch`](crate::Batch)'s lanes and threads
/// (the batch signatures and decryptions, [`Batch::sign`](crate::Batch::sign) and
/// [`Batch::decrypt`](crate::Batch::decrypt), are the padded forms).
/// See the [module documentation](self).
pub trait BatchPrivateOp {
    /// [`PrivateOp::private_op`] of every input with `key`: one result per input, in order.
    ///
    /// # Constant time
    ///
    /// As [`PrivateOp::private_op`], for each item; see [`Batch`](crate::Batch).
    fn private_op<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        inputs: &[&[u8]],
    ) -> Vec<Result<Vec<u8>>>;

    /// [`PrivateOp::private_op`] of every (key, input) pair: one result per item, in order.
    /// Keys of one size share the eight lanes; others take the single path.
    ///
    /// # Constant time
    ///
    /// As [`PrivateOp::private_op`], for each item; see [`Batch`](crate::Batch).
    fn private_op_keys<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        items: &[(&RsaPrivateKey, &[u8])],
    ) -> Vec<Result<Vec<u8>>>;
}

impl PublicOp for RsaPublicKey {
    /// RSAEP / RSAVP1: m^e mod n for an input of exactly k bytes (the modulus length),
    /// big-endian, below n; the result as k bytes.
    ///
    /// # Constant time
    ///
    /// No in e (public); the input is treated as public (a message representative that is
    /// about to be sent, or a signature).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`](crate::Error::InvalidLength) if `m` is not k bytes,
    /// [`Error::InputOutOfRange`](crate::Error::InputOutOfRange) if m ≥ n.
    fn public_op(&self, m: &[u8]) -> Result<Vec<u8>> {
        self.rsaep(m)
    }
}

impl PrivateOp for RsaPrivateKey {
    /// RSADP / RSASP1 without the CRT: c^d mod n for an input of exactly k bytes below n, the
    /// result as k bytes, checked with the public exponent before it is returned. No blinding
    /// (this is the "private-key operation" of the speed test; use
    /// [`PrivateOp::private_op`]).
    ///
    /// # Constant time
    ///
    /// The exponentiation is constant-time with the bit length of n as d's public length
    /// (d < n); only the verdict of the check leaks.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`](crate::Error::InvalidLength),
    /// [`Error::InputOutOfRange`](crate::Error::InputOutOfRange) as for
    /// [`PublicOp::public_op`]; [`Error::Fault`](crate::Error::Fault) if the result fails its
    /// check (no result is returned then).
    fn private_op_plain(&self, c: &[u8]) -> Result<Vec<u8>> {
        self.crt().private_op_plain(c)
    }

    /// RSADP / RSASP1 with the CRT (RFC 8017 §5.1.2, Garner's recombination, multi-prime
    /// included), base blinding with a fresh random r from `rng`, and a check of the result
    /// with the public exponent before it is returned: c^d mod n for an input of exactly k
    /// bytes below n, the result as k bytes.
    ///
    /// # Constant time
    ///
    /// Depends on the bit lengths of n and of the primes, on e, and on the (public) input
    /// only; the verdict of the fault check leaks, as does whether a random r had to be drawn
    /// again because it was not invertible (with probability about 2^(1 − bits/2)).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`](crate::Error::InvalidLength),
    /// [`Error::InputOutOfRange`](crate::Error::InputOutOfRange) as for
    /// [`PublicOp::public_op`]; [`Error::Fault`](crate::Error::Fault) if the result fails its
    /// check (a fault in the computation): no result is returned then, so a faulty half never
    /// leaks a factor.
    fn private_op<R: CryptoRng + ?Sized>(&self, rng: &mut R, c: &[u8]) -> Result<Vec<u8>> {
        self.crt().private_op(rng, c)
    }
}
