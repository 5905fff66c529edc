//! The signature type of the `signature` traits, one per scheme: [`signature_type!`] writes it,
//! for this module and for `pkcs1v15`'s.

/// Defines `pub struct Signature` (the signature octet string S of RFC 8017, k bytes for a
/// valid one) with upstream's decoding limit ([`PublicKey::MAX_SIZE`](crate::PublicKey) bits,
/// so 1024 bytes), encodings and formatting. The argument is the type's documentation.
macro_rules! signature_type {
    ($(#[$doc:meta])*) => {
        $(#[$doc])*
        ///
        /// Decoding with `TryFrom` or serde accepts at most [`Self::MAX_LEN`] bytes;
        /// [`Self::from_bytes_with_max_len`] sets another limit. Whether the length is the
        /// key's is checked when verifying.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct Signature {
            pub(crate) inner: alloc::boxed::Box<[u8]>,
        }

        impl Signature {
            /// The longest signature `TryFrom` and serde decode: the octet length of the largest
            /// modulus [`PublicKey::new`](crate::PublicKey::new) accepts.
            pub const MAX_LEN: usize = crate::PublicKey::MAX_SIZE.div_ceil(8);

            /// A signature of `bytes`, refused if longer than `max_len` (checked before
            /// anything is allocated): for keys over [`crate::PublicKey::MAX_SIZE`] bits, or a
            /// tighter limit.
            ///
            /// # Errors
            ///
            /// If `bytes.len()` exceeds `max_len`.
            pub fn from_bytes_with_max_len(
                bytes: &[u8],
                max_len: usize,
            ) -> signature::Result<Self> {
                if bytes.len() > max_len {
                    return Err(signature::Error::new());
                }
                Ok(Self {
                    inner: bytes.into(),
                })
            }
        }

        impl signature::SignatureEncoding for Signature {
            type Repr = alloc::boxed::Box<[u8]>;
        }

        #[cfg(feature = "encoding")]
        impl spki::SignatureBitStringEncoding for Signature {
            fn to_bitstring(&self) -> spki::der::Result<spki::der::asn1::BitString> {
                spki::der::asn1::BitString::new(0, self.inner.to_vec())
            }
        }

        impl TryFrom<&[u8]> for Signature {
            type Error = signature::Error;

            fn try_from(bytes: &[u8]) -> signature::Result<Self> {
                Self::from_bytes_with_max_len(bytes, Self::MAX_LEN)
            }
        }

        #[cfg(feature = "encoding")]
        impl TryFrom<spki::der::asn1::BitStringRef<'_>> for Signature {
            type Error = signature::Error;

            /// The bit string's bytes; one with unused bits is refused.
            fn try_from(bits: spki::der::asn1::BitStringRef<'_>) -> signature::Result<Self> {
                Self::try_from(bits.as_bytes().ok_or_else(signature::Error::new)?)
            }
        }

        impl From<Signature> for alloc::boxed::Box<[u8]> {
            fn from(signature: Signature) -> alloc::boxed::Box<[u8]> {
                signature.inner
            }
        }

        impl core::fmt::LowerHex for Signature {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                self.inner.iter().try_for_each(|b| write!(f, "{b:02x}"))
            }
        }

        impl core::fmt::UpperHex for Signature {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                self.inner.iter().try_for_each(|b| write!(f, "{b:02X}"))
            }
        }

        /// Upper-case hexadecimal, every byte (leading zeros included).
        impl core::fmt::Display for Signature {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "{self:X}")
            }
        }

        /// Lower-case hexadecimal in human-readable formats, bytes in the others.
        #[cfg(feature = "serde")]
        impl serdect::serde::Serialize for Signature {
            fn serialize<S>(&self, serializer: S) -> core::result::Result<S::Ok, S::Error>
            where
                S: serdect::serde::Serializer,
            {
                serdect::slice::serialize_hex_lower_or_bin(&self.inner, serializer)
            }
        }

        /// Hexadecimal or bytes, at most [`Signature::MAX_LEN`] of them.
        #[cfg(feature = "serde")]
        impl<'de> serdect::serde::Deserialize<'de> for Signature {
            fn deserialize<D>(deserializer: D) -> core::result::Result<Self, D::Error>
            where
                D: serdect::serde::Deserializer<'de>,
            {
                let mut buffer = [0u8; Self::MAX_LEN];
                let bytes = serdect::slice::deserialize_hex_or_bin(&mut buffer, deserializer)?;
                Self::try_from(bytes).map_err(serdect::serde::de::Error::custom)
            }
        }
    };
}

#[cfg(feature = "pkcs1v15")]
pub(crate) use signature_type;

signature_type! {
    /// An RSASSA-PSS signature ([RFC 8017 §8.1]).
    ///
    /// [RFC 8017 §8.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.1
}
