//! OAEP and PKCS #1 v1.5 encryption: round trips for every hash pair, length limits, one error
//! for every rejected ciphertext, and implicit rejection's properties. Bad paddings are built
//! here, independently of the code under test: the encoded message is written byte by byte
//! (with MGF1 spelled out from RFC 8017 B.2.1) and encrypted with the raw public operation.
// Test code: `unwrap` on expected values is the assertion; sizes here are public test data.
#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::integer_division_remainder_used
)]

use crate::common;

use rsatool_rsa::hazmat::{PrivateOp, PublicOp};
use std::collections::HashSet;

use common::{key_1024, keys, random_below, rng, small_parts};
use rand_core::Rng;
use rsatool_rsa::{EncryptionScheme, Error, HashAlg, Oaep, Pkcs1v15Encrypt, RsaPrivateKey};

/// MGF1 (RFC 8017 B.2.1) written out: Hash(seed ‖ C(0)) ‖ Hash(seed ‖ C(1)) ‖ …, cut to len.
fn mgf1(hash: HashAlg, seed: &[u8], len: usize) -> Vec<u8> {
    let mut t = Vec::new();
    let mut c: u32 = 0;
    while t.len() < len {
        t.extend(hash.digest(&[seed, &c.to_be_bytes()].concat()));
        c += 1;
    }
    t.truncate(len);
    t
}

fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

/// An OAEP encoded message from its parts: Y ‖ maskedSeed ‖ maskedDB with DB given whole.
fn oaep_em(hash: HashAlg, mgf: HashAlg, y: u8, seed: &[u8], db: &[u8]) -> Vec<u8> {
    let masked_db = xor(db, &mgf1(mgf, seed, db.len()));
    let masked_seed = xor(seed, &mgf1(mgf, &masked_db, hash.output_len()));
    [&[y][..], &masked_seed, &masked_db].concat()
}

/// DB = lHash ‖ PS ‖ 0x01 ‖ M for a k-byte key.
fn oaep_db(hash: HashAlg, label: &[u8], k: usize, msg: &[u8]) -> Vec<u8> {
    let h = hash.output_len();
    let ps = vec![0u8; k - msg.len() - 2 * h - 2];
    [&hash.digest(label)[..], &ps, &[1], msg].concat()
}

fn ciphertext(key: &RsaPrivateKey, em: &[u8]) -> Vec<u8> {
    key.public_key().public_op(em).unwrap()
}

#[test]
fn oaep_round_trips_every_hash_pair_with_and_without_label() {
    let mut r = rng(1);
    let mut count = 0;
    for key in keys() {
        let k = key.size();
        for hash in HashAlg::ALL {
            for mgf in HashAlg::ALL {
                for label in [&b""[..], b"a label", &[0u8; 300]] {
                    let scheme = Oaep::new(hash).with_mgf1_hash(mgf).with_label(label);
                    let max = k as isize - 2 * hash.output_len() as isize - 2;
                    if max < 0 {
                        // 1024 bits with SHA-512: not even the empty message fits.
                        assert_eq!(
                            key.public_key().encrypt(&mut r, &scheme, b""),
                            Err(Error::MessageTooLong)
                        );
                        continue;
                    }
                    for len in [0, 1, (max as usize) / 2, max as usize] {
                        let mut msg = vec![0u8; len];
                        r.fill_bytes(&mut msg);
                        let c = key.public_key().encrypt(&mut r, &scheme, &msg).unwrap();
                        assert_eq!(c.len(), k);
                        assert_eq!(key.decrypt(&mut r, &scheme, &c).unwrap(), msg);
                        count += 1;
                    }
                }
            }
        }
    }
    println!("{count} OAEP round trips");
    assert!(count > 500);
}

#[test]
fn oaep_is_randomized() {
    let key = key_1024();
    let scheme = Oaep::new(HashAlg::Sha256);
    let mut r = rng(2);
    let a = key.public_key().encrypt(&mut r, &scheme, b"m").unwrap();
    let b = key.public_key().encrypt(&mut r, &scheme, b"m").unwrap();
    assert_ne!(a, b);
}

