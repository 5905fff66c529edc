//! RSASSA-PSS signatures ([RFC 8017 §8.1], EMSA-PSS of §9.1, MGF1 over the same hash).
//!
//! The schemes of RustCrypto `rsa` 0.10's `pss` module: [`Pss`] for
//! [`PrivateKey::sign_with_rng`] / [`PublicKey::verify`], the `pss_*` methods of the keys,
//! and the typed [`SigningKey`] / [`VerifyingKey`] / [`Signature`] of the `signature` traits.
//! Every signature is computed and checked by rsatool-rsa's [`rsatool_rsa::Pss`]; this module
//! names the hash (`D` becomes a [`rsatool_rsa::HashAlg`]), draws the salt from the caller's RNG
//! and reports errors as upstream does.
//!
//! The salt is the first `salt_len` bytes the RNG gives, as upstream, so a seeded RNG gives
//! upstream's signature; the private operation is blinded with the same RNG after it.
//!
//! [RFC 8017 §8.1]: https://datatracker.ietf.org/doc/html/rfc8017#section-8.1

mod signature;
mod signing_key;
mod verifying_key;

#[cfg(feature = "pkcs1v15")]
pub(crate) use self::signature::signature_type;
pub use self::{signature::Signature, signing_key::SigningKey, verifying_key::VerifyingKey};

use alloc::vec;
use alloc::vec::Vec;

use digest::{Digest, FixedOutputReset};
use rand_core::TryCryptoRng;
use rsatool_rsa::SignatureScheme as _;

use crate::bridge::{self, BlindingRng, NoRng};
use crate::errors::{Error, Result};
use crate::{PrivateKey, PublicKey};

#[cfg(feature = "getrandom")]
use crypto_common::getrandom::SysRng;

#[cfg(feature = "encoding")]
use {
    crate::encoding::ID_RSASSA_PSS,
    const_oid::AssociatedOid,
    pkcs1::RsaPssParamsRef,
    spki::{
        AlgorithmIdentifierOwned,
        der::{Any, ErrorKind},
    },
};

impl PublicKey {
    /// Verifies a PSS signature over `msg` hashed with `D`, with MGF1 over `D` and a salt of
    /// `D`'s output length (use [`VerifyingKey`] for another salt length or to accept any).
    ///
    /// # Errors
    ///
    /// [`Error::Verification`] for every invalid signature, a salt of another length included.
    pub fn pss_verify<D>(&self, msg: &[u8], sig: &[u8]) -> Result<()>
    where
        D: Digest + FixedOutputReset,
    {
        self.pss_verify_prehash::<D>(&D::digest(msg), sig)
    }

    /// Verifies a PSS signature over `hash`, a digest computed with `D` (not hashed again);
    /// the salt is `D`'s output length.
    ///
    /// # Errors
    ///
    /// [`Error::Verification`] for every invalid signature, and for a `hash` of the wrong
    /// length.
    pub fn pss_verify_prehash<D>(&self, hash: &[u8], sig: &[u8]) -> Result<()>
    where
        D: Digest + FixedOutputReset,
    {
        verify_digest::<D>(self, hash, sig, Some(<D as Digest>::output_size()))
    }
}

impl PrivateKey {
    /// Signs `msg` hashed with `D` with PSS: a salt of `D`'s output length and the blinding
    /// from the operating system's RNG (use [`SigningKey`] for another salt length).
    ///
    /// # Errors
    ///
    /// [`Error::Internal`] if the key is too small for `D` and the salt; [`Error::Rng`] if the
    /// operating system's RNG fails.
    #[cfg(feature = "getrandom")]
    pub fn pss_sign<D>(&self, msg: &[u8]) -> Result<Vec<u8>>
    where
        D: Digest + FixedOutputReset,
    {
        self.pss_sign_with_rng::<D, _>(&mut SysRng, msg)
    }

