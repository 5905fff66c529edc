//! An OpenSSL user's daily key work against `openssl` and Python's `cryptography`: encrypted
//! keys both ways, certificates and keys in one PEM file, RSA-PSS keys and their parameters,
//! multi-prime keys, conversion, inspection, `key --check`, and error messages that say what is
//! wrong. `openssl` and `cryptography` are the oracles; each check says so when one is missing
//! and is skipped.

use std::fs;
use std::path::Path;
use std::process::Output;

use tempfile::TempDir;

use crate::common::{
    assert_failure, assert_success, key, listing, openssl, openssl_dgst, openssl_genpss, python,
    rsatool_fails, rsatool_in, rsatool_ok, s, scratch, scratch_made_by, scratch_with,
    scratch_with_openssl_key, sig_args, write,
};

/// A scratch folder with `pss.pem`, an RSA-PSS key as OpenSSL users make one: SHA-256, salt 32
/// (and OpenSSL 3.0 leaves MGF1 at SHA-1); `None` without openssl.
fn scratch_with_pss_key() -> Option<TempDir> {
    let opts = ["rsa_pss_keygen_md:sha256", "rsa_pss_keygen_saltlen:32"];
    scratch_made_by(|d| openssl_genpss(d, &opts, "pss.pem"))
}

/// A scratch folder with `key.pem` and `cert.pem`, a new 2048-bit key and its self-signed
/// certificate made by openssl; `None` without openssl.
fn scratch_with_key_and_cert() -> Option<TempDir> {
    scratch_made_by(|d| {
        let args = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out",
            "cert.pem", "-subj", "/CN=test", "-days", "1",
        ];
        openssl(d, &args, None)
    })
}

#[test]
fn rsa_pss_key_parameters_are_honoured_as_openssl_does() {
    let Some(dir) = scratch_with_pss_key() else {
        return;
    };
    let d = dir.path();
    write(d, "msg", b"pay Bob 10 EUR\n");
    // OpenSSL refuses these; so must we.
    for (scheme, extra, needles) in [
        ("pkcs1v15", &[][..], &["pss.pem", "pss only"][..]),
        ("pss", &["--hash", "sha512"], &["pss.pem", "SHA-256"]),
        ("pss", &["--salt-len", "20"], &["at least 32"]),
    ] {
        let args = sig_args("sign", "pss.pem", scheme, "msg", "x.sig", extra);
        rsatool_fails(d, &args, 2, needles);
    }
    assert!(!d.join("x.sig").exists());
    // Our default signature with the key verifies in OpenSSL with the key's own defaults.
    rsatool_ok(
        d,
        &sig_args("sign", "pss.pem", "pss", "msg", "ours.sig", &[]),
    );
    openssl_dgst(
        d,
        "sha256",
        "-prverify",
        "pss.pem",
        &["rsa_padding_mode:pss"],
        "ours.sig",
        "msg",
    );
    // OpenSSL's signature with the key verifies here without flags.
    openssl_dgst(
        d,
        "sha256",
        "-sign",
        "pss.pem",
        &["rsa_padding_mode:pss"],
        "ossl.sig",
        "msg",
    );
    rsatool_ok(d, &["pubkey", "-k", "pss.pem", "-o", "pub.pem"]);
    rsatool_ok(
        d,
        &sig_args("verify", "pub.pem", "pss", "msg", "ossl.sig", &[]),
    );
    // pubkey keeps the restrictions: byte for byte what OpenSSL writes.
    let expected = openssl(d, &["pkey", "-in", "pss.pem", "-pubout"], None).expect("openssl");
    assert_eq!(fs::read(d.join("pub.pem")).expect("pub"), expected.stdout);
}

