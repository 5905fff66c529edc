//! `bignum::backend`: its submodules' internals.

mod engine;
mod env;
mod path;
mod shape;
