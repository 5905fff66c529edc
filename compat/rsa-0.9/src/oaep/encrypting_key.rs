//! [`EncryptingKey`]: a public key typed by its hashes for RSAES-OAEP.

use alloc::string::{String, ToString};
use core::marker::PhantomData;

use crate::RsaPublicKey;

crate::oaep_impls::oaep_key!(
    /// Encryption key for OAEP encryption as described in [RFC8017 § 7.1].
    ///
    /// [RFC8017 § 7.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.1
    public EncryptingKey(RsaPublicKey) {
        label: Option<String>,
        phantom: PhantomData<(D, MGD)>,
    },
    /// Create a new encrypting key from an RSA public key.
    new,
    /// Create a new encrypting key from an RSA public key using provided label
    new_with_label<S: AsRef<str>>(label) => label.as_ref().to_string(),
);
