//! `rsatool sign` / `verify` with `--hash sha3-*` and `shake*`: OpenSSL (`openssl dgst`) is
//! the independent oracle for SHA-3 with PKCS #1 v1.5 and PSS, both ways; SHAKE (PSS with the
//! RFC 8702 SHAKE mask) round-trips, and PKCS #1 v1.5 refuses it with one line and exit 2.

mod common;

use std::fs;

use common::{assert_failure, assert_success, key, openssl, public_key, rsatool, s, scratch};

#[test]
fn sha3_signatures_interoperate_with_openssl() {
    let dir = scratch();
    let msg = dir.path().join("msg");
    fs::write(&msg, b"FIPS 186-5 allows SHA-3 here").unwrap();
    let sig = dir.path().join("sig");
    for (hash, scheme, sigopts) in [
        ("sha3-256", "pkcs1v15", &[][..]),
        ("sha3-512", "pkcs1v15", &[][..]),
        (
            "sha3-384",
            "pss",
            &[
                "-sigopt",
                "rsa_padding_mode:pss",
                "-sigopt",
                "rsa_pss_saltlen:-1",
            ][..],
        ),
    ] {
        let out = rsatool(&[
            "sign",
            "-k",
            s(key(2048)),
            "--scheme",
            scheme,
            "--hash",
            hash,
            "-i",
            s(&msg),
            "-o",
            s(&sig),
        ]);
        assert_success(&out);
        let mut args = vec![
            "dgst",
            match hash {
                "sha3-256" => "-sha3-256",
                "sha3-384" => "-sha3-384",
                _ => "-sha3-512",
            },
        ];
        args.extend_from_slice(sigopts);
        args.extend_from_slice(&[
            "-verify",
            s(public_key(2048)),
            "-signature",
            s(&sig),
            s(&msg),
        ]);
        let Some(out) = openssl(dir.path(), &args, None) else {
            eprintln!("skipped: no openssl");
            return;
        };
        assert!(String::from_utf8_lossy(&out.stdout).contains("Verified OK"));
        // And OpenSSL's signature verifies with rsatool.
        let mut args = vec!["dgst", args[1]];
        args.extend_from_slice(sigopts);
        args.extend_from_slice(&["-sign", s(key(2048)), "-out", s(&sig), s(&msg)]);
        openssl(dir.path(), &args, None);
        let out = rsatool(&[
            "verify",
            "-k",
            s(public_key(2048)),
            "--scheme",
            scheme,
            "--hash",
            hash,
            "-i",
            s(&msg),
            "-s",
            s(&sig),
        ]);
        assert_eq!(out.status.code(), Some(0), "{hash} {scheme}");
    }
}

#[test]
fn shake_is_for_pss_only() {
    let dir = scratch();
    let msg = dir.path().join("msg");
    fs::write(&msg, b"m").unwrap();
    let sig = dir.path().join("sig");
    for hash in ["shake128", "shake256"] {
        let out = rsatool(&[
            "sign",
            "-k",
            s(key(2048)),
            "--scheme",
            "pss",
            "--hash",
            hash,
            "-i",
            s(&msg),
            "-o",
            s(&sig),
        ]);
        assert_success(&out);
        let verify = |h: &str| {
            rsatool(&[
                "verify",
                "-k",
                s(public_key(2048)),
                "--scheme",
                "pss",
                "--hash",
                h,
                "-i",
                s(&msg),
                "-s",
                s(&sig),
            ])
        };
        assert_eq!(verify(hash).status.code(), Some(0), "{hash}");
        let other = if hash == "shake128" {
            "shake256"
        } else {
            "shake128"
        };
        assert_eq!(verify(other).status.code(), Some(1), "{hash} vs {other}");
        let out = rsatool(&[
            "sign",
            "-k",
            s(key(2048)),
            "--scheme",
            "pkcs1v15",
            "--hash",
            hash,
            "-i",
            s(&msg),
            "-o",
            s(&dir.path().join("v15")),
        ]);
        assert_failure(&out, 2, &["PKCS #1 v1.5"]);
    }
}
