//! The encodings of OpenSSL users' key files: encrypted PKCS #8 (both ways) and OpenSSL's legacy
//! encrypted PEM (read), PEM files of several blocks, X.509 certificates as public keys, RSA-PSS
//! key parameters. `openssl` makes the inputs where it is installed (skipped with a note
//! otherwise); round trips check our writer against our reader on top of that.

use std::path::Path;
use std::process::Command;

use rsatool_rsa::{
    Encoding, Error, HashAlg, KeyAlgorithm, KeyFormat, PssKeyParams, PublicFormat,
    decode_private_key, decode_private_key_with, decode_public_key, decode_public_key_with,
    encode_private_key, encode_private_key_with, encode_public_key_with, is_encrypted_private_key,
};

fn key_pem() -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../testvectors/data/keys/PKCS8/unenc-rsa-pkcs8.pem"),
    )
    .expect("fixture")
}

/// Runs openssl in `dir`; `None` (with a note) when it is not installed.
fn openssl(dir: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let out = match Command::new("openssl").args(args).current_dir(dir).output() {
        Ok(o) => o,
        Err(_) => {
            eprintln!("note: openssl is not installed; this check is skipped");
            return None;
        }
    };
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(out.stdout)
}

#[test]
fn encrypted_pkcs8_round_trips_and_a_wrong_or_missing_password_is_said() {
    let parts = decode_private_key(&key_pem()).expect("fixture decodes");
    for encoding in [Encoding::Pem, Encoding::Der] {
        let enc = encode_private_key_with(
            &parts,
            &KeyAlgorithm::Rsa,
            KeyFormat::Pkcs8,
            encoding,
            Some(b"pw"),
        )
        .expect("encrypts");
        assert!(is_encrypted_private_key(&enc));
        let (back, alg) = decode_private_key_with(&enc, Some(b"pw")).expect("decrypts");
        assert_eq!(alg, KeyAlgorithm::Rsa);
        assert_eq!(back.n, parts.n);
        assert_eq!(*back.d, *parts.d);
        assert_eq!(
            decode_private_key_with(&enc, None).map(|_| ()),
            Err(Error::NeedPassword)
        );
        assert_eq!(
            decode_private_key_with(&enc, Some(b"px")).map(|_| ()),
            Err(Error::BadPassword)
        );
        assert_eq!(
            decode_private_key(&enc).map(|_| ()),
            Err(Error::Unsupported("encrypted private keys".into()))
        );
        // The public half needs the password too.
        assert_eq!(
            decode_public_key_with(&enc, Some(b"pw"))
                .expect("public")
                .0
                .n,
            parts.n
        );
    }
    assert!(!is_encrypted_private_key(&key_pem()));
    // PKCS #1 is never written encrypted.
    assert!(matches!(
        encode_private_key_with(
            &parts,
            &KeyAlgorithm::Rsa,
            KeyFormat::Pkcs1,
            Encoding::Pem,
            Some(b"pw")
        ),
        Err(Error::Unsupported(_))
    ));
}

