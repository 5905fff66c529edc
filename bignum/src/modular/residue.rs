//! [`Residue`]: a secret value modulo a [`Modulus`](super::Modulus), in Montgomery form.

use alloc::vec::Vec;
use core::fmt;

use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::limb::Limb;

use super::ct;

/// A secret residue a mod m, stored in Montgomery form a·R mod m (n limbs, fully reduced).
///
/// Made and used only through the [`Modulus`](super::Modulus) it belongs to. Mixing residues of
/// different moduli panics, in every build: each residue carries the identity of the context
/// that made it, and every operation compares it with its modulus's (one comparison of two
/// public numbers: without it, a residue of another modulus of the same limb count would give a
/// meaningless result without a word).
///
/// Secret: no `PartialEq`, `Ord` or `Hash`; compare with [`ConstantTimeEq`]. Wiped on drop.
/// `Debug` prints `Residue(..)`.
///
/// # Constant time
///
/// Comparisons and selections here depend on the limb count only.
#[derive(Clone)]
pub struct Residue {
    pub(crate) limbs: Vec<Limb>,
    /// The identity of the [`Modulus`](super::Modulus) that made it, checked by every
    /// operation. Public: it says which context, nothing of the value.
    pub(crate) modulus: usize,
}

impl Residue {
    /// Panics unless `self` and `other` are residues of one modulus.
    #[inline]
    fn check_same_modulus(&self, other: &Self) {
        assert_eq!(self.modulus, other.modulus, "residues of different moduli");
    }

    /// Whether this is zero (0 in Montgomery form is 0).
    ///
    /// # Constant time
    ///
    /// Depends on the limb count only.
    pub fn is_zero(&self) -> Choice {
        ct::choice_of(ct::is_zero(&self.limbs))
    }

    /// Sets `self` to `other` if `choice` is set, else leaves it.
    ///
    /// (`subtle::ConditionallySelectable` needs `Copy`, which a heap-backed residue cannot be.)
    ///
    /// # Constant time
    ///
    /// Depends on the limb count only.
    ///
    /// # Panics
    ///
    /// If the two residues belong to different moduli (any other, in every build).
    pub fn conditional_assign(&mut self, other: &Self, choice: Choice) {
        assert_eq!(
            self.limbs.len(),
            other.limbs.len(),
            "residues of different moduli"
        );
        self.check_same_modulus(other);
        ct::cnd_copy(ct::mask_of(choice), &mut self.limbs, &other.limbs);
    }

    /// Swaps `a` and `b` if `choice` is set.
    ///
    /// # Constant time
    ///
    /// Depends on the limb count only.
    ///
    /// # Panics
    ///
    /// If the two residues belong to different moduli (any other, in every build).
    pub fn conditional_swap(a: &mut Self, b: &mut Self, choice: Choice) {
        assert_eq!(a.limbs.len(), b.limbs.len(), "residues of different moduli");
        a.check_same_modulus(b);
        ct::cnd_swap(ct::mask_of(choice), &mut a.limbs, &mut b.limbs);
    }

    /// `b` if `choice` is set, else `a`.
    ///
    /// # Constant time
    ///
    /// Depends on the limb count only.
    ///
    /// # Panics
    ///
    /// If the two residues belong to different moduli (any other, in every build).
    pub fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        let mut r = a.clone();
        r.conditional_assign(b, choice);
        r
    }

    /// The Montgomery-form limbs a·R mod m (secret; for serialising or hashing under the
    /// caller's responsibility).
    pub fn as_montgomery_limbs(&self) -> &[Limb] {
        &self.limbs
    }
}

impl ConstantTimeEq for Residue {
    /// Equal residues of one modulus have equal Montgomery forms (both are fully reduced).
    fn ct_eq(&self, other: &Self) -> Choice {
        self.check_same_modulus(other);
        // Lengths are public: subtle compares them first, then every limb.
        self.limbs.ct_eq(&other.limbs)
    }
}

impl Zeroize for Residue {
    fn zeroize(&mut self) {
        // Keep the length: a zeroized residue is still a valid (zero) residue.
        self.limbs.as_mut_slice().zeroize();
    }
}

impl Drop for Residue {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for Residue {}

impl fmt::Debug for Residue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Residue(..)")
    }
}
