//! The test-hooks build's views of a blinding table (feature `test-hooks`: never in a user's
//! build), behind the doors of `test_hooks.rs`: the first slot's pair as limbs, for the
//! constant-time drivers and the fork tests, and a slot held as an operation holds it.

use alloc::vec::Vec;

use bignum::Limb;

use super::BlindingCache;

impl BlindingCache {
    /// Calls `f` with the limbs of the first slot's pair (each r^e mod r_i, then r⁻¹ mod n, in
    /// Montgomery form), or with none if that slot is empty or held.
    pub(crate) fn with_first_pair_limbs(&self, f: impl FnOnce(&[&[Limb]])) {
        let slot = self.slots.slots[0].0.try_lock();
        let limbs: Vec<&[Limb]> = match slot.as_deref() {
            Some(Some(c)) => c
                .pair
                .r_e
                .iter()
                .chain(core::iter::once(&c.pair.r_inv))
                .map(|r| r.as_montgomery_limbs())
                .collect(),
            _ => Vec::new(),
        };
        f(&limbs);
    }

    /// `f`, with slot `slot` held as an operation holds it (a `fork()` inside leaves it held
    /// forever in the child); nothing is held if there is no such slot or it is held already.
    pub(crate) fn with_slot_held<T>(&self, slot: usize, f: impl FnOnce() -> T) -> T {
        let _held = self.slots.slots.get(slot).map(|s| s.0.try_lock());
        f()
    }
}