    /// Signs `hash`, a digest computed with `D` (not hashed again), as
    /// [`pss_sign`](Self::pss_sign) does.
    ///
    /// # Errors
    ///
    /// [`Error::InputNotHashed`] if `hash` is not `D`'s output length; otherwise as
    /// [`pss_sign`](Self::pss_sign).
    #[cfg(feature = "getrandom")]
    pub fn pss_sign_prehash<D>(&self, hash: &[u8]) -> Result<Vec<u8>>
    where
        D: Digest + FixedOutputReset,
    {
        self.pss_sign_prehash_with_rng::<D, _>(&mut SysRng, hash)
    }

    /// Signs `msg` hashed with `D` with PSS, the salt (`D`'s output length) and the blinding
    /// from `rng`.
    ///
    /// # Errors
    ///
    /// [`Error::Internal`] if the key is too small for `D` and the salt; [`Error::Rng`] if
    /// `rng` fails.
    pub fn pss_sign_with_rng<D, R>(&self, rng: &mut R, msg: &[u8]) -> Result<Vec<u8>>
    where
        D: Digest + FixedOutputReset,
        R: TryCryptoRng + ?Sized,
    {
        self.pss_sign_prehash_with_rng::<D, _>(rng, &D::digest(msg))
    }

    /// Signs `hash`, a digest computed with `D` (not hashed again), as
    /// [`pss_sign_with_rng`](Self::pss_sign_with_rng) does.
    ///
    /// # Errors
    ///
    /// [`Error::InputNotHashed`] if `hash` is not `D`'s output length (checked before `rng` is
    /// used); otherwise as [`pss_sign_with_rng`](Self::pss_sign_with_rng).
    pub fn pss_sign_prehash_with_rng<D, R>(&self, rng: &mut R, hash: &[u8]) -> Result<Vec<u8>>
    where
        D: Digest + FixedOutputReset,
        R: TryCryptoRng + ?Sized,
    {
        if hash.len() != <D as Digest>::output_size() {
            return Err(Error::InputNotHashed);
        }
        sign_digest::<R, D>(rng, true, self, hash, <D as Digest>::output_size())
    }
}

/// Deprecated name of [`SigningKey`], which is always blinded.
#[deprecated(
    since = "0.10.0",
    note = "use `SigningKey` which is blinded automatically"
)]
pub type BlindedSigningKey<D> = SigningKey<D>;

/// The PSS scheme for [`PrivateKey::sign_with_rng`] and [`PublicKey::verify`]: the hash `D`
/// (of the message, of M' and of MGF1) and the salt length.
pub struct Pss<D> {
    /// Whether the private operation is blinded with the RNG given to `sign` (the default).
    /// The signature is the same either way; unblinded, the crate blinds with a stream of its
    /// own instead (rsatool-rsa always blinds), so the RNG gives the salt only.
    pub blinded: bool,

    /// The digest (upstream keeps an instance; only its type matters here).
    pub digest: D,

    /// The salt length: required for signing; for verifying, `None` accepts any.
    pub salt_len: Option<usize>,
}

impl<D> Default for Pss<D>
where
    D: Digest,
{
    fn default() -> Self {
        Self::new()
    }
}

impl<D> Pss<D>
where
    D: Digest,
{
    /// PSS with `D` and a salt of `D`'s output length.
    #[must_use]
    pub fn new() -> Self {
        Self::new_with_salt(<D as Digest>::output_size())
    }

    /// PSS with `D` and a salt of `len` bytes.
    #[must_use]
    pub fn new_with_salt(len: usize) -> Self {
        Pss {
            blinded: true,
            digest: D::new(),
            salt_len: Some(len),
        }
    }

    /// The same as [`new`](Self::new): blinding is on by default.
    #[must_use]
    pub fn new_blinded() -> Self {
        Self::new()
    }

    /// The same as [`new_with_salt`](Self::new_with_salt): blinding is on by default.
    #[must_use]
    pub fn new_blinded_with_salt(len: usize) -> Self {
        Self::new_with_salt(len)
    }
}

crate::pss_impls::pss_impls!(
    <D> Pss<D> where [D: Digest + FixedOutputReset],
    keys: PrivateKey, PublicKey,
    rng: [TryCryptoRng + ?Sized],
    // The salt, then the blinding (unless unblinded).
    sign: |pss, rng, priv_key, hashed| {
        // Upstream panics on a scheme without a salt length; that is a bad argument here.
        let salt_len = pss.salt_len.ok_or(Error::Internal)?;
        sign_digest::<_, D>(rng, pss.blinded, priv_key, hashed, salt_len)
    },
    // The configured salt length, `None` accepting any.
    verify: |pss, pub_key, hashed, sig| verify_digest::<D>(pub_key, hashed, sig, pss.salt_len),
);

