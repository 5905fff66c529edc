//! Algorithm thresholds, chosen by measurement. The entry points that measure them,
//! `mul_karatsuba` and `sqr_karatsuba`, sit beside the algorithms (`mul.rs`, `sqr.rs`): this
//! file depends on nothing, and the algorithms read their thresholds from it.
//!
//! A threshold is the operand length, in limbs, from which one Karatsuba step (with schoolbook
//! sub-products) beats the schoolbook algorithm on this machine. Each constant says the figures
//! and the command that chose it: `benches/benches/mpn.rs` times
//! [`mul_karatsuba`](super::mul_karatsuba) against `mul_basecase` and
//! [`sqr_karatsuba`](super::sqr_karatsuba) against `sqr_basecase` (ids
//! `mpn/{mul,sqr}_{basecase,karatsuba}/<back end>/<limbs>`), interleaved size by size.
//! Re-measure when a back end changes the cost of `addmul_1`.

/// From this many limbs (of the shorter operand) `mpn::mul` uses Karatsuba.
///
/// Chosen on the portable back end (2 shared cores, load average about 8, so single figures are
/// noisy by ±15%) by
/// `cargo bench -p benches --bench mpn -- --warm-up-time 1 --measurement-time 3 'mpn/(mul|sqr)_(basecase|karatsuba)/'`,
/// mean µs, basecase / one Karatsuba step:
///
/// | limbs | 32 | 40 | 44 | 48 | 56 | 64 | 72 | 80 | 96 | 128 |
/// | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
/// | basecase | 4.47 | 6.90 | 6.13 | 8.29 | 12.3 | 13.7 | 19.6 | 23.8 | 34.0 | 50.7 |
/// | Karatsuba | 3.84 | 6.08 | 6.55 | 8.80 | 11.5 | 11.5 | 15.7 | 17.0 | 24.7 | 37.1 |
///
/// and, as a cross-check (a throwaway loop, not kept: best of 30 interleaved batches of the same
/// calls, less sensitive to the load than criterion's mean), Karatsuba +19% at 32,
/// -1% at 40, 0% at 44, -10% at 48, -13% at 64, -18% at 96. The crossover lies in 40..56; 48 is
/// its middle, and Karatsuba wins at every size tried from 56 up.
pub const KARATSUBA_MUL_THRESHOLD: usize = 48;

/// From this many limbs `mpn::sqr` uses the Karatsuba square.
///
/// Chosen by the same command as [`KARATSUBA_MUL_THRESHOLD`], mean µs, `sqr_basecase` / one
/// Karatsuba squaring step:
///
/// | limbs | 48 | 64 | 72 | 80 | 88 | 96 | 112 | 128 |
/// | --- | --- | --- | --- | --- | --- | --- | --- | --- |
/// | basecase | 5.19 | 7.47 | 9.68 | 12.4 | 14.0 | 16.6 | 21.3 | 32.3 |
/// | Karatsuba | 6.16 | 7.72 | 9.08 | 12.2 | 14.1 | 15.6 | 16.9 | 26.4 |
///
/// The same best-of-30 cross-check: Karatsuba +9% at 64, +7..13% at 80, -5..-12% at 96, -8% at 112,
/// -14% at 128. The dedicated basecase square halves the products, so Karatsuba pays off later
/// than for `mul`.
pub const KARATSUBA_SQR_THRESHOLD: usize = 96;
