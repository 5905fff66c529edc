//! Hostile keys and inputs: every one goes the whole way a key file goes (bytes → `decode_*_key` →
//! `from_parts`) and must be refused with its own clear error, never a panic, and never after
//! unbounded work: n even, e = 1, e even, e ≥ n, p = q, tiny and enormous n (a 100,000-bit INTEGER
//! is refused by its length, quickly), d = 0, negative and non-minimal INTEGERs, a length field
//! larger than the input, trailing data, indefinite lengths, bad base64, wrong PEM labels, and the
//! DER and PEM of a valid key truncated at every length. The DER is built by hand (X.690 §8.1) from
//! num-bigint values.
// Test code: `unwrap` on expected values is the assertion; lengths below 2^32 in the writer.
#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)]

use crate::common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::{big, bytes, key_1024};
use num_bigint::BigUint;
use rsatool_rsa::{
    Encoding, Error, KeyError, KeyFormat, PrivateKeyParts, PublicFormat, RsaPrivateKey,
    RsaPublicKey, decode_private_key, decode_public_key, encode_private_key, encode_public_key,
};

// ---------------------------------------------------------------------------------------------
// DER built by hand: the shared writer (`common::der`), and INTEGERs of num-bigint values.

use common::der::{int as int_raw, rsa_alg, seq, tlv};
use testkit::pem;

/// The minimal DER INTEGER of a non-negative value (a 0x00 byte before a set top bit).
fn int(x: &BigUint) -> Vec<u8> {
    let mut c = x.to_bytes_be();
    if c[0] & 0x80 != 0 {
        c.insert(0, 0);
    }
    int_raw(&c)
}

/// PKCS #1 RSAPrivateKey (version 0) from encoded INTEGERs n, e, d, p, q, dP, dQ, qInv.
fn pkcs1_private(ints: &[Vec<u8>]) -> Vec<u8> {
    let mut all = vec![int_raw(&[0])];
    all.extend_from_slice(ints);
    seq(&all)
}

/// PKCS #8 PrivateKeyInfo around a PKCS #1 key.
fn pkcs8(inner: &[u8]) -> Vec<u8> {
    seq(&[int_raw(&[0]), rsa_alg(), tlv(0x04, inner)])
}

/// SubjectPublicKeyInfo around encoded INTEGERs n, e.
fn spki(n: Vec<u8>, e: Vec<u8>) -> Vec<u8> {
    let mut bits = vec![0u8];
    bits.extend_from_slice(&seq(&[n, e]));
    seq(&[rsa_alg(), tlv(0x03, &bits)])
}

/// The eight INTEGERs of a key's parts, each value given as a BigUint.
struct Ints {
    n: BigUint,
    e: BigUint,
    d: BigUint,
    p: BigUint,
    q: BigUint,
    dp: BigUint,
    dq: BigUint,
    qinv: BigUint,
}

impl Ints {
    fn of(parts: &PrivateKeyParts) -> Self {
        Ints {
            n: big(&parts.n),
            e: big(&parts.e),
            d: big(&parts.d),
            p: big(&parts.primes[0]),
            q: big(&parts.primes[1]),
            dp: big(&parts.exponents[0]),
            dq: big(&parts.exponents[1]),
            qinv: big(&parts.coefficients[0]),
        }
    }

    fn encoded(&self) -> Vec<Vec<u8>> {
        [
            &self.n, &self.e, &self.d, &self.p, &self.q, &self.dp, &self.dq, &self.qinv,
        ]
        .iter()
        .map(|x| int(x))
        .collect()
    }

    fn pkcs1(&self) -> Vec<u8> {
        pkcs1_private(&self.encoded())
    }

    fn spki(&self) -> Vec<u8> {
        spki(int(&self.n), int(&self.e))
    }
}

fn valid() -> Ints {
    Ints::of(&key_1024().to_parts())
}

// ---------------------------------------------------------------------------------------------
// The whole load path, as `rsatool` takes a key file.

fn load_private(input: &[u8]) -> rsatool_rsa::Result<RsaPrivateKey> {
    RsaPrivateKey::from_parts(&decode_private_key(input)?)
}

fn load_public(input: &[u8]) -> rsatool_rsa::Result<RsaPublicKey> {
    RsaPublicKey::from_parts(&decode_public_key(input)?)
}

fn key_error<T: std::fmt::Debug>(r: rsatool_rsa::Result<T>) -> KeyError {
    match r {
        Err(Error::InvalidKey(k)) => k,
        other => panic!("expected Error::InvalidKey, got {other:?}"),
    }
}

