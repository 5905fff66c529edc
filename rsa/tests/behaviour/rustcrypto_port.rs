//! Code written as a user of RustCrypto's `rsa` 0.10 writes it (its imports, its traits, its
//! typed keys), against this crate: key loading and saving through the `pkcs8` / `pkcs1` /
//! `spki` traits, `SigningKey::<Sha256>::new(key)`, `sign_with_rng`, `verify`, OAEP with
//! `EncryptingKey` / `DecryptingKey`.
//!
//! The oracles are independent of the code under test: keys, signatures and ciphertexts made
//! by the `openssl` command and by Python's `cryptography` (generated in the test, and
//! pyca's published key files under `testvectors/data/keys`), and the other side of each
//! operation run by those tools. Tests that need a tool are skipped, with a message, where it
//! is absent.

#![allow(clippy::unwrap_used)]

use crate::common;

use std::path::Path;

use common::tools::{TempDir, have, have_openssl, openssl, python, s};
use common::{key_1024, rng};

use rsatool_rsa::pkcs1::{
    DecodeRsaPrivateKey, DecodeRsaPublicKey, EncodeRsaPrivateKey, EncodeRsaPublicKey,
};
use rsatool_rsa::pkcs8::{
    DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey, LineEnding,
};
use rsatool_rsa::sha2::{Digest, Sha256, Sha384};
use rsatool_rsa::signature::hazmat::{PrehashSigner, PrehashVerifier};
use rsatool_rsa::signature::{
    DigestSigner, DigestVerifier, Keypair, RandomizedDigestSigner, RandomizedSigner,
    SignatureEncoding, Signer, Verifier,
};
use rsatool_rsa::traits::{
    Decryptor, EncryptingKeypair, PublicKeyParts, RandomizedDecryptor, RandomizedEncryptor,
};
use rsatool_rsa::{RsaPrivateKey, RsaPublicKey, oaep, pkcs1v15, pss};

fn text(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()))
}

/// A pyca key file from `testvectors/data/keys`, from its `-----BEGIN` line on: the PKCS #8
/// file has an ASN.1 dump before its block, which the `pkcs8` crate's strict PEM reader (ours
/// and RustCrypto's alike) refuses; `rsatool_rsa::decode_private_key` skips it.
fn pem_file(file: &str) -> String {
    let text = std::fs::read_to_string(vectors(file)).unwrap();
    text[text.find("-----BEGIN").unwrap()..].to_string()
}

fn vectors(file: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testvectors/data/keys")
        .join(file)
}

/// A PKCS #8 private key and its SubjectPublicKeyInfo, both PEM as another tool wrote them:
/// they load, belong together, and our encoders give back the same text.
fn load_and_reencode(private_pem: &str, public_pem: &str) -> (RsaPrivateKey, RsaPublicKey) {
    let private_key = RsaPrivateKey::from_pkcs8_pem(private_pem).unwrap();
    let public_key = RsaPublicKey::from_public_key_pem(public_pem).unwrap();
    assert_eq!(&public_key, private_key.public_key());
    assert_eq!(
        private_key.to_pkcs8_pem(LineEnding::LF).unwrap().as_str(),
        private_pem
    );
    assert_eq!(
        public_key.to_public_key_pem(LineEnding::LF).unwrap(),
        public_pem
    );
    (private_key, public_key)
}

/// The example of RustCrypto `rsa`'s README, as its users write it: a key from PEM, PKCS #1
/// v1.5 and PSS signatures through the typed keys, OAEP through the encryption keys.
#[test]
fn a_rustcrypto_program_runs_unchanged() {
    let pem = pem_file("PKCS8/unenc-rsa-pkcs8.pem");
    let private_key = RsaPrivateKey::from_pkcs8_pem(&pem).unwrap();
    let public_key = RsaPublicKey::from(&private_key);
    let mut rng = rng(7);

    let signing_key = pkcs1v15::SigningKey::<Sha256>::new(private_key.clone());
    let verifying_key = signing_key.verifying_key();
    let signature = signing_key.sign_with_rng(&mut rng, b"hello world");
    assert_ne!(signature.to_bytes().as_ref(), b"hello world");
    verifying_key.verify(b"hello world", &signature).unwrap();
    assert!(verifying_key.verify(b"hello wOrld", &signature).is_err());

    let signing_key = pss::SigningKey::<Sha256>::new(private_key.clone());
    let verifying_key = signing_key.verifying_key();
    let signature = signing_key.sign_with_rng(&mut rng, b"hello world");
    verifying_key.verify(b"hello world", &signature).unwrap();

    let encrypting_key = oaep::EncryptingKey::<Sha256>::new(public_key.clone());
    let ciphertext = encrypting_key
        .encrypt_with_rng(&mut rng, b"hello world")
        .unwrap();
    assert_eq!(ciphertext.len(), public_key.size());
    let decrypting_key = oaep::DecryptingKey::<Sha256>::new(private_key);
    assert_eq!(decrypting_key.decrypt(&ciphertext).unwrap(), b"hello world");
}