#[test]
fn rsa_pss_keys_are_shown_by_key_text_and_made_by_keygen_pss() {
    let Some(dir) = scratch_with_pss_key() else {
        return;
    };
    let d = dir.path();
    // key --text shows them, in OpenSSL's layout.
    let ours = rsatool_in(d, &["key", "-k", "pss.pem", "--text"], None);
    assert_success(&ours);
    let theirs = openssl(d, &["pkey", "-in", "pss.pem", "-text", "-noout"], None).expect("openssl");
    assert_eq!(
        String::from_utf8_lossy(&ours.stdout),
        String::from_utf8_lossy(&theirs.stdout)
    );
    // keygen --pss makes such a key; OpenSSL reads its restrictions.
    rsatool_ok(
        d,
        &[
            "keygen",
            "--bits",
            "2048",
            "--pss",
            "--hash",
            "sha384",
            "--salt-len",
            "48",
            "-o",
            "ours.pem",
        ],
    );
    let text = openssl(d, &["pkey", "-in", "ours.pem", "-text", "-noout"], None).expect("openssl");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("Hash Algorithm: SHA2-384"), "{text}");
    assert!(
        text.contains("Mask Algorithm: MGF1 with SHA2-384"),
        "{text}"
    );
    assert!(text.contains("Minimum Salt Length: 48"), "{text}");
}

#[test]
fn the_key_block_of_a_several_block_pem_is_used_and_truncation_says_so() {
    let Some(dir) = scratch_with_key_and_cert() else {
        return;
    };
    let d = dir.path();
    // Key first, certificate after, and the reverse, as servers store them.
    let key = fs::read(d.join("key.pem")).expect("key");
    let cert = fs::read(d.join("cert.pem")).expect("cert");
    write(d, "key-cert.pem", &[key.clone(), cert.clone()].concat());
    write(d, "cert-key.pem", &[cert, key.clone()].concat());
    write(d, "msg", b"hello");
    let certpub = openssl(d, &["x509", "-in", "cert.pem", "-pubkey", "-noout"], None)
        .expect("openssl")
        .stdout;
    write(d, "certpub.pem", &certpub);
    for file in ["key-cert.pem", "cert-key.pem"] {
        rsatool_ok(d, &sig_args("sign", file, "pkcs1v15", "msg", "m.sig", &[]));
        openssl_dgst(d, "sha256", "-verify", "certpub.pem", &[], "m.sig", "msg");
    }
    write(d, "cut.pem", &key[..key.len() >> 1]);
    rsatool_fails(
        d,
        &sig_args("sign", "cut.pem", "pss", "msg", "x.sig", &[]),
        2,
        &["cut.pem", "truncated"],
    );
    assert!(!d.join("x.sig").exists());
}

#[test]
fn a_pem_file_of_a_certificate_and_its_key_works_and_truncation_says_so() {
    let Some(dir) = scratch_with_key_and_cert() else {
        return;
    };
    let d = dir.path();
    let mut both = fs::read(d.join("cert.pem")).expect("cert");
    both.extend(fs::read(d.join("key.pem")).expect("key"));
    write(d, "both.pem", &both);
    let expected =
        openssl(d, &["x509", "-in", "cert.pem", "-pubkey", "-noout"], None).expect("openssl");
    for file in ["both.pem", "cert.pem"] {
        let out = rsatool_ok(d, &["pubkey", "-k", file]);
        assert_eq!(out.stdout, expected.stdout, "{file}");
    }
    // A DER certificate too.
    openssl(
        d,
        &[
            "x509", "-in", "cert.pem", "-outform", "DER", "-out", "cert.der",
        ],
        None,
    );
    let out = rsatool_in(d, &["pubkey", "-k", "cert.der"], None);
    assert_eq!(out.stdout, expected.stdout, "DER certificate");
    // The private key of the combined file signs; the certificate verifies, and so does openssl.
    write(d, "msg", b"hello");
    rsatool_ok(
        d,
        &sig_args("sign", "both.pem", "pkcs1v15", "msg", "m.sig", &[]),
    );
    rsatool_ok(
        d,
        &sig_args("verify", "cert.pem", "pkcs1v15", "msg", "m.sig", &[]),
    );
    openssl(
        d,
        &[
            "pkeyutl", "-verify", "-certin", "-inkey", "cert.pem", "-rawin", "-digest", "sha256",
            "-in", "msg", "-sigfile", "m.sig",
        ],
        None,
    );
    // Encrypting to a certificate, like pkeyutl -certin.
    rsatool_ok(
        d,
        &[
            "encrypt", "-k", "cert.pem", "--scheme", "oaep", "-i", "msg", "-o", "m.enc",
        ],
    );
    let out = openssl(
        d,
        &[
            "pkeyutl",
            "-decrypt",
            "-inkey",
            "key.pem",
            "-pkeyopt",
            "rsa_padding_mode:oaep",
            "-pkeyopt",
            "rsa_oaep_md:sha256",
            "-in",
            "m.enc",
        ],
        None,
    )
    .expect("openssl");
    assert_eq!(out.stdout, b"hello");
    // Truncated: said as truncation.
    let key = fs::read(d.join("key.pem")).expect("key");
    write(d, "cut.pem", &key[..key.len() >> 1]);
    let out = rsatool_in(d, &["pubkey", "-k", "cut.pem", "-o", "out.pem"], None);
    assert_failure(&out, 2, &["cut.pem", "truncated"]);
    assert!(!d.join("out.pem").exists());
    // A certificate with a non-RSA key.
    openssl(
        d,
        &[
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            "ec.key",
            "-out",
            "ec.pem",
            "-subj",
            "/CN=ec",
            "-days",
            "1",
        ],
        None,
    );
    let out = rsatool_in(d, &["pubkey", "-k", "ec.pem", "-o", "out.pem"], None);
    assert_failure(&out, 2, &["ec.pem", "not RSA"]);
    assert!(!d.join("out.pem").exists());
}