/// The message of an `Error::Encoding`, which must contain `needle`.
fn assert_encoding<T: std::fmt::Debug>(r: rsatool_rsa::Result<T>, needle: &str) {
    match r {
        Err(Error::Encoding(m)) => assert!(m.contains(needle), "{m:?} lacks {needle:?}"),
        other => panic!("expected Error::Encoding containing {needle:?}, got {other:?}"),
    }
}

#[test]
fn the_valid_key_loads_in_every_hand_built_container() {
    let v = valid();
    let key = load_private(&v.pkcs1()).unwrap();
    assert_eq!(big(&key.to_parts().d), v.d);
    assert!(load_private(&pkcs8(&v.pkcs1())).is_ok());
    assert_eq!(load_public(&v.spki()).unwrap(), *key.public_key());
    assert_eq!(load_public(&v.pkcs1()).unwrap(), *key.public_key());
}

#[test]
fn even_modulus_is_refused() {
    let mut v = valid();
    v.n -= 1u32;
    assert_eq!(key_error(load_private(&v.pkcs1())), KeyError::ModulusEven);
    assert_eq!(key_error(load_public(&v.spki())), KeyError::ModulusEven);
}

#[test]
fn public_exponent_one_even_or_not_below_n_is_refused() {
    let n = valid().n;
    for e in [
        BigUint::from(1u32),
        BigUint::from(65536u32),
        BigUint::from(2u32),
        &n + 2u32,
        n.clone(),
        BigUint::from(1u32) << 2000,
    ] {
        let mut v = valid();
        v.e = e.clone();
        assert_eq!(
            key_error(load_private(&v.pkcs1())),
            KeyError::PublicExponentInvalid,
            "e = {e:x}"
        );
        assert_eq!(
            key_error(load_public(&v.spki())),
            KeyError::PublicExponentInvalid,
            "e = {e:x}"
        );
    }
    // e = 0 is an INTEGER with one zero content byte.
    let v = valid();
    let mut ints = v.encoded();
    ints[1] = int_raw(&[0]);
    assert_eq!(
        key_error(load_private(&pkcs1_private(&ints))),
        KeyError::PublicExponentInvalid
    );
}

#[test]
fn equal_primes_are_refused() {
    // n = p², p = q: the distinctness check comes before any relation.
    let v0 = valid();
    let mut v = valid();
    v.n = &v0.p * &v0.p;
    v.q = v0.p.clone();
    v.dq = v0.dp.clone();
    let key = load_private(&v.pkcs1());
    assert_eq!(key_error(key), KeyError::PrimesNotDistinct);
}

#[test]
fn zero_and_wrong_private_exponents_are_refused() {
    let mut v = valid();
    v.d = BigUint::from(0u32);
    assert_eq!(
        key_error(load_private(&v.pkcs1())),
        KeyError::PrivateExponentInvalid
    );
    let mut v = valid();
    v.d += 2u32;
    assert_eq!(
        key_error(load_private(&v.pkcs1())),
        KeyError::PrivateExponentInvalid
    );
    // d above n: refused by size, before arithmetic.
    let mut v = valid();
    v.d = &v.n << 8;
    assert_eq!(
        key_error(load_private(&v.pkcs1())),
        KeyError::PrivateExponentInvalid
    );
}

#[test]
fn inconsistent_crt_values_are_refused_at_load() {
    let base = valid();
    for field in 0..3 {
        let mut v = valid();
        match field {
            0 => v.dp += 2u32,
            1 => v.dq = &v.dq ^ BigUint::from(1u32 << 9),
            _ => v.qinv += &base.p,
        }
        assert_eq!(
            key_error(load_private(&v.pkcs1())),
            KeyError::CrtValuesInconsistent,
            "field {field}"
        );
    }
    let mut v = valid();
    v.p += 2u32;
    assert_eq!(
        key_error(load_private(&v.pkcs1())),
        KeyError::PrimesProductMismatch
    );
}

#[test]
fn tiny_moduli_are_refused() {
    // A textbook key (n = 3233 = 61·53, e = 17) and a 512-bit one.
    let toy: Vec<Vec<u8>> = [3233u32, 17, 2753, 61, 53, 53, 49, 38]
        .iter()
        .map(|&x| int(&BigUint::from(x)))
        .collect();
    assert_eq!(
        key_error(load_private(&pkcs1_private(&toy))),
        KeyError::ModulusTooSmall {
            bits: 12,
            min: 1024
        }
    );
    let small = Ints::of(&common::small_parts(256, 256, 7));
    assert_eq!(
        key_error(load_private(&small.pkcs1())),
        KeyError::ModulusTooSmall {
            bits: 512,
            min: 1024
        }
    );
    assert_eq!(
        key_error(load_public(&small.spki())),
        KeyError::ModulusTooSmall {
            bits: 512,
            min: 1024
        }
    );
    // n = 1 and n = 0.
    for n in [vec![1u8], vec![0u8]] {
        let bits = usize::from(n[0]);
        assert_eq!(
            key_error(load_public(&spki(int_raw(&n), int_raw(&[3])))),
            KeyError::ModulusTooSmall { bits, min: 1024 }
        );
    }
}

