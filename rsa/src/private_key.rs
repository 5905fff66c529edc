//! [`RsaPrivateKey`]: the private key as a user holds it. Its constructors from its parts (the
//! validation is `key`'s), its parts and public half, the choices of how its private operations
//! run (blinding pairs cached or not, concurrent callers coalesced or not), and the CRT key
//! (`primitive`'s `CrtKey`) that runs every private operation. Above `key`, `primitive` and
//! `coalesce`; the raw operations (`hazmat`), the padding schemes, `Batch`, key generation
//! and the encodings are built on it.

#[cfg(feature = "std")]
use alloc::boxed::Box;
use alloc::string::ToString;
use core::fmt;
#[cfg(feature = "std")]
use core::num::NonZeroUsize;

use zeroize::ZeroizeOnDrop;

use crate::Result;
#[cfg(feature = "std")]
use crate::coalesce::Coalescer;
use crate::key::{MIN_MODULUS_BITS, PrivateKeyParts, PrivateValues, RsaPublicKey};
use crate::primitive::CrtKey;
#[cfg(feature = "std")]
use crate::primitive::MeetingPoint;

/// An RSA private key: n, e, d, the primes (two, or up to [`MAX_PRIMES`](crate::MAX_PRIMES)
/// for a multi-prime key per RFC 8017) and the CRT values, with the Montgomery contexts of n
/// and of every prime computed once at construction.
///
/// The private parts are held in `bignum::modular` types and `Zeroizing` buffers and are wiped
/// on drop; `Debug` shows only n's bit length and e. `Send + Sync`; every operation takes
/// `&self`.
///
/// The key also keeps a blinding pair for its CRT private operations, updated by squaring and
/// drawn afresh every 32 uses (the `primitive::blinding` module explains it and why it is
/// safe). It is wiped on drop and never cloned: a clone starts without one, and so does, in
/// effect, a child process after `fork()` (a pair last used by another process is dropped for a
/// fresh one).
#[derive(Clone)]
pub struct RsaPrivateKey {
    /// The key's values, blinding table and meeting point, and its private operation.
    crt: CrtKey,
}

impl RsaPrivateKey {
    /// A private key from its integers, fully validated: the checks of
    /// [`RsaPublicKey::from_parts`], then 2 to [`MAX_PRIMES`](crate::MAX_PRIMES) distinct
    /// primes whose product is n, e·d ≡ 1 modulo every r_i − 1 (so modulo their lcm), each
    /// d_i = d mod (r_i − 1), and the coefficients qInv = q⁻¹ mod p and
    /// t_i = (r_1·…·r_(i−1))⁻¹ mod r_i, each below its prime. The primes are not tested for
    /// primality.
    ///
    /// # Constant time
    ///
    /// The checks on secrets run in constant time; only each check's verdict, the byte lengths
    /// of the integers and the bit lengths of the primes are public.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidKey`](crate::Error::InvalidKey) with the [`KeyError`](crate::KeyError)
    /// of the first failed check.
    pub fn from_parts(parts: &PrivateKeyParts) -> Result<Self> {
        Self::from_parts_allowing_small(parts, MIN_MODULUS_BITS)
    }

