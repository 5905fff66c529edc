//! The hash functions of the padding schemes (SHA-1, the SHA-2 family, SHA-3 and SHAKE), their
//! names, MGF1 (RFC 8017 Appendix B.2.1), which PSS and OAEP share, and SHAKE as a mask
//! function in place of MGF1 (FIPS 186-5 §5.4, RFC 8702 §3.1).
//!
//! The hashing itself is the `sha1` / `sha2` / `sha3` crates'; this module gives them one
//! run-time name ([`HashAlg`]) so that a scheme, a command-line flag and a test vector can all
//! say which hash they mean.

use alloc::borrow::ToOwned;
use alloc::{string::String, vec, vec::Vec};
use core::fmt;
use core::str::FromStr;

use sha2::Digest;
use sha3::digest::{ExtendableOutput, Update, XofReader};
use zeroize::Zeroize;

/// A hash function: SHA-1, one of the SHA-2 or SHA-3 families, or SHAKE.
///
/// SHA-1 is here for verifying legacy signatures and for OAEP / MGF1, where RFC 8017 still
/// allows it; new signatures should use SHA-256 or stronger.
///
/// SHAKE128 and SHAKE256 are extendable-output functions; as a hash they give 256 and 512
/// bits (FIPS 186-5 §5.4, RFC 8702 §3.2). PKCS #1 v1.5 has no DigestInfo for them, so they
/// serve PSS (as the hash, and as the mask function, [`Mgf`]) only.
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
    /// SHA3-224 (28 bytes, FIPS 202).
    Sha3_224,
    /// SHA3-256 (32 bytes).
    Sha3_256,
    /// SHA3-384 (48 bytes).
    Sha3_384,
    /// SHA3-512 (64 bytes).
    Sha3_512,
    /// SHAKE128 with 256 bits of output (32 bytes).
    Shake128,
    /// SHAKE256 with 512 bits of output (64 bytes).
    Shake256,
}

/// The name given to [`HashAlg::from_str`] is not a known hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownHash(pub String);

impl fmt::Display for UnknownHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown hash algorithm {:?}", self.0)
    }
}

impl core::error::Error for UnknownHash {}

impl HashAlg {
    /// SHA-1 and the SHA-2 family, SHA-1 first: the hashes every scheme (OAEP, PKCS #1 v1.5,
    /// PSS) and OpenSSL's command line take. [`SHA3`](Self::SHA3) and [`SHAKE`](Self::SHAKE)
    /// list the others.
    pub const ALL: [HashAlg; 7] = [
        HashAlg::Sha1,
        HashAlg::Sha224,
        HashAlg::Sha256,
        HashAlg::Sha384,
        HashAlg::Sha512,
        HashAlg::Sha512_224,
        HashAlg::Sha512_256,
    ];

    /// The SHA-3 family (FIPS 202), shortest first.
    pub const SHA3: [HashAlg; 4] = [
        HashAlg::Sha3_224,
        HashAlg::Sha3_256,
        HashAlg::Sha3_384,
        HashAlg::Sha3_512,
    ];

    /// SHAKE128 and SHAKE256: PSS hashes, not PKCS #1 v1.5 ones.
    pub const SHAKE: [HashAlg; 2] = [HashAlg::Shake128, HashAlg::Shake256];

    /// Every variant: [`ALL`](Self::ALL), then [`SHA3`](Self::SHA3), then
    /// [`SHAKE`](Self::SHAKE).
    pub const EVERY: [HashAlg; 13] = {
        let (all, sha3) = (Self::ALL.len(), Self::SHA3.len());
        let mut every = [HashAlg::Sha1; 13];
        let mut i = 0;
        while i < every.len() {
            every[i] = if i < all {
                Self::ALL[i]
            } else if i < all + sha3 {
                Self::SHA3[i - all]
            } else {
                Self::SHAKE[i - all - sha3]
            };
            i += 1;
        }
        every
    };

    /// Whether this is SHAKE128 or SHAKE256.
    pub const fn is_shake(self) -> bool {
        matches!(self, HashAlg::Shake128 | HashAlg::Shake256)
    }

    /// Digest length in bytes.
    pub const fn output_len(self) -> usize {
        match self {
            HashAlg::Sha1 => 20,
            HashAlg::Sha224 | HashAlg::Sha512_224 | HashAlg::Sha3_224 => 28,
            HashAlg::Sha256 | HashAlg::Sha512_256 | HashAlg::Sha3_256 | HashAlg::Shake128 => 32,
            HashAlg::Sha384 | HashAlg::Sha3_384 => 48,
            HashAlg::Sha512 | HashAlg::Sha3_512 | HashAlg::Shake256 => 64,
        }
    }

