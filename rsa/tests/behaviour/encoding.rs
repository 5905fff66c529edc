//! Key encodings: the pyca key files, round trips, interop with the `openssl` command, hostile
//! inputs, and proptests (random bytes and mutated keys never panic; random parts round-trip).
//!
//! Expected values come from outside the code under test: the files themselves (decode, then
//! re-encode to the same bytes), OpenSSL's output, and arithmetic on the decoded parts with
//! `num-bigint` (n = ∏ primes, e·d ≡ 1 mod p_i − 1, the CRT values).

// Toy keys and the DER writer do arithmetic and casts on small public test values.
#![allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation
)]

use num_bigint::BigUint;
use rsatool_rsa::{
    Encoding, Error, KeyError, KeyFormat, PrivateKeyParts, PublicFormat, PublicKeyParts,
    decode_private_key, decode_public_key, encode_private_key, encode_public_key,
};
use std::path::{Path, PathBuf};

use crate::common;

use common::der;

// ---------------------------------------------------------------------------------------------
// Helpers

fn keys_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testvectors/data/keys")
}

fn data(path: &str) -> Vec<u8> {
    let p = keys_dir().join(path);
    std::fs::read(&p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()))
}

fn big(b: &[u8]) -> BigUint {
    BigUint::from_bytes_be(b)
}

/// All parts of a private key as plain vectors, to compare two decodings.
fn flat(k: &PrivateKeyParts) -> Vec<Vec<u8>> {
    let mut v = vec![k.n.clone(), k.e.clone(), k.d.to_vec()];
    v.push(b"--".to_vec());
    v.extend(k.primes.iter().map(|x| x.to_vec()));
    v.push(b"--".to_vec());
    v.extend(k.exponents.iter().map(|x| x.to_vec()));
    v.push(b"--".to_vec());
    v.extend(k.coefficients.iter().map(|x| x.to_vec()));
    v
}

fn flat_pub(k: &PublicKeyParts) -> (Vec<u8>, Vec<u8>) {
    (k.n.clone(), k.e.clone())
}

fn assert_minimal(b: &[u8]) {
    assert!(b.first() != Some(&0), "leading zero byte in {b:02x?}");
}

/// Checks the parts with arithmetic (RFC 8017 §3.2): n = r_1···r_u, e·d ≡ 1 mod (r_i − 1),
/// d_i = d mod (r_i − 1), q·qInv ≡ 1 mod p, and t_i·(r_1···r_{i−1}) ≡ 1 mod r_i; and that no
/// part has a leading zero byte.
fn check_private_math(k: &PrivateKeyParts) {
    let one = BigUint::from(1u32);
    for part in flat(k) {
        assert_minimal(&part);
    }
    let n = big(&k.n);
    let e = big(&k.e);
    let d = big(&k.d);
    let primes: Vec<BigUint> = k.primes.iter().map(|p| big(p)).collect();
    assert!(primes.len() >= 2);
    assert_eq!(k.exponents.len(), primes.len());
    assert_eq!(k.coefficients.len(), primes.len() - 1);
    assert_eq!(
        primes.iter().product::<BigUint>(),
        n,
        "n is not the product of the primes"
    );
    for (r, di) in primes.iter().zip(&k.exponents) {
        let r1 = r - &one;
        assert_eq!((&e * &d) % &r1, one, "e·d is not 1 mod r − 1");
        assert_eq!(&d % &r1, big(di), "d_i is not d mod (r_i − 1)");
    }
    // qInv·q ≡ 1 mod p (coefficient 0), then t_i·R_i ≡ 1 mod r_i with R_i the product so far.
    let mut prefix = primes[0].clone();
    for (i, t) in k.coefficients.iter().enumerate() {
        let r = &primes[i + 1];
        if i == 0 {
            assert_eq!((big(t) * r) % &primes[0], one, "qInv·q is not 1 mod p");
        } else {
            assert_eq!((big(t) * &prefix) % r, one, "t_i·R_i is not 1 mod r_i");
        }
        prefix *= r;
    }
}

fn encode_priv(k: &PrivateKeyParts, f: KeyFormat, e: Encoding) -> Vec<u8> {
    encode_private_key(k, f, e)
        .expect("encode private key")
        .to_vec()
}

fn encode_pub(k: &PublicKeyParts, f: PublicFormat, e: Encoding) -> Vec<u8> {
    encode_public_key(k, f, e).expect("encode public key")
}

/// The error message, asserting it is `Error::Encoding`.
fn encoding_error<T: std::fmt::Debug>(r: rsatool_rsa::Result<T>) -> String {
    match r {
        Err(Error::Encoding(msg)) => msg,
        other => panic!("expected Error::Encoding, got {other:?}"),
    }
}

fn assert_encoding_error<T: std::fmt::Debug>(r: rsatool_rsa::Result<T>, needle: &str) {
    let msg = encoding_error(r);
    assert!(
        msg.contains(needle),
        "error {msg:?} does not mention {needle:?}"
    );
}

/// The PEM block of a file, from its `-----BEGIN` line on.
fn pem_block(text: &[u8]) -> &[u8] {
    let s = std::str::from_utf8(text).expect("PEM is ASCII");
    let at = s.find("-----BEGIN").expect("a BEGIN line");
    &text[at..]
}

// ---------------------------------------------------------------------------------------------
// The pyca key files

const PRIVATE_FILES: &[&str] = &[
    "PKCS8/unenc-rsa-pkcs8.pem",
    "DER_Serialization/unenc-rsa-pkcs8.der",
    "DER_Serialization/testrsa.der",
    "Traditional_OpenSSL_Serialization/testrsa.pem",
];