#[test]
fn keygen_caps_the_number_of_primes_as_openssl_does() {
    let dir = scratch();
    let d = dir.path();
    for (bits, primes, cap) in [("1024", "5", "3"), ("2048", "4", "3"), ("4096", "5", "4")] {
        rsatool_fails(
            d,
            &["keygen", "--bits", bits, "--primes", primes, "-o", "k.pem"],
            2,
            &["--primes", &format!("at most {cap}")],
        );
    }
    assert!(listing(d).is_empty());
    rsatool_ok(
        d,
        &["keygen", "--bits", "1024", "--primes", "3", "-o", "k3.pem"],
    );
}

#[test]
fn a_multi_prime_key_over_the_cap_made_elsewhere_still_loads() {
    // OpenSSL refuses 5 primes below 8192 bits, so the rsa crate makes this one (1024 bits,
    // 4 primes, over the cap of 3).
    let mut rng = rsatool_rsa::os_rng();
    let key = rsatool_rsa::RsaPrivateKey::generate_multi_prime(1024, 4, &mut rng).expect("keygen");
    let pem = rsatool_rsa::encode_private_key(
        &key.to_parts(),
        rsatool_rsa::KeyFormat::Pkcs8,
        rsatool_rsa::Encoding::Pem,
    )
    .expect("encode");
    let dir = scratch_with("k4.pem", &pem);
    let d = dir.path();
    let out = rsatool_ok(d, &["key", "-k", "k4.pem", "--check"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "RSA key ok\n");
    write(d, "msg", b"m");
    rsatool_ok(d, &sig_args("sign", "k4.pem", "pss", "msg", "m.sig", &[]));
    // OpenSSL's own check refuses keys over its cap, but its verifier takes the signature.
    rsatool_ok(d, &["pubkey", "-k", "k4.pem", "-o", "pub.pem"]);
    openssl_dgst(
        d,
        "sha256",
        "-verify",
        "pub.pem",
        &["rsa_padding_mode:pss", "rsa_pss_saltlen:digest"],
        "m.sig",
        "msg",
    );
}

#[test]
fn error_messages_say_what_is_wrong() {
    let dir = scratch();
    let d = dir.path();
    write(d, "m", b"x");
    rsatool_fails(
        d,
        &[
            "encrypt",
            "-k",
            s(key(1024)),
            "--scheme",
            "oaep",
            "--hash",
            "sha512",
            "-i",
            "m",
            "-o",
            "c",
        ],
        2,
        &["too small", "SHA-512"],
    );
    rsatool_fails(
        d,
        &["speed", "-s", "10", "foo"],
        2,
        &["foo", "addmul_1", "mont_sqr"],
    );
    rsatool_fails(
        d,
        &["speed", "-s", "10", "add_n.foo"],
        2,
        &["unknown back end 'foo'", "portable"],
    );
    fs::create_dir(d.join("empty")).expect("mkdir");
    let out = rsatool_in(d, &["kat", "empty"], None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("os error"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A private key with one part broken, through the rsa crate's encoder (structure valid).
fn broken_key(d: &Path, name: &str, f: impl FnOnce(&mut rsatool_rsa::PrivateKeyParts)) {
    let pem = fs::read(key(1024)).expect("key");
    let mut parts = rsatool_rsa::decode_private_key(&pem).expect("decodes");
    f(&mut parts);
    let enc = rsatool_rsa::encode_private_key(
        &parts,
        rsatool_rsa::KeyFormat::Pkcs8,
        rsatool_rsa::Encoding::Pem,
    )
    .expect("encodes");
    write(d, name, &enc);
}

#[test]
fn every_private_key_command_validates_and_key_check_says_what_is_wrong() {
    let dir = scratch();
    let d = dir.path();
    broken_key(d, "d0.pem", |p| p.d = zeroize::Zeroizing::new(Vec::new()));
    broken_key(d, "pq.pem", |p| p.primes[1] = p.primes[0].clone());
    broken_key(d, "n.pem", |p| {
        let last = p.n.len() - 1;
        p.n[last] ^= 2;
    });
    for (file, check_msg) in [
        ("d0.pem", "private exponent"),
        ("pq.pem", "not distinct"),
        ("n.pem", "not the product"),
    ] {
        rsatool_fails(
            d,
            &["pubkey", "-k", file, "-o", "pub.pem"],
            2,
            &[file, check_msg],
        );
        assert!(!d.join("pub.pem").exists(), "{file}");
        rsatool_fails(
            d,
            &["key", "-k", file, "--check"],
            1,
            &[file, "not ok", check_msg],
        );
    }
}

/// The text of the PEM file `name` in `d`.
fn pem_text(d: &Path, name: &str) -> String {
    fs::read_to_string(d.join(name)).expect("pem")
}

/// `rsatool key` of `enc.pem` (below), opened with its password.
const ENC_PEM_KEY: [&str; 5] = ["key", "-k", "enc.pem", "--passin", "pass:s3cret"];

/// `openssl COMMAND -in enc.pem -passin pass:s3cret ARGS` (`enc.pem` below, opened with its
/// password); requires success. `None` without openssl.
fn openssl_on_enc_pem(d: &Path, command: &str, args: &[&str]) -> Option<Output> {
    let head = [command, "-in", "enc.pem", "-passin", "pass:s3cret"];
    openssl(d, &[&head[..], args].concat(), None)
}

#[test]
fn encrypted_keys_interoperate_with_openssl_both_ways() {
    let Some(dir) =
        scratch_with_openssl_key(2048, &["-aes-128-cbc", "-pass", "pass:s3cret"], "enc.pem")
    else {
        return;
    };
    let d = dir.path();
    let plain = openssl_on_enc_pem(d, "pkey", &["-pubout"])
        .expect("openssl")
        .stdout;
    write(d, "pw.txt", b"s3cret\n");
    write(d, "empty.txt", b"");
    // Every password source.
    for src in ["pass:s3cret", "env:RSATOOL_TEST_PW", "file:pw.txt", "stdin"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rsatool"))
            .args(["pubkey", "-k", "enc.pem", "--passin", src])
            .env("RSATOOL_TEST_PW", "s3cret")
            .current_dir(d)
            .stdin(fs::File::open(d.join("pw.txt")).expect("pw"))
            .output()
            .expect("runs");
        assert_success(&out);
        assert_eq!(out.stdout, plain, "{src}");
    }
    // Wrong password, empty password file (no line at all), no password without a terminal: one line, exit 2.
    rsatool_fails(
        d,
        &[
            "pubkey",
            "-k",
            "enc.pem",
            "--passin",
            "pass:wrong",
            "-o",
            "o.pem",
        ],
        2,
        &["enc.pem", "wrong password"],
    );
    let out = rsatool_in(
        d,
        &[
            "pubkey",
            "-k",
            "enc.pem",
            "--passin",
            "file:empty.txt",
            "-o",
            "o.pem",
        ],
        None,
    );
    // An empty file holds no password (an empty line would be an empty password).
    assert_failure(&out, 2, &["no password"]);
    rsatool_fails(
        d,
        &["pubkey", "-k", "enc.pem", "-o", "o.pem"],
        2,
        &["--passin"],
    );
    // A truncated encrypted key.
    let der = openssl_on_enc_pem(
        d,
        "pkcs8",
        &[
            "-topk8",
            "-v2",
            "aes-256-cbc",
            "-passout",
            "pass:s3cret",
            "-outform",
            "DER",
        ],
    )
    .expect("openssl")
    .stdout;
    write(d, "cut.der", &der[..der.len() - 20]);
    let out = rsatool_in(
        d,
        &[
            "pubkey",
            "-k",
            "cut.der",
            "--passin",
            "pass:s3cret",
            "-o",
            "o.pem",
        ],
        None,
    );
    assert_failure(&out, 2, &["cut.der"]);
    assert!(!d.join("o.pem").exists());
    // scrypt, as OpenSSL writes it.
    openssl_on_enc_pem(
        d,
        "pkcs8",
        &[
            "-topk8",
            "-scrypt",
            "-passout",
            "pass:pw2",
            "-out",
            "scrypt.pem",
        ],
    );
    let out = rsatool_in(
        d,
        &["pubkey", "-k", "scrypt.pem", "--passin", "pass:pw2"],
        None,
    );
    assert_eq!(out.stdout, plain, "scrypt");
    // OpenSSL's legacy encrypted PEM, AES-256-CBC and DES-EDE3-CBC.
    for cipher in ["-aes256", "-des3"] {
        openssl_on_enc_pem(
            d,
            "rsa",
            &[
                "-traditional",
                cipher,
                "-passout",
                "pass:old",
                "-out",
                "legacy.pem",
            ],
        );
        assert!(pem_text(d, "legacy.pem").contains("Proc-Type: 4,ENCRYPTED"));
        let out = rsatool_ok(d, &["pubkey", "-k", "legacy.pem", "--passin", "pass:old"]);
        assert_eq!(out.stdout, plain, "{cipher}");
        rsatool_fails(
            d,
            &["pubkey", "-k", "legacy.pem", "--passin", "pass:bad"],
            2,
            &["wrong password"],
        );
    }
    // Ours, read by OpenSSL: keygen --passout and key --passout.
    rsatool_ok(
        d,
        &[
            "keygen",
            "--bits",
            "2048",
            "--passout",
            "pass:mine",
            "-o",
            "new.pem",
        ],
    );
    assert!(pem_text(d, "new.pem").starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
    openssl(
        d,
        &[
            "pkey",
            "-in",
            "new.pem",
            "-passin",
            "pass:mine",
            "-check",
            "-noout",
        ],
        None,
    );
    rsatool_ok(
        d,
        &[
            &ENC_PEM_KEY[..],
            &[
                "--passout",
                "pass:again",
                "--format",
                "der",
                "-o",
                "again.der",
            ],
        ]
        .concat(),
    );
    let out = openssl(
        d,
        &[
            "pkey",
            "-inform",
            "DER",
            "-in",
            "again.der",
            "-passin",
            "pass:again",
            "-pubout",
        ],
        None,
    )
    .expect("openssl");
    assert_eq!(out.stdout, plain);
    // And decrypted, converted to PKCS #1 as openssl rsa -traditional writes it.
    rsatool_ok(
        d,
        &[&ENC_PEM_KEY[..], &["--pkcs1", "-o", "p1.pem"]].concat(),
    );
    let expected = openssl_on_enc_pem(d, "rsa", &["-traditional"]).expect("openssl");
    assert_eq!(fs::read(d.join("p1.pem")).expect("p1"), expected.stdout);
    // key --text equals openssl's: public, multi-prime and private.
    rsatool_ok(d, &["pubkey", "-k", "p1.pem", "-o", "p1.pub"]);
    let ours = rsatool_in(d, &["key", "-k", "p1.pub", "--text"], None);
    let theirs = openssl(
        d,
        &["pkey", "-pubin", "-in", "p1.pub", "-text", "-noout"],
        None,
    )
    .expect("openssl");
    assert_eq!(
        String::from_utf8_lossy(&ours.stdout),
        String::from_utf8_lossy(&theirs.stdout)
    );
    rsatool_ok(
        d,
        &["keygen", "--bits", "2048", "--primes", "3", "-o", "m3.pem"],
    );
    let ours = rsatool_in(d, &["key", "-k", "m3.pem", "--text"], None);
    let theirs = openssl(d, &["pkey", "-in", "m3.pem", "-text", "-noout"], None).expect("openssl");
    assert_eq!(
        String::from_utf8_lossy(&ours.stdout),
        String::from_utf8_lossy(&theirs.stdout)
    );
    let ours = rsatool_in(d, &["key", "-k", "p1.pem", "--text"], None);
    let theirs = openssl(d, &["pkey", "-in", "p1.pem", "-text", "-noout"], None).expect("openssl");
    assert_eq!(
        String::from_utf8_lossy(&ours.stdout),
        String::from_utf8_lossy(&theirs.stdout)
    );
}

const PY_ENC: &str = r#"
import sys
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
op = sys.argv[1]
if op == 'write':
    k = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    open('py.pem', 'wb').write(k.private_bytes(serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8, serialization.BestAvailableEncryption(b'pypw')))
    open('py.pub', 'wb').write(k.public_key().public_bytes(serialization.Encoding.PEM,
        serialization.PublicFormat.SubjectPublicKeyInfo))
else:
    k = serialization.load_pem_private_key(open('ours.pem', 'rb').read(), b'ourpw')
    assert k.key_size == 2048
"#;

#[test]
fn encrypted_keys_interoperate_with_python_cryptography_both_ways() {
    let dir = scratch();
    let d = dir.path();
    if python(d, PY_ENC, &["write"]).is_none() {
        return;
    }
    let out = rsatool_ok(d, &["pubkey", "-k", "py.pem", "--passin", "pass:pypw"]);
    assert_eq!(out.stdout, fs::read(d.join("py.pub")).expect("pub"));
    rsatool_ok(
        d,
        &[
            "keygen",
            "--bits",
            "2048",
            "--passout",
            "pass:ourpw",
            "-o",
            "ours.pem",
        ],
    );
    python(d, PY_ENC, &["read"]);
}

#[test]
fn pss_mgf1_hash_auto_salt_and_prehashed_interoperate_with_openssl() {
    let dir = scratch_with("msg", b"the message");
    let d = dir.path();
    let k = s(key(2048));
    // Python's PSS.MAX_LENGTH / OpenSSL's max: verifies without flags.
    let Some(_) = openssl_dgst(
        d,
        "sha256",
        "-sign",
        k,
        &["rsa_padding_mode:pss", "rsa_pss_saltlen:max"],
        "max.sig",
        "msg",
    ) else {
        return;
    };
    rsatool_ok(d, &sig_args("verify", k, "pss", "msg", "max.sig", &[]));
    // An explicit length is enforced.
    let out = rsatool_in(
        d,
        &sig_args("verify", k, "pss", "msg", "max.sig", &["--salt-len", "32"]),
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    // --mgf1-hash both ways.
    rsatool_ok(
        d,
        &sig_args("sign", k, "pss", "msg", "m1.sig", &["--mgf1-hash", "sha1"]),
    );
    openssl_dgst(
        d,
        "sha256",
        "-prverify",
        k,
        &[
            "rsa_padding_mode:pss",
            "rsa_mgf1_md:sha1",
            "rsa_pss_saltlen:32",
        ],
        "m1.sig",
        "msg",
    );
    openssl_dgst(
        d,
        "sha384",
        "-sign",
        k,
        &["rsa_padding_mode:pss", "rsa_mgf1_md:sha512"],
        "m2.sig",
        "msg",
    );
    rsatool_ok(
        d,
        &sig_args(
            "verify",
            k,
            "pss",
            "msg",
            "m2.sig",
            &["--hash", "sha384", "--mgf1-hash", "sha512"],
        ),
    );
    // --prehashed: the digest itself, as pkeyutl -pkeyopt digest:sha256 signs it.
    let digest = openssl(d, &["dgst", "-sha256", "-binary", "msg"], None)
        .expect("openssl")
        .stdout;
    write(d, "msg.sha256", &digest);
    openssl(
        d,
        &[
            "pkeyutl",
            "-sign",
            "-inkey",
            k,
            "-pkeyopt",
            "digest:sha256",
            "-in",
            "msg.sha256",
            "-out",
            "pre.sig",
        ],
        None,
    );
    rsatool_ok(
        d,
        &sig_args(
            "verify",
            k,
            "pkcs1v15",
            "msg.sha256",
            "pre.sig",
            &["--prehashed"],
        ),
    );
    rsatool_ok(
        d,
        &sig_args(
            "sign",
            k,
            "pkcs1v15",
            "msg.sha256",
            "ours.sig",
            &["--prehashed"],
        ),
    );
    assert_eq!(
        fs::read(d.join("ours.sig")).expect("sig"),
        fs::read(d.join("pre.sig")).expect("sig"),
        "PKCS #1 v1.5 is deterministic"
    );
    // A digest of the wrong length.
    write(d, "short", &digest[..20]);
    rsatool_fails(
        d,
        &sig_args("sign", k, "pkcs1v15", "short", "x.sig", &["--prehashed"]),
        2,
        &["short", "32 bytes"],
    );
    assert!(!d.join("x.sig").exists());
}

#[test]
fn sign_of_several_files_writes_a_signature_beside_each_that_openssl_verifies() {
    let dir = scratch();
    let d = dir.path();
    let k = s(key(2048));
    let names = ["a.txt", "b.txt", "c.txt"];
    for (i, n) in names.iter().enumerate() {
        write(d, n, format!("file {i}").as_bytes());
    }
    rsatool_ok(
        d,
        &[
            "sign", "-k", k, "--scheme", "pss", "-i", "a.txt", "b.txt", "c.txt",
        ],
    );
    let pub_pem = rsatool_in(d, &["pubkey", "-k", k], None).stdout;
    write(d, "pub.pem", &pub_pem);
    for n in names {
        let sig = format!("{n}.sig");
        assert!(d.join(&sig).is_file(), "{sig}");
        openssl_dgst(
            d,
            "sha256",
            "-verify",
            "pub.pem",
            &["rsa_padding_mode:pss", "rsa_pss_saltlen:digest"],
            &sig,
            n,
        );
    }
    // One input missing: the others signed, it named, exit 2, no signature for it.
    for n in names {
        fs::remove_file(d.join(format!("{n}.sig"))).expect("rm");
    }
    rsatool_fails(
        d,
        &[
            "sign",
            "-k",
            k,
            "--scheme",
            "pkcs1v15",
            "-i",
            "a.txt",
            "-i",
            "missing.txt",
            "-i",
            "c.txt",
        ],
        2,
        &["missing.txt", "no such file"],
    );
    assert!(d.join("a.txt.sig").is_file() && d.join("c.txt.sig").is_file());
    assert!(!d.join("missing.txt.sig").exists());
    for n in ["a.txt", "c.txt"] {
        openssl_dgst(
            d,
            "sha256",
            "-verify",
            "pub.pem",
            &[],
            &format!("{n}.sig"),
            n,
        );
    }
    // -o with several inputs is refused.
    rsatool_fails(
        d,
        &[
            "sign", "-k", k, "--scheme", "pss", "-i", "a.txt", "c.txt", "-o", "x",
        ],
        2,
        &["--output"],
    );
    // --passin stdin cannot share stdin with the input.
    let out = rsatool_in(
        d,
        &[
            "sign", "-k", k, "--scheme", "pss", "--passin", "stdin", "-i", "-",
        ],
        Some(b"x"),
    );
    assert_failure(&out, 2, &["stdin"]);
}

const PY_PSS: &str = r#"
import sys, datetime
from cryptography import x509
from cryptography.x509.oid import NameOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, utils
key = serialization.load_pem_private_key(open(sys.argv[2], 'rb').read(), None)
pub = key.public_key()
msg = open('msg', 'rb').read()
digest = open('msg.sha256', 'rb').read()
if sys.argv[1] == 'make':
    # Python's signatures: MAX_LENGTH salt with MGF1-SHA1, and a prehashed PKCS #1 v1.5 one.
    open('py-max.sig', 'wb').write(key.sign(msg, padding.PSS(mgf=padding.MGF1(hashes.SHA1()),
        salt_length=padding.PSS.MAX_LENGTH), hashes.SHA256()))
    open('py-pre.sig', 'wb').write(key.sign(digest, padding.PKCS1v15(),
        utils.Prehashed(hashes.SHA256())))
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, 'py')])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
        .public_key(pub).serial_number(1).not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1)).sign(key, hashes.SHA256()))
    open('py-cert.pem', 'wb').write(cert.public_bytes(serialization.Encoding.PEM))
    open('py-cert.der', 'wb').write(cert.public_bytes(serialization.Encoding.DER))
