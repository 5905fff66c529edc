//! The RNG at the boundary: 0.9 passes a rand_core 0.6 `CryptoRngCore` (often as an `Option`),
//! rsatool-rsa takes a rand_core 0.10 infallible `CryptoRng`.

use rand_core::CryptoRngCore;
use rsatool_rsa::rand_core::{TryCryptoRng, TryRng};

use crate::errors::{Error, Result, from_rsatool};

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
