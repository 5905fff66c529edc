//! The signature of the typed signing and verifying keys of both signature schemes (PSS and
//! PKCS #1 v1.5): a byte string with RustCrypto's `SignatureEncoding`. Re-exported as
//! `rsatool_rsa::pss::Signature` and `rsatool_rsa::pkcs1v15::Signature`. (Not `signature.rs`:
//! the crate root re-exports the `signature` crate under that name.)

use alloc::{boxed::Box, vec::Vec};

/// A signature (k bytes for a modulus of k bytes) for RustCrypto's [`signature`] traits: the
/// one type of PSS and PKCS #1 v1.5, [`rsatool_rsa::pss::Signature`](crate::pss::Signature) and
/// [`rsatool_rsa::pkcs1v15::Signature`](crate::pkcs1v15::Signature).
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
