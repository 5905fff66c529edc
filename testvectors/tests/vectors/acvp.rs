//! NIST ACVP RSA vector sets: every set under `data/acvp/` answered and checked with no
//! failure; the answers' JSON parses back through the same types; the checks catch wrong
//! answers; unsupported modes are refused by name; malformed input is an error, not a panic.
//!
//! The expected values are NIST's (`expectedResults.json` of its sample sets) or, for the
//! `-local` sets, Python's (`data/acvp/tools/make_primitive_sets.py` and
//! `make_issue32_sets.py`).

#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::PathBuf;

use num_bigint::BigUint;
use testvectors::acvp::{self, Mode, types};
use testvectors::{Error, HashAlg};

fn dir(name: &str) -> PathBuf {
    testvectors::data_dir().join("acvp").join(name)
}

fn read(name: &str, file: &str) -> String {
    fs::read_to_string(dir(name).join(file)).unwrap()
}

fn rng() -> rsatool_rsa::OsRng {
    rsatool_rsa::os_rng()
}

/// Answers and checks one shared set; returns (passed, failed, refused groups).
fn run(name: &str) -> (usize, usize, usize) {
    let prompt = read(name, "prompt.json");
    let expected = read(name, "expectedResults.json");
    let answer = acvp::answer(&prompt, &mut rng()).unwrap();
    let checks = acvp::check(&prompt, &answer.json, Some(&expected)).unwrap();
    for c in &checks {
        eprintln!("{c}");
        for f in &c.failures {
            eprintln!("  {f}");
        }
    }
    let refused = checks.iter().filter(|c| c.refused.is_some()).count();
    assert_eq!(refused, answer.refused.len(), "{name}: refusals agree");
    (
        checks.iter().map(|c| c.passed).sum(),
        checks.iter().map(|c| c.failed()).sum(),
        refused,
    )
}

#[test]
fn nist_sig_ver_sample_is_answered_with_every_verdict_right() {
    // 45 groups × 6 = 270 cases (SOURCES.md); SHA2-256 PKCS #1 v1.5, SHA3-256 and SHAKE PSS
    // over MGF1 and SHAKE masks: none refused.
    assert_eq!(run("RSA-SigVer-FIPS186-5"), (270, 0, 0));
}

#[test]
fn nist_sig_gen_sample_is_answered_and_every_signature_verifies() {
    // 33 groups, 96 cases, 15 of the groups (45 cases) with SP 800-106 randomized hashing.
    assert_eq!(run("RSA-SigGen-FIPS186-5"), (96, 0, 0));
}

#[test]
fn nist_own_signatures_check_out_as_answers_but_for_the_sha3_digest_info_quirk() {
    // NIST's expected results (its keys, signatures and SP 800-106 random values) checked
    // as a response: every signature verifies with our SHA-2/SHAKE PSS and PKCS #1 v1.5 and
    // our SP 800-106, except the 18 PKCS #1 v1.5 SHA3-512 ones (groups 2, 4, 6, 17, 19, 21),
    // whose DigestInfo is the server's malformed one (see the next test).
    let name = "RSA-SigGen-FIPS186-5";
    let prompt = read(name, "prompt.json");
    let expected = read(name, "expectedResults.json");
    let checks = acvp::check(&prompt, &expected, None).unwrap();
    let failed: Vec<u64> = checks
        .iter()
        .filter(|c| c.failed() > 0)
        .map(|c| c.tg_id)
        .collect();
    assert_eq!(failed, [2, 4, 6, 17, 19, 21]);
    assert_eq!(checks.iter().map(|c| c.passed).sum::<usize>(), 96 - 18);
}

#[test]
fn nist_key_gen_sample_reproduces_the_expected_keys() {
    // Groups 1–4 (12 cases) compared exactly with NIST's n, e, p, q, dmp1, dmq1, iqmp;
    // group 5 (3 cases) our own 3072-bit keys, validated.
    assert_eq!(run("RSA-KeyGen-FIPS186-5"), (15, 0, 0));
}

#[test]
fn primitive_sets_are_answered_with_pythons_results() {
    assert_eq!(run("RSA-SignaturePrimitive-2.0-local"), (15, 0, 0));
    assert_eq!(run("RSA-DecryptionPrimitive-Sp800-56Br2-local"), (15, 0, 0));
}

