//! The seed documents' own figures, for `--then` on `primegen`, `metime`, `mulsqr` and
//! `speedtest`: printed in their original layouts with today's row beside them.
//!
//! Sources (copied as data, figures only, from `../shared/seeds/`):
//! - `000_64108945066ec658.txt`: the MPI library's timing tests (1999), 16-bit digits, times
//!   in seconds from `clock()`: `primegen` (200 primes per size), `metime` (200
//!   exponentiations per size), `mulsqr` (500000 operations per size).
//! - `001_ad815857203d9a06.txt`: Cryptokit's `speedtest`, 1024-bit RSA, 2.4 GHz Pentium 4,
//!   2003-12-18, seven bignum back ends.

use crate::report::outln;

/// The MPI document's machines (letter) and compilers (digit): its configurations "A1" ...
pub const MPI_LEGEND: [&str; 13] = [
    "(A) SGI O2 1 x MIPS R10000 250MHz IRIX 6.5.3",
    "(B) IBM RS/6000 43P-240 1 x PowerPC 603e 223MHz AIX 4.3",
    "(C) Dell GX1/L+ 1 x Pentium III 550MHz Linux 2.2.12-20",
    "(D) PowerBook G3 1 x PowerPC 750 266MHz LinuxPPC 2.2.6-15apmac",
    "(E) PowerBook G3 1 x PowerPC 750 266MHz MacOS 8.5.1",
    "(F) PowerBook G3 1 x PowerPC 750 400MHz MacOS 9.0.2",
    "(1) MIPSpro C 7.2.1 -O3",
    "(2) GCC 2.95.1 -O3",
    "(3) IBM AIX xlc -O3",
    "(4) EGCS 2.91.66 -O3",
    "(5) Metrowerks CodeWarrior 5.0 C",
    "(6) MIPSpro C 7.30 -O3",
    "(7) as (6), with optimized libmalloc.so",
];

