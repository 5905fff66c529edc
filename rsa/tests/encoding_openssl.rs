//! Key encodings against the `openssl` command: keys OpenSSL generates decode, our encodings
//! are byte for byte what OpenSSL writes for the same key, and OpenSSL accepts what we write
//! (`openssl rsa -check`, `openssl pkey`, same modulus). Skipped, with a message, where
//! `openssl` is absent.

use rsa::hazmat::{PrivateOp, PublicOp};
use rsa::{
    Encoding, KeyFormat, PrivateKeyParts, PublicFormat, decode_private_key, decode_public_key,
    encode_private_key, encode_public_key,
};
mod common;

use common::tools::{TempDir, have_openssl, openssl, s};
use std::path::Path;

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()))
}

fn flat(k: &PrivateKeyParts) -> Vec<Vec<u8>> {
    let mut v = vec![k.n.clone(), k.e.clone(), k.d.to_vec()];
    for list in [&k.primes, &k.exponents, &k.coefficients] {
        v.push(b"--".to_vec());
        v.extend(list.iter().map(|x| x.to_vec()));
    }
    v
}

/// `Modulus=<HEX>` as `openssl ... -noout -modulus` prints it.
fn modulus_line(n: &[u8]) -> String {
    let hex: String = n.iter().map(|b| format!("{b:02X}")).collect();
    format!("Modulus={hex}\n")
}

fn interop(primes: u32) {
    if !have_openssl() {
        return;
    }
    let dir = TempDir::new(&format!("encoding-{primes}p"));
    let key = dir.path("key.pem");
    openssl(&[
        "genpkey",
        "-algorithm",
        "RSA",
        "-pkeyopt",
        "rsa_keygen_bits:2048",
        "-pkeyopt",
        &format!("rsa_keygen_primes:{primes}"),
        "-out",
        s(&key),
    ]);

    // OpenSSL's own files for the same key, in every format.
    let p8_der = dir.path("p8.der");
    openssl(&[
        "pkcs8",
        "-topk8",
        "-nocrypt",
        "-in",
        s(&key),
        "-outform",
        "DER",
        "-out",
        s(&p8_der),
    ]);
    let p1_pem = dir.path("p1.pem");
    openssl(&["rsa", "-in", s(&key), "-traditional", "-out", s(&p1_pem)]);
    let p1_der = dir.path("p1.der");
    openssl(&[
        "rsa",
        "-in",
        s(&key),
        "-traditional",
        "-outform",
        "DER",
        "-out",
        s(&p1_der),
    ]);
    let spki_pem = dir.path("spki.pem");
    openssl(&["pkey", "-in", s(&key), "-pubout", "-out", s(&spki_pem)]);
    let spki_der = dir.path("spki.der");
    openssl(&[
        "pkey",
        "-in",
        s(&key),
        "-pubout",
        "-outform",
        "DER",
        "-out",
        s(&spki_der),
    ]);
    let rpub_pem = dir.path("rpub.pem");
    openssl(&[
        "rsa",
        "-in",
        s(&key),
        "-RSAPublicKey_out",
        "-out",
        s(&rpub_pem),
    ]);
    let rpub_der = dir.path("rpub.der");
    openssl(&[
        "rsa",
        "-in",
        s(&key),
        "-RSAPublicKey_out",
        "-outform",
        "DER",
        "-out",
        s(&rpub_der),
    ]);

    let k = decode_private_key(&read(&key)).expect("decode OpenSSL's key");
    assert_eq!(k.primes.len(), primes as usize);
    let modulus = openssl(&["rsa", "-in", s(&key), "-noout", "-modulus"]);
    assert_eq!(String::from_utf8_lossy(&modulus), modulus_line(&k.n));

    // Every OpenSSL private file decodes to the same parts; ours equals it byte for byte.
    let private = [
        (&key, KeyFormat::Pkcs8, Encoding::Pem),
        (&p8_der, KeyFormat::Pkcs8, Encoding::Der),
        (&p1_pem, KeyFormat::Pkcs1, Encoding::Pem),
        (&p1_der, KeyFormat::Pkcs1, Encoding::Der),
    ];
    for (file, format, encoding) in private {
        let theirs = read(file);
        assert_eq!(
            flat(&decode_private_key(&theirs).expect("decodes")),
            flat(&k),
            "{file:?}"
        );
        let ours = encode_private_key(&k, format, encoding).expect("encodes");
        assert_eq!(
            *ours, theirs,
            "{format:?} {encoding:?} differs from OpenSSL's"
        );

        // OpenSSL accepts ours, checks the key and finds the same modulus.
        let mine = dir.path(&format!("ours-{format:?}.{encoding:?}"));
        std::fs::write(&mine, &*ours).expect("write");
        let inform = if encoding == Encoding::Der {
            "DER"
        } else {
            "PEM"
        };
        let check = openssl(&[
            "rsa",
            "-check",
            "-noout",
            "-inform",
            inform,
            "-in",
            s(&mine),
        ]);
        assert_eq!(String::from_utf8_lossy(&check), "RSA key ok\n");
        openssl(&["pkey", "-noout", "-inform", inform, "-in", s(&mine)]);
        let m = openssl(&[
            "rsa",
            "-noout",
            "-modulus",
            "-inform",
            inform,
            "-in",
            s(&mine),
        ]);
        assert_eq!(m, modulus);
    }

    // Public halves: equal to OpenSSL's files byte for byte, in each format, and accepted.
    let public = [
        (&spki_pem, PublicFormat::Spki, Encoding::Pem),
        (&spki_der, PublicFormat::Spki, Encoding::Der),
        (&rpub_pem, PublicFormat::Pkcs1, Encoding::Pem),
        (&rpub_der, PublicFormat::Pkcs1, Encoding::Der),
    ];
    let half = decode_public_key(&read(&key)).expect("public half");
    assert_eq!((&half.n, &half.e), (&k.n, &k.e));
    for (file, format, encoding) in public {
        let theirs = read(file);
        let p = decode_public_key(&theirs).expect("decodes");
        assert_eq!((&p.n, &p.e), (&k.n, &k.e), "{file:?}");
        let ours = encode_public_key(&half, format, encoding).expect("encodes");
        assert_eq!(
            ours, theirs,
            "{format:?} {encoding:?} differs from OpenSSL's"
        );
        let mine = dir.path(&format!("ours-pub-{format:?}.{encoding:?}"));
        std::fs::write(&mine, &ours).expect("write");
        let inform = if encoding == Encoding::Der {
            "DER"
        } else {
            "PEM"
        };
        let pubin = match format {
            PublicFormat::Spki => "-pubin",
            PublicFormat::Pkcs1 => "-RSAPublicKey_in",
        };
        let m = openssl(&[
            "rsa",
            pubin,
            "-noout",
            "-modulus",
            "-inform",
            inform,
            "-in",
            s(&mine),
        ]);
        assert_eq!(m, modulus);
        if format == PublicFormat::Spki {
            openssl(&[
                "pkey",
                "-pubin",
                "-noout",
                "-inform",
                inform,
                "-in",
                s(&mine),
            ]);
        }
    }
}

