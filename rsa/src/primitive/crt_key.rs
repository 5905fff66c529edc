//! The CRT key ([`CrtKey`]): a private key's values with what its private operations keep
//! beside them, the blinding table ([`blinding`](super::blinding)) and, on a coalescing key,
//! the meeting point of its concurrent callers ([`MeetingPoint`], `coalesce`'s coalescer);
//! and the CRT private operation as its methods, stage by stage (the parent module's
//! documentation has the order and the reasons):
//!
//! - the single operation, [`CrtKey::private_op`]: [`crt_prepare`](CrtKey::crt_prepare)
//!   (input checks, blinding, reductions modulo each prime), then on a coalescing key the
//!   meeting point, else [`crt_exponentiate`](CrtKey::crt_exponentiate) (one interleaved pair
//!   for p and q) and [`crt_finish`](CrtKey::crt_finish) (Garner, unblinding, the fault check,
//!   the output);
//! - the stages that [`Batch`](crate::Batch) and the coalescer run over many items:
//!   [`crt_input`](CrtKey::crt_input) and [`blinding_for_op`](CrtKey::blinding_for_op) on the
//!   calling thread, [`blind_with`](CrtKey::blind_with), then
//!   [`CrtKey::exponentiate_and_finish`] over a group (the eight lanes of `pow_batch` where the
//!   items fill them, else each item's own pair, then each item's `crt_finish`);
//! - the plain operation without the CRT, [`CrtKey::private_op_plain`].
//!
//! The key's values come validated from `key` ([`PrivateValues`]); the public
//! [`RsaPrivateKey`](crate::RsaPrivateKey) holds one `CrtKey` and calls it for every private
//! operation. Nothing here knows the padding schemes, the encodings, or the coalescer's type.

use alloc::boxed::Box;
use alloc::{vec, vec::Vec};
use core::any::Any;
use core::panic::UnwindSafe;

use bignum::backend::path_for_batch;
use bignum::modular::{
    BATCH_LANES, Modulus, PowJob, PowJobVartime, Residue, pow_batch, pow_pair, pow_pair_vartime,
};
use bignum::{Limb, Nat, mpn};
use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::{ZeroizeOnDrop, Zeroizing};

use super::blinding::{Blinding, BlindingCache};
use crate::key::{CrtPrime, PrivateKeyParts, PrivateValues, RsaPublicKey, private_mul, to_parts};
use crate::{Error, Result};

#[cfg(feature = "test-hooks")]
mod hooks;

/// The CRT items per group of [`CrtKey::exponentiate_and_finish`]: four 2-prime items fill the
/// eight lanes.
pub(crate) const ITEMS_PER_GROUP: usize = BATCH_LANES >> 1;

/// A private key's values (n, e, d, the primes with their CRT values, the Montgomery contexts
/// of n and of every prime computed once), its table of cached blinding pairs, and the meeting
/// point of its concurrent callers if it coalesces them; the CRT private operation's stages
/// are its methods (see the module documentation).
///
/// The private values are held in `bignum::modular` types and `Zeroizing` buffers and are
/// wiped on drop. A clone keeps the values and the choices (caching blinding pairs or not,
/// coalescing or not) but starts with an empty table and a meeting point of its own.
///
/// Its fields are `primitive`'s (the blinding table's tests read them); other modules call its
/// methods.
pub(crate) struct CrtKey {
    pub(super) public: RsaPublicKey,
    /// d, as many limbs as n.
    pub(super) d: Zeroizing<Vec<Limb>>,
    /// p, q, then r_3, … with their CRT values.
    pub(super) primes: Vec<CrtPrime>,
    /// The cached blinding pairs of the CRT private operation (empty in a new key and in
    /// every clone).
    pub(super) blinding: BlindingCache,
    /// Where concurrent callers meet, if the key coalesces their operations; none in a new key.
    meeting: Option<Box<dyn MeetingPoint>>,
}

