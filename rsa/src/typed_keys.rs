//! What the typed keys of RustCrypto's shape share (`pkcs1v15::SigningKey<D>`,
//! `pss::VerifyingKey<D>`, `oaep::EncryptingKey<D>`, ...): the calls into the run-time
//! schemes through [`RecordingRng`], and the `signature` trait impls, written once for both
//! signature schemes.

use alloc::vec::Vec;
use rand_core::TryCryptoRng;

use crate::recording_rng::RecordingRng;
use crate::scheme::{EncryptionScheme, SignatureScheme};
use crate::typed_signature::Signature;
use crate::{Error, KnownDigest, Result, RsaPrivateKey, RsaPublicKey};

impl From<Error> for signature::Error {
    fn from(e: Error) -> Self {
        signature::Error::from_source(e)
    }
}

/// Signs a digest with `scheme`, blinded with `rng`.
pub(crate) fn sign_digest<S: SignatureScheme, R: TryCryptoRng + ?Sized>(
    key: &RsaPrivateKey,
    scheme: &S,
    rng: &mut R,
    digest: &[u8],
) -> Result<Vec<u8>> {
    let mut rng = RecordingRng::new(rng);
    let sig = key.sign_prehashed(&mut rng, scheme, digest);
    rng.finish(sig)
}

/// [`sign_digest`] for the `signature` traits.
pub(crate) fn sign<S: SignatureScheme, R: TryCryptoRng + ?Sized>(
    key: &RsaPrivateKey,
    scheme: &S,
    rng: &mut R,
    digest: &[u8],
) -> core::result::Result<Signature, signature::Error> {
    Ok(Signature::from(sign_digest(key, scheme, rng, digest)?))
}

/// Verifies a signature over a digest with `scheme`; one opaque error for every failure.
pub(crate) fn verify<S: SignatureScheme>(
    key: &RsaPublicKey,
    scheme: &S,
    digest: &[u8],
    signature: &Signature,
) -> core::result::Result<(), signature::Error> {
    key.verify_prehashed(scheme, digest, signature.as_bytes())
        .map_err(|_| signature::Error::new())
}

/// The digest a `DigestSigner` / `DigestVerifier` closure feeds.
pub(crate) fn digest_of<D: KnownDigest>(
    f: impl Fn(&mut D) -> core::result::Result<(), signature::Error>,
) -> core::result::Result<Vec<u8>, signature::Error> {
    let mut d = D::default();
    f(&mut d)?;
    Ok(sha2::digest::FixedOutput::finalize_fixed(d).to_vec())
}

/// Encrypts with `scheme`, the padding's randomness from `rng`.
pub(crate) fn encrypt<S: EncryptionScheme, R: TryCryptoRng + ?Sized>(
    key: &RsaPublicKey,
    scheme: &S,
    rng: &mut R,
    msg: &[u8],
) -> Result<Vec<u8>> {
    let mut rng = RecordingRng::new(rng);
    let ct = key.encrypt(&mut rng, scheme, msg);
    rng.finish(ct)
}

/// Decrypts with `scheme`, blinded with `rng`.
pub(crate) fn decrypt<S: EncryptionScheme, R: TryCryptoRng + ?Sized>(
    key: &RsaPrivateKey,
    scheme: &S,
    rng: &mut R,
    ciphertext: &[u8],
) -> Result<Vec<u8>> {
    let mut rng = RecordingRng::new(rng);
    let msg = key.decrypt(&mut rng, scheme, ciphertext);
    rng.finish(msg)
}

