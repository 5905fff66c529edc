//! Algorithm thresholds, chosen by measurement. The entry points that measure them,
//! `mul_karatsuba` and `sqr_karatsuba`, sit beside the algorithms (`mul.rs`, `sqr.rs`): this
//! file depends on nothing, and the algorithms read their thresholds from it.
//!
//! A threshold is the operand length, in limbs, from which one Karatsuba step (with schoolbook
//! sub-products) beats the schoolbook algorithm on this machine. Each constant says the command
//! that chose it: `benches/benches/mpn.rs` times [`mul_karatsuba`](super::mul_karatsuba)
//! against `mul_basecase` and [`sqr_karatsuba`](super::sqr_karatsuba) against `sqr_basecase`
//! (ids `mpn/{mul,sqr}_{basecase,karatsuba}/<back end>/<limbs>`), interleaved size by size; the
//! figures are in docs/benchmarks-log.md, "The Karatsuba thresholds". Re-measure when a back
//! end changes the cost of `addmul_1`.

/// From this many limbs (of the shorter operand) `mpn::mul` uses Karatsuba.
///
/// Chosen on the portable back end by
/// `cargo bench -p benches --bench mpn -- --warm-up-time 1 --measurement-time 3 'mpn/(mul|sqr)_(basecase|karatsuba)/'`,
/// with a best-of-interleaved-batches loop as a cross-check: the crossover lies between 40 and
/// 56 limbs, 48 is its middle, and Karatsuba wins at every size tried from 56 up.
pub const KARATSUBA_MUL_THRESHOLD: usize = 48;

/// From this many limbs `mpn::sqr` uses the Karatsuba square.
///
/// Chosen by the same command and cross-check as [`KARATSUBA_MUL_THRESHOLD`]: in the
/// cross-check Karatsuba loses up to 80 limbs and wins from 96 up. The dedicated basecase
/// square halves the products, so Karatsuba pays off later than for `mul`.
pub const KARATSUBA_SQR_THRESHOLD: usize = 96;