#[test]
fn run_dir_runs_every_shipped_set() {
    // What `rsatool kat` runs; the sigGen and keyGen sets are the slow ones and run above,
    // so this goes over the quick ones (the folder of a single set works too).
    for name in ["RSA-SigVer-FIPS186-5", "RSA-SignaturePrimitive-2.0-local"] {
        let sets = acvp::run_dir(&dir(name), &mut rng()).unwrap();
        assert_eq!(sets.len(), 1);
        assert!(sets[0].passed() > 0 && sets[0].failed() == 0, "{name}");
    }
}

#[test]
fn every_mode_response_parses_back_through_its_types() {
    use types::*;
    let small = [
        ("RSA-SigVer-FIPS186-5", Mode::SigVer),
        ("RSA-SignaturePrimitive-2.0-local", Mode::SignaturePrimitive),
        (
            "RSA-DecryptionPrimitive-Sp800-56Br2-local",
            Mode::DecryptionPrimitive,
        ),
    ];
    for (name, mode) in small {
        let answer = acvp::answer(&read(name, "prompt.json"), &mut rng()).unwrap();
        assert_eq!(answer.mode, mode);
        match mode {
            Mode::SigVer => {
                let (_, r): (_, VectorSet<VerdictGroup>) = acvp::parse(&answer.json).unwrap();
                assert_eq!(r.test_groups.len(), 45);
                assert!(!answer.json.contains("\"n\""), "verdicts only");
            }
            _ => {
                let (_, r): (_, VectorSet<PrimitiveGroupResponse>) =
                    acvp::parse(&answer.json).unwrap();
                assert_eq!(
                    r.test_groups.iter().map(|g| g.tests.len()).sum::<usize>(),
                    15
                );
            }
        }
    }
    // sigGen: a small prompt (one group) so that the test generates one key only.
    let prompt = r#"{"vsId": 7, "algorithm": "RSA", "mode": "sigGen", "revision": "FIPS186-5",
        "testGroups": [{"tgId": 1, "sigType": "pss", "modulo": 2048, "hashAlg": "SHAKE-256",
        "saltLen": 64, "maskFunction": "shake-256", "testType": "GDT",
        "tests": [{"tcId": 1, "message": "00FF"}, {"tcId": 2, "message": ""}]}]}"#;
    let answer = acvp::answer(prompt, &mut rng()).unwrap();
    let (_, r): (_, VectorSet<SigGenGroupResponse>) = acvp::parse(&answer.json).unwrap();
    assert_eq!(r.vs_id, 7);
    assert_eq!(r.test_groups[0].n.0.len(), 256);
    assert_eq!(r.test_groups[0].tests[1].signature.0.len(), 256);
    // Hex is written in upper case, as the server writes it.
    let sig = &answer.json[answer.json.find("\"signature\": \"").unwrap() + 14..][..64];
    assert!(
        sig.chars()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase()),
        "{sig}"
    );
    let checks = acvp::check(prompt, &answer.json, None).unwrap();
    assert_eq!((checks[0].passed, checks[0].failed()), (2, 0));
}

#[test]
fn the_servers_array_shape_is_answered_in_kind() {
    let prompt = read("RSA-SignaturePrimitive-2.0-local", "prompt.json");
    let wrapped = format!("[{{\"acvVersion\": \"1.0\"}}, {prompt}]");
    let answer = acvp::answer(&wrapped, &mut rng()).unwrap();
    assert!(answer.json.trim_start().starts_with('['));
    assert!(answer.json.contains("\"acvVersion\": \"1.0\""));
    let expected = read("RSA-SignaturePrimitive-2.0-local", "expectedResults.json");
    let checks = acvp::check(&wrapped, &answer.json, Some(&expected)).unwrap();
    assert_eq!(checks.iter().map(|c| c.passed).sum::<usize>(), 15);
}

