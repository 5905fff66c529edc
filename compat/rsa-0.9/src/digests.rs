//! digest 0.10 hashes named as rsatool-rsa's run-time [`HashAlg`], by their digest of the empty
//! input ([`HashAlg::identify`]): the facade does not depend on which crate implements them.

use digest::{Digest, DynDigest};
use rsatool_rsa::HashAlg;

use crate::errors::{Error, Result};

/// The [`HashAlg`] of the digest type `D`.
///
/// # Errors
///
/// [`Error::InvalidPaddingScheme`] if `D` is none of SHA-1, SHA-2 and SHA-3.
pub(crate) fn hash_of<D: Digest>() -> Result<HashAlg> {
    HashAlg::identify(&D::digest(b"")).ok_or(Error::InvalidPaddingScheme)
}

/// The [`HashAlg`] of a boxed digest (0.9's `Oaep` and `Pss` fields); its state is not touched.
///
/// # Errors
///
/// As [`hash_of`].
pub(crate) fn hash_of_dyn(digest: &dyn DynDigest) -> Result<HashAlg> {
    let mut fresh = digest.box_clone();
    fresh.reset();
    HashAlg::identify(&fresh.finalize()).ok_or(Error::InvalidPaddingScheme)
}
