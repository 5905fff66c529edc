//! Wycheproof's primality vectors through `bignum::prime::is_probable_prime`: every valid
//! number (a prime) is accepted, every invalid one (composite, negative, 0, 1) rejected, and the
//! decision on each "acceptable" one is recorded here.

use bignum::{Nat, prime};
use testvectors::wycheproof::{Expected, primality_tests};

#[test]
fn wycheproof_primality_vectors() {
    let tests = primality_tests().expect("the primality set loads");
    let (mut valid, mut invalid, mut acceptable) = (0, 0, 0);
    for t in &tests {
        // Negative numbers are never prime; the magnitude alone must not be tested for them.
        let verdict =
            !t.negative && prime::is_probable_prime(Nat::from_be_bytes(&t.magnitude).as_limbs());
        match t.case.result {
            Expected::Valid => {
                valid += 1;
                assert!(
                    verdict,
                    "tc {} ({}): a prime was rejected",
                    t.case.tc_id, t.case.comment
                );
            }
            Expected::Invalid => {
                invalid += 1;
                assert!(
                    !verdict,
                    "tc {} ({}): a non-prime was accepted",
                    t.case.tc_id, t.case.comment
                );
            }
            Expected::Acceptable => {
                acceptable += 1;
                // Our decision: answer the mathematical question. These are primes with flags
                // such as "WorstCaseMillerRabin"; record what we said so a change shows up.
                eprintln!(
                    "tc {} ({}; {:?}): acceptable, we say {}",
                    t.case.tc_id, t.case.comment, t.case.flags, verdict
                );
            }
        }
    }
    eprintln!("wycheproof primality: {valid} valid, {invalid} invalid, {acceptable} acceptable");
    assert!(
        valid > 0 && invalid > 0,
        "the set must exercise both verdicts"
    );
}