#[test]
fn checks_catch_wrong_answers() {
    // sigVer: one verdict flipped.
    let name = "RSA-SigVer-FIPS186-5";
    let prompt = read(name, "prompt.json");
    let expected = read(name, "expectedResults.json");
    let answer = acvp::answer(&prompt, &mut rng()).unwrap();
    let flipped = answer
        .json
        .replacen("\"testPassed\": true", "\"testPassed\": false", 1);
    let checks = acvp::check(&prompt, &flipped, Some(&expected)).unwrap();
    assert_eq!(checks.iter().map(|c| c.failed()).sum::<usize>(), 1);

    // Primitives: an output changed, and the validation without expected results.
    let name = "RSA-DecryptionPrimitive-Sp800-56Br2-local";
    let prompt = read(name, "prompt.json");
    let answer = acvp::answer(&prompt, &mut rng()).unwrap();
    let checks = acvp::check(&prompt, &answer.json, None).unwrap();
    assert_eq!(checks.iter().map(|c| c.failed()).sum::<usize>(), 0);
    let pos = answer.json.find("\"pt\": \"").unwrap() + 7;
    let mut bad = answer.json.clone();
    let digit = if &bad[pos + 10..pos + 11] == "0" {
        "1"
    } else {
        "0"
    };
    bad.replace_range(pos + 10..pos + 11, digit);
    let expected = read(name, "expectedResults.json");
    for x in [None, Some(expected.as_str())] {
        let checks = acvp::check(&prompt, &bad, x).unwrap();
        assert_eq!(
            checks.iter().map(|c| c.failed()).sum::<usize>(),
            1,
            "{}",
            x.is_some()
        );
    }

    // keyGen: an answer with p and q swapped differs from the expected key; a validated key
    // whose d is off fails validation.
    let name = "RSA-KeyGen-FIPS186-5";
    let prompt = read(name, "prompt.json");
    let expected = read(name, "expectedResults.json");
    let (_, mut response): (_, types::VectorSet<types::KeyGenGroupResponse>) =
        acvp::parse(&expected).unwrap();
    let checks = acvp::check(
        &prompt,
        &serde_json::to_string(&response).unwrap(),
        Some(&expected),
    )
    .unwrap();
    // NIST's own answers pass (group 5's key too: it is validated like ours).
    assert_eq!(checks.iter().map(|c| c.failed()).sum::<usize>(), 0);
    let k = &mut response.test_groups[0].tests[0];
    std::mem::swap(&mut k.p, &mut k.q);
    let k = &mut response.test_groups[4].tests[0];
    let dmp1 = k.dmp1.as_mut().unwrap();
    let last = dmp1.0.len() - 1;
    dmp1.0[last] ^= 2;
    let checks = acvp::check(
        &prompt,
        &serde_json::to_string(&response).unwrap(),
        Some(&expected),
    )
    .unwrap();
    let failures: Vec<&String> = checks.iter().flat_map(|c| &c.failures).collect();
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(failures[0].contains("p differs"), "{}", failures[0]);
    assert!(failures[1].contains("dmp1"), "{}", failures[1]);
}

#[test]
fn nist_own_sig_gen_signatures_verify_with_our_sha3_and_shake() {
    // NIST's expected results hold its keys and signatures: PSS (SHA2-256, SHAKE-128,
    // SHAKE-256; MGF1, SHAKE masks) must verify with our code; PKCS #1 v1.5 with SHA3-512
    // opens (s^e mod n, num-bigint) to the server's quirky DigestInfo (30 4f 30 0b ..,
    // ACVP-Server issues 256/257) around our SHA3-512 digest, which our DER-correct verifier
    // rightly rejects.
    let name = "RSA-SigGen-FIPS186-5";
    let (_, prompt): (_, types::VectorSet<types::SigGenGroup>) =
        acvp::parse(&read(name, "prompt.json")).unwrap();
    let (_, expected): (_, types::VectorSet<types::SigGenGroupResponse>) =
        acvp::parse(&read(name, "expectedResults.json")).unwrap();
    let (mut verified, mut quirks) = (0, 0);
    for g in prompt
        .test_groups
        .iter()
        .filter(|g| g.params.conformance.is_none())
    {
        let x = expected
            .test_groups
            .iter()
            .find(|x| x.tg_id == g.tg_id)
            .unwrap();
        let key = rsatool_rsa::RsaPublicKey::from_parts(&rsatool_rsa::PublicKeyParts {
            n: x.n.0.clone(),
            e: x.e.0.clone(),
        })
        .unwrap();
        let hash: HashAlg = g.params.hash_alg.parse().unwrap();
        for t in &g.tests {
            let sig = &x
                .tests
                .iter()
                .find(|s| s.tc_id == t.tc_id)
                .unwrap()
                .signature
                .0;
            if g.params.sig_type == "pss" {
                let mut pss = rsatool_rsa::Pss::new(hash)
                    .with_salt_len(rsatool_rsa::SaltLen::Exact(g.params.salt_len.unwrap()));
                pss = match g.params.mask_function.as_deref() {
                    Some("shake-128") => pss.with_mgf(rsatool_rsa::Mgf::Shake128),
                    Some("shake-256") => pss.with_mgf(rsatool_rsa::Mgf::Shake256),
                    _ => pss.with_mgf(rsatool_rsa::Mgf::Mgf1),
                };
                key.verify(&pss, &t.message.0, sig).unwrap();
                verified += 1;
            } else if hash == HashAlg::Sha3_512 {
                let em = BigUint::from_bytes_be(sig)
                    .modpow(
                        &BigUint::from_bytes_be(&x.e.0),
                        &BigUint::from_bytes_be(&x.n.0),
                    )
                    .to_bytes_be();
                let mut t_want = vec![
                    0x30, 0x4f, 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04,
                    0x02, 0x0a, 0x05, 0x00, 0x04, 0x40,
                ];
                t_want.extend(hash.digest(&t.message.0));
                assert!(em.ends_with(&t_want), "tcId {}", t.tc_id);
                assert!(
                    key.verify(&rsatool_rsa::Pkcs1v15Sign::new(hash), &t.message.0, sig)
                        .is_err()
                );
                quirks += 1;
            } else {
                key.verify(&rsatool_rsa::Pkcs1v15Sign::new(hash), &t.message.0, sig)
                    .unwrap();
                verified += 1;
            }
        }
    }
    assert_eq!((verified, quirks), (51 - 9, 9));
}