#[test]
fn oaep_decrypts_an_independently_encoded_message() {
    // The encoding written out here, encrypted raw, decrypts: the decoder reads RFC 8017's
    // layout, not only its own encoder's.
    let mut r = rng(3);
    for key in keys() {
        let k = key.size();
        for (hash, mgf) in [
            (HashAlg::Sha1, HashAlg::Sha1),
            (HashAlg::Sha256, HashAlg::Sha1),
            (HashAlg::Sha384, HashAlg::Sha512_224),
        ] {
            let msg = b"independently encoded";
            // The RNG as it stands before the seed is drawn: the encoder draws the same seed
            // from it.
            let mut replay = r.clone();
            let mut seed = vec![0u8; hash.output_len()];
            r.fill_bytes(&mut seed);
            let em = oaep_em(hash, mgf, 0, &seed, &oaep_db(hash, b"L", k, msg));
            let scheme = Oaep::new(hash).with_mgf1_hash(mgf).with_label("L");
            let c = ciphertext(key, &em);
            assert_eq!(key.decrypt(&mut r, &scheme, &c).unwrap(), msg);
            // And the encoder, drawing the same seed, produces the same ciphertext.
            assert_eq!(
                key.public_key().encrypt(&mut replay, &scheme, msg).unwrap(),
                c
            );
        }
    }
}

#[test]
fn oaep_max_message_length_fits_and_one_more_byte_is_too_long() {
    let mut r = rng(4);
    for key in keys() {
        for hash in [HashAlg::Sha1, HashAlg::Sha256, HashAlg::Sha384] {
            let scheme = Oaep::new(hash);
            let max = key.size() - 2 * hash.output_len() - 2;
            assert_eq!(scheme.max_message_len(key.public_key()), max);
            let msg = vec![0xa5; max];
            let c = key.public_key().encrypt(&mut r, &scheme, &msg).unwrap();
            assert_eq!(key.decrypt(&mut r, &scheme, &c).unwrap(), msg);
            assert_eq!(
                key.public_key().encrypt(&mut r, &scheme, &vec![0; max + 1]),
                Err(Error::MessageTooLong)
            );
        }
    }
}

#[test]
fn oaep_decrypt_one_error_for_every_bad_padding() {
    let mut r = rng(5);
    let hash = HashAlg::Sha256;
    let scheme = Oaep::new(hash).with_label("right");
    for key in keys() {
        let k = key.size();
        let h = hash.output_len();
        let msg = b"message";
        let seed = vec![0x5c; h];
        let good_db = oaep_db(hash, b"right", k, msg);
        let mut bad = Vec::new();
        // Y ≠ 0 (n's top byte is ≥ 0x80, so EM stays below n).
        bad.push((
            "Y = 1",
            ciphertext(key, &oaep_em(hash, hash, 1, &seed, &good_db)),
        ));
        // lHash' ≠ lHash: another label.
        let c = scheme.encrypt(key.public_key(), &mut r, msg).unwrap();
        let wrong_label = Oaep::new(hash).with_label("wrong");
        assert_eq!(
            key.decrypt(&mut r, &wrong_label, &c),
            Err(Error::Decryption),
            "wrong label"
        );
        // No 0x01 separator: PS runs to the end.
        let mut db = good_db.clone();
        let sep = k - msg.len() - h - 2;
        db[sep..].fill(0);
        bad.push((
            "no separator",
            ciphertext(key, &oaep_em(hash, hash, 0, &seed, &db)),
        ));
        // A byte that is neither 0 nor 1 before the separator.
        let mut db = good_db.clone();
        db[h + 3] = 0x02;
        bad.push((
            "0x02 in PS",
            ciphertext(key, &oaep_em(hash, hash, 0, &seed, &db)),
        ));
        // The separator 0x02 instead of 0x01.
        let mut db = good_db.clone();
        db[sep] = 0x02;
        bad.push((
            "separator 0x02",
            ciphertext(key, &oaep_em(hash, hash, 0, &seed, &db)),
        ));
        // One bit of lHash flipped.
        let mut db = good_db.clone();
        db[0] ^= 0x80;
        bad.push((
            "lHash flipped",
            ciphertext(key, &oaep_em(hash, hash, 0, &seed, &db)),
        ));
        // A tampered ciphertext.
        let mut t = c.clone();
        t[k / 2] ^= 1;
        bad.push(("tampered", t));
        // c ≥ n.
        bad.push(("c = n", key.n().to_be_bytes().to_vec()));
        bad.push(("c = all ones", vec![0xff; k]));
        // Wrong lengths.
        for len in [0, 1, k - 1, k + 1, 2 * k] {
            let mut v = vec![0u8; len];
            v[..len.min(k)].copy_from_slice(&c[..len.min(k)]);
            bad.push(("wrong length", v));
        }
        for (what, c) in &bad {
            assert_eq!(
                key.decrypt(&mut r, &scheme, c),
                Err(Error::Decryption),
                "{what}"
            );
        }
        // The control: the good encoding decrypts.
        let good = ciphertext(key, &oaep_em(hash, hash, 0, &seed, &good_db));
        assert_eq!(key.decrypt(&mut r, &scheme, &good).unwrap(), msg);
    }
}

