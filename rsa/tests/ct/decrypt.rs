//! Constant-time drivers for decryption: OAEP and PKCS #1 v1.5 (implicit and explicit
//! rejection), each with a valid and an invalid ciphertext, the key's secrets and the blinding
//! randomness marked undefined.
//!
//! The drivers call the schemes' `decrypt_unsliced`, which is the whole decryption up to its
//! declassification: the private operation, the unmasking (OAEP), the implicit-rejection KDK,
//! PRF and synthetic message, the padding check over every byte and the masked selection. It
//! returns the k-byte block with the verdict and the message length still secret. The driver
//! then declassifies those two values itself, which is exactly what `Unsliced::into_message`
//! assumes public: the verdict (a message or `Error::Decryption`, which the caller sees; with
//! implicit rejection it is always "accepted" and no secret decides it) and the message length
//! (the length of the result the caller gets; with implicit rejection it is the real or the
//! synthetic length, indistinguishable). Everything else stays secret until the message itself
//! is marked public before the comparison.
//!
//! The expected answers are computed before any secret is marked: the valid ciphertexts'
//! messages are known, and the invalid ones' implicit-rejection messages are what the same key
//! gives natively (decryption is deterministic).

use rsatool_rsa::hazmat::PrivateOp;
use rsatool_rsa::{
    EncryptionScheme, Error, HashAlg, Oaep, Pkcs1v15Encrypt, RsaPrivateKey, Unsliced,
};

use super::SecretRng;
use super::common::{self, parts_from_primes, rng};
use super::memcheck::{mark_public_bytes, mark_secret, running_on_valgrind};

/// A (1023- or) 1024-bit two-prime key from public test data (valgrind is about 50 times slower).
fn key() -> RsaPrivateKey {
    let mut r = rng(31);
    let primes: Vec<num_bigint::BigUint> = [512, 512]
        .iter()
        .map(|&b| common::prime(b, &mut r))
        .collect();
    // The product may have 1023 bits.
    RsaPrivateKey::from_parts_allowing_small(&parts_from_primes(&primes, 65537), 1000).unwrap()
}

fn mark_key_secret(key: &RsaPrivateKey) {
    for limbs in key.secret_limbs_for_ct_tests() {
        mark_secret(limbs);
    }
}

/// The declassification `Unsliced::into_message` relies on, done here explicitly: the verdict
/// and the message length become public; then the message, after the slicing, too.
fn declassify(u: Unsliced) -> rsatool_rsa::Result<Vec<u8>> {
    // Public by design: the caller sees a message or an error (see the module docs).
    mark_public_bytes(&u.valid);
    // Public by design: the caller sees the length of the message it gets.
    mark_public_bytes(&u.len);
    let m = u.into_message()?;
    mark_public_bytes(m.as_slice());
    Ok(m)
}

/// A random ciphertext below n: with overwhelming probability a bad padding for both schemes.
fn random_ciphertext(key: &RsaPrivateKey, seed: u64) -> Vec<u8> {
    common::random_below(key.size(), &mut rng(seed))
}

const MSG: &[u8] = b"a secret message";

/// The key, `MSG` encrypted under `scheme` with an RNG seeded with `seed`, and a random
/// ciphertext (seed + 1).
fn key_and_ciphertexts<S: EncryptionScheme>(
    scheme: &S,
    seed: u64,
) -> (RsaPrivateKey, Vec<u8>, Vec<u8>) {
    let key = key();
    let valid = key
        .public_key()
        .encrypt(&mut rng(seed), scheme, MSG)
        .unwrap();
    let invalid = random_ciphertext(&key, seed + 1);
    (key, valid, invalid)
}

/// Marks the key secret, then decrypts `valid` (which must give `MSG`) and `invalid` with
/// `decrypt` (the scheme's `decrypt_unsliced`) and a secret blinding RNG seeded with `seed`;
/// returns the invalid ciphertext's result.
fn decrypt_both_with_secret_key(
    key: &RsaPrivateKey,
    seed: u64,
    [valid, invalid]: [&[u8]; 2],
    decrypt: impl Fn(&mut SecretRng, &[u8]) -> rsatool_rsa::Result<Unsliced>,
) -> rsatool_rsa::Result<Vec<u8>> {
    mark_key_secret(key);
    let mut r = SecretRng(rng(seed));
    let got = declassify(decrypt(&mut r, valid).unwrap());
    assert_eq!(got.unwrap(), MSG);
    declassify(decrypt(&mut r, invalid).unwrap())
}

#[test]
fn oaep_decrypt_valid_and_invalid_with_secret_key() {
    println!("running on valgrind: {}", running_on_valgrind());
    let scheme = Oaep::new(HashAlg::Sha256).with_label("ct");
    let (key, valid, invalid) = key_and_ciphertexts(&scheme, 32);
    let got = decrypt_both_with_secret_key(&key, 34, [&valid, &invalid], |r, c| {
        scheme.decrypt_unsliced(&key, r, c)
    });
    assert_eq!(got, Err(Error::Decryption));
}

#[test]
fn pkcs1v15_implicit_rejection_decrypt_valid_and_invalid_with_secret_key() {
    let scheme = Pkcs1v15Encrypt::new();
    let (key, valid, invalid) = key_and_ciphertexts(&scheme, 35);
    // Before any secret is marked: the synthetic message this key gives (deterministic).
    let synthetic = key.decrypt(&mut rng(37), &scheme, &invalid).unwrap();
    let got = decrypt_both_with_secret_key(&key, 38, [&valid, &invalid], |r, c| {
        scheme.decrypt_unsliced(&key, r, c)
    });
    assert_eq!(got.unwrap(), synthetic);
}

#[test]
fn pkcs1v15_explicit_rejection_decrypt_valid_and_invalid_with_secret_key() {
    let scheme = Pkcs1v15Encrypt::explicit_rejection();
    let (key, valid, invalid) = key_and_ciphertexts(&scheme, 39);
    let got = decrypt_both_with_secret_key(&key, 41, [&valid, &invalid], |r, c| {
        scheme.decrypt_unsliced(&key, r, c)
    });
    assert_eq!(got, Err(Error::Decryption));
}

/// The textbook PKCS #1 v1.5 check with early exits: it branches on the secret EM (its first
/// bytes, then every byte until the separator). Named `leaky_*` so that memcheck's report
/// points here.
#[inline(never)]
fn leaky_pkcs1v15_unpad(em: &[u8]) -> Option<Vec<u8>> {
    if em[0] != 0 || em[1] != 2 {
        return None;
    }
    let sep = 2 + em[2..].iter().position(|&b| b == 0)?;
    if sep < 10 {
        return None;
    }
    Some(em[sep + 1..].to_vec())
}

/// NEGATIVE CONTROL: a padding check with early exits on the secret EM, which memcheck must
/// flag (`.ci/ct-check` runs `leaky_*` alone and fails if nothing is reported).
#[test]
fn leaky_pkcs1v15_padding_check_with_early_exit() {
    let key = key();
    let msg = b"a secret message";
    let c = key
        .public_key()
        .encrypt(&mut rng(42), &Pkcs1v15Encrypt::new(), msg)
        .unwrap();
    mark_key_secret(&key);
    let em = key.private_op(&mut SecretRng(rng(43)), &c).unwrap();
    let m = leaky_pkcs1v15_unpad(&em);
    mark_public_bytes(&m);
    let m = m.unwrap();
    mark_public_bytes(m.as_slice());
    assert_eq!(m, msg);
}
