//! The bodies of the fuzz targets, as plain functions so that anything can replay an input:
//! `cargo fuzz run <target>` calls them through `fuzz_targets/<target>.rs`, and
//! `rsa/tests/behaviour/fuzz_regressions.rs` (a workspace test, which cannot depend on this
//! excluded crate) replays `fuzz/regressions/<target>/` through the same public APIs.
//!
//! Each function panics exactly when it finds a bug: a panic inside the library, or a result
//! that disagrees with the oracle (num-bigint for the arithmetic; the round trip for keys).

use bignum::Limb;
use bignum::modular::{self, Modulus};
use bignum::{Nat, mpn};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use rsatool_rsa::hazmat::PrivateOp;
use rsatool_rsa::{
    Encoding, KeyFormat, PublicFormat, RsaPrivateKey, RsaPublicKey, decode_private_key,
    decode_public_key, encode_private_key, encode_public_key,
};
use testkit::pem;

// ---------------------------------------------------------------------------------------------
// key_parse

/// The PEM labels the decoder knows, and one it does not, chosen by a byte of the input.
const LABELS: [&str; 6] = [
    "PRIVATE KEY",
    "RSA PRIVATE KEY",
    "PUBLIC KEY",
    "RSA PUBLIC KEY",
    "ENCRYPTED PRIVATE KEY",
    "CERTIFICATE",
];

/// Decodes arbitrary bytes as a private and as a public key (DER and PEM detected), and, when
/// that works, validates them with `from_parts` (small moduli allowed, to reach the
/// arithmetic); a key that loads must survive an encode/decode round trip unchanged. The same
/// bytes are also decoded as the body of a PEM block (the first byte picks the label).
pub fn check_key_parse(data: &[u8]) {
    check_key_bytes(data);
    if let Some((&first, body)) = data.split_first() {
        let label = LABELS[usize::from(first) % LABELS.len()];
        check_key_bytes(&pem(label, body));
    }
}