/// pyca/cryptography's key files (made with Python's `cryptography`) load through every
/// trait, and our encoders give back the same DER.
#[test]
fn cryptography_key_files_load_and_round_trip() {
    let pkcs8_pem = pem_file("PKCS8/unenc-rsa-pkcs8.pem");
    let pkcs8_der = std::fs::read(vectors("DER_Serialization/unenc-rsa-pkcs8.der")).unwrap();
    let pkcs1_pem = pem_file("Traditional_OpenSSL_Serialization/testrsa.pem");
    let pkcs1_der = std::fs::read(vectors("DER_Serialization/testrsa.der")).unwrap();
    let spki_pem = pem_file("PKCS8/unenc-rsa-pkcs8.pub.pem");
    let spki_der = std::fs::read(vectors("DER_Serialization/unenc-rsa-pkcs8.pub.der")).unwrap();
    let rsa_pub_pem = pem_file("public/PKCS1/rsa.pub.pem");
    let rsa_pub_der = std::fs::read(vectors("public/PKCS1/rsa.pub.der")).unwrap();

    let key = RsaPrivateKey::from_pkcs8_pem(&pkcs8_pem).unwrap();
    assert_eq!(
        RsaPrivateKey::from_pkcs8_der(&pkcs8_der).unwrap().n(),
        key.n()
    );
    assert_eq!(key.to_pkcs8_der().unwrap().as_bytes(), &pkcs8_der[..]);
    assert_eq!(
        key.to_pkcs8_pem(LineEnding::LF).unwrap().as_str(),
        pkcs8_pem
    );
    let public = RsaPublicKey::from_public_key_pem(&spki_pem).unwrap();
    assert_eq!(&public, key.public_key());
    assert_eq!(
        RsaPublicKey::from_public_key_der(&spki_der).unwrap(),
        public
    );
    assert_eq!(
        public.to_public_key_der().unwrap().as_bytes(),
        &spki_der[..]
    );

    let key1 = RsaPrivateKey::from_pkcs1_pem(&pkcs1_pem).unwrap();
    assert_eq!(key1.to_pkcs1_der().unwrap().as_bytes(), &pkcs1_der[..]);
    assert_eq!(
        RsaPrivateKey::from_pkcs1_der(&pkcs1_der).unwrap().n(),
        key1.n()
    );

    let public1 = RsaPublicKey::from_pkcs1_pem(&rsa_pub_pem).unwrap();
    assert_eq!(RsaPublicKey::from_pkcs1_der(&rsa_pub_der).unwrap(), public1);
    assert_eq!(public1.to_pkcs1_der().unwrap().as_bytes(), &rsa_pub_der[..]);

    // Our own encoder, through the traits and back.
    let again = RsaPrivateKey::from_pkcs8_pem(&key.to_pkcs8_pem(LineEnding::LF).unwrap()).unwrap();
    assert_eq!(
        again.to_pkcs1_der().unwrap().as_bytes(),
        key.to_pkcs1_der().unwrap().as_bytes()
    );
    let again =
        RsaPrivateKey::from_pkcs1_pem(&key.to_pkcs1_pem(LineEnding::CRLF).unwrap()).unwrap();
    assert_eq!(again.n(), key.n());
    let pem = public.to_public_key_pem(LineEnding::LF).unwrap();
    assert_eq!(RsaPublicKey::from_public_key_pem(&pem).unwrap(), public);
    let pem = public.to_pkcs1_pem(LineEnding::LF).unwrap();
    assert_eq!(RsaPublicKey::from_pkcs1_pem(&pem).unwrap(), public);
    // The traits and the crate's own functions agree byte for byte.
    let ours = rsatool_rsa::encode_private_key(
        &key.to_parts(),
        rsatool_rsa::KeyFormat::Pkcs8,
        rsatool_rsa::Encoding::Pem,
    )
    .unwrap();
    assert_eq!(
        key.to_pkcs8_pem(LineEnding::LF).unwrap().as_bytes(),
        &ours[..]
    );
}

