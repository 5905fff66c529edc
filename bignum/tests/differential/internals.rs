//! The crate's internals, module by module (the tree mirrors `src/`): fixed cases and small
//! checks of private functions, reached through the modules that the `test-hooks` feature
//! makes public. They live here rather than in `#[cfg(test)]` modules so that the crate is
//! compiled once for the tests, not a second time as a lib-test target (see ARCHITECTURE.md,
//! "Tests").

// The tests compute their expected values by plain integer arithmetic on public inputs
// (division, remainders, low halves of wider products) and unwrap what cannot fail there: the
// lints that keep secrets away from division and silent truncation apply to the library's code.
#![allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    clippy::unwrap_used
)]

mod backend;
mod cpu;
mod limb;
mod modular;
mod mpn;
mod nat;
mod prime;
