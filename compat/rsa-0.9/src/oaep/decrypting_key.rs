//! [`DecryptingKey`]: a private key typed by its hashes for RSAES-OAEP.

use alloc::string::{String, ToString};
use core::marker::PhantomData;

use super::EncryptingKey;
use crate::RsaPrivateKey;

crate::oaep_impls::oaep_key!(
    /// Decryption key for OAEP decryption as described in [RFC8017 § 7.1].
    ///
    /// [RFC8017 § 7.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.1
    private DecryptingKey(RsaPrivateKey) {
        label: Option<String>,
        phantom: PhantomData<(D, MGD)>,
    },
    /// Create a new decrypting key from an RSA private key.
    new,
    /// Create a new decrypting key from an RSA private key using provided label
    new_with_label<S: AsRef<str>>(label) => label.as_ref().to_string(),
);

crate::oaep_impls::oaep_key_impls!(
    EncryptingKey,
    DecryptingKey,
    rng: rand_core::CryptoRngCore,
    encrypt: super::encrypt,
    decrypt: super::decrypt,
);