/// Malformed input and the wrong kind of key are errors, never panics.
#[test]
fn bad_input_is_an_error() {
    let spki_der = std::fs::read(vectors("DER_Serialization/unenc-rsa-pkcs8.pub.der")).unwrap();
    let pkcs8_der = std::fs::read(vectors("DER_Serialization/unenc-rsa-pkcs8.der")).unwrap();
    assert!(RsaPrivateKey::from_pkcs8_pem("not a key").is_err());
    assert!(RsaPrivateKey::from_pkcs8_der(&spki_der).is_err());
    assert!(RsaPublicKey::from_public_key_der(&pkcs8_der).is_err());
    assert!(RsaPrivateKey::from_pkcs1_der(&pkcs8_der).is_err());
    assert!(RsaPublicKey::from_pkcs1_der(&spki_der).is_err());
    for cut in [0, 1, 10, pkcs8_der.len() >> 1, pkcs8_der.len() - 1] {
        assert!(RsaPrivateKey::from_pkcs8_der(&pkcs8_der[..cut]).is_err());
    }
    // A valid structure with an inconsistent key: one bit of d flipped.
    let mut parts = key_1024().to_parts();
    let last = parts.d.len() - 1;
    parts.d[last] ^= 2;
    let der = rsatool_rsa::encode_private_key(
        &parts,
        rsatool_rsa::KeyFormat::Pkcs8,
        rsatool_rsa::Encoding::Der,
    )
    .unwrap();
    assert!(RsaPrivateKey::from_pkcs8_der(&der).is_err());
    // Through `?` into the crate's error, as RustCrypto's examples write it.
    let r: Result<RsaPrivateKey, rsatool_rsa::Error> = (|| {
        Ok(RsaPrivateKey::from_pkcs8_pem(
            "-----BEGIN PRIVATE KEY-----\n",
        )?)
    })();
    assert!(matches!(r, Err(rsatool_rsa::Error::Encoding(_))));
}

