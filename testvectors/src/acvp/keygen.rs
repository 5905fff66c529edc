//! keyGen (FIPS 186-5 Appendix A.1, FIPS 186-4 Appendix B.3).
//!
//! With `infoGeneratedByServer`, the server gives the seed, the auxiliary primes' lengths and
//! the starting values, and the key is reproduced by [`rsatool_rsa::fips186_primes_vartime`]: the
//! expected n, e, p, q and d (or CRT values) are compared exactly. Without, the
//! implementation makes its own key (probable primes, A.1.3), which is validated as the
//! server does: consistent, of the size asked, primes in range, far apart and prime, e as the
//! group says, d large enough.
//!
//! KAT groups (`testType: "KAT"`, randPQ probable / B.3.3) give candidates e, p, q and ask
//! whether random probable-prime generation would accept them: the verdict of [`kat_verdict`],
//! compared with the expected `testPassed`.

use bignum::Nat;
use bignum::prime::{is_probable_prime, sqrt2_times_pow2};
use rsatool_rsa::rand_core::CryptoRng;
use rsatool_rsa::{HashAlg, PrimeMethod, RsaPrivateKey};

use super::sig::respond;
use super::types::{Hex, KeyGenCase, KeyGenGroup, KeyGenGroupResponse, KeyGenKey, VectorSet};
use super::{GroupCheck, Refusal, hash_of, trim};
use crate::{Error, Result};

/// The FIPS 186-5 name of a group's construction (FIPS 186-4 names it by section).
fn method_name(rand_pq: &str) -> &str {
    match rand_pq {
        "B.3.2" => "provable",
        "B.3.3" => "probable",
        "B.3.4" => "provableWithProvableAux",
        "B.3.5" => "probableWithProvableAux",
        "B.3.6" => "probableWithProbableAux",
        other => other,
    }
}

/// The refusal for a group we do not answer, if any.
fn refusal(g: &KeyGenGroup) -> Option<String> {
    let method = method_name(&g.rand_pq);
    if is_kat(g) {
        return (method != "probable").then(|| {
            format!(
                "keyGen KAT with randPQ {} (ACVP defines KATs for probable primes, B.3.3, only)",
                g.rand_pq
            )
        });
    }
    if !matches!(
        method,
        "provable"
            | "probable"
            | "provableWithProvableAux"
            | "probableWithProvableAux"
            | "probableWithProbableAux"
    ) {
        return Some(format!("randPQ {} is not supported", g.rand_pq));
    }
    if g.info_generated_by_server {
        if method == "probable" {
            return Some("randPQ probable with infoGeneratedByServer (no inputs to reproduce) is not supported".to_owned());
        }
        if method != "probableWithProbableAux"
            && let Err(why) = group_hash(g)
        {
            return Some(why);
        }
    } else if method != "probable" {
        return Some(format!(
            "randPQ {method} without infoGeneratedByServer is not supported (we generate probable primes, A.1.3)"
        ));
    }
    None
}

fn is_kat(g: &KeyGenGroup) -> bool {
    g.test_type.eq_ignore_ascii_case("KAT")
}

