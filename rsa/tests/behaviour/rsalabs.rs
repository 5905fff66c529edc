//! Published keys and signatures: the 15 keys of RSA Laboratories' PKCS #1 v1.5 signature
//! vectors (`testvectors/data/pkcs1/pkcs1v15sign-vectors.txt`, 1024 to 2048 bits, including
//! 1025..1031-bit moduli) import with full validation and export unchanged; for each of their
//! 300 signatures s, the public operation gives a well-formed EMSA-PKCS1-v1_5 block with a SHA-1
//! DigestInfo, and both private operations give s back from it.
#![allow(clippy::unwrap_used)]

use rsatool_rsa::hazmat::{PrivateOp, PublicOp};
use rsatool_rsa::{PrivateKeyParts, RsaPrivateKey};
use zeroize::Zeroizing;

/// One key of the file and its signatures.
struct Key {
    parts: PrivateKeyParts,
    signatures: Vec<Vec<u8>>,
}

fn strip(b: &[u8]) -> &[u8] {
    let i = b.iter().position(|&x| x != 0).unwrap_or(b.len());
    &b[i..]
}

/// The labelled hex blocks of the file, in order: ("Modulus", bytes), …
fn blocks(text: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut current: Option<(String, Vec<u8>)> = None;
    for line in text.lines().map(str::trim) {
        if let Some(label) = line.strip_prefix("# ").and_then(|l| l.strip_suffix(':')) {
            out.extend(current.take());
            current = Some((label.trim().to_string(), Vec::new()));
        } else if !line.is_empty() && !line.starts_with('#') && !line.starts_with('=') {
            if let Some((_, bytes)) = current.as_mut() {
                let ok = line.split_whitespace().all(|h| h.len() == 2);
                if ok {
                    for h in line.split_whitespace() {
                        bytes.push(u8::from_str_radix(h, 16).unwrap());
                    }
                }
            }
        } else if line.starts_with('#') {
            out.extend(current.take());
        }
    }
    out.extend(current);
    out
}

fn keys() -> Vec<Key> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testvectors/data/pkcs1/pkcs1v15sign-vectors.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut keys: Vec<Key> = Vec::new();
    let mut seen_public_exponent = false;
    for (label, bytes) in blocks(&text) {
        let secret = Zeroizing::new(strip(&bytes).to_vec());
        match label.as_str() {
            // A key's modulus appears twice (public key, private key): a new key starts at a
            // modulus once the previous key has its primes.
            "Modulus" => {
                if keys.last().is_none_or(|k| !k.parts.primes.is_empty()) {
                    keys.push(Key {
                        parts: PrivateKeyParts::default(),
                        signatures: Vec::new(),
                    });
                    seen_public_exponent = false;
                }
                keys.last_mut().unwrap().parts.n = strip(&bytes).to_vec();
            }
            "Public exponent" => {
                seen_public_exponent = true;
                keys.last_mut().unwrap().parts.e = strip(&bytes).to_vec();
            }
            "Exponent" if seen_public_exponent => keys.last_mut().unwrap().parts.d = secret,
            "Exponent" => keys.last_mut().unwrap().parts.e = strip(&bytes).to_vec(),
            "Prime 1" | "Prime 2" => keys.last_mut().unwrap().parts.primes.push(secret),
            "Prime exponent 1" | "Prime exponent 2" => {
                keys.last_mut().unwrap().parts.exponents.push(secret)
            }
            "Coefficient" => keys.last_mut().unwrap().parts.coefficients.push(secret),
            "Signature" => keys.last_mut().unwrap().signatures.push(bytes),
            _ => {}
        }
    }
    keys
}

#[test]
fn rsa_labs_keys_import_and_their_signatures_round_trip() {
    let keys = keys();
    assert_eq!(keys.len(), 15);
    let sha1_digest_info = [
        0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14,
    ];
    let mut rng = rsatool_rsa::os_rng();
    let mut count = 0;
    for (i, key) in keys.iter().enumerate() {
        let sk =
            RsaPrivateKey::from_parts(&key.parts).unwrap_or_else(|e| panic!("key {}: {e}", i + 1));
        let back = sk.to_parts();
        assert_eq!(back.n, key.parts.n);
        assert_eq!(*back.d, *key.parts.d);
        assert_eq!(back.primes, key.parts.primes);
        assert_eq!(back.exponents, key.parts.exponents);
        assert_eq!(back.coefficients, key.parts.coefficients);
        assert_eq!(key.signatures.len(), 20, "key {}", i + 1);
        let k = sk.size();
        for s in &key.signatures {
            assert_eq!(s.len(), k);
            let em = sk.public_key().public_op(s).unwrap();
            // EM = 00 01 FF…FF 00 DigestInfo(SHA-1) hash (RFC 8017 §9.2).
            let ps_end = k - 1 - sha1_digest_info.len() - 20;
            assert_eq!(&em[..2], &[0, 1]);
            assert!(em[2..ps_end].iter().all(|&b| b == 0xff));
            assert_eq!(em[ps_end], 0);
            assert_eq!(&em[ps_end + 1..k - 20], &sha1_digest_info);
            assert_eq!(&sk.private_op(&mut rng, &em).unwrap(), s);
            assert_eq!(&sk.private_op_plain(&em).unwrap(), s);
            count += 1;
        }
    }
    assert_eq!(count, 300);
}
