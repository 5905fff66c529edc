//! rsatool's signatures against the `openssl` command and Python's `cryptography` package,
//! both ways, at 2048 and 3072 bits: they verify ours and we theirs (PKCS #1 v1.5; PSS with
//! the hash-length, maximal, zero and explicit salts; SHA-2 hashes; a multi-megabyte message).
//! Each check is skipped, with a note on stderr, where the tool is missing.

mod common;

use common::{
    SIZES, big_message, has_openssl, has_python_cryptography, key, op, openssl, public_key,
    py_batch, rsatool_in, rsatool_ok, s, scratch,
};
use std::fs;

/// OpenSSL's `-sigopt` list for a scheme and salt (digest, max or a number).
fn sigopts(scheme: &str, salt: &str) -> Vec<String> {
    if scheme == "pkcs1v15" {
        return vec!["-sigopt".into(), "rsa_padding_mode:pkcs1".into()];
    }
    vec![
        "-sigopt".into(),
        "rsa_padding_mode:pss".into(),
        "-sigopt".into(),
        format!("rsa_pss_saltlen:{salt}"),
    ]
}

/// Our `--salt-len` for OpenSSL's salt name, for signing.
fn our_salt(salt: &str) -> Vec<&str> {
    match salt {
        "digest" => vec![],
        other => vec!["--salt-len", other],
    }
}

#[test]
fn openssl_verifies_our_signatures() {
    if !has_openssl() {
        return;
    }
    let dir = scratch();
    let d = dir.path();
    let msg = big_message(d);
    for bits in SIZES {
        let (k, p) = (s(key(bits)), s(public_key(bits)));
        for hash in ["sha256", "sha384", "sha512"] {
            for (scheme, salt) in [
                ("pkcs1v15", ""),
                ("pss", "digest"),
                ("pss", "max"),
                ("pss", "0"),
            ] {
                let mut args = vec![
                    "sign", "-k", k, "--scheme", scheme, "--hash", hash, "-i", msg, "-o", "our.sig",
                ];
                args.extend(our_salt(salt));
                if scheme == "pkcs1v15" {
                    args.truncate(11);
                }
                rsatool_ok(d, &args);
                let mut v = vec![
                    "dgst".to_owned(),
                    format!("-{hash}"),
                    "-verify".into(),
                    p.into(),
                    "-signature".into(),
                    "our.sig".into(),
                ];
                v.extend(sigopts(scheme, salt));
                v.push(msg.into());
                let v: Vec<&str> = v.iter().map(String::as_str).collect();
                let out = openssl(d, &v, None).expect("openssl");
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout).trim(),
                    "Verified OK",
                    "{bits} {hash} {scheme} {salt}"
                );
            }
        }
    }
}