#[test]
fn oaep_key_too_small_for_the_hash_is_an_error_not_a_panic() {
    // 512 bits, SHA-512: k = 64 < 2·64 + 2.
    let key = RsaPrivateKey::from_parts_allowing_small(&small_parts(256, 256, 6), 512).unwrap();
    let scheme = Oaep::new(HashAlg::Sha512);
    let mut r = rng(6);
    assert_eq!(scheme.max_message_len(key.public_key()), 0);
    assert_eq!(
        key.public_key().encrypt(&mut r, &scheme, b""),
        Err(Error::MessageTooLong)
    );
    let mut c = vec![0u8; key.size()];
    c[key.size() - 1] = 2;
    assert_eq!(key.decrypt(&mut r, &scheme, &c), Err(Error::Decryption));
}

#[test]
fn decrypt_never_panics_on_any_ciphertext_length() {
    let key = key_1024();
    let k = key.size();
    let mut r = rng(7);
    type Decrypt<'a> = &'a dyn Fn(&[u8]) -> rsatool_rsa::Result<Vec<u8>>;
    let schemes: [Decrypt; 3] = [
        &|c| key.decrypt(&mut rng(70), &Oaep::new(HashAlg::Sha1), c),
        &|c| key.decrypt(&mut rng(71), &Pkcs1v15Encrypt::new(), c),
        &|c| key.decrypt(&mut rng(72), &Pkcs1v15Encrypt::explicit_rejection(), c),
    ];
    for len in 0..=k + 2 {
        let mut c = vec![0u8; len];
        r.fill_bytes(&mut c);
        for f in schemes {
            let got = f(&c);
            if len != k {
                assert_eq!(got, Err(Error::Decryption), "length {len}");
            }
        }
    }
}

#[test]
fn encrypt_never_panics_on_any_message_length() {
    let key = key_1024();
    let k = key.size();
    let mut r = rng(8);
    for len in 0..=k + 2 {
        let msg = vec![7u8; len];
        let oaep = key
            .public_key()
            .encrypt(&mut r, &Oaep::new(HashAlg::Sha1), &msg);
        assert_eq!(oaep.is_ok(), len <= k - 42, "OAEP {len}");
        let v15 = key
            .public_key()
            .encrypt(&mut r, &Pkcs1v15Encrypt::new(), &msg);
        assert_eq!(v15.is_ok(), len <= k - 11, "v1.5 {len}");
        if len > k - 11 {
            assert_eq!(v15, Err(Error::MessageTooLong));
        }
    }
}

/// Parses EM = 0x00 ‖ 0x02 ‖ PS ‖ 0x00 ‖ M and returns (PS, M), asserting the layout.
fn parse_v15(em: &[u8]) -> (&[u8], &[u8]) {
    assert_eq!(em[..2], [0, 2]);
    let sep = 2 + em[2..].iter().position(|&b| b == 0).unwrap();
    (&em[2..sep], &em[sep + 1..])
}

