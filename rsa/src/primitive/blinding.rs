//! The cached blinding pair of a private key: (r^e, r⁻¹) kept between CRT private operations
//! and updated by squaring, instead of drawing r and inverting it for every operation.
//!
//! # What is kept, and how it moves
//!
//! Base blinding (Kocher, "Timing Attacks on Implementations of Diffie-Hellman, RSA, DSS, and
//! Other Systems", 1996) computes c^d as (c·r^e)^d·r⁻¹ mod n for a secret r, so that the
//! exponentiations never see the caller's c. A fresh r costs a draw, a modular inverse and
//! r^e, together about a tenth of an RSA-2048 operation (measured: see docs/benchmarks-log.md,
//! "The cost of a fresh blinding pair"). The key therefore keeps one pair for the next
//! operation:
//!
//! - r^e, held as its residues modulo each prime r_i (in each prime's Montgomery form): the
//!   blinding multiplies c mod r_i by r^e mod r_i, and squaring the residues costs half of
//!   squaring r^e mod n (two half-length squarings);
//! - r⁻¹ mod n (in n's Montgomery form), for the unblinding.
//!
//! A pair drawn from the caller's RNG is used once as it is; before each later use both halves
//! are squared, (r²)^e = (r^e)² and (r²)⁻¹ = (r⁻¹)², so the k-th use blinds with r^(2^k).
//! After [`REFRESH_USES`] uses the pair is dropped and a new one drawn. The squarings are
//! Montgomery squarings on `bignum::modular` residues: constant-time, no branch or index on the pair; the
//! use counter, whether the cache holds a pair and whether another thread holds it are public.
//!
//! # Why squaring is enough
//!
//! The blinding needs each operation's factor to be unknown to whoever watches the
//! operations. The sequence r, r², r⁴, … is computable only from r, which never leaves the
//! key: r is uniform in (ℤ/n)*, and so is each r^(2^k) up to the squaring map's 4-to-1
//! collapse, so an observer who knows nothing of r knows nothing of any of them. What squaring
//! gives up is independence between the uses of one pair: a side channel that recovered one
//! factor would give all the later ones of that pair (not the earlier ones: square roots modulo
//! n need its factors). The refresh every [`REFRESH_USES`] uses bounds that: one r's secrecy
//! matters for at most that many operations, and a new draw from the caller's RNG starts an
//! unrelated sequence. OpenSSL (`BN_BLINDING_update`, `BN_BLINDING_COUNTER` = 32) does the
//! same squaring and the same refresh; BoringSSL and AWS-LC keep a small table of such pairs
//! per key with the same counter, a thread taking a free one under a lock.
//!
//! # Threads without waiting: a small table of pairs
//!
//! A key keeps [`SLOTS`] pairs, each in a [`spin::mutex::SpinMutex`] that is only ever asked
//! with `try_lock`, which never spins or blocks. An operation scans the slots from the first and
//! takes the first one it finds free: it squares that slot's pair, takes a copy for its
//! operation and releases the slot at once (a few Montgomery squarings and a copy, about a
//! microsecond at RSA-2048), so threads that use one key mostly share the first slot's sequence
//! r, r², r⁴, …, each power still used by one operation only. A thread that finds the first
//! slot held (another thread is squaring its pair or drawing a new one, for a microsecond or
//! twenty) goes on to the next, which keeps a sequence of its own; only when every slot is held
//! does an operation draw a fresh pair for itself and keep it nowhere, exactly the uncached
//! path. With a single slot, every thread that met the slot held paid that fresh
//! pair (a draw, an inverse and r^e: a tenth of an RSA-2048 operation); with the table the
//! fresh draws stay at one per [`REFRESH_USES`] operations of a sequence however many threads
//! share the key. BoringSSL and AWS-LC keep such a table per key for the same reason.
//!
//! Each slot sits on 128 bytes of its own (two cache lines, which adjacent-line prefetchers
//! fetch together): its lock word is written by every operation that takes it, and on a line
//! shared with the key's read-only data (moduli, exponents) or with another slot, those writes
//! would take the line away from every other thread that reads it. The table is one
//! allocation, apart from the key's own fields.
//!
//! `spin` rather than `std::sync::Mutex`: the crate is `no_std` + `alloc`, and `unsafe_code`
//! is denied here, so an `AtomicBool` flag could not guard a cell without `unsafe`; `spin`'s
//! mutex is that flag with the cell, written once.
//!
//! The table's rules (which slot, when a pair is used again, when a fresh one is drawn) are
//! `blinding/slots.rs`, generic over the pair; `model-check/` runs that file under loom with a
//! counter in place of the pair and checks, over every interleaving of two and three threads,
//! that each power serves one operation only.
//!
//! # `fork()`
//!
//! A child process gets a copy of the table: the same pairs, at the same powers. Parent and
//! child would then blind their next operations with the same r^(2^k), the one thing the table
//! exists to prevent, and a server that signs once before it forks its workers would do so in
//! every worker (a key made by [`RsaPrivateKey::new`](crate::RsaPrivateKey::new) already
//! holds a pair: key generation's consistency check is a private operation). Each kept pair is therefore tagged with the id of
//! the process that drew or last used it, and an operation uses a pair only if the tag is its
//! own process's ([`std::process::id`]: a `getpid` system call on each operation that takes a
//! slot, whose cost BENCHMARKS.md measures); a pair of another process is dropped and a fresh
//! one drawn from the caller's RNG. The id is read on
//! every operation, never cached: a cached copy would be copied into the child with the table.
//! A slot that another thread of the parent held at the instant of the fork stays held in the
//! child for ever (its holder does not exist there); the scan already passes over held slots
//! without waiting, so the child only has one slot fewer.
//!
//! What this does not cover: without `std` there is no process id, and so no fork detection
//! (a `no_std` target has no `fork` either, in general). And a process id is only unique among
//! living processes: a pair is used again by a later process that inherited it and happens to
//! get the id of the process that last used it, which must have ended by then; two such
//! processes (say, workers that a daemon forks again and again, after the process that signed
//! has exited, and that the kernel gives that same id twice) would share powers. Ids are also
//! per pid namespace: a child forked into a new one (`clone` or `unshare` with `CLONE_NEWPID`,
//! then no `exec`) is process 1 there, the id its parent has if the parent is that namespace's
//! own init, and then shares its powers too. Detecting the
//! fork itself (`MADV_WIPEONFORK` pages, as BoringSSL does, or `pthread_atfork`) would close
//! that, at the price of `unsafe` code and a system-specific call, which this crate denies; a
//! process that forks workers from a key it has used can also clone the key in each worker
//! (a clone starts with an empty table) or use
//! [`RsaPrivateKey::without_blinding_cache`](crate::RsaPrivateKey::without_blinding_cache).
//!
//! # Faults
//!
//! A corrupted pair (a fault, a bit flipped in memory: r^e and r⁻¹ that no longer belong
//! together) can only cause [`Error::Fault`](crate::Error::Fault), never a wrong output. The
//! check after unblinding, out^e ≡ c modulo every prime, compares the final output with the
//! caller's c, which was reduced modulo each prime before any blinding
//! (`CrtKey::check`): x ↦ x^e permutes ℤ/n (e is prime to λ(n) and n is square-free),
//! so the one output that passes is c^d, whatever values were blinded with. Concretely, with
//! A in place of r^e and B of r⁻¹, the output is (c·A)^d·B and, modulo each prime r_i that
//! does not divide c, passes iff A·B^e ≡ 1 (mod r_i); modulo a prime dividing c it is 0, the
//! right value. After a fault the cache is emptied (`crt_finish`), so a corrupted pair does not
//! live on for the rest of its uses; the inputs of the check itself (c mod r_i, e, the primes)
//! are not part of the pair.
//!
//! # What the RNG must give
//!
//! A pair kept for 32 operations outlives the call that drew it. The RNG adapter for
//! RustCrypto's fallible RNGs (`recording_rng`) fills a failed draw with a fixed pattern and
//! discards that call's result, which is harmless for one operation, but a pair kept from it
//! would be known to anyone. A pair is therefore cached only if its two independent draws (r
//! and the inverse's mask s) differ: a stuck RNG gives them equal, a working one with
//! probability 1/n. Such an operation still runs, with its pair, uncached.
//!
//! # Clones and drops
//!
//! A clone of the key starts with an empty cache ([`BlindingCache`]'s `Clone`): two keys never
//! share a sequence of factors. The pair's residues wipe themselves when dropped: when the
//! key is, when the pair is refreshed or forgotten, and each operation's copy at its end.
//!
//! # Batches
//!
//! [`Batch`](crate::Batch) takes each item's pair the same way, on the calling thread before
//! the items spread over threads: successive items of one key get successive squares, and a
//! fresh pair (with its inverse and r^e, on the calling thread) every 32 items of a key.

