//! rsatool's encryption and key files against the `openssl` command and Python's
//! `cryptography` package, both ways, at 2048 and 3072 bits: they decrypt our OAEP and PKCS #1
//! v1.5 ciphertexts and we theirs (OAEP hashes, MGF1 hashes, labels), and keys they generate
//! work here for every operation, as ours do there. Each check is skipped, with a note on
//! stderr, where the tool is missing.

use std::fs;
use std::path::Path;

use crate::common::{
    SIZES, has_openssl, has_python_cryptography, key, op, openssl, openssl_dgst, public_key,
    py_batch, py_each_size_and_case, rsatool_ok, s, with_oracle,
};

/// OpenSSL's `-pkeyopt` list for an encryption scheme.
fn pkeyopts(scheme: &str, hash: &str, mgf1: &str, label: &str) -> Vec<String> {
    let mut v = vec!["-pkeyopt".to_owned()];
    if scheme == "pkcs1v15" {
        v.push("rsa_padding_mode:pkcs1".into());
        return v;
    }
    v.push("rsa_padding_mode:oaep".into());
    v.extend(["-pkeyopt".into(), format!("rsa_oaep_md:{hash}")]);
    v.extend(["-pkeyopt".into(), format!("rsa_mgf1_md:{mgf1}")]);
    if !label.is_empty() {
        let hex: String = label.bytes().map(|b| format!("{b:02x}")).collect();
        v.extend(["-pkeyopt".into(), format!("rsa_oaep_label:{hex}")]);
    }
    v
}

fn our_enc_opts<'a>(scheme: &'a str, hash: &'a str, mgf1: &'a str, label: &'a str) -> Vec<&'a str> {
    let mut v = vec!["--scheme", scheme];
    if scheme == "oaep" {
        v.extend(["--hash", hash, "--mgf1-hash", mgf1]);
        if !label.is_empty() {
            v.extend(["--label", label]);
        }
    }
    v
}

/// `rsatool decrypt` of `input` with `key` and `opts`, to stdout; requires success.
fn decrypt_to_stdout(d: &Path, key: &str, input: &str, opts: &[&str]) -> Vec<u8> {
    let mut args = vec!["decrypt", "-k", key, "-i", input, "-o", "-"];
    args.extend_from_slice(opts);
    rsatool_ok(d, &args).stdout
}

const ENC_CASES: [(&str, &str, &str, &str); 7] = [
    ("oaep", "sha256", "sha256", ""),
    ("oaep", "sha1", "sha1", ""),
    ("oaep", "sha256", "sha1", ""),
    ("oaep", "sha384", "sha384", "a label"),
    ("oaep", "sha512", "sha256", "x"),
    ("oaep", "sha224", "sha224", ""),
    ("pkcs1v15", "", "", ""),
];

#[test]
fn encryption_interoperates_with_openssl_both_ways() {
    let msg = b"0123456789abcdef0123456789abcdef";
    with_oracle(has_openssl(), "plain", msg, |d| {
        for bits in SIZES {
            let (k, p) = (s(key(bits)), s(public_key(bits)));
            for (scheme, hash, mgf1, label) in ENC_CASES {
                let opts = our_enc_opts(scheme, hash, mgf1, label);
                // We encrypt, openssl decrypts.
                let mut args = vec!["encrypt", "-k", p, "-i", "plain", "-o", "our.ct"];
                args.extend_from_slice(&opts);
                rsatool_ok(d, &args);
                let mut a: Vec<String> = ["pkeyutl", "-decrypt", "-inkey", k, "-in", "our.ct"]
                    .map(String::from)
                    .to_vec();
                a.extend(pkeyopts(scheme, hash, mgf1, label));
                let a: Vec<&str> = a.iter().map(String::as_str).collect();
                let out = openssl(d, &a, None).expect("openssl");
                assert_eq!(out.stdout, msg, "{bits} {scheme} {hash} {mgf1} {label:?}");
                // Openssl encrypts, we decrypt.
                let mut a: Vec<String> = [
                    "pkeyutl", "-encrypt", "-pubin", "-inkey", p, "-in", "plain", "-out", "ossl.ct",
                ]
                .map(String::from)
                .to_vec();
                a.extend(pkeyopts(scheme, hash, mgf1, label));
                let a: Vec<&str> = a.iter().map(String::as_str).collect();
                openssl(d, &a, None).expect("openssl");
                let out = decrypt_to_stdout(d, k, "ossl.ct", &opts);
                assert_eq!(out, msg, "{bits} {scheme} {hash} {mgf1} {label:?}");
            }
        }
    });
}

#[test]
fn keys_openssl_generates_work_for_every_operation() {
    with_oracle(has_openssl(), "msg", b"message", |d| {
        for bits in SIZES {
            let bits_opt = format!("rsa_keygen_bits:{bits}");
            openssl(
                d,
                &[
                    "genpkey",
                    "-algorithm",
                    "RSA",
                    "-pkeyopt",
                    &bits_opt,
                    "-out",
                    "ossl.pem",
                ],
                None,
            )
            .expect("openssl");
            openssl(
                d,
                &[
                    "rsa",
                    "-in",
                    "ossl.pem",
                    "-traditional",
                    "-outform",
                    "DER",
                    "-out",
                    "ossl1.der",
                ],
                None,
            )
            .expect("openssl");
            openssl(
                d,
                &["pkey", "-in", "ossl.pem", "-pubout", "-out", "ossl.pub"],
                None,
            )
            .expect("openssl");
            for k in ["ossl.pem", "ossl1.der"] {
                rsatool_ok(
                    d,
                    &["sign", "-k", k, "--scheme", "pss", "-i", "msg", "-o", "sig"],
                );
                let out = openssl_dgst(
                    d,
                    "sha256",
                    "-verify",
                    "ossl.pub",
                    &["rsa_padding_mode:pss", "rsa_pss_saltlen:digest"],
                    "sig",
                    "msg",
                )
                .expect("openssl");
                assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "Verified OK");
                openssl(
                    d,
                    &[
                        &[
                            "pkeyutl", "-encrypt", "-pubin", "-inkey", "ossl.pub", "-in", "msg",
                            "-out", "ct",
                        ][..],
                        &testkit::OPENSSL_OAEP_SHA256,
                    ]
                    .concat(),
                    None,
                )
                .expect("openssl");
                let out = rsatool_ok(d, &["decrypt", "-k", k, "--scheme", "oaep", "-i", "ct"]);
                assert_eq!(out.stdout, b"message");
            }
        }
    });
}