#[test]
fn modes_and_groups_we_do_not_support_are_refused_by_name() {
    let set = |algorithm: &str, mode: &str, revision: &str| {
        format!(
            r#"{{"vsId": 1, "algorithm": "{algorithm}", "mode": "{mode}", "revision": "{revision}", "testGroups": []}}"#
        )
    };
    for (alg, mode, rev, needle) in [
        ("ECDSA", "sigGen", "FIPS186-5", "not an RSA vector set"),
        ("RSA", "legacySigVer", "FIPS186-4", "legacySigVer"),
        (
            "RSA",
            "decryptionPrimitive",
            "Sp800-56Br1",
            "decryptionPrimitive / Sp800-56Br1",
        ),
        ("RSA", "sigGen", "FIPS186-2", "FIPS186-2"),
        ("RSA", "keyGen", "FIPS186-2", "FIPS186-2"),
        (
            "RSA",
            "signaturePrimitive",
            "3.0",
            "signaturePrimitive / 3.0",
        ),
    ] {
        match acvp::answer(&set(alg, mode, rev), &mut rng()) {
            Err(Error::Acvp(m)) => assert!(m.contains(needle) && m.contains("unsupported"), "{m}"),
            other => panic!("{alg} {mode} {rev}: {other:?}"),
        }
    }
    // A FIPS 186-4 sigVer set (a revision not in the shared files) with an X9.31 group and
    // a PKCS #1 v1.5 SHA-1 group with an invalid signature: the first refused, the second
    // answered.
    let prompt = r#"{"vsId": 2, "algorithm": "RSA", "mode": "sigVer", "revision": "FIPS186-4",
        "testGroups": [
          {"tgId": 1, "sigType": "ansx9.31", "modulo": 2048, "hashAlg": "SHA2-256",
           "n": "C5", "e": "03", "tests": [{"tcId": 1, "message": "00", "signature": "00"}]},
          {"tgId": 2, "sigType": "pkcs1v1.5", "modulo": 1024, "hashAlg": "SHA-1",
           "n": "D7", "e": "010001", "tests": [{"tcId": 2, "message": "00", "signature": "01"}]}
        ]}"#;
    let answer = acvp::answer(prompt, &mut rng()).unwrap();
    assert_eq!(answer.refused.len(), 1);
    assert!(
        answer.refused[0].why.contains("ANSI X9.31"),
        "{}",
        answer.refused[0]
    );
    let (_, r): (_, types::VectorSet<types::VerdictGroup>) = acvp::parse(&answer.json).unwrap();
    assert_eq!(r.test_groups.len(), 1);
    assert!(!r.test_groups[0].tests[0].test_passed);
    // SP 800-106 with a hash we cannot hash bit strings with, and keyGen KAT, likewise.
    let prompt = r#"{"vsId": 4, "algorithm": "RSA", "mode": "sigGen", "revision": "FIPS186-5",
        "testGroups": [{"tgId": 1, "sigType": "pkcs1v1.5", "modulo": 2048, "hashAlg": "SHA2-384",
        "conformance": "SP800-106", "tests": [{"tcId": 1, "message": "00"}]}]}"#;
    let answer = acvp::answer(prompt, &mut rng()).unwrap();
    assert!(
        answer.refused[0].why.contains("SP 800-106"),
        "{}",
        answer.refused[0]
    );
    // keyGen KAT is defined for probable primes (B.3.3) only; one for provable primes is
    // refused, and a B.3.3 case without candidates is answered `false`, not refused.
    let prompt = r#"{"vsId": 3, "algorithm": "RSA", "mode": "keyGen", "revision": "FIPS186-4",
        "testGroups": [{"tgId": 1, "testType": "KAT", "modulo": 2048, "randPQ": "B.3.2",
        "tests": [{"tcId": 1}]},
        {"tgId": 2, "testType": "KAT", "modulo": 2048, "randPQ": "B.3.3",
        "tests": [{"tcId": 2}]}]}"#;
    let answer = acvp::answer(prompt, &mut rng()).unwrap();
    assert_eq!(answer.refused.len(), 1);
    assert!(
        answer.refused[0].why.contains("KAT") && answer.refused[0].why.contains("B.3.2"),
        "{}",
        answer.refused[0]
    );
    let (_, r): (_, types::VectorSet<types::KeyGenGroupResponse>) =
        acvp::parse(&answer.json).unwrap();
    assert_eq!(r.test_groups.len(), 1);
    assert_eq!(r.test_groups[0].tests[0].test_passed, Some(false));
    // An X9.31 group in a FIPS 186-2 sigVer set is refused like one in 186-4 (see the local
    // set's test), and legacySigVer is sigVer FIPS186-2 under the spec's other name.
    let legacy = set("RSA", "legacySigVer", "FIPS186-2");
    assert_eq!(acvp::mode_of(&legacy).unwrap(), Mode::SigVer);
}

