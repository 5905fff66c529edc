//! RSAES-OAEP encryption ([RFC 8017 §7.1]).
//!
//! The scheme of RustCrypto `rsa` 0.10's `oaep` module: [`Oaep`] for [`PublicKey::encrypt`] /
//! [`PrivateKey::decrypt`], the `oaep_*` methods of the keys, and the typed
//! [`EncryptingKey`] / [`DecryptingKey`]. Every encryption and decryption is rsatool-rsa's
//! [`rsatool_rsa::Oaep`] (constant-time padding check, one error for every bad ciphertext); this
//! module names the hashes (`D` for the label, `MGD` for MGF1) and reports errors as upstream.
//!
//! The seed is the first hLen bytes the RNG gives, as upstream, so a seeded RNG gives
//! upstream's ciphertext.
//!
//! [RFC 8017 §7.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-7.1

mod keys;

pub use self::keys::{DecryptingKey, EncryptingKey};

use alloc::boxed::Box;
use alloc::vec::Vec;

use digest::{Digest, FixedOutputReset};
use rand_core::TryCryptoRng;
use rsatool_rsa::EncryptionScheme as _;

use crate::bridge;
use crate::bridge::NoRng;
use crate::errors::{Error, Result};
use crate::traits::PaddingScheme;
use crate::{PrivateKey, PublicKey};

#[cfg(feature = "getrandom")]
use crypto_common::getrandom::SysRng;

impl PublicKey {
    /// Encrypts `plaintext` with OAEP over `D` (label hash and MGF1) and an empty label, the
    /// seed from the operating system's RNG (use [`EncryptingKey`] for a label or another
    /// MGF1 hash).
    ///
    /// # Errors
    ///
    /// [`Error::MessageTooLong`] if `plaintext` is over k − 2·hLen − 2 bytes; [`Error::Rng`] if
    /// the operating system's RNG fails; the key's error if it is invalid.
    #[cfg(feature = "getrandom")]
    pub fn oaep_encrypt<D>(&self, plaintext: &[u8]) -> Result<Vec<u8>>
    where
        D: Digest + FixedOutputReset,
    {
        self.oaep_encrypt_with_rng::<D, _>(&mut SysRng, plaintext)
    }

    /// As [`oaep_encrypt`](Self::oaep_encrypt), the seed from `rng`.
    ///
    /// # Errors
    ///
    /// As [`oaep_encrypt`](Self::oaep_encrypt); [`Error::Rng`] if `rng` fails.
    pub fn oaep_encrypt_with_rng<D, R>(&self, rng: &mut R, plaintext: &[u8]) -> Result<Vec<u8>>
    where
        D: Digest + FixedOutputReset,
        R: TryCryptoRng + ?Sized,
    {
        encrypt::<R, D, D>(rng, self, plaintext, None)
    }
}

impl PrivateKey {
    /// Decrypts `ciphertext` with OAEP over `D` and an empty label (use [`DecryptingKey`] for
    /// a label or another MGF1 hash). The private operation is blinded with the operating
    /// system's RNG (feature `getrandom`), else with a stream keyed by the private key and the
    /// ciphertext.
    ///
    /// # Errors
    ///
    /// [`Error::Decryption`] for every rejected ciphertext (wrong length, not below n, bad
    /// padding); [`Error::Internal`] if the private operation fails its check; the key's
    /// error if it is invalid.
    pub fn oaep_decrypt<D>(&self, ciphertext: &[u8]) -> Result<Vec<u8>>
    where
        D: Digest + FixedOutputReset,
    {
        decrypt::<NoRng, D, D>(None, self, ciphertext, &[], true)
    }