    /// The bytes one MGF1 counter block contributes (RFC 8017 B.2.1's hLen): the digest
    /// length, except for SHAKE, whose MGF1 no standard defines. NIST's ACVP server (and so
    /// every module validated with it) draws 128 bits (SHAKE128) and 256 bits (SHAKE256) per
    /// counter, the security strength, not the 256 / 512 bits of [`output_len`](Self::output_len):
    /// the sample sigVer set's valid SHAKE signatures with MGF1 verify only that way (checked
    /// in `testvectors/tests/vectors/acvp.rs`).
    pub const fn mgf1_block_len(self) -> usize {
        match self {
            HashAlg::Shake128 => 16,
            HashAlg::Shake256 => 32,
            _ => self.output_len(),
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
            HashAlg::Sha3_224 => "SHA3-224",
            HashAlg::Sha3_256 => "SHA3-256",
            HashAlg::Sha3_384 => "SHA3-384",
            HashAlg::Sha3_512 => "SHA3-512",
            HashAlg::Shake128 => "SHAKE128",
            HashAlg::Shake256 => "SHAKE256",
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
            HashAlg::Sha3_224 => "sha3-224",
            HashAlg::Sha3_256 => "sha3-256",
            HashAlg::Sha3_384 => "sha3-384",
            HashAlg::Sha3_512 => "sha3-512",
            HashAlg::Shake128 => "shake128",
            HashAlg::Shake256 => "shake256",
        }
    }

    /// The digest of `data`, [`output_len`](Self::output_len) bytes.
    pub fn digest(self, data: &[u8]) -> Vec<u8> {
        let mut h = self.hasher();
        h.update(data);
        h.finalize()
    }

    /// The content octets of the hash's OBJECT IDENTIFIER (its DER without tag and length),
    /// for DigestInfo and the RSASSA-PSS parameters: id-sha1 is 1.3.14.3.2.26 (RFC 8017
    /// A.2.4), the others NIST's hash arcs 2.16.840.1.101.3.4.2.x (NIST CSOR).
    pub(crate) fn oid_content(self) -> Vec<u8> {
        let nist_arc = match self {
            HashAlg::Sha1 => return vec![0x2b, 0x0e, 0x03, 0x02, 0x1a],
            HashAlg::Sha256 => 1,
            HashAlg::Sha384 => 2,
            HashAlg::Sha512 => 3,
            HashAlg::Sha224 => 4,
            HashAlg::Sha512_224 => 5,
            HashAlg::Sha512_256 => 6,
            HashAlg::Sha3_224 => 7,
            HashAlg::Sha3_256 => 8,
            HashAlg::Sha3_384 => 9,
            HashAlg::Sha3_512 => 10,
            HashAlg::Shake128 => 11,
            HashAlg::Shake256 => 12,
        };
        vec![0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, nist_arc]
    }

    /// The fixed-output hash whose digest of the empty input is `empty_digest`, if it is one
    /// of ours (SHAKE aside): how a hash given as a type of some `digest` crate version (the
    /// RustCrypto facades' `D: Digest`) is named, without depending on that version. A
    /// collision-resistant hash is identified by its output on one input; a hash of another
    /// family gives `None`.
    pub fn identify(empty_digest: &[u8]) -> Option<HashAlg> {
        HashAlg::EVERY
            .into_iter()
            .filter(|h| !h.is_shake() && h.output_len() == empty_digest.len())
            .find(|h| h.digest(b"") == empty_digest)
    }
}

mod sealed {
    /// Only the hash types listed on [`super::KnownDigest`] implement it.
    pub trait Sealed {}
}

/// A hash type of RustCrypto's `digest` crate (`rsatool_rsa::sha2::Sha256`, ...) with the
/// [`HashAlg`] it is: the `D` of the typed keys (`pkcs1v15::SigningKey<D>`,
/// `pss::VerifyingKey<D>`, `oaep::EncryptingKey<D>`, ...), mapped to the run-time hash the
/// schemes take. Sealed: implemented for SHA-1, the SHA-2 family and SHA-3.
///
/// ```
/// use rsatool_rsa::{HashAlg, KnownDigest, sha2::Sha384};
///
/// assert_eq!(Sha384::HASH, HashAlg::Sha384);
/// ```
pub trait KnownDigest:
    Default + Update + sha2::digest::FixedOutput + sha2::digest::HashMarker + sealed::Sealed
{
    /// The run-time name of this hash.
    const HASH: HashAlg;
}