fn check_key_bytes(input: &[u8]) {
    if let Ok(parts) = decode_private_key(input)
        && let Ok(key) = RsaPrivateKey::from_parts_allowing_small(&parts, 16)
    {
        let back = key.to_parts();
        for format in [KeyFormat::Pkcs1, KeyFormat::Pkcs8] {
            for encoding in [Encoding::Der, Encoding::Pem] {
                let out = encode_private_key(&back, format, encoding).expect("a valid key encodes");
                let again = decode_private_key(&out).expect("our own encoding decodes");
                let again = RsaPrivateKey::from_parts_allowing_small(&again, 16)
                    .expect("our own encoding of a valid key validates");
                assert_eq!(again.to_parts().d, back.d, "round trip changed d");
                assert_eq!(
                    again.public_key(),
                    key.public_key(),
                    "round trip changed n, e"
                );
            }
        }
    }
    if let Ok(parts) = decode_public_key(input)
        && let Ok(key) = RsaPublicKey::from_parts_allowing_small(&parts, 3)
    {
        for format in [PublicFormat::Spki, PublicFormat::Pkcs1] {
            for encoding in [Encoding::Der, Encoding::Pem] {
                let out = encode_public_key(&key.to_parts(), format, encoding)
                    .expect("a valid key encodes");
                let again = decode_public_key(&out).expect("our own encoding decodes");
                let again = RsaPublicKey::from_parts_allowing_small(&again, 3)
                    .expect("our own encoding of a valid key validates");
                assert_eq!(again, key, "round trip changed n or e");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// arith

/// Operands are capped at this many limbs (2048 bits): enough for every algorithm threshold,
/// small enough for many executions per second.
const MAX_LIMBS: usize = 32;

/// Little-endian bytes as limbs (at least one limb, at most [`MAX_LIMBS`]).
fn limbs(bytes: &[u8]) -> Vec<Limb> {
    let bytes = &bytes[..bytes.len().min(8 * MAX_LIMBS)];
    let mut v: Vec<Limb> = bytes
        .chunks(8)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            Limb::from_le_bytes(b)
        })
        .collect();
    if v.is_empty() {
        v.push(0);
    }
    v
}

fn big(a: &[Limb]) -> BigUint {
    let bytes: Vec<u8> = a.iter().flat_map(|l| l.to_le_bytes()).collect();
    BigUint::from_bytes_le(&bytes)
}

fn nat_big(a: &Nat) -> BigUint {
    big(a.as_limbs())
}

/// `a` zero-extended to `n` limbs.
fn pad(a: &[Limb], n: usize) -> Vec<Limb> {
    let mut v = a.to_vec();
    v.resize(n.max(a.len()), 0);
    v
}

/// Splits the input into an operation selector and three operands (the second and third
/// bytes give the lengths of the first two; the third takes the rest).
type Operands = (u8, Vec<Limb>, Vec<Limb>, Vec<Limb>);

fn operands(data: &[u8]) -> Option<Operands> {
    let (&op, rest) = data.split_first()?;
    let (&la, rest) = rest.split_first()?;
    let (&lb, rest) = rest.split_first()?;
    let la = usize::from(la).min(rest.len());
    let (a, rest) = rest.split_at(la);
    let lb = usize::from(lb).min(rest.len());
    let (b, c) = rest.split_at(lb);
    // A selector bit turns operand bytes 0xff-heavy: all-ones limbs ripple carries through.
    let fill = |x: &[u8]| -> Vec<Limb> {
        let mut v = limbs(x);
        if op & 0x80 != 0 {
            for l in v.iter_mut() {
                *l |= 0xffff_ffff_0000_0000;
            }
        }
        v
    };
    Some((op & 0x7f, fill(a), fill(b), fill(c)))
}

/// Differential arithmetic against num-bigint: the first input byte picks the operation
/// (`Nat` add, sub, mul, square, div_rem; `mpn` mul and sqr; constant-time `modular` div_rem,
/// gcd, lcm; Montgomery pow, constant-time and variable-time; modular inverse; the inverse of
/// a public e modulo a secret modulus), the next two the operand lengths.
pub fn check_arith(data: &[u8]) {
    let Some((op, a, b, c)) = operands(data) else {
        return;
    };
    let (ba, bb, bc) = (big(&a), big(&b), big(&c));
    let (na, nb) = (Nat::from_limbs(&a), Nat::from_limbs(&b));
    match op % 10 {
        0 => {
            assert_eq!(nat_big(&(&na + &nb)), &ba + &bb, "add");
            let diff = na.checked_sub(&nb);
            if ba >= bb {
                assert_eq!(nat_big(&diff.expect("a >= b")), &ba - &bb, "sub");
            } else {
                assert!(diff.is_none(), "sub below zero");
            }
            let mut r = vec![0; a.len().max(b.len())];
            let n = r.len();
            let carry = mpn::add_n(&mut r, &pad(&a, n), &pad(&b, n));
            assert_eq!(
                big(&r) + (BigUint::from(carry) << (64 * n)),
                &ba + &bb,
                "add_n"
            );
            let borrow = mpn::sub_n(&mut r, &pad(&a, n), &pad(&b, n));
            assert_eq!(borrow, Limb::from(ba < bb), "sub_n borrow");
        }
        1 => {
            assert_eq!(nat_big(&(&na * &nb)), &ba * &bb, "Nat mul");
            let (x, y) = if a.len() >= b.len() {
                (&a, &b)
            } else {
                (&b, &a)
            };
            let mut r = vec![0; x.len() + y.len()];
            mpn::mul(&mut r, x, y);
            assert_eq!(big(&r), &ba * &bb, "mpn::mul");
        }
        2 => {
            assert_eq!(nat_big(&na.square()), &ba * &ba, "Nat square");
            let mut r = vec![0; 2 * a.len()];
            mpn::sqr(&mut r, &a);
            assert_eq!(big(&r), &ba * &ba, "mpn::sqr");
        }
        3 => {
            match na.checked_div_rem(&nb) {
                None => assert!(bb.is_zero(), "div_rem refused a non-zero divisor"),
                Some((q, r)) => {
                    let (wq, wr) = ba.div_rem(&bb);
                    assert_eq!((nat_big(&q), nat_big(&r)), (wq, wr), "Nat div_rem");
                }
            }
            let qr: Option<_> = modular::div_rem(&a, &b).into();
            match qr {
                None => assert!(bb.is_zero(), "modular::div_rem refused a non-zero divisor"),
                Some((q, r)) => {
                    let (wq, wr) = ba.div_rem(&bb);
                    assert_eq!((big(&q), big(&r)), (wq, wr), "modular::div_rem");
                }
            }
        }
        4 => {
            let n = a.len().max(b.len());
            let g = modular::gcd(&pad(&a, n), &pad(&b, n));
            assert_eq!(big(&g), ba.gcd(&bb), "modular::gcd");
            assert_eq!(nat_big(&na.gcd(&nb)), ba.gcd(&bb), "Nat gcd");
            let l = modular::lcm(&pad(&a, n), &pad(&b, n));
            assert_eq!(big(&l), ba.lcm(&bb), "modular::lcm");
        }
        5 | 6 => {
            // base a, exponent b, modulus c.
            let m: Option<Modulus> = Modulus::new(&c).into();
            let valid = bc.is_odd() && !bc.is_one();
            assert_eq!(m.is_some(), valid, "Modulus::new validity");
            assert_eq!(
                Modulus::new_vartime(&c).is_ok(),
                valid,
                "Modulus::new_vartime"
            );
            let Some(m) = m else { return };
            let want = ba.modpow(&bb, &bc);
            let base = m.reduce(&a);
            let exp_bits = if op % 10 == 5 {
                64 * b.len()
            } else {
                nb.bits()
            };
            let r = m.pow(&base, &b, exp_bits);
            assert_eq!(big(&m.retrieve(&r)), want, "Modulus::pow");
            let r = m.pow_vartime(&base, &b);
            assert_eq!(big(&m.retrieve(&r)), want, "Modulus::pow_vartime");
            let nc = Nat::from_limbs(&c);
            assert_eq!(nat_big(&na.pow_mod(&nb, &nc)), want, "Nat::pow_mod");
        }
        7 => {
            let Ok(m) = Modulus::new_vartime(&c) else {
                return;
            };
            let inv: Option<_> = m.inv(&m.reduce(&a)).into();
            match ba.modinv(&bc) {
                Some(want) => assert_eq!(
                    big(&m.retrieve(&inv.expect("an inverse exists"))),
                    want,
                    "Modulus::inv"
                ),
                None => assert!(inv.is_none(), "Modulus::inv of a non-invertible value"),
            }
        }
        _ => {
            // A public e (one limb) modulo any non-zero secret m.
            let e = a[0];
            if bc.is_zero() {
                return;
            }
            let inv: Option<zeroize::Zeroizing<Vec<Limb>>> =
                modular::inv_public_mod_secret(e, &c).into();
            // Documented: none for e even or below 3, and for m < 2 (where num-bigint gives 0).
            let want = if e < 3 || e & 1 == 0 || bc.is_one() {
                None
            } else {
                BigUint::from(e).modinv(&bc)
            };
            match (inv, want) {
                (Some(d), Some(w)) => assert_eq!(big(&d), w, "inv_public_mod_secret"),
                (None, None) => {}
                (got, want) => panic!(
                    "inv_public_mod_secret: got {:?}, want {want:?}",
                    got.map(|d| big(&d))
                ),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// verify and decrypt: a fixed 1024-bit key (OpenSSL's test key `unenc-rsa-pkcs8.pem`)

use rsatool_rsa::rand_core::{TryCryptoRng, TryRng};
use rsatool_rsa::{Error, HashAlg, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss, SaltLen};
use std::sync::OnceLock;

/// The fixed key of the verify and decrypt targets.
pub const KEY_PEM: &[u8] = include_bytes!("../../testvectors/data/keys/PKCS8/unenc-rsa-pkcs8.pem");

/// The message every fixed signature signs and every fixed ciphertext encrypts.
pub const MESSAGE: &[u8] = b"fuzz me";

/// A deterministic RNG (testkit's SplitMix64) so that every input replays the same way: salts,
/// padding and blinding factors are reproducible. A wrapper only to carry the `TryCryptoRng`
/// marker that signing and encryption ask for, which testkit's generator does not claim.
pub struct SplitMix(testkit::SplitMix64);

impl SplitMix {
    /// The generator of `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(testkit::SplitMix64::new(seed))
    }
}

impl TryRng for SplitMix {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        self.0.try_next_u32()
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0.try_next_u64()
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.0.try_fill_bytes(dst)
    }
}

// Test-only determinism: not a source of secrets outside the fuzz targets.
impl TryCryptoRng for SplitMix {}

/// The fixed key.
pub fn key() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| {
        RsaPrivateKey::from_parts(&decode_private_key(KEY_PEM).expect("the test key decodes"))
            .expect("the test key is valid")
    })
}

/// A signature scheme, picked by a byte.
pub enum AnySig {
    /// PKCS #1 v1.5.
    Pkcs1v15(Pkcs1v15Sign),
    /// PSS.
    Pss(Pss),
}

const HASHES: [HashAlg; 4] = [
    HashAlg::Sha256,
    HashAlg::Sha1,
    HashAlg::Sha384,
    HashAlg::Sha512,
];

/// The signature scheme that `b` selects: PKCS #1 v1.5 or PSS (salt of the hash length,
/// maximal, auto, or 0), over SHA-256, SHA-1, SHA-384 or SHA-512.
pub fn sig_scheme(b: u8) -> AnySig {
    let hash = HASHES[usize::from(b & 3)];
    match (b >> 2) % 5 {
        0 => AnySig::Pkcs1v15(Pkcs1v15Sign::new(hash)),
        1 => AnySig::Pss(Pss::new(hash)),
        2 => AnySig::Pss(Pss::new(hash).with_salt_len(SaltLen::Max)),
        3 => AnySig::Pss(Pss::new(hash).with_salt_len(SaltLen::Auto)),
        _ => AnySig::Pss(Pss::new(hash).with_salt_len(SaltLen::Exact(0))),
    }
}

/// `valid` XOR `mask` (the mask cycled, or cut, to the length `len`).
fn xor_into(valid: &[u8], mask: &[u8], len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| valid.get(i).copied().unwrap_or(0) ^ mask.get(i).copied().unwrap_or(0))
        .collect()
}

/// Signature verification with arbitrary signature bytes against the fixed key, every
/// scheme. Byte 0 picks the scheme; byte 1 the mode: raw (the rest is the signature) or
/// near-valid (the rest is XORed into a valid signature of [`MESSAGE`], possibly changing its
/// length). A verification either succeeds or fails with `Error::Verification`, never another
/// error; it succeeds exactly when the signature is the unmodified valid one (a forgery from a
/// mutation would be a finding), or, raw, when public_op shows the bytes are a valid
/// signature.
pub fn check_verify(data: &[u8]) {
    let [sel, mode, rest @ ..] = data else {
        return;
    };
    let key = key();
    let public = key.public_key();
    let scheme = sig_scheme(*sel);
    let mut rng = SplitMix::new(u64::from(*sel));
    type Verifier<'a> = Box<dyn Fn(&[u8]) -> rsatool_rsa::Result<()> + 'a>;
    let (signed, result_of): (rsatool_rsa::Result<Vec<u8>>, Verifier<'_>) = match scheme {
        AnySig::Pkcs1v15(s) => (
            key.sign(&mut rng, &s, MESSAGE),
            Box::new(move |sig| public.verify(&s, MESSAGE, sig)),
        ),
        AnySig::Pss(s) => (
            key.sign(&mut rng, &s, MESSAGE),
            Box::new(move |sig| public.verify(&s, MESSAGE, sig)),
        ),
    };
    // PSS over SHA-512 with a 64-byte salt does not fit a 1024-bit key (emLen 128 < 130):
    // then nothing may verify.
    let valid = match signed {
        Ok(valid) => valid,
        Err(Error::MessageTooLong) => Vec::new(),
        Err(e) => panic!("signing failed: {e:?}"),
    };
    if !valid.is_empty() {
        assert_eq!(result_of(&valid), Ok(()), "a valid signature is refused");
    }
    let sig = if mode & 1 == 0 {
        rest.to_vec()
    } else {
        let len = if mode & 2 == 0 {
            key.size()
        } else {
            rest.len()
        };
        xor_into(&valid, rest, len)
    };
    match result_of(&sig) {
        Err(Error::Verification) => {}
        Ok(()) => {
            // Only the valid signature itself (PKCS #1 v1.5 is deterministic; a PSS forgery
            // from random bytes has probability 2^-(8·hLen)).
            assert_eq!(sig, valid, "a different signature verifies");
        }
        Err(e) => panic!("verification failed with {e:?}, not Error::Verification"),
    }
}

/// An encryption scheme, picked by a byte.
pub enum AnyEnc {
    /// OAEP.
    Oaep(Oaep),
    /// PKCS #1 v1.5 (implicit or explicit rejection).
    Pkcs1v15(Pkcs1v15Encrypt),
}

/// The encryption scheme that `b` selects: OAEP over SHA-1 or SHA-256 (with or without a
/// label), or PKCS #1 v1.5 with implicit or explicit rejection.
pub fn enc_scheme(b: u8) -> AnyEnc {
    match b % 6 {
        0 => AnyEnc::Oaep(Oaep::new(HashAlg::Sha256)),
        1 => AnyEnc::Oaep(Oaep::new(HashAlg::Sha1)),
        2 => AnyEnc::Oaep(Oaep::new(HashAlg::Sha256).with_label(b"label".to_vec())),
        3 => AnyEnc::Oaep(Oaep::new(HashAlg::Sha256).with_mgf1_hash(HashAlg::Sha1)),
        4 => AnyEnc::Pkcs1v15(Pkcs1v15Encrypt::new()),
        _ => AnyEnc::Pkcs1v15(Pkcs1v15Encrypt::explicit_rejection()),
    }
}

/// The message in an EME-PKCS1-v1_5 block (RFC 8017 §7.2.2 step 3), parsed plainly: the
/// oracle for PKCS #1 v1.5 decryption.
pub fn pkcs1v15_unpad(em: &[u8]) -> Option<&[u8]> {
    let [0, 2, rest @ ..] = em else {
        return None;
    };
    let sep = rest.iter().position(|&b| b == 0)?;
    (sep >= 8).then(|| &rest[sep + 1..])
}

/// Decryption of arbitrary ciphertexts with the fixed key: OAEP, and PKCS #1 v1.5 with both
/// rejection modes. Byte 0 picks the scheme; byte 1 the mode: raw (the rest is the
/// ciphertext) or near-valid (XORed into a valid ciphertext of [`MESSAGE`]). Checks: a wrong
/// length or c ≥ n is `Error::Decryption`; otherwise PKCS #1 v1.5 agrees with a plain parse of
/// the raw RSA result (explicit rejection: the message or `Error::Decryption`; implicit: the
/// message when the padding is good, and the same synthetic message on every call when it is
/// not); OAEP returns the message only for the unmodified ciphertext (a modified one that
/// decrypts would be a finding) and `Error::Decryption` otherwise.
pub fn check_decrypt(data: &[u8]) {
    let [sel, mode, rest @ ..] = data else {
        return;
    };
    let key = key();
    let public = key.public_key();
    let k = key.size();
    let scheme = enc_scheme(*sel);
    let mut rng = SplitMix::new(u64::from(*sel) << 8 | u64::from(*mode));
    let valid = match &scheme {
        AnyEnc::Oaep(s) => public.encrypt(&mut rng, s, MESSAGE),
        AnyEnc::Pkcs1v15(s) => public.encrypt(&mut rng, s, MESSAGE),
    }
    .expect("encryption works");
    let decrypt = |c: &[u8], rng: &mut SplitMix| match &scheme {
        AnyEnc::Oaep(s) => key.decrypt(rng, s, c),
        AnyEnc::Pkcs1v15(s) => key.decrypt(rng, s, c),
    };
    assert_eq!(
        decrypt(&valid, &mut rng).as_deref(),
        Ok(MESSAGE),
        "round trip"
    );
    let c = if mode & 1 == 0 {
        rest.to_vec()
    } else {
        let len = if mode & 2 == 0 { k } else { rest.len() };
        xor_into(&valid, rest, len)
    };
    let got = decrypt(&c, &mut rng);
    let in_range = c.len() == k && c < public.n().to_be_bytes();
    if !in_range {
        assert_eq!(got, Err(Error::Decryption), "bad length or c >= n");
        return;
    }
    match &scheme {
        AnyEnc::Oaep(_) => {
            if c == valid {
                assert_eq!(got.as_deref(), Ok(MESSAGE));
            } else {
                assert_eq!(
                    got,
                    Err(Error::Decryption),
                    "a modified OAEP ciphertext decrypts"
                );
            }
        }
        AnyEnc::Pkcs1v15(s) => {
            let em = key.private_op_plain(&c).expect("c < n");
            match (pkcs1v15_unpad(&em), s.implicit_rejection()) {
                (Some(m), _) => assert_eq!(got.as_deref(), Ok(m), "good padding"),
                (None, false) => assert_eq!(got, Err(Error::Decryption), "bad padding"),
                (None, true) => {
                    let m = got.expect("implicit rejection answers");
                    assert!(m.len() <= k - 11, "synthetic message too long");
                    assert_eq!(
                        decrypt(&c, &mut rng).expect("again"),
                        m,
                        "not deterministic"
                    );
                }
            }
        }
    }
}
