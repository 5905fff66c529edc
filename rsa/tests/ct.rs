//! Constant-time check driver for the private operation, with the CRT and plain
//! (ARCHITECTURE.md, "Constant time").
//!
//! The key is built from public test data, then its secrets (d, the primes, d_i, the CRT
//! coefficients and partial products) are marked undefined with memcheck client requests, and
//! the blinding randomness too (an RNG wrapper marks every byte it produces); the private
//! operations run (CRT with blinding, then plain), and each output is marked defined before it
//! is compared with num-bigint.
//! Under `valgrind --error-exitcode=…` any branch or address that depends on a secret is an
//! error; natively the requests do nothing and this is an ordinary test. `.ci/ct-check` runs it
//! under valgrind.
//!
//! Accepted leaks, suppressed by name in `.ci/rsa-ct.supp` (each is the operation's one
//! declassified bit or value): the fault check's verdict (`CrtKey::output`), and the
//! blinded product a = r·s, uniform and independent of r, which is declassified to be
//! inverted in variable time (`Nat::inv_mod_vartime`, `Nat::from_limbs`); and whether the two
//! draws r and s of a fresh blinding pair were equal (`keep_if_draws_differ`: such a pair,
//! which a stuck RNG gives, is not cached; `ct/blinding.rs` drives the cached pair). Not
//! marked: the Montgomery constants inside each prime's context (derived from the prime but
//! not reachable from here).
// Test code: `unwrap` on expected values is the assertion.
#![allow(clippy::unwrap_used)]

#[path = "ct/blinding.rs"]
mod blinding;
mod common;
#[path = "ct/decrypt.rs"]
mod decrypt;
#[path = "ct/keygen.rs"]
mod keygen;
#[allow(dead_code)] // shared with bignum's drivers; not every helper is used here
#[path = "../../bignum/tests/ct/memcheck.rs"]
mod memcheck;
#[path = "ct/sign.rs"]
mod sign;

use common::{big, padded, parts_from_primes, rng};
use memcheck::{mark_public_bytes, mark_secret, mark_secret_bytes};
use rand_core::{Rng, TryCryptoRng, TryRng};
use rsatool_rsa::RsaPrivateKey;
use rsatool_rsa::hazmat::PrivateOp;

/// An RNG whose every output byte is secret (marked undefined).
struct SecretRng(rand_chacha::ChaCha20Rng);

impl TryRng for SecretRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let v = self.0.next_u32();
        mark_secret_bytes(&v);
        Ok(v)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let v = self.0.next_u64();
        mark_secret_bytes(&v);
        Ok(v)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.0.fill_bytes(dst);
        mark_secret_bytes(dst);
        Ok(())
    }
}

impl TryCryptoRng for SecretRng {}

fn check(key: &RsaPrivateKey, seed: u64) {
    let parts = key.to_parts();
    let (n, d) = (big(&parts.n), big(&parts.d));
    for limbs in key.secret_limbs_for_ct_tests() {
        mark_secret(limbs);
    }
    let mut r = SecretRng(rng(seed));
    let mut c = vec![0u8; key.size()];
    rng(seed + 1).fill_bytes(&mut c[1..]);
    let want = padded(&big(&c).modpow(&d, &n), key.size());
    let m = key.private_op(&mut r, &c).unwrap();
    mark_public_bytes(m.as_slice());
    assert_eq!(m, want);
    let m = key.private_op_plain(&c).unwrap();
    mark_public_bytes(m.as_slice());
    assert_eq!(m, want);
}

#[test]
fn crt_private_op_with_secret_key_and_blinding() {
    println!("running on valgrind: {}", memcheck::running_on_valgrind());
    let mut r = rng(1);
    // Two primes (1024 bits) and three unbalanced ones (768 bits): valgrind is ~50x slower.
    let primes: Vec<num_bigint::BigUint> = [512, 512]
        .iter()
        .map(|&b| common::prime(b, &mut r))
        .collect();
    let key = RsaPrivateKey::from_parts(&parts_from_primes(&primes, 65537)).unwrap();
    check(&key, 10);
    let primes: Vec<num_bigint::BigUint> = [300, 250, 218]
        .iter()
        .map(|&b| common::prime(b, &mut r))
        .collect();
    let key =
        RsaPrivateKey::from_parts_allowing_small(&parts_from_primes(&primes, 65537), 512).unwrap();
    check(&key, 20);
}

