//! The 52-bit exponentiation engine: constant-time modular exponentiation on AVX-512 IFMA,
//! of one modulus or of two interleaved (RSA's CRT halves).
//!
//! # Representation
//!
//! A number below 2^(52·d) is d digits of 52 bits, one per 64-bit lane; d is the least with
//! 52·d ≥ bits(m) + 2, so that R = 2^(52·d) > 4m. The engine works in the Montgomery form of
//! radix 2^52: x·R mod m. The vectors hold a whole number of registers, so the digits above
//! d (RSA-1024's halves: 10 digits on twelve lanes) are zero and the AMM takes d steps, not
//! one per lane.
//!
//! # Almost-Montgomery multiplication (AMM)
//!
//! For a, b < 2m and k0 = −m⁻¹ mod 2^52, digit by digit of b (Gueron, "Efficient software
//! implementations of modular exponentiation", 2012): acc += a·b_j, y = acc₀·k0 mod 2^52,
//! acc += m·y (now acc₀ ≡ 0 mod 2^52), acc /= 2^52. After d steps acc = (a·b + Y·m)/R <
//! (4m² + R·m)/R < 2m because 4m < R: the result is again a valid input, and no step
//! compares with m. Each step adds, per lane, the low halves of a_i·b_j and m_i·y
//! (`vpmadd52luq`), shifts the accumulator down one lane (`valignq`), then adds the high halves
//! (`vpmadd52huq`), which now sit one lane lower, where they belong. A lane grows by less than
//! 2^54 per step, so d ≤ 128 steps stay below 2^61: no carry is propagated inside the loop.
//! Digit 0, the one y depends on, is carried exactly in a general register (the full 104-bit
//! products of a₀·b_j and m₀·y in u128), which keeps the serial chain y → acc₀ short; its lane
//! in the vector is never read. At the end the carries are propagated once: each lane's bits
//! above 52 go to the next lane, and the rare ripple through lanes equal to 2^52 − 1 is found
//! with carry-lookahead on the lane masks, as integers (g = lanes above 2^52 − 1, p = lanes
//! equal to it, carries in = ((g << 1) + p) ⊕ p), then applied by masks: no branch.
//!
//! The interleaved form runs K = 2 independent AMMs in one loop: each has a serial chain of
//! latencies per digit (multiply, the y computation, broadcast), and two of them keep the
//! multipliers busy while the other waits. One code serves both: the AMM, the table and the
//! exponentiation are generic in K, in the vector count and in the instruction set.
//!
//! # Exponentiation
//!
//! Fixed window of five bits (`window.rs`, shared with the batch engine): a table of
//! base^0 … base^31 in radix-52 Montgomery form, then per window five AMM squarings and one
//! AMM by the entry, which a gather finds by reading every entry and adding each into the
//! result times its hit (0 or 1, by carry arithmetic on the secret index; no compare and no
//! blend, which LLVM may turn into a branch in the model). The digit-serial AMM has no cheaper
//! square, so a single number squares by an AMM of itself; pairs of at least 16 steps square
//! by `ams.rs`: the whole square first (each a_i·a_j with i < j once, from copies of a shifted
//! by whole lanes, doubled, plus the a_i²), then its reduction, S steps of y·m alone. The
//! result is the AMM's, digit for digit; the reduction keeps the serial chain, the square
//! takes about half of the AMM's a·b multiply-adds and none of its shifts.

//! Conversions stay in the existing 64-bit Montgomery domain (R' = 2^(64·n)): a residue's limbs
//! x·R' become digits, one AMM by 2^(104·d − 64·n) mod m takes them to x·R, and at the end one
//! AMM by R' mod m takes b^e·R back to b^e·R'; a masked subtraction of m makes it canonical.
//!
//! # Written once, checked on every machine
//!
//! The algorithm is generic over [`Ifma52`]: with the AVX-512 instructions where the CPU has
//! them, and with [`Model`], the plain-Rust model of each instruction, everywhere. The tests
//! run every size through the model against [`Modulus::pow`] and num-bigint, and, where the CPU
//! has IFMA, require the instructions to equal the model bit for bit.
//!
//! # Files, one job each
//!
//! - `shape.rs`: the layout of a size in a shape (lanes, vectors, steps, pair or singles), and
//!   the compiled instances.
//! - `calibrate.rs`: the layout the entry points use (`layout`): the shape `crate::backend`
//!   decides, after it has had each candidate timed here on public dummy values where it
//!   calibrates.
//! - `convert.rs`: limbs to digits and back, the result made canonical.
//! - `constants.rs`: a modulus's side of the operands, kept with it or computed per run.
//! - `job.rs`: [`PowJob`] and [`PowJobVartime`], and their preparation for an engine.
//! - `window.rs`: the secret-exponent window exponentiation and its gather, for both engines.
//! - `amm.rs`: the AMM of one or two numbers across the lanes ("horizontal").
//! - `ams.rs`: the almost-Montgomery squaring of one or two numbers, square then reduction.
//! - `vartime.rs`: public exponents on that engine (square-and-multiply, sliding window).
//! - `single.rs`: that engine's runner: jobs in, the shape's instance chosen, residues out.
//! - `batch_amm.rs`, `batch.rs`: the eight-lane batch engine's AMM and squaring, and its
//!   runner and API ([`pow_batch`]).
//! - `entry_points.rs`: [`Modulus::pow_on`], the hand-over from [`Modulus::pow`], the pairs, and
//!   [`Modulus::keep_engine_constants`].
//!
//! # Constant time
//!
//! Time and memory accesses depend on the digit count, K and the exponent's bit length only:
//! the loops have public bounds, the table is read whole per window, the final propagation and
//! subtraction are masks. valgrind cannot execute AVX-512, so `.ci/ct-check` runs this same
//! generic code instantiated with the model ([`PowPath::IfmaModel`]: the same control flow
//! and memory accesses) with the secrets marked undefined, beside a negative control;
//! `rsa/examples/dudect.rs` times the native path on CPUs that have it. The heap buffers that
//! hold secrets (digits, the table, the accumulators between products) are wiped on drop.

internal_mod!(amm);
internal_mod!(ams);
internal_mod!(batch);
mod batch_amm;
internal_mod!(calibrate);
internal_mod!(constants);
internal_mod!(convert);
internal_mod!(entry_points);
internal_mod!(job);
internal_mod!(shape);
internal_mod!(single);
internal_mod!(vartime);
mod window;

#[cfg(feature = "test-hooks")]
pub use batch::ifma_batch_runs;
pub use batch::{BATCH_LANES, pow_batch, pow_batch_on};
pub use calibrate::{EngineShape, calibrate_shapes, engine_shapes};
pub(super) use constants::EngineConstants;
pub use entry_points::{pow_pair, pow_pair_on, pow_pair_shaped, pow_pair_vartime};
pub use job::{PowJob, PowJobVartime};
#[cfg(feature = "test-hooks")]
pub use single::ifma_runs;
