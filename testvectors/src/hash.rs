//! Hash algorithm names as the vector files spell them.

use std::fmt;
use std::str::FromStr;

/// A hash function named by a test vector (SHA-1 and the SHA-2 family).
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