    /// As [`oaep_decrypt`](Self::oaep_decrypt), blinded with `rng`.
    ///
    /// # Errors
    ///
    /// As [`oaep_decrypt`](Self::oaep_decrypt); [`Error::Rng`] if `rng` fails.
    pub fn oaep_decrypt_with_rng<D, R>(&self, rng: &mut R, ciphertext: &[u8]) -> Result<Vec<u8>>
    where
        D: Digest + FixedOutputReset,
        R: TryCryptoRng + ?Sized,
    {
        decrypt::<R, D, D>(Some(rng), self, ciphertext, &[], true)
    }
}

/// The OAEP scheme for [`PublicKey::encrypt`] and [`PrivateKey::decrypt`]: `D` hashes the
/// label (so a message is at most k − 2·hLen − 2 bytes), `MGD` is MGF1's hash (often the
/// same; Android's keystore, for one, uses SHA-1 there whatever `D` is), and an optional
/// label.
pub struct Oaep<D, MGD = D> {
    /// The label's hash (upstream keeps an instance; only its type matters here).
    pub digest: D,

    /// MGF1's hash (only its type matters here).
    pub mgf_digest: MGD,

    /// The label (`None`: empty).
    pub label: Option<Box<[u8]>>,
}

impl<D> Default for Oaep<D>
where
    D: Digest + FixedOutputReset,
{
    fn default() -> Self {
        Self::new()
    }
}

impl<D> Oaep<D>
where
    D: Digest + FixedOutputReset,
{
    /// OAEP with `D` for the label and for MGF1, and an empty label.
    ///
    /// ```
    /// use rsa::{Oaep, PrivateKey};
    /// use sha2::Sha256;
    ///
    /// let mut rng = rand::rng();
    /// let key = PrivateKey::new(&mut rng, 1024)?;
    /// let ciphertext = key.to_public_key().encrypt(&mut rng, Oaep::<Sha256>::new(), b"secret")?;
    /// assert_eq!(key.decrypt(Oaep::<Sha256>::new(), &ciphertext)?, b"secret");
    /// # Ok::<(), rsa::Error>(())
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self::new_with_mgf_hash()
    }

    /// OAEP with `D` for the label and for MGF1, and `label`.
    pub fn new_with_label<S: Into<Box<[u8]>>>(label: S) -> Self {
        Self::new_with_mgf_hash_and_label(label)
    }
}

impl<D, MGD> Oaep<D, MGD>
where
    D: Digest + FixedOutputReset,
    MGD: Digest + FixedOutputReset,
{
    /// OAEP with `D` for the label, `MGD` for MGF1, and an empty label.
    ///
    /// ```
    /// use rsa::{Oaep, PrivateKey};
    /// use sha2::{Sha256, Sha512};
    ///
    /// let mut rng = rand::rng();
    /// let key = PrivateKey::new(&mut rng, 1024)?;
    /// let padding = Oaep::<Sha256, Sha512>::new_with_mgf_hash();
    /// let ciphertext = key.to_public_key().encrypt(&mut rng, padding, b"secret")?;
    /// let padding = Oaep::<Sha256, Sha512>::new_with_mgf_hash();
    /// assert_eq!(key.decrypt(padding, &ciphertext)?, b"secret");
    /// # Ok::<(), rsa::Error>(())
    /// ```
    #[must_use]
    pub fn new_with_mgf_hash() -> Self {
        Oaep {
            digest: D::new(),
            mgf_digest: MGD::new(),
            label: None,
        }
    }

    /// OAEP with `D` for the label, `MGD` for MGF1, and `label`.
    pub fn new_with_mgf_hash_and_label<S: Into<Box<[u8]>>>(label: S) -> Self {
        Oaep {
            label: Some(label.into()),
            ..Self::new_with_mgf_hash()
        }
    }
}

