//! Batches of private operations: many RSA private operations (signatures, decryptions) run
//! together, for throughput.
//!
//! Each item of a batch goes through the same three stages as a single
//! [`PrivateOp::private_op`](crate::hazmat::PrivateOp::private_op), each a method of its key's
//! CRT key (`primitive`'s `CrtKey`): its own checks, blinding and reductions (as
//! `crt_prepare`), the exponentiations modulo its primes, then its own Garner recombination,
//! unblinding, fault check and output (`crt_finish`). Only the middle stage is shared
//! (`CrtKey::exponentiate_and_finish`): where the 52-bit engine runs on AVX-512 IFMA, the CRT
//! halves of four 2-prime items fill the eight lanes of one
//! [`pow_batch`](bignum::modular::pow_batch) (each half is one lane). A group of fewer
//! than eight lanes (the last of a batch, or keys of different digit counts) runs each item's
//! exponentiations as a single operation does (an interleaved pair): an eight-lane batch costs
//! the same whatever the number of lanes in use, and below eight it does not beat the pairs at
//! 2048-bit halves, where eight lanes are only a little faster than four pairs (more so at
//! smaller halves; `bignum/examples/pow_paths.rs -- --batch`, measured: see
//! docs/benchmarks-log.md, "The batch's lanes and threads"). Without IFMA (or with
//! `BIGNUM_BACKEND=adx|portable`) every item takes the single-operation path; the results are
//! the same either way (every exponentiation returns the canonical residue).
//!
//! An item with a bad input (wrong length, not below n) is rejected in its first stage, before
//! any exponentiation, and gets its error; the other items are not affected. A faulted item
//! gets [`Error::Fault`](crate::Error::Fault) from its own check.
//!
//! # Threads
//!
//! The groups of eight lanes are spread over rayon's thread pool: [`Batch::threads`] tasks, each
//! taking the next group not yet taken until none is left, so that a task whose worker starts late
//! takes fewer. (The calling thread taking groups too, through `rayon::in_place_scope`, is better
//! at 2048 bits but worse at 3072, so it does not.) The pool is started once and kept, and its idle
//! workers look for work a moment before they sleep, where threads spawned for every call would
//! each cost a spawn and a wake-up on an idle core, which a short batch does not win back
//! (measured: see docs/benchmarks-log.md, "The batch's lanes and threads"). Only the input checks
//! and the blinding run on the calling thread, before the tasks start: each item takes the next
//! power of one of its key's cached blinding pairs (two squarings, as a single operation does;
//! `primitive/blinding.rs`), and a fresh pair is drawn there (from the caller's RNG, with its
//! inverse and r^e) only every 32 items of a key, or when every slot of that key's table is held by
//! other threads: the draws need the caller's RNG, which the tasks do not share. The rest of the
//! first stage (the multiplications by r^e) runs in the tasks. A batch of one group runs on the
//! calling thread. The thread count defaults to [`std::thread::available_parallelism`]. Without the
//! `std` feature there are no threads: every batch runs on the calling thread (the eight lanes
//! still apply).
//!
//! # Constant time
//!
//! As the single operation, for each item: the time depends on the sizes of the keys, the
//! number of items and which of them were rejected by the public input checks.

use alloc::vec::Vec;
use core::num::NonZeroUsize;

use bignum::Limb;
use rand_core::CryptoRng;
use zeroize::Zeroizing;

use crate::hazmat::BatchPrivateOp;
use crate::primitive::{Blinding, CrtInput, CrtKey, ITEMS_PER_GROUP};
use crate::{EncryptionScheme, Result, RsaPrivateKey, SignatureScheme};

/// Settings of a batch of private operations: the thread cap.
#[derive(Clone, Copy, Debug, Default)]
pub struct Batch {
    threads: Option<NonZeroUsize>,
}

/// Each of `inputs` with `key`, as the items of [`Batch::raw_private_ops`].
fn with_key<'a>(key: &'a RsaPrivateKey, inputs: &[&'a [u8]]) -> Vec<(&'a RsaPrivateKey, &'a [u8])> {
    inputs.iter().map(|c| (key, *c)).collect()
}

/// One item after its input checks and its blinding: its position in the batch, its key, its
/// input as limbs, its blinding pair.
struct Drawn<'a> {
    at: usize,
    key: &'a CrtKey,
    x: Zeroizing<Vec<Limb>>,
    blinding: Blinding,
}

/// One item after its first stage: its position in the batch, its key, its input.
struct Ready<'a> {
    at: usize,
    key: &'a CrtKey,
    input: CrtInput,
}

impl Batch {
    /// The default settings: as many threads as [`std::thread::available_parallelism`].
    pub fn new() -> Self {
        Batch::default()
    }

