//! Key encodings against the `openssl` command: keys OpenSSL generates decode, our encodings
//! are byte for byte what OpenSSL writes for the same key, and OpenSSL accepts what we write
//! (`openssl rsa -check`, `openssl pkey`, same modulus). Skipped, with a message, where
//! `openssl` is absent.

use crate::common;
use rsatool_rsa::hazmat::{PrivateOp, PublicOp};
use rsatool_rsa::{
    Encoding, KeyFormat, PrivateKeyParts, PublicFormat, decode_private_key, decode_public_key,
    encode_private_key, encode_public_key,
};

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

/// OpenSSL's `-inform` for `encoding`.
fn inform(encoding: Encoding) -> &'static str {
    match encoding {
        Encoding::Der => "DER",
        Encoding::Pem => "PEM",
    }
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
    dir.openssl(&format!(
        "genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 \
         -pkeyopt rsa_keygen_primes:{primes} -out key.pem"
    ));
    // OpenSSL's own files for the same key, in every format.
    for line in [
        "pkcs8 -topk8 -nocrypt -in key.pem -outform DER -out p8.der",
        "rsa -in key.pem -traditional -out p1.pem",
        "rsa -in key.pem -traditional -outform DER -out p1.der",
        "pkey -in key.pem -pubout -out spki.pem",
        "pkey -in key.pem -pubout -outform DER -out spki.der",
        "rsa -in key.pem -RSAPublicKey_out -out rpub.pem",
        "rsa -in key.pem -RSAPublicKey_out -outform DER -out rpub.der",
    ] {
        dir.openssl(line);
    }
    let [
        key,
        p8_der,
        p1_pem,
        p1_der,
        spki_pem,
        spki_der,
        rpub_pem,
        rpub_der,
    ] = [
        "key.pem", "p8.der", "p1.pem", "p1.der", "spki.pem", "spki.der", "rpub.pem", "rpub.der",
    ]
    .map(|f| dir.path(f));

    let k = decode_private_key(&read(&key)).expect("decode OpenSSL's key");
    assert_eq!(k.primes.len(), primes as usize);
    let modulus = dir.openssl("rsa -in key.pem -noout -modulus");
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
        let mine = format!("ours-{format:?}.{encoding:?}");
        std::fs::write(dir.path(&mine), &*ours).expect("write");
        let input = format!("-inform {} -in {mine}", inform(encoding));
        let check = dir.openssl(&format!("rsa -check -noout {input}"));
        assert_eq!(String::from_utf8_lossy(&check), "RSA key ok\n");
        dir.openssl(&format!("pkey -noout {input}"));
        assert_eq!(
            dir.openssl(&format!("rsa -noout -modulus {input}")),
            modulus
        );
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
        let mine = format!("ours-pub-{format:?}.{encoding:?}");
        std::fs::write(dir.path(&mine), &ours).expect("write");
        let input = format!("-inform {} -in {mine}", inform(encoding));
        let pubin = match format {
            PublicFormat::Spki => "-pubin",
            PublicFormat::Pkcs1 => "-RSAPublicKey_in",
        };
        let m = dir.openssl(&format!("rsa {pubin} -noout -modulus {input}"));
        assert_eq!(m, modulus);
        if format == PublicFormat::Spki {
            dir.openssl(&format!("pkey -pubin -noout {input}"));
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
    let mut rng = rsatool_rsa::os_rng();
    let keys = [
        rsatool_rsa::RsaPrivateKey::generate(2048, &mut rng).expect("2048-bit key"),
        rsatool_rsa::RsaPrivateKey::generate(3072, &mut rng).expect("3072-bit key"),
        rsatool_rsa::RsaPrivateKey::generate_multi_prime(2048, 3, &mut rng).expect("3-prime key"),
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
        // p8.pem, written by the loop above, is the private key OpenSSL decrypts with.
        let pub_path = dir.path("pub.pem");
        let spki = encode_public_key(
            &key.public_key().to_parts(),
            PublicFormat::Spki,
            Encoding::Pem,
        )
        .expect("encode SPKI");
        std::fs::write(&pub_path, &spki).expect("write public key");
        dir.openssl("pkey -pubin -in pub.pem -noout");

        // A message representative below n: k bytes with the top byte zero.
        let k = key.size();
        let mut m = vec![0x5Au8; k];
        m[0] = 0;
        let (m_path, c_path) = (dir.path("m.bin"), dir.path("c.bin"));
        std::fs::write(&m_path, &m).expect("write m");
        // OpenSSL encrypts with our public key; we decrypt with CRT and plain.
        dir.openssl(
            "pkeyutl -encrypt -pubin -inkey pub.pem -pkeyopt rsa_padding_mode:none \
             -in m.bin -out c.bin",
        );
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
        let back =
            dir.openssl("pkeyutl -decrypt -inkey p8.pem -pkeyopt rsa_padding_mode:none -in c.bin");
        assert_eq!(back, m, "{label}: OpenSSL decrypts what we encrypted");
    }
}