/// Whether FIPS 186-4 B.3.3 (FIPS 186-5 A.1.3) would accept the candidates p and q for an
/// `nlen`-bit key with public exponent `e`:
/// - e odd, 2^16 < e < 2^256 (step 1);
/// - p ≥ √2·2^(nlen/2 − 1) and below 2^(nlen/2), GCD(p − 1, e) = 1, p prime (steps 4.4–4.5);
/// - q likewise, and |p − q| > 2^(nlen/2 − 100) (steps 5.4–5.6).
///
/// The bound √2·2^(nlen/2 − 1) is compared exactly, as p² ≥ 2^(nlen − 1). Variable time: the
/// candidates are public test data.
pub(crate) fn kat_verdict(nlen: usize, e: &Nat, p: &Nat, q: &Nat) -> bool {
    let half = nlen >> 1;
    // Sizes no key can have are rejected before any arithmetic on them (2^(nlen − 1) below).
    if nlen & 1 == 1 || half < 101 || nlen > rsatool_rsa::MAX_MODULUS_BITS {
        return false;
    }
    if e.is_even() || e.bits() <= 16 || e.bits() > 256 || *e == Nat::one() << 16 {
        return false;
    }
    let low = Nat::one() << (nlen - 1);
    let candidate = |r: &Nat| {
        r.bits() <= half
            && r * r >= low
            && (r - 1u64).gcd(e).is_one()
            && is_probable_prime(r.as_limbs())
    };
    if !candidate(p) || !candidate(q) {
        return false;
    }
    let diff = if p > q { p - q } else { q - p };
    diff.bits() > half - 100
}

fn group_hash(g: &KeyGenGroup) -> std::result::Result<HashAlg, String> {
    match g.hash_alg.as_deref() {
        Some(h) => hash_of(h),
        None => Err(format!("randPQ {} without hashAlg", g.rand_pq)),
    }
}

fn need<'a>(x: &'a Option<Hex>, what: &str, tc: u64) -> Result<&'a [u8]> {
    x.as_ref()
        .map(|h| h.0.as_slice())
        .ok_or_else(|| Error::Acvp(format!("tcId {tc}: no {what}")))
}

fn bitlens(t: &KeyGenCase) -> Result<[usize; 4]> {
    match t.inputs.bitlens.as_deref() {
        Some(&[a, b, c, d]) => Ok([a, b, c, d]),
        _ => Err(Error::Acvp(format!(
            "tcId {}: bitlens must hold 4 lengths",
            t.tc_id
        ))),
    }
}

/// The construction and its inputs for a case of a group with `infoGeneratedByServer`.
fn method(g: &KeyGenGroup, t: &KeyGenCase) -> Result<PrimeMethod> {
    let tc = t.tc_id;
    Ok(match method_name(&g.rand_pq) {
        "provable" => PrimeMethod::Provable {
            seed: need(&t.inputs.seed, "seed", tc)?.to_vec(),
        },
        "provableWithProvableAux" => PrimeMethod::ProvableWithProvableAux {
            seed: need(&t.inputs.seed, "seed", tc)?.to_vec(),
            bitlens: bitlens(t)?,
        },
        "probableWithProvableAux" => PrimeMethod::ProbableWithProvableAux {
            seed: need(&t.inputs.seed, "seed", tc)?.to_vec(),
            bitlens: bitlens(t)?,
            xp: need(&t.inputs.x_p, "xP", tc)?.to_vec(),
            xq: need(&t.inputs.x_q, "xQ", tc)?.to_vec(),
        },
        _ => PrimeMethod::ProbableWithProbableAux {
            xp: need(&t.inputs.x_p, "xP", tc)?.to_vec(),
            xq: need(&t.inputs.x_q, "xQ", tc)?.to_vec(),
            x_aux: [
                need(&t.inputs.x_p1, "xP1", tc)?.to_vec(),
                need(&t.inputs.x_p2, "xP2", tc)?.to_vec(),
                need(&t.inputs.x_q1, "xQ1", tc)?.to_vec(),
                need(&t.inputs.x_q2, "xQ2", tc)?.to_vec(),
            ],
        },
    })
}

fn crt(g: &KeyGenGroup) -> bool {
    g.key_format
        .as_deref()
        .is_some_and(|f| f.eq_ignore_ascii_case("crt"))
}

