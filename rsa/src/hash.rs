//! The hash functions of the padding schemes (SHA-1 and the SHA-2 family), their names, and
//! MGF1 (RFC 8017 Appendix B.2.1), which PSS and OAEP share.
//!
//! The hashing itself is the `sha1` / `sha2` crates'; this module gives them one run-time
//! name ([`HashAlg`]) so that a scheme, a command-line flag and a test vector can all say
//! which hash they mean.

use std::fmt;
use std::str::FromStr;

use sha2::Digest;
use zeroize::Zeroize;

/// A hash function: SHA-1 or one of the SHA-2 family.
///
/// SHA-1 is here for verifying legacy signatures and for OAEP / MGF1, where RFC 8017 still
/// allows it; new signatures should use SHA-256 or stronger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HashAlg {
    /// SHA-1 (20-byte digest).
    Sha1,
    /// SHA-224 (28 bytes).
    Sha224,
    /// SHA-256 (32 bytes).
    Sha256,
    /// SHA-384 (48 bytes).
    Sha384,
    /// SHA-512 (64 bytes).
    Sha512,
    /// SHA-512/224 (28 bytes).
    Sha512_224,
    /// SHA-512/256 (32 bytes).
    Sha512_256,
}

/// The name given to [`HashAlg::from_str`] is not a known hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownHash(pub String);

impl fmt::Display for UnknownHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown hash algorithm {:?}", self.0)
    }
}

impl std::error::Error for UnknownHash {}

impl HashAlg {
    /// Every variant, SHA-1 first.
    pub const ALL: [HashAlg; 7] = [
        HashAlg::Sha1,
        HashAlg::Sha224,
        HashAlg::Sha256,
        HashAlg::Sha384,
        HashAlg::Sha512,
        HashAlg::Sha512_224,
        HashAlg::Sha512_256,
    ];

    /// Digest length in bytes.
    pub const fn output_len(self) -> usize {
        match self {
            HashAlg::Sha1 => 20,
            HashAlg::Sha224 | HashAlg::Sha512_224 => 28,
            HashAlg::Sha256 | HashAlg::Sha512_256 => 32,
            HashAlg::Sha384 => 48,
            HashAlg::Sha512 => 64,
        }
    }

    /// The standard name: `SHA-1`, `SHA-256`, `SHA-512/224`, ...
    pub const fn name(self) -> &'static str {
        match self {
            HashAlg::Sha1 => "SHA-1",
            HashAlg::Sha224 => "SHA-224",
            HashAlg::Sha256 => "SHA-256",
            HashAlg::Sha384 => "SHA-384",
            HashAlg::Sha512 => "SHA-512",
            HashAlg::Sha512_224 => "SHA-512/224",
            HashAlg::Sha512_256 => "SHA-512/256",
        }
    }

    /// The name as command-line tools spell it: `sha1`, `sha256`, `sha512-224`, ...
    pub const fn cli_name(self) -> &'static str {
        match self {
            HashAlg::Sha1 => "sha1",
            HashAlg::Sha224 => "sha224",
            HashAlg::Sha256 => "sha256",
            HashAlg::Sha384 => "sha384",
            HashAlg::Sha512 => "sha512",
            HashAlg::Sha512_224 => "sha512-224",
            HashAlg::Sha512_256 => "sha512-256",
        }
    }

    /// The digest of `data`, [`output_len`](Self::output_len) bytes.
    pub fn digest(self, data: &[u8]) -> Vec<u8> {
        let mut h = self.hasher();
        h.update(data);
        h.finalize()
    }

    /// An incremental hasher, for input that arrives in pieces (a file read in blocks).
    pub fn hasher(self) -> Hasher {
        Hasher(match self {
            HashAlg::Sha1 => State::Sha1(sha1::Sha1::new()),
            HashAlg::Sha224 => State::Sha224(sha2::Sha224::new()),
            HashAlg::Sha256 => State::Sha256(sha2::Sha256::new()),
            HashAlg::Sha384 => State::Sha384(sha2::Sha384::new()),
            HashAlg::Sha512 => State::Sha512(sha2::Sha512::new()),
            HashAlg::Sha512_224 => State::Sha512_224(sha2::Sha512_224::new()),
            HashAlg::Sha512_256 => State::Sha512_256(sha2::Sha512_256::new()),
        })
    }
}