#[test]
fn malformed_input_is_an_error_never_a_panic() {
    let good = read("RSA-SigVer-FIPS186-5", "prompt.json");
    let cut = &good[..good.len() >> 1];
    let cases: Vec<String> = vec![
        String::new(),
        "{".to_owned(),
        "[]".to_owned(),
        "[{\"acvVersion\": \"1.0\"}]".to_owned(),
        "null".to_owned(),
        cut.to_owned(),
        good.replacen("\"tcId\": 1,", "\"tcId\": \"one\",", 1),
        good.replacen("\"n\": \"", "\"n\": \"XY", 1),
        good.replacen("\"n\": \"", "\"n\": \"0", 1),
        good.replacen("\"modulo\": 2048", "\"modulo\": -1", 1),
        good.replacen("\"sigType\"", "\"sigKind\"", 1),
    ];
    for text in &cases {
        match acvp::answer(text, &mut rng()) {
            Err(Error::Parse { .. } | Error::Acvp(_)) => {}
            other => panic!("{:?}: {other:?}", &text[..text.len().min(40)]),
        }
    }
    // A response for another vector set is refused; a response with garbage is an error.
    let expected = read("RSA-SigVer-FIPS186-5", "expectedResults.json");
    let other = expected.replacen("\"vsId\": 0", "\"vsId\": 9", 1);
    assert!(matches!(
        acvp::check(&good, &other, Some(&expected)),
        Err(Error::Acvp(_))
    ));
    assert!(matches!(
        acvp::check(&good, "[1, 2]", Some(&expected)),
        Err(Error::Parse { .. })
    ));
    // sigVer cannot be checked without expected results.
    assert!(matches!(
        acvp::check(&good, &expected, None),
        Err(Error::Acvp(_))
    ));
}

/// Parses a set's expected results as the response type `T`, edits it, and checks it as an
/// answer against the prompt (and the expected results): the number of failed cases.
fn failures_after<T, F>(name: &str, edit: F, with_expected: bool) -> usize
where
    T: serde::de::DeserializeOwned + serde::Serialize,
    F: FnOnce(&mut types::VectorSet<T>),
{
    let prompt = read(name, "prompt.json");
    let expected = read(name, "expectedResults.json");
    let (_, mut response): (_, types::VectorSet<T>) = acvp::parse(&expected).unwrap();
    edit(&mut response);
    let json = serde_json::to_string(&response).unwrap();
    let checks = acvp::check(&prompt, &json, with_expected.then_some(expected.as_str())).unwrap();
    checks.iter().map(|c| c.failed()).sum()
}

