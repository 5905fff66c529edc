//! The boundary between RustCrypto 0.9's types and rsatool-rsa's: num-bigint-dig's `BigUint`s
//! become big-endian bytes (and bignum's limbs become `BigUint`s), rand_core 0.6 RNGs (often
//! an `Option`) become the rand_core 0.10 infallible `CryptoRng` our library takes, and digest
//! 0.10 hash types become [`HashAlg`] values, by their digest of the empty input
//! ([`HashAlg::identify`]), so that the facade does not depend on which crate implements them.
//! Nothing here computes on a key: every operation is rsatool-rsa's.

use alloc::vec::Vec;

use digest::{Digest, DynDigest};
use num_bigint::BigUint;
use rand_core::CryptoRngCore;
use rsatool_rsa::HashAlg;
use rsatool_rsa::rand_core::{TryCryptoRng, TryRng};
use zeroize::Zeroizing;

use crate::errors::{Error, Result, from_rsatool};

/// A `BigUint` of big-endian bytes.
pub(crate) fn uint(bytes: &[u8]) -> BigUint {
    BigUint::from_bytes_be(bytes)
}

/// The big-endian bytes of a secret `BigUint`, wiped on drop.
pub(crate) fn secret_bytes(x: &BigUint) -> Zeroizing<Vec<u8>> {
    Zeroizing::new(x.to_bytes_be())
}

/// `x` as exactly `k` big-endian bytes, or `None` if it does not fit.
#[cfg(feature = "hazmat")]
pub(crate) fn padded(x: &BigUint, k: usize) -> Option<Zeroizing<Vec<u8>>> {
    let bytes = secret_bytes(x);
    let bytes = &bytes[bytes.iter().take_while(|&&b| b == 0).count()..];
    let mut out = Zeroizing::new(alloc::vec![0; k]);
    out.get_mut(k.checked_sub(bytes.len())?..)?
        .copy_from_slice(bytes);
    Some(out)
}

/// bignum's little-endian limbs as big-endian bytes.
pub(crate) fn limbs_be(x: &[bignum::Limb]) -> Zeroizing<Vec<u8>> {
    let mut out = Zeroizing::new(alloc::vec![0u8; 8 * x.len()]);
    bignum::mpn::to_be_bytes(&mut out, x);
    out
}

/// The [`HashAlg`] of the digest type `D`.
///
/// # Errors
///
/// [`Error::InvalidPaddingScheme`] if `D` is none of SHA-1, SHA-2 and SHA-3.
pub(crate) fn hash_of<D: Digest>() -> Result<HashAlg> {
    HashAlg::identify(&D::digest(b"")).ok_or(Error::InvalidPaddingScheme)
}

/// The [`HashAlg`] of a boxed digest (0.9's `Oaep` and `Pss` fields); its state is not touched.
///
/// # Errors
///
/// As [`hash_of`].
pub(crate) fn hash_of_dyn(digest: &dyn DynDigest) -> Result<HashAlg> {
    let mut fresh = digest.box_clone();
    fresh.reset();
    HashAlg::identify(&fresh.finalize()).ok_or(Error::InvalidPaddingScheme)
}

/// A rand_core 0.6 RNG as the rand_core 0.10 `CryptoRng` rsatool-rsa takes; without one, the
/// operating system's (with `std`).
///
/// A failure of the caller's RNG (`try_fill_bytes` returning an error) is recorded and the
/// bytes asked for are filled from a fixed SplitMix64 sequence, so that every loop that draws
/// (prime search, blinding, padding) still ends; [`with_rng`] then discards the result and
/// returns [`Error::Rng`]. Never panics.
pub(crate) enum Rng<'a, R: ?Sized> {
    /// The caller's RNG.
    Caller {
        /// The RNG.
        rng: &'a mut R,
        /// Whether it has failed.
        failed: bool,
        /// The SplitMix64 state of the stand-in bytes after a failure.
        state: u64,
    },
    /// The operating system's, where 0.9 was given no RNG.
    #[cfg(feature = "std")]
    Os(rsatool_rsa::OsRng),
}

/// The type of a missing RNG (`None::<&mut NoRng>`): uninhabited.
pub(crate) enum NoRng {}

impl rand_core::RngCore for NoRng {
    fn next_u32(&mut self) -> u32 {
        match *self {}
    }

    fn next_u64(&mut self) -> u64 {
        match *self {}
    }

    fn fill_bytes(&mut self, _: &mut [u8]) {
        match *self {}
    }

    fn try_fill_bytes(&mut self, _: &mut [u8]) -> core::result::Result<(), rand_core::Error> {
        match *self {}
    }
}

impl rand_core::CryptoRng for NoRng {}

/// Runs `op` with `rng` adapted (the operating system's if `None`), mapping its error to 0.9's.
///
/// # Errors
///
/// [`Error::Rng`] if the caller's RNG failed (whatever `op` returned);
/// [`Error::InvalidArguments`] for `None` without the `std` feature; else `op`'s error.
pub(crate) fn with_rng<R: CryptoRngCore + ?Sized, T>(
    rng: Option<&mut R>,
    op: impl FnOnce(&mut Rng<'_, R>) -> rsatool_rsa::Result<T>,
) -> Result<T> {
    let mut rng = match rng {
        Some(rng) => Rng::Caller {
            rng,
            failed: false,
            state: 0,
        },
        #[cfg(feature = "std")]
        None => Rng::Os(rsatool_rsa::os_rng()),
        #[cfg(not(feature = "std"))]
        None => return Err(Error::InvalidArguments),
    };
    let out = op(&mut rng);
    if let Rng::Caller { failed: true, .. } = rng {
        return Err(Error::Rng);
    }
    out.map_err(from_rsatool)
}

impl<R: CryptoRngCore + ?Sized> TryRng for Rng<'_, R> {
    type Error = core::convert::Infallible;

    fn try_next_u32(&mut self) -> core::result::Result<u32, Self::Error> {
        rsatool_rsa::rand_core::utils::next_word_via_fill(self)
    }

    fn try_next_u64(&mut self) -> core::result::Result<u64, Self::Error> {
        rsatool_rsa::rand_core::utils::next_word_via_fill(self)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> core::result::Result<(), Self::Error> {
        match self {
            Rng::Caller { rng, failed, state } => {
                if *failed || rng.try_fill_bytes(dst).is_err() {
                    *failed = true;
                    for chunk in dst.chunks_mut(8) {
                        // SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom
                        // number generators", 2014): varied bytes, so that no draw loop
                        // spins on one value; the output is discarded.
                        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                        let mut z = *state;
                        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                        z ^= z >> 31;
                        chunk.copy_from_slice(&z.to_le_bytes()[..chunk.len()]);
                    }
                }
            }
            #[cfg(feature = "std")]
            Rng::Os(os) => os.try_fill_bytes(dst)?,
        }
        Ok(())
    }
}

impl<R: CryptoRngCore + ?Sized> TryCryptoRng for Rng<'_, R> {}
