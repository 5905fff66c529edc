//! The side-by-side helpers (`benches::rsa_peers`): byte fitting, the agreement check that
//! guards every ratio, and each peer's reading of our key against num-bigint.
//!
//! Built with the `peers` feature only (OpenSSL and aws-lc-sys, ring, RustCrypto's `rsa`):
//! `cargo test -p benches --features peers --test peers`.

// Test code: `unwrap`/`expect` are the assertions.
#![allow(clippy::unwrap_used)]

use benches::rsa_peers::{Keys, OPENSSL, OURS, Op, RSA09, check_equal, fit};

#[test]
fn fit_pads_and_strips_leading_zeros() {
    assert_eq!(fit(&[1, 2], 4), [0, 0, 1, 2]);
    assert_eq!(fit(&[0, 0, 0, 7, 9], 3), [0, 7, 9]);
    assert_eq!(fit(&[], 2), [0, 0]);
}

#[test]
fn check_equal_names_the_implementation_that_disagrees() {
    let mut ops = vec![
        Op::new(OURS, || vec![1, 2]),
        Op::new(OPENSSL, || vec![1, 2]),
        Op::new(RSA09, || vec![1, 3]),
    ];
    let err = check_equal("x", 1024, &mut ops).unwrap_err();
    assert!(err.contains("rsa-0.9 disagrees with ours"), "{err}");
    assert!(check_equal("x", 1024, &mut ops[..2]).is_ok());
}

#[test]
fn every_peer_reads_our_1024_bit_key_and_agrees_on_raw_rsa() {
    // The key, m and s = m^d come from us; m^e mod n == m for the public op is checked
    // against num-bigint, so a wrong common answer cannot pass.
    let keys = Keys::new(1024);
    let n = num_bigint::BigUint::from_bytes_be(&keys.ours.n().to_be_bytes());
    let want = num_bigint::BigUint::from_bytes_be(&keys.s)
        .modpow(&num_bigint::BigUint::from(65537u32), &n);
    assert_eq!(want, num_bigint::BigUint::from_bytes_be(&keys.m));
    for mut op in keys.public_ops() {
        assert_eq!((op.run)(), keys.m, "{}", op.name);
    }
    for mut op in keys.private_crt_ops() {
        assert_eq!((op.run)(), keys.s, "{}", op.name);
    }
}