/// OpenSSL's keys, plain and encrypted, load; ours encode as OpenSSL writes them; OpenSSL
/// verifies our signatures and decrypts our ciphertexts, and we verify and decrypt its.
#[test]
fn openssl_keys_signatures_and_ciphertexts() {
    if !have_openssl() {
        return;
    }
    let dir = TempDir::new("rustcrypto-port");
    let (key, pubk, msg) = (dir.path("key.pem"), dir.path("pub.pem"), dir.path("msg"));
    openssl(&[
        "genpkey",
        "-algorithm",
        "RSA",
        "-pkeyopt",
        "rsa_keygen_bits:2048",
        "-out",
        s(&key),
    ]);
    openssl(&["pkey", "-in", s(&key), "-pubout", "-out", s(&pubk)]);
    let pkcs1 = openssl(&["rsa", "-in", s(&key), "-traditional"]);
    let pkcs1_pub = openssl(&["rsa", "-in", s(&key), "-RSAPublicKey_out"]);
    let pass = "correct horse";
    let enc = openssl(&[
        "pkcs8",
        "-topk8",
        "-in",
        s(&key),
        "-v2",
        "aes-256-cbc",
        "-passout",
        &format!("pass:{pass}"),
    ]);

    let pem = text(&key);
    let (private_key, public_key) = load_and_reencode(&pem, &text(&pubk));
    assert_eq!(
        RsaPublicKey::read_public_key_pem_file(&pubk).unwrap(),
        public_key
    );
    assert_eq!(
        private_key.to_pkcs1_pem(LineEnding::LF).unwrap().as_bytes(),
        &pkcs1[..]
    );
    assert_eq!(
        public_key.to_pkcs1_pem(LineEnding::LF).unwrap().as_bytes(),
        &pkcs1_pub[..]
    );
    let decrypted =
        RsaPrivateKey::from_pkcs8_encrypted_pem(std::str::from_utf8(&enc).unwrap(), pass).unwrap();
    assert_eq!(
        decrypted.to_pkcs8_pem(LineEnding::LF).unwrap().as_str(),
        pem
    );
    assert!(
        RsaPrivateKey::from_pkcs8_encrypted_pem(std::str::from_utf8(&enc).unwrap(), "no").is_err()
    );

    // Our encrypted PKCS #8 opens in OpenSSL, to the same key.
    let ours = dir.path("enc.pem");
    private_key
        .write_pkcs8_pem_file(dir.path("plain.pem"), LineEnding::LF)
        .unwrap();
    assert_eq!(text(&dir.path("plain.pem")), pem);
    std::fs::write(
        &ours,
        private_key
            .to_pkcs8_encrypted_pem(pass, LineEnding::LF)
            .unwrap()
            .as_bytes(),
    )
    .unwrap();
    let opened = openssl(&["pkey", "-in", s(&ours), "-passin", &format!("pass:{pass}")]);
    assert_eq!(opened, pem.as_bytes());

    std::fs::write(&msg, b"signed by both").unwrap();
    let mut rng = rng(11);

    // PKCS #1 v1.5: OpenSSL verifies ours, and signs the same bytes (deterministic).
    let signing_key = pkcs1v15::SigningKey::<Sha256>::new(private_key.clone());
    let sig = signing_key.sign_with_rng(&mut rng, b"signed by both");
    let sig_file = dir.path("sig");
    std::fs::write(&sig_file, sig.to_bytes()).unwrap();
    openssl(&[
        "dgst",
        "-sha256",
        "-verify",
        s(&pubk),
        "-signature",
        s(&sig_file),
        s(&msg),
    ]);
    let theirs = openssl(&["dgst", "-sha256", "-sign", s(&key), s(&msg)]);
    assert_eq!(&theirs[..], &*sig.to_bytes());
    let verifying_key = pkcs1v15::VerifyingKey::<Sha256>::from(public_key.clone());
    let theirs = pkcs1v15::Signature::try_from(&theirs[..]).unwrap();
    verifying_key.verify(b"signed by both", &theirs).unwrap();

    // PSS with SHA-384: both ways.
    let signing_key = pss::SigningKey::<Sha384>::new(private_key.clone());
    let sig = signing_key.sign_with_rng(&mut rng, b"signed by both");
    std::fs::write(&sig_file, sig.to_bytes()).unwrap();
    let pss384 = [
        "dgst",
        "-sha384",
        "-sigopt",
        "rsa_padding_mode:pss",
        "-sigopt",
        "rsa_pss_saltlen:48",
    ];
    let verify = ["-verify", s(&pubk), "-signature", s(&sig_file), s(&msg)];
    openssl(&[&pss384[..], &verify].concat());
    let theirs = openssl(&[&pss384[..], &["-sign", s(&key), s(&msg)]].concat());
    let theirs = pss::Signature::try_from(&theirs[..]).unwrap();
    signing_key
        .verifying_key()
        .verify(b"signed by both", &theirs)
        .unwrap();

    // OAEP with SHA-256 (and MGF1 with SHA-256): both ways.
    let opts = testkit::OPENSSL_OAEP_SHA256;
    let decrypting_key = oaep::DecryptingKey::<Sha256>::new(private_key);
    let ct = decrypting_key
        .encrypting_key()
        .encrypt_with_rng(&mut rng, b"for openssl")
        .unwrap();
    let ct_file = dir.path("ct");
    std::fs::write(&ct_file, &ct).unwrap();
    let mut args = vec!["pkeyutl", "-decrypt", "-inkey", s(&key), "-in", s(&ct_file)];
    args.extend(opts);
    assert_eq!(openssl(&args), b"for openssl");
    let mut args = vec![
        "pkeyutl",
        "-encrypt",
        "-pubin",
        "-inkey",
        s(&pubk),
        "-in",
        s(&msg),
    ];
    args.extend(opts);
    let theirs = openssl(&args);
    assert_eq!(
        decrypting_key.decrypt_with_rng(&mut rng, &theirs).unwrap(),
        b"signed by both"
    );

    // rsa 0.10's one-call methods, against OpenSSL: it verifies and decrypts ours.
    let private_key = decrypting_key.key();
    std::fs::write(
        &sig_file,
        private_key.pss_sign::<Sha256>(b"signed by both").unwrap(),
    )
    .unwrap();
    openssl(&[
        "dgst",
        "-sha256",
        "-sigopt",
        "rsa_padding_mode:pss",
        "-sigopt",
        "rsa_pss_saltlen:32",
        "-verify",
        s(&pubk),
        "-signature",
        s(&sig_file),
        s(&msg),
    ]);
    let ct = public_key.oaep_encrypt::<Sha256>(b"for openssl").unwrap();
    std::fs::write(&ct_file, &ct).unwrap();
    let mut args = vec!["pkeyutl", "-decrypt", "-inkey", s(&key), "-in", s(&ct_file)];
    args.extend(opts);
    assert_eq!(openssl(&args), b"for openssl");
    let ct = public_key.pkcs1v15_encrypt(b"for openssl").unwrap();
    std::fs::write(&ct_file, &ct).unwrap();
    let args = ["pkeyutl", "-decrypt", "-inkey", s(&key), "-in", s(&ct_file)];
    assert_eq!(openssl(&args), b"for openssl");
    assert_eq!(private_key.pkcs1v15_decrypt(&ct).unwrap(), b"for openssl");
}