/// The `signature` traits, `Clone`, `Debug` and the conversions of a typed signing key and
/// its verifying key: structs `$signing<D>` { key: RsaPrivateKey, scheme, digest } and
/// `$verifying<D>` { key: RsaPublicKey, scheme, digest }, `digest` a `PhantomData`.
macro_rules! signature_key_impls {
    ($signing:ident, $verifying:ident) => {
        impl<D: $crate::KnownDigest> Clone for $signing<D> {
            fn clone(&self) -> Self {
                $signing {
                    key: self.key.clone(),
                    scheme: self.scheme,
                    digest: core::marker::PhantomData,
                }
            }
        }

        impl<D: $crate::KnownDigest> core::fmt::Debug for $signing<D> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($signing))
                    .field("bits", &self.key.bits())
                    .field("scheme", &self.scheme)
                    .finish_non_exhaustive()
            }
        }

        // The private key inside wipes itself on drop.
        impl<D: $crate::KnownDigest> zeroize::ZeroizeOnDrop for $signing<D> {}

        impl<D: $crate::KnownDigest> AsRef<$crate::RsaPrivateKey> for $signing<D> {
            fn as_ref(&self) -> &$crate::RsaPrivateKey {
                &self.key
            }
        }

        impl<D: $crate::KnownDigest> From<$signing<D>> for $crate::RsaPrivateKey {
            fn from(k: $signing<D>) -> Self {
                k.key
            }
        }

        impl<D: $crate::KnownDigest> From<$crate::RsaPrivateKey> for $signing<D> {
            fn from(key: $crate::RsaPrivateKey) -> Self {
                $signing::new(key)
            }
        }

        #[cfg(feature = "std")]
        impl<D: $crate::KnownDigest> signature::Signer<Signature> for $signing<D> {
            /// Hashes `msg` with `D` and signs it, blinded with [`crate::os_rng`].
            fn try_sign(&self, msg: &[u8]) -> core::result::Result<Signature, signature::Error> {
                let digest = D::HASH.digest(msg);
                $crate::typed_keys::sign(&self.key, &self.scheme, &mut $crate::os_rng(), &digest)
            }
        }

        impl<D: $crate::KnownDigest> signature::RandomizedSigner<Signature> for $signing<D> {
            /// Hashes `msg` with `D` and signs it, blinded with `rng`.
            fn try_sign_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
                &self,
                rng: &mut R,
                msg: &[u8],
            ) -> core::result::Result<Signature, signature::Error> {
                let digest = D::HASH.digest(msg);
                $crate::typed_keys::sign(&self.key, &self.scheme, rng, &digest)
            }
        }

        #[cfg(feature = "std")]
        impl<D: $crate::KnownDigest> signature::DigestSigner<D, Signature> for $signing<D> {
            /// Signs the digest the closure feeds, blinded with [`crate::os_rng`].
            fn try_sign_digest<F: Fn(&mut D) -> core::result::Result<(), signature::Error>>(
                &self,
                f: F,
            ) -> core::result::Result<Signature, signature::Error> {
                let digest = $crate::typed_keys::digest_of(f)?;
                $crate::typed_keys::sign(&self.key, &self.scheme, &mut $crate::os_rng(), &digest)
            }
        }

        impl<D: $crate::KnownDigest> signature::RandomizedDigestSigner<D, Signature>
            for $signing<D>
        {
            /// Signs the digest the closure feeds, blinded with `rng`.
            fn try_sign_digest_with_rng<
                R: rand_core::TryCryptoRng + ?Sized,
                F: Fn(&mut D) -> core::result::Result<(), signature::Error>,
            >(
                &self,
                rng: &mut R,
                f: F,
            ) -> core::result::Result<Signature, signature::Error> {
                let digest = $crate::typed_keys::digest_of(f)?;
                $crate::typed_keys::sign(&self.key, &self.scheme, rng, &digest)
            }
        }

        #[cfg(feature = "std")]
        impl<D: $crate::KnownDigest> signature::hazmat::PrehashSigner<Signature> for $signing<D> {
            /// Signs a digest computed with `D` (an error for another length), blinded with
            /// [`crate::os_rng`].
            fn sign_prehash(
                &self,
                prehash: &[u8],
            ) -> core::result::Result<Signature, signature::Error> {
                $crate::typed_keys::sign(&self.key, &self.scheme, &mut $crate::os_rng(), prehash)
            }
        }

        impl<D: $crate::KnownDigest> signature::hazmat::RandomizedPrehashSigner<Signature>
            for $signing<D>
        {
            /// Signs a digest computed with `D`, blinded with `rng`.
            fn sign_prehash_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
                &self,
                rng: &mut R,
                prehash: &[u8],
            ) -> core::result::Result<Signature, signature::Error> {
                $crate::typed_keys::sign(&self.key, &self.scheme, rng, prehash)
            }
        }

        impl<D: $crate::KnownDigest> signature::Keypair for $signing<D> {
            type VerifyingKey = $verifying<D>;

            fn verifying_key(&self) -> $verifying<D> {
                $verifying {
                    key: self.key.public_key().clone(),
                    scheme: self.scheme,
                    digest: core::marker::PhantomData,
                }
            }
        }

        impl<D: $crate::KnownDigest> pkcs8::EncodePrivateKey for $signing<D> {
            fn to_pkcs8_der(&self) -> pkcs8::Result<der::SecretDocument> {
                pkcs8::EncodePrivateKey::to_pkcs8_der(&self.key)
            }
        }

        impl<D: $crate::KnownDigest> Clone for $verifying<D> {
            fn clone(&self) -> Self {
                $verifying {
                    key: self.key.clone(),
                    scheme: self.scheme,
                    digest: core::marker::PhantomData,
                }
            }
        }

        impl<D: $crate::KnownDigest> core::fmt::Debug for $verifying<D> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($verifying))
                    .field("key", &self.key)
                    .field("scheme", &self.scheme)
                    .finish()
            }
        }

        impl<D: $crate::KnownDigest> PartialEq for $verifying<D> {
            fn eq(&self, other: &Self) -> bool {
                self.key == other.key && self.scheme == other.scheme
            }
        }

        impl<D: $crate::KnownDigest> AsRef<$crate::RsaPublicKey> for $verifying<D> {
            fn as_ref(&self) -> &$crate::RsaPublicKey {
                &self.key
            }
        }

        impl<D: $crate::KnownDigest> From<$verifying<D>> for $crate::RsaPublicKey {
            fn from(k: $verifying<D>) -> Self {
                k.key
            }
        }

        impl<D: $crate::KnownDigest> From<$crate::RsaPublicKey> for $verifying<D> {
            fn from(key: $crate::RsaPublicKey) -> Self {
                $verifying::new(key)
            }
        }

        impl<D: $crate::KnownDigest> signature::Verifier<Signature> for $verifying<D> {
            /// Hashes `msg` with `D` and verifies `signature` over it.
            fn verify(
                &self,
                msg: &[u8],
                signature: &Signature,
            ) -> core::result::Result<(), signature::Error> {
                let digest = D::HASH.digest(msg);
                $crate::typed_keys::verify(&self.key, &self.scheme, &digest, signature)
            }
        }

        impl<D: $crate::KnownDigest> signature::DigestVerifier<D, Signature> for $verifying<D> {
            /// Verifies `signature` over the digest the closure feeds.
            fn verify_digest<F: Fn(&mut D) -> core::result::Result<(), signature::Error>>(
                &self,
                f: F,
                signature: &Signature,
            ) -> core::result::Result<(), signature::Error> {
                let digest = $crate::typed_keys::digest_of(f)?;
                $crate::typed_keys::verify(&self.key, &self.scheme, &digest, signature)
            }
        }

        impl<D: $crate::KnownDigest> signature::hazmat::PrehashVerifier<Signature>
            for $verifying<D>
        {
            /// Verifies `signature` over a digest computed with `D`.
            fn verify_prehash(
                &self,
                prehash: &[u8],
                signature: &Signature,
            ) -> core::result::Result<(), signature::Error> {
                $crate::typed_keys::verify(&self.key, &self.scheme, prehash, signature)
            }
        }

        impl<D: $crate::KnownDigest> spki::EncodePublicKey for $verifying<D> {
            fn to_public_key_der(&self) -> spki::Result<der::Document> {
                spki::EncodePublicKey::to_public_key_der(&self.key)
            }
        }
    };
}
pub(crate) use signature_key_impls;