/// A key as the response writes it, in the group's format.
fn key_json(tc_id: u64, key: &RsaPrivateKey, crt: bool) -> KeyGenKey {
    let parts = key.to_parts();
    let h = |b: &[u8]| Hex(b.to_vec());
    let mut k = KeyGenKey {
        tc_id,
        n: h(&parts.n),
        e: h(&parts.e),
        p: h(&parts.primes[0]),
        q: h(&parts.primes[1]),
        ..KeyGenKey::default()
    };
    if crt {
        k.dmp1 = Some(h(&parts.exponents[0]));
        k.dmq1 = Some(h(&parts.exponents[1]));
        k.iqmp = Some(h(&parts.coefficients[0]));
    } else {
        k.d = Some(h(&parts.d));
    }
    k
}

/// A random public exponent for `pubExp: random`: odd, 2^16 < e < 2^64 (FIPS 186-5 A.1.1
/// allows up to 2^256; our generator takes a u64).
fn random_e<R: CryptoRng + ?Sized>(rng: &mut R) -> u64 {
    (rng.next_u64() | 1 | (1 << 62)) & !(1 << 63)
}

/// Answers keyGen.
pub(crate) fn answer<R: CryptoRng + ?Sized>(
    set: &VectorSet<KeyGenGroup>,
    rng: &mut R,
) -> Result<(VectorSet<KeyGenGroupResponse>, Vec<Refusal>)> {
    let mut groups = Vec::new();
    let mut refused = Vec::new();
    for g in &set.test_groups {
        if let Some(why) = refusal(g) {
            refused.push(Refusal {
                tg_id: g.tg_id,
                why,
            });
            continue;
        }
        let mut tests = Vec::new();
        if is_kat(g) {
            for t in &g.tests {
                let nat = |h: &Option<Hex>| h.as_ref().map(|h| Nat::from_be_bytes(&h.0));
                // A candidate the server leaves out (q after a p that fails) fails.
                let verdict = match (nat(&t.e), nat(&t.p), nat(&t.q)) {
                    (Some(e), Some(p), Some(q)) => kat_verdict(g.modulo, &e, &p, &q),
                    _ => false,
                };
                tests.push(KeyGenKey {
                    tc_id: t.tc_id,
                    test_passed: Some(verdict),
                    ..KeyGenKey::default()
                });
            }
            groups.push(KeyGenGroupResponse {
                tg_id: g.tg_id,
                tests,
            });
            continue;
        }
        for t in &g.tests {
            let key = if g.info_generated_by_server {
                let e = Nat::from_be_bytes(need(&t.e, "e", t.tc_id)?);
                // probableWithProbableAux hashes nothing; any hash will do for the call.
                let hash = group_hash(g).unwrap_or(HashAlg::Sha256);
                let (p, q) =
                    rsatool_rsa::fips186_primes_vartime(g.modulo, &e, hash, &method(g, t)?)
                        .map_err(|e| {
                            Error::Acvp(format!("tgId {} tcId {}: {e}", g.tg_id, t.tc_id))
                        })?;
                rsatool_rsa::key_from_primes_vartime(&p, &q, &e)
            } else {
                let e = match (&g.pub_exp, &g.fixed_pub_exp) {
                    (Some(m), Some(e)) if m.eq_ignore_ascii_case("fixed") => {
                        Nat::from_be_bytes(&e.0).to_u64().ok_or_else(|| {
                            Error::Acvp(format!(
                                "tgId {}: fixedPubExp above 2^64 is not supported",
                                g.tg_id
                            ))
                        })?
                    }
                    _ => random_e(rng),
                };
                RsaPrivateKey::generate_with_exponent(g.modulo, e, rng)
            }
            .map_err(|e| Error::Acvp(format!("tgId {} tcId {}: {e}", g.tg_id, t.tc_id)))?;
            tests.push(key_json(t.tc_id, &key, crt(g)));
        }
        groups.push(KeyGenGroupResponse {
            tg_id: g.tg_id,
            tests,
        });
    }
    Ok((respond(set, groups), refused))
}