use alloc::vec::Vec;

use bignum::modular::Residue;
use subtle::Choice;
use zeroize::ZeroizeOnDrop;

#[cfg(feature = "test-hooks")]
mod hooks;
mod slots;
mod sync;

#[cfg(test)]
pub(crate) use slots::REFRESH_USES;
#[cfg(test)]
use slots::SLOTS;
use slots::{Slots, Source};

/// One operation's blinding: r^e modulo each prime (in each prime's Montgomery form) and
/// r⁻¹ mod n (in n's). Secret; wiped on drop (its parts are [`Residue`]s). Cloned only out of
/// the key's table ([`BlindingCache`]), for one operation.
#[derive(Clone)]
pub(crate) struct Blinding {
    /// r^e mod r_i, one per prime.
    pub(crate) r_e: Vec<Residue>,
    /// r⁻¹ mod n.
    pub(crate) r_inv: Residue,
}

/// A private key's cached blinding pairs (see the module documentation): empty until the first
/// CRT private operation, and in every clone.
pub(crate) struct BlindingCache {
    slots: Slots<Blinding>,
    /// Whether pairs are kept at all ([`BlindingCache::uncached`]).
    enabled: bool,
}

impl BlindingCache {
    /// An empty cache that keeps pairs if `enabled`.
    fn with(enabled: bool) -> Self {
        BlindingCache {
            slots: Slots::new(),
            enabled,
        }
    }

