//! bignum against independent oracles: every public `mpn` function, `Nat`, `modular`, the
//! divisions and the prime tests against num-bigint (and a primality oracle written on it), and
//! every kernel of every back end this CPU runs against `PORTABLE`; and, in `internals`, the
//! crate's private functions, module by module.
//!
//! One test binary for them all, so that the dependencies' generic code (proptest,
//! num-bigint) is compiled and linked once. `tests/ct.rs` stays a binary of its own:
//! `.ci/ct-check` builds it alone and runs it under valgrind. Proptest keeps the failures it
//! finds under `tests/proptest-regressions/` (one file per module; commit them).

#[path = "../common/mod.rs"]
mod common;

mod backends;
mod internals;
mod oracle_div;
mod oracle_modular;
mod oracle_mpn;
mod oracle_nat;
mod oracle_prime;