const PUBLIC_FILES: &[&str] = &[
    "PKCS8/unenc-rsa-pkcs8.pub.pem",
    "DER_Serialization/unenc-rsa-pkcs8.pub.der",
    "DER_Serialization/rsa_public_key.der",
    "PEM_Serialization/rsa_public_key.pem",
    "public/PKCS1/rsa.pub.pem",
    "public/PKCS1/rsa.pub.der",
];

/// The modulus of the 1024-bit pyca key, as `openssl rsa -noout -modulus` prints it.
const PKCS8_KEY_MODULUS: &str = "BB247A097E0EB23732CC3967ADF19E3D6B8283D1D0ACA4C018BE8D9800C07BFF\
0744C9CA1CBA36E12769FFB1E38D8BEE57A93AAA16433954197CAE692414F664FFBC74C6676C4CF1024969C72BE1E1A1\
A34314F4778FC8D0855A3595AC62A9C1210077A08B9730B45A2CB8902F48A005284BF20F8DEC8B4D034275D6AD81C011";

fn hex_upper(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02X}")).collect()
}

#[test]
fn every_private_key_file_decodes_to_consistent_parts() {
    for file in PRIVATE_FILES {
        let k = decode_private_key(&data(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        check_private_math(&k);
        assert_eq!(k.e, [0x01, 0x00, 0x01], "{file}: e = 65537");
        assert_eq!(k.primes.len(), 2, "{file}");
        let bits = if file.contains("testrsa") { 2048 } else { 1024 };
        assert_eq!(big(&k.n).bits(), bits, "{file}");
    }
    let k = decode_private_key(&data("PKCS8/unenc-rsa-pkcs8.pem")).expect("decodes");
    assert_eq!(hex_upper(&k.n), PKCS8_KEY_MODULUS);
}

#[test]
fn every_public_key_file_decodes() {
    for file in PUBLIC_FILES {
        let k = decode_public_key(&data(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_minimal(&k.n);
        assert_eq!(k.e, [0x01, 0x00, 0x01], "{file}");
        let bits = if file.contains("rsa_public_key") {
            2048
        } else {
            1024
        };
        assert_eq!(big(&k.n).bits(), bits, "{file}");
    }
    // The PKCS #1 public key file holds the same 1024-bit key as the PKCS #8 files.
    let k = decode_public_key(&data("public/PKCS1/rsa.pub.der")).expect("decodes");
    assert_eq!(hex_upper(&k.n), PKCS8_KEY_MODULUS);
}

/// For each pair of key files, what `decode` makes of the first equals what it makes of the
/// second.
fn files_agree<T: PartialEq + std::fmt::Debug>(pairs: &[(&str, &str)], decode: impl Fn(&str) -> T) {
    for (a, b) in pairs {
        assert_eq!(decode(a), decode(b), "{a} vs {b}");
    }
}

#[test]
fn pem_and_der_twins_give_identical_parts() {
    let private_twins = [
        (
            "PKCS8/unenc-rsa-pkcs8.pem",
            "DER_Serialization/unenc-rsa-pkcs8.der",
        ),
        (
            "Traditional_OpenSSL_Serialization/testrsa.pem",
            "DER_Serialization/testrsa.der",
        ),
    ];
    files_agree(&private_twins, |file| {
        flat(&decode_private_key(&data(file)).expect(file))
    });
    let public_twins = [
        (
            "PKCS8/unenc-rsa-pkcs8.pub.pem",
            "DER_Serialization/unenc-rsa-pkcs8.pub.der",
        ),
        (
            "PEM_Serialization/rsa_public_key.pem",
            "DER_Serialization/rsa_public_key.der",
        ),
        ("public/PKCS1/rsa.pub.pem", "public/PKCS1/rsa.pub.der"),
    ];
    files_agree(&public_twins, |file| {
        flat_pub(&decode_public_key(&data(file)).expect(file))
    });
}

/// The format of a key file: a private key's or a public key's.
enum Form {
    Private(KeyFormat),
    Public(PublicFormat),
}

#[test]
fn decode_then_encode_gives_back_the_same_bytes() {
    use Form::{Private, Public};
    // All these files are exactly what OpenSSL 3 writes for their keys (checked with
    // `openssl pkey`/`openssl rsa`), so re-encoding must reproduce them.
    for (file, form) in [
        (
            "DER_Serialization/unenc-rsa-pkcs8.der",
            Private(KeyFormat::Pkcs8),
        ),
        ("PKCS8/unenc-rsa-pkcs8.pem", Private(KeyFormat::Pkcs8)),
        ("DER_Serialization/testrsa.der", Private(KeyFormat::Pkcs1)),
        (
            "Traditional_OpenSSL_Serialization/testrsa.pem",
            Private(KeyFormat::Pkcs1),
        ),
        (
            "DER_Serialization/unenc-rsa-pkcs8.pub.der",
            Public(PublicFormat::Spki),
        ),
        ("PKCS8/unenc-rsa-pkcs8.pub.pem", Public(PublicFormat::Spki)),
        (
            "DER_Serialization/rsa_public_key.der",
            Public(PublicFormat::Spki),
        ),
        (
            "PEM_Serialization/rsa_public_key.pem",
            Public(PublicFormat::Spki),
        ),
        ("public/PKCS1/rsa.pub.der", Public(PublicFormat::Pkcs1)),
        ("public/PKCS1/rsa.pub.pem", Public(PublicFormat::Pkcs1)),
    ] {
        let bytes = data(file);
        let encoding = if file.ends_with(".der") {
            Encoding::Der
        } else {
            Encoding::Pem
        };
        let (encoded, expected) = match form {
            // The PKCS #8 PEM file has an ASN.1 dump before its block.
            Private(format) => (
                encode_priv(
                    &decode_private_key(&bytes).expect("decodes"),
                    format,
                    encoding,
                ),
                pem_block_or_der(&bytes),
            ),
            Public(format) => (
                encode_pub(
                    &decode_public_key(&bytes).expect("decodes"),
                    format,
                    encoding,
                ),
                bytes.clone(),
            ),
        };
        assert_eq!(encoded, expected, "{file}");
    }
}

fn pem_block_or_der(bytes: &[u8]) -> Vec<u8> {
    if bytes.first() == Some(&0x30) {
        bytes.to_vec()
    } else {
        pem_block(bytes).to_vec()
    }
}

#[test]
fn public_half_of_each_private_key_equals_its_public_file() {
    let pairs = [
        ("PKCS8/unenc-rsa-pkcs8.pem", "PKCS8/unenc-rsa-pkcs8.pub.pem"),
        (
            "DER_Serialization/unenc-rsa-pkcs8.der",
            "DER_Serialization/unenc-rsa-pkcs8.pub.der",
        ),
        (
            "DER_Serialization/unenc-rsa-pkcs8.der",
            "public/PKCS1/rsa.pub.der",
        ),
    ];
    for (private, public) in pairs {
        let k = decode_private_key(&data(private)).expect("private");
        let p = decode_public_key(&data(public)).expect("public");
        assert_eq!(
            (k.n.clone(), k.e.clone()),
            flat_pub(&p),
            "{private} vs {public}"
        );
        // decode_public_key also takes the private key itself.
        let half = decode_public_key(&data(private)).expect("public half");
        assert_eq!(flat_pub(&half), flat_pub(&p), "{private}");
    }
    // The 2048-bit PKCS #1 key has no public file of its own; its public half still decodes.
    for file in [
        "Traditional_OpenSSL_Serialization/testrsa.pem",
        "DER_Serialization/testrsa.der",
    ] {
        let k = decode_private_key(&data(file)).expect("private");
        let half = decode_public_key(&data(file)).expect("public half");
        assert_eq!((k.n.clone(), k.e.clone()), flat_pub(&half), "{file}");
    }
}

#[test]
fn pem_with_crlf_tabs_of_text_and_trailing_blank_lines_decodes() {
    let lf = data("Traditional_OpenSSL_Serialization/testrsa.pem");
    let want = flat(&decode_private_key(&lf).expect("lf"));
    let crlf = String::from_utf8(lf.clone())
        .expect("ascii")
        .replace('\n', "\r\n");
    assert_eq!(
        flat(&decode_private_key(crlf.as_bytes()).expect("crlf")),
        want
    );
    let mut text = b"Some explanatory text\nover two lines: it is allowed.\n".to_vec();
    text.extend_from_slice(&lf);
    text.extend_from_slice(b"\n\n  \n");
    assert_eq!(flat(&decode_private_key(&text).expect("text around")), want);
}

#[test]
fn pem_wrapped_at_76_columns_decodes() {
    let k = decode_public_key(&data("PEM_Serialization/rsa_public_key.pem")).expect("64");
    let der = encode_pub(&k, PublicFormat::Spki, Encoding::Der);
    let b64 = testkit::base64(&der);
    let mut pem = String::from("-----BEGIN PUBLIC KEY-----\n");
    for chunk in b64.as_bytes().chunks(76) {
        pem.push_str(std::str::from_utf8(chunk).expect("ascii"));
        pem.push('\n');
    }
    pem.push_str("-----END PUBLIC KEY-----\n");
    assert_eq!(
        flat_pub(&decode_public_key(pem.as_bytes()).expect("76")),
        flat_pub(&k)
    );
}

#[test]
fn private_key_debug_prints_no_secret() {
    let k = decode_private_key(&data("DER_Serialization/testrsa.der")).expect("decodes");
    let shown = format!("{k:?}");
    let d_start = format!("{:?}", &k.d[..4]);
    let p_start = format!("{:?}", &k.primes[0][..4]);
    let d_inner = d_start.trim_matches(|c| c == '[' || c == ']');
    let p_inner = p_start.trim_matches(|c| c == '[' || c == ']');
    assert!(!shown.contains(d_inner), "Debug shows d: {shown}");
    assert!(!shown.contains(p_inner), "Debug shows p: {shown}");
    assert!(shown.starts_with("PrivateKeyParts"));
}

// ---------------------------------------------------------------------------------------------
// Encoding edge cases

fn toy_key() -> PrivateKeyParts {
    // p = 61, q = 53, n = 3233, e = 17, d = 413 (mod lcm = 780), dP = 53, dQ = 49, qInv = 38.
    use zeroize::Zeroizing;
    PrivateKeyParts {
        n: vec![0x0c, 0xa1],
        e: vec![17],
        d: Zeroizing::new(vec![0x01, 0x9d]),
        primes: vec![Zeroizing::new(vec![61]), Zeroizing::new(vec![53])],
        exponents: vec![Zeroizing::new(vec![53]), Zeroizing::new(vec![49])],
        coefficients: vec![Zeroizing::new(vec![38])],
    }
}

#[test]
fn toy_key_encodes_to_the_der_written_by_hand() {
    check_private_math(&toy_key());
    let want = der::seq(&[
        der::int(&[0]),
        der::int(&[0x0c, 0xa1]),
        der::int(&[17]),
        der::int(&[0x01, 0x9d]),
        der::int(&[61]),
        der::int(&[53]),
        der::int(&[53]),
        der::int(&[49]),
        der::int(&[38]),
    ]);
    assert_eq!(
        encode_priv(&toy_key(), KeyFormat::Pkcs1, Encoding::Der),
        want
    );
    let pkcs8 = der::seq(&[der::int(&[0]), der::rsa_alg(), der::tlv(0x04, &want)]);
    assert_eq!(
        encode_priv(&toy_key(), KeyFormat::Pkcs8, Encoding::Der),
        pkcs8
    );
}

#[test]
fn zero_and_leading_zero_parts_encode_minimally() {
    let mut k = toy_key();
    k.e = vec![];
    k.n = vec![0, 0, 0x0c, 0xa1];
    let der = encode_priv(&k, KeyFormat::Pkcs1, Encoding::Der);
    // version 0, then n = 0x0ca1 without its leading zeros, then e = 0 as 02 01 00.
    assert_eq!(
        &der[2..12],
        &[0x02, 0x01, 0x00, 0x02, 0x02, 0x0c, 0xa1, 0x02, 0x01, 0x00]
    );
    let back = decode_private_key(&der).expect("decodes");
    assert_eq!(back.e, Vec::<u8>::new(), "zero decodes as empty");
    assert_eq!(back.n, [0x0c, 0xa1]);
}

#[test]
fn high_bit_parts_get_a_zero_byte_and_come_back_without_it() {
    let k = PublicKeyParts {
        n: vec![0x80; 5],
        e: vec![0xff],
    };
    let der = encode_pub(&k, PublicFormat::Pkcs1, Encoding::Der);
    let want = der::seq(&[
        der::int(&[0, 0x80, 0x80, 0x80, 0x80, 0x80]),
        der::int(&[0, 0xff]),
    ]);
    assert_eq!(der, want);
    assert_eq!(
        flat_pub(&decode_public_key(&der).expect("decodes")),
        flat_pub(&k)
    );
}

#[test]
fn encoding_refuses_bad_prime_counts_and_huge_integers() {
    let mut k = toy_key();
    k.primes.pop();
    assert_eq!(
        encode_private_key(&k, KeyFormat::Pkcs8, Encoding::Pem).map(|_| ()),
        Err(Error::InvalidKey(KeyError::PrimeCount { count: 1 }))
    );
    let mut k = toy_key();
    k.coefficients.push(zeroize::Zeroizing::new(vec![1]));
    assert_encoding_error(
        encode_private_key(&k, KeyFormat::Pkcs1, Encoding::Der),
        "coefficients",
    );
    let mut k = toy_key();
    k.n = vec![1; 2049];
    assert_eq!(
        encode_private_key(&k, KeyFormat::Pkcs1, Encoding::Der).map(|_| ()),
        Err(Error::InvalidKey(KeyError::ModulusTooLarge { bits: 16385 }))
    );
    let p = PublicKeyParts {
        n: vec![0xff; 2048],
        e: vec![3],
    };
    assert!(
        encode_public_key(&p, PublicFormat::Spki, Encoding::Der).is_ok(),
        "16384 bits is fine"
    );
}

#[test]
fn multi_prime_toy_key_round_trips_with_version_1() {
    use zeroize::Zeroizing;
    // Three primes 61, 53, 59 and e = 7 (coprime to 60, 52 and 58); d = e⁻¹ mod lcm(r_i − 1).
    let primes = [61u32, 53, 59];
    let n: u32 = primes.iter().product();
    let gcd = |mut a: u32, mut b: u32| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let lcm = primes.iter().fold(1, |l, p| l * (p - 1) / gcd(l, p - 1));
    let e = 7u32;
    let d = (1..lcm)
        .find(|d| (u64::from(*d) * u64::from(e)) % u64::from(lcm) == 1)
        .expect("d");
    let exps: Vec<u32> = primes.iter().map(|p| d % (p - 1)).collect();
    let inv = |a: u32, m: u32| (1..m).find(|x| (u64::from(a) * u64::from(*x)) % u64::from(m) == 1);
    let q_inv = inv(53, 61).expect("qInv");
    let t3 = inv(61 * 53 % 59, 59).expect("t3");
    let be = |x: u32| {
        x.to_be_bytes()
            .iter()
            .copied()
            .skip_while(|&b| b == 0)
            .collect::<Vec<u8>>()
    };
    let k = PrivateKeyParts {
        n: be(n),
        e: be(e),
        d: Zeroizing::new(be(d)),
        primes: primes.iter().map(|&p| Zeroizing::new(be(p))).collect(),
        exponents: exps.iter().map(|&x| Zeroizing::new(be(x))).collect(),
        coefficients: vec![Zeroizing::new(be(q_inv)), Zeroizing::new(be(t3))],
    };
    check_private_math(&k);
    let der = encode_priv(&k, KeyFormat::Pkcs1, Encoding::Der);
    assert_eq!(
        &der[2..5],
        &[0x02, 0x01, 0x01],
        "version 1 for more than two primes"
    );
    for format in [KeyFormat::Pkcs1, KeyFormat::Pkcs8] {
        for encoding in [Encoding::Der, Encoding::Pem] {
            let bytes = encode_priv(&k, format, encoding);
            assert_eq!(
                flat(&decode_private_key(&bytes).expect("decodes")),
                flat(&k)
            );
        }
    }
}

/// The toy key as raw INTEGER contents: version, n, e, d, p, q, dP, dQ, qInv.
fn toy_ints() -> Vec<Vec<u8>> {
    vec![
        vec![0],
        vec![0x0c, 0xa1],
        vec![17],
        vec![0x01, 0x9d],
        vec![61],
        vec![53],
        vec![53],
        vec![49],
        vec![38],
    ]
}

fn pkcs1_from(ints: &[Vec<u8>]) -> Vec<u8> {
    der::seq(&ints.iter().map(|c| der::int(c)).collect::<Vec<_>>())
}

fn pkcs8_from(alg: Vec<u8>, inner: &[u8]) -> Vec<u8> {
    der::seq(&[der::int(&[0]), alg, der::tlv(0x04, inner)])
}

fn spki_from(alg: Vec<u8>, inner: &[u8]) -> Vec<u8> {
    let mut bits = vec![0u8];
    bits.extend_from_slice(inner);
    der::seq(&[alg, der::tlv(0x03, &bits)])
}

fn toy_pub() -> Vec<u8> {
    der::seq(&[der::int(&[0x0c, 0xa1]), der::int(&[17])])
}

#[test]
fn hand_built_keys_decode_in_every_container() {
    let pkcs1 = pkcs1_from(&toy_ints());
    assert_eq!(
        flat(&decode_private_key(&pkcs1).expect("pkcs1")),
        flat(&toy_key())
    );
    let pkcs8 = pkcs8_from(der::rsa_alg(), &pkcs1);
    assert_eq!(
        flat(&decode_private_key(&pkcs8).expect("pkcs8")),
        flat(&toy_key())
    );
    let want = (vec![0x0c, 0xa1], vec![17]);
    assert_eq!(
        flat_pub(&decode_public_key(&toy_pub()).expect("pkcs1 pub")),
        want
    );
    let spki = spki_from(der::rsa_alg(), &toy_pub());
    assert_eq!(flat_pub(&decode_public_key(&spki).expect("spki")), want);
    // Absent parameters are accepted for rsaEncryption.
    let spki = spki_from(der::seq(&[der::oid(der::RSA_ENCRYPTION)]), &toy_pub());
    assert_eq!(
        flat_pub(&decode_public_key(&spki).expect("no params")),
        want
    );
}

#[test]
fn rsassa_pss_keys_are_accepted_as_plain_rsa() {
    let want = (vec![0x0c, 0xa1], vec![17]);
    let bare = der::seq(&[der::oid(der::RSASSA_PSS)]);
    let spki = spki_from(bare.clone(), &toy_pub());
    assert_eq!(
        flat_pub(&decode_public_key(&spki).expect("pss, no params")),
        want
    );
    let with_params = der::seq(&[der::oid(der::RSASSA_PSS), der::seq(&[])]);
    let spki = spki_from(with_params, &toy_pub());
    assert_eq!(
        flat_pub(&decode_public_key(&spki).expect("pss, params")),
        want
    );
    let pkcs8 = pkcs8_from(bare, &pkcs1_from(&toy_ints()));
    assert_eq!(
        flat(&decode_private_key(&pkcs8).expect("pss pkcs8")),
        flat(&toy_key())
    );
    let bad = der::seq(&[der::oid(der::RSASSA_PSS), der::NULL.to_vec()]);
    assert_encoding_error(
        decode_public_key(&spki_from(bad, &toy_pub())),
        "RSASSA-PSS parameters",
    );
}

#[test]
fn leading_zero_integers_are_refused() {
    for i in 1..9 {
        let mut ints = toy_ints();
        ints[i].insert(0, 0);
        let der = pkcs1_from(&ints);
        assert_encoding_error(decode_private_key(&der), "superfluous leading byte");
        assert_encoding_error(decode_public_key(&der), "superfluous leading byte");
    }
    let der = der::seq(&[der::int(&[0, 0x0c, 0xa1]), der::int(&[17])]);
    assert_encoding_error(decode_public_key(&der), "superfluous leading byte");
    // 0xff before a byte with its top bit set is a superfluous sign extension.
    let der = der::seq(&[der::int(&[0xff, 0x80]), der::int(&[17])]);
    assert_encoding_error(decode_public_key(&der), "superfluous leading byte");
    // An empty INTEGER is not DER either.
    let der = der::seq(&[der::int(&[]), der::int(&[17])]);
    assert_encoding_error(decode_public_key(&der), "INTEGER is empty");
}

#[test]
fn negative_integers_are_refused_by_name() {
    let names = [
        "",
        "modulus n",
        "public exponent e",
        "private exponent d",
        "prime p",
        "prime q",
        "exponent dP",
        "exponent dQ",
        "coefficient qInv",
    ];
    for i in 1..9 {
        let mut ints = toy_ints();
        ints[i] = vec![0x80 | ints[i][0], 1];
        let der = pkcs1_from(&ints);
        let msg = encoding_error(decode_private_key(&der));
        assert!(
            msg.contains(names[i]) && msg.contains("negative"),
            "{i}: {msg}"
        );
        // Also through PKCS #8, and when only the public half is wanted.
        let pkcs8 = pkcs8_from(der::rsa_alg(), &der);
        assert_encoding_error(decode_private_key(&pkcs8), "negative");
        assert_encoding_error(decode_public_key(&pkcs8), "negative");
    }
    let der = der::seq(&[der::int(&[0x0c, 0xa1]), der::int(&[0xef])]);
    assert_encoding_error(decode_public_key(&der), "the public exponent e is negative");
    let der = der::seq(&[der::int(&[0xff]), der::int(&[17])]);
    assert_encoding_error(decode_public_key(&der), "the modulus n is negative");
}

#[test]
fn integers_over_16384_bits_are_refused() {
    // 16385 bits: 0x01 then 2048 zero bytes.
    let mut huge = vec![0x01];
    huge.resize(2049, 0);
    for i in 1..9 {
        let mut ints = toy_ints();
        ints[i] = huge.clone();
        assert_eq!(
            decode_private_key(&pkcs1_from(&ints)).map(|_| ()),
            Err(Error::InvalidKey(KeyError::ModulusTooLarge { bits: 16385 })),
            "integer {i}"
        );
    }
    let der = der::seq(&[der::int(&huge), der::int(&[3])]);
    assert_eq!(
        decode_public_key(&der).map(|_| ()),
        Err(Error::InvalidKey(KeyError::ModulusTooLarge { bits: 16385 }))
    );
    // Far larger (1 MiB) is refused the same way, by length.
    let mut enormous = vec![0x7f];
    enormous.resize(1 << 20, 0xff);
    let der = der::seq(&[der::int(&enormous), der::int(&[3])]);
    assert_eq!(
        decode_public_key(&der).map(|_| ()),
        Err(Error::InvalidKey(KeyError::ModulusTooLarge {
            bits: (1 << 23) - 1
        }))
    );
    // Exactly 16384 bits is accepted (with its sign byte, 2049 content bytes).
    let mut max = vec![0x00, 0x80];
    max.resize(2049, 0x01);
    let der = der::seq(&[der::int(&max), der::int(&[3])]);
    assert_eq!(
        big(&decode_public_key(&der).expect("16384 bits").n).bits(),
        16384
    );
}

#[test]
fn trailing_data_is_refused() {
    for file in [
        "DER_Serialization/testrsa.der",
        "DER_Serialization/unenc-rsa-pkcs8.der",
    ] {
        let mut der = data(file);
        der.push(0);
        assert_encoding_error(decode_private_key(&der), "trailing data");
        assert_encoding_error(decode_public_key(&der), "trailing data");
    }
    let mut der = data("DER_Serialization/rsa_public_key.der");
    der.extend_from_slice(&[0x05, 0x00]);
    assert_encoding_error(decode_public_key(&der), "trailing data");
    // Trailing data inside the OCTET STRING of PKCS #8, and inside the BIT STRING of SPKI.
    let mut inner = pkcs1_from(&toy_ints());
    inner.push(0);
    assert_encoding_error(
        decode_private_key(&pkcs8_from(der::rsa_alg(), &inner)),
        "trailing data",
    );
    let mut inner = toy_pub();
    inner.push(0);
    assert_encoding_error(
        decode_public_key(&spki_from(der::rsa_alg(), &inner)),
        "trailing data",
    );
    // An extra element inside RSAPublicKey's SEQUENCE makes it look like a private key.
    let der = der::seq(&[der::int(&[0x0c, 0xa1]), der::int(&[17]), der::int(&[1])]);
    assert!(decode_public_key(&der).is_err());
}

#[test]
fn indefinite_lengths_are_refused() {
    let pub_der = toy_pub();
    let mut ber = vec![0x30, 0x80];
    ber.extend_from_slice(&pub_der[2..]);
    ber.extend_from_slice(&[0, 0]);
    assert_encoding_error(decode_public_key(&ber), "indefinite length");
    assert_encoding_error(decode_private_key(&ber), "indefinite length");
    let pkcs1 = pkcs1_from(&toy_ints());
    let mut ber = vec![0x30, 0x80];
    ber.extend_from_slice(&pkcs1[2..]);
    ber.extend_from_slice(&[0, 0]);
    assert_encoding_error(decode_private_key(&ber), "indefinite length");
}

#[test]
fn non_minimal_lengths_are_refused() {
    // Long form for a length below 128 is BER, not DER.
    let pub_der = toy_pub();
    let mut ber = vec![0x30, 0x81];
    ber.extend_from_slice(&pub_der[1..]);
    assert!(decode_public_key(&ber).is_err());
}

#[test]
fn wrong_versions_are_refused() {
    for bad in [vec![2], vec![0xff], vec![0x01, 0x00]] {
        let mut ints = toy_ints();
        ints[0] = bad.clone();
        assert_encoding_error(
            decode_private_key(&pkcs1_from(&ints)),
            "unsupported version",
        );
        let inner = pkcs1_from(&toy_ints());
        let pkcs8 = der::seq(&[der::int(&bad), der::rsa_alg(), der::tlv(0x04, &inner)]);
        assert_encoding_error(decode_private_key(&pkcs8), "unsupported version");
    }
    // Version 1 without otherPrimeInfos, version 0 with them, version 1 with an empty list.
    let mut ints = toy_ints();
    ints[0] = vec![1];
    assert_encoding_error(decode_private_key(&pkcs1_from(&ints)), "otherPrimeInfos");
    let other = der::seq(&[der::seq(&[der::int(&[59]), der::int(&[1]), der::int(&[1])])]);
    let mut parts: Vec<Vec<u8>> = toy_ints().iter().map(|c| der::int(c)).collect();
    parts.push(other);
    assert_encoding_error(decode_private_key(&der::seq(&parts)), "otherPrimeInfos");
    let mut parts: Vec<Vec<u8>> = toy_ints().iter().map(|c| der::int(c)).collect();
    parts[0] = der::int(&[1]);
    parts.push(der::seq(&[]));
    assert!(
        decode_private_key(&der::seq(&parts)).is_err(),
        "empty otherPrimeInfos"
    );
}

#[test]
fn other_algorithms_are_refused() {
    let ec = der::seq(&[
        der::oid(der::EC_PUBLIC_KEY),
        der::oid(&[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]),
    ]);
    assert_encoding_error(
        decode_public_key(&spki_from(ec.clone(), &toy_pub())),
        "is not RSA",
    );
    let pkcs8 = pkcs8_from(ec, &pkcs1_from(&toy_ints()));
    assert_encoding_error(decode_private_key(&pkcs8), "is not RSA");
    // rsaEncryption with parameters other than NULL.
    let alg = der::seq(&[der::oid(der::RSA_ENCRYPTION), der::int(&[0])]);
    assert_encoding_error(
        decode_public_key(&spki_from(alg, &toy_pub())),
        "NULL or absent",
    );
    // A BIT STRING with unused bits cannot hold a DER key.
    let mut bits = vec![1u8];
    bits.extend_from_slice(&toy_pub());
    let spki = der::seq(&[der::rsa_alg(), der::tlv(0x03, &bits)]);
    assert!(decode_public_key(&spki).is_err());
    // Not a key at all: a SEQUENCE of two OIDs.
    let other = der::seq(&[der::oid(der::RSA_ENCRYPTION), der::oid(der::RSA_ENCRYPTION)]);
    assert_encoding_error(
        decode_private_key(&other),
        "not a PKCS #8, PKCS #1 or SubjectPublicKeyInfo",
    );
}

#[test]
fn public_keys_are_not_private_keys() {
    for file in PUBLIC_FILES {
        assert_encoding_error(decode_private_key(&data(file)), "expected a private key");
    }
}

#[test]
fn encrypted_private_keys_are_unsupported() {
    // EncryptedPrivateKeyInfo: SEQUENCE { AlgorithmIdentifier, OCTET STRING }.
    let pbes2 = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d];
    let der = der::seq(&[
        der::seq(&[der::oid(&pbes2), der::seq(&[])]),
        der::tlv(0x04, &[1; 32]),
    ]);
    let unsupported = Err(Error::Unsupported("encrypted private keys".into()));
    assert_eq!(decode_private_key(&der).map(|_| ()), unsupported);
    assert_eq!(decode_public_key(&der).map(|_| ()), unsupported);
    let pem = format!(
        "-----BEGIN ENCRYPTED PRIVATE KEY-----\n{}\n-----END ENCRYPTED PRIVATE KEY-----\n",
        testkit::base64(&der)
    );
    assert_eq!(decode_private_key(pem.as_bytes()).map(|_| ()), unsupported);
    // OpenSSL's legacy encryption: RFC 1421 headers in an RSA PRIVATE KEY block.
    let legacy = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\
        DEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\nAAAA\n\
        -----END RSA PRIVATE KEY-----\n";
    assert_eq!(
        decode_private_key(legacy.as_bytes()).map(|_| ()),
        unsupported
    );
}

#[test]
fn bad_pem_is_refused() {
    let good =
        String::from_utf8(data("Traditional_OpenSSL_Serialization/testrsa.pem")).expect("ascii");
    // A character outside the base64 alphabet.
    let bad = good.replacen("MII", "M!I", 1);
    assert_encoding_error(decode_private_key(bad.as_bytes()), "invalid base64");
    // Mismatched labels.
    let bad = good.replace("-----END RSA PRIVATE KEY-----", "-----END PRIVATE KEY-----");
    assert_encoding_error(decode_private_key(bad.as_bytes()), "does not match");
    // Missing END line.
    let bad = good.replace("-----END RSA PRIVATE KEY-----\n", "");
    assert!(decode_private_key(bad.as_bytes()).is_err());
    // Unknown label.
    let bad = good.replace("RSA PRIVATE KEY", "CERTIFICATE");
    assert_encoding_error(
        decode_private_key(bad.as_bytes()),
        "PEM label \"CERTIFICATE\"",
    );
    // The label says PKCS #8 but the content is PKCS #1.
    let bad = good.replace("RSA PRIVATE KEY", "PRIVATE KEY");
    assert_encoding_error(decode_private_key(bad.as_bytes()), "PKCS #8");
    // A public label on a private key, and the reverse.
    let bad = good.replace("RSA PRIVATE KEY", "RSA PUBLIC KEY");
    assert_encoding_error(decode_private_key(bad.as_bytes()), "expected a private key");
    assert!(decode_public_key(bad.as_bytes()).is_err());
    // Base64 cut short (a line removed in the middle).
    let lines: Vec<&str> = good.lines().collect();
    let mut cut = lines.clone();
    cut.remove(5);
    assert!(decode_private_key(cut.join("\n").as_bytes()).is_err());
    // Garbage text with no PEM block, and a NUL byte before the block.
    assert!(decode_private_key(b"hello world\n").is_err());
    let mut nul = b"x\0\n".to_vec();
    nul.extend_from_slice(good.as_bytes());
    assert!(decode_private_key(&nul).is_err());
}

#[test]
fn empty_and_blank_input_is_refused() {
    assert_encoding_error(decode_private_key(b""), "empty input");
    assert_encoding_error(decode_public_key(b""), "empty input");
    for blank in [&b" "[..], b"\n\n", b"\r\n", b"\t"] {
        assert!(decode_private_key(blank).is_err());
        assert!(decode_public_key(blank).is_err());
    }
    assert!(decode_public_key(&[0x30]).is_err());
    assert!(decode_public_key(&[0x30, 0x00]).is_err());
}

#[test]
fn truncated_input_is_refused_at_every_length() {
    let der_files = [
        "DER_Serialization/testrsa.der",
        "DER_Serialization/unenc-rsa-pkcs8.der",
        "DER_Serialization/rsa_public_key.der",
        "public/PKCS1/rsa.pub.der",
    ];
    for file in der_files {
        let der = data(file);
        assert_cuts_refused(file, &der, der.len());
    }
    let pem_files = [
        "Traditional_OpenSSL_Serialization/testrsa.pem",
        "PKCS8/unenc-rsa-pkcs8.pub.pem",
    ];
    for file in pem_files {
        let pem = data(file);
        // Cutting only the final line feed leaves a valid block.
        assert_cuts_refused(file, &pem, pem.len() - 1);
    }
}

/// Asserts that neither decoder accepts `bytes`, the key file `file`, cut to any length below
/// `end`.
fn assert_cuts_refused(file: &str, bytes: &[u8], end: usize) {
    for len in 0..end {
        assert!(
            decode_private_key(&bytes[..len]).is_err(),
            "{file} cut at {len}"
        );
        assert!(
            decode_public_key(&bytes[..len]).is_err(),
            "{file} cut at {len}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Proptests: hostile bytes never panic; random parts round-trip.

mod props {
    use super::*;
    use proptest::prelude::*;
    use zeroize::Zeroizing;

    fn config(cases: u32) -> ProptestConfig {
        ProptestConfig {
            cases,
            ..ProptestConfig::default()
        }
    }

    fn both(input: &[u8]) {
        // Only Ok or Err: a panic fails the property.
        let _ = decode_private_key(input);
        let _ = decode_public_key(input);
    }

    fn valid_inputs() -> Vec<Vec<u8>> {
        let mut v: Vec<Vec<u8>> = PRIVATE_FILES
            .iter()
            .chain(PUBLIC_FILES)
            .map(|f| data(f))
            .collect();
        v.push(pkcs1_from(&toy_ints()));
        v
    }

    #[derive(Debug, Clone)]
    enum Mutation {
        Flip(usize, u8),
        Set(usize, u8),
        Insert(usize, Vec<u8>),
        Remove(usize, usize),
        Truncate(usize),
    }

    fn mutation() -> impl Strategy<Value = Mutation> {
        prop_oneof![
            (any::<usize>(), 1..=255u8).prop_map(|(i, x)| Mutation::Flip(i, x)),
            (
                any::<usize>(),
                prop_oneof![Just(0u8), Just(0x80), Just(0xff), Just(0x30), any::<u8>()]
            )
                .prop_map(|(i, x)| Mutation::Set(i, x)),
            (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..8))
                .prop_map(|(i, b)| Mutation::Insert(i, b)),
            (any::<usize>(), 1..16usize).prop_map(|(i, n)| Mutation::Remove(i, n)),
            any::<usize>().prop_map(Mutation::Truncate),
        ]
    }

    fn apply(mut v: Vec<u8>, m: &Mutation) -> Vec<u8> {
        let len = v.len().max(1);
        match m {
            Mutation::Flip(i, x) => {
                if let Some(b) = v.get_mut(i % len) {
                    *b ^= x;
                }
            }
            Mutation::Set(i, x) => {
                if let Some(b) = v.get_mut(i % len) {
                    *b = *x;
                }
            }
            Mutation::Insert(i, bytes) => {
                let at = i % (v.len() + 1);
                v.splice(at..at, bytes.iter().copied());
            }
            Mutation::Remove(i, n) => {
                let at = i % len;
                let end = (at + n).min(v.len());
                if at < end {
                    v.drain(at..end);
                }
            }
            Mutation::Truncate(i) => v.truncate(i % len),
        }
        v
    }

    proptest! {
        #![proptest_config(config(4096))]

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
            both(&bytes);
        }

        #[test]
        fn random_bytes_inside_a_sequence_never_panic(
            body in proptest::collection::vec(any::<u8>(), 0..600),
        ) {
            // Starting with a well-formed SEQUENCE header reaches the DER paths every time.
            both(&super::der::tlv(0x30, &body));
        }

        #[test]
        fn mutated_keys_never_panic(
            which in any::<prop::sample::Index>(),
            mutations in proptest::collection::vec(mutation(), 1..6),
        ) {
            let inputs = valid_inputs();
            let mut v = inputs[which.index(inputs.len())].clone();
            for m in &mutations {
                v = apply(v, m);
            }
            both(&v);
        }
    }

    fn part(max: usize) -> impl Strategy<Value = Vec<u8>> {
        // Minimal big-endian: no leading zero byte (zero is empty).
        proptest::collection::vec(any::<u8>(), 0..max)
            .prop_map(|v| v.into_iter().skip_while(|&b| b == 0).collect())
    }

    fn secret(max: usize) -> impl Strategy<Value = Zeroizing<Vec<u8>>> {
        part(max).prop_map(Zeroizing::new)
    }

    fn private_parts() -> impl Strategy<Value = PrivateKeyParts> {
        (2..6usize).prop_flat_map(|count| {
            (
                part(300),
                part(8),
                secret(300),
                proptest::collection::vec(secret(80), count),
                proptest::collection::vec(secret(80), count),
                proptest::collection::vec(secret(80), count - 1),
            )
                .prop_map(|(n, e, d, primes, exponents, coefficients)| {
                    PrivateKeyParts {
                        n,
                        e,
                        d,
                        primes,
                        exponents,
                        coefficients,
                    }
                })
        })
    }

    proptest! {
        #![proptest_config(config(1024))]

        #[test]
        fn random_private_parts_round_trip_in_every_format(k in private_parts()) {
            for format in [KeyFormat::Pkcs8, KeyFormat::Pkcs1] {
                for encoding in [Encoding::Der, Encoding::Pem] {
                    let bytes = encode_private_key(&k, format, encoding).expect("encodes");
                    let back = decode_private_key(&bytes).expect("decodes");
                    prop_assert_eq!(flat(&back), flat(&k));
                    let half = decode_public_key(&bytes).expect("public half");
                    prop_assert_eq!(flat_pub(&half), (k.n.clone(), k.e.clone()));
                }
            }
        }

        #[test]
        fn random_public_parts_round_trip_in_every_format(n in part(600), e in part(16)) {
            let k = PublicKeyParts { n, e };
            for format in [PublicFormat::Spki, PublicFormat::Pkcs1] {
                for encoding in [Encoding::Der, Encoding::Pem] {
                    let bytes = encode_public_key(&k, format, encoding).expect("encodes");
                    let back = decode_public_key(&bytes).expect("decodes");
                    prop_assert_eq!(flat_pub(&back), flat_pub(&k));
                }
            }
        }
    }
}
