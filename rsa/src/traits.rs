//! RustCrypto `rsa`'s traits under its paths: [`PublicKeyParts`] for the keys, and the
//! encryptor and decryptor traits of the typed encryption keys
//! ([`oaep::EncryptingKey`](crate::oaep::EncryptingKey),
//! [`pkcs1v15::DecryptingKey`](crate::pkcs1v15::DecryptingKey), ...).
//!
//! Beside them, the run-time scheme traits under RustCrypto's names:
//! [`SignatureScheme`] and [`PaddingScheme`] (our [`EncryptionScheme`]).

use alloc::{boxed::Box, vec::Vec};
use rand_core::TryCryptoRng;

use crate::{Result, RsaPrivateKey, RsaPublicKey};

pub use crate::scheme::{EncryptionScheme, EncryptionScheme as PaddingScheme, SignatureScheme};

/// The public integers of a key: n, e, and the size of n in bytes.
///
/// RustCrypto's `n()` returns a `crypto_bigint::BoxedUint`; ours returns the crate's public
/// natural number, [`bignum::Nat`] (`to_be_bytes`, `bits`, `Display` in decimal, the
/// `std::ops` operators). [`n_bytes`](PublicKeyParts::n_bytes) and
/// [`e_bytes`](PublicKeyParts::e_bytes) give big-endian bytes either way.
///
/// ```
/// use rsatool_rsa::traits::PublicKeyParts;
///
/// let mut rng = rsatool_rsa::os_rng();
/// let key = rsatool_rsa::RsaPrivateKey::new(&mut rng, 1024)?;
/// let public = rsatool_rsa::RsaPublicKey::from(&key);
/// assert_eq!(PublicKeyParts::size(&public), 128);
/// assert_eq!(PublicKeyParts::n(&key).bits(), 1024);
/// assert_eq!(&*public.e_bytes(), &[0x01, 0x00, 0x01]);
/// # Ok::<(), rsatool_rsa::Error>(())
/// ```
pub trait PublicKeyParts {
    /// The modulus n.
    fn n(&self) -> &bignum::Nat;

    /// The public exponent e.
    fn e(&self) -> &bignum::Nat;

    /// The length of n in bytes: of every signature and ciphertext.
    fn size(&self) -> usize {
        self.n().byte_len()
    }

    /// n as big-endian bytes without leading zeros.
    fn n_bytes(&self) -> Box<[u8]> {
        self.n().to_be_bytes().into_boxed_slice()
    }

    /// e as big-endian bytes without leading zeros.
    fn e_bytes(&self) -> Box<[u8]> {
        self.e().to_be_bytes().into_boxed_slice()
    }
}

impl PublicKeyParts for RsaPublicKey {
    fn n(&self) -> &bignum::Nat {
        &self.n
    }

    fn e(&self) -> &bignum::Nat {
        &self.e
    }
}

impl PublicKeyParts for RsaPrivateKey {
    fn n(&self) -> &bignum::Nat {
        RsaPrivateKey::n(self)
    }

    fn e(&self) -> &bignum::Nat {
        RsaPrivateKey::e(self)
    }
}

/// Encrypts with randomness from the caller (OAEP's seed, PKCS #1 v1.5's padding).
///
/// ```
/// use rsatool_rsa::oaep::{DecryptingKey, EncryptingKey};
/// use rsatool_rsa::sha2::Sha256;
/// use rsatool_rsa::traits::{
///     Decryptor, EncryptingKeypair, RandomizedDecryptor, RandomizedEncryptor,
/// };
///
/// let mut rng = rsatool_rsa::os_rng();
/// let key = rsatool_rsa::RsaPrivateKey::new(&mut rng, 1024)?;
/// let decrypting_key = DecryptingKey::<Sha256>::new(key);
/// let encrypting_key: EncryptingKey<Sha256> = decrypting_key.encrypting_key();
/// let ct = encrypting_key.encrypt_with_rng(&mut rng, b"secret")?;
/// assert_eq!(decrypting_key.decrypt(&ct)?, b"secret");
/// assert_eq!(decrypting_key.decrypt_with_rng(&mut rng, &ct)?, b"secret");
/// # Ok::<(), rsatool_rsa::Error>(())
/// ```
pub trait RandomizedEncryptor {
    /// Encrypts `msg`; the ciphertext is the modulus length.
    ///
    /// # Errors
    ///
    /// [`Error::MessageTooLong`](crate::Error::MessageTooLong) if `msg` does not fit;
    /// [`Error::Rng`](crate::Error::Rng) if `rng` fails.
    fn encrypt_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>>;
}

/// Decrypts, the private operation blinded with the operating system's RNG
/// ([`crate::os_rng`]). See [`RandomizedEncryptor`] for an example.
pub trait Decryptor {
    /// Decrypts `ciphertext`.
    ///
    /// # Errors
    ///
    /// [`Error::Decryption`](crate::Error::Decryption) for every rejected ciphertext (PKCS #1
    /// v1.5 with implicit rejection returns a message instead).
    fn decrypt(&self, ciphertext: &[u8]) -> Result<Vec<u8>>;
}

/// Decrypts, the private operation blinded with randomness from the caller. See
/// [`RandomizedEncryptor`] for an example.
pub trait RandomizedDecryptor {
    /// Decrypts `ciphertext`.
    ///
    /// # Errors
    ///
    /// As [`Decryptor::decrypt`]; [`Error::Rng`](crate::Error::Rng) if `rng` fails.
    fn decrypt_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>>;
}

/// A decrypting key that gives its encrypting key. See [`RandomizedEncryptor`] for an
/// example.
pub trait EncryptingKeypair {
    /// The encrypting key's type.
    type EncryptingKey: Clone;

    /// The encrypting (public) half.
    fn encrypting_key(&self) -> Self::EncryptingKey;
}
