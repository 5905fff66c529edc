//! The signature type of the `signature` traits, one per scheme: [`signature_type!`] writes it,
//! for this module and for `pkcs1v15`'s: the bytes, with 0.9's traits and formatting.

use core::fmt;

/// Hex digits of `bytes`; with `strip`, without leading zero digits (as a number: how 0.9
/// prints a PSS signature), else two per byte (a PKCS#1 v1.5 one).
pub(crate) fn hex(
    f: &mut fmt::Formatter<'_>,
    bytes: &[u8],
    upper: bool,
    strip: bool,
) -> fmt::Result {
    let digits: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let nibbles = bytes.iter().flat_map(|b| [b >> 4, b & 15]);
    let mut started = !strip;
    for (i, x) in nibbles.enumerate() {
        // A number keeps its last digit, even when zero.
        started |= x != 0 || i + 1 == 2 * bytes.len();
        if started {
            f.write_fmt(format_args!("{}", char::from(digits[usize::from(x)])))?;
        }
    }
    Ok(())
}

/// A signature type: the bytes as given, `SignatureEncoding` (a boxed slice),
/// `SignatureBitStringEncoding`, `TryFrom<&[u8]>` (never fails), and hex formatting.
macro_rules! signature_type {
    ($(#[$doc:meta])* strip_leading_zeros: $strip:expr) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq)]
        pub struct Signature {
            pub(crate) inner: alloc::boxed::Box<[u8]>,
        }

        impl ::signature::SignatureEncoding for Signature {
            type Repr = alloc::boxed::Box<[u8]>;
        }

        impl spki::SignatureBitStringEncoding for Signature {
            fn to_bitstring(&self) -> spki::der::Result<spki::der::asn1::BitString> {
                spki::der::asn1::BitString::new(0, self.inner.to_vec())
            }
        }

        impl TryFrom<&[u8]> for Signature {
            type Error = ::signature::Error;

            fn try_from(bytes: &[u8]) -> ::signature::Result<Self> {
                Ok(Self {
                    inner: bytes.into(),
                })
            }
        }

        impl From<Signature> for alloc::boxed::Box<[u8]> {
            fn from(signature: Signature) -> alloc::boxed::Box<[u8]> {
                signature.inner
            }
        }

        impl core::fmt::Debug for Signature {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("Signature(\"")?;
                crate::pss::hex(f, &self.inner, true, $strip)?;
                f.write_str("\")")
            }
        }

        impl core::fmt::LowerHex for Signature {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                crate::pss::hex(f, &self.inner, false, $strip)
            }
        }

        impl core::fmt::UpperHex for Signature {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                crate::pss::hex(f, &self.inner, true, $strip)
            }
        }

        impl core::fmt::Display for Signature {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::UpperHex::fmt(self, f)
            }
        }
    };
}

pub(crate) use signature_type;

signature_type!(
    /// RSASSA-PSS signatures as described in [RFC8017 § 8.1].
    ///
    /// [RFC8017 § 8.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.1
    strip_leading_zeros: true
);