#[test]
fn openssl_two_prime_keys_round_trip_byte_for_byte() {
    interop(2);
}

#[test]
fn openssl_three_prime_keys_round_trip_byte_for_byte() {
    interop(3);
}

/// Keys WE generate: `openssl rsa -check` accepts them in every format, and raw RSA works both
/// ways (OpenSSL encrypts with our public key, we decrypt; we encrypt, OpenSSL decrypts).
#[test]
fn our_generated_keys_pass_openssl_check_and_raw_rsa_interoperates() {
    if !have_openssl() {
        return;
    }
    let dir = TempDir::new("encoding-ours");
    let mut rng = rsa::os_rng();
    let keys = [
        rsa::RsaPrivateKey::generate(2048, &mut rng).expect("2048-bit key"),
        rsa::RsaPrivateKey::generate(3072, &mut rng).expect("3072-bit key"),
        rsa::RsaPrivateKey::generate_multi_prime(2048, 3, &mut rng).expect("3-prime key"),
    ];
    for key in &keys {
        let parts = key.to_parts();
        let label = format!("{} bits, {} primes", key.bits(), key.prime_count());
        for (format, name) in [(KeyFormat::Pkcs8, "p8.pem"), (KeyFormat::Pkcs1, "p1.pem")] {
            let path = dir.path(name);
            let pem = encode_private_key(&parts, format, Encoding::Pem).expect("encode");
            std::fs::write(&path, &pem[..]).expect("write key");
            let check = openssl(&["rsa", "-check", "-noout", "-in", s(&path)]);
            assert!(
                String::from_utf8_lossy(&check).contains("RSA key ok"),
                "{label} {name}"
            );
            let modulus = openssl(&["rsa", "-noout", "-modulus", "-in", s(&path)]);
            assert_eq!(
                String::from_utf8_lossy(&modulus),
                modulus_line(&parts.n),
                "{label}"
            );
        }
        let key_path = dir.path("p8.pem");
        let pub_path = dir.path("pub.pem");
        let spki = encode_public_key(
            &key.public_key().to_parts(),
            PublicFormat::Spki,
            Encoding::Pem,
        )
        .expect("encode SPKI");
        std::fs::write(&pub_path, &spki).expect("write public key");
        openssl(&["pkey", "-pubin", "-in", s(&pub_path), "-noout"]);

        // A message representative below n: k bytes with the top byte zero.
        let k = key.size();
        let mut m = vec![0x5Au8; k];
        m[0] = 0;
        let (m_path, c_path) = (dir.path("m.bin"), dir.path("c.bin"));
        std::fs::write(&m_path, &m).expect("write m");
        // OpenSSL encrypts with our public key; we decrypt with CRT and plain.
        openssl(&[
            "pkeyutl",
            "-encrypt",
            "-pubin",
            "-inkey",
            s(&pub_path),
            "-pkeyopt",
            "rsa_padding_mode:none",
            "-in",
            s(&m_path),
            "-out",
            s(&c_path),
        ]);
        let c = read(&c_path);
        assert_eq!(
            key.private_op(&mut rng, &c).expect("CRT private op"),
            m,
            "{label}"
        );
        assert_eq!(
            key.private_op_plain(&c).expect("plain private op"),
            m,
            "{label}"
        );
        // We encrypt; OpenSSL decrypts with our private key.
        let c2 = key.public_key().public_op(&m).expect("public op");
        assert_eq!(c2, c, "{label}: raw RSA is deterministic");
        std::fs::write(&c_path, &c2).expect("write c");
        let back = openssl(&[
            "pkeyutl",
            "-decrypt",
            "-inkey",
            s(&key_path),
            "-pkeyopt",
            "rsa_padding_mode:none",
            "-in",
            s(&c_path),
        ]);
        assert_eq!(back, m, "{label}: OpenSSL decrypts what we encrypted");
    }
}