/// Where the concurrent callers of one key meet to run their operations together: the
/// coalescer of `coalesce`, which a coalescing key holds. The key hands it each operation
/// after the first stage; it runs the rest, in a pass with other callers' or alone.
///
/// A trait, so that this module needs nothing of the coalescer above it, and so that the
/// test-hooks build can put a coalescer with hooks in a key's place. `Send + Sync +
/// UnwindSafe`: a key is all three, with or without a meeting point. `Any`: the test doors
/// find their coalescer behind a key by its type.
pub(crate) trait MeetingPoint: Any + Send + Sync + UnwindSafe {
    /// The rest of `key`'s CRT private operation on `input` (after
    /// [`crt_prepare`](CrtKey::crt_prepare)): the exponentiations and the last stage, with
    /// other callers' where they are waiting.
    fn run(&self, key: &CrtKey, input: CrtInput) -> Result<Vec<u8>>;

    /// The most passes that run at once.
    // Without `std` no meeting point exists, and nothing asks.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    fn passes(&self) -> usize;

    /// A meeting point with the same settings and no caller, for a clone of the key: keys
    /// never share a queue.
    fn for_clone(&self) -> Box<dyn MeetingPoint>;
}

impl CrtKey {
    /// A key of validated values, with an empty blinding table and no meeting point.
    pub(crate) fn new(values: PrivateValues) -> Self {
        let PrivateValues { public, d, primes } = values;
        CrtKey {
            public,
            d,
            primes,
            blinding: BlindingCache::new(),
            meeting: None,
        }
    }

    /// The public half of the key.
    pub(crate) fn public(&self) -> &RsaPublicKey {
        &self.public
    }

    /// d, as many limbs as n (SECRET).
    pub(crate) fn d(&self) -> &[Limb] {
        &self.d
    }

    /// How many primes the key has.
    pub(crate) fn prime_count(&self) -> usize {
        self.primes.len()
    }

    /// The integers of the key, big-endian without leading zeros (PKCS #1 order).
    ///
    /// # Constant time
    ///
    /// The conversions depend on the limb counts; the byte length of each value leaks, as it
    /// does in any DER encoding.
    pub(crate) fn to_parts(&self) -> PrivateKeyParts {
        to_parts(&self.public, &self.d, &self.primes)
    }

    /// From now on every CRT private operation draws a fresh blinding pair and keeps none
    /// (the table is emptied; clones keep the choice).
    pub(crate) fn keep_no_blinding_pairs(&mut self) {
        self.blinding = BlindingCache::uncached();
    }

    /// From now on the CRT private operations meet at `point` (after their first stage).
    #[cfg(feature = "std")]
    pub(crate) fn meet_at(&mut self, point: Box<dyn MeetingPoint>) {
        self.meeting = Some(point);
    }

    /// The meeting point of the key's callers, if it coalesces them.
    #[cfg(feature = "std")]
    pub(crate) fn meeting_point(&self) -> Option<&dyn MeetingPoint> {
        self.meeting.as_deref()
    }

