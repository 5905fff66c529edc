//! Entry points for the workspace's own tests, examples, benchmarks, fuzz targets and
//! known-answer runs: compiled only with the cargo feature `test-hooks` (off by default, and
//! hidden from the documentation even when on). Not part of the API: each is a thin door into
//! the crate's internals that a user has no reason to open.

use alloc::vec::Vec;
use bignum::Limb;
use rand_core::CryptoRng;
#[cfg(feature = "std")]
use std::boxed::Box;
#[cfg(feature = "std")]
use std::num::NonZeroUsize;

#[cfg(feature = "std")]
use crate::coalesce::hooks::Hooked;
use crate::scheme::{EncryptSealed, Unsliced};
use crate::{Oaep, Pkcs1v15Encrypt, Result, RsaPrivateKey};

impl RsaPrivateKey {
    /// The CRT private operation ([`PrivateOp::private_op`](crate::hazmat::PrivateOp)) with
    /// a fault injected in the half modulo p, for the test that proves the fault check works
    /// (it must return [`Error::Fault`](crate::Error::Fault)). The production operation
    /// carries no flag for this: the fault is added between its stages.
    ///
    /// # Errors
    ///
    /// As the private operation; with the fault, [`Error::Fault`](crate::Error::Fault).
    #[doc(hidden)]
    pub fn private_op_with_injected_fault<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        c: &[u8],
    ) -> Result<Vec<u8>> {
        let crt = self.crt();
        crt.finish_with_injected_fault_for_tests(&crt.crt_prepare(rng, c)?)
    }

    /// The stages of [`private_op_by_stages`](Self::private_op_by_stages), in order.
    #[doc(hidden)]
    pub const PRIVATE_OP_STAGES: [&'static str; 9] = [
        "input",
        "draw",
        "inverse",
        "blinding",
        "exponentiations",
        "garner",
        "unblinding",
        "check",
        "output",
    ];

    /// The CRT private operation ([`PrivateOp::private_op`](crate::hazmat::PrivateOp)) stage
    /// by stage, calling `mark` after each with the stage's name (in the order of
    /// [`PRIVATE_OP_STAGES`](Self::PRIVATE_OP_STAGES)), for the per-stage timings of
    /// `rsa/examples/dudect.rs`. The stages are the production
    /// operation's own functions, called in its order; only the calls to `mark` are added.
    ///
    /// # Errors
    ///
    /// As the private operation (a non-invertible r, which the operation would draw again,
    /// is [`Error::Fault`](crate::Error::Fault) here).
    #[doc(hidden)]
    pub fn private_op_by_stages<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        c: &[u8],
        mark: &mut dyn FnMut(&'static str),
    ) -> Result<Vec<u8>> {
        self.crt().private_op_by_stages_for_tests(rng, c, mark)
    }

    /// Every limb buffer of the key's secrets that the constant-time drivers can mark secret
    /// (d; each prime, d_i, coefficient in Montgomery form and partial product). The
    /// Montgomery constants inside each prime's context are not included.
    #[doc(hidden)]
    pub fn secret_limbs_for_ct_tests(&self) -> Vec<&[Limb]> {
        self.crt().secret_limbs_for_tests()
    }

    /// Calls `f` with the limbs of the first slot's cached blinding pair (each r^e mod r_i,
    /// then r⁻¹ mod n, in Montgomery form), or with none if that slot is empty or held: for
    /// the constant-time drivers, which mark them secret (`rsa/tests/ct/blinding.rs`).
    #[doc(hidden)]
    pub fn with_cached_blinding_for_ct_tests(&self, f: impl FnOnce(&[&[Limb]])) {
        self.crt().with_cached_blinding_for_tests(f);
    }

    /// `f`, with slot `slot` of the blinding table held as an operation holds it (a `fork()`
    /// inside leaves it held forever in the child).
    #[doc(hidden)]
    pub fn with_blinding_slot_held_for_tests<T>(&self, slot: usize, f: impl FnOnce() -> T) -> T {
        self.crt().with_blinding_slot_held_for_tests(slot, f)
    }

    /// [`RsaPrivateKey::coalescing_passes`], whose callers meet even where the eight lanes do
    /// not run (for `rsa/tests/fork.rs`, on every machine), with the tests' hooks on its
    /// coalescer.
    #[cfg(feature = "std")]
    #[doc(hidden)]
    #[must_use]
    pub fn coalescing_everywhere_for_tests(self, passes: NonZeroUsize) -> Self {
        self.meeting_at(Box::new(Hooked::everywhere(passes)))
    }

    /// While `held`, the passes of this process wait before they compute (those of a child
    /// process after `fork()` do not); on a key made by
    /// [`coalescing_everywhere_for_tests`](Self::coalescing_everywhere_for_tests).
    #[cfg(feature = "std")]
    #[doc(hidden)]
    pub fn hold_coalesced_passes_for_tests(&self, held: bool) {
        if let Some(hooked) = Hooked::of(self.crt()) {
            hooked.hold_passes(held);
        }
    }

    /// The meeting point's state: passes held by
    /// [`hold_coalesced_passes_for_tests`](Self::hold_coalesced_passes_for_tests), requests
    /// queued, passes running, results waiting to be picked up; none while another thread
    /// holds its mutex (zeros for a key without a hooked coalescer).
    #[cfg(feature = "std")]
    #[doc(hidden)]
    pub fn coalescing_state_for_tests(&self) -> Option<[usize; 4]> {
        Hooked::of(self.crt()).map_or(Some([0; 4]), Hooked::state)
    }

    /// `f`, with the meeting point's mutex held (a `fork()` inside leaves it held forever in
    /// the child).
    #[cfg(feature = "std")]
    #[doc(hidden)]
    pub fn with_coalescer_locked_for_tests<T>(&self, f: impl FnOnce() -> T) -> T {
        let _state = Hooked::of(self.crt()).map(Hooked::lock);
        f()
    }
}

/// `decrypt_unsliced` for each encryption scheme: its decryption up to, but not including, the
/// declassification of the message length (and of the verdict where the scheme reveals it:
/// OAEP, PKCS #1 v1.5 with explicit rejection), for the constant-time drivers.
macro_rules! decrypt_unsliced {
    ($($scheme:ty),*) => {$(
        impl $scheme {
            /// The decryption up to its declassifications, for the constant-time drivers.
            ///
            /// # Errors
            ///
            /// As the scheme's decryption for the public checks and the fault check.
            #[doc(hidden)]
            pub fn decrypt_unsliced<R: CryptoRng + ?Sized>(
                &self,
                key: &RsaPrivateKey,
                rng: &mut R,
                ciphertext: &[u8],
            ) -> Result<Unsliced> {
                self.decrypt_block(key, rng, ciphertext)
            }
        }
    )*};
}

decrypt_unsliced!(Oaep, Pkcs1v15Encrypt);