#[test]
fn we_verify_openssl_signatures() {
    if !has_openssl() {
        return;
    }
    let dir = scratch();
    let d = dir.path();
    let msg = big_message(d);
    for bits in SIZES {
        let (k, p) = (s(key(bits)), s(public_key(bits)));
        for hash in ["sha256", "sha384", "sha512"] {
            for (scheme, salt, ours) in [
                ("pkcs1v15", "", &[][..]),
                ("pss", "digest", &[][..]),
                ("pss", "digest", &["--salt-len", "auto"][..]),
                ("pss", "max", &["--salt-len", "max"][..]),
                ("pss", "max", &["--salt-len", "auto"][..]),
                ("pss", "17", &["--salt-len", "17"][..]),
            ] {
                let mut a = vec![
                    "dgst".to_owned(),
                    format!("-{hash}"),
                    "-sign".into(),
                    k.into(),
                    "-out".into(),
                    "ossl.sig".into(),
                ];
                a.extend(sigopts(scheme, salt));
                a.push(msg.into());
                let a: Vec<&str> = a.iter().map(String::as_str).collect();
                openssl(d, &a, None).expect("openssl");
                let mut args = vec![
                    "verify", "-k", p, "--scheme", scheme, "--hash", hash, "-i", msg, "-s",
                    "ossl.sig",
                ];
                args.extend_from_slice(ours);
                rsatool_ok(d, &args);
            }
        }
        // Old SHA-1 signatures verify (sign refuses SHA-1, verify accepts it).
        for opts in [
            &["-sigopt", "rsa_padding_mode:pkcs1"][..],
            &[
                "-sigopt",
                "rsa_padding_mode:pss",
                "-sigopt",
                "rsa_pss_saltlen:digest",
            ][..],
        ] {
            let mut a = vec!["dgst", "-sha1", "-sign", k, "-out", "sha1.sig"];
            a.extend_from_slice(opts);
            a.push(msg);
            openssl(d, &a, None).expect("openssl");
            let scheme = if opts.len() == 2 { "pkcs1v15" } else { "pss" };
            rsatool_ok(
                d,
                &[
                    "verify", "-k", p, "--scheme", scheme, "--hash", "sha1", "-i", msg, "-s",
                    "sha1.sig",
                ],
            );
        }
        // A maximal salt, as OpenSSL makes it with rsa_pss_saltlen:max.
        openssl(
            d,
            &[
                "dgst",
                "-sha256",
                "-sign",
                k,
                "-sigopt",
                "rsa_padding_mode:pss",
                "-sigopt",
                "rsa_pss_saltlen:max",
                "-out",
                "max.sig",
                msg,
            ],
            None,
        )
        .expect("openssl");
        // Issue 18: verify recovers the salt length by default, as OpenSSL's and Go's
        // verifiers do; an explicit length is enforced.
        let out = rsatool_in(
            d,
            &[
                "verify", "-k", p, "--scheme", "pss", "-i", msg, "-s", "max.sig",
            ],
            None,
        );
        assert_eq!(out.status.code(), Some(0));
        let out = rsatool_in(
            d,
            &[
                "verify",
                "--salt-len",
                "32",
                "-k",
                p,
                "--scheme",
                "pss",
                "-i",
                msg,
                "-s",
                "max.sig",
            ],
            None,
        );
        assert_eq!(out.status.code(), Some(1));
    }
}

/// Scheme, hash, Python's salt, our `sign` options, our `verify` options.
type SigCase = (
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

#[test]
fn signatures_interoperate_with_python_cryptography_both_ways() {
    if !has_python_cryptography() {
        return;
    }
    let dir = scratch();
    let d = dir.path();
    fs::write(d.join("msg"), b"signed by one, checked by the other").expect("write");
    let cases: [SigCase; 6] = [
        ("pkcs1v15", "sha256", "digest", &[], &[]),
        ("pkcs1v15", "sha512", "digest", &[], &[]),
        ("pss", "sha256", "digest", &[], &[]),
        (
            "pss",
            "sha384",
            "max",
            &["--salt-len", "max"],
            &["--salt-len", "auto"],
        ),
        (
            "pss",
            "sha512",
            "0",
            &["--salt-len", "0"],
            &["--salt-len", "0"],
        ),
        ("pss", "sha512-256", "digest", &[], &["--salt-len", "auto"]),
    ];
    let mut py_ops = Vec::new();
    for bits in SIZES {
        let (k, p) = (s(key(bits)), s(public_key(bits)));
        for (i, (scheme, hash, py_salt, our_sign, _)) in cases.iter().enumerate() {
            // We sign; Python verifies with the salt it is told, and with AUTO.
            let ours = format!("our{bits}-{i}.sig");
            let mut args = vec![
                "sign", "-k", k, "--scheme", scheme, "--hash", hash, "-i", "msg", "-o", &ours,
            ];
            args.extend_from_slice(our_sign);
            rsatool_ok(d, &args);
            py_ops.push(op(&["verify", p, scheme, hash, py_salt, "msg", &ours]));
            if *scheme == "pss" {
                py_ops.push(op(&["verify", p, scheme, hash, "auto", "msg", &ours]));
            }
            // Python signs, for us to verify below.
            py_ops.push(op(&[
                "sign",
                k,
                scheme,
                hash,
                py_salt,
                "msg",
                &format!("py{bits}-{i}.sig"),
            ]));
        }
    }
    assert!(py_batch(d, &py_ops));
    for bits in SIZES {
        let p = s(public_key(bits));
        for (i, (scheme, hash, _, _, our_verify)) in cases.iter().enumerate() {
            let theirs = format!("py{bits}-{i}.sig");
            let mut args = vec![
                "verify", "-k", p, "--scheme", scheme, "--hash", hash, "-i", "msg", "-s", &theirs,
            ];
            args.extend_from_slice(our_verify);
            rsatool_ok(d, &args);
        }
    }
}