impl<D, MGD> PaddingScheme for Oaep<D, MGD>
where
    D: Digest + FixedOutputReset,
    MGD: Digest + FixedOutputReset,
{
    /// Decrypts `ciphertext`, blinded with `rng` (or, without one, as
    /// [`PrivateKey::oaep_decrypt`] is).
    ///
    /// # Errors
    ///
    /// As [`PrivateKey::oaep_decrypt`]; [`Error::Rng`] if `rng` fails.
    fn decrypt<Rng: TryCryptoRng + ?Sized>(
        self,
        rng: Option<&mut Rng>,
        priv_key: &PrivateKey,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>> {
        let label = self.label.unwrap_or_default();
        decrypt::<Rng, D, MGD>(rng, priv_key, ciphertext, &label, false)
    }

    /// Encrypts `msg`, the seed from `rng`.
    ///
    /// # Errors
    ///
    /// As [`PublicKey::oaep_encrypt_with_rng`].
    fn encrypt<Rng: TryCryptoRng + ?Sized>(
        self,
        rng: &mut Rng,
        pub_key: &PublicKey,
        msg: &[u8],
    ) -> Result<Vec<u8>> {
        encrypt::<Rng, D, MGD>(rng, pub_key, msg, self.label.as_deref())
    }
}

crate::oaep_impls::oaep_debug_impl!(<D, MGD> Oaep<D, MGD>);

/// RSAES-OAEP-ENCRYPT (RFC 8017 §7.1.1) by rsatool-rsa: `D` hashes `label`, `MGD` is MGF1's
/// hash, the seed is drawn from `rng` once the message is known to fit.
pub(crate) fn encrypt<R, D, MGD>(
    rng: &mut R,
    pub_key: &PublicKey,
    msg: &[u8],
    label: Option<&[u8]>,
) -> Result<Vec<u8>>
where
    R: TryCryptoRng + ?Sized,
    D: Digest,
    MGD: Digest,
{
    crate::public_key::check_public(pub_key)?;
    let engine = pub_key.engine()?;
    let scheme = scheme::<D, MGD>(label.unwrap_or_default())?;
    // Step 1.b: mLen ≤ k − 2·hLen − 2, before anything is drawn from `rng`.
    let max_len = engine
        .size()
        .checked_sub(2 * <D as Digest>::output_size() + 2);
    if max_len.is_none_or(|max_len| msg.len() > max_len) {
        return Err(Error::MessageTooLong);
    }
    let mut rng = bridge::fallible_rng(rng);
    let c = scheme.encrypt(engine, &mut rng, msg);
    rng.finish(Ok(()))?;
    c.map_err(Error::from)
}

/// RSAES-OAEP-DECRYPT (RFC 8017 §7.1.2) by rsatool-rsa, the private operation blinded with
/// `rng` or without one with [`bridge::blinding_rng`]'s own. `check_key`: upstream checks the
/// public key first on the typed paths (`oaep_decrypt`, [`DecryptingKey`]), not through
/// [`Oaep`].
pub(crate) fn decrypt<R, D, MGD>(
    rng: Option<&mut R>,
    priv_key: &PrivateKey,
    ciphertext: &[u8],
    label: &[u8],
    check_key: bool,
) -> Result<Vec<u8>>
where
    R: TryCryptoRng + ?Sized,
    D: Digest,
    MGD: Digest,
{
    if check_key {
        crate::public_key::check_public(priv_key)?;
    }
    let engine = priv_key.engine()?;
    let k = engine.size();
    let h_len = <D as Digest>::output_size();
    // Step 1: the public checks (upstream also refuses k < 11).
    if ciphertext.len() != k || k < 11 || k < 2 * h_len + 2 {
        return Err(Error::Decryption);
    }
    let scheme = scheme::<D, MGD>(label)?;
    let mut rng = bridge::blinding_rng(rng, priv_key, ciphertext);
    let m = scheme.decrypt(engine, &mut rng, ciphertext);
    rng.finish(Ok(()))?;
    m.map_err(|e| match e {
        rsatool_rsa::Error::Fault => Error::Internal,
        // Bad padding, or c ≥ n: upstream says `Decryption` for both.
        _ => Error::Decryption,
    })
}

/// [`decrypt`] for the typed [`DecryptingKey`], which checks the public key first.
pub(crate) fn decrypt_typed<R, D, MGD>(
    rng: Option<&mut R>,
    priv_key: &PrivateKey,
    ciphertext: &[u8],
    label: Option<&[u8]>,
) -> Result<Vec<u8>>
where
    R: TryCryptoRng + ?Sized,
    D: Digest,
    MGD: Digest,
{
    decrypt::<R, D, MGD>(rng, priv_key, ciphertext, label.unwrap_or_default(), true)
}

/// rsatool-rsa's OAEP with `D` for the label, `MGD` for MGF1, and `label`; decryption does
/// not look at EM's first octet Y (draft-irtf-cfrg-rsa-guidance §7), as upstream's does not.
fn scheme<D: Digest, MGD: Digest>(label: &[u8]) -> Result<rsatool_rsa::Oaep> {
    Ok(rsatool_rsa::Oaep::new(bridge::hash_alg::<D>()?)
        .with_mgf1_hash(bridge::hash_alg::<MGD>()?)
        .with_label(label)
        .ignoring_first_octet())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traits::{Decryptor, PublicKeyParts, RandomizedEncryptor};
    use rand::rngs::ChaCha8Rng;
    use rand_core::SeedableRng;
    use rsatool_rsa::hazmat::{PrivateOp as _, PublicOp as _};
    use sha2::{Sha256, Sha384};

    #[test]
    fn oaep_errors_match_upstream() {
        let key = crate::test_key();
        let public = key.to_public_key();
        let k = public.size();
        let mut rng = ChaCha8Rng::from_seed([1; 32]);
        assert_eq!(
            public.oaep_encrypt_with_rng::<Sha256, _>(&mut rng, &vec![0; k - 65]),
            Err(Error::MessageTooLong)
        );
        let c = public
            .oaep_encrypt_with_rng::<Sha256, _>(&mut rng, &vec![7; k - 66])
            .expect("the longest message fits");
        assert_eq!(key.oaep_decrypt::<Sha256>(&c), Ok(vec![7; k - 66]));
        assert_eq!(key.oaep_decrypt::<Sha256>(&c[1..]), Err(Error::Decryption));
        assert_eq!(key.oaep_decrypt::<Sha384>(&c), Err(Error::Decryption));
        assert_eq!(
            key.decrypt(Oaep::<Sha256>::new_with_label(*b"l"), &c),
            Err(Error::Decryption)
        );

        let labelled = EncryptingKey::<Sha384, Sha256>::new_with_label(public, *b"l")
            .encrypt_with_rng(&mut rng, b"m")
            .expect("encrypt");
        let decrypting = DecryptingKey::<Sha384, Sha256>::new_with_label(key.clone(), *b"l");
        assert_eq!(decrypting.decrypt(&labelled), Ok(b"m".to_vec()));
        let padding = Oaep::<Sha384, Sha256>::new_with_mgf_hash_and_label(*b"l");
        assert_eq!(key.decrypt(padding, &labelled), Ok(b"m".to_vec()));
    }

    #[test]
    fn oaep_decryption_ignores_the_first_octet() {
        // Wycheproof's "First byte is 1": EM with Y = 1 and a valid rest decrypts, as upstream.
        let key = crate::test_key();
        let engine = key.engine().expect("engine");
        let mut rng = ChaCha8Rng::from_seed([2; 32]);
        let c = key
            .to_public_key()
            .oaep_encrypt_with_rng::<Sha256, _>(&mut rng, b"m")
            .expect("encrypt");
        let mut em = engine.private_op(&mut rng, &c).expect("RSADP");
        em[0] = 1;
        let c1 = engine.public_key().public_op(&em).expect("below n");
        assert_eq!(key.oaep_decrypt::<Sha256>(&c1), Ok(b"m".to_vec()));
    }
}
