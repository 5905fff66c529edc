//! The one place that decides what runs: the 64-bit kernel table, the exponentiation path
//! (the 64-bit limbs or the 52-bit engine), from which sizes each operation takes the engine,
//! and the engine's shape for each size on this CPU. Nothing here touches a secret: every
//! input is a CPU feature, an environment variable or a public size.
//!
//! One file a job, lowest first:
//!
//! - `kernels.rs`: [`KernelTable`], the 64-bit kernel tables as a type (`mpn` maps each to its
//!   functions);
//! - `engine.rs`: what the 52-bit engine takes ([`ifma_supports`]) and the shapes it can run
//!   ([`Shape`], [`Width`]), with the table of shapes measured per CPU;
//! - `env.rs`: [`BACKEND_ENV`] and [`SHAPE_ENV`], read once per process (with `std`; without
//!   it, every choice is the detected one) into requests, a malformed value warned about;
//! - `path.rs`: the choices: [`kernel_table`], [`pow_path`], the path of each operation by
//!   size, and the back ends' names ([`available`], [`current`]);
//! - `shape.rs`: [`shape`], decided top to bottom (a pin, a calibration, the table), and the
//!   calibration's state.
//!
//! The wording of reports is the reports' own (`rsatool speedtest`'s header): this module
//! gives the facts ([`ShapeSource`], [`cpu_row_name`]).

internal_mod!(engine);
internal_mod!(env);
internal_mod!(kernels);
internal_mod!(path);
internal_mod!(shape);

#[cfg(feature = "test-hooks")]
#[doc(hidden)]
pub use engine::VARTIME_MIN_EXP_BITS;
pub use engine::{IFMA_MAX_BITS, IFMA_MIN_BITS, Shape, Width, cpu_row_name, ifma_supports};
pub(crate) use engine::{digits, table_shape};
pub use env::{BACKEND_ENV, SHAPE_ENV};
pub use kernels::KernelTable;
pub use path::{PowPath, available, current, kernel_table, path_for_batch, pow_path};
pub(crate) use path::{path_for_pair, path_for_pow, path_for_pow_vartime};
pub(crate) use shape::shape_calibrated;
pub use shape::{ShapeSource, shape, shape_source};