    /// At most `n` threads (at least one: 0 is taken as 1).
    #[must_use]
    pub fn threads(mut self, n: usize) -> Self {
        self.threads = Some(NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN));
        self
    }

    /// The thread cap in effect (1 without the `std` feature).
    pub fn max_threads(&self) -> usize {
        #[cfg(feature = "std")]
        let cap = self
            .threads
            .or_else(|| std::thread::available_parallelism().ok());
        #[cfg(not(feature = "std"))]
        let cap = self.threads.map(|_| NonZeroUsize::MIN);
        cap.map_or(1, NonZeroUsize::get)
    }

    /// [`PrivateOp::private_op`](crate::hazmat::PrivateOp::private_op) of every (key, input)
    /// pair: one result per item, in order (the raw operation of
    /// [`BatchPrivateOp`](crate::hazmat::BatchPrivateOp), and the middle of the batch
    /// signatures and decryptions).
    pub(crate) fn raw_private_ops<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        items: &[(&RsaPrivateKey, &[u8])],
    ) -> Vec<Result<Vec<u8>>> {
        let mut out: Vec<Option<Result<Vec<u8>>>> = Vec::with_capacity(items.len());
        let mut drawn = Vec::with_capacity(items.len());
        // On the calling thread: the input checks and the blinding (the key's cached pair, or
        // a fresh one from the caller's RNG); the rest of the first stage runs in the threads.
        for (at, &(key, c)) in items.iter().enumerate() {
            let key = key.crt();
            match key.crt_input(c) {
                Ok(x) => {
                    let blinding = key.blinding_for_op(rng);
                    drawn.push(Drawn {
                        at,
                        key,
                        x,
                        blinding,
                    });
                    out.push(None);
                }
                Err(e) => out.push(Some(Err(e))),
            }
        }
        for (at, r) in self.run(drawn) {
            out[at] = Some(r);
        }
        out.into_iter()
            .map(|r| r.unwrap_or(Err(crate::Error::Fault)))
            .collect()
    }

    /// [`RsaPrivateKey::sign_prehashed`] of every digest: one signature or error per digest.
    ///
    /// # Constant time
    ///
    /// As the scheme's single signature, for each item.
    pub fn sign_prehashed<S: SignatureScheme, R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        scheme: &S,
        digests: &[&[u8]],
    ) -> Vec<Result<Vec<u8>>> {
        // Encode each (a bad digest length is that item's error), then the private
        // operations of those that encoded.
        let ems: Vec<Result<_>> = digests
            .iter()
            .map(|d| scheme.encode_for_signing(key, rng, d))
            .collect();
        let good: Vec<&[u8]> = ems.iter().flatten().map(|em| em.as_slice()).collect();
        let mut sigs = self.raw_private_ops(rng, &with_key(key, &good)).into_iter();
        ems.into_iter()
            .map(|em| em.and_then(|_| sigs.next().unwrap_or(Err(crate::Error::Fault))))
            .collect()
    }

    /// [`RsaPrivateKey::sign`] of every message (hashed with the scheme's hash).
    ///
    /// # Constant time
    ///
    /// As the scheme's single signature, for each item.
    pub fn sign<S: SignatureScheme, R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        scheme: &S,
        msgs: &[&[u8]],
    ) -> Vec<Result<Vec<u8>>> {
        let digests: Vec<Vec<u8>> = msgs.iter().map(|m| scheme.hash().digest(m)).collect();
        let refs: Vec<&[u8]> = digests.iter().map(Vec::as_slice).collect();
        self.sign_prehashed(key, rng, scheme, &refs)
    }

    /// [`RsaPrivateKey::decrypt`] of every ciphertext: one message or error per ciphertext,
    /// each as the scheme's single decryption gives it (implicit rejection included).
    ///
    /// # Constant time
    ///
    /// As the scheme's single decryption, for each item.
    pub fn decrypt<S: EncryptionScheme, R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        scheme: &S,
        ciphertexts: &[&[u8]],
    ) -> Vec<Result<Vec<u8>>> {
        let checks: Vec<Result<()>> = ciphertexts
            .iter()
            .map(|c| scheme.check_ciphertext(key, c))
            .collect();
        let good: Vec<&[u8]> = ciphertexts
            .iter()
            .zip(&checks)
            .filter(|(_, ok)| ok.is_ok())
            .map(|(c, _)| *c)
            .collect();
        let mut ems = self.raw_private_ops(rng, &with_key(key, &good)).into_iter();
        ciphertexts
            .iter()
            .zip(checks)
            .map(|(c, ok)| {
                ok.and_then(|()| {
                    let em = ems.next().unwrap_or(Err(crate::Error::Fault));
                    scheme.unslice(key, c, em)?.into_message()
                })
            })
            .collect()
    }

    /// The rest of the first stage, the exponentiations and the last stages of the blinded
    /// items, in groups over threads.
    fn run(&self, drawn: Vec<Drawn<'_>>) -> Vec<(usize, Result<Vec<u8>>)> {
        let mut groups: Vec<Vec<Drawn<'_>>> = Vec::new();
        let mut it = drawn.into_iter().peekable();
        while it.peek().is_some() {
            groups.push(it.by_ref().take(ITEMS_PER_GROUP).collect());
        }
        let threads = self.max_threads().min(groups.len());
        if threads <= 1 {
            return groups.into_iter().flat_map(run_group).collect();
        }
        Self::run_threads(groups, threads)
    }

    /// The groups on the calling thread (without `std`, [`Batch::max_threads`] is 1 and this
    /// is never reached).
    #[cfg(not(feature = "std"))]
    fn run_threads(groups: Vec<Vec<Drawn<'_>>>, _threads: usize) -> Vec<(usize, Result<Vec<u8>>)> {
        groups.into_iter().flat_map(run_group).collect()
    }

    /// The groups over the calling thread and at most `threads` − 1 of rayon's pool threads:
    /// each takes the next group not yet taken until none is left, so that a pool thread that
    /// starts late (it was asleep) takes fewer, and the caller, awake already, starts at once.
    #[cfg(feature = "std")]
    fn run_threads(groups: Vec<Vec<Drawn<'_>>>, threads: usize) -> Vec<(usize, Result<Vec<u8>>)> {
        use std::sync::Mutex;
        let groups = Mutex::new(groups.into_iter());
        let next = || {
            groups
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .next()
        };
        let results = Mutex::new(Vec::new());
        rayon::scope(|s| {
            for _ in 0..threads {
                s.spawn(|_| {
                    let mut mine = Vec::new();
                    while let Some(group) = next() {
                        mine.extend(run_group(group));
                    }
                    results
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .extend(mine);
                });
            }
        });
        results
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// One group: the rest of each item's first stage, the exponentiations (eight lanes where they
/// fit, else each item's own path), then each item's last stage.
fn run_group(group: Vec<Drawn<'_>>) -> Vec<(usize, Result<Vec<u8>>)> {
    let ready: Vec<Ready<'_>> = group
        .into_iter()
        .map(|d| Ready {
            at: d.at,
            key: d.key,
            input: d.key.blind_with(&d.x, d.blinding),
        })
        .collect();
    let items: Vec<(&CrtKey, &CrtInput)> = ready.iter().map(|r| (r.key, &r.input)).collect();
    ready
        .iter()
        .map(|r| r.at)
        .zip(CrtKey::exponentiate_and_finish(&items))
        .collect()
}

impl BatchPrivateOp for Batch {
    fn private_op<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        inputs: &[&[u8]],
    ) -> Vec<Result<Vec<u8>>> {
        self.raw_private_ops(rng, &with_key(key, inputs))
    }

    fn private_op_keys<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        items: &[(&RsaPrivateKey, &[u8])],
    ) -> Vec<Result<Vec<u8>>> {
        self.raw_private_ops(rng, items)
    }
}

