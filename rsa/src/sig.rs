//! What PSS and PKCS #1 v1.5 signing share for RustCrypto's [`signature`] traits: the
//! [`Signature`] type, and [`RecordingRng`], which lets the traits' fallible RNG drive the
//! schemes' infallible one.

use rand_core::{TryCryptoRng, TryRng};

use crate::Result;

/// A signature (k bytes for a modulus of k bytes) for RustCrypto's [`signature`] traits,
/// shared by PSS and PKCS #1 v1.5 (as [`crate::pss::Signature`] and
/// [`crate::pkcs1v15::Signature`]).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Signature(Box<[u8]>);

impl Signature {
    /// The signature's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for Signature {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl From<Vec<u8>> for Signature {
    fn from(v: Vec<u8>) -> Self {
        Signature(v.into_boxed_slice())
    }
}

impl TryFrom<&[u8]> for Signature {
    type Error = signature::Error;

    /// Any length is accepted here; verification rejects one that is not k bytes.
    fn try_from(bytes: &[u8]) -> core::result::Result<Self, Self::Error> {
        Ok(Signature(bytes.into()))
    }
}

impl From<Signature> for Box<[u8]> {
    fn from(s: Signature) -> Self {
        s.0
    }
}

impl signature::SignatureEncoding for Signature {
    type Repr = Box<[u8]>;
}

impl core::fmt::Debug for Signature {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Signature(")?;
        for b in self.0.iter() {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

/// A fallible RNG ([`TryCryptoRng`], what the `signature` traits pass) as the infallible one
/// the schemes take: an error is recorded (and the bytes asked for are filled with a fixed
/// pattern, so that the blinding loop ends) and the caller discards the result. Never panics.
pub(crate) struct RecordingRng<'a, R: TryCryptoRng + ?Sized> {
    rng: &'a mut R,
    failed: bool,
}

impl<'a, R: TryCryptoRng + ?Sized> RecordingRng<'a, R> {
    pub(crate) fn new(rng: &'a mut R) -> Self {
        RecordingRng { rng, failed: false }
    }

    /// `result` as the `signature` crate's result, or an error if the RNG failed.
    pub(crate) fn finish(
        self,
        result: Result<Vec<u8>>,
    ) -> core::result::Result<Signature, signature::Error> {
        if self.failed {
            return Err(signature::Error::new());
        }
        result
            .map(Signature::from)
            .map_err(signature::Error::from_source)
    }
}

impl<R: TryCryptoRng + ?Sized> TryRng for RecordingRng<'_, R> {
    type Error = core::convert::Infallible;

    fn try_next_u32(&mut self) -> core::result::Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> core::result::Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
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