/// RSASSA-PSS-SIGN (RFC 8017 §8.1.1) of `hashed` with MGF1 over `D` and a salt of `salt_len`
/// bytes drawn from `rng` first; the private operation is then blinded with `rng` when
/// `blind`, else with the crate's own stream ([`bridge::blinding_rng`] without an RNG).
///
/// Upstream's order of checks: the salt is drawn before the digest's length is checked
/// (`InputNotHashed`) and before the key's size is (`Internal`, RFC 8017 §9.1.1 step 3).
pub(crate) fn sign_digest<R, D>(
    rng: &mut R,
    blind: bool,
    priv_key: &PrivateKey,
    hashed: &[u8],
    salt_len: usize,
) -> Result<Vec<u8>>
where
    R: TryCryptoRng + ?Sized,
    D: Digest,
{
    let engine = priv_key.engine()?;
    let h_len = <D as Digest>::output_size();
    // emLen = ⌈(modBits − 1)/8⌉ (RFC 8017 §8.1.1 step 1).
    let em_len = engine.bits().saturating_sub(1).div_ceil(8);

    // RFC 8017 §9.1.1 step 4: the salt. One longer than EM cannot be used: it is not drawn
    // (upstream would allocate and draw it, then fail below).
    let mut salt = vec![0u8; if salt_len <= em_len { salt_len } else { 0 }];
    rng.try_fill_bytes(&mut salt).map_err(|_| Error::Rng)?;

    // Step 2 (mHash is given) and step 3.
    if hashed.len() != h_len {
        return Err(Error::InputNotHashed);
    }
    let fits = h_len
        .checked_add(salt_len)
        .and_then(|x| x.checked_add(2))
        .is_some_and(|need| need <= em_len);
    if !fits {
        return Err(Error::Internal);
    }

    let scheme = rsatool_rsa::Pss::new(bridge::hash_alg::<D>()?)
        .with_salt_len(rsatool_rsa::SaltLen::Exact(salt_len));
    if blind {
        let brng = bridge::blinding_rng(Some(rng), priv_key, hashed);
        finish_sign(&scheme, engine, brng, hashed, &salt)
    } else {
        let brng = bridge::blinding_rng(None::<&mut NoRng>, priv_key, hashed);
        finish_sign(&scheme, engine, brng, hashed, &salt)
    }
}

/// EMSA-PSS-ENCODE and RSASP1 with the given salt, blinded with `rng`.
fn finish_sign<R: TryCryptoRng + ?Sized>(
    scheme: &rsatool_rsa::Pss,
    engine: &rsatool_rsa::RsaPrivateKey,
    mut rng: BlindingRng<'_, R>,
    hashed: &[u8],
    salt: &[u8],
) -> Result<Vec<u8>> {
    let sig = scheme.sign_digest_with_salt(engine, &mut rng, hashed, salt);
    // The caller's RNG failing is `Rng`, whatever the operation returned after it.
    rng.finish(Ok(()))?;
    sig.map_err(|e| match e {
        rsatool_rsa::Error::InvalidLength { .. } => Error::InputNotHashed,
        // The encoding does not fit (checked above) or the private operation's fault check
        // failed: upstream's `Internal` for both.
        rsatool_rsa::Error::MessageTooLong | rsatool_rsa::Error::Fault => Error::Internal,
        e => Error::from(e),
    })
}