/// A key Python's `cryptography` generates in the test: we load its PKCS #8 and SPKI PEM,
/// verify its PKCS #1 v1.5 and PSS signatures and decrypt its OAEP ciphertext.
#[test]
fn python_cryptography_keys_signatures_and_ciphertexts() {
    if !have("python3", &["-c", "import cryptography"]) {
        return;
    }
    let script = r#"
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa, padding
k = rsa.generate_private_key(public_exponent=65537, key_size=2048)
m = b"from python"
print(k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
      serialization.NoEncryption()).decode(), end="")
print(k.public_key().public_bytes(serialization.Encoding.PEM,
      serialization.PublicFormat.SubjectPublicKeyInfo).decode(), end="")
print(k.sign(m, padding.PKCS1v15(), hashes.SHA256()).hex())
print(k.sign(m, padding.PSS(padding.MGF1(hashes.SHA256()), 32), hashes.SHA256()).hex())
print(k.public_key().encrypt(m, padding.OAEP(padding.MGF1(hashes.SHA256()), hashes.SHA256(),
      None)).hex())
"#;
    let out = python(script, &[]);
    let end_private = out.find("-----END PRIVATE KEY-----\n").unwrap() + 26;
    let end_public = out.find("-----END PUBLIC KEY-----\n").unwrap() + 25;
    let (private_pem, public_pem) = (&out[..end_private], &out[end_private..end_public]);
    let hex: Vec<Vec<u8>> = out[end_public..]
        .lines()
        .map(|l| {
            (0..l.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&l[i..i + 2], 16).unwrap())
                .collect()
        })
        .collect();

    let (private_key, public_key) = load_and_reencode(private_pem, public_pem);

    let sig = pkcs1v15::Signature::try_from(&hex[0][..]).unwrap();
    let vk = pkcs1v15::VerifyingKey::<Sha256>::new(public_key.clone());
    vk.verify(b"from python", &sig).unwrap();
    // Deterministic: our signer gives Python's bytes.
    let sk = pkcs1v15::SigningKey::<Sha256>::new(private_key.clone());
    assert_eq!(sk.sign(b"from python"), sig);
    let sig = pss::Signature::try_from(&hex[1][..]).unwrap();
    pss::VerifyingKey::<Sha256>::new(public_key.clone())
        .verify(b"from python", &sig)
        .unwrap();
    let dk = oaep::DecryptingKey::<Sha256>::new(private_key.clone());
    assert_eq!(dk.decrypt(&hex[2]).unwrap(), b"from python");

    // rsa 0.10's one-call methods on the keys.
    public_key
        .pkcs1v15_verify::<Sha256>(b"from python", &hex[0])
        .unwrap();
    assert!(
        public_key
            .pkcs1v15_verify::<Sha384>(b"from python", &hex[0])
            .is_err()
    );
    let digest = Sha256::digest(b"from python");
    public_key
        .pkcs1v15_verify_prehash::<Sha256>(&digest, &hex[0])
        .unwrap();
    assert_eq!(
        private_key.pkcs1v15_sign::<Sha256>(b"from python").unwrap(),
        hex[0]
    );
    assert_eq!(
        private_key
            .pkcs1v15_sign_prehash::<Sha256>(&digest)
            .unwrap(),
        hex[0]
    );
    public_key
        .pss_verify::<Sha256>(b"from python", &hex[1])
        .unwrap();
    public_key
        .pss_verify_prehash::<Sha256>(&digest, &hex[1])
        .unwrap();
    assert!(
        public_key
            .pss_verify::<Sha256>(b"from pithon", &hex[1])
            .is_err()
    );
    assert_eq!(
        private_key.oaep_decrypt::<Sha256>(&hex[2]).unwrap(),
        b"from python"
    );
    assert_eq!(
        private_key.oaep_decrypt::<Sha384>(&hex[2]),
        Err(rsatool_rsa::Error::Decryption)
    );
}