/// A 100,000-bit INTEGER (12,500 bytes of 0xff after a zero byte).
fn huge_int() -> Vec<u8> {
    let mut c = vec![0u8];
    c.extend(std::iter::repeat_n(0xff, 12_500));
    int_raw(&c)
}

#[test]
fn enormous_integers_are_refused_by_length_quickly() {
    let v = valid();
    let start = Instant::now();
    let public = spki(huge_int(), int(&v.e));
    assert_eq!(
        key_error(load_public(&public)),
        KeyError::ModulusTooLarge { bits: 100_000 }
    );
    // In every position of a private key: n, d, a prime, a CRT value.
    for slot in [0, 2, 3, 5, 7] {
        let mut ints = v.encoded();
        ints[slot] = huge_int();
        let der = pkcs1_private(&ints);
        assert_eq!(
            key_error(load_private(&der)),
            KeyError::ModulusTooLarge { bits: 100_000 },
            "slot {slot}"
        );
        assert_eq!(
            key_error(load_private(&pkcs8(&der))),
            KeyError::ModulusTooLarge { bits: 100_000 }
        );
    }
    // 1,000 refusals of 100,000-bit integers: each a length check, no arithmetic.
    for _ in 0..1000 {
        assert!(load_public(&public).is_err());
    }
    let elapsed = start.elapsed();
    assert!(
        elapsed < Duration::from_secs(2),
        "refusing enormous integers took {elapsed:?}"
    );

    // Just over the limit (16385 bits) and at it (16384 bits: decoded, then refused as even
    // or accepted by the key types' own limit).
    let mut over = vec![0x01];
    over.extend(std::iter::repeat_n(0xff, 2048));
    assert_eq!(
        key_error(load_public(&spki(int_raw(&over), int(&v.e)))),
        KeyError::ModulusTooLarge { bits: 16385 }
    );
    let mut at = vec![0x00];
    at.extend(std::iter::repeat_n(0xff, 2048));
    let n = big(&at);
    assert_eq!(
        load_public(&spki(int_raw(&at), int(&v.e)))
            .unwrap()
            .n()
            .bits(),
        16384
    );
    assert_eq!(n.bits(), 16384);
}

#[test]
fn length_fields_beyond_the_input_are_refused_without_allocating() {
    // A SEQUENCE claiming 2^31 − 1 bytes, then an INTEGER claiming 2^32 − 1 bytes, with a few
    // bytes of content: refused as truncated.
    let inputs: [&[u8]; 3] = [
        &[0x30, 0x84, 0x7f, 0xff, 0xff, 0xff, 0x02, 0x01, 0x00],
        &[0x30, 0x0a, 0x02, 0x84, 0xff, 0xff, 0xff, 0xff, 0x01, 0x02],
        &[
            0x30, 0x89, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
        ],
    ];
    for der in inputs {
        let e = decode_private_key(der).unwrap_err();
        assert!(matches!(e, Error::Encoding(_)), "{e:?}");
        assert!(matches!(decode_public_key(der), Err(Error::Encoding(_))));
    }
}

#[test]
fn negative_integers_are_refused_by_name() {
    let v = valid();
    for (slot, name) in [
        (0, "the modulus n is negative"),
        (1, "the public exponent e is negative"),
        (2, "the private exponent d is negative"),
        (3, "the prime p is negative"),
    ] {
        let mut ints = v.encoded();
        // The two's complement negation of the value: its content without the 0x00 byte that
        // keeps it positive, or with the top bit forced.
        let mut content = ints[slot][2..].to_vec();
        if ints[slot][1] & 0x80 != 0 {
            content = ints[slot][2 + usize::from(ints[slot][1] & 0x7f)..].to_vec();
        }
        if content[0] == 0 {
            content.remove(0);
        }
        content[0] |= 0x80;
        ints[slot] = int_raw(&content);
        assert_encoding(load_private(&pkcs1_private(&ints)), name);
    }
    assert_encoding(
        load_public(&spki(int_raw(&[0xff, 0x01]), int(&v.e))),
        "the modulus n is negative",
    );
}

