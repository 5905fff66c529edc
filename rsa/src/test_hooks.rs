//! Entry points for the workspace's own tests, examples, benchmarks, fuzz targets and
//! known-answer runs: compiled only with the cargo feature `test-hooks` (off by default, and
//! hidden from the documentation even when on). Not part of the API: each is a thin door into
//! the crate's internals that a user has no reason to open.

use alloc::{vec, vec::Vec};
use bignum::Limb;
use rand_core::CryptoRng;

use crate::scheme::{EncryptSealed, Unsliced};
use crate::{Oaep, Pkcs1v15Encrypt, Result, RsaPrivateKey};

impl RsaPrivateKey {
    /// The CRT private operation ([`PrivateOp::private_op`](crate::hazmat::PrivateOp)) with
    /// a fault injected in the half modulo p, for the test that proves the fault check works
    /// (it must return [`Error::Fault`](crate::Error::Fault)). The production operation
    /// carries no flag for this: the fault is added between its stages here.
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
        let input = self.crt_prepare(rng, c)?;
        let mut ms = self.crt_exponentiate(&input);
        let p = &self.primes[0].m;
        ms[0] = p.add(&ms[0], &p.one());
        self.crt_finish(&input, &ms)
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
        let x = self.crt_input(c)?;
        mark("input");
        let draw = self.draw_blinding(rng);
        mark("draw");
        let r_inv = self
            .blinded_inverse(&draw.r, &draw.s)
            .ok_or(crate::Error::Fault)?;
        mark("inverse");
        let input = self.blind(&x, &draw.r, r_inv);
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
    /// (d; each prime, d_i, coefficient in Montgomery form and partial product). The
    /// Montgomery constants inside each prime's context are not included.
    #[doc(hidden)]
    pub fn secret_limbs_for_ct_tests(&self) -> Vec<&[Limb]> {
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