/// The encryption traits of a typed encryption key and its decryption key: structs
/// `$encrypting` { key: RsaPublicKey, scheme, .. } and `$decrypting` { key: RsaPrivateKey,
/// scheme, .. }, both generic over the digests `$d` (none for PKCS #1 v1.5).
macro_rules! encryption_key_impls {
    ($encrypting:ident, $decrypting:ident $(<$($d:ident),+>)?) => {
        impl$(<$($d: $crate::KnownDigest),+>)? $crate::traits::RandomizedEncryptor
            for $encrypting$(<$($d),+>)?
        {
            fn encrypt_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
                &self,
                rng: &mut R,
                msg: &[u8],
            ) -> $crate::Result<alloc::vec::Vec<u8>> {
                $crate::typed_keys::encrypt(&self.key, &self.scheme, rng, msg)
            }
        }

        // The private key inside wipes itself on drop.
        impl$(<$($d: $crate::KnownDigest),+>)? zeroize::ZeroizeOnDrop
            for $decrypting$(<$($d),+>)?
        {
        }

        #[cfg(feature = "std")]
        impl$(<$($d: $crate::KnownDigest),+>)? $crate::traits::Decryptor
            for $decrypting$(<$($d),+>)?
        {
            fn decrypt(&self, ciphertext: &[u8]) -> $crate::Result<alloc::vec::Vec<u8>> {
                $crate::typed_keys::decrypt(&self.key, &self.scheme, &mut $crate::os_rng(), ciphertext)
            }
        }

        impl$(<$($d: $crate::KnownDigest),+>)? $crate::traits::RandomizedDecryptor
            for $decrypting$(<$($d),+>)?
        {
            fn decrypt_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
                &self,
                rng: &mut R,
                ciphertext: &[u8],
            ) -> $crate::Result<alloc::vec::Vec<u8>> {
                $crate::typed_keys::decrypt(&self.key, &self.scheme, rng, ciphertext)
            }
        }
    };
}
pub(crate) use encryption_key_impls;