    /// An empty cache.
    pub(crate) fn new() -> Self {
        Self::with(true)
    }

    /// A cache that keeps nothing: every operation draws a fresh pair
    /// ([`RsaPrivateKey::without_blinding_cache`](crate::RsaPrivateKey::without_blinding_cache)).
    pub(crate) fn uncached() -> Self {
        Self::with(false)
    }

    /// The blinding of one CRT private operation: the pair of the first free slot moved on
    /// by `square` (in place; the operation gets a copy), or a pair from `fresh` when that
    /// slot is empty, used up or last used by another process, or when every slot is held by
    /// another thread (never waited for). A fresh pair drawn while holding a slot is kept
    /// there for the next operations unless its two draws were equal (`fresh`'s second value,
    /// secret): it may come from a stuck RNG. Without the cache, a fresh pair every time.
    ///
    /// # Constant time
    ///
    /// Which slot and which path are taken depend on the cache's state, the process and other
    /// threads, not on a secret; the one bit of `fresh`'s verdict that leaks is
    /// [`keep_if_draws_differ`]'s.
    pub(crate) fn take(
        &self,
        square: impl FnMut(&mut Blinding),
        mut fresh: impl FnMut() -> (Blinding, Choice),
    ) -> Blinding {
        if !self.enabled {
            return fresh().0;
        }
        let mut source = KeySource { square, fresh };
        self.slots.take(&mut source, process_id())
    }

    /// Drops (and so wipes) the cached pairs, but those another thread holds at this moment
    /// (an operation does not know which slot its pair came from: a fault drops them all).
    pub(crate) fn forget(&self) {
        self.slots.forget();
    }
}

