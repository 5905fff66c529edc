//! [`Signature`]: an RSASSA-PKCS1-v1_5 signature.

crate::pss::signature_type!(
    /// `RSASSA-PKCS1-v1_5` signatures as described in [RFC8017 § 8.2].
    ///
    /// [RFC8017 § 8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
    strip_leading_zeros: false
);
