//! The batch private operations against the single ones: every item's result equals the
//! single operation's (byte for byte where the scheme is deterministic, by verification or
//! decryption otherwise), for partial and multi-group batches, bad inputs among good ones,
//! several keys and thread caps; where the CPU has IFMA, the eight-lane engine ran.
// Test code on public test data.
#![allow(
    clippy::unwrap_used,
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation
)]

use crate::common;

use rsatool_rsa::hazmat::{BatchPrivateOp, PrivateOp};
use std::sync::OnceLock;

use common::{big, padded, rng};
use num_bigint::BigUint;
use rand_chacha::ChaCha20Rng;
use rand_core::Rng;
use rsatool_rsa::{Batch, Error, HashAlg, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss, RsaPrivateKey};

fn key(bits: usize) -> &'static RsaPrivateKey {
    static KEYS: OnceLock<Vec<RsaPrivateKey>> = OnceLock::new();
    let keys = KEYS.get_or_init(|| {
        [1024, 2048, 2048, 3072]
            .iter()
            .enumerate()
            .map(|(i, &b)| RsaPrivateKey::generate(b, &mut rng(b as u64 + i as u64)).unwrap())
            .collect()
    });
    keys.iter().find(|k| k.bits() == bits).unwrap()
}

fn second_2048() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| RsaPrivateKey::generate(2048, &mut rng(77)).unwrap())
}

fn three_prime_2048() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| RsaPrivateKey::generate_multi_prime(2048, 3, &mut rng(78)).unwrap())
}

/// `count` inputs below n: random, and 0, 1, n − 1 first.
fn inputs(key: &RsaPrivateKey, count: usize, seed: u64) -> Vec<Vec<u8>> {
    let k = key.size();
    let n = big(&key.to_parts().n);
    let mut r = rng(seed);
    (0..count)
        .map(|i| {
            let x = match i {
                0 => BigUint::from(0u8),
                1 => BigUint::from(1u8),
                2 => &n - 1u8,
                _ => {
                    let mut b = vec![0u8; k + 8];
                    r.fill_bytes(&mut b);
                    big(&b) % &n
                }
            };
            padded(&x, k)
        })
        .collect()
}

/// The 2048-bit key, an RNG seeded with `seed`, and `count` messages, message i being `step`·i
/// bytes of value i.
fn key_2048_with_messages(
    seed: u64,
    count: u8,
    step: usize,
) -> (&'static RsaPrivateKey, ChaCha20Rng, Vec<Vec<u8>>) {
    let msgs = (0..count).map(|i| vec![i; step * usize::from(i)]).collect();
    (key(2048), rng(seed), msgs)
}

fn refs(v: &[Vec<u8>]) -> Vec<&[u8]> {
    v.iter().map(Vec::as_slice).collect()
}

/// Each batch result equals the single private operation's (c^d mod n: the blinding does not
/// change it), for batch lengths around the group size and thread caps.
#[test]
fn private_op_batch_equals_single_ops() {
    let runs = bignum::modular::ifma_batch_runs();
    let mut r = rng(1);
    for bits in [1024, 2048, 3072] {
        let key = key(bits);
        let lens: &[usize] = if bits == 2048 {
            &[1, 3, 4, 5, 8, 9]
        } else {
            &[4, 6]
        };
        for &len in lens {
            let ins = inputs(key, len, len as u64);
            let want: Vec<Vec<u8>> = ins
                .iter()
                .map(|c| key.private_op(&mut r, c).unwrap())
                .collect();
            for threads in [1, 3] {
                let got = Batch::new()
                    .threads(threads)
                    .private_op(key, &mut r, &refs(&ins));
                assert_eq!(got.len(), len);
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert_eq!(g.as_ref().unwrap(), w, "{bits} bits, {len} items, item {i}");
                }
            }
            let got = Batch::new().private_op(key, &mut r, &refs(&ins));
            assert!(got.iter().zip(&want).all(|(g, w)| g.as_ref().unwrap() == w));
        }
    }
    if bignum::backend::PowPath::Ifma.is_available()
        && bignum::backend::pow_path() == bignum::backend::PowPath::Ifma
    {
        assert!(
            bignum::modular::ifma_batch_runs() > runs,
            "the IFMA batch did not run"
        );
    } else {
        eprintln!(
            "skipped the IFMA proof: no avx512ifma (or BIGNUM_BACKEND set); the single path ran"
        );
    }
}

/// Bad inputs (wrong length, equal to n, above n) get their own errors; the good ones among
/// them are unaffected.
#[test]
fn bad_inputs_fail_alone() {
    let key = key(2048);
    let k = key.size();
    let mut r = rng(2);
    let mut ins = inputs(key, 9, 9);
    let n = padded(&big(&key.to_parts().n), k);
    ins[1] = vec![1; k - 1];
    ins[4] = n.clone();
    ins[7] = vec![0xFF; k];
    ins.push(vec![0; k + 1]);
    let got = Batch::new().private_op(key, &mut r, &refs(&ins));
    for (i, (g, c)) in got.iter().zip(&ins).enumerate() {
        match i {
            1 | 9 => assert!(matches!(g, Err(Error::InvalidLength { .. })), "item {i}"),
            4 | 7 => assert!(matches!(g, Err(Error::InputOutOfRange)), "item {i}"),
            _ => assert_eq!(
                g.as_ref().unwrap(),
                &key.private_op(&mut r, c).unwrap(),
                "item {i}"
            ),
        }
    }
}