/// RSASSA-PSS-VERIFY (RFC 8017 §8.1.2) of `sig` over `hashed` with MGF1 over `D`: the salt
/// exactly `salt_len` bytes, or any length for `None` ([`rsatool_rsa::SaltLen::Auto`]). Every
/// failure of the signature, and a `hashed` of the wrong length, is [`Error::Verification`].
pub(crate) fn verify_digest<D>(
    pub_key: &PublicKey,
    hashed: &[u8],
    sig: &[u8],
    salt_len: Option<usize>,
) -> Result<()>
where
    D: Digest,
{
    let engine = pub_key.engine()?;
    let salt_len = match salt_len {
        Some(n) => rsatool_rsa::SaltLen::Exact(n),
        None => rsatool_rsa::SaltLen::Auto,
    };
    rsatool_rsa::Pss::new(bridge::hash_alg::<D>()?)
        .with_salt_len(salt_len)
        .verify_digest(engine, hashed, sig)
        .map_err(|_| Error::Verification)
}

/// The `AlgorithmIdentifier` of RSASSA-PSS with `D`, MGF1 over `D` and a salt of `D`'s output
/// length (RFC 4055 §3.1 parameters).
///
/// # Errors
///
/// Never for a real digest; an encoding error if `D`'s output is over 255 bytes.
#[cfg(feature = "encoding")]
pub fn get_default_pss_signature_algo_id<D>() -> spki::Result<AlgorithmIdentifierOwned>
where
    D: Digest + AssociatedOid,
{
    get_pss_signature_algo_id::<D>(<D as Digest>::output_size())
}