/// The `signature` traits give the native API's signatures, reject bad ones, and report a
/// failing RNG as an error, not a panic.
mod traits {
    use super::*;
    use rand_core::{TryCryptoRng, TryRng};
    use rsatool_rsa::{HashAlg, Pkcs1v15Sign, Pss, SaltLen};

    #[test]
    fn pkcs1v15_every_signer_trait_gives_the_native_signature() {
        let key = key_1024();
        let sk = pkcs1v15::SigningKey::<Sha256>::new(key.clone());
        let vk = sk.verifying_key();
        let native = key
            .sign(&mut rng(1), &Pkcs1v15Sign::new(HashAlg::Sha256), b"drop-in")
            .unwrap();
        let sig: pkcs1v15::Signature = sk.try_sign(b"drop-in").unwrap();
        assert_eq!(sig.to_vec(), native);
        assert_eq!(sig.encoded_len(), key.size());
        assert_eq!(sk.try_sign_with_rng(&mut rng(2), b"drop-in").unwrap(), sig);
        let feed = |d: &mut Sha256| {
            d.update(b"drop-");
            d.update(b"in");
        };
        assert_eq!(sk.sign_digest(feed), sig);
        assert_eq!(sk.sign_digest_with_rng(&mut rng(3), feed), sig);
        let digest = Sha256::digest(b"drop-in");
        assert_eq!(sk.sign_prehash(&digest).unwrap(), sig);
        assert!(sk.sign_prehash(&digest[1..]).is_err());

        vk.verify(b"drop-in", &sig).unwrap();
        assert!(vk.verify(b"drop-out", &sig).is_err());
        vk.verify_digest(
            |d: &mut Sha256| {
                d.update(b"drop-in");
                Ok(())
            },
            &sig,
        )
        .unwrap();
        vk.verify_prehash(&digest, &sig).unwrap();
        assert!(vk.verify_prehash(&Sha256::digest(b"x"), &sig).is_err());
        let short = pkcs1v15::Signature::try_from(&native[1..]).unwrap();
        assert!(vk.verify(b"drop-in", &short).is_err());
        // Another hash type is another key type: SHA-384 does not accept it.
        let vk384 = pkcs1v15::VerifyingKey::<Sha384>::new(key.to_public_key());
        assert!(vk384.verify(b"drop-in", &sig).is_err());
    }

    #[test]
    fn pss_salt_lengths() {
        let key = key_1024();
        let sk = pss::SigningKey::<Sha384>::new(key.clone());
        let vk = sk.verifying_key();
        let sig = sk.try_sign_with_rng(&mut rng(3), b"pss drop-in").unwrap();
        vk.verify(b"pss drop-in", &sig).unwrap();
        key.public_key()
            .verify(&Pss::new(HashAlg::Sha384), b"pss drop-in", sig.as_bytes())
            .unwrap();
        assert!(vk.verify(b"pss drop-out", &sig).is_err());
        // A maximal salt: only a verifier configured for it (or auto) accepts.
        let sk = pss::SigningKey::<Sha384>::new(key.clone()).with_salt_len(SaltLen::Max);
        let sig = sk.try_sign_with_rng(&mut rng(4), b"m").unwrap();
        assert!(vk.verify(b"m", &sig).is_err());
        let auto = pss::VerifyingKey::<Sha384>::new_with_auto_salt_len(key.to_public_key());
        auto.verify(b"m", &sig).unwrap();
        let max = 128 - 48 - 2;
        pss::VerifyingKey::<Sha384>::new_with_salt_len(key.to_public_key(), max)
            .verify(b"m", &sig)
            .unwrap();
        // A salt too long for the key is an error with the cause as its source.
        let sk = pss::SigningKey::<Sha384>::new_with_salt_len(key.clone(), max + 1);
        let err = sk.try_sign_with_rng(&mut rng(5), b"m").unwrap_err();
        assert!(std::error::Error::source(&err).is_some());
    }