    /// RSADP / RSASP1 with the CRT, blinding and the fault check (the documentation of
    /// [`PrivateOp::private_op`](crate::hazmat::PrivateOp::private_op) has the contract): the
    /// first stage on the caller's thread, then the meeting point on a coalescing key, else
    /// the exponentiations and the last stage here.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`], [`Error::InputOutOfRange`] from the input checks;
    /// [`Error::Fault`] if the result fails its check.
    pub(crate) fn private_op<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        c: &[u8],
    ) -> Result<Vec<u8>> {
        let input = self.crt_prepare(rng, c)?;
        if let Some(point) = &self.meeting {
            // With the other callers of this moment, on the eight lanes (`coalesce`).
            return point.run(self, input);
        }
        let ms = self.crt_exponentiate(&input);
        self.crt_finish(&input, &ms)
    }

    /// RSADP / RSASP1 without the CRT or blinding: c^d mod n, checked with the public exponent
    /// (the documentation of
    /// [`PrivateOp::private_op_plain`](crate::hazmat::PrivateOp::private_op_plain) has the
    /// contract).
    ///
    /// # Constant time
    ///
    /// The exponentiation is constant-time with the bit length of n as d's public length
    /// (d < n); only the verdict of the check leaks.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLength`], [`Error::InputOutOfRange`] from the input checks;
    /// [`Error::Fault`] if the result fails its check.
    pub(crate) fn private_op_plain(&self, c: &[u8]) -> Result<Vec<u8>> {
        let x = self.public.input(c)?;
        let n_mod = &self.public.n_mod;
        let m = n_mod.retrieve(&n_mod.pow(&n_mod.reduce(&x), &self.d, n_mod.bits()));
        let mut check = Zeroizing::new(vec![0; m.len()]);
        n_mod.pow_limbs_vartime(&mut check, &m, self.public.e.as_limbs());
        let ok = check.as_slice().ct_eq(x.as_slice());
        self.output(&m, ok)
    }

    /// The first stage of the CRT private operation (shared by the single and the batch
    /// operation): the input checks, the blinding, the reductions modulo each prime.
    pub(crate) fn crt_prepare<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        c: &[u8],
    ) -> Result<CrtInput> {
        let x = self.crt_input(c)?;
        let blinding = self.blinding_for_op(rng);
        Ok(self.blind_with(&x, blinding))
    }

    /// A fresh blinding: r and s drawn from `rng` (again while r·s is not invertible, with
    /// probability about 2^(1 − bits/2)), r⁻¹ by the blinded inverse
    /// ([`blinded_inverse`](Self::blinded_inverse)), r^e modulo each prime; and whether r ≠ s,
    /// still secret (see `blinding`: a pair whose draws were equal may come from a stuck RNG
    /// and is not cached).
    pub(crate) fn fresh_blinding<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> (Blinding, Choice) {
        loop {
            let draw = self.draw_blinding(rng);
            // Leaks: whether r·s shared a factor with n (or was 0), which happens with
            // negligible probability; r and s are then discarded.
            if let Some(r_inv) = self.blinded_inverse(&draw.r, &draw.s) {
                let apart = !draw.r.ct_eq(&draw.s);
                return (self.blinding_of(&draw.r, r_inv), apart);
            }
        }
    }

    /// The first stage's input checks ([`Error::InvalidLength`], [`Error::InputOutOfRange`]):
    /// the input as limbs, for [`blind_with`](Self::blind_with).
    pub(crate) fn crt_input(&self, c: &[u8]) -> Result<Zeroizing<Vec<Limb>>> {
        self.public.input(c)
    }

    /// The blinding of one CRT private operation, from the key's table
    /// ([`BlindingCache::take`]): the pair of the first free slot squared (a copy of it), or
    /// a fresh one from `rng` when that slot is empty, used up or last used by another
    /// process, or when every slot is held by another thread (never waited for). A fresh pair
    /// drawn while holding a slot is kept there for the next operations unless it may come
    /// from a stuck RNG.
    ///
    /// # Constant time
    ///
    /// The squarings are constant-time; which slot and which path are taken depend on the
    /// table's state, the process and other threads, not on a secret. A fresh draw leaks as
    /// [`fresh_blinding`](Self::fresh_blinding).
    pub(crate) fn blinding_for_op<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> Blinding {
        self.blinding
            .take(|pair| self.square_pair(pair), || self.fresh_blinding(rng))
    }

    /// r → r²: both halves of the pair squared, r^e modulo each prime and r⁻¹ modulo n.
    ///
    /// # Constant time
    ///
    /// Montgomery squarings: depends on the limb counts only.
    fn square_pair(&self, pair: &mut Blinding) {
        for (p, r_e) in self.primes.iter().zip(pair.r_e.iter_mut()) {
            *r_e = p.m.sqr(r_e);
        }
        pair.r_inv = self.public.n_mod.sqr(&pair.r_inv);
    }

    /// The random values of one blinding, the part of a fresh blinding that needs the RNG: r,
    /// uniform in [0, n), and s, which masks r in its inverse (see
    /// [`blinded_inverse`](Self::blinded_inverse)), both in n's Montgomery form.
    pub(crate) fn draw_blinding<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> BlindingDraw {
        let n_mod = &self.public.n_mod;
        let r = n_mod.random(rng);
        let s = n_mod.random(rng);
        BlindingDraw { r, s }
    }

    /// The blinding pair of r (n's Montgomery form; r_inv its inverse): r^e is formed modulo
    /// each prime ((r mod r_i)^e), which costs about half of r^e mod n: the exponentiation by
    /// e is on values of half the length; p and q as one pair where the 52-bit engine runs.
    pub(crate) fn blinding_of(&self, r: &Residue, r_inv: Residue) -> Blinding {
        let r_e = self.pow_e_mod_each_prime(&self.public.n_mod.retrieve(r));
        Blinding { r_e, r_inv }
    }

    /// The blinding of a checked input x by a blinding whose r^e is given modulo each prime,
    /// and the reductions of x modulo each prime: c'_i = (c mod r_i)·(r^e mod r_i).
    pub(crate) fn blind_with(&self, x: &[Limb], blinding: Blinding) -> CrtInput {
        // c mod r_i, kept for the check at the end; through the secret moduli's constant-time
        // reduction.
        let xs: Vec<Residue> = self.primes.iter().map(|p| p.m.reduce(x)).collect();
        let blinded: Vec<Residue> = self
            .primes
            .iter()
            .zip(xs.iter().zip(&blinding.r_e))
            .map(|(p, (xi, rei))| p.m.mul(xi, rei))
            .collect();
        CrtInput {
            xs,
            blinded,
            r_inv: blinding.r_inv,
        }
    }

    /// The exponentiations of the CRT private operation, one per prime: c'^(d_i) mod r_i.
    pub(crate) fn crt_jobs<'a>(&'a self, input: &'a CrtInput) -> Vec<PowJob<'a>> {
        self.primes
            .iter()
            .zip(&input.blinded)
            .map(|(p, base)| PowJob {
                modulus: &p.m,
                base,
                exp: &p.exp,
                exp_bits: p.m.bits(),
            })
            .collect()
    }

    /// RFC 8017 §5.1.2, step 2.b.i: m_i = c'^(d_i) mod r_i; the first two (p and q) as one
    /// interleaved pair where the 52-bit engine runs (`bignum::modular::pow_pair`).
    pub(crate) fn crt_exponentiate(&self, input: &CrtInput) -> Vec<Residue> {
        let jobs = self.crt_jobs(input);
        let (m1, m2) = pow_pair(&jobs[0], &jobs[1]);
        let mut ms = vec![m1, m2];
        ms.extend(
            jobs[2..]
                .iter()
                .map(|j| j.modulus.pow(j.base, j.exp, j.exp_bits)),
        );
        ms
    }

    /// The last stage of the CRT private operation: Garner's recombination of the
    /// exponentiations' results `ms` (one per prime), the unblinding, the fault check and the
    /// output.
    pub(crate) fn crt_finish(&self, input: &CrtInput, ms: &[Residue]) -> Result<Vec<u8>> {
        let m = self.garner(ms);
        let out = self.unblind(input, &m);
        let ok = self.check(input, &out);
        let result = self.output(&out, ok);
        if result.is_err() {
            // The verdict is public (`output`). The fault may have been in the cached
            // blinding pair: drop it, so that the next operation draws a fresh one rather than
            // fault again on the pair's squares.
            self.blinding.forget();
        }
        result
    }

    /// Garner's recombination of the exponentiations' results `ms` (one per prime): the value
    /// below n that they are modulo each prime, plain, in at least n's limbs plus one.
    pub(crate) fn garner(&self, ms: &[Residue]) -> Zeroizing<Vec<Limb>> {
        let nl = self.public.n_mod.limb_len();
        // Step 2.b.ii–iii: h = (m_1 − m_2)·qInv mod p, m = m_2 + q·h.
        let (p, q) = (&self.primes[0], &self.primes[1]);
        let m2 = q.m.retrieve(&ms[1]);
        let diff = p.m.sub(&ms[0], &p.m.reduce(&m2));
        let h = p.m.retrieve(&p.m.mul(&diff, coeff(p)));
        let total: usize = self.primes.iter().map(|p| p.m.limb_len()).sum();
        let mut m = Zeroizing::new(vec![0; total.max(nl) + 1]);
        let qh = private_mul(q.m.as_limbs(), &h);
        add_into(&mut m, &qh);
        add_into(&mut m, &m2);
        // Step 2.b.iv (multi-prime): for i ≥ 3, h = (m_i − m)·t_i mod r_i, m = m + R_i·h,
        // with R_i = r_1·…·r_(i−1).
        for (ri, mi) in self.primes.iter().zip(ms).skip(2) {
            let diff = ri.m.sub(mi, &ri.m.reduce(&m));
            let h = ri.m.retrieve(&ri.m.mul(&diff, coeff(ri)));
            add_into(&mut m, &private_mul(&ri.product, &h));
        }
        m
    }

    /// The unblinding: m'·r⁻¹ mod n, plain (n limbs). Garner's m' is below n (a value modulo
    /// the product of the primes), so its low n limbs are all of it (the rest are zero).
    pub(crate) fn unblind(&self, input: &CrtInput, m: &[Limb]) -> Zeroizing<Vec<Limb>> {
        let n_mod = &self.public.n_mod;
        let nl = n_mod.limb_len();
        let mut out = Zeroizing::new(vec![0; nl]);
        n_mod.mul_retrieve(&mut out, &input.r_inv, &m[..nl]);
        out
    }

    /// The fault check, before anything leaves: out^e ≡ c modulo every prime, which by the
    /// CRT is out^e ≡ c (mod n), at about half the cost of the check modulo n.
    pub(crate) fn check(&self, input: &CrtInput, out: &[Limb]) -> Choice {
        let mut ok = Choice::from(1);
        for (oe, xi) in self.pow_e_mod_each_prime(out).iter().zip(&input.xs) {
            ok &= oe.ct_eq(xi);
        }
        ok
    }

    /// x^e modulo each prime, for a plain x (n limbs, secret): the first two as one interleaved
    /// pair where the 52-bit engine runs (`bignum::modular::pow_pair_vartime`; e is public).
    fn pow_e_mod_each_prime(&self, x: &[Limb]) -> Vec<Residue> {
        let e = self.public.e.as_limbs();
        let bases: Vec<Residue> = self.primes.iter().map(|p| p.m.reduce(x)).collect();
        let job = |i: usize| PowJobVartime {
            modulus: &self.primes[i].m,
            base: &bases[i],
            exp: e,
        };
        let (a, b) = pow_pair_vartime(&job(0), &job(1));
        let mut out = vec![a, b];
        out.extend((2..self.primes.len()).map(|i| self.primes[i].m.pow_vartime(&bases[i], e)));
        out
    }

    /// r⁻¹ = (r·s)⁻¹·s mod n, or none if r·s is not invertible.
    ///
    /// The inverse is blinded (as BoringSSL's `bn_mod_inverse_blinded`): a = r·s mod n is
    /// uniform and independent of r, so it may be declassified and inverted in variable time
    /// (Lehmer's extended Euclid, [`Nat::inv_mod_vartime`]); then r⁻¹ = a⁻¹·s. The
    /// constant-time inverse of `bignum::modular` costs more than the CRT exponentiations
    /// themselves at 2048 bits.
    ///
    /// Not checked here (r·r⁻¹ = 1 would cost a multiplication): the private operation
    /// checks its final result with the public exponent after unblinding, so a wrong inverse
    /// could only ever turn into [`Error::Fault`], never into a wrong output.
    ///
    /// Never inlined: the constant-time check (`.ci/ct-check`) names this function in the
    /// valgrind suppression of the declassified a.
    #[inline(never)]
    pub(crate) fn blinded_inverse(&self, r: &Residue, s: &Residue) -> Option<Residue> {
        let n_mod = &self.public.n_mod;
        let a = Nat::from_limbs(&n_mod.retrieve(&n_mod.mul(r, s)));
        let a_inv = a.inv_mod_vartime(&self.public.n)?;
        Some(n_mod.mul(&n_mod.reduce(a_inv.as_limbs()), s))
    }

    /// The result (n plain limbs) as k bytes if `ok`, else [`Error::Fault`] with the buffer
    /// zeroed by mask.
    ///
    /// Never inlined: the constant-time check (`.ci/ct-check`) names this function in the
    /// valgrind suppression of its one declassified bit.
    #[inline(never)]
    pub(crate) fn output(&self, m: &[Limb], ok: Choice) -> Result<Vec<u8>> {
        let mut out = vec![0; self.public.k];
        mpn::to_be_bytes(&mut out, m);
        let keep = 0u8.wrapping_sub(ok.unwrap_u8());
        for b in out.iter_mut() {
            *b &= keep;
        }
        // Leaks: whether the private operation faulted, which is the function's output.
        if bool::from(ok) {
            Ok(out)
        } else {
            Err(Error::Fault)
        }
    }

    /// The exponentiations of blinded items (eight lanes where they fit, else each item's own
    /// path) and each item's last stage ([`crt_finish`](Self::crt_finish)): one result per
    /// item, in order. The middle of a [`Batch`](crate::Batch)'s group and of a coalesced pass
    /// (`coalesce`).
    pub(crate) fn exponentiate_and_finish(items: &[(&CrtKey, &CrtInput)]) -> Vec<Result<Vec<u8>>> {
        let jobs: Vec<PowJob<'_>> = items
            .iter()
            .flat_map(|(key, input)| key.crt_jobs(input))
            .collect();
        let lanes_fit = jobs.len() >= BATCH_LANES && share_lanes(jobs.iter().map(|j| j.modulus));
        let ms: Vec<Vec<Residue>> = if lanes_fit {
            let mut all = pow_batch(&jobs).into_iter();
            items
                .iter()
                .map(|(key, _)| all.by_ref().take(key.primes.len()).collect())
                .collect()
        } else {
            items
                .iter()
                .map(|(key, input)| key.crt_exponentiate(input))
                .collect()
        };
        items
            .iter()
            .zip(&ms)
            .map(|((key, input), m)| key.crt_finish(input, m))
            .collect()
    }

    /// Whether the key's CRT items can fill the eight lanes together: two primes whose moduli
    /// [`share_lanes`].
    #[cfg(feature = "std")]
    pub(crate) fn fills_lanes(&self) -> bool {
        self.primes.len() == 2 && share_lanes(self.primes.iter().map(|p| &p.m))
    }

    /// The bit length of the key's largest prime.
    #[cfg(feature = "std")]
    pub(crate) fn largest_prime_bits(&self) -> usize {
        self.primes.iter().map(|p| p.m.bits()).max().unwrap_or(0)
    }
}

