//! The JSON of ACVP RSA vector sets, one typed structure per mode and direction (prompt,
//! response, expected results), after NIST's `draft-celi-acvp-rsa` (the ACVP RSA
//! specification, <https://pages.nist.gov/ACVP/draft-celi-acvp-rsa.html>) and the sample sets
//! of NIST's ACVP server.
//!
//! Field names are ACVP's (camelCase). Unknown fields are ignored, as a client should (the
//! server adds `deferred`, `isSample` and others). Hex is [`Hex`]: read in either case, written
//! in upper case as the server writes it.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Bytes written as a hex string (`"00A1"`). An empty string is no bytes.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Hex(pub Vec<u8>);

impl Hex {
    /// Whether it holds no bytes (the server writes values it does not give as `""`).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hex({})", crate::hex::encode(&self.0))
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&crate::hex::encode(&self.0).to_ascii_uppercase())
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct HexVisitor;
        impl Visitor<'_> for HexVisitor {
            type Value = Hex;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a hex string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Hex, E> {
                crate::hex::decode(v)
                    .map(Hex)
                    .map_err(|e| E::custom(format!("bad hex: {e}")))
            }
        }
        d.deserialize_str(HexVisitor)
    }
}

/// What every vector set, response and expected-results file starts with.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Header {
    /// The vector set's id.
    pub vs_id: u64,
    /// `RSA`.
    pub algorithm: String,
    /// `keyGen`, `sigGen`, `sigVer`, `signaturePrimitive`, `decryptionPrimitive`, ...
    pub mode: String,
    /// `FIPS186-5`, `FIPS186-4`, `2.0`, `Sp800-56Br2`, ...
    pub revision: String,
}

/// The `{"acvVersion": ...}` object that precedes a vector set in the server's arrays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AcvVersion {
    /// The protocol version, `1.0`.
    pub acv_version: String,
}

/// A vector set, response or expected-results file: its header fields and its groups.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VectorSet<G> {
    /// The vector set's id.
    pub vs_id: u64,
    /// `RSA`.
    pub algorithm: String,
    /// The mode.
    pub mode: String,
    /// The revision.
    pub revision: String,
    /// Whether the server made it as a sample (with expected results).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_sample: Option<bool>,
    /// The test groups.
    pub test_groups: Vec<G>,
}

/// A response's (or expected result's) test group: its id and its cases, each with its own.
pub trait ResponseGroup {
    /// A case's answer.
    type Case;
    /// The group's id.
    fn tg_id(&self) -> u64;
    /// The cases.
    fn cases(&self) -> &[Self::Case];
    /// A case's id.
    fn tc_id(case: &Self::Case) -> u64;
}

impl<G: ResponseGroup> VectorSet<G> {
    /// The answer to case `tc` of group `tg`, if the set has one.
    pub fn case(&self, tg: u64, tc: u64) -> Option<&G::Case> {
        self.test_groups
            .iter()
            .find(|g| g.tg_id() == tg)
            .and_then(|g| g.cases().iter().find(|c| G::tc_id(c) == tc))
    }
}

/// [`ResponseGroup`] for groups with fields `tg_id` and `tests`, whose cases have a `tc_id`.
macro_rules! response_group {
    ($($group:ty => $case:ty),* $(,)?) => {$(
        impl ResponseGroup for $group {
            type Case = $case;
            fn tg_id(&self) -> u64 {
                self.tg_id
            }
            fn cases(&self) -> &[$case] {
                &self.tests
            }
            fn tc_id(case: &$case) -> u64 {
                case.tc_id
            }
        }
    )*};
}

response_group!(
    VerdictGroup => Verdict,
    KeyGenGroupResponse => KeyGenKey,
    PrimitiveGroupResponse => PrimitiveResult,
    DecPrim1GroupResponse => DecPrim1CaseResponse,
);

// ---- sigGen -------------------------------------------------------------------------------

