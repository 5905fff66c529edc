//! The typed keys of RSAES-OAEP, [`EncryptingKey`] and [`DecryptingKey`]: one text for the two
//! structs (the label a `String`, one phantom for both hashes), their constructors and their
//! traits, which each concern both keys.

use alloc::string::{String, ToString};
use core::marker::PhantomData;

use crate::{RsaPrivateKey, RsaPublicKey};

crate::oaep_impls::oaep_keys!(
    {
        label: Option<String>,
        phantom: PhantomData<(D, MGD)>,
    },
    new_with_label<S: AsRef<str>>(label) => label.as_ref().to_string(),
    /// Encryption key for OAEP encryption as described in [RFC8017 § 7.1].
    ///
    /// [RFC8017 § 7.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.1
    EncryptingKey(RsaPublicKey) {
        /// Create a new encrypting key from an RSA public key.
        new,
        /// Create a new encrypting key from an RSA public key using provided label
        new_with_label,
    },
    /// Decryption key for OAEP decryption as described in [RFC8017 § 7.1].
    ///
    /// [RFC8017 § 7.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.1
    DecryptingKey(RsaPrivateKey) {
        /// Create a new decrypting key from an RSA private key.
        new,
        /// Create a new decrypting key from an RSA private key using provided label
        new_with_label,
    },
);

crate::oaep_impls::oaep_key_impls!(
    EncryptingKey,
    DecryptingKey,
    rng: rand_core::CryptoRngCore,
    encrypt: super::encrypt,
    decrypt: super::decrypt,
);