/// Every hash from one list (its `HashAlg` variant and its RustCrypto type): the
/// [`KnownDigest`] impls of the fixed-output ones, the [`Hasher`]'s state, and the matches of
/// [`HashAlg::hasher`], [`Hasher::alg`], [`Hasher::update`] and [`Hasher::finalize`]. The
/// XOFs (SHAKE) are no `KnownDigest` and give `output_len()` bytes.
macro_rules! hashes {
    (fixed: [$($f:ident => $ft:ty,)*], xof: [$($x:ident => $xt:ty,)*] $(,)?) => {
        $(
            impl sealed::Sealed for $ft {}
            impl KnownDigest for $ft {
                const HASH: HashAlg = HashAlg::$f;
            }
        )*

        #[derive(Clone)]
        enum State {
            $($f($ft),)*
            $($x($xt),)*
        }

        impl HashAlg {
            /// An incremental hasher, for input that arrives in pieces (a file read in blocks).
            pub fn hasher(self) -> Hasher {
                Hasher(match self {
                    $(HashAlg::$f => State::$f(<$ft>::default()),)*
                    $(HashAlg::$x => State::$x(<$xt>::default()),)*
                })
            }
        }

        impl Hasher {
            /// Which hash this is.
            pub fn alg(&self) -> HashAlg {
                match self.0 {
                    $(State::$f(_) => HashAlg::$f,)*
                    $(State::$x(_) => HashAlg::$x,)*
                }
            }

            /// Feeds `data`.
            pub fn update(&mut self, data: &[u8]) {
                match &mut self.0 {
                    $(State::$f(h) => Digest::update(h, data),)*
                    $(State::$x(h) => Update::update(h, data),)*
                }
            }

            /// The digest of everything fed so far.
            pub fn finalize(self) -> Vec<u8> {
                match self.0 {
                    $(State::$f(h) => h.finalize().to_vec(),)*
                    $(State::$x(h) => {
                        let mut out = vec![0u8; HashAlg::$x.output_len()];
                        h.finalize_xof().read(&mut out);
                        out
                    })*
                }
            }
        }
    };
}

hashes! {
    fixed: [
        Sha1 => sha1::Sha1,
        Sha224 => sha2::Sha224,
        Sha256 => sha2::Sha256,
        Sha384 => sha2::Sha384,
        Sha512 => sha2::Sha512,
        Sha512_224 => sha2::Sha512_224,
        Sha512_256 => sha2::Sha512_256,
        Sha3_224 => sha3::Sha3_224,
        Sha3_256 => sha3::Sha3_256,
        Sha3_384 => sha3::Sha3_384,
        Sha3_512 => sha3::Sha3_512,
    ],
    xof: [
        Shake128 => sha3::Shake128,
        Shake256 => sha3::Shake256,
    ],
}

/// An incremental hash computation: [`HashAlg::hasher`], then [`update`](Self::update) any
/// number of times, then [`finalize`](Self::finalize).
#[derive(Clone)]
pub struct Hasher(State);

/// The mask generation function of PSS: MGF1 over a hash (RFC 8017 B.2.1), or SHAKE128 /
/// SHAKE256 used directly (FIPS 186-5 §5.4: "SHAKE128 or SHAKE256 may be used as the mask
/// generation function"; mask = SHAKE(seed, maskLen) as RFC 8702 §3.1 defines it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mgf {
    /// MGF1 over the scheme's MGF1 hash.
    #[default]
    Mgf1,
    /// SHAKE128(seed, maskLen).
    Shake128,
    /// SHAKE256(seed, maskLen).
    Shake256,
}

/// `out ^= mask(seed, out.len())` with `mgf` (`mgf1_hash` is MGF1's hash, unused by SHAKE).
///
/// # Constant time
///
/// Time depends only on the lengths of `seed` and `out`.
pub(crate) fn mask_xor(mgf: Mgf, mgf1_hash: HashAlg, seed: &[u8], out: &mut [u8]) {
    match mgf {
        Mgf::Mgf1 => mgf1_xor(mgf1_hash, seed, out),
        Mgf::Shake128 => shake_xor(sha3::Shake128::default(), seed, out),
        Mgf::Shake256 => shake_xor(sha3::Shake256::default(), seed, out),
    }
}