/// An incremental hash computation: [`HashAlg::hasher`], then [`update`](Self::update) any
/// number of times, then [`finalize`](Self::finalize).
#[derive(Clone)]
pub struct Hasher(State);

#[derive(Clone)]
enum State {
    Sha1(sha1::Sha1),
    Sha224(sha2::Sha224),
    Sha256(sha2::Sha256),
    Sha384(sha2::Sha384),
    Sha512(sha2::Sha512),
    Sha512_224(sha2::Sha512_224),
    Sha512_256(sha2::Sha512_256),
}

impl Hasher {
    /// Which hash this is.
    pub fn alg(&self) -> HashAlg {
        match self.0 {
            State::Sha1(_) => HashAlg::Sha1,
            State::Sha224(_) => HashAlg::Sha224,
            State::Sha256(_) => HashAlg::Sha256,
            State::Sha384(_) => HashAlg::Sha384,
            State::Sha512(_) => HashAlg::Sha512,
            State::Sha512_224(_) => HashAlg::Sha512_224,
            State::Sha512_256(_) => HashAlg::Sha512_256,
        }
    }

    /// Feeds `data`.
    pub fn update(&mut self, data: &[u8]) {
        match &mut self.0 {
            State::Sha1(h) => h.update(data),
            State::Sha224(h) => h.update(data),
            State::Sha256(h) => h.update(data),
            State::Sha384(h) => h.update(data),
            State::Sha512(h) => h.update(data),
            State::Sha512_224(h) => h.update(data),
            State::Sha512_256(h) => h.update(data),
        }
    }

    /// The digest of everything fed so far.
    pub fn finalize(self) -> Vec<u8> {
        match self.0 {
            State::Sha1(h) => h.finalize().to_vec(),
            State::Sha224(h) => h.finalize().to_vec(),
            State::Sha256(h) => h.finalize().to_vec(),
            State::Sha384(h) => h.finalize().to_vec(),
            State::Sha512(h) => h.finalize().to_vec(),
            State::Sha512_224(h) => h.finalize().to_vec(),
            State::Sha512_256(h) => h.finalize().to_vec(),
        }
    }
}

impl fmt::Debug for Hasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Hasher").field(&self.alg()).finish()
    }
}

/// MGF1 (RFC 8017 B.2.1) with `hash`, XORed into `out`: `out ^= MGF1(seed, out.len())`.
///
/// The XOR form is what both PSS (`maskedDB = DB ^ dbMask`) and OAEP (both masks) need, and it
/// never holds the mask in a buffer of its own.
///
/// # Constant time
///
/// Time depends only on the lengths of `seed` and `out`.
pub(crate) fn mgf1_xor(hash: HashAlg, seed: &[u8], out: &mut [u8]) {
    let mut counter: u32 = 0;
    for chunk in out.chunks_mut(hash.output_len()) {
        let mut h = hash.hasher();
        h.update(seed);
        h.update(&counter.to_be_bytes());
        let mut mask = h.finalize();
        for (o, m) in chunk.iter_mut().zip(&mask) {
            *o ^= m;
        }
        mask.zeroize();
        counter = counter.wrapping_add(1);
    }
}

impl fmt::Display for HashAlg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HashAlg {
    type Err = UnknownHash;

