//! Helpers for the workspace's own tests, examples, fuzz targets and benchmarks: one copy of
//! what they all need, kept out of the libraries users build.
//!
//! Nothing here is for production. [`SplitMix64`] is a fast, reproducible stream of test
//! inputs, not a source of secrets: it is predictable from any one output.
//!
//! `no_std` with `alloc`, and no dependency on a workspace crate, so that any member (the
//! `no_std` ones included) can take it as a dev-dependency.

#![no_std]

extern crate alloc;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::convert::Infallible;

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014;
/// Vigna's reference `splitmix64.c`): a 64-bit state advanced by the golden-ratio constant, each
/// output a mix of the new state. Every seed gives a fixed sequence, so a test, an example or a
/// benchmark sees the same inputs on every run.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator whose first output mixes `seed + 0x9E37_79B9_7F4A_7C15`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next `n` outputs, as limbs (least significant first).
    pub fn limbs(&mut self, n: usize) -> Vec<u64> {
        (0..n).map(|_| self.next_u64()).collect()
    }
}

/// The first `n` outputs of [`SplitMix64::new`]`(seed)`: `n` fixed pseudo-random limbs.
pub fn limbs(seed: u64, n: usize) -> Vec<u64> {
    SplitMix64::new(seed).limbs(n)
}

/// For the tests that hand the generator to an API taking an RNG (`Nat::random_below`, ...).
/// `u32`s are the high halves of outputs; bytes come eight to an output, little-endian.
impl rand_core::TryRng for SplitMix64 {
    type Error = Infallible;

    #[allow(clippy::cast_possible_truncation)] // the high half: 32 bits exactly
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.next_u64() >> 32) as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.next_u64())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let x = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&x[..chunk.len()]);
        }
        Ok(())
    }
}

/// Standard base64 with padding (RFC 4648 §4), on one line: written here so that the tests of
/// a PEM decoder do not trust the decoder's own crate.
pub fn base64(data: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let b = [c[0], *c.get(1).unwrap_or(&0), *c.get(2).unwrap_or(&0)];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= c.len() {
                s.push(char::from(A[((v >> (18 - 6 * k)) & 63) as usize]));
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// `der` in a PEM block with `label` (RFC 7468): the base64 in lines of 64 characters.
pub fn pem(label: &str, der: &[u8]) -> Vec<u8> {
    let body = base64(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    // The base64 alphabet is ASCII, so every 64-byte chunk is whole characters.
    for line in body.as_bytes().chunks(64) {
        out.extend(line.iter().map(|&b| char::from(b)));
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out.into_bytes()
}

/// OpenSSL's `pkeyutl` options for RSAES-OAEP with SHA-256 and MGF1 with SHA-256 (OpenSSL's
/// default is SHA-1 for both).
pub const OPENSSL_OAEP_SHA256: [&str; 6] = [
    "-pkeyopt",
    "rsa_padding_mode:oaep",
    "-pkeyopt",
    "rsa_oaep_md:sha256",
    "-pkeyopt",
    "rsa_mgf1_md:sha256",
];

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::Rng;

    /// The reference implementation's first outputs for seed 0 (Vigna's `splitmix64.c`, as
    /// quoted by the test suites of other ports).
    #[test]
    fn seed_zero_gives_the_reference_outputs() {
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(g.next_u64(), 0x06C4_5D18_8009_454F);
        assert_eq!(
            limbs(0, 3),
            [
                0xE220_A839_7B1D_CDAF,
                0x6E78_9E6A_A1B9_65F4,
                0x06C4_5D18_8009_454F
            ]
        );
    }

    /// The `rand_core` view gives the same stream: u64s as they are, u32s their high halves,
    /// bytes little-endian (a partial last word uses up a whole output).
    #[test]
    fn rand_core_view_is_the_same_stream() {
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u32(), 0xE220_A839);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut bytes = [0u8; 3];
        g.fill_bytes(&mut bytes);
        assert_eq!(bytes, [0x4F, 0x45, 0x09]);
        assert_eq!(g.next_u64(), SplitMix64::new(0).limbs(4)[3]);
    }
}
