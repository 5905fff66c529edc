//! The adapter from the fallible RNG that RustCrypto's traits pass ([`TryCryptoRng`]) to the
//! infallible one our schemes take: every scheme's typed keys and one-call shortcuts (PSS,
//! PKCS #1 v1.5, OAEP) go through it.

use rand_core::{TryCryptoRng, TryRng};

use crate::{Error, Result};

/// A fallible RNG ([`TryCryptoRng`], what the RustCrypto traits pass) as the infallible one
/// the schemes take: an error is recorded (and the bytes asked for are filled with a fixed
/// pattern, so that the blinding and padding loops end) and [`RecordingRng::finish`] discards
/// the result. Never panics.
pub(crate) struct RecordingRng<'a, R: TryCryptoRng + ?Sized> {
    rng: &'a mut R,
    failed: bool,
}

impl<'a, R: TryCryptoRng + ?Sized> RecordingRng<'a, R> {
    pub(crate) fn new(rng: &'a mut R) -> Self {
        RecordingRng { rng, failed: false }
    }

    /// `result`, or [`Error::Rng`] if the RNG failed on the way.
    pub(crate) fn finish<T>(self, result: Result<T>) -> Result<T> {
        if self.failed {
            return Err(Error::Rng);
        }
        result
    }
}

impl<R: TryCryptoRng + ?Sized> TryRng for RecordingRng<'_, R> {
    type Error = core::convert::Infallible;

    fn try_next_u32(&mut self) -> core::result::Result<u32, Self::Error> {
        rand_core::utils::next_word_via_fill(self)
    }

    fn try_next_u64(&mut self) -> core::result::Result<u64, Self::Error> {
        rand_core::utils::next_word_via_fill(self)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> core::result::Result<(), Self::Error> {
        if self.rng.try_fill_bytes(dst).is_err() {
            self.failed = true;
            dst.fill(0x5a);
        }
        Ok(())
    }
}

impl<R: TryCryptoRng + ?Sized> TryCryptoRng for RecordingRng<'_, R> {}