impl Default for BlindingCache {
    fn default() -> Self {
        Self::new()
    }
}

/// A clone starts empty: a key and its clone never use one sequence of factors. It keeps
/// the key's choice of caching or not.
impl Clone for BlindingCache {
    fn clone(&self) -> Self {
        Self::with(self.enabled)
    }
}

/// The pair's residues wipe themselves on drop.
impl ZeroizeOnDrop for BlindingCache {}

/// The id of this process, which tags each kept pair: [`std::process::id`] (a `getpid`
/// system call; never cached, since a cache would be copied into a child by `fork()`). Without
/// `std`, 0: no fork detection.
fn process_id() -> u32 {
    #[cfg(feature = "std")]
    return std::process::id();
    #[cfg(not(feature = "std"))]
    0
}

/// A key's pairs, as the table asks for them: a kept one moved on to its next power
/// (`square`), or a fresh one from the caller's RNG (`fresh`, with whether its draws differ).
struct KeySource<S, F> {
    square: S,
    fresh: F,
}

impl<S, F> Source for KeySource<S, F>
where
    S: FnMut(&mut Blinding),
    F: FnMut() -> (Blinding, Choice),
{
    type Pair = Blinding;

    fn next(&mut self, pair: &mut Blinding) -> Blinding {
        (self.square)(pair);
        pair.clone()
    }

    fn fresh(&mut self) -> (Blinding, Option<Blinding>) {
        let (pair, apart) = (self.fresh)();
        let kept = keep_if_draws_differ(&pair, apart);
        (pair, kept)
    }
}