#[test]
fn key_gen_kat_verdicts_are_pythons_for_fips186_4_and_186_5() {
    // B.3.3 / probable candidates (2048 and 3072 bits): passing pairs (e of 24 bits and of
    // 256, p the smallest prime above √2·2^(nlen/2 − 1)), and one of each way to fail: p
    // composite, below the bound, a bit short, GCD(p − 1, e) > 1; q composite, below the
    // bound, too close to p, equal to p, a bit long; e below 2^16. Verdicts from Python.
    assert_eq!(run("RSA-KeyGen-FIPS186-4-KAT-local"), (30, 0, 0));
    assert_eq!(run("RSA-KeyGen-FIPS186-5-KAT-local"), (30, 0, 0));
    // The verdicts are not all alike: the set can catch an answer that always says one thing.
    let (_, x): (_, types::VectorSet<types::KeyGenGroupResponse>) = acvp::parse(&read(
        "RSA-KeyGen-FIPS186-4-KAT-local",
        "expectedResults.json",
    ))
    .unwrap();
    let verdicts: Vec<bool> = x
        .test_groups
        .iter()
        .flat_map(|g| g.tests.iter().map(|t| t.test_passed.unwrap()))
        .collect();
    let passed = verdicts.iter().filter(|&&v| v).count();
    assert!(passed >= 6 && verdicts.len() - passed >= 12, "{passed}");
}

#[test]
fn key_gen_kat_checks_catch_a_flipped_verdict_and_need_the_expected_results() {
    let name = "RSA-KeyGen-FIPS186-4-KAT-local";
    let flip = |r: &mut types::VectorSet<types::KeyGenGroupResponse>| {
        let t = &mut r.test_groups[1].tests[3];
        t.test_passed = t.test_passed.map(|v| !v);
    };
    assert_eq!(failures_after(name, flip, true), 1);
    let drop = |r: &mut types::VectorSet<types::KeyGenGroupResponse>| {
        r.test_groups[0].tests.remove(0);
    };
    assert_eq!(failures_after(name, drop, true), 1);
    let prompt = read(name, "prompt.json");
    assert!(matches!(
        acvp::check(&prompt, &read(name, "expectedResults.json"), None),
        Err(Error::Acvp(m)) if m.contains("--expected")
    ));
    // A modulus size no key has is a `false`, at once: not an allocation of 2^(nlen − 1) (128 GiB
    // here, which aborts the process without the guard).
    let huge = prompt.replacen("\"modulo\": 2048", "\"modulo\": 1099511627776", 1);
    let answer = acvp::answer(&huge, &mut rng()).unwrap();
    let (_, r): (_, types::VectorSet<types::KeyGenGroupResponse>) =
        acvp::parse(&answer.json).unwrap();
    assert!(
        r.test_groups[0]
            .tests
            .iter()
            .all(|t| t.test_passed == Some(false))
    );
}

#[test]
fn signature_primitive_1_0_is_answered_with_pythons_signatures() {
    // Two 2048-bit groups (keyFormat standard: n, e, d; crt: p, q, dmp1, dmq1, iqmp), six
    // messages each, three of them not below n (n, n + 1, 2^2048 − 1).
    assert_eq!(run("RSA-SignaturePrimitive-1.0-local"), (12, 0, 0));
    let prompt = read("RSA-SignaturePrimitive-1.0-local", "prompt.json");
    let answer = acvp::answer(&prompt, &mut rng()).unwrap();
    assert_eq!(answer.mode, Mode::SignaturePrimitive);
    let (_, r): (_, types::VectorSet<types::PrimitiveGroupResponse>) =
        acvp::parse(&answer.json).unwrap();
    let refused = r
        .test_groups
        .iter()
        .flat_map(|g| &g.tests)
        .filter(|t| !t.test_passed)
        .count();
    assert_eq!(refused, 6);
    let checks = acvp::check(&prompt, &answer.json, None).unwrap();
    assert!(checks[1].what.contains("crt"), "{}", checks[1]);
    // A `standard` key is n, e, d alone: a d that does not belong to e is refused
    // (`testPassed: false`), not answered with a wrong signature (found by acvp_fuzz).
    let (_, mut set): (_, types::VectorSet<types::PrimitiveGroup>) = acvp::parse(&prompt).unwrap();
    let case = &mut set.test_groups[0].tests[4];
    assert!(case.p.0.is_empty() && !case.d.0.is_empty());
    let last = case.d.0.len() - 1;
    case.d.0[last] ^= 2;
    let broken = serde_json::to_string(&set).unwrap();
    let answer = acvp::answer(&broken, &mut rng()).unwrap();
    let (_, r): (_, types::VectorSet<types::PrimitiveGroupResponse>) =
        acvp::parse(&answer.json).unwrap();
    assert!(!r.test_groups[0].tests[4].test_passed);
    let checks = acvp::check(&broken, &answer.json, None).unwrap();
    assert_eq!(checks.iter().map(|c| c.failed()).sum::<usize>(), 0);
}

