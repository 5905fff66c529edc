//! The boundary between RustCrypto 0.10's types and rsatool-rsa's: hashes named by type
//! become [`HashAlg`] values, fallible `TryCryptoRng`s become the infallible `CryptoRng`s our
//! library takes, and `BoxedUint`s become big-endian bytes. Nothing here computes on a key:
//! every operation is rsatool-rsa's.

use alloc::vec::Vec;
use core::convert::Infallible;

use crypto_bigint::BoxedUint;
use rand_core::{TryCryptoRng, TryRng};
use rsatool_rsa::HashAlg;
use sha2::{Digest as _, Sha256};
use zeroize::Zeroizing;

use crate::errors::{Error, Result};

/// A prime's Montgomery parameters, as `PrivateKeyParts::p` returns them. Defined here, beside
/// the other translations to upstream's types, so that `traits` and `private_key` both take it
/// from below them rather than from each other.
pub type SecretPrime = crypto_bigint::modular::MontyParams<crypto_bigint::BoxedUint>;

/// The [`HashAlg`] that `D` computes, recognised by its digest of the empty input
/// ([`HashAlg::identify`]): SHA-1, the SHA-2 family and SHA-3.
///
/// # Errors
///
/// [`Error::InvalidPaddingScheme`] for a hash of another family (a documented difference from
/// upstream, which takes any `Digest`).
pub(crate) fn hash_alg<D: digest::Digest>() -> Result<HashAlg> {
    HashAlg::identify(&D::digest(b"")).ok_or(Error::InvalidPaddingScheme)
}

/// The big-endian bytes of `x` without leading zeros (empty for zero).
pub(crate) fn be_bytes(x: &BoxedUint) -> Zeroizing<Vec<u8>> {
    let bytes = Zeroizing::new(x.to_be_bytes());
    let skip = bytes.iter().take_while(|&&b| b == 0).count();
    Zeroizing::new(bytes[skip..].to_vec())
}

/// `bytes` (big-endian) as a `BoxedUint` of `bits` bits of precision.
///
/// # Errors
///
/// [`Error::Internal`] if the value does not fit (callers pass a precision that holds it).
pub(crate) fn uint(bytes: &[u8], bits: u32) -> Result<BoxedUint> {
    let start = bytes.iter().take_while(|&&b| b == 0).count();
    BoxedUint::from_be_slice(&bytes[start..], bits).map_err(Error::Decode)
}

/// A caller's fallible RNG as the infallible `CryptoRng` rsatool-rsa takes.
///
/// rsatool-rsa's operations cannot stop half-way for an RNG failure, so the first error is
/// kept and the adapter goes on with a stream of its own (SHA-256 in counter mode over the
/// bytes drawn so far) until the operation ends; [`finish`](Self::finish) then discards the
/// result and reports the error. Nothing computed after a failure is returned.
pub(crate) struct FallibleRng<'a, R: TryRng + ?Sized> {
    rng: &'a mut R,
    error: Option<R::Error>,
    stream: Stream,
}

impl<'a, R: TryCryptoRng + ?Sized> FallibleRng<'a, R> {
    /// Adapts `rng`.
    pub(crate) fn new(rng: &'a mut R) -> Self {
        FallibleRng {
            rng,
            error: None,
            stream: Stream::new(b"rsa facade: after an RNG failure"),
        }
    }

    /// The RNG's first error, if it failed.
    pub(crate) fn take_error(&mut self) -> Option<R::Error> {
        self.error.take()
    }

    /// `result` mapped to this crate's [`Result`], or [`Error::Rng`] if the RNG failed.
    pub(crate) fn finish<T>(mut self, result: rsatool_rsa::Result<T>) -> Result<T> {
        if self.take_error().is_some() {
            return Err(Error::Rng);
        }
        result.map_err(Error::from)
    }
}

impl<R: TryCryptoRng + ?Sized> TryRng for FallibleRng<'_, R> {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> core::result::Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> core::result::Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> core::result::Result<(), Infallible> {
        if self.error.is_none() {
            match self.rng.try_fill_bytes(dst) {
                Ok(()) => return Ok(()),
                Err(e) => self.error = Some(e),
            }
        }
        self.stream.fill(dst);
        Ok(())
    }
}

impl<R: TryCryptoRng + ?Sized> TryCryptoRng for FallibleRng<'_, R> {}

/// SHA-256 in counter mode over a seed: the blinding randomness where the caller gave no RNG
/// and the operating system's is not built in, and the filler after an RNG failure. Blinding
/// needs values an attacker cannot predict, not fresh entropy: a stream keyed by the private
/// exponent and the input is unknown to anyone without the key.
pub(crate) struct Stream {
    seed: Zeroizing<[u8; 32]>,
    counter: u64,
}

impl Stream {
    /// A stream keyed by `parts` (hashed together, each with its length).
    pub(crate) fn new(seed: &[u8]) -> Self {
        Self::keyed(&[seed])
    }

