//! The vector suites' tests: every data file parsed with the counts `data/SOURCES.md` states,
//! the known-answer suites (`kat`) and ACVP's vector sets run with no failure, Wycheproof's
//! primality vectors, and the `acvp` fuzz target's body on saved and mutated inputs.
//!
//! One test binary for them all, so that the dependencies' generic code (serde_json, the
//! parsers) is compiled and linked once.

mod acvp;
mod acvp_fuzz;
mod kat_enc;
mod kat_sig;
mod parse;
mod primality;
