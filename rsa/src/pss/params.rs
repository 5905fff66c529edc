//! The restrictions an RSA-PSS key (`id-RSASSA-PSS` with `RSASSA-PSS-params`, RFC 4055 §3.1)
//! puts on its signatures.

use alloc::borrow::ToOwned;
use alloc::{format, string::String};
use core::fmt;

use super::{Pss, SaltLen};
use crate::{Error, HashAlg, Mgf, Result};

/// The parameters of an RSA-PSS key (RFC 4055 §3.1): the only message hash and MGF1 hash its
/// signatures may use, and the smallest salt they may have.
///
/// As in OpenSSL, they are the defaults of signing with the key (hash, MGF1 hash, and the
/// minimum as the salt length) and limits on signing and verifying: another hash or MGF1
/// hash is refused, and so is a shorter salt. RFC 4055's defaults, for fields the encoding
/// omits, are SHA-1, MGF1 with SHA-1 and 20 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PssKeyParams {
    /// The message hash.
    pub hash: HashAlg,
    /// The hash of MGF1.
    pub mgf1_hash: HashAlg,
    /// The smallest salt length, in bytes.
    pub min_salt_len: usize,
}

impl PssKeyParams {
    /// The scheme signing with such a key uses unless told otherwise: its hashes, and a salt
    /// of its minimum length (OpenSSL's choice).
    pub const fn default_scheme(&self) -> Pss {
        Pss {
            hash: self.hash,
            mgf1_hash: self.mgf1_hash,
            salt_len: SaltLen::Exact(self.min_salt_len),
            // RFC 4055's parameters name MGF1 only.
            mgf: Mgf::Mgf1,
        }
    }

    /// Checks a scheme against the restrictions: the same hash and MGF1 hash, and for an
    /// exact salt length, at least the minimum. ([`SaltLen::Max`] and [`SaltLen::Auto`] are
    /// checked by the caller against the key size; on verification use
    /// [`PssKeyParams::verifying_salt`].)
    ///
    /// # Errors
    ///
    /// [`Error::Unsupported`] saying which restriction the scheme breaks.
    pub fn check(&self, scheme: &Pss) -> Result<()> {
        if scheme.hash != self.hash {
            return Err(Error::Unsupported(format!(
                "the RSA-PSS key allows {} only, not {}",
                self.hash, scheme.hash
            )));
        }
        if scheme.mgf != Mgf::Mgf1 {
            return Err(Error::Unsupported(
                "the RSA-PSS key allows MGF1 only, not a SHAKE mask".to_owned(),
            ));
        }
        if scheme.mgf1_hash != self.mgf1_hash {
            return Err(Error::Unsupported(format!(
                "the RSA-PSS key allows MGF1 with {} only, not {}",
                self.mgf1_hash, scheme.mgf1_hash
            )));
        }
        let salt = match scheme.salt_len {
            SaltLen::HashLen => Some(scheme.hash.output_len()),
            SaltLen::Exact(n) | SaltLen::AtLeast(n) => Some(n),
            SaltLen::Max | SaltLen::Auto => None,
        };
        match salt {
            Some(n) if n < self.min_salt_len => Err(Error::Unsupported(format!(
                "the RSA-PSS key requires a salt of at least {} bytes, not {n}",
                self.min_salt_len
            ))),
            _ => Ok(()),
        }
    }

    /// The salt length to verify with: `auto` becomes "any, but at least the minimum".
    pub const fn verifying_salt(&self, salt: SaltLen) -> SaltLen {
        match salt {
            SaltLen::Auto => SaltLen::AtLeast(self.min_salt_len),
            other => other,
        }
    }
}

impl Default for PssKeyParams {
    /// RFC 4055's defaults: SHA-1, MGF1 with SHA-1, 20 bytes of salt.
    fn default() -> Self {
        PssKeyParams {
            hash: HashAlg::Sha1,
            mgf1_hash: HashAlg::Sha1,
            min_salt_len: 20,
        }
    }
}

impl fmt::Display for PssKeyParams {
    /// OpenSSL's `PSS parameter restrictions` block (`openssl pkey -text`), without the
    /// heading.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = PssKeyParams::default();
        let default = |is: bool| if is { " (default)" } else { "" };
        writeln!(
            f,
            "  Hash Algorithm: {}{}",
            openssl_name(self.hash),
            default(self.hash == d.hash)
        )?;
        writeln!(
            f,
            "  Mask Algorithm: MGF1 with {}{}",
            openssl_name(self.mgf1_hash),
            default(self.mgf1_hash == d.mgf1_hash)
        )?;
        writeln!(
            f,
            "  Minimum Salt Length: {}{}",
            self.min_salt_len,
            default(self.min_salt_len == d.min_salt_len)
        )?;
        write!(f, "  Trailer Field: 0x1 (default)")
    }
}

/// OpenSSL 3's name of a hash in its `-text` output.
fn openssl_name(hash: HashAlg) -> String {
    match hash.cli_name() {
        "sha1" => "SHA1".to_owned(),
        "sha224" => "SHA2-224".to_owned(),
        "sha256" => "SHA2-256".to_owned(),
        "sha384" => "SHA2-384".to_owned(),
        "sha512" => "SHA2-512".to_owned(),
        "sha512-224" => "SHA2-512/224".to_owned(),
        "sha512-256" => "SHA2-512/256".to_owned(),
        other => other.to_ascii_uppercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restrictions_refuse_other_hashes_and_short_salts() {
        let p = PssKeyParams {
            hash: HashAlg::Sha256,
            mgf1_hash: HashAlg::Sha1,
            min_salt_len: 32,
        };
        assert!(p.check(&p.default_scheme()).is_ok());
        assert!(p.check(&Pss::new(HashAlg::Sha256)).is_err(), "MGF1 SHA-256");
        let ok = Pss::new(HashAlg::Sha256).with_mgf1_hash(HashAlg::Sha1);
        assert!(p.check(&ok).is_ok(), "salt of the hash length, 32");
        assert!(p.check(&ok.with_salt_len(SaltLen::Exact(31))).is_err());
        assert!(p.check(&ok.with_salt_len(SaltLen::Max)).is_ok());
        assert!(
            p.check(&Pss::new(HashAlg::Sha512).with_mgf1_hash(HashAlg::Sha1))
                .is_err()
        );
        assert_eq!(p.verifying_salt(SaltLen::Auto), SaltLen::AtLeast(32));
    }
}