    /// A stream keyed by several byte strings.
    pub(crate) fn keyed(parts: &[&[u8]]) -> Self {
        let mut h = Sha256::new();
        for p in parts {
            h.update((p.len() as u64).to_be_bytes());
            h.update(p);
        }
        Stream {
            seed: Zeroizing::new(h.finalize().into()),
            counter: 0,
        }
    }

    fn fill(&mut self, dst: &mut [u8]) {
        for chunk in dst.chunks_mut(32) {
            let mut h = Sha256::new();
            h.update(*self.seed);
            h.update(self.counter.to_be_bytes());
            self.counter += 1;
            let block = Zeroizing::new(<[u8; 32]>::from(h.finalize()));
            chunk.copy_from_slice(&block[..chunk.len()]);
        }
    }
}

impl TryRng for Stream {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> core::result::Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.fill(&mut b);
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> core::result::Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.fill(&mut b);
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> core::result::Result<(), Infallible> {
        self.fill(dst);
        Ok(())
    }
}

impl TryCryptoRng for Stream {}

/// The RNG of a private operation: the caller's (adapted), or where upstream would run
/// unblinded (no RNG given), the operating system's with the `getrandom` feature, else a
/// [`Stream`] keyed by the private key and the input, so that every private operation is
/// blinded.
pub(crate) enum BlindingRng<'a, R: TryRng + ?Sized> {
    /// The caller's RNG.
    Caller(FallibleRng<'a, R>),
    /// Our own stream (see [`BlindingRng`]).
    Own(Stream),
}

/// The [`BlindingRng`] for a private operation of `key` on `input`.
pub(crate) fn blinding_rng<'a, R: TryCryptoRng + ?Sized>(
    rng: Option<&'a mut R>,
    key: &crate::PrivateKey,
    input: &[u8],
) -> BlindingRng<'a, R> {
    match rng {
        Some(rng) => BlindingRng::Caller(FallibleRng::new(rng)),
        None => BlindingRng::Own(own_stream(key, input)),
    }
}

#[cfg(feature = "getrandom")]
fn own_stream(_key: &crate::PrivateKey, _input: &[u8]) -> Stream {
    let mut seed = Zeroizing::new([0u8; 32]);
    match getrandom_fill(&mut seed[..]) {
        Ok(()) => Stream::new(&seed[..]),
        // An operating system without entropy: fall back to the keyed stream.
        Err(()) => keyed_stream(_key, _input),
    }
}

#[cfg(not(feature = "getrandom"))]
fn own_stream(key: &crate::PrivateKey, input: &[u8]) -> Stream {
    keyed_stream(key, input)
}

fn keyed_stream(key: &crate::PrivateKey, input: &[u8]) -> Stream {
    let d = be_bytes(&key.d);
    Stream::keyed(&[b"rsa facade: blinding", &d, input])
}

#[cfg(feature = "getrandom")]
fn getrandom_fill(dst: &mut [u8]) -> core::result::Result<(), ()> {
    crypto_common::getrandom::SysRng
        .try_fill_bytes(dst)
        .map_err(|_| ())
}

impl<R: TryCryptoRng + ?Sized> BlindingRng<'_, R> {
    /// As [`FallibleRng::finish`].
    pub(crate) fn finish<T>(self, result: rsatool_rsa::Result<T>) -> Result<T> {
        match self {
            BlindingRng::Caller(rng) => rng.finish(result),
            BlindingRng::Own(_) => result.map_err(Error::from),
        }
    }
}

impl<R: TryCryptoRng + ?Sized> TryRng for BlindingRng<'_, R> {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> core::result::Result<u32, Infallible> {
        match self {
            BlindingRng::Caller(r) => r.try_next_u32(),
            BlindingRng::Own(r) => r.try_next_u32(),
        }
    }

    fn try_next_u64(&mut self) -> core::result::Result<u64, Infallible> {
        match self {
            BlindingRng::Caller(r) => r.try_next_u64(),
            BlindingRng::Own(r) => r.try_next_u64(),
        }
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> core::result::Result<(), Infallible> {
        match self {
            BlindingRng::Caller(r) => r.try_fill_bytes(dst),
            BlindingRng::Own(r) => r.try_fill_bytes(dst),
        }
    }
}

impl<R: TryCryptoRng + ?Sized> TryCryptoRng for BlindingRng<'_, R> {}

/// [`FallibleRng`] over `rng`, for operations that need the caller's randomness (padding,
/// salts, key generation).
pub(crate) fn fallible_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> FallibleRng<'_, R> {
    FallibleRng::new(rng)
}

/// The type of an absent RNG (`None::<&mut NoRng>`): it has no values.
pub(crate) enum NoRng {}

impl TryRng for NoRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> core::result::Result<u32, Infallible> {
        match *self {}
    }

    fn try_next_u64(&mut self) -> core::result::Result<u64, Infallible> {
        match *self {}
    }

    fn try_fill_bytes(&mut self, _dst: &mut [u8]) -> core::result::Result<(), Infallible> {
        match *self {}
    }
}

impl TryCryptoRng for NoRng {}
