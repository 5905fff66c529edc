//! Arbitrary-precision arithmetic on 64-bit limbs, the foundation of `rsatool`.
//!
//! Layers, lowest first (each uses only the ones below it):
//!
//! 1. [`limb`]: the machine word, wide multiply, add/sub with carry, masks.
//! 2. [`mpn`]: kernels on limb slices (add, sub, multiply-accumulate, shifts, multiply, square,
//!    division), with a run-time chosen back end.
//! 3. [`Nat`]: an owned natural number for PUBLIC values, variable time: parsing and printing,
//!    the `std::ops` operators, division, gcd, bit operations, `pow_mod`, random values.
//! 4. [`modular`]: constant-time Montgomery arithmetic modulo an odd (possibly secret) modulus:
//!    multiply, square, exponentiation, inversion; and constant-time gcd/division helpers.
//!
//! [`cpu`] detects the CPU features once and hands out the proof tokens that gate the
//! assembly back ends of `mpn`; [`backend`] is the one place that decides what runs (the
//! kernel table, the exponentiation path and the 52-bit engine's shape, by CPU and
//! environment).
//!
//! # What is constant-time
//!
//! `limb`, `mpn` and `modular` are constant-time by default: their running time and memory
//! access pattern depend only on lengths (limb counts, and the bit lengths of a modulus and an
//! exponent). The exceptions carry a `_vartime` suffix and are for public values only. `Nat` is
//! variable-time throughout and holds public values only.
//!
//! # `no_std`
//!
//! The crate is `#![no_std]` and needs `alloc` only. The default `std` feature adds what needs
//! an operating system: the `BIGNUM_BACKEND` environment override of the back end (and its
//! warnings on stderr), the valgrind ADX override, and `std`'s CPU-feature detection. Without
//! it the back ends are still chosen at run time, by CPUID (see [`cpu`]).

#![no_std]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

/// `debug_assert!` for the internal invariants on public values (lengths handed between the
/// layers, which the assembly kernels rely on): checked in debug
/// builds and, whatever the profile, in builds with the `test-hooks` feature. The tests build
/// bignum without debug assertions (the workspace's `Cargo.toml`: core's own checks, which
/// follow them, took a large share of bignum's test build; measured: see
/// docs/benchmarks-log.md, "bignum's tests without debug assertions"), and still check every
/// invariant.
///
/// Never on a secret: the constant-time check builds with `test-hooks`, and a branch on a
/// secret is what it flags. Conditions on secret-derived values stay `debug_assert!`.
macro_rules! invariant {
    ($($arg:tt)*) => {
        if cfg!(any(debug_assertions, feature = "test-hooks")) {
            assert!($($arg)*);
        }
    };
}

/// Items (or associated items) with their visibility as written, or public and hidden from the
/// documentation with the `test-hooks` feature: the private functions of the public modules
/// and the private methods of public types that `tests/differential/internals/` checks. Takes
/// functions, constants and type aliases, one after another; an item of another form alone.
macro_rules! internal {
    () => {};
    ($(#[$attr:meta])* $vis:vis const fn $name:ident ($($args:tt)*) $(-> $ret:ty)? $body:block
     $($rest:tt)*) => {
        internal!(@both [$(#[$attr])*] [$vis] [const fn $name($($args)*) $(-> $ret)? $body]);
        internal!($($rest)*);
    };
    ($(#[$attr:meta])* $vis:vis fn $name:ident ($($args:tt)*) $(-> $ret:ty)? $body:block
     $($rest:tt)*) => {
        internal!(@both [$(#[$attr])*] [$vis] [fn $name($($args)*) $(-> $ret)? $body]);
        internal!($($rest)*);
    };
    ($(#[$attr:meta])* $vis:vis const $name:ident: $ty:ty = $value:expr; $($rest:tt)*) => {
        internal!(@both [$(#[$attr])*] [$vis] [const $name: $ty = $value;]);
        internal!($($rest)*);
    };
    ($(#[$attr:meta])* $vis:vis type $name:ident = $ty:ty; $($rest:tt)*) => {
        internal!(@both [$(#[$attr])*] [$vis] [type $name = $ty;]);
        internal!($($rest)*);
    };
    (@both [$($attr:tt)*] [$vis:vis] [$($item:tt)*]) => {
        $($attr)*
        #[cfg(feature = "test-hooks")]
        #[doc(hidden)]
        #[allow(missing_docs, rustdoc::private_intra_doc_links, rustdoc::broken_intra_doc_links)]
        pub $($item)*
        $($attr)*
        #[cfg(not(feature = "test-hooks"))]
        $vis $($item)*
    };
    ($(#[$attr:meta])* $vis:vis $kw:ident $($item:tt)+) => {
        internal!(@both [$(#[$attr])*] [$vis] [$kw $($item)+]);
    };
}

/// Declares modules private to the crate, or public and hidden from the documentation with the
/// `test-hooks` feature, so that the tests of their private functions
/// (`tests/differential/internals/`, one file per module) reach them without the crate being
/// compiled a second time as a lib-test target.
macro_rules! internal_mod {
    ($($(#[$attr:meta])* $vis:vis $name:ident),* $(,)?) => {$(
        $(#[$attr])*
        #[cfg(feature = "test-hooks")]
        #[doc(hidden)]
        #[allow(missing_docs, rustdoc::private_intra_doc_links, rustdoc::broken_intra_doc_links)]
        pub mod $name;
        $(#[$attr])*
        #[cfg(not(feature = "test-hooks"))]
        $vis mod $name;
    )*};
}

pub mod backend;
pub mod cpu;
pub mod limb;
pub mod modular;
pub mod mpn;
pub mod prime;

internal_mod!(error);
internal_mod!(nat, run_counters);

pub use error::{Error, Result};
pub use limb::Limb;
pub use nat::Nat;
