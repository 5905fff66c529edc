//! OAEP and PKCS #1 v1.5 encryption against independent implementations, with a 2048-bit key:
//! the `openssl` command (`pkeyutl`) encrypts and we decrypt, we encrypt and it decrypts, for
//! OAEP with every hash, MGF1 with the same hash and with SHA-1, with and without a label, and
//! for PKCS #1 v1.5. The machine's `openssl` is 3.0, which has no implicit rejection; Python's
//! `cryptography` bundles a newer OpenSSL that has it, so it is the oracle for the synthetic
//! messages of badly padded ciphertexts. Each part is skipped, with a message, where its tool
//! is absent.
// Test code: `unwrap` on expected values is the assertion.
#![allow(clippy::unwrap_used)]

use crate::common;

use rsatool_rsa::hazmat::PublicOp;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::tools::{TempDir, have, python};
use common::{random_below, rng};
use rand_chacha::ChaCha20Rng;
use rand_core::Rng;
use rsatool_rsa::{
    Encoding, HashAlg, KeyFormat, Oaep, Pkcs1v15Encrypt, RsaPrivateKey, encode_private_key,
};

fn key() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| RsaPrivateKey::generate(2048, &mut rng(20481)).unwrap())
}

/// The key as PKCS #8 PEM in `dir`.
fn write_key(dir: &TempDir) -> PathBuf {
    let path = dir.path("key.pem");
    let pem = encode_private_key(&key().to_parts(), KeyFormat::Pkcs8, Encoding::Pem).unwrap();
    std::fs::write(&path, pem.as_slice()).unwrap();
    path
}

/// A temporary directory `name` with the key written in it (see [`write_key`]), the key's path,
/// the key, and an RNG seeded with `seed`.
fn setup(name: &str, seed: u64) -> (TempDir, PathBuf, &'static RsaPrivateKey, ChaCha20Rng) {
    let dir = TempDir::new(name);
    let path = write_key(&dir);
    (dir, path, key(), rng(seed))
}