/// Checks keyGen answers (see the module docs).
pub(crate) fn check(
    prompt: &VectorSet<KeyGenGroup>,
    response: &VectorSet<KeyGenGroupResponse>,
    expected: Option<&VectorSet<KeyGenGroupResponse>>,
) -> Result<Vec<GroupCheck>> {
    let find = |set: &VectorSet<KeyGenGroupResponse>, tg: u64, tc: u64| set.case(tg, tc).cloned();
    let mut out = Vec::new();
    for g in &prompt.test_groups {
        let deterministic = g.info_generated_by_server;
        let what = if is_kat(g) {
            format!(
                "KAT {} {}, verdicts compared",
                method_name(&g.rand_pq),
                g.modulo
            )
        } else {
            format!(
                "{} {} {}, {}",
                method_name(&g.rand_pq),
                g.modulo,
                g.key_format.as_deref().unwrap_or("standard"),
                if deterministic {
                    "compared with the expected key"
                } else {
                    "validated"
                }
            )
        };
        if let Some(why) = refusal(g) {
            out.push(GroupCheck::refused(g.tg_id, what, why));
            continue;
        }
        if is_kat(g) {
            let Some(x) = expected else {
                return Err(Error::Acvp(format!(
                    "tgId {}: KAT verdicts can only be checked against the expected results (--expected)",
                    g.tg_id
                )));
            };
            let mut c = GroupCheck::new(g.tg_id, what);
            for t in &g.tests {
                let verdict = |set: &VectorSet<KeyGenGroupResponse>| {
                    find(set, g.tg_id, t.tc_id).map(|k| k.test_passed)
                };
                let failure = match (verdict(response), verdict(x)) {
                    (_, None) => Some("not in the expected results".to_owned()),
                    (None, _) => Some("no answer".to_owned()),
                    (_, Some(None)) => Some("the expected result has no testPassed".to_owned()),
                    (Some(None), _) => Some("the answer has no testPassed".to_owned()),
                    (Some(a), Some(b)) if a == b => None,
                    (Some(Some(a)), Some(Some(b))) => {
                        Some(format!("answered testPassed {a}, expected {b}"))
                    }
                };
                c.case(t.tc_id, failure);
            }
            out.push(c);
            continue;
        }
        if deterministic && expected.is_none() {
            return Err(Error::Acvp(format!(
                "tgId {}: keys from the server's inputs can only be checked against the expected results (--expected)",
                g.tg_id
            )));
        }
        let mut c = GroupCheck::new(g.tg_id, what);
        for t in &g.tests {
            let Some(r) = find(response, g.tg_id, t.tc_id) else {
                c.case(t.tc_id, Some("no answer".to_owned()));
                continue;
            };
            let failure = match expected {
                Some(x) if deterministic => match find(x, g.tg_id, t.tc_id) {
                    None => Some("not in the expected results".to_owned()),
                    Some(want) => compare(&r, &want),
                },
                _ => validate(g, &r),
            };
            c.case(t.tc_id, failure);
        }
        out.push(c);
    }
    Ok(out)
}

/// The first of n, e, p, q, d, dmp1, dmq1, iqmp (those the expected key has) that differs.
fn compare(got: &KeyGenKey, want: &KeyGenKey) -> Option<String> {
    let same = |a: &Hex, b: &Hex| trim(&a.0) == trim(&b.0);
    let opt = |a: &Option<Hex>, b: &Option<Hex>| match (a, b) {
        (_, None) => true,
        (Some(a), Some(b)) => same(a, b),
        (None, Some(_)) => false,
    };
    for (name, ok) in [
        ("n", same(&got.n, &want.n)),
        ("e", same(&got.e, &want.e)),
        ("p", same(&got.p, &want.p)),
        ("q", same(&got.q, &want.q)),
        ("d", opt(&got.d, &want.d)),
        ("dmp1", opt(&got.dmp1, &want.dmp1)),
        ("dmq1", opt(&got.dmq1, &want.dmq1)),
        ("iqmp", opt(&got.iqmp, &want.iqmp)),
    ] {
        if !ok {
            return Some(format!("{name} differs from the expected key"));
        }
    }
    None
}