/// `out ^= XOF(seed)`, the first `out.len()` bytes of the XOF's output.
fn shake_xor<X: ExtendableOutput + Update>(mut xof: X, seed: &[u8], out: &mut [u8]) {
    xof.update(seed);
    let mut reader = xof.finalize_xof();
    let mut block = [0u8; 64];
    for chunk in out.chunks_mut(block.len()) {
        let block = &mut block[..chunk.len()];
        reader.read(block);
        for (o, m) in chunk.iter_mut().zip(block.iter()) {
            *o ^= m;
        }
    }
    block.zeroize();
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
    for chunk in out.chunks_mut(hash.mgf1_block_len()) {
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
    /// separators: NIST CAVP `SHA256`, `SHA512/224`; Wycheproof `SHA-256`, `SHA-512/224`,
    /// `SHA3-256`, `SHAKE128`; ACVP `SHA2-256`, `SHA2-512/224`, `SHA3-256`, `SHAKE-128`;
    /// command-line style `sha256`, `sha512-224`, `sha3-256`, `shake128`.
    ///
    /// # Errors
    ///
    /// [`UnknownHash`] for anything else (MD5, ...).
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
            "SHA512/256" | "SHA512256" | "SHA2512/256" | "SHA2512256" => Ok(HashAlg::Sha512_256),
            "SHA2224" => Ok(HashAlg::Sha224),
            "SHA2256" => Ok(HashAlg::Sha256),
            "SHA2384" => Ok(HashAlg::Sha384),
            "SHA2512" => Ok(HashAlg::Sha512),
            "SHA2512/224" | "SHA2512224" => Ok(HashAlg::Sha512_224),
            "SHA3224" => Ok(HashAlg::Sha3_224),
            "SHA3256" => Ok(HashAlg::Sha3_256),
            "SHA3384" => Ok(HashAlg::Sha3_384),
            "SHA3512" => Ok(HashAlg::Sha3_512),
            "SHAKE128" => Ok(HashAlg::Shake128),
            "SHAKE256" => Ok(HashAlg::Shake256),
            _ => Err(UnknownHash(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identify_names_every_fixed_output_hash_by_its_empty_digest() {
        for h in HashAlg::EVERY.into_iter().filter(|h| !h.is_shake()) {
            assert_eq!(HashAlg::identify(&h.digest(b"")), Some(h));
            // The digest of another input, or a truncation, names nothing.
            assert_eq!(HashAlg::identify(&h.digest(b"a")), None);
            assert_eq!(HashAlg::identify(&h.digest(b"")[1..]), None);
        }
        // SHA-256 of "" from FIPS 180-4's published value, not from our code.
        let sha256_empty = [
            0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f,
            0xb9, 0x24, 0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b,
            0x78, 0x52, 0xb8, 0x55,
        ];
        assert_eq!(HashAlg::identify(&sha256_empty), Some(HashAlg::Sha256));
    }

    #[test]
    fn every_known_digest_names_its_own_hash() {
        // The typed keys hash with D's run-time name: the two must be the same function.
        fn check<D: KnownDigest + Digest>() {
            assert_eq!(
                D::HASH.digest(b"abc"),
                D::digest(b"abc").to_vec(),
                "{}",
                D::HASH
            );
        }
        check::<sha1::Sha1>();
        check::<sha2::Sha224>();
        check::<sha2::Sha256>();
        check::<sha2::Sha384>();
        check::<sha2::Sha512>();
        check::<sha2::Sha512_224>();
        check::<sha2::Sha512_256>();
        check::<sha3::Sha3_224>();
        check::<sha3::Sha3_256>();
        check::<sha3::Sha3_384>();
        check::<sha3::Sha3_512>();
    }

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
        check_abc_digests(&want);
    }

    /// Each hash of "abc" in one call and in two updates (split after `split` bytes) against
    /// the published hex digest (the split alternates between 1 and 2 bytes).
    fn check_abc_digests(want: &[(HashAlg, &str)]) {
        for (split, &(alg, hex)) in want.iter().enumerate() {
            let d = alg.digest(b"abc");
            assert_eq!(d.len(), alg.output_len(), "{alg}");
            let got: String = d.iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(got, hex, "{alg}");
            let (a, b) = b"abc".split_at(1 + (split & 1));
            let mut h = alg.hasher();
            h.update(a);
            h.update(b);
            assert_eq!(h.alg(), alg);
            assert_eq!(h.finalize(), d, "{alg} incremental");
        }
    }

    #[test]
    fn sha3_and_shake_digests_match_python_hashlib() {
        // Python 3 hashlib: sha3_*(b"abc").hexdigest(), shake_128(b"abc").hexdigest(32),
        // shake_256(b"abc").hexdigest(64).
        let want: [(HashAlg, &str); 6] = [
            (
                HashAlg::Sha3_224,
                "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf",
            ),
            (
                HashAlg::Sha3_256,
                "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
            ),
            (
                HashAlg::Sha3_384,
                "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25",
            ),
            (
                HashAlg::Sha3_512,
                "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
            ),
            (
                HashAlg::Shake128,
                "5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8",
            ),
            (
                HashAlg::Shake256,
                "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4",
            ),
        ];
        check_abc_digests(&want);
    }

    #[test]
    fn shake_mask_is_the_xof_output() {
        // Python: hashlib.shake_128(b"seed bytes").hexdigest(100), longer than one 64-byte
        // block of shake_xor.
        let want = "5d165c99a86a0b8173580ce3abc1f3ddef39529131280710f3bc26fd5679f928b3bf73709935984d72e4b4981fb3c7dfa81e4c78577eda1140a0a0506080a5335fdcbb969ad9094802b6119f71a06f4b277b0ef10cdf047c3f79bf013d841b04883bd548";
        let mut out = vec![0xffu8; 100];
        mask_xor(Mgf::Shake128, HashAlg::Sha1, b"seed bytes", &mut out);
        let got: String = out.iter().map(|b| format!("{:02x}", b ^ 0xff)).collect();
        assert_eq!(got, want);
        // SHAKE256 against its own digest: the first 64 bytes of the XOF are the hash.
        let mut out = vec![0u8; 64];
        mask_xor(Mgf::Shake256, HashAlg::Sha1, b"abc", &mut out);
        assert_eq!(out, HashAlg::Shake256.digest(b"abc"));
    }

    #[test]
    fn mgf1_over_shake_draws_half_digests_per_counter() {
        // ACVP's convention (see `mgf1_block_len`): 16 / 32 bytes of SHAKE(seed || C) each.
        for (alg, block) in [(HashAlg::Shake128, 16), (HashAlg::Shake256, 32)] {
            let seed = b"s";
            let mut want = Vec::new();
            for c in 0u32..3 {
                want.extend_from_slice(
                    &alg.digest(&[&seed[..], &c.to_be_bytes()].concat())[..block],
                );
            }
            let mut out = vec![0u8; 3 * block - 1];
            mgf1_xor(alg, seed, &mut out);
            assert_eq!(out, want[..3 * block - 1], "{alg}");
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
    fn parses_every_spelling() {
        // ACVP's names, the families' usual spellings, the command line's.
        let spellings = [
            ("SHA1", HashAlg::Sha1),
            ("SHA-1", HashAlg::Sha1),
            ("SHA224", HashAlg::Sha224),
            ("SHA2-224", HashAlg::Sha224),
            ("SHA-256", HashAlg::Sha256),
            ("SHA2-256", HashAlg::Sha256),
            ("sha384", HashAlg::Sha384),
            ("SHA2-384", HashAlg::Sha384),
            ("SHA512", HashAlg::Sha512),
            ("SHA2-512", HashAlg::Sha512),
            ("SHA512/224", HashAlg::Sha512_224),
            ("SHA-512/224", HashAlg::Sha512_224),
            ("sha512-224", HashAlg::Sha512_224),
            ("SHA2-512/224", HashAlg::Sha512_224),
            ("SHA-512/256", HashAlg::Sha512_256),
            ("sha512_256", HashAlg::Sha512_256),
            ("SHA2-512/256", HashAlg::Sha512_256),
            ("SHA3-224", HashAlg::Sha3_224),
            ("SHA3-256", HashAlg::Sha3_256),
            ("sha3-256", HashAlg::Sha3_256),
            ("SHA3-384", HashAlg::Sha3_384),
            ("SHA3-512", HashAlg::Sha3_512),
            ("SHAKE-128", HashAlg::Shake128),
            ("shake128", HashAlg::Shake128),
            ("SHAKE-256", HashAlg::Shake256),
        ];
        for (name, want) in spellings {
            assert_eq!(name.parse::<HashAlg>(), Ok(want), "{name}");
        }
        // The table names every variant; EVERY holds each of them once.
        let mut named: Vec<&str> = spellings.iter().map(|(_, h)| h.name()).collect();
        named.sort_unstable();
        named.dedup();
        let mut every: Vec<&str> = HashAlg::EVERY.iter().map(|h| h.name()).collect();
        every.sort_unstable();
        assert_eq!(every, named);
        for alg in HashAlg::EVERY {
            assert_eq!(alg.name().parse::<HashAlg>(), Ok(alg));
            assert_eq!(alg.cli_name().parse::<HashAlg>(), Ok(alg));
        }
    }

    #[test]
    fn rejects_unknown_names() {
        for name in ["MD5", "", "SHA", "SHA-512/384", "SHA3-1024", "SHAKE-512"] {
            assert!(name.parse::<HashAlg>().is_err(), "{name}");
        }
    }
}