    /// [`RsaPrivateKey::from_parts`], accepting moduli down to `min_bits` bits. For tests and
    /// legacy data only: keys below 1024 bits are insecure.
    ///
    /// # Constant time
    ///
    /// As [`RsaPrivateKey::from_parts`].
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::from_parts`], with `min_bits` as the lower bound.
    pub fn from_parts_allowing_small(parts: &PrivateKeyParts, min_bits: usize) -> Result<Self> {
        PrivateValues::from_parts(parts, min_bits).map(Self::from_values)
    }

    /// The key of validated values (`PrivateValues::from_parts`, `PrivateValues::from_limbs`):
    /// no blinding pair yet, no meeting point.
    pub(crate) fn from_values(values: PrivateValues) -> Self {
        RsaPrivateKey {
            crt: CrtKey::new(values),
        }
    }

    /// The integers of this key, big-endian without leading zeros (PKCS #1 order).
    ///
    /// # Constant time
    ///
    /// The conversions depend on the limb counts; the byte length of each value leaks, as it
    /// does in any DER encoding.
    pub fn to_parts(&self) -> PrivateKeyParts {
        self.crt.to_parts()
    }

    /// The public half of this key.
    pub fn public_key(&self) -> &RsaPublicKey {
        self.crt.public()
    }

    /// The public half of this key, cloned (RustCrypto's name; also
    /// `RsaPublicKey::from(&key)`).
    pub fn to_public_key(&self) -> RsaPublicKey {
        self.public_key().clone()
    }

    /// The modulus n.
    pub fn n(&self) -> &bignum::Nat {
        &self.public_key().n
    }

    /// The public exponent e.
    pub fn e(&self) -> &bignum::Nat {
        &self.public_key().e
    }

    /// k, the length of n in bytes.
    pub fn size(&self) -> usize {
        self.public_key().k
    }

    /// The bit length of n.
    pub fn bits(&self) -> usize {
        self.public_key().bits()
    }

    /// How many primes the key has (2, or more for a multi-prime key).
    pub fn prime_count(&self) -> usize {
        self.crt.prime_count()
    }

    /// The CRT key, which runs the key's private operations (`primitive`).
    pub(crate) fn crt(&self) -> &CrtKey {
        &self.crt
    }

    /// The same key, whose CRT private operations each draw a fresh blinding pair from the
    /// RNG they are given instead of keeping one between operations (the module
    /// documentation of `primitive::blinding` says what the cache saves: about a tenth of an
    /// RSA-2048 operation). For callers whose contract is that every blinded operation asks
    /// the RNG it is given for randomness, and fails when that RNG does: RustCrypto's, which
    /// the `rsa` facades (`compat/`) keep, and whose fallible RNGs they adapt; and for those
    /// who want no link at all between the blinding factors of two operations (SECURITY.md,
    /// "Blinding"). Clones keep the choice.
    #[must_use]
    pub fn without_blinding_cache(mut self) -> Self {
        self.crt.keep_no_blinding_pairs();
        self
    }

    /// The same key, whose CRT private operations from threads that call it at the same time
    /// run together on the eight lanes of the AVX-512 IFMA engine: every signature, decryption
    /// and raw private operation (the typed keys' too, and through `Arc`s or references shared
    /// by any number of threads). A call that finds no other waiting runs alone and at once;
    /// calls that arrive while as many passes run as the machine has cores wait for the next
    /// pass, which takes up to four of them. No background thread: the work runs on the
    /// callers' threads.
    ///
    /// Worth it where more threads sign or decrypt with one key than there are cores (a
    /// server's pool of request threads): four operations on the eight lanes cost less than
    /// four single ones (measured on 2 cores only: docs/benchmarks-log.md, "Which keys'
    /// callers meet"). What it trades is latency: a call taken into a pass returns when the
    /// whole pass ends, longer than a single operation. The `coalesce` module's documentation
    /// has the details (failures, panics, fairness). Where the eight lanes do not run or do
    /// not pay (no AVX-512 IFMA, a `BIGNUM_BACKEND` that names another back end, a key of
    /// more than two primes, or of primes over 1558 bits: RSA-4096 and up, where four items
    /// on the lanes take nearly four single operations' time and meeting costs more than it
    /// gives) every call runs alone, as on a plain key.
    ///
    /// The result of each call is the one a plain key gives, with the same blinding, fault
    /// check and constant time ([`Batch`](crate::Batch)'s). Clones keep the choice, each with
    /// its own meeting point. A panic in one call's arithmetic reaches that call only, and a
    /// child process after `fork()` starts with a meeting point of its own. Needs the `std`
    /// feature.
    ///
    /// # Example
    ///
    /// ```
    /// use std::sync::Arc;
    /// use rsatool_rsa::pkcs1v15::SigningKey;
    /// use rsatool_rsa::sha2::Sha256;
    /// use rsatool_rsa::signature::{RandomizedSigner, SignatureEncoding};
    ///
    /// # let key = rsatool_rsa::RsaPrivateKey::new(&mut rsatool_rsa::os_rng(), 2048)?;
    /// // A key read once at start-up, shared by the request threads.
    /// let signer = Arc::new(SigningKey::<Sha256>::new(key.coalescing()));
    /// let threads: Vec<_> = (0..4)
    ///     .map(|i| {
    ///         let signer = Arc::clone(&signer);
    ///         std::thread::spawn(move || {
    ///             let msg = format!("request {i}");
    ///             signer.sign_with_rng(&mut rsatool_rsa::os_rng(), msg.as_bytes()).to_vec()
    ///         })
    ///     })
    ///     .collect();
    /// for t in threads {
    ///     assert_eq!(t.join().unwrap().len(), 256);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "std")]
    #[must_use]
    pub fn coalescing(self) -> Self {
        let passes = std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN);
        self.coalescing_passes(passes)
    }

    /// [`RsaPrivateKey::coalescing`] with at most `passes` passes at once instead of one per
    /// core: fewer leave cores to other work, and make callers meet (and wait) sooner.
    #[cfg(feature = "std")]
    #[must_use]
    pub fn coalescing_passes(self, passes: NonZeroUsize) -> Self {
        self.meeting_at(Box::new(Coalescer::new(passes)))
    }

    /// Whether the key's private operations are coalesced ([`RsaPrivateKey::coalescing`]), and
    /// then how many passes may run at once.
    #[cfg(feature = "std")]
    pub fn coalescing_passes_allowed(&self) -> Option<NonZeroUsize> {
        self.crt
            .meeting_point()
            .and_then(|point| NonZeroUsize::new(point.passes()))
    }

    /// The same key, whose CRT private operations meet at `point` after their first stage
    /// (the coalescer, or the tests' coalescer of the test doors).
    #[cfg(feature = "std")]
    pub(crate) fn meeting_at(mut self, point: Box<dyn MeetingPoint>) -> Self {
        self.crt.meet_at(point);
        self
    }
}

impl ZeroizeOnDrop for RsaPrivateKey {}

impl From<&RsaPrivateKey> for RsaPublicKey {
    fn from(key: &RsaPrivateKey) -> Self {
        key.public_key().clone()
    }
}

impl From<RsaPrivateKey> for RsaPublicKey {
    fn from(key: RsaPrivateKey) -> Self {
        key.public_key().clone()
    }
}

impl AsRef<RsaPublicKey> for RsaPrivateKey {
    fn as_ref(&self) -> &RsaPublicKey {
        self.public_key()
    }
}

impl fmt::Debug for RsaPrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RsaPrivateKey")
            .field("bits", &self.n().bits())
            .field("e", &self.e().to_string())
            .finish_non_exhaustive()
    }
}
