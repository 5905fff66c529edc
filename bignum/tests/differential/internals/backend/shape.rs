//! `bignum::backend::shape`: its internals.

use bignum::backend::engine::{Shape, table_shape};
use bignum::backend::shape::*;

#[test]
fn calibration_keeps_the_table_unless_clearly_beaten() {
    let shapes = candidates(30);
    assert_eq!(shapes[0], table_shape(30), "the table's shape first");
    let mut all = shapes.to_vec();
    all.sort_by_key(|s| Shape::ALL.iter().position(|a| a == s));
    all.dedup();
    assert_eq!(all.len(), 4, "each shape once: {shapes:?}");
    let [t, a, b, c] = shapes;
    // 4% faster: within the margin, the table's stays.
    let close = [(t, Some(1.0)), (a, Some(0.96)), (b, None), (c, Some(1.5))];
    assert_eq!(verdict(&close), Some(t));
    // 10% faster: the calibration moves.
    let clear = [(t, Some(1.0)), (a, Some(1.2)), (b, Some(0.9)), (c, None)];
    assert_eq!(verdict(&clear), Some(b));
    // The table's shape without an instance: the fastest of the others.
    let none = [(t, None), (a, Some(2.0)), (b, Some(1.0)), (c, None)];
    assert_eq!(verdict(&none), Some(b));
    assert_eq!(verdict(&[(t, None)]), None);
}

/// A calibration takes each candidate's best time over its rounds, asks every candidate in
/// every round, and records its verdict for the digit count, which later decisions return
/// without timing again.
#[test]
fn calibration_times_every_candidate_and_records_the_verdict() {
    // A digit count no other test of this process calibrates.
    let d = 77;
    let table = table_shape(d);
    let faster = candidates(d)[3];
    let mut asked = std::vec::Vec::new();
    let got = calibrate(d, |s| {
        asked.push(s);
        Some(if s == faster { 0.5 } else { 1.0 })
    });
    assert_eq!(got, faster);
    assert_eq!(asked.len(), 4 * CALIBRATION_ROUNDS);
    assert_eq!(calibrated(d), Some(faster));
    let again = calibrate(d, |_| panic!("timed again"));
    assert_eq!(again, faster);
    assert_ne!(table, faster);
}