/// The signature scheme of a sigGen or sigVer group (both carry the same fields).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SigParams {
    /// `GDT`.
    #[serde(default)]
    pub test_type: String,
    /// `pkcs1v1.5`, `pss` or `ansx9.31`.
    pub sig_type: String,
    /// The modulus size in bits.
    pub modulo: usize,
    /// `SHA2-256`, `SHA3-512`, `SHAKE-128`, ...
    pub hash_alg: String,
    /// PSS salt length in bytes (present, and meaningless, for PKCS #1 v1.5 too).
    #[serde(default)]
    pub salt_len: Option<usize>,
    /// PSS mask function: `mgf1`, `shake-128`, `shake-256` (`none` for PKCS #1 v1.5).
    #[serde(default)]
    pub mask_function: Option<String>,
    /// `SP800-106` for randomized hashing.
    #[serde(default)]
    pub conformance: Option<String>,
}

/// A sigGen prompt's group (`testType` GDT: the implementation chooses its key).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SigGenGroup {
    /// The group's id.
    pub tg_id: u64,
    /// The scheme.
    #[serde(flatten)]
    pub params: SigParams,
    /// The messages to sign.
    pub tests: Vec<MessageCase>,
}

/// A test case carrying a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageCase {
    /// The case's id.
    pub tc_id: u64,
    /// The message.
    pub message: Hex,
}

/// A sigGen response's (and expected result's) group: the key and the signatures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SigGenGroupResponse {
    /// The group's id.
    pub tg_id: u64,
    /// The modulus of the key that signed.
    pub n: Hex,
    /// Its public exponent.
    pub e: Hex,
    /// The signatures.
    pub tests: Vec<SignatureCase>,
}

/// A test case's signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignatureCase {
    /// The case's id.
    pub tc_id: u64,
    /// SP 800-106 groups: the random value the signer drew.
    #[serde(flatten)]
    pub random_value: RandomValue,
    /// The signature, k bytes.
    pub signature: Hex,
}

// ---- sigVer -------------------------------------------------------------------------------

/// The random value of an SP 800-106 (randomized hashing) case: none in other groups.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct RandomValue {
    /// The random value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random_value: Option<Hex>,
    /// Its length in bits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random_value_len: Option<usize>,
}

impl RandomValue {
    /// The value and its length in bits (whole bytes if unsaid), if there is one.
    pub fn get(&self) -> Option<(&[u8], usize)> {
        self.random_value.as_ref().map(|r| {
            (
                r.0.as_slice(),
                self.random_value_len.unwrap_or(8 * r.0.len()),
            )
        })
    }
}

/// A sigVer prompt's group: a public key and signatures to judge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SigVerGroup {
    /// The group's id.
    pub tg_id: u64,
    /// The scheme.
    #[serde(flatten)]
    pub params: SigParams,
    /// The modulus.
    pub n: Hex,
    /// The public exponent.
    pub e: Hex,
    /// The signatures.
    pub tests: Vec<SigVerCase>,
}

/// A signature to judge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SigVerCase {
    /// The case's id.
    pub tc_id: u64,
    /// The message.
    pub message: Hex,
    /// SP 800-106 groups: the signer's random value.
    #[serde(flatten)]
    pub random_value: RandomValue,
    /// The signature.
    pub signature: Hex,
}

/// A group of verdicts (sigVer's response and expected results; keyGen KAT).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerdictGroup {
    /// The group's id.
    pub tg_id: u64,
    /// The verdicts.
    pub tests: Vec<Verdict>,
}

/// One verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    /// The case's id.
    pub tc_id: u64,
    /// Whether the signature (or the candidate) is valid.
    pub test_passed: bool,
}

// ---- keyGen -------------------------------------------------------------------------------

/// A keyGen prompt's group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyGenGroup {
    /// The group's id.
    pub tg_id: u64,
    /// `AFT`, `GDT` or `KAT`.
    pub test_type: String,
    /// Whether the server gives the prime-generation inputs (seed, bitlens, xP, ...).
    #[serde(default)]
    pub info_generated_by_server: bool,
    /// The modulus size in bits.
    pub modulo: usize,
    /// `standard` (d) or `crt` (dmp1, dmq1, iqmp).
    #[serde(default)]
    pub key_format: Option<String>,
    /// The prime construction: `provable`, `probable`, `provableWithProvableAux`,
    /// `probableWithProvableAux`, `probableWithProbableAux` (FIPS 186-5) or the FIPS 186-4
    /// section names `B.3.2` .. `B.3.6`.
    #[serde(rename = "randPQ")]
    pub rand_pq: String,
    /// `random` or `fixed`.
    #[serde(default)]
    pub pub_exp: Option<String>,
    /// The fixed public exponent, when `pubExp` is `fixed`.
    #[serde(default)]
    pub fixed_pub_exp: Option<Hex>,
    /// The hash of the seed-based constructions.
    #[serde(default)]
    pub hash_alg: Option<String>,
    /// `2powSecStr`, `2pow100` (FIPS 186-5) or `tblC2`, `tblC3` (FIPS 186-4).
    #[serde(default)]
    pub prime_test: Option<String>,
    /// The cases.
    pub tests: Vec<KeyGenCase>,
}

