//! `bignum::modular::ifma_engine::calibrate`: its internals.

use bignum::backend::PowPath;
use bignum::modular::ifma_engine::calibrate::*;
use bignum::modular::ifma_engine::shape::layout_of;

/// Where the CPU has IFMA, each candidate shape that has an instance for an RSA size
/// times, and one that has none does not; elsewhere there is nothing to time.
#[test]
fn the_timer_times_the_shapes_that_have_an_instance() {
    if !PowPath::Ifma.is_available() {
        std::eprintln!("skipped: no avx512ifma on this CPU (nothing to calibrate)");
        return;
    }
    for bits in [1024, 1536, 2048] {
        let mut time = timer(bits);
        let mut runnable = 0;
        for shape in bignum::backend::Shape::ALL {
            let has = layout_of(bits, shape).is_some_and(|l| l.interleave == shape.interleave);
            let t = time(shape);
            assert_eq!(t.is_some(), has, "{bits}: {shape}");
            assert!(t.is_none_or(|t| t > 0.0), "{bits}: {shape}");
            runnable += usize::from(has);
        }
        assert!(runnable >= 1, "{bits}: no shape runs");
    }
}