#[test]
fn pkcs1v15_round_trips_with_nonzero_random_padding() {
    let mut r = rng(9);
    for key in keys() {
        let k = key.size();
        for len in [0, 1, 16, 48, k - 12, k - 11] {
            let mut msg = vec![0u8; len];
            r.fill_bytes(&mut msg);
            let c = key
                .public_key()
                .encrypt(&mut r, &Pkcs1v15Encrypt::new(), &msg)
                .unwrap();
            assert_eq!(c.len(), k);
            for scheme in [
                Pkcs1v15Encrypt::new(),
                Pkcs1v15Encrypt::explicit_rejection(),
            ] {
                assert_eq!(key.decrypt(&mut r, &scheme, &c).unwrap(), msg, "{len}");
            }
            // The padding, read with the raw private operation: non-zero, k − mLen − 3 bytes.
            let em = key.private_op(&mut r, &c).unwrap();
            let (ps, m) = parse_v15(&em);
            assert_eq!(m, msg);
            assert_eq!(ps.len(), k - len - 3);
            assert!(ps.len() >= 8 && !ps.contains(&0));
        }
        assert_eq!(
            key.public_key()
                .encrypt(&mut r, &Pkcs1v15Encrypt::new(), &vec![0; k - 10]),
            Err(Error::MessageTooLong)
        );
    }
}

#[test]
fn pkcs1v15_padding_uses_every_nonzero_byte_value() {
    // An RNG biased to zero bytes would show here as a missing value or a zero in PS.
    let key = key_1024();
    let mut r = rng(10);
    let mut seen = HashSet::new();
    for _ in 0..40 {
        let c = key
            .public_key()
            .encrypt(&mut r, &Pkcs1v15Encrypt::new(), b"x")
            .unwrap();
        let em = key.private_op(&mut r, &c).unwrap();
        seen.extend(parse_v15(&em).0.iter().copied());
    }
    assert_eq!(seen.len(), 255);
    assert!(!seen.contains(&0));
}