#[test]
fn non_minimal_and_empty_integers_are_refused() {
    let v = valid();
    let nb = bytes(&v.n);
    // n with two leading zero bytes; e as 00 01 00 01; an empty INTEGER for d; 0xff 0xff...
    let mut padded_n = vec![0u8, 0];
    padded_n.extend_from_slice(&nb);
    let cases: [(usize, Vec<u8>); 4] = [
        (0, int_raw(&padded_n)),
        (1, int_raw(&[0x00, 0x01, 0x00, 0x01])),
        (2, int_raw(&[])),
        (3, int_raw(&[0xff, 0xff, 0x01])),
    ];
    for (slot, bad) in cases {
        let mut ints = v.encoded();
        ints[slot] = bad;
        assert_encoding(
            load_private(&pkcs1_private(&ints)),
            "empty or has a superfluous leading byte",
        );
    }
}

#[test]
fn trailing_data_is_refused() {
    let v = valid();
    for der in [v.pkcs1(), pkcs8(&v.pkcs1()), v.spki()] {
        for tail in [&[0u8][..], &[0x00, 0x00], &[0x30, 0x00], &[0xff; 100]] {
            let mut input = der.clone();
            input.extend_from_slice(tail);
            assert_encoding(load_public(&input), "trailing data");
        }
    }
    let mut input = v.pkcs1();
    input.push(0);
    assert_encoding(load_private(&input), "trailing data");
    // Trailing data inside the PKCS #8 OCTET STRING, after the inner key.
    let mut inner = v.pkcs1();
    inner.extend_from_slice(&[0x05, 0x00]);
    assert_encoding(load_private(&pkcs8(&inner)), "trailing data");
}

#[test]
fn indefinite_lengths_are_refused() {
    // BER's indefinite form: 0x80 as the length, the content, then 00 00.
    let v = valid();
    let inner: Vec<u8> = [vec![int_raw(&[0])], v.encoded()].concat().concat();
    let mut outer = vec![0x30, 0x80];
    outer.extend_from_slice(&inner);
    outer.extend_from_slice(&[0, 0]);
    assert_encoding(load_private(&outer), "indefinite length");
    assert_encoding(load_public(&outer), "indefinite length");
    // Indefinite inside: the INTEGER n.
    let mut ints = v.encoded();
    let mut n = vec![0x02, 0x80];
    n.extend_from_slice(&ints[0][2 + usize::from(ints[0][1] & 0x7f)..]);
    n.extend_from_slice(&[0, 0]);
    ints[0] = n;
    let der = pkcs1_private(&ints);
    assert!(matches!(load_private(&der), Err(Error::Encoding(_))));
}

#[test]
fn pem_with_bad_base64_is_refused() {
    let v = valid();
    let good = pem("RSA PRIVATE KEY", &v.pkcs1());
    assert!(load_private(&good).is_ok());
    let text = String::from_utf8(good).unwrap();
    let body_start = text.find('\n').unwrap() + 1;
    for (i, bad) in ['!', '*', '-', '_', '\u{e9}', '='].into_iter().enumerate() {
        let mut t = text.clone();
        let at = body_start + 10 + 7 * i;
        t.replace_range(at..at + 1, &bad.to_string());
        assert_encoding(load_private(t.as_bytes()), "PEM:");
    }
    // Padding in the middle of a line, a line of the wrong length, a body cut mid-quantum.
    let mut t = text.clone();
    t.replace_range(body_start + 64..body_start + 65, "");
    assert_encoding(load_private(t.as_bytes()), "PEM:");
    let lines: Vec<&str> = text.lines().collect();
    let cut: String = [lines[0], &lines[1][..61], lines[lines.len() - 1]].join("\n");
    assert_encoding(load_private(cut.as_bytes()), "PEM:");
}

#[test]
fn wrong_and_mismatched_pem_labels_are_refused() {
    let v = valid();
    let der = v.pkcs1();
    assert_encoding(
        load_private(&pem("CERTIFICATE", &der)),
        "PEM label \"CERTIFICATE\"",
    );
    assert_encoding(
        load_private(&pem("EC PRIVATE KEY", &der)),
        "is not PRIVATE KEY",
    );
    // A PKCS #1 body under the PKCS #8 label, and an SPKI under the PKCS #1 public label.
    assert!(matches!(
        load_private(&pem("PRIVATE KEY", &der)),
        Err(Error::Encoding(_))
    ));
    assert!(matches!(
        load_public(&pem("RSA PUBLIC KEY", &v.spki())),
        Err(Error::Encoding(_))
    ));
    // A public key where a private one is wanted.
    assert_encoding(
        load_private(&pem("PUBLIC KEY", &v.spki())),
        "expected a private key",
    );
    // BEGIN and END labels that differ.
    let text = String::from_utf8(pem("RSA PRIVATE KEY", &der)).unwrap();
    let swapped = text.replace("-----END RSA PRIVATE KEY-----", "-----END PRIVATE KEY-----");
    assert_encoding(load_private(swapped.as_bytes()), "END line");
}

