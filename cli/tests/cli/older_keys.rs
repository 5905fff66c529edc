//! Older encrypted PKCS #8 keys, made by OpenSSL at test time: PKCS #12's Triple-DES PBE (OpenSSL
//! 1.0's default for `openssl pkcs8 -topk8`), PBES2 with des-ede3-cbc, PBES2 with PBKDF2's PRF
//! hmacWithSHA1. They are read; what rsatool writes stays PBES2 with PBKDF2-HMAC-SHA256 and
//! AES-256-CBC.

use crate::common::{
    assert_failure, openssl, rsatool_in, rsatool_ok, scratch, scratch_with_openssl_key,
};

#[test]
fn older_encrypted_pkcs8_keys_made_by_openssl_are_read() {
    let Some(dir) = scratch_with_openssl_key(1024, &[], "k.pem") else {
        return;
    };
    let d = dir.path();
    let public = openssl(d, &["pkey", "-in", "k.pem", "-pubout"], None)
        .expect("openssl")
        .stdout;
    // (openssl pkcs8 options, what OpenSSL's asn1parse shows of the scheme, password);
    // hmacWithSHA1 is PBKDF2's default PRF, so OpenSSL leaves it out: no PRF shown.
    let cases: [(&[&str], &str, &str); 7] = [
        (
            &["-v1", "PBE-SHA1-3DES"],
            "pbeWithSHA1And3-KeyTripleDES-CBC",
            "x",
        ),
        (
            &["-v1", "PBE-SHA1-3DES"],
            "pbeWithSHA1And3-KeyTripleDES-CBC",
            "",
        ),
        (
            &["-v1", "PBE-SHA1-3DES"],
            "pbeWithSHA1And3-KeyTripleDES-CBC",
            "pässwörd 𝄞",
        ),
        (
            &["-v1", "PBE-SHA1-2DES"],
            "pbeWithSHA1And2-KeyTripleDES-CBC",
            "x",
        ),
        (&["-v2", "des3"], "des-ede3-cbc", "x"),
        (
            &["-v2", "aes-256-cbc", "-v2prf", "hmacWithSHA1"],
            "no PRF",
            "x",
        ),
        (&["-v2", "des3", "-v2prf", "hmacWithSHA1"], "no PRF", "x"),
    ];
    for (options, scheme, password) in cases {
        let passout = format!("pass:{password}");
        for form in ["PEM", "DER"] {
            let mut args = vec!["pkcs8", "-topk8", "-in", "k.pem", "-outform", form];
            args.extend_from_slice(options);
            args.extend_from_slice(&["-passout", &passout, "-out", "old.key"]);
            openssl(d, &args, None);
            let parsed = openssl(d, &["asn1parse", "-inform", form, "-in", "old.key"], None)
                .expect("openssl")
                .stdout;
            let parsed = String::from_utf8_lossy(&parsed);
            let shown = if scheme == "no PRF" {
                parsed.contains("PBKDF2") && !parsed.contains("hmacWithSHA")
            } else {
                parsed.contains(scheme)
            };
            assert!(shown, "{options:?}: not {scheme}: {parsed}");
            let passin = format!("pass:{password}");
            let out = rsatool_ok(d, &["pubkey", "-k", "old.key", "--passin", &passin]);
            assert_eq!(out.stdout, public, "{options:?} {form} {password:?}");
            let out = rsatool_in(
                d,
                &["pubkey", "-k", "old.key", "--passin", "pass:wrong"],
                None,
            );
            assert_failure(&out, 2, &["old.key", "wrong password"]);
        }
    }
    // Rewritten with a password, an old key comes out in the modern scheme.
    rsatool_ok(
        d,
        &[
            "key",
            "-k",
            "old.key",
            "--passin",
            "pass:x",
            "--passout",
            "pass:newer",
            "-o",
            "new.pem",
        ],
    );
    let parsed = String::from_utf8_lossy(
        &openssl(d, &["asn1parse", "-in", "new.pem"], None)
            .expect("openssl")
            .stdout,
    )
    .into_owned();
    for want in ["PBES2", "PBKDF2", "hmacWithSHA256", "aes-256-cbc"] {
        assert!(parsed.contains(want), "{want} missing: {parsed}");
    }
    assert!(!parsed.contains("hmacWithSHA1") && !parsed.contains("des-ede3"));
}

#[test]
fn a_pkcs12_pbe_scheme_not_read_is_named_not_a_panic() {
    let dir = scratch();
    let d = dir.path();
    // pbeWithSHAAnd128BitRC4 (1.2.840.113549.1.12.1.1) around 16 bytes of ciphertext, by hand:
    // SEQUENCE { SEQUENCE { OID, SEQUENCE { OCTET STRING(8), INTEGER 2048 } }, OCTET STRING }.
    let der: Vec<u8> = [
        &[0x30, 0x30, 0x30, 0x1c, 0x06, 0x0a][..],
        &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x01, 0x01],
        &[
            0x30, 0x0e, 0x04, 0x08, 1, 2, 3, 4, 5, 6, 7, 8, 0x02, 0x02, 0x08, 0x00,
        ],
        &[0x04, 0x10],
        &[0u8; 16],
    ]
    .concat();
    std::fs::write(d.join("rc4.der"), &der).expect("write");
    let out = rsatool_in(d, &["pubkey", "-k", "rc4.der", "--passin", "pass:x"], None);
    assert_failure(
        &out,
        2,
        &["rc4.der", "unsupported", "1.2.840.113549.1.12.1.1"],
    );
}