/// `openssl pkeyutl -encrypt|-decrypt` with the `-pkeyopt` options, on `input`.
fn pkeyutl(dir: &TempDir, key: &Path, op: &str, opts: &[String], input: &[u8]) -> Vec<u8> {
    let (inp, out) = (dir.path("in.bin"), dir.path("out.bin"));
    std::fs::write(&inp, input).unwrap();
    let mut cmd = Command::new("openssl");
    cmd.args(["pkeyutl", op, "-inkey"])
        .arg(key)
        .arg("-in")
        .arg(&inp)
        .arg("-out")
        .arg(&out);
    for o in opts {
        cmd.args(["-pkeyopt", o]);
    }
    let res = cmd.output().unwrap();
    assert!(
        res.status.success(),
        "openssl pkeyutl {op} {opts:?}: {}",
        String::from_utf8_lossy(&res.stderr)
    );
    std::fs::read(&out).unwrap()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn oaep_every_hash_both_ways_with_openssl() {
    if !have("openssl", &["version"]) {
        return;
    }
    let (dir, path, key, mut r) = setup("encrypt-oaep", 1);
    let mut count = 0;
    for hash in HashAlg::ALL {
        for mgf in [hash, HashAlg::Sha1] {
            for label in [&b""[..], b"\x00label\xff"] {
                let scheme = Oaep::new(hash).with_mgf1_hash(mgf).with_label(label);
                let mut opts = vec![
                    "rsa_padding_mode:oaep".to_owned(),
                    format!("rsa_oaep_md:{}", hash.cli_name()),
                    format!("rsa_mgf1_md:{}", mgf.cli_name()),
                ];
                if !label.is_empty() {
                    opts.push(format!("rsa_oaep_label:{}", hex(label)));
                }
                let max = scheme.max_message_len(key.public_key());
                for len in [0, 1, max] {
                    let mut msg = vec![0u8; len];
                    r.fill_bytes(&mut msg);
                    // OpenSSL encrypts, we decrypt.
                    let c = pkeyutl(&dir, &path, "-encrypt", &opts, &msg);
                    assert_eq!(
                        key.decrypt(&mut r, &scheme, &c).unwrap(),
                        msg,
                        "{hash}/{mgf} label {label:?} len {len}: ours decrypting OpenSSL's"
                    );
                    // We encrypt, OpenSSL decrypts.
                    let c = key.public_key().encrypt(&mut r, &scheme, &msg).unwrap();
                    assert_eq!(
                        pkeyutl(&dir, &path, "-decrypt", &opts, &c),
                        msg,
                        "{hash}/{mgf} label {label:?} len {len}: OpenSSL decrypting ours"
                    );
                    count += 1;
                }
            }
        }
    }
    println!("{count} OAEP messages each way with openssl");
    assert_eq!(count, 7 * 2 * 2 * 3);
}

#[test]
fn pkcs1v15_both_ways_with_openssl() {
    if !have("openssl", &["version"]) {
        return;
    }
    let (dir, path, key, mut r) = setup("encrypt-v15", 2);
    let opts = ["rsa_padding_mode:pkcs1".to_owned()];
    for len in [0, 1, 48, key.size() - 11] {
        let mut msg = vec![0u8; len];
        r.fill_bytes(&mut msg);
        let c = pkeyutl(&dir, &path, "-encrypt", &opts, &msg);
        for scheme in [
            Pkcs1v15Encrypt::new(),
            Pkcs1v15Encrypt::explicit_rejection(),
        ] {
            assert_eq!(key.decrypt(&mut r, &scheme, &c).unwrap(), msg, "len {len}");
        }
        let c = key
            .public_key()
            .encrypt(&mut r, &Pkcs1v15Encrypt::new(), &msg)
            .unwrap();
        assert_eq!(
            pkeyutl(&dir, &path, "-decrypt", &opts, &c),
            msg,
            "len {len}"
        );
    }
}

/// Decrypts each hex ciphertext with Python `cryptography`'s PKCS #1 v1.5 (implicit rejection
/// in its OpenSSL); one hex message (or `ERR`) per line.
const PY_DECRYPT: &str = r#"
import sys
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from cryptography.hazmat.primitives.asymmetric import padding
key = load_pem_private_key(open(sys.argv[1], "rb").read(), None)
for line in open(sys.argv[2]):
    try:
        print(key.decrypt(bytes.fromhex(line.strip()), padding.PKCS1v15()).hex())
    except Exception:
        print("ERR")
"#;

#[test]
fn pkcs1v15_implicit_rejection_matches_python_cryptography() {
    if !have(
        "python3",
        &["-c", "import cryptography.hazmat.primitives.asymmetric.rsa"],
    ) {
        return;
    }
    let (dir, path, key, mut r) = setup("encrypt-implicit", 3);
    let k = key.size();
    // Ciphertexts: random ones (bad padding with overwhelming probability), encodings with
    // one thing wrong, and valid ones.
    let mut cts = Vec::new();
    for _ in 0..40 {
        cts.push(random_below(k, &mut r));
    }
    let raw = |em: &[u8]| key.public_key().public_op(em).unwrap();
    for short_ps in [0usize, 1, 7] {
        let mut em = vec![0x11u8; k];
        em[0] = 0;
        em[1] = 2;
        em[2 + short_ps] = 0;
        cts.push(raw(&em));
    }
    let mut em = vec![0x11u8; k];
    em[0] = 0;
    em[1] = 2;
    cts.push(raw(&em)); // no separator
    em[1] = 1;
    em[20] = 0;
    cts.push(raw(&em)); // block type 1
    for len in [0, 5, k - 11] {
        let msg = vec![0x33u8; len];
        cts.push(
            key.public_key()
                .encrypt(&mut r, &Pkcs1v15Encrypt::new(), &msg)
                .unwrap(),
        );
    }

    let list = dir.path("cts.txt");
    let lines: Vec<String> = cts.iter().map(|c| hex(c)).collect();
    std::fs::write(&list, lines.join("\n") + "\n").unwrap();
    let answers: Vec<String> = python(PY_DECRYPT, &[&path, &list])
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(answers.len(), cts.len());
    if answers.iter().any(|a| a == "ERR") {
        // An OpenSSL without implicit rejection: nothing to compare the synthetic messages to.
        eprintln!(
            "skipped: Python's OpenSSL rejects bad padding explicitly (no implicit rejection)"
        );
        return;
    }
    let mut lengths = std::collections::HashSet::new();
    for (c, want) in cts.iter().zip(&answers) {
        let got = key.decrypt(&mut r, &Pkcs1v15Encrypt::new(), c).unwrap();
        assert_eq!(hex(&got), *want, "ciphertext {}", hex(c));
        assert_eq!(got, unhex(want));
        lengths.insert(got.len());
    }
    println!(
        "{} ciphertexts decrypt as Python cryptography's OpenSSL does, {} distinct lengths",
        cts.len(),
        lengths.len()
    );
    assert!(lengths.len() > 10);
}
