//! Signatures against the `openssl` command, an independent implementation: for every SHA-2
//! hash and both schemes, OpenSSL verifies what we sign (`openssl dgst -verify`, PSS with the
//! matching `rsa_pss_saltlen`), and we verify what OpenSSL signs (PSS with OpenSSL's `digest`
//! and `max` salt lengths, the latter through `SaltLen::Max` and `SaltLen::Auto`, and with
//! MGF1 over another hash). PKCS #1 v1.5 being deterministic, OpenSSL's signature must also
//! equal ours byte for byte. Skipped, with a message, where `openssl` is absent.
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::tools::{TempDir, have_openssl};

use std::path::Path;
use std::process::{Command, Output};

use rsatool_rsa::{
    Encoding, Error, HashAlg, KeyFormat, Pkcs1v15Sign, Pss, PublicFormat, RsaPrivateKey, SaltLen,
    encode_private_key, encode_public_key,
};

/// The hashes of these tests: the SHA-2 family (SHA-1 signing is not interop-tested: legacy,
/// verify-only in the CLI; the NIST and RSA Laboratories KATs cover it).
fn hashes() -> impl Iterator<Item = HashAlg> {
    HashAlg::ALL.into_iter().filter(|&h| h != HashAlg::Sha1)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `openssl dgst -<hash> [-sigopt ...] <tail ...>`: its output, and the arguments for messages.
fn dgst(h: HashAlg, sigopts: &[&str], tail: &[&str]) -> (Output, String) {
    let digest = format!("-{}", h.cli_name());
    let mut args = vec!["dgst", digest.as_str()];
    for o in sigopts {
        args.extend(["-sigopt", o]);
    }
    args.extend(tail);
    let out = Command::new("openssl").args(&args).output().unwrap();
    (out, format!("{args:?}"))
}

/// The key (ours, 2048 bits) as PKCS #8 and SPKI PEM files, and a message file.
struct Fixture {
    dir: TempDir,
    key: RsaPrivateKey,
    msg: Vec<u8>,
}

impl Fixture {
    /// The fixture in a temporary directory `name`; `None` (the test is skipped, with a message)
    /// where `openssl` is absent.
    fn new(name: &str) -> Option<Self> {
        if !have_openssl() {
            return None;
        }
        let dir = TempDir::new(name);
        let key = RsaPrivateKey::generate(2048, &mut common::rng(77)).unwrap();
        let parts = key.to_parts();
        std::fs::write(
            dir.path("key.pem"),
            encode_private_key(&parts, KeyFormat::Pkcs8, Encoding::Pem).unwrap(),
        )
        .unwrap();
        std::fs::write(
            dir.path("pub.pem"),
            encode_public_key(
                &key.public_key().to_parts(),
                PublicFormat::Spki,
                Encoding::Pem,
            )
            .unwrap(),
        )
        .unwrap();
        let msg = b"The quick brown fox jumps over the lazy dog, signed by two implementations.\n"
            .to_vec();
        std::fs::write(dir.path("msg"), &msg).unwrap();
        Some(Fixture { dir, key, msg })
    }

    /// `openssl dgst -<hash> [-sigopt ...] -verify pub.pem -signature sig msg`: true on
    /// "Verified OK".
    fn openssl_verifies(&self, h: HashAlg, sigopts: &[&str], sig: &[u8]) -> bool {
        let sig_path = self.dir.path("sig.ours");
        std::fs::write(&sig_path, sig).unwrap();
        let (pub_pem, msg) = (self.dir.path("pub.pem"), self.dir.path("msg"));
        let tail = ["-verify", s(&pub_pem), "-signature", s(&sig_path), s(&msg)];
        let (out, args) = dgst(h, sigopts, &tail);
        let ok = String::from_utf8_lossy(&out.stdout).contains("Verified OK");
        assert_eq!(
            ok,
            out.status.success(),
            "openssl {args}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        ok
    }

    /// `openssl dgst -<hash> [-sigopt ...] -sign key.pem msg`: the signature.
    fn openssl_signs(&self, h: HashAlg, sigopts: &[&str]) -> Vec<u8> {
        let sig_path = self.dir.path("sig.openssl");
        let (key_pem, msg) = (self.dir.path("key.pem"), self.dir.path("msg"));
        let tail = ["-sign", s(&key_pem), "-out", s(&sig_path), s(&msg)];
        let (out, args) = dgst(h, sigopts, &tail);
        assert!(
            out.status.success(),
            "openssl {args}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read(&sig_path).unwrap()
    }
}

fn tampered(sig: &[u8]) -> Vec<u8> {
    let mut t = sig.to_vec();
    t[sig.len() >> 1] ^= 0x10;
    t
}

#[test]
fn pkcs1v15_interoperates_with_openssl_both_ways() {
    let Some(f) = Fixture::new("v15") else {
        return;
    };
    let public = f.key.public_key();
    let mut r = common::rng(1);
    for h in hashes() {
        let scheme = Pkcs1v15Sign::new(h);
        let ours = f.key.sign(&mut r, &scheme, &f.msg).unwrap();
        assert!(f.openssl_verifies(h, &[], &ours), "{h}: ours rejected");
        // The oracle can say no.
        assert!(!f.openssl_verifies(h, &[], &tampered(&ours)), "{h}");
        let theirs = f.openssl_signs(h, &[]);
        public.verify(&scheme, &f.msg, &theirs).unwrap();
        assert_eq!(theirs, ours, "{h}: deterministic signatures differ");
    }
}

#[test]
fn pss_signatures_we_make_verify_in_openssl() {
    let Some(f) = Fixture::new("pss-ours") else {
        return;
    };
    let mut r = common::rng(2);
    let pss = "rsa_padding_mode:pss";
    // emLen − hLen − 2 for a 2048-bit key.
    let max = |h: HashAlg| 256 - h.output_len() - 2;
    for h in hashes() {
        let hlen = h.output_len().to_string();
        let cases: Vec<(SaltLen, String)> = vec![
            (SaltLen::HashLen, "digest".to_owned()),
            (SaltLen::HashLen, hlen.clone()),
            (SaltLen::Exact(0), "0".to_owned()),
            (SaltLen::Exact(17), "17".to_owned()),
            (SaltLen::Max, "max".to_owned()),
            (SaltLen::Max, max(h).to_string()),
            (SaltLen::Auto, "auto".to_owned()),
            (SaltLen::Exact(5), "auto".to_owned()),
        ];
        for (mode, opt) in cases {
            let sig = f
                .key
                .sign(&mut r, &Pss::new(h).with_salt_len(mode), &f.msg)
                .unwrap();
            let saltlen = format!("rsa_pss_saltlen:{opt}");
            assert!(
                f.openssl_verifies(h, &[pss, &saltlen], &sig),
                "{h} {mode:?}: OpenSSL rejected ours with {saltlen}"
            );
            assert!(!f.openssl_verifies(h, &[pss, &saltlen], &tampered(&sig)));
        }
        // MGF1 over SHA-1 with SHA-2 for the message.
        let sig = f
            .key
            .sign(&mut r, &Pss::new(h).with_mgf1_hash(HashAlg::Sha1), &f.msg)
            .unwrap();
        let mgf = "rsa_mgf1_md:sha1";
        assert!(f.openssl_verifies(h, &[pss, "rsa_pss_saltlen:digest", mgf], &sig));
        assert!(!f.openssl_verifies(h, &[pss, "rsa_pss_saltlen:digest"], &sig));
    }
}

#[test]
fn pss_signatures_openssl_makes_verify_here() {
    let Some(f) = Fixture::new("pss-theirs") else {
        return;
    };
    let public = f.key.public_key();
    let pss = "rsa_padding_mode:pss";
    for h in hashes() {
        // Salt of the digest length: the default scheme.
        let sig = f.openssl_signs(h, &[pss, "rsa_pss_saltlen:digest"]);
        public.verify(&Pss::new(h), &f.msg, &sig).unwrap();
        public
            .verify(&Pss::new(h).with_salt_len(SaltLen::Auto), &f.msg, &sig)
            .unwrap();
        assert_eq!(
            public.verify(&Pss::new(h).with_salt_len(SaltLen::Max), &f.msg, &sig),
            Err(Error::Verification)
        );
        // OpenSSL's maximum salt: Max and Auto accept it, the default does not.
        let sig = f.openssl_signs(h, &[pss, "rsa_pss_saltlen:max"]);
        public
            .verify(&Pss::new(h).with_salt_len(SaltLen::Max), &f.msg, &sig)
            .unwrap();
        public
            .verify(&Pss::new(h).with_salt_len(SaltLen::Auto), &f.msg, &sig)
            .unwrap();
        assert_eq!(
            public.verify(&Pss::new(h), &f.msg, &sig),
            Err(Error::Verification)
        );
        // An explicit length, and MGF1 over another hash.
        let sig = f.openssl_signs(h, &[pss, "rsa_pss_saltlen:11", "rsa_mgf1_md:sha256"]);
        let scheme = Pss::new(h)
            .with_mgf1_hash(HashAlg::Sha256)
            .with_salt_len(SaltLen::Exact(11));
        public.verify(&scheme, &f.msg, &sig).unwrap();
        public
            .verify(&scheme.with_salt_len(SaltLen::Auto), &f.msg, &sig)
            .unwrap();
        assert_eq!(
            public.verify(&scheme.with_salt_len(SaltLen::Exact(12)), &f.msg, &sig),
            Err(Error::Verification)
        );
    }
}