/// `primegen`: per size, (configuration, min, avg, max, sum) in seconds over 200 primes.
pub type PrimegenRow = (&'static str, f64, f64, f64, f64);

/// The MPI document's `primegen` figures.
pub const PRIMEGEN: [(usize, [PrimegenRow; 7]); 7] = [
    (
        128,
        [
            ("A1", 0.03, 0.19, 0.72, 38.46),
            ("A2", 0.02, 0.16, 0.62, 32.55),
            ("B3", 0.01, 0.07, 0.22, 13.29),
            ("C4", 0.00, 0.03, 0.20, 6.14),
            ("D4", 0.00, 0.05, 0.33, 9.70),
            ("A6", 0.01, 0.09, 0.36, 17.48),
            ("A7", 0.00, 0.05, 0.24, 10.07),
        ],
    ),
    (
        192,
        [
            ("A1", 0.05, 0.45, 3.13, 89.96),
            ("A2", 0.04, 0.39, 2.61, 77.55),
            ("B3", 0.02, 0.18, 1.25, 36.97),
            ("C4", 0.01, 0.09, 0.33, 18.24),
            ("D4", 0.02, 0.15, 0.54, 29.63),
            ("A6", 0.02, 0.24, 1.70, 47.84),
            ("A7", 0.01, 0.15, 1.05, 30.88),
        ],
    ),
    (
        256,
        [
            ("A1", 0.08, 0.92, 6.13, 184.79),
            ("A2", 0.06, 0.76, 5.03, 151.11),
            ("B3", 0.04, 0.41, 2.68, 82.35),
            ("C4", 0.02, 0.19, 0.69, 37.91),
            ("D4", 0.03, 0.31, 1.15, 63.00),
            ("A6", 0.04, 0.48, 3.13, 95.46),
            ("A7", 0.03, 0.37, 2.36, 73.60),
        ],
    ),
    (
        320,
        [
            ("A1", 0.11, 1.59, 6.14, 318.81),
            ("A2", 0.09, 1.27, 4.93, 254.03),
            ("B3", 0.07, 0.82, 3.13, 163.80),
            ("C4", 0.04, 0.44, 1.91, 87.59),
            ("D4", 0.06, 0.73, 3.22, 146.73),
            ("A6", 0.07, 0.93, 3.50, 185.01),
            ("A7", 0.05, 0.76, 2.94, 151.78),
        ],
    ),
    (
        384,
        [
            ("A1", 0.16, 2.69, 11.41, 537.89),
            ("A2", 0.13, 2.15, 9.03, 429.14),
            ("B3", 0.11, 1.54, 6.49, 307.78),
            ("C4", 0.06, 0.81, 4.84, 161.13),
            ("D4", 0.10, 1.38, 8.31, 276.81),
            ("A6", 0.11, 1.73, 7.36, 345.55),
            ("A7", 0.09, 1.46, 6.12, 292.02),
        ],
    ),
    (
        448,
        [
            ("A1", 0.23, 3.36, 15.92, 672.63),
            ("A2", 0.17, 2.61, 12.25, 522.86),
            ("B3", 0.16, 2.10, 9.83, 420.86),
            ("C4", 0.09, 1.44, 7.64, 288.36),
            ("D4", 0.16, 2.50, 13.29, 500.17),
            ("A6", 0.15, 2.31, 10.81, 461.58),
            ("A7", 0.14, 2.03, 9.53, 405.16),
        ],
    ),
    (
        512,
        [
            ("A1", 0.30, 6.12, 22.18, 1223.35),
            ("A2", 0.25, 4.67, 16.90, 933.18),
            ("B3", 0.23, 4.13, 14.94, 825.45),
            ("C4", 0.13, 2.08, 9.75, 415.22),
            ("D4", 0.24, 4.04, 20.18, 808.11),
            ("A6", 0.22, 4.47, 16.19, 893.83),
            ("A7", 0.20, 4.03, 14.65, 806.02),
        ],
    ),
];

/// The sizes (bits) of the MPI document's `metime` columns.
pub const METIME_BITS: [usize; 11] = [128, 192, 256, 320, 384, 448, 512, 640, 768, 896, 1024];

/// The MPI document's `metime` rows: seconds per exponentiation, one per column.
pub const METIME: [(&str, [f64; 11]); 8] = [
    (
        "A1",
        [
            0.015, 0.027, 0.047, 0.069, 0.098, 0.133, 0.176, 0.294, 0.458, 0.680, 1.040,
        ],
    ),
    (
        "A2",
        [
            0.013, 0.024, 0.037, 0.053, 0.077, 0.102, 0.133, 0.214, 0.326, 0.476, 0.668,
        ],
    ),
    (
        "B3",
        [
            0.005, 0.011, 0.021, 0.036, 0.056, 0.084, 0.121, 0.222, 0.370, 0.573, 0.840,
        ],
    ),
    (
        "C4",
        [
            0.002, 0.006, 0.011, 0.020, 0.032, 0.048, 0.069, 0.129, 0.223, 0.344, 0.507,
        ],
    ),
    (
        "D4",
        [
            0.004, 0.010, 0.019, 0.034, 0.056, 0.085, 0.123, 0.232, 0.390, 0.609, 0.899,
        ],
    ),
    (
        "E5",
        [
            0.007, 0.015, 0.031, 0.055, 0.088, 0.133, 0.183, 0.342, 0.574, 0.893, 1.317,
        ],
    ),
    (
        "A6",
        [
            0.008, 0.016, 0.038, 0.042, 0.064, 0.093, 0.133, 0.239, 0.393, 0.604, 0.880,
        ],
    ),
    (
        "A7",
        [
            0.005, 0.011, 0.020, 0.036, 0.056, 0.083, 0.121, 0.223, 0.374, 0.583, 0.855,
        ],
    ),
];

/// Operations per size in the MPI document's `mulsqr` totals.
pub const MULSQR_COUNT: f64 = 500_000.0;

/// A `mulsqr` row: bits, then multiply and square seconds for [`MULSQR_COUNT`] operations.
pub type MulsqrRow = (usize, f64, f64);

/// The MPI document's `mulsqr` tables, per configuration.
pub const MULSQR: [(&str, [MulsqrRow; 14]); 5] = [
    (
        "A1",
        [
            (64, 9.33, 9.15),
            (128, 10.88, 10.44),
            (192, 13.30, 11.89),
            (256, 14.88, 12.64),
            (320, 18.64, 15.01),
            (384, 23.11, 17.70),
            (448, 28.28, 20.88),
            (512, 34.09, 24.51),
            (640, 47.86, 33.25),
            (768, 64.91, 43.54),
            (896, 84.49, 55.48),
            (1024, 107.25, 69.21),
            (1536, 227.97, 141.91),
            (2048, 394.05, 242.15),
        ],
    ),
    (
        "A2",
        [
            (64, 7.87, 7.95),
            (128, 9.40, 9.19),
            (192, 11.15, 10.59),
            (256, 12.02, 11.16),
            (320, 14.62, 13.43),
            (384, 17.72, 15.80),
            (448, 21.24, 18.51),
            (512, 25.36, 21.78),
            (640, 34.57, 29.00),
            (768, 46.10, 37.60),
            (896, 58.94, 47.72),
            (1024, 73.76, 59.12),
            (1536, 152.00, 118.80),
            (2048, 259.41, 199.57),
        ],
    ),
    (
        "B3",
        [
            (64, 2.60, 2.47),
            (128, 4.43, 4.06),
            (192, 7.03, 6.10),
            (256, 10.44, 8.59),
            (320, 14.44, 11.64),
            (384, 19.12, 15.08),
            (448, 24.55, 19.09),
            (512, 31.03, 23.53),
            (640, 45.05, 33.80),
            (768, 63.02, 46.05),
            (896, 83.74, 60.29),
            (1024, 106.73, 76.65),
            (1536, 228.94, 160.98),
            (2048, 398.08, 275.93),
        ],
    ),
    (
        "C4",
        [
            (64, 1.34, 1.28),
            (128, 2.76, 2.59),
            (192, 4.52, 4.16),
            (256, 6.64, 5.99),
            (320, 9.20, 8.13),
            (384, 12.01, 10.58),
            (448, 15.24, 13.33),
            (512, 19.02, 16.46),
            (640, 27.56, 23.54),
            (768, 37.89, 31.78),
            (896, 49.24, 41.42),
            (1024, 62.59, 52.18),
            (1536, 131.66, 107.72),
            (2048, 226.45, 182.95),
        ],
    ),
    (
        "A7",
        [
            (64, 1.74, 1.71),
            (128, 3.48, 2.96),
            (192, 5.74, 4.60),
            (256, 8.75, 6.61),
            (320, 12.5, 8.99),
            (384, 16.9, 11.9),
            (448, 22.2, 15.2),
            (512, 28.3, 19.0),
            (640, 42.4, 28.0),
            (768, 59.4, 38.5),
            (896, 79.5, 51.2),
            (1024, 102.6, 65.5),
            (1536, 224.3, 140.6),
            (2048, 393.4, 244.3),
        ],
    ),
];

/// Cryptokit's `speedtest` in 2003: per back end, seconds for key generation x 10, public
/// x 1000, private x 100, private with CRT x 100 (1024 bits).
pub const SPEEDTEST: [(&str, [f64; 4]); 7] = [
    ("Numerix.Slong", [1.36, 0.42, 2.40, 0.77]),
    ("Numerix.Gmp", [1.49, 1.21, 2.17, 0.73]),
    ("Original (OCaml <= 3.07) Nat", [2.31, 0.47, 3.08, 0.95]),
    ("New (OCaml >= 3.08) Nat", [2.84, 0.73, 2.86, 1.09]),
    ("Numerix.Big", [2.31, 2.28, 3.30, 1.48]),
    ("Numerix.Dlong", [4.86, 1.14, 8.78, 2.61]),
    ("Numerix.Clong", [6.35, 1.17, 8.77, 2.98]),
];

/// The speedtest's counts in 2003: key generation, public, private, private with CRT.
pub const SPEEDTEST_COUNTS: [u32; 4] = [10, 1000, 100, 100];

/// A figure in the seed's fixed-decimal style: `decimals` places as the seed prints them,
/// more when that would leave fewer than two significant digits (today's small figures).
pub fn then_style(seconds: f64, decimals: usize) -> String {
    let power = |places: usize| 10f64.powi(-i32::try_from(places).unwrap_or(12));
    let mut places = decimals;
    while places < 12 && seconds > 0.0 && seconds < power(places) * 10.0 {
        places += 1;
    }
    format!("{seconds:.places$}")
}

/// `primegen`'s original block for a size: `NNN bits:` then a row per configuration, and
/// today's row (`now`) when there is one, each `P/C     COUNT   min=, avg=, max=, sum=`.
pub fn print_primegen(bits: usize, now: Option<(u32, [f64; 4])>) {
    outln!("{bits} bits:");
    if let Some((_, rows)) = PRIMEGEN.iter().find(|(b, _)| *b == bits) {
        for (pc, min, avg, max, sum) in rows {
            outln!("{pc:<8}200     min={min:.2}, avg={avg:.2}, max={max:.2}, sum={sum:.2}");
        }
    }
    if let Some((count, [min, avg, max, sum])) = now {
        outln!(
            "{:<8}{count:<8}min={}, avg={}, max={}, sum={}",
            "now",
            then_style(min, 2),
            then_style(avg, 2),
            then_style(max, 2),
            then_style(sum, 2)
        );
    }
    outln!("");
}

/// `metime`'s original table, with today's rows (`ct`, `vartime`: seconds per exponentiation
/// at `bits`) under the seed's; columns wide enough for today's figures.
pub fn print_metime(now: &[(&str, Vec<(usize, f64)>)]) {
    let width = 10;
    outln!("{:>22}base, exponent, and modulus size (bits)", "");
    let mut header = format!("{:<8}", "P/C");
    for bits in METIME_BITS {
        header.push_str(&format!("{bits:>width$}"));
    }
    outln!("{header}");
    outln!("------- {}", "-".repeat(width * METIME_BITS.len()));
    for (pc, times) in METIME {
        let mut line = format!("{pc:<8}");
        for t in times {
            line.push_str(&format!("{t:>width$.3}"));
        }
        outln!("{line}");
    }
    for (name, times) in now {
        let mut line = format!("{name:<8}");
        for bits in METIME_BITS {
            let cell = times
                .iter()
                .find(|(b, _)| *b == bits)
                .map_or_else(|| "-".to_owned(), |(_, t)| then_style(*t, 3));
            line.push_str(&format!("{cell:>width$}"));
        }
        outln!("{line}");
    }
}

/// One `mulsqr` table in the original layout: totals for [`MULSQR_COUNT`] operations, `>`
/// when squaring is faster, the percent saved, and the time per operation in microseconds.
pub fn print_mulsqr(name: &str, rows: &[MulsqrRow], decimals: usize) {
    outln!("({name})");
    outln!("");
    outln!("bits    multiply    square  ad  percent time/mult   time/square");
    for &(bits, mul, sqr) in rows {
        let ad = if sqr < mul { '>' } else { '<' };
        let percent = 100.0 * (mul - sqr).abs() / mul.max(sqr);
        // The document's style: 18.7us, 5.20us (one decimal from 10us, else two).
        let per = |t: f64| {
            let us = t / MULSQR_COUNT * 1e6;
            format!("{}us", then_style(us, if us >= 10.0 { 1 } else { 2 }))
        };
        outln!(
            "{bits:<8}{:<12}{:<8}{ad:<4}{percent:<8.1}{:<12}{}",
            then_style(mul, decimals),
            then_style(sqr, decimals),
            per(mul),
            per(sqr)
        );
    }
    outln!("");
}

/// Cryptokit's blocks of 2003 in their layout (`Back end:` then its four lines).
pub fn print_speedtest() {
    let labels = [
        "RSA key generation (1024 bits)",
        "RSA public-key operation (1024 bits, exponent 65537)",
        "RSA private-key operation (1024 bits)",
        "RSA private-key operation with CRT (1024 bits)",
    ];
    for (name, seconds) in SPEEDTEST {
        outln!("{name}:");
        for ((s, label), count) in seconds.iter().zip(labels).zip(SPEEDTEST_COUNTS) {
            outln!("{s:.2} {label} x {count}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_mulsqr_columns_match_the_document() {
        // The document's own percent and time/mult for A1 at 64 and 2048 bits and A2 at 64
        // bits (where multiplying was faster): 1.9 / 18.7us, 38.5 / 788.1us, 1.0 '<'.
        let percent = |mul: f64, sqr: f64| 100.0 * (mul - sqr).abs() / mul.max(sqr);
        assert_eq!(format!("{:.1}", percent(9.33, 9.15)), "1.9");
        assert_eq!(format!("{:.1}", percent(394.05, 242.15)), "38.5");
        assert_eq!(format!("{:.1}", percent(7.87, 7.95)), "1.0");
        assert_eq!(then_style(394.05 / MULSQR_COUNT * 1e6, 1), "788.1");
    }

    #[test]
    fn todays_figures_never_read_zero() {
        assert_eq!(then_style(0.36, 2), "0.36");
        assert_eq!(then_style(0.03, 2), "0.030");
        assert_eq!(then_style(0.0148, 2), "0.015");
        assert_eq!(then_style(0.000123, 2), "0.00012");
        assert_eq!(then_style(0.0009, 3), "0.00090");
        assert_eq!(then_style(12.5, 2), "12.50");
    }
}
