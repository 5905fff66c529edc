//! [`VerifyingKey`]: a public key typed by its hash for RSASSA-PKCS1-v1_5.

use const_oid::AssociatedOid;
use digest::{Digest, FixedOutput, HashMarker, Update};

use super::Signature;
use crate::PublicKey;

crate::pkcs1v15_impls::pkcs1v15_key!(
    /// A public key that verifies RSASSA-PKCS1-v1_5 signatures ([RFC 8017 §8.2]) over the hash
    /// `D`, T being `D`'s DigestInfo ([`new`](Self::new)) or the digest alone
    /// ([`new_unprefixed`](Self::new_unprefixed)).
    ///
    /// [RFC 8017 §8.2]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.2
    public VerifyingKey(PublicKey),
    /// A verifying key whose T is `D`'s DigestInfo.
    #[must_use]
    new,
    /// A verifying key whose T is the digest alone, without a DigestInfo (uncommon: most
    /// protocols want [`new`](Self::new)).
    #[must_use]
    new_unprefixed,
);

crate::key_traits::verifying_key_impls!(
    VerifyingKey { prefix },
    digest: [Default + FixedOutput + HashMarker + Update],
    [Digest],
    /// SubjectPublicKeyInfo DER, as [`Serialize`](serdect::serde::Serialize) writes it; T is
    /// `D`'s DigestInfo.
    deserialize: [Digest + AssociatedOid],
);

// A SubjectPublicKeyInfo of `rsaEncryption` (any other algorithm is refused).
crate::typed_key::typed_key_impls!(
    public VerifyingKey(PublicKey) { prefix },
    from: new [Digest + AssociatedOid],
    #[cfg(feature = "encoding")],
    try_from: pkcs8::SubjectPublicKeyInfoRef<'_> => spki::Error,
    check: crate::encoding::assert_rsa_encryption,
    signature_oid: super::oid::RsaSignatureAssociatedOid,
);
