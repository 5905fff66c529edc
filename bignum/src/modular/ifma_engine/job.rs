//! Jobs: one exponentiation's inputs ([`PowJob`], [`PowJobVartime`]) and their preparation
//! for the engines (constants and base in digits, exponents cut to their bit length).

use alloc::{borrow::Cow, vec, vec::Vec};

use zeroize::Zeroizing;

use crate::limb::Limb;

use super::super::{Modulus, Residue};
use super::constants::EngineConstants;
use super::convert::to_digits;

/// One exponentiation of [`pow_pair`](super::pow_pair): base^exp mod m with the low `exp_bits`
/// bits of `exp`.
#[derive(Clone, Copy, Debug)]
pub struct PowJob<'a> {
    /// The modulus.
    pub modulus: &'a Modulus,
    /// The base, a residue of `modulus`.
    pub base: &'a Residue,
    /// The exponent, little-endian limbs (secret).
    pub exp: &'a [Limb],
    /// Its bit length (public).
    pub exp_bits: usize,
}

/// One exponentiation of [`pow_pair_vartime`](super::pow_pair_vartime): base^exp mod m by a
/// PUBLIC exponent, whose own
/// bit length is used (there is no secret length to pad it to).
#[derive(Clone, Copy, Debug)]
pub struct PowJobVartime<'a> {
    /// The modulus.
    pub modulus: &'a Modulus,
    /// The base, a residue of `modulus`.
    pub base: &'a Residue,
    /// The exponent, little-endian limbs (public).
    pub exp: &'a [Limb],
}

/// One exponentiation's operands in digits: its modulus's [`EngineConstants`] (kept with the
/// modulus, or computed here) and the base.
pub struct Prepared<'a> {
    /// The modulus side.
    pub c: Cow<'a, EngineConstants>,
    /// The base's limbs, b·R' mod m.
    pub(super) base: Zeroizing<Vec<u64>>,
}

impl<'a> Prepared<'a> {
    /// `job`'s operands for R = 2^(52·d), in numbers of `len` ≥ d digits.
    pub fn new(job: &PowJob<'a>, d: usize, len: usize) -> Self {
        let m = job.modulus;
        let c = match &m.engine {
            Some(kept) if kept.serves(d, len) => Cow::Borrowed(&**kept),
            _ => Cow::Owned(EngineConstants::new(m, d, len)),
        };
        Prepared {
            c,
            base: to_digits(&job.base.limbs, len),
        }
    }
}

/// Clears the bits of `e` at and above `bits` (public).
pub fn clear_bits_from(e: &mut [Limb], bits: usize) {
    for (i, l) in e.iter_mut().enumerate() {
        let lo = 64 * i;
        if lo >= bits {
            *l = 0;
        } else if bits - lo < 64 {
            *l &= (1 << (bits - lo)) - 1;
        }
    }
}

/// Jobs prepared for an engine with R = 2^(52·d): each one's operands in digits, and its
/// exponent zero-padded to the longest length with the bits at and above its own bit length
/// cleared.
pub(super) struct Ready<'a> {
    /// The jobs' operands, in the order of the jobs.
    pub(super) nums: Vec<Prepared<'a>>,
    /// The jobs' exponents, all of one length.
    pub(super) exps: Vec<Zeroizing<Vec<Limb>>>,
    /// The longest exponent bit length (public).
    pub(super) exp_bits: usize,
}

impl<'a> Ready<'a> {
    /// `jobs` for R = 2^(52·d), in numbers of `len` ≥ d digits.
    pub(super) fn new(jobs: &[&PowJob<'a>], d: usize, len: usize) -> Self {
        let exp_len = jobs.iter().map(|j| j.exp.len()).max().unwrap_or(0);
        Ready {
            nums: jobs.iter().map(|j| Prepared::new(j, d, len)).collect(),
            exps: jobs
                .iter()
                .map(|j| {
                    let mut e = Zeroizing::new(vec![0; exp_len]);
                    e[..j.exp.len()].copy_from_slice(j.exp);
                    clear_bits_from(&mut e, j.exp_bits);
                    e
                })
                .collect(),
            exp_bits: jobs.iter().map(|j| j.exp_bits).max().unwrap_or(0),
        }
    }
}