impl RsaPrivateKey {
    /// [`RsaPrivateKey::sign`] of every message, together ([`Batch`] with its defaults).
    ///
    /// # Constant time
    ///
    /// As the scheme's single signature, for each item.
    pub fn sign_batch<S: SignatureScheme, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        scheme: &S,
        msgs: &[&[u8]],
    ) -> Vec<Result<Vec<u8>>> {
        Batch::new().sign(self, rng, scheme, msgs)
    }

    /// [`RsaPrivateKey::sign_prehashed`] of every digest, together ([`Batch`] with its
    /// defaults).
    ///
    /// # Constant time
    ///
    /// As the scheme's single signature, for each item.
    pub fn sign_prehashed_batch<S: SignatureScheme, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        scheme: &S,
        digests: &[&[u8]],
    ) -> Vec<Result<Vec<u8>>> {
        Batch::new().sign_prehashed(self, rng, scheme, digests)
    }

    /// [`RsaPrivateKey::decrypt`] of every ciphertext, together ([`Batch`] with its
    /// defaults).
    ///
    /// # Constant time
    ///
    /// As the scheme's single decryption, for each item.
    pub fn decrypt_batch<S: EncryptionScheme, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        scheme: &S,
        ciphertexts: &[&[u8]],
    ) -> Vec<Result<Vec<u8>>> {
        Batch::new().decrypt(self, rng, scheme, ciphertexts)
    }
}