/// What is wrong, and the change to a good encoding that makes it so.
type BreakPadding = (&'static str, fn(&mut [u8]));

/// k-byte encoded messages with bad PKCS #1 v1.5 padding, each with what is wrong.
fn bad_v15_ems(k: usize, r: &mut impl Rng) -> Vec<(&'static str, Vec<u8>)> {
    let mut good = vec![0u8; k];
    good[1] = 2;
    r.fill_bytes(&mut good[2..k - 17]);
    for b in &mut good[2..k - 17] {
        *b |= 1;
    }
    // good = 00 02 PS(k−19) 00 M(16); each case changes it in one place.
    let edits: [BreakPadding; 6] = [
        ("first byte 1", |em| em[0] = 1),
        ("block type 1", |em| em[1] = 1),
        ("block type 0", |em| em[1] = 0),
        ("no separator", |em| {
            let k = em.len();
            em[k - 17] = 0x55;
            em[k - 16..].fill(0x77);
        }),
        ("PS of 7 bytes", |em| em[9] = 0),
        ("PS empty", |em| em[2] = 0),
    ];
    let mut v: Vec<_> = edits
        .into_iter()
        .map(|(what, edit)| {
            let mut em = good.clone();
            edit(&mut em);
            (what, em)
        })
        .collect();
    let mut em = random_below(k, r);
    em[1] = 0x03;
    v.push(("random", em));
    v
}

#[test]
fn pkcs1v15_explicit_rejection_rejects_every_bad_padding_with_one_error() {
    let mut r = rng(11);
    for key in keys() {
        let k = key.size();
        for (what, em) in bad_v15_ems(k, &mut r) {
            let c = ciphertext(key, &em);
            assert_eq!(
                key.decrypt(&mut r, &Pkcs1v15Encrypt::explicit_rejection(), &c),
                Err(Error::Decryption),
                "{what}"
            );
        }
        // PS of exactly 8 bytes is valid (the boundary of the one above).
        let mut em = vec![0u8; k];
        em[1] = 2;
        em[2..10].fill(0xff);
        em[11..].fill(0x42);
        let c = ciphertext(key, &em);
        for scheme in [
            Pkcs1v15Encrypt::new(),
            Pkcs1v15Encrypt::explicit_rejection(),
        ] {
            assert_eq!(key.decrypt(&mut r, &scheme, &c).unwrap(), em[11..]);
        }
    }
}

#[test]
fn pkcs1v15_implicit_rejection_returns_a_deterministic_message_within_bounds() {
    let mut r = rng(12);
    for key in keys() {
        let k = key.size();
        let mut outputs = HashSet::new();
        let mut lengths = HashSet::new();
        let bad = bad_v15_ems(k, &mut r);
        for (what, em) in &bad {
            let c = ciphertext(key, em);
            let a = key.decrypt(&mut r, &Pkcs1v15Encrypt::new(), &c).unwrap();
            // Another blinding, the same answer.
            let b = key
                .decrypt(&mut rng(99), &Pkcs1v15Encrypt::new(), &c)
                .unwrap();
            assert_eq!(a, b, "{what}: not deterministic");
            // The draft's bound: at most k − 2 − 8 − 1 bytes.
            assert!(a.len() <= k - 11, "{what}: {} bytes", a.len());
            lengths.insert(a.len());
            assert!(
                outputs.insert(a),
                "{what}: same message as another ciphertext"
            );
        }
        // Seven ciphertexts, lengths uniform over 0..=k−11: all equal would be a bug.
        assert!(lengths.len() > 1, "{lengths:?}");
    }
}

#[test]
fn pkcs1v15_implicit_rejection_depends_on_the_key() {
    // The same ciphertext bytes under two keys of the same size (below both moduli).
    let a = key_1024();
    let b = RsaPrivateKey::generate(1024, &mut rng(13)).unwrap();
    let c = random_below(128, &mut rng(14));
    let mut r = rng(15);
    let ma = a.decrypt(&mut r, &Pkcs1v15Encrypt::new(), &c).unwrap();
    let mb = b.decrypt(&mut r, &Pkcs1v15Encrypt::new(), &c).unwrap();
    assert_ne!(ma, mb);
}

#[test]
fn pkcs1v15_implicit_rejection_lengths_cover_the_range() {
    // Over many random (so almost surely badly padded) ciphertexts the synthetic lengths
    // spread over 0..=k−11: their mean is near (k − 11)/2 and both halves occur.
    let key = key_1024();
    let k = key.size();
    let mut r = rng(16);
    let mut lens = Vec::new();
    for _ in 0..200 {
        let c = random_below(k, &mut r);
        let m = key.decrypt(&mut r, &Pkcs1v15Encrypt::new(), &c).unwrap();
        assert!(m.len() <= k - 11);
        lens.push(m.len());
    }
    let mean = lens.iter().sum::<usize>() as f64 / lens.len() as f64;
    let mid = (k - 11) as f64 / 2.0;
    assert!(
        (mean - mid).abs() < mid * 0.2,
        "mean {mean}, expected about {mid}"
    );
    assert!(lens.iter().any(|&l| l < k / 4) && lens.iter().any(|&l| l > 3 * k / 4 - 11));
}

#[test]
fn pkcs1v15_public_checks_are_errors_under_both_rejections() {
    let key = key_1024();
    let mut r = rng(17);
    for scheme in [
        Pkcs1v15Encrypt::new(),
        Pkcs1v15Encrypt::explicit_rejection(),
    ] {
        assert_eq!(
            key.decrypt(&mut r, &scheme, &key.n().to_be_bytes()),
            Err(Error::Decryption)
        );
        assert_eq!(
            key.decrypt(&mut r, &scheme, &[0xff; 128]),
            Err(Error::Decryption)
        );
        assert_eq!(
            key.decrypt(&mut r, &scheme, &[1; 127]),
            Err(Error::Decryption)
        );
    }
    assert!(Pkcs1v15Encrypt::new().implicit_rejection());
    assert_eq!(Pkcs1v15Encrypt::new(), Pkcs1v15Encrypt::default());
    assert!(!Pkcs1v15Encrypt::explicit_rejection().implicit_rejection());
}