#[test]
fn every_truncation_of_a_valid_key_is_refused() {
    let key = key_1024();
    let parts = key.to_parts();
    let inputs = [
        encode_private_key(&parts, KeyFormat::Pkcs1, Encoding::Der).unwrap(),
        encode_private_key(&parts, KeyFormat::Pkcs8, Encoding::Der).unwrap(),
        encode_private_key(&parts, KeyFormat::Pkcs8, Encoding::Pem).unwrap(),
    ];
    for full in &inputs {
        assert!(load_private(full).is_ok());
        for len in 0..full.len() {
            let cut = &full[..len];
            if cut.trim_ascii_end() == full.trim_ascii_end() {
                // PEM without its final line ending: still complete (RFC 7468 §3).
                assert!(load_private(cut).is_ok());
                continue;
            }
            // A PEM cut anywhere inside "-----END PRIVATE KEY-----" is refused too.
            assert!(
                matches!(load_private(cut), Err(Error::Encoding(_))),
                "length {len} of {}",
                full.len()
            );
            assert!(matches!(decode_public_key(cut), Err(Error::Encoding(_))));
        }
    }
    let public = key.public_key().to_parts();
    for format in [PublicFormat::Spki, PublicFormat::Pkcs1] {
        for encoding in [Encoding::Der, Encoding::Pem] {
            let full = encode_public_key(&public, format, encoding).unwrap();
            assert!(load_public(&full).is_ok());
            for len in 0..full.len() {
                if full[..len].trim_ascii_end() == full.trim_ascii_end() {
                    continue;
                }
                assert!(
                    matches!(load_public(&full[..len]), Err(Error::Encoding(_))),
                    "{format:?} {encoding:?} length {len}"
                );
            }
        }
    }
}

/// Whether `openssl rsa -check` finds the DER key good ("RSA key ok": OpenSSL 3.0 exits 0 even
/// when it prints "RSA key not ok"); `None` if openssl is not installed.
fn openssl_accepts(args: &[&str], der: &[u8]) -> Option<bool> {
    let dir = std::env::temp_dir().join(format!("rsatool-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("key.der");
    std::fs::write(&path, der).unwrap();
    let out = Command::new("openssl")
        .args(args)
        .arg(&path)
        .output()
        .ok()?;
    std::fs::remove_dir_all(&dir).unwrap();
    Some(out.status.success() && String::from_utf8_lossy(&out.stdout).contains("RSA key ok"))
}

#[test]
fn openssl_agrees_on_a_few_hostile_keys() {
    let v = valid();
    let check = ["rsa", "-inform", "DER", "-check", "-noout", "-in"];
    let Some(accepts_valid) = openssl_accepts(&check, &v.pkcs1()) else {
        eprintln!("openssl not found: skipped");
        return;
    };
    assert!(accepts_valid, "openssl refuses the valid key");
    let mut even = valid();
    even.n -= 1u32;
    let mut zero_d = valid();
    zero_d.d = BigUint::from(0u32);
    let mut bad_dp = valid();
    bad_dp.dp += 2u32;
    let mut trailing = v.pkcs1();
    trailing.push(0);
    let mut indefinite = vec![0x30, 0x80];
    indefinite.extend_from_slice(&[vec![int_raw(&[0])], v.encoded()].concat().concat());
    indefinite.extend_from_slice(&[0, 0]);
    for (name, der) in [
        ("even n", even.pkcs1()),
        ("d = 0", zero_d.pkcs1()),
        ("bad dP", bad_dp.pkcs1()),
    ] {
        assert_eq!(
            openssl_accepts(&check, &der),
            Some(false),
            "openssl took {name}"
        );
        assert!(load_private(&der).is_err(), "{name}");
    }
    // OpenSSL 3.0 reads past trailing data (and BER's indefinite lengths): DER forbids both,
    // and we refuse them, as the DER decoders of Go and RustCrypto do.
    assert!(load_private(&trailing).is_err());
    assert!(load_private(&indefinite).is_err());
}