#[test]
fn openssl_encrypted_keys_decode_with_their_password() {
    let dir = std::env::temp_dir().join(format!("rsa-enc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("k.pem"), key_pem()).expect("write");
    let plain = decode_private_key(&key_pem()).expect("fixture");
    let cases = [
        // Older schemes, read only: PKCS #12's Triple-DES PBE, PBES2 with des-ede3-cbc, PBES2
        // with PBKDF2's PRF hmacWithSHA1.
        "pkcs8 -topk8 -in k.pem -v1 PBE-SHA1-3DES -passout pass:pw",
        "pkcs8 -topk8 -in k.pem -v2 des3 -passout pass:pw",
        "pkcs8 -topk8 -in k.pem -v2 aes-128-cbc -v2prf hmacWithSHA1 -passout pass:pw",
        "pkcs8 -topk8 -in k.pem -v2 aes-256-cbc -passout pass:pw",
        "pkcs8 -topk8 -in k.pem -v2 aes-128-cbc -scrypt -passout pass:pw",
        "rsa -in k.pem -traditional -aes256 -passout pass:pw",
        "rsa -in k.pem -traditional -des3 -passout pass:pw",
    ];
    for line in cases {
        let args: Vec<&str> = line.split_whitespace().collect();
        let Some(enc) = openssl(&dir, &args) else {
            break;
        };
        assert!(is_encrypted_private_key(&enc), "{args:?}");
        let (back, _) = decode_private_key_with(&enc, Some(b"pw")).expect("decrypts");
        assert_eq!(*back.d, *plain.d, "{args:?}");
        assert_eq!(
            decode_private_key_with(&enc, Some(b"no")).map(|_| ()),
            Err(Error::BadPassword),
            "{args:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn several_pem_blocks_give_the_one_wanted_and_truncation_is_named() {
    let key = key_pem();
    let parts = decode_private_key(&key).expect("fixture");
    let public = rsatool_rsa::encode_public_key(
        &rsatool_rsa::PublicKeyParts {
            n: parts.n.clone(),
            e: parts.e.clone(),
        },
        PublicFormat::Spki,
        Encoding::Pem,
    )
    .expect("spki");
    let other = b"-----BEGIN X509 CRL-----\nAAAA\n-----END X509 CRL-----\n";
    let file = [b"text first\n".as_slice(), other, &public, b"\n", &key].concat();
    assert_eq!(
        *decode_private_key(&file).expect("the private block").d,
        *parts.d
    );
    assert_eq!(
        decode_public_key(&file).expect("the public block").n,
        parts.n
    );
    let cut = &key[..key.len() - 40];
    match decode_private_key(cut) {
        Err(Error::Encoding(what)) => assert!(what.contains("truncated"), "{what}"),
        other => panic!("{other:?}"),
    }
    // Only other blocks: named.
    match decode_private_key(other) {
        Err(Error::Encoding(what)) => assert!(what.contains("X509 CRL"), "{what}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn rsa_pss_parameters_round_trip_and_pkcs1_refuses_them() {
    let parts = decode_private_key(&key_pem()).expect("fixture");
    let params = PssKeyParams {
        hash: HashAlg::Sha384,
        mgf1_hash: HashAlg::Sha256,
        min_salt_len: 40,
    };
    for alg in [
        KeyAlgorithm::RsaPss(Some(params)),
        KeyAlgorithm::RsaPss(None),
    ] {
        let der = encode_private_key_with(&parts, &alg, KeyFormat::Pkcs8, Encoding::Der, None)
            .expect("encodes");
        assert_eq!(decode_private_key_with(&der, None).expect("decodes").1, alg);
        let public = rsatool_rsa::PublicKeyParts {
            n: parts.n.clone(),
            e: parts.e.clone(),
        };
        let spki =
            encode_public_key_with(&public, &alg, PublicFormat::Spki, Encoding::Pem).expect("spki");
        assert_eq!(decode_public_key_with(&spki, None).expect("decodes").1, alg);
        assert!(encode_public_key_with(&public, &alg, PublicFormat::Pkcs1, Encoding::Der).is_err());
        assert!(
            encode_private_key_with(&parts, &alg, KeyFormat::Pkcs1, Encoding::Der, None).is_err()
        );
    }
    // The plain encoder still writes rsaEncryption.
    let der = encode_private_key(&parts, KeyFormat::Pkcs8, Encoding::Der).expect("encodes");
    assert_eq!(
        decode_private_key_with(&der, None).expect("decodes").1,
        KeyAlgorithm::Rsa
    );
}

#[test]
fn an_openssl_certificate_gives_its_public_key() {
    let dir = scratch_with_key("rsa-cert");
    let Some(pem) = openssl(
        &dir,
        &[
            "req", "-x509", "-key", "k.pem", "-subj", "/CN=t", "-days", "1",
        ],
    ) else {
        return;
    };
    let der = openssl(
        &dir,
        &[
            "req", "-x509", "-key", "k.pem", "-subj", "/CN=t", "-days", "1", "-outform", "DER",
        ],
    )
    .expect("openssl");
    let parts = decode_private_key(&key_pem()).expect("fixture");
    for cert in [pem, der] {
        let (public, alg) = decode_public_key_with(&cert, None).expect("certificate");
        assert_eq!(public.n, parts.n);
        assert_eq!(alg, KeyAlgorithm::Rsa);
        assert!(
            decode_private_key(&cert).is_err(),
            "a certificate is no private key"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The public key OpenSSL itself takes out of the certificate `cert` (`x509 -pubkey`), decoded.
fn openssl_pubkey_of(
    dir: &Path,
    cert: &str,
) -> Option<(rsatool_rsa::PublicKeyParts, KeyAlgorithm)> {
    let spki = openssl(dir, &["x509", "-in", cert, "-pubkey", "-noout"])?;
    Some(decode_public_key_with(&spki, None).expect("openssl's SubjectPublicKeyInfo"))
}

/// A new directory for openssl's files, holding the fixture key as `k.pem`.
fn scratch_with_key(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("k.pem"), key_pem()).expect("write");
    dir
}

#[test]
fn certificates_of_each_version_and_rsa_key_type_give_the_key_openssl_takes_out() {
    let dir = scratch_with_key("rsa-certs");
    let run = |args: &[&str]| openssl(&dir, args);
    // A version 1 certificate (no version field, no extensions), from a request signed with
    // its own key; a version 3 one with OpenSSL's default extensions; an RSA-PSS key's.
    if run(&[
        "req", "-new", "-key", "k.pem", "-subj", "/CN=v1", "-out", "r.csr",
    ])
    .is_none()
    {
        return;
    }
    let made = [
        run(&[
            "x509", "-req", "-in", "r.csr", "-signkey", "k.pem", "-days", "1", "-out", "v1.pem",
        ]),
        run(&[
            "req", "-x509", "-key", "k.pem", "-subj", "/CN=v3", "-days", "1", "-out", "v3.pem",
        ]),
        run(&[
            "genpkey",
            "-algorithm",
            "RSA-PSS",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
            "-pkeyopt",
            "rsa_pss_keygen_md:sha256",
            "-pkeyopt",
            "rsa_pss_keygen_saltlen:32",
            "-out",
            "p.pem",
        ]),
        run(&[
            "req", "-x509", "-key", "p.pem", "-subj", "/CN=pss", "-days", "1", "-out", "pss.pem",
        ]),
    ];
    assert!(made.iter().all(Option::is_some));
    let version = |cert: &str| {
        let text = run(&["x509", "-in", cert, "-noout", "-text"]).expect("openssl");
        String::from_utf8_lossy(&text).contains(&format!("Version: {}", &cert[1..2]))
    };
    assert!(
        version("v1.pem") && version("v3.pem"),
        "the versions asked for"
    );
    for cert in ["v1.pem", "v3.pem", "pss.pem"] {
        let expected = openssl_pubkey_of(&dir, cert).expect("openssl");
        let pem = std::fs::read(dir.join(cert)).expect("read");
        let der = run(&["x509", "-in", cert, "-outform", "DER"]).expect("openssl");
        for input in [&pem, &der] {
            let got = decode_public_key_with(input, None).expect(cert);
            assert_eq!(
                (got.0.n, got.0.e),
                (expected.0.n.clone(), expected.0.e.clone()),
                "{cert}"
            );
            assert_eq!(got.1, expected.1, "{cert}");
        }
    }
    assert!(
        matches!(
            openssl_pubkey_of(&dir, "pss.pem").expect("openssl").1,
            KeyAlgorithm::RsaPss(_)
        ),
        "the RSA-PSS key keeps its parameters"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_or_non_rsa_certificate_is_refused_without_a_panic() {
    let dir = scratch_with_key("rsa-bad-certs");
    let run = |args: &[&str]| openssl(&dir, args);
    let Some(der) = run(&[
        "req", "-x509", "-key", "k.pem", "-subj", "/CN=t", "-days", "1", "-outform", "DER",
    ]) else {
        return;
    };
    assert!(
        decode_public_key_with(&der, None).is_ok(),
        "the undamaged certificate"
    );
    // Every truncation, a byte after the end, another outer tag.
    for len in 0..der.len() {
        assert!(
            decode_public_key_with(&der[..len], None).is_err(),
            "{len} bytes"
        );
    }
    let mut longer = der.clone();
    longer.push(0);
    assert!(
        decode_public_key_with(&longer, None).is_err(),
        "a byte after the end"
    );
    let mut set = der.clone();
    set[0] = 0x31;
    assert!(
        decode_public_key_with(&set, None).is_err(),
        "a SET, not a SEQUENCE"
    );
    // A version X.509 does not have: v3's [0] { INTEGER 2 } made INTEGER 3.
    let at = der
        .windows(5)
        .position(|w| w == [0xa0, 0x03, 0x02, 0x01, 0x02])
        .expect("v3's version field");
    let mut v4 = der.clone();
    v4[at + 4] = 3;
    assert!(decode_public_key_with(&v4, None).is_err(), "version 4");
    // An EC key's certificate: a clear refusal, not an RSA key.
    let made = run(&[
        "ecparam",
        "-name",
        "prime256v1",
        "-genkey",
        "-noout",
        "-out",
        "e.pem",
    ])
    .and_then(|_| {
        run(&[
            "req", "-x509", "-key", "e.pem", "-subj", "/CN=e", "-days", "1",
        ])
    });
    let ec = made.expect("openssl");
    assert!(matches!(
        decode_public_key_with(&ec, None),
        Err(Error::Unsupported(_) | Error::Encoding(_))
    ));
    let _ = std::fs::remove_dir_all(&dir);
}