/// A clone keeps the values and the choices, with an empty blinding table
/// ([`BlindingCache`]'s `Clone`) and a meeting point of its own
/// ([`MeetingPoint::for_clone`]).
impl Clone for CrtKey {
    fn clone(&self) -> Self {
        CrtKey {
            public: self.public.clone(),
            d: self.d.clone(),
            primes: self.primes.clone(),
            blinding: self.blinding.clone(),
            meeting: self.meeting.as_ref().map(|point| point.for_clone()),
        }
    }
}

/// The private values wipe themselves on drop (`Zeroizing`, `Modulus`, `Residue`), and so do
/// the blinding table's pairs.
impl ZeroizeOnDrop for CrtKey {}

/// The random values of one blinding ([`CrtKey::draw_blinding`]); wiped on drop (the
/// residues wipe themselves).
pub(crate) struct BlindingDraw {
    pub(crate) r: Residue,
    pub(crate) s: Residue,
}

/// A CRT private operation's input after [`CrtKey::crt_prepare`]: what the
/// exponentiations and [`CrtKey::crt_finish`] need. Secret; wiped on drop (its parts
/// are [`Residue`]s).
pub(crate) struct CrtInput {
    /// c mod r_i, for the fault check.
    xs: Vec<Residue>,
    /// The blinded input c' mod r_i: the exponentiations' bases.
    blinded: Vec<Residue>,
    /// r⁻¹ mod n, in Montgomery form, for the unblinding.
    r_inv: Residue,
}

/// The CRT coefficient of a prime that has one (p and r_i, i ≥ 3).
fn coeff(p: &CrtPrime) -> &Residue {
    p.coeff
        .as_ref()
        .expect("p and every prime after q carry a coefficient")
}

/// acc += b, `acc` longer than `b`, the sum fitting `acc` (carry propagated over its length).
fn add_into(acc: &mut [Limb], b: &[Limb]) {
    let (lo, hi) = acc.split_at_mut(b.len());
    let c = mpn::add_assign_n(lo, b);
    mpn::add_assign_1(hi, c);
}

/// Whether `moduli` can share the eight lanes: `bignum::backend` sends groups to the batch
/// engine ([`path_for_batch`]) and every modulus takes the batch engine's digit count of the
/// first.
fn share_lanes<'a>(mut moduli: impl Iterator<Item = &'a Modulus>) -> bool {
    let Some(first) = moduli.next() else {
        return false;
    };
    path_for_batch().is_some() && moduli.all(|m| m.batches_with(first))
}
