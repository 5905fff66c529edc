//! [`Signature`]: an RSASSA-PKCS1-v1_5 signature.

crate::pss::signature_type! {
    /// An RSASSA-PKCS1-v1_5 signature ([RFC 8017 §8.2]).
    ///
    /// [RFC 8017 §8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
}