/// Validates a key the implementation chose, as the server does for GDT keyGen (FIPS 186-5
/// A.1.1 and A.1.3): n = p·q of `modulo` bits; p, q prime, in [√2·2^(nlen/2 − 1), 2^(nlen/2)),
/// |p − q| > 2^(nlen/2 − 100); e odd, 2^16 < e < 2^256 (or the group's fixed e), coprime to
/// p − 1 and q − 1; d (or the CRT values) consistent with d = e⁻¹ mod lcm(p − 1, q − 1), and
/// d > 2^(nlen/2).
fn validate(g: &KeyGenGroup, k: &KeyGenKey) -> Option<String> {
    let nat = |h: &Hex| Nat::from_be_bytes(&h.0);
    let (n, e, p, q) = (nat(&k.n), nat(&k.e), nat(&k.p), nat(&k.q));
    let nlen = g.modulo;
    let half = nlen >> 1;
    if n.bits() != nlen {
        return Some(format!("n has {} bits, not {nlen}", n.bits()));
    }
    if &p * &q != n {
        return Some("n is not p·q".to_owned());
    }
    let low = sqrt2_times_pow2(half);
    for (name, r) in [("p", &p), ("q", &q)] {
        if r < &low || r.bits() > half {
            return Some(format!("{name} is outside [√2·2^(nlen/2 − 1), 2^(nlen/2))"));
        }
        if !is_probable_prime(r.as_limbs()) {
            return Some(format!("{name} is not prime"));
        }
        if !(r - 1u64).gcd(&e).is_one() {
            return Some(format!("e is not coprime to {name} − 1"));
        }
    }
    let diff = if p > q { &p - &q } else { &q - &p };
    if diff.bits() <= half.saturating_sub(100) {
        return Some("|p − q| ≤ 2^(nlen/2 − 100)".to_owned());
    }
    let fixed = g
        .pub_exp
        .as_deref()
        .is_some_and(|m| m.eq_ignore_ascii_case("fixed"));
    match &g.fixed_pub_exp {
        Some(f) if fixed && nat(f) != e => {
            return Some("e is not the group's fixedPubExp".to_owned());
        }
        _ => {}
    }
    if e.is_even() || e.bits() <= 16 || e.bits() > 256 || e == Nat::one() << 16 {
        return Some("e is not an odd value in (2^16, 2^256)".to_owned());
    }
    let (p1, q1) = (&p - 1u64, &q - 1u64);
    let lcm = &(&p1 * &q1) / &p1.gcd(&q1);
    let Some(d) = e.inv_mod_vartime(&lcm) else {
        return Some("e is not invertible mod lcm(p − 1, q − 1)".to_owned());
    };
    if d.bits() <= half {
        return Some("d ≤ 2^(nlen/2)".to_owned());
    }
    if let Some(given) = &k.d {
        // Any d with e·d ≡ 1 mod lcm(p − 1, q − 1) works; FIPS 186-5 asks for the one below
        // the lcm.
        if nat(given) != d {
            return Some("d is not e⁻¹ mod lcm(p − 1, q − 1)".to_owned());
        }
    }
    let checks = [
        ("dmp1", &k.dmp1, &d % &p1),
        ("dmq1", &k.dmq1, &d % &q1),
        ("iqmp", &k.iqmp, q.inv_mod_vartime(&p).unwrap_or(Nat::ZERO)),
    ];
    for (name, given, want) in checks {
        if let Some(x) = given
            && nat(x) != want
        {
            return Some(format!("{name} is inconsistent with p, q and e"));
        }
    }
    if k.d.is_none() && (k.dmp1.is_none() || k.dmq1.is_none() || k.iqmp.is_none()) {
        return Some("neither d nor all of dmp1, dmq1, iqmp".to_owned());
    }
    None
}