    /// An RNG that always fails.
    struct Broken;

    impl TryRng for Broken {
        type Error = std::io::Error;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Err(std::io::Error::other("no entropy"))
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Err(std::io::Error::other("no entropy"))
        }
        fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
            Err(std::io::Error::other("no entropy"))
        }
    }

    impl TryCryptoRng for Broken {}

    #[test]
    fn a_failing_rng_is_an_error_not_a_panic() {
        let key = key_1024();
        let sk = pss::SigningKey::<Sha256>::new(key.clone());
        assert!(sk.try_sign_with_rng(&mut Broken, b"m").is_err());
        let sk = pkcs1v15::SigningKey::<Sha256>::new(key.clone());
        assert!(sk.try_sign_with_rng(&mut Broken, b"m").is_err());
        let ek = oaep::EncryptingKey::<Sha256>::new(key.to_public_key());
        assert_eq!(
            ek.encrypt_with_rng(&mut Broken, b"m"),
            Err(rsatool_rsa::Error::Rng)
        );
        let ct = ek.encrypt_with_rng(&mut rng(6), b"m").unwrap();
        let dk = oaep::DecryptingKey::<Sha256>::new(key.clone());
        assert_eq!(
            dk.decrypt_with_rng(&mut Broken, &ct),
            Err(rsatool_rsa::Error::Rng)
        );
    }

    #[test]
    fn oaep_labels_and_mgf1_hashes_must_match() {
        let key = key_1024();
        let ek = oaep::EncryptingKey::<Sha256>::new_with_label(key.to_public_key(), "label");
        let ct = ek.encrypt_with_rng(&mut rng(8), b"m").unwrap();
        let right = oaep::DecryptingKey::<Sha256>::new_with_label(key.clone(), "label");
        assert_eq!(right.decrypt(&ct).unwrap(), b"m");
        assert_eq!(right.encrypting_key().key(), key.public_key());
        for wrong in [
            oaep::DecryptingKey::<Sha256>::new(key.clone()).decrypt(&ct),
            oaep::DecryptingKey::<Sha256, Sha384>::new_with_label(key.clone(), "label")
                .decrypt(&ct),
        ] {
            assert_eq!(wrong, Err(rsatool_rsa::Error::Decryption));
        }
        // The run-time scheme with the same parameters decrypts it: one implementation.
        let scheme = rsatool_rsa::Oaep::new(HashAlg::Sha256).with_label("label");
        assert_eq!(key.decrypt(&mut rng(9), &scheme, &ct).unwrap(), b"m");
    }

    #[test]
    fn pkcs1v15_encryption_keys() {
        let key = key_1024();
        let dk = pkcs1v15::DecryptingKey::new(key.clone());
        let ct = dk
            .encrypting_key()
            .encrypt_with_rng(&mut rng(10), b"m")
            .unwrap();
        assert_eq!(dk.decrypt(&ct).unwrap(), b"m");
        let explicit = pkcs1v15::DecryptingKey::with_scheme(
            key.clone(),
            rsatool_rsa::Pkcs1v15Encrypt::explicit_rejection(),
        );
        let mut bad = ct.clone();
        bad[100] ^= 0x40;
        assert_eq!(explicit.decrypt(&bad), Err(rsatool_rsa::Error::Decryption));
        // Implicit rejection: a message, the same one each time, not the plaintext.
        let a = dk.decrypt(&bad).unwrap();
        assert_eq!(dk.decrypt_with_rng(&mut rng(11), &bad).unwrap(), a);
        assert_ne!(a, b"m");
    }

    #[test]
    fn public_key_parts_and_conversions() {
        let key = key_1024();
        let public = RsaPublicKey::from(key);
        assert_eq!(PublicKeyParts::size(&public), 128);
        assert_eq!(PublicKeyParts::n(key), PublicKeyParts::n(&public));
        assert_eq!(&*public.e_bytes(), &[1, 0, 1]);
        assert_eq!(&*public.n_bytes(), &key.to_parts().n[..]);
        let sk: pss::SigningKey<Sha256> = key.clone().into();
        let back: RsaPrivateKey = sk.into();
        assert_eq!(back.public_key(), &public);
        let _: &RsaPublicKey = key.as_ref();
        let generated = rsatool_rsa::PrivateKey::new(&mut rng(12), 1024).unwrap();
        assert_eq!(generated.bits(), 1024);
    }
}