/// A copy of a fresh `pair` to keep if its two draws were `apart` (r ≠ s).
///
/// Never inlined: the constant-time check (`.ci/ct-check`) names this function in the
/// valgrind suppression of its one declassified bit.
#[inline(never)]
fn keep_if_draws_differ(pair: &Blinding, apart: Choice) -> Option<Blinding> {
    // Leaks: whether r = s, two independent uniform draws below n: equal with probability 1/n
    // from a working RNG, always from a stuck one (whose pair is then used once, not kept).
    if bool::from(apart) {
        Some(pair.clone())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    //! The pair against num-bigint: consistent over hundreds of uses and across refreshes,
    //! squared between uses, refreshed every 32; threads; clones; faults; stuck RNGs.
    // Test code: `unwrap` is the assertion; `%` and `/` on public use counts.
    #![allow(clippy::unwrap_used, clippy::integer_division_remainder_used)]

    use super::slots::Slot;
    use super::*;
    use crate::RsaPrivateKey;
    use crate::hazmat::{BatchPrivateOp, PrivateOp, PublicOp};
    use crate::key::PrivateKeyParts;
    use num_bigint::BigUint;
    use rand_chacha::ChaCha20Rng;
    use rand_core::{Rng, SeedableRng, TryCryptoRng, TryRng};
    use std::vec::Vec;

    fn big(limbs: &[bignum::Limb]) -> BigUint {
        let le: Vec<u8> = limbs.iter().flat_map(|l| l.to_le_bytes()).collect();
        BigUint::from_bytes_le(&le)
    }

    fn bytes(x: &BigUint, k: usize) -> Vec<u8> {
        let b = x.to_bytes_be();
        let mut out = vec![0u8; k - b.len()];
        out.extend(b);
        out
    }

    /// A new key (its integers beside), rebuilt from its parts: key generation's own
    /// consistency check runs a private operation, which leaves a pair in the generated key.
    fn key(bits: usize, seed: u64) -> (RsaPrivateKey, PrivateKeyParts) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let parts = RsaPrivateKey::new(&mut rng, bits).unwrap().to_parts();
        (RsaPrivateKey::from_parts(&parts).unwrap(), parts)
    }

    /// The slots of the key's blinding table.
    fn slots(key: &RsaPrivateKey) -> &[Slot<Blinding>] {
        &key.crt().blinding.slots.slots[..]
    }

    /// Counts the bytes drawn through it: an operation that draws any takes a fresh pair (the
    /// next power of a kept pair draws nothing).
    struct Counting(ChaCha20Rng, usize);
    impl TryRng for Counting {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            self.1 += 4;
            self.0.try_next_u32()
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            self.1 += 8;
            self.0.try_next_u64()
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            self.1 += dst.len();
            self.0.try_fill_bytes(dst)
        }
    }
    impl TryCryptoRng for Counting {}

    impl Counting {
        /// `key`'s private operation on `c` with this RNG, and whether it drew a fresh pair.
        fn private_op(&mut self, key: &RsaPrivateKey, c: &[u8]) -> (crate::Result<Vec<u8>>, bool) {
            let before = self.1;
            let out = key.private_op(self, c);
            (out, self.1 > before)
        }
    }

    /// The cached pair as plain integers: (r^e mod r_i for each prime, r⁻¹ mod n, uses).
    type Snapshot = (Vec<BigUint>, BigUint, u32);

    /// The first slot's pair, as a [`Snapshot`].
    fn snapshot(key: &RsaPrivateKey) -> Option<Snapshot> {
        let slot = slots(key)[0].0.try_lock().unwrap();
        let key = key.crt();
        slot.as_ref().map(|c| {
            let r_e = key
                .primes
                .iter()
                .zip(&c.pair.r_e)
                .map(|(p, x)| big(&p.m.retrieve(x)))
                .collect();
            let r_inv = big(&key.public.n_mod.retrieve(&c.pair.r_inv));
            (r_e, r_inv, c.uses)
        })
    }

    fn random_input(rng: &mut ChaCha20Rng, n: &BigUint, k: usize) -> (Vec<u8>, BigUint) {
        let mut c = vec![0u8; k];
        rng.fill_bytes(&mut c);
        let x = BigUint::from_bytes_be(&c) % n;
        (bytes(&x, k), x)
    }

    /// A new 1024-bit key from seed `key_seed`, with the oracle's n and d, an RNG for its
    /// blinding and one for its inputs.
    struct Fixture {
        key: RsaPrivateKey,
        parts: PrivateKeyParts,
        n: BigUint,
        d: BigUint,
        rng: ChaCha20Rng,
        inputs: ChaCha20Rng,
    }

    impl Fixture {
        fn new(key_seed: u64, rng_seed: u64, inputs_seed: u64) -> Fixture {
            let (key, parts) = key(1024, key_seed);
            Fixture {
                n: BigUint::from_bytes_be(&parts.n),
                d: BigUint::from_bytes_be(&parts.d),
                key,
                parts,
                rng: ChaCha20Rng::seed_from_u64(rng_seed),
                inputs: ChaCha20Rng::seed_from_u64(inputs_seed),
            }
        }

        /// The next input below n: its k bytes and its value.
        fn input(&mut self) -> (Vec<u8>, BigUint) {
            random_input(&mut self.inputs, &self.n, self.key.size())
        }

        /// RSADP of `x` by the oracle: x^d mod n in k bytes.
        fn rsadp(&self, x: &BigUint) -> Vec<u8> {
            bytes(&x.modpow(&self.d, &self.n), self.key.size())
        }

        /// The start of the tests that hold slots: a fixture whose first slot holds a pair
        /// (drawn by one operation), the input `c` of that operation, its value, and the
        /// pair's [`snapshot`].
        fn with_a_cached_pair(
            key_seed: u64,
            rng_seed: u64,
            inputs_seed: u64,
        ) -> (Fixture, Vec<u8>, BigUint, Snapshot) {
            let mut f = Fixture::new(key_seed, rng_seed, inputs_seed);
            let (c, x) = f.input();
            f.key.private_op(&mut f.rng, &c).unwrap();
            let before = snapshot(&f.key).unwrap();
            (f, c, x, before)
        }
    }

    #[test]
    fn cached_pair_stays_consistent_over_hundreds_of_uses_and_refreshes() {
        let mut f = Fixture::new(1, 2, 3);
        let e = BigUint::from_bytes_be(&f.parts.e);
        let primes: Vec<BigUint> = f
            .parts
            .primes
            .iter()
            .map(|p| BigUint::from_bytes_be(p))
            .collect();
        assert!(snapshot(&f.key).is_none(), "a new key has no pair");
        let mut last: Option<BigUint> = None;
        let mut refreshes = 0;
        for i in 0..300u32 {
            let (c, x) = f.input();
            let m = f.key.private_op(&mut f.rng, &c).unwrap();
            assert_eq!(m, f.rsadp(&x), "use {i}");
            let (r_e, r_inv, uses) = snapshot(&f.key).unwrap();
            assert_eq!(uses, i % REFRESH_USES + 1, "use {i}");
            // r^e·(r⁻¹)^e ≡ 1 modulo each prime, r⁻¹ invertible modulo n.
            for (p, re) in primes.iter().zip(&r_e) {
                assert_eq!(re * r_inv.modpow(&e, p) % p, BigUint::from(1u8), "use {i}");
            }
            let r = r_inv.modinv(&f.n).unwrap();
            for (p, re) in primes.iter().zip(&r_e) {
                assert_eq!(re, &r.modpow(&e, p), "use {i}");
            }
            // Squared between uses of one draw; a new draw every 32 uses.
            if let Some(prev) = last {
                let squared = &prev * &prev % &f.n;
                if uses == 1 {
                    assert_ne!(r_inv, squared, "use {i}: a refresh is a new draw");
                    refreshes += 1;
                } else {
                    assert_eq!(r_inv, squared, "use {i}");
                }
            }
            last = Some(r_inv);
        }
        assert_eq!(refreshes, 299 / REFRESH_USES);
    }

    #[test]
    fn many_threads_on_one_key_give_only_correct_results() {
        let (key, _) = key(1024, 4);
        let public = key.public_key().clone();
        std::thread::scope(|s| {
            for t in 0..8u64 {
                let (key, public) = (&key, &public);
                s.spawn(move || {
                    let mut rng = ChaCha20Rng::seed_from_u64(100 + t);
                    for _ in 0..50 {
                        let mut m = vec![0u8; key.size()];
                        rng.fill_bytes(&mut m[1..]);
                        let c = public.public_op(&m).unwrap();
                        assert_eq!(key.private_op(&mut rng, &c).unwrap(), m);
                    }
                });
            }
        });
        // Still a consistent pair after the contention.
        let (r_e, r_inv, _) = snapshot(&key).unwrap();
        let parts = key.to_parts();
        let e = BigUint::from_bytes_be(&parts.e);
        for (p, re) in parts.primes.iter().zip(&r_e) {
            let p = BigUint::from_bytes_be(p);
            assert_eq!(re * r_inv.modpow(&e, &p) % &p, BigUint::from(1u8));
        }
    }

    #[test]
    fn a_held_slot_is_not_waited_for_and_not_touched() {
        let (mut f, c, x, before) = Fixture::with_a_cached_pair(5, 6, 7);
        {
            let _held = slots(&f.key)[0].0.try_lock().unwrap();
            // Another "thread" holds the first slot: the operation takes the second, which
            // draws a pair of its own and keeps it.
            for _ in 0..3 {
                let m = f.key.private_op(&mut f.rng, &c).unwrap();
                assert_eq!(m, f.rsadp(&x));
            }
            let second = slots(&f.key)[1].0.try_lock().unwrap();
            assert_eq!(second.as_ref().map(|p| p.uses), Some(3));
        }
        assert_eq!(snapshot(&f.key).unwrap(), before);
    }

    #[test]
    fn with_every_slot_held_an_operation_draws_its_own_and_keeps_nothing() {
        let (f, c, x, before) = Fixture::with_a_cached_pair(5, 6, 7);
        let held: Vec<_> = slots(&f.key)[1..]
            .iter()
            .map(|s| s.0.try_lock().unwrap())
            .collect();
        let first = slots(&f.key)[0].0.try_lock().unwrap();
        let (m, fresh) = Counting(f.rng.clone(), 0).private_op(&f.key, &c);
        assert_eq!(m.unwrap(), f.rsadp(&x));
        assert!(fresh, "the operation drew a pair of its own");
        drop((first, held));
        assert_eq!(snapshot(&f.key).unwrap(), before);
        assert!(
            slots(&f.key)[1..]
                .iter()
                .all(|s| s.0.try_lock().unwrap().is_none())
        );
    }

    #[test]
    fn threads_on_one_key_draw_one_fresh_pair_per_32_uses_of_a_slot() {
        // With no more threads than slots, a thread always finds a slot free (it holds none
        // itself), so fresh pairs are drawn only when a slot is empty or used up: at most one
        // per 32 uses of each slot, plus one to fill each slot. A single slot would draw one
        // more for every operation that met it held. Each thread counts the operations that
        // drew from its blinding RNG: those that took a fresh pair.
        let (key, _) = key(1024, 21);
        let public = key.public_key().clone();
        let (threads, per_thread) = (SLOTS, 40usize);
        let fresh: usize = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let (key, public) = (&key, &public);
                    s.spawn(move || {
                        let mut rng = ChaCha20Rng::seed_from_u64(200 + t as u64);
                        let mut blinding = Counting(ChaCha20Rng::seed_from_u64(300 + t as u64), 0);
                        let mut fresh = 0;
                        for _ in 0..per_thread {
                            let mut m = vec![0u8; key.size()];
                            rng.fill_bytes(&mut m[1..]);
                            let c = public.public_op(&m).unwrap();
                            let (out, drew) = blinding.private_op(key, &c);
                            assert_eq!(out.unwrap(), m);
                            fresh += usize::from(drew);
                        }
                        fresh
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).sum()
        });
        let ops = threads * per_thread;
        let bound = ops / REFRESH_USES as usize + SLOTS;
        assert!(
            fresh <= bound,
            "{fresh} fresh pairs for {ops} operations (bound {bound})"
        );
        assert!(
            fresh >= ops / REFRESH_USES as usize,
            "{fresh} fresh pairs for {ops} operations"
        );
    }

    #[test]
    fn a_pair_last_used_by_another_process_is_dropped_for_a_fresh_one() {
        let (mut f, c, x, before) = Fixture::with_a_cached_pair(30, 31, 32);
        // As in a child after fork(): the slot's pair carries another process's id.
        slots(&f.key)[0].0.try_lock().unwrap().as_mut().unwrap().pid ^= 1;
        let (m, fresh) = Counting(f.rng.clone(), 0).private_op(&f.key, &c);
        assert_eq!(m.unwrap(), f.rsadp(&x));
        assert!(fresh, "the operation drew a fresh pair");
        let (_, r_inv, uses) = snapshot(&f.key).unwrap();
        assert_eq!(uses, 1, "a new draw's first use");
        let squared = &before.1 * &before.1 % &f.n;
        assert_ne!(r_inv, squared, "not the old pair's next power");
        assert_ne!(r_inv, before.1);
        // And from then on it is this process's pair: squared at the next use.
        f.key.private_op(&mut f.rng, &c).unwrap();
        assert_eq!(snapshot(&f.key).unwrap().1, &r_inv * &r_inv % &f.n);
    }

    #[test]
    fn a_clone_starts_without_a_pair() {
        let (key, _) = key(1024, 8);
        let mut rng = ChaCha20Rng::seed_from_u64(9);
        let mut c1 = vec![3u8; key.size()];
        c1[0] = 0;
        key.private_op(&mut rng, &c1).unwrap();
        let clone = key.clone();
        assert!(snapshot(&key).is_some());
        assert!(snapshot(&clone).is_none());
        clone.private_op(&mut rng, &c1).unwrap();
        let (a, b) = (snapshot(&key).unwrap(), snapshot(&clone).unwrap());
        assert_ne!(a.1, b.1, "the clone drew its own pair");
    }

    #[test]
    fn without_the_cache_every_operation_draws_and_nothing_is_kept() {
        let (key, _) = key(1024, 12);
        let key = key.without_blinding_cache();
        let mut rng = Counting(ChaCha20Rng::seed_from_u64(13), 0);
        let mut m = vec![5u8; key.size()];
        m[0] = 0;
        let c = key.public_key().public_op(&m).unwrap();
        for k in [&key, &key.clone(), &key] {
            let before = rng.1;
            assert_eq!(k.private_op(&mut rng, &c).unwrap(), m);
            assert!(rng.1 > before, "each operation draws its blinding");
            assert!(snapshot(k).is_none(), "and keeps no pair");
        }
    }

    #[test]
    fn a_corrupted_pair_gives_a_fault_never_a_wrong_result_and_is_dropped() {
        let mut f = Fixture::new(10, 11, 12);
        let (c, x) = f.input();
        let want = f.rsadp(&x);
        let (key, mut rng) = (&f.key, f.rng);
        // Each half of the pair, corrupted in turn (times 2 modulo its modulus).
        for half in 0..=key.prime_count() {
            key.private_op(&mut rng, &c).unwrap();
            {
                let mut slot = slots(key)[0].0.try_lock().unwrap();
                let pair = &mut slot.as_mut().unwrap().pair;
                if half < key.prime_count() {
                    let m = &key.crt().primes[half].m;
                    pair.r_e[half] = m.add(&pair.r_e[half], &pair.r_e[half]);
                } else {
                    let m = &key.crt().public.n_mod;
                    pair.r_inv = m.add(&pair.r_inv, &pair.r_inv);
                }
            }
            assert_eq!(key.private_op(&mut rng, &c), Err(crate::Error::Fault));
            assert!(snapshot(key).is_none(), "the faulty pair is forgotten");
            assert_eq!(key.private_op(&mut rng, &c).unwrap(), want);
        }
        // A pair that is wrong but consistent (r = 1: r^e = 1, r⁻¹ = 1) still gives the right
        // result: the check is on the output, not on the pair.
        {
            let mut slot = slots(key)[0].0.try_lock().unwrap();
            let pair = &mut slot.as_mut().unwrap().pair;
            for (p, r_e) in key.crt().primes.iter().zip(pair.r_e.iter_mut()) {
                *r_e = p.m.one();
            }
            pair.r_inv = key.crt().public.n_mod.one();
        }
        assert_eq!(key.private_op(&mut rng, &c).unwrap(), want);
    }

    #[test]
    fn a_batch_takes_its_blindings_from_the_cache() {
        let mut f = Fixture::new(15, 17, 16);
        let cases: Vec<(Vec<u8>, BigUint)> = (0..70).map(|_| f.input()).collect();
        let refs: Vec<&[u8]> = cases.iter().map(|(c, _)| c.as_slice()).collect();
        let out = crate::Batch::new()
            .threads(2)
            .private_op(&f.key, &mut f.rng, &refs);
        for ((_, x), m) in cases.iter().zip(out) {
            assert_eq!(m.unwrap(), f.rsadp(x));
        }
        // 70 uses: two pairs of 32, then 6 of a third.
        assert_eq!(snapshot(&f.key).unwrap().2, 70 % REFRESH_USES);
    }

    /// An RNG stuck on one byte value (as `RecordingRng` after a failure).
    struct Stuck;
    impl TryRng for Stuck {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(0x5a5a_5a5a)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(0x5a5a_5a5a_5a5a_5a5a)
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            dst.fill(0x5a);
            Ok(())
        }
    }
    impl TryCryptoRng for Stuck {}

    #[test]
    fn a_stuck_rng_never_leaves_a_pair_behind() {
        // The blinding RNG is `Stuck`; the fixture's own is not used.
        let mut f = Fixture::new(13, 0, 14);
        let (c, x) = f.input();
        for _ in 0..3 {
            let m = f.key.private_op(&mut Stuck, &c).unwrap();
            assert_eq!(m, f.rsadp(&x));
            assert!(snapshot(&f.key).is_none());
        }
    }
}