#[test]
fn decryption_primitive_1_0_is_answered_with_our_keys_and_validated() {
    // Two cases of six ciphertexts, two of which must fail: our answer draws a key per
    // ciphertext, out of range for the two largest, in range for the others.
    let name = "RSA-DecryptionPrimitive-1.0-local";
    assert_eq!(run(name), (2, 0, 0));
    // Python's own answer (its keys, its plaintexts) passes the same validation: the checker
    // agrees with an independent implementation.
    type R = types::DecPrim1GroupResponse;
    assert_eq!(failures_after::<R, _>(name, |_| {}, true), 0);
    assert_eq!(failures_after::<R, _>(name, |_| {}, false), 0);
    // And catches: a plaintext changed, a passing answer turned into a failing one (a count
    // off), a failing one claimed to pass, a key of the wrong size.
    let bad_pt = |r: &mut types::VectorSet<R>| {
        let x = r.test_groups[0].tests[0]
            .results_array
            .iter_mut()
            .find(|x| x.test_passed)
            .unwrap();
        x.plain_text.as_mut().unwrap().0[100] ^= 1;
    };
    assert_eq!(failures_after(name, bad_pt, true), 1);
    let one_more_fail = |r: &mut types::VectorSet<R>| {
        let x = r.test_groups[0].tests[1]
            .results_array
            .iter_mut()
            .find(|x| x.test_passed)
            .unwrap();
        x.test_passed = false;
        x.plain_text = None;
    };
    assert_eq!(failures_after(name, one_more_fail, true), 1);
    let claim_pass = |r: &mut types::VectorSet<R>| {
        let x = r.test_groups[0].tests[0]
            .results_array
            .iter_mut()
            .find(|x| !x.test_passed)
            .unwrap();
        x.test_passed = true;
        x.plain_text = Some(types::Hex(vec![1; 256]));
    };
    assert_eq!(failures_after(name, claim_pass, true), 1);
    let short_n = |r: &mut types::VectorSet<R>| {
        r.test_groups[0].tests[1].results_array[0].n.0.remove(0);
    };
    assert_eq!(failures_after(name, short_n, true), 1);
}

#[test]
fn sig_ver_fips186_2_verdicts_are_pythons_and_x931_is_refused() {
    // PKCS #1 v1.5 (SHA-1 1024, SHA2-256 1536, SHA2-384 2048) and PSS (SHA2-512 salt 62 at
    // 1024 bits, SHA-1 salt 20, SHA2-224 salt 0): a valid signature and four invalid ones each
    // (another message, a flipped bit, another key, another salt length or s = n); the X9.31
    // group refused.
    assert_eq!(run("RSA-SigVer-FIPS186-2-local"), (30, 0, 1));
    let name = "RSA-SigVer-FIPS186-2-local";
    let flip = |r: &mut types::VectorSet<types::VerdictGroup>| {
        r.test_groups[4].tests[0].test_passed ^= true;
    };
    assert_eq!(failures_after(name, flip, true), 1);
    // The same prompt under the old mode name is answered alike.
    let prompt = read(name, "prompt.json").replacen("\"sigVer\"", "\"legacySigVer\"", 1);
    let answer = acvp::answer(&prompt, &mut rng()).unwrap();
    assert_eq!(answer.mode, Mode::SigVer);
    assert!(
        answer.refused[0].why.contains("X9.31"),
        "{}",
        answer.refused[0]
    );
}