    /// Parses the names the vector families and tools use, ignoring case and the `-`/`_`
    /// separators: NIST CAVP `SHA256`, `SHA512/224`; Wycheproof `SHA-256`, `SHA-512/224`;
    /// command-line style `sha256`, `sha512-224`, `sha512_256`.
    ///
    /// # Errors
    ///
    /// [`UnknownHash`] for anything else (SHA-3, SHAKE, MD5, ...).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let norm: String = s
            .trim()
            .chars()
            .filter(|c| !matches!(c, '-' | '_'))
            .map(|c| c.to_ascii_uppercase())
            .collect();
        match norm.as_str() {
            "SHA1" => Ok(HashAlg::Sha1),
            "SHA224" => Ok(HashAlg::Sha224),
            "SHA256" => Ok(HashAlg::Sha256),
            "SHA384" => Ok(HashAlg::Sha384),
            "SHA512" => Ok(HashAlg::Sha512),
            "SHA512/224" | "SHA512224" => Ok(HashAlg::Sha512_224),
            "SHA512/256" | "SHA512256" => Ok(HashAlg::Sha512_256),
            _ => Err(UnknownHash(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_match_the_fips_180_4_abc_examples() {
        // "abc": the NIST FIPS 180-4 example values (also what Python's hashlib gives).
        let want: [(HashAlg, &str); 7] = [
            (HashAlg::Sha1, "a9993e364706816aba3e25717850c26c9cd0d89d"),
            (
                HashAlg::Sha224,
                "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
            ),
            (
                HashAlg::Sha256,
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            ),
            (
                HashAlg::Sha384,
                "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
            ),
            (
                HashAlg::Sha512,
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
            ),
            (
                HashAlg::Sha512_224,
                "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa",
            ),
            (
                HashAlg::Sha512_256,
                "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
            ),
        ];
        for (alg, hex) in want {
            let d = alg.digest(b"abc");
            assert_eq!(d.len(), alg.output_len(), "{alg}");
            let got: String = d.iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(got, hex, "{alg}");
            let mut h = alg.hasher();
            h.update(b"a");
            h.update(b"bc");
            assert_eq!(h.alg(), alg);
            assert_eq!(h.finalize(), d, "{alg} incremental");
        }
    }

    #[test]
    fn mgf1_is_the_concatenated_counter_hashes() {
        // RFC 8017 B.2.1 written out: T = Hash(seed || C(0)) || Hash(seed || C(1)) || ...
        let seed = b"seed bytes";
        for alg in HashAlg::ALL {
            for len in [
                0,
                1,
                alg.output_len() - 1,
                alg.output_len(),
                3 * alg.output_len() + 5,
            ] {
                let mut t = Vec::new();
                for c in 0u32..4 {
                    t.extend(alg.digest(&[&seed[..], &c.to_be_bytes()].concat()));
                }
                let mut out = vec![0x5a; len];
                mgf1_xor(alg, seed, &mut out);
                let want: Vec<u8> = t[..len].iter().map(|m| m ^ 0x5a).collect();
                assert_eq!(out, want, "{alg} {len}");
            }
        }
    }

    #[test]
    fn cli_names_parse_back() {
        for alg in HashAlg::ALL {
            assert_eq!(alg.cli_name().parse::<HashAlg>(), Ok(alg));
        }
    }

    #[test]
    fn parses_every_family_spelling() {
        for (name, want) in [
            ("SHA1", HashAlg::Sha1),
            ("SHA-1", HashAlg::Sha1),
            ("SHA224", HashAlg::Sha224),
            ("SHA-256", HashAlg::Sha256),
            ("sha384", HashAlg::Sha384),
            ("SHA512", HashAlg::Sha512),
            ("SHA512/224", HashAlg::Sha512_224),
            ("SHA-512/224", HashAlg::Sha512_224),
            ("sha512-224", HashAlg::Sha512_224),
            ("SHA-512/256", HashAlg::Sha512_256),
            ("sha512_256", HashAlg::Sha512_256),
        ] {
            assert_eq!(name.parse::<HashAlg>(), Ok(want), "{name}");
        }
        for alg in HashAlg::ALL {
            assert_eq!(alg.name().parse::<HashAlg>(), Ok(alg));
        }
    }

    #[test]
    fn rejects_unknown_names() {
        for name in ["SHA3-256", "SHAKE128", "MD5", "", "SHA", "SHA-512/384"] {
            assert!(name.parse::<HashAlg>().is_err(), "{name}");
        }
    }
}