/// A keyGen prompt's case: the inputs the server gives (all optional).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct KeyGenCase {
    /// The case's id.
    pub tc_id: u64,
    /// The public exponent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub e: Option<Hex>,
    /// The prime-generation inputs (seed, bitlens, xP, ...), where the server gives them.
    #[serde(flatten)]
    pub inputs: KeyGenInputs,
    /// KAT groups: the candidate p to judge (FIPS 186-4 B.3.3 steps 4.2–4.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p: Option<Hex>,
    /// KAT groups: the candidate q (steps 5.2–5.6); `""` when the server's p already fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<Hex>,
}

/// A keyGen response's (and expected result's) group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyGenGroupResponse {
    /// The group's id.
    pub tg_id: u64,
    /// The keys.
    pub tests: Vec<KeyGenKey>,
}

/// A generated key, as ACVP writes it; for a KAT group, the verdict alone (`testPassed`,
/// the key fields empty and left out).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct KeyGenKey {
    /// The case's id.
    pub tc_id: u64,
    /// KAT groups: whether the candidates p and q make a key (FIPS 186-4 B.3.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test_passed: Option<bool>,
    /// The inputs echoed (seed, bitlens, xP, ...) where the server gave them.
    #[serde(flatten)]
    pub inputs: KeyGenInputs,
    /// The modulus.
    #[serde(default, skip_serializing_if = "Hex::is_empty")]
    pub n: Hex,
    /// The public exponent.
    #[serde(default, skip_serializing_if = "Hex::is_empty")]
    pub e: Hex,
    /// The first prime.
    #[serde(default, skip_serializing_if = "Hex::is_empty")]
    pub p: Hex,
    /// The second prime.
    #[serde(default, skip_serializing_if = "Hex::is_empty")]
    pub q: Hex,
    /// The private exponent (`standard` format).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d: Option<Hex>,
    /// d mod (p − 1) (`crt` format).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dmp1: Option<Hex>,
    /// d mod (q − 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dmq1: Option<Hex>,
    /// q⁻¹ mod p.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iqmp: Option<Hex>,
}

/// The prime-generation inputs: given by the server in a prompt's case, echoed in a response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct KeyGenInputs {
    /// The seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<Hex>,
    /// Bit lengths of p1, p2, q1, q2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bitlens: Option<Vec<usize>>,
    /// xP.
    #[serde(rename = "xP", default, skip_serializing_if = "Option::is_none")]
    pub x_p: Option<Hex>,
    /// xQ.
    #[serde(rename = "xQ", default, skip_serializing_if = "Option::is_none")]
    pub x_q: Option<Hex>,
    /// xP1.
    #[serde(rename = "xP1", default, skip_serializing_if = "Option::is_none")]
    pub x_p1: Option<Hex>,
    /// xP2.
    #[serde(rename = "xP2", default, skip_serializing_if = "Option::is_none")]
    pub x_p2: Option<Hex>,
    /// xQ1.
    #[serde(rename = "xQ1", default, skip_serializing_if = "Option::is_none")]
    pub x_q1: Option<Hex>,
    /// xQ2.
    #[serde(rename = "xQ2", default, skip_serializing_if = "Option::is_none")]
    pub x_q2: Option<Hex>,
}

// ---- signaturePrimitive and decryptionPrimitive ------------------------------------------