/// Two fixed 3072-bit primes (`openssl prime -generate -bits 3072 -hex`): generating primes of
/// that size under valgrind would take minutes.
const P3072: &str = concat!(
    "F33B4E991CE90D41AA59298C78E350BBC024C619A8F45A5F0349F463FA9828DCDEF43DB4B4FF6E7C6F6F820A",
    "16D6948757A56E714F5E356A906CA8E5B15699B377763B05AB038D3A97CD5B36905F88C8DACE46E7798557D1",
    "578C5B26160F5E450DDDE29B9E8F0077709AACE9563C9DE48C6528AE16B30E6F443F193D27615F30D5E96181",
    "BE7CAF287351427FAB07202C4514C36C3989A2863CAA7FB54DE51B0DD16E8F392B4995D05D4BDAB9E330AA23",
    "B755636A0FD3C149E7009BDEE3808486FEBDC87C4C10867F9539EA6A5A4D850B21D11689326E19592DC84F1F",
    "AE9CAD5226032A8C870D6E645055E5D450CF3E2B81308BD061C8DC3702A861B84A93A98FFEA75F120F48BA80",
    "D603083A124F44EE2E627839F9E22D73B88435510AB4AB2ADB0D73A5A2FBD99AD0BD23932D79D5462C1D3D2E",
    "006A70CF677FA0FA9FA2F405FDC6A11744AA5EE4CB413E25DBF9AC3906CC422210C1027B39CD18928257A1A6",
    "6426509D5C1F713E9EFA51A48B2D6D595C70580D3EE608A20AC8B6F3DB4362CD",
);
const Q3072: &str = concat!(
    "C41C5F3D35B64AB55A64BBE60A0790AC8416FAE26569E629723DA319B7413DCD2E9B27F95EE698DCF2F6DE7E",
    "08F7A6FC714E00F55A19180C94462B48CC7D40226E264963A58B8DB82F61F14A1A620FEA32EE16384E5F3520",
    "4189D9041C6302F3EEECEA78CA6DB10338673E521AA92760C428C5A7CFECE2AB71ECD694415F315BD4FE9180",
    "445EBB5A8235C1BA226CD4C75C6BA6EED340A993B2531C1BCBED2BF96356DBAC66E1CAF691A9A8F395700ADE",
    "5AB02779B4533A33F039B0DA1E963CED94F1644FBB36A01CBB3DF1A1E8A6D15E38870CF6D52A07E2F99CF1BF",
    "8DED8E3073F3362A2066DC3A004511E75441E797CAA81BF21C7802C74580B30EF4BF7D0C5E5770EA152EF372",
    "147B638F9479D154F64E2373467260B1C8D4AF3AD9C15D551E7C18DA94A8ACA928403B875E21133F297D25A9",
    "D78578DAC90F221E12EDD51A8EED173DCFA4C398FBE2F4C4850CB80A79C784B2B1C681C12B46C464AA0572DE",
    "C9ED5F5B38F01415D30666E44CB33EC8999CAA6DA3F2E4097475976F074E3ED7",
);

/// The private operations of a 6144-bit key, once: its primes have 48 limbs, so Garner's
/// recombination multiplies secrets by Karatsuba (`bignum::mpn::KARATSUBA_MUL_THRESHOLD`),
/// and the plain operation squares 96-limb secrets by Karatsuba
/// (`bignum::mpn::KARATSUBA_SQR_THRESHOLD`). The results are checked with the public exponent
/// (m^e = c): a private operation in num-bigint would take minutes under valgrind.
#[test]
fn private_ops_of_a_6144_bit_key_above_the_karatsuba_thresholds() {
    let primes =
        [P3072, Q3072].map(|h| num_bigint::BigUint::parse_bytes(h.as_bytes(), 16).unwrap());
    let key = RsaPrivateKey::from_parts(&parts_from_primes(&primes, 65537)).unwrap();
    assert_eq!(key.size(), 768);
    let n = big(&key.to_parts().n);
    for limbs in key.secret_limbs_for_ct_tests() {
        mark_secret(limbs);
    }
    let mut r = SecretRng(rng(30));
    let mut c = vec![0u8; key.size()];
    rng(31).fill_bytes(&mut c[1..]);
    for m in [
        key.private_op(&mut r, &c).unwrap(),
        key.private_op_plain(&c).unwrap(),
    ] {
        mark_public_bytes(m.as_slice());
        let back = big(m.as_slice()).modpow(&num_bigint::BigUint::from(65537u32), &n);
        assert_eq!(padded(&back, key.size()), c);
    }
}
