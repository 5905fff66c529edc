//! The OAEP impls that are the same in both facades, written once: one text, two API
//! generations (see `compat/shared/README.md`).

/// `Debug` for `Oaep` (generic over `$g` in 0.10, over none in 0.9), as upstream prints it:
/// the name `OAEP`, the digests as `"..."` and the label.
macro_rules! oaep_debug_impl {
    (<$($g:ident),*> $oaep:ty) => {
        impl<$($g),*> ::core::fmt::Debug for $oaep {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct("OAEP")
                    .field("digest", &"...")
                    .field("mgf_digest", &"...")
                    .field("label", &self.label)
                    .finish()
            }
        }
    };
}

pub(crate) use oaep_debug_impl;