/// The `AlgorithmIdentifier` of RSASSA-PSS with `D`, MGF1 over `D` and `salt_len`; a salt
/// length over 255 (which `RSASSA-PSS-params` holds in one byte here) is an overflow error,
/// not truncated.
#[cfg(feature = "encoding")]
pub(crate) fn get_pss_signature_algo_id<D>(
    salt_len: usize,
) -> spki::Result<AlgorithmIdentifierOwned>
where
    D: Digest + AssociatedOid,
{
    let salt_len = u8::try_from(salt_len).map_err(|_| ErrorKind::Overflow.to_error())?;
    let params = RsaPssParamsRef::new::<D>(salt_len);
    Ok(AlgorithmIdentifierOwned {
        oid: ID_RSASSA_PSS,
        parameters: Some(Any::encode_from(&params)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traits::PublicKeyParts;
    use crate::traits::SignatureScheme;
    use rand::rngs::ChaCha8Rng;
    use rand_core::{SeedableRng, TryRng};
    use sha2::Sha256;

    /// A 1025-bit key (`openssl genrsa 1025`): k = 129 bytes but emLen = 128, the case where
    /// EM is a byte shorter than the modulus.
    const KEY_1025: &str = "\
-----BEGIN RSA PRIVATE KEY-----
MIICXQIBAAKBgQGIXEf9FeVapr08a8/XyzvaRkK8M8UESr+5KSk52PQK2JggVRM/
Unc0QBPOSKD67zrAYhMSaTxTvRk71Z8mgACXCXU2pR7B+5ZDIaV5gOjG+9q5fM+/
n5QTVUm+iA7Dxa5FC3w+R1nt8gm25q4TMyIvMvdOOfk47GP7MeN1LsaMJwIDAQAB
AoGAGVks5XLmsGaZTy//64cbxMxJP3NwxQg3PrUkDrKvgYvguCYG6k5fmSaSoP8c
N1oBR7COXuAhn59V5AG3GHuoje4GVyw+R5mHGvEniSxmGaUyevXKteF3lHtPhCtO
6xOx/RY+WHUB3AV14DqaCCPKZat2nzaQrt62FGkiHKnM3nECQQHAD2bJvA/5UUiC
ePmEkydk4NocZxCY7ata/6gp5mx/E9J8hpJNjGJ2T8hr9o9ychZ5mXVZ951ITbaB
sZ2Rjw4tAkEA4C0Geut40pUA5OtNFHFQECLbXp1tWj4M3d84a0XS0yz2WoMc1rcc
g7avcrhQ+X2VC1YwHJitsg6VB9WWj7OMIwJAEUNGpY0eXG+6SHSawHXe9a8IGEIM
TKgTiw0AkKS1F2xPFsckieJXxNEsGqTEQBePMB4ufEnjAG8mEfci6AHH/QJBAIOR
6Xu7N+5gBWZVs6eL2bGew6GEQ+nzARo3KKXNFS9b9DqrOQHL9rBXSCHMi7niOtes
fhBKi6c1Z8JxWSx99IECQQDeNJiIyHoXS/wTN8X8+rDnGJCkPT6WbkmbG8tvffH6
3ut6wrxrA6VCZzsnPLN58ChxvQmbRqk7ly35V/L+FB1N
-----END RSA PRIVATE KEY-----";

    #[cfg(feature = "encoding")]
    fn key() -> PrivateKey {
        use pkcs1::DecodeRsaPrivateKey;
        PrivateKey::from_pkcs1_pem(KEY_1025).expect("key")
    }

    #[cfg(feature = "encoding")]
    #[test]
    fn pss_errors_match_upstream() {
        let key = key();
        let public = key.to_public_key();
        let mut rng = ChaCha8Rng::from_seed([1; 32]);
        let hash = Sha256::digest(b"m");

        assert_eq!(
            Pss::<Sha256>::new().sign(None::<&mut ChaCha8Rng>, &key, &hash),
            Err(Error::InvalidPaddingScheme)
        );
        assert_eq!(
            Pss::<Sha256>::new().sign(Some(&mut rng), &key, &hash[..31]),
            Err(Error::InputNotHashed)
        );
        // emLen = 128: hLen + sLen + 2 ≤ 128 allows a salt of 94 bytes, not 95.
        assert!(
            Pss::<Sha256>::new_with_salt(94)
                .sign(Some(&mut rng), &key, &hash)
                .is_ok()
        );
        assert_eq!(
            Pss::<Sha256>::new_with_salt(95).sign(Some(&mut rng), &key, &hash),
            Err(Error::Internal)
        );
        assert_eq!(
            Pss::<Sha256>::new_with_salt(usize::MAX).sign(Some(&mut rng), &key, &hash),
            Err(Error::Internal)
        );

        let sig = key
            .pss_sign_with_rng::<Sha256, _>(&mut rng, b"m")
            .expect("sign");
        assert_eq!(sig.len(), public.size());
        assert_eq!(
            public.pss_verify_prehash::<Sha256>(&hash[..31], &sig),
            Err(Error::Verification)
        );
        public.pss_verify::<Sha256>(b"m", &sig).expect("verify");
        public
            .verify(Pss::<Sha256>::new_with_salt(0).with_auto(), &hash, &sig)
            .expect("auto");
    }

    impl<D> Pss<D> {
        fn with_auto(mut self) -> Self {
            self.salt_len = None;
            self
        }
    }

    #[cfg(feature = "encoding")]
    #[test]
    fn pss_salt_is_the_rng_prefix() {
        // The salt is the first hLen bytes of the RNG whichever API draws it, so the same RNG
        // stream gives the same signature; unblinded, the RNG gives the salt alone.
        let key = key();
        let hash = Sha256::digest(b"m");
        let blinded = key
            .sign_with_rng(
                &mut ChaCha8Rng::from_seed([3; 32]),
                Pss::<Sha256>::new(),
                &hash,
            )
            .expect("sign");
        let prehash = key
            .pss_sign_prehash_with_rng::<Sha256, _>(&mut ChaCha8Rng::from_seed([3; 32]), &hash)
            .expect("sign");
        assert_eq!(blinded, prehash);

        let mut unblinded = Pss::<Sha256>::new();
        unblinded.blinded = false;
        let mut rng = ChaCha8Rng::from_seed([3; 32]);
        let sig = unblinded.sign(Some(&mut rng), &key, &hash).expect("sign");
        assert_eq!(sig, blinded);
        let mut skipped = ChaCha8Rng::from_seed([3; 32]);
        skipped.try_fill_bytes(&mut [0u8; 32]).expect("rng");
        assert_eq!(rng.try_next_u64(), skipped.try_next_u64());
    }

    #[cfg(feature = "encoding")]
    #[test]
    fn algorithm_identifier_refuses_salts_over_255() {
        assert!(get_pss_signature_algo_id::<Sha256>(255).is_ok());
        assert!(get_pss_signature_algo_id::<Sha256>(256).is_err());
        assert!(get_default_pss_signature_algo_id::<Sha256>().is_ok());
    }
}
