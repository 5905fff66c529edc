//! Arbitrary-precision arithmetic on 64-bit limbs, the foundation of `rsatool`.
//!
//! Layers, lowest first (each uses only the ones below it):
//!
//! 1. [`limb`]: the machine word, wide multiply, add/sub with carry, masks.
//! 2. [`mpn`]: kernels on limb slices (add, sub, multiply-accumulate, shifts, multiply, square,
//!    division), with a run-time chosen back end.
//!
//! # What is constant-time
//!
//! `limb` and `mpn` are constant-time by default: their running time and memory access pattern
//! depend only on slice lengths. The exceptions carry a `_vartime` suffix and are for public
//! values only.

pub mod cpu;
pub mod limb;
pub mod mpn;
pub mod prime;

mod error;

pub use error::{Error, Result};
pub use limb::Limb;
