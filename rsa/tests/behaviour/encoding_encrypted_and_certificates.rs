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
    let dir = std::env::temp_dir().join(format!("rsa-cert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("k.pem"), key_pem()).expect("write");
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