else:
    # Ours: PSS with MGF1-SHA1 (salt of the hash length), and a prehashed PKCS #1 v1.5 one.
    pub.verify(open('our-mgf1.sig', 'rb').read(), msg, padding.PSS(mgf=padding.MGF1(hashes.SHA1()),
        salt_length=32), hashes.SHA256())
    pub.verify(open('our-pre.sig', 'rb').read(), digest, padding.PKCS1v15(),
        utils.Prehashed(hashes.SHA256()))
"#;

#[test]
fn mgf1_hash_salt_auto_prehashed_and_certificates_interoperate_with_python_cryptography() {
    let dir = scratch_with("msg", b"a message for python");
    let d = dir.path();
    let k = s(key(2048));
    // The digest from Python's own hash, so no rsatool code is in the oracle.
    let digest = python(
        d,
        "import hashlib,sys; sys.stdout.buffer.write(hashlib.sha256(open('msg','rb').read()).digest())",
        &[],
    );
    let Some(digest) = digest else {
        return;
    };
    write(d, "msg.sha256", &digest.stdout);
    python(d, PY_PSS, &["make", k]);
    // Python's MAX_LENGTH signature with MGF1-SHA1: no --salt-len needed.
    rsatool_ok(
        d,
        &sig_args(
            "verify",
            k,
            "pss",
            "msg",
            "py-max.sig",
            &["--mgf1-hash", "sha1"],
        ),
    );
    rsatool_ok(
        d,
        &sig_args(
            "verify",
            k,
            "pkcs1v15",
            "msg.sha256",
            "py-pre.sig",
            &["--prehashed"],
        ),
    );
    // Python's certificate, PEM and DER, as the public key.
    for cert in ["py-cert.pem", "py-cert.der"] {
        rsatool_ok(
            d,
            &sig_args(
                "verify",
                cert,
                "pkcs1v15",
                "msg.sha256",
                "py-pre.sig",
                &["--prehashed"],
            ),
        );
    }
    rsatool_ok(
        d,
        &sig_args(
            "sign",
            k,
            "pss",
            "msg",
            "our-mgf1.sig",
            &["--mgf1-hash", "sha1"],
        ),
    );
    rsatool_ok(
        d,
        &sig_args(
            "sign",
            k,
            "pkcs1v15",
            "msg.sha256",
            "our-pre.sig",
            &["--prehashed"],
        ),
    );
    python(d, PY_PSS, &["check", k]);
}