#[test]
fn encryption_interoperates_with_python_cryptography_both_ways() {
    let msg = b"a secret for the other side";
    with_oracle(has_python_cryptography(), "plain", msg, |d| {
        py_each_size_and_case(
            d,
            ENC_CASES.len(),
            |bits, i| {
                let (k, p) = (s(key(bits)), s(public_key(bits)));
                let (scheme, hash, mgf1, label) = ENC_CASES[i];
                let ours = format!("our{bits}-{i}.ct");
                let mut args = vec!["encrypt", "-k", p, "-i", "plain", "-o", &ours];
                args.extend_from_slice(&our_enc_opts(scheme, hash, mgf1, label));
                rsatool_ok(d, &args);
                let plain = format!("{ours}.plain");
                let theirs = format!("py{bits}-{i}.ct");
                vec![
                    op(&["decrypt", k, scheme, hash, mgf1, label, &ours, &plain]),
                    op(&["encrypt", p, scheme, hash, mgf1, label, "plain", &theirs]),
                ]
            },
            |bits, i| {
                let k = s(key(bits));
                let (scheme, hash, mgf1, label) = ENC_CASES[i];
                let what = format!("{bits} {scheme} {hash} {mgf1} {label:?}");
                let decrypted = fs::read(d.join(format!("our{bits}-{i}.ct.plain"))).expect("read");
                assert_eq!(decrypted, msg, "Python decrypting ours: {what}");
                let theirs = format!("py{bits}-{i}.ct");
                let out =
                    decrypt_to_stdout(d, k, &theirs, &our_enc_opts(scheme, hash, mgf1, label));
                assert_eq!(out, msg, "us decrypting Python's: {what}");
            },
        );
    });
}

#[test]
fn keys_python_generates_work_here_and_ours_load_there() {
    with_oracle(has_python_cryptography(), "msg", b"message", |d| {
        let genkeys: Vec<_> = SIZES
            .iter()
            .map(|bits| op(&["genkey", &bits.to_string(), &format!("py{bits}.der")]))
            .collect();
        assert!(py_batch(d, &genkeys));
        let mut py_ops = Vec::new();
        for bits in SIZES {
            let (der, spki) = (format!("py{bits}.der"), format!("py{bits}.spki"));
            rsatool_ok(d, &["pubkey", "-k", &der, "-o", &spki]);
            let sig = format!("py{bits}.sig");
            rsatool_ok(
                d,
                &[
                    "sign", "-k", &der, "--scheme", "pkcs1v15", "-i", "msg", "-o", &sig,
                ],
            );
            py_ops.push(op(&[
                "verify", &spki, "pkcs1v15", "sha256", "digest", "msg", &sig,
            ]));
            py_ops.push(op(&[
                "encrypt",
                &spki,
                "oaep",
                "sha256",
                "sha256",
                "",
                "msg",
                &format!("py{bits}.ct"),
            ]));
        }
        // Our keys in every output format, and our public keys in both, load in Python.
        for (i, extra) in [
            &["--format", "der"][..],
            &["--pkcs1"][..],
            &["--pkcs1", "--format", "der"][..],
            &[][..],
        ]
        .iter()
        .enumerate()
        {
            let name = format!("ours{i}.key");
            rsatool_ok(
                d,
                &[&["keygen", "--bits", "2048", "-o", &name][..], extra].concat(),
            );
            py_ops.push(op(&[
                "sign",
                &name,
                "pss",
                "sha256",
                "digest",
                "msg",
                &format!("{name}.sig"),
            ]));
            let name = format!("ours{i}.pub");
            rsatool_ok(
                d,
                &[&["pubkey", "-k", s(key(2048)), "-o", &name][..], extra].concat(),
            );
            py_ops.push(op(&[
                "encrypt",
                &name,
                "oaep",
                "sha256",
                "sha256",
                "",
                "msg",
                &format!("{name}.ct"),
            ]));
        }
        assert!(py_batch(d, &py_ops));
        for bits in SIZES {
            let out = rsatool_ok(
                d,
                &[
                    "decrypt",
                    "-k",
                    &format!("py{bits}.der"),
                    "--scheme",
                    "oaep",
                    "-i",
                    &format!("py{bits}.ct"),
                ],
            );
            assert_eq!(out.stdout, b"message");
        }
        for i in 0..4 {
            let name = format!("ours{i}.key");
            rsatool_ok(
                d,
                &[
                    "verify",
                    "-k",
                    &name,
                    "--scheme",
                    "pss",
                    "-i",
                    "msg",
                    "-s",
                    &format!("{name}.sig"),
                ],
            );
            let out = rsatool_ok(
                d,
                &[
                    "decrypt",
                    "-k",
                    s(key(2048)),
                    "--scheme",
                    "oaep",
                    "-i",
                    &format!("ours{i}.pub.ct"),
                ],
            );
            assert_eq!(out.stdout, b"message");
        }
    });
}
