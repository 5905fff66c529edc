//! The test-hooks build's ways into a CRT key (feature `test-hooks`: never in a user's build),
//! behind the doors of `test_hooks.rs` and the coalescer's hooks: the operation after its
//! first stage (which the door runs) with a fault injected between the later ones, the
//! operation stage by stage, the secrets' buffers and the
//! first blinding pair for the constant-time drivers, a blinding slot held, and inputs
//! corrupted or poisoned as they reach the coalescer. The
//! production stages carry no flag for any of it: each is composed here from those stages.

use alloc::{vec, vec::Vec};

use bignum::Limb;
use rand_core::CryptoRng;

use super::{CrtInput, CrtKey};
use crate::{Error, Result};

impl CrtKey {
    /// The CRT private operation after its first stage ([`crt_prepare`](CrtKey::crt_prepare),
    /// which gave `input`), with a fault injected in the half modulo p between the
    /// exponentiations and the last stage: the fault check must catch it.
    ///
    /// # Errors
    ///
    /// [`Error::Fault`], from the fault check.
    pub(crate) fn finish_with_injected_fault_for_tests(&self, input: &CrtInput) -> Result<Vec<u8>> {
        let mut ms = self.crt_exponentiate(input);
        let p = &self.primes[0].m;
        ms[0] = p.add(&ms[0], &p.one());
        self.crt_finish(input, &ms)
    }

    /// The CRT private operation on a fresh blinding, stage by stage, calling `mark` after each
    /// with the stage's name (`input`, `draw`, `inverse`, `blinding`, `exponentiations`,
    /// `garner`, `unblinding`, `check`, `output`): the production stages in the production
    /// order, only the calls to `mark` added.
    ///
    /// # Errors
    ///
    /// As the private operation (a non-invertible r, which the operation would draw again,
    /// is [`Error::Fault`] here).
    pub(crate) fn private_op_by_stages_for_tests<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        c: &[u8],
        mark: &mut dyn FnMut(&'static str),
    ) -> Result<Vec<u8>> {
        let x = self.crt_input(c)?;
        mark("input");
        let draw = self.draw_blinding(rng);
        mark("draw");
        let r_inv = self.blinded_inverse(&draw.r, &draw.s).ok_or(Error::Fault)?;
        mark("inverse");
        let input = self.blind_with(&x, self.blinding_of(&draw.r, r_inv));
        mark("blinding");
        let ms = self.crt_exponentiate(&input);
        mark("exponentiations");
        let m = self.garner(&ms);
        mark("garner");
        let out = self.unblind(&input, &m);
        mark("unblinding");
        let ok = self.check(&input, &out);
        mark("check");
        let result = self.output(&out, ok);
        mark("output");
        result
    }

    /// Every limb buffer of the key's secrets that the constant-time drivers can mark secret
    /// (d; each prime, its engine digits, d_i, coefficient in Montgomery form and partial
    /// product). The Montgomery constants inside each prime's context are not included.
    pub(crate) fn secret_limbs_for_tests(&self) -> Vec<&[Limb]> {
        let mut v: Vec<&[Limb]> = vec![&self.d];
        for p in &self.primes {
            v.push(p.m.as_limbs());
            v.extend(p.m.engine_digits_for_ct_tests());
            v.push(&p.exp);
            if let Some(c) = &p.coeff {
                v.push(c.as_montgomery_limbs());
            }
            v.push(&p.product);
        }
        v
    }

    /// Calls `f` with the limbs of the first slot's cached blinding pair (each r^e mod r_i,
    /// then r⁻¹ mod n, in Montgomery form), or with none if that slot is empty or held.
    pub(crate) fn with_cached_blinding_for_tests(&self, f: impl FnOnce(&[&[Limb]])) {
        self.blinding.with_first_pair_limbs(f);
    }

    /// `f`, with slot `slot` of the blinding table held as an operation holds it.
    pub(crate) fn with_blinding_slot_held_for_tests<T>(
        &self,
        slot: usize,
        f: impl FnOnce() -> T,
    ) -> T {
        self.blinding.with_slot_held(slot, f)
    }
}

/// For the coalescer's hooks, which exist with `std` only.
#[cfg(feature = "std")]
impl CrtInput {
    /// The blinded input modulo `key`'s first prime doubled: the exponentiation then gives a
    /// wrong half, which the fault check must catch (the coalescing tests' per-item fault).
    pub(crate) fn corrupt_for_tests(&mut self, key: &CrtKey) {
        let m = &key.primes[0].m;
        self.blinded[0] = m.add(&self.blinded[0], &self.blinded[0]);
    }

    /// The blinded input dropped: the exponentiations then find no base and panic (the
    /// coalescing tests' request whose arithmetic panics).
    pub(crate) fn poison_for_tests(&mut self) {
        self.blinded.clear();
    }
}