/// A primitive prompt's group (signaturePrimitive 1.0 and 2.0, decryptionPrimitive
/// Sp800-56Br2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrimitiveGroup {
    /// The group's id.
    pub tg_id: u64,
    /// `AFT`.
    #[serde(default)]
    pub test_type: String,
    /// The modulus size in bits.
    #[serde(default)]
    pub modulo: Option<usize>,
    /// `standard` or `crt` (2.0 and Sp800-56Br2).
    #[serde(default)]
    pub key_mode: Option<String>,
    /// `standard` or `crt`: signaturePrimitive 1.0's name for `keyMode`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_format: Option<String>,
    /// The cases.
    pub tests: Vec<PrimitiveCase>,
}

/// A primitive prompt's case: a private key and the input (`message` to sign, `ct` to
/// decrypt). The server writes the key values it does not use as empty strings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrimitiveCase {
    /// The case's id.
    pub tc_id: u64,
    /// signaturePrimitive's input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<Hex>,
    /// decryptionPrimitive's input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ct: Option<Hex>,
    /// The modulus.
    pub n: Hex,
    /// The public exponent.
    pub e: Hex,
    /// The first prime.
    #[serde(default)]
    pub p: Hex,
    /// The second prime.
    #[serde(default)]
    pub q: Hex,
    /// The private exponent (`standard`).
    #[serde(default)]
    pub d: Hex,
    /// d mod (p − 1) (`crt`).
    #[serde(default)]
    pub dmp1: Hex,
    /// d mod (q − 1) (`crt`).
    #[serde(default)]
    pub dmq1: Hex,
    /// q⁻¹ mod p (`crt`).
    #[serde(default)]
    pub iqmp: Hex,
}

/// A primitive response's (and expected result's) group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrimitiveGroupResponse {
    /// The group's id.
    pub tg_id: u64,
    /// The results.
    pub tests: Vec<PrimitiveResult>,
}

/// A primitive's result: the output when the input was in range, else `testPassed: false`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrimitiveResult {
    /// The case's id.
    pub tc_id: u64,
    /// Whether the operation could be carried out.
    pub test_passed: bool,
    /// signaturePrimitive's output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Hex>,
    /// decryptionPrimitive's output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pt: Option<Hex>,
}

// ---- decryptionPrimitive 1.0 --------------------------------------------------------------

/// A decryptionPrimitive 1.0 prompt's group: ciphertexts only; the implementation brings its
/// own keys, one per ciphertext, and must make `totalFailingCases` of each case's
/// ciphertexts fail (out of range for the key it chose).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecPrim1Group {
    /// The group's id.
    pub tg_id: u64,
    /// `AFT`.
    #[serde(default)]
    pub test_type: String,
    /// The modulus size in bits (2048, the only size 1.0 allows).
    #[serde(default)]
    pub modulo: Option<usize>,
    /// How many ciphertexts each case holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_test_cases: Option<usize>,
    /// How many of them the implementation must answer with `testPassed: false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_failing_cases: Option<usize>,
    /// The cases.
    pub tests: Vec<DecPrim1Case>,
}

/// A decryptionPrimitive 1.0 case: a list of ciphertexts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecPrim1Case {
    /// The case's id.
    pub tc_id: u64,
    /// The ciphertexts.
    pub results_array: Vec<CipherText>,
}

/// One ciphertext of a decryptionPrimitive 1.0 case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CipherText {
    /// The ciphertext.
    pub cipher_text: Hex,
}

/// A decryptionPrimitive 1.0 response's (and expected result's) group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecPrim1GroupResponse {
    /// The group's id.
    pub tg_id: u64,
    /// The cases.
    pub tests: Vec<DecPrim1CaseResponse>,
}

/// A decryptionPrimitive 1.0 case's answers, one per ciphertext, in the prompt's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecPrim1CaseResponse {
    /// The case's id.
    pub tc_id: u64,
    /// The answers.
    pub results_array: Vec<DecPrim1Result>,
}

/// The answer for one ciphertext: the key the implementation chose and, when the ciphertext
/// is in range for it, the plaintext.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DecPrim1Result {
    /// The public exponent of the key used.
    pub e: Hex,
    /// Its modulus.
    pub n: Hex,
    /// The plaintext, when `testPassed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plain_text: Option<Hex>,
    /// Whether the ciphertext was decrypted (in range: 1 < c < n − 1).
    pub test_passed: bool,
}
