//! `bignum::modular`: its submodules' internals.

mod ct;
mod ifma_engine;
mod modulus;
mod mont;
mod pow;