/// Several keys in one batch: two 2048-bit keys and a three-prime one (their halves share the
/// lanes or not), and keys of other sizes (single path).
#[test]
fn several_keys_in_one_batch() {
    let keys = [
        key(2048),
        second_2048(),
        three_prime_2048(),
        key(1024),
        key(2048),
    ];
    let mut r = rng(3);
    let ins: Vec<(usize, Vec<u8>)> = (0..13)
        .map(|i| {
            let kx = i % keys.len();
            (kx, inputs(keys[kx], 4, i as u64).pop().unwrap())
        })
        .collect();
    let items: Vec<(&RsaPrivateKey, &[u8])> = ins
        .iter()
        .map(|(kx, c)| (keys[*kx], c.as_slice()))
        .collect();
    let got = Batch::new().private_op_keys(&mut r, &items);
    for (g, (key, c)) in got.iter().zip(&items) {
        assert_eq!(g.as_ref().unwrap(), &key.private_op(&mut r, c).unwrap());
    }
    // Only same-size 2-prime keys, so that the groups fill the lanes.
    let items: Vec<(&RsaPrivateKey, &[u8])> = ins
        .iter()
        .filter(|(kx, _)| *kx < 2 || *kx == 4)
        .map(|(kx, c)| (keys[*kx], c.as_slice()))
        .collect();
    let got = Batch::new().threads(2).private_op_keys(&mut r, &items);
    for (g, (key, c)) in got.iter().zip(&items) {
        assert_eq!(g.as_ref().unwrap(), &key.private_op(&mut r, c).unwrap());
    }
}

/// PKCS #1 v1.5 signatures are deterministic: the batch's equal the single ones byte for
/// byte; a digest of the wrong length is that item's error. PSS signatures verify.
#[test]
fn sign_batch_equals_single_signatures() {
    let (key, mut r, msgs) = key_2048_with_messages(4, 7, 10);
    let public = key.public_key();
    let scheme = Pkcs1v15Sign::new(HashAlg::Sha256);
    let got = key.sign_batch(&mut r, &scheme, &refs(&msgs));
    for (g, m) in got.iter().zip(&msgs) {
        assert_eq!(g.as_ref().unwrap(), &key.sign(&mut r, &scheme, m).unwrap());
        public.verify(&scheme, m, g.as_ref().unwrap()).unwrap();
    }
    let mut digests: Vec<Vec<u8>> = msgs.iter().map(|m| HashAlg::Sha256.digest(m)).collect();
    digests[2].pop();
    let got = key.sign_prehashed_batch(&mut r, &scheme, &refs(&digests));
    for (i, (g, d)) in got.iter().zip(&digests).enumerate() {
        if i == 2 {
            assert!(matches!(g, Err(Error::InvalidLength { .. })));
        } else {
            assert_eq!(
                g.as_ref().unwrap(),
                &key.sign_prehashed(&mut r, &scheme, d).unwrap()
            );
        }
    }
    let pss = Pss::new(HashAlg::Sha384);
    let got = Batch::new()
        .threads(2)
        .sign(key, &mut r, &pss, &refs(&msgs));
    for (g, m) in got.iter().zip(&msgs) {
        public.verify(&pss, m, g.as_ref().unwrap()).unwrap();
    }
}

/// OAEP and PKCS #1 v1.5 decryption: batch decryptions round-trip; a ciphertext of the
/// wrong length fails alone; PKCS #1 v1.5's implicit rejection gives the single
/// decryption's synthetic message for a bad padding.
#[test]
fn decrypt_batch_equals_single_decryptions() {
    let (key, mut r, msgs) = key_2048_with_messages(5, 9, 3);
    let public = key.public_key();
    let oaep = Oaep::new(HashAlg::Sha256).with_label("batch");
    let mut cts: Vec<Vec<u8>> = msgs
        .iter()
        .map(|m| public.encrypt(&mut r, &oaep, m).unwrap())
        .collect();
    cts[3].pop();
    let got = key.decrypt_batch(&mut r, &oaep, &refs(&cts));
    for (i, (g, m)) in got.iter().zip(&msgs).enumerate() {
        if i == 3 {
            assert!(matches!(g, Err(Error::Decryption)));
        } else {
            assert_eq!(g.as_ref().unwrap(), m, "item {i}");
        }
    }
    let p15 = Pkcs1v15Encrypt::new();
    let mut cts: Vec<Vec<u8>> = msgs
        .iter()
        .map(|m| public.encrypt(&mut r, &p15, m).unwrap())
        .collect();
    // A bad padding: a random value below n.
    cts[5] = inputs(key, 4, 55).pop().unwrap();
    let got = Batch::new()
        .threads(3)
        .decrypt(key, &mut r, &p15, &refs(&cts));
    for (i, (g, c)) in got.iter().zip(&cts).enumerate() {
        assert_eq!(
            g.as_ref().unwrap(),
            &key.decrypt(&mut r, &p15, c).unwrap(),
            "item {i}"
        );
        if i != 5 {
            assert_eq!(g.as_ref().unwrap(), &msgs[i]);
        }
    }
    let explicit = Pkcs1v15Encrypt::explicit_rejection();
    let got = key.decrypt_batch(&mut r, &explicit, &refs(&cts));
    assert!(matches!(got[5], Err(Error::Decryption)));
    assert_eq!(got[4].as_ref().unwrap(), &msgs[4]);
}
