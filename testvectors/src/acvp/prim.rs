//! signaturePrimitive (1.0 and 2.0: RSASP1, RFC 8017 §5.2.1) and decryptionPrimitive
//! (Sp800-56Br2: RSADP, SP 800-56B Rev. 2 §7.1.2) on the private keys the server gives; and
//! decryptionPrimitive 1.0 (SP 800-56B's RSADP component test) on keys we make, one per
//! ciphertext.

use bignum::Nat;
use bignum::prime::{first_probable_prime_from, is_probable_prime};
use rsatool_rsa::hazmat::PrivateOp;
use rsatool_rsa::rand_core::CryptoRng;

use rsatool_rsa::RsaPrivateKey;

use super::types::{
    DecPrim1Case, DecPrim1CaseResponse, DecPrim1Group, DecPrim1GroupResponse, DecPrim1Result, Hex,
    PrimitiveCase, PrimitiveGroup, PrimitiveGroupResponse, PrimitiveResult, VectorSet,
};
use super::{GroupCheck, Mode, Refusal, trim};
use crate::{Error, Result};

/// The input of a case (message or ciphertext), as an integer.
fn input(mode: Mode, t: &PrimitiveCase) -> Option<Nat> {
    let x = match mode {
        Mode::SignaturePrimitive => t.message.as_ref(),
        _ => t.ct.as_ref(),
    }?;
    Some(Nat::from_be_bytes(&x.0))
}

/// Whether the input is one the primitive accepts: m < n for RSASP1 (RFC 8017 §5.2.1 step
/// 1, "m between 0 and n − 1"); 1 < c < n − 1 for RSADP (SP 800-56B Rev. 2 §7.1.2 step 1).
fn in_range(mode: Mode, x: &Nat, n: &Nat) -> bool {
    match mode {
        Mode::SignaturePrimitive => x < n,
        _ => x > &Nat::one() && &(x + 1u64) < n,
    }
}

/// x^d mod n for a case's key, as k bytes: through our private operation (CRT, blinded,
/// checked) when the key has p and q, else with the given d on public arithmetic. `None` if
/// the key does not validate.
fn private_op<R: CryptoRng + ?Sized>(t: &PrimitiveCase, x: &Nat, rng: &mut R) -> Option<Vec<u8>> {
    let n = Nat::from_be_bytes(&t.n.0);
    let e = Nat::from_be_bytes(&t.e.0);
    let k = n.byte_len();
    if !trim(&t.p.0).is_empty() && !trim(&t.q.0).is_empty() {
        let (p, q) = (Nat::from_be_bytes(&t.p.0), Nat::from_be_bytes(&t.q.0));
        if &p * &q != n {
            return None;
        }
        let key = rsatool_rsa::key_from_primes_vartime(&p, &q, &e).ok()?;
        return key.private_op(rng, &x.to_be_bytes_padded(k)?).ok();
    }
    let d = Nat::from_be_bytes(&t.d.0);
    if d.is_zero() {
        return None;
    }
    // A key given as n, e, d alone (signaturePrimitive 1.0's `standard`) is not validated by
    // a key constructor: check the result with e, as our private operation does, so that a
    // d that does not match e is refused rather than answered with a wrong value.
    let y = x.pow_mod(&d, &n);
    if y.pow_mod(&e, &n) != *x {
        return None;
    }
    y.to_be_bytes_padded(k)
}

/// Whether a case's key is a usable RSA key (checked on public arithmetic, apart from the
/// code under test): with p and q, n = p·q for primes p, q and e invertible modulo
/// lcm(p − 1, q − 1); with d alone, (2^d)^e ≡ 2 mod n. The server only sends valid keys; a
/// broken one (as a fuzzer makes) may be refused with `testPassed: false`.
fn key_valid(t: &PrimitiveCase) -> bool {
    let nat = |h: &Hex| Nat::from_be_bytes(&h.0);
    let (n, e) = (nat(&t.n), nat(&t.e));
    if n.bits() < 2 {
        return false;
    }
    if !trim(&t.p.0).is_empty() && !trim(&t.q.0).is_empty() {
        let (p, q) = (nat(&t.p), nat(&t.q));
        if &p * &q != n || !is_probable_prime(p.as_limbs()) || !is_probable_prime(q.as_limbs()) {
            return false;
        }
        let (p1, q1) = (&p - 1u64, &q - 1u64);
        let lcm = &(&p1 * &q1) / &p1.gcd(&q1);
        return e.inv_mod_vartime(&lcm).is_some();
    }
    let two = Nat::from(2u64) % &n;
    two.pow_mod(&nat(&t.d), &n).pow_mod(&e, &n) == two
}

/// Answers signaturePrimitive or decryptionPrimitive.
pub(crate) fn answer<R: CryptoRng + ?Sized>(
    mode: Mode,
    set: &VectorSet<PrimitiveGroup>,
    rng: &mut R,
) -> (VectorSet<PrimitiveGroupResponse>, Vec<Refusal>) {
    let mut groups = Vec::new();
    for g in &set.test_groups {
        let tests = g
            .tests
            .iter()
            .map(|t| {
                let n = Nat::from_be_bytes(&t.n.0);
                let out = input(mode, t)
                    .filter(|x| in_range(mode, x, &n))
                    .and_then(|x| private_op(t, &x, rng));
                let (signature, pt) = match mode {
                    Mode::SignaturePrimitive => (out.clone().map(Hex), None),
                    _ => (None, out.clone().map(Hex)),
                };
                PrimitiveResult {
                    tc_id: t.tc_id,
                    test_passed: out.is_some(),
                    signature,
                    pt,
                }
            })
            .collect();
        groups.push(PrimitiveGroupResponse {
            tg_id: g.tg_id,
            tests,
        });
    }
    (super::sig::respond(set, groups), Vec::new())
}

/// Checks primitive answers: against the expected results when given (verdict and output,
/// compared as integers), else by the public operation (out^e mod n must be the input) and
/// the range rule.
pub(crate) fn check(
    mode: Mode,
    prompt: &VectorSet<PrimitiveGroup>,
    response: &VectorSet<PrimitiveGroupResponse>,
    expected: Option<&VectorSet<PrimitiveGroupResponse>>,
) -> Vec<GroupCheck> {
    let find =
        |set: &VectorSet<PrimitiveGroupResponse>, tg: u64, tc: u64| set.case(tg, tc).cloned();
    let output = |r: &PrimitiveResult| {
        r.signature
            .as_ref()
            .or(r.pt.as_ref())
            .map(|h| Nat::from_be_bytes(&h.0))
    };
    let mut out = Vec::new();
    for g in &prompt.test_groups {
        let how = if expected.is_some() {
            "compared with the expected results"
        } else {
            "validated by the public operation"
        };
        let what = format!(
            "{mode} {} {}, {how}",
            g.key_mode
                .as_deref()
                .or(g.key_format.as_deref())
                .unwrap_or("standard"),
            g.modulo.unwrap_or(0)
        );
        let mut c = GroupCheck::new(g.tg_id, what);
        for t in &g.tests {
            let Some(r) = find(response, g.tg_id, t.tc_id) else {
                c.case(t.tc_id, Some("no answer".to_owned()));
                continue;
            };
            let failure = if let Some(x) = expected {
                match find(x, g.tg_id, t.tc_id) {
                    None => Some("not in the expected results".to_owned()),
                    Some(want) if want.test_passed != r.test_passed => Some(format!(
                        "answered testPassed {}, expected {}",
                        r.test_passed, want.test_passed
                    )),
                    Some(want) if want.test_passed && output(&want) != output(&r) => {
                        Some("output differs from the expected one".to_owned())
                    }
                    Some(_) => None,
                }
            } else {
                let n = Nat::from_be_bytes(&t.n.0);
                let e = Nat::from_be_bytes(&t.e.0);
                match input(mode, t) {
                    None => Some("the prompt has no input".to_owned()),
                    Some(x) => {
                        let ok = in_range(mode, &x, &n);
                        match (ok, r.test_passed, output(&r)) {
                            (false, false, _) => None,
                            (true, true, Some(y)) if y < n && y.pow_mod(&e, &n) == x => None,
                            (true, true, _) => Some("output^e mod n is not the input".to_owned()),
                            (true, false, _) if !key_valid(t) => None,
                            (ok, _, _) => Some(format!(
                                "testPassed {}, but the input is {}in range",
                                r.test_passed,
                                if ok { "" } else { "not " }
                            )),
                        }
                    }
                }
            };
            c.case(t.tc_id, failure);
        }
        out.push(c);
    }
    out
}

/// The public exponent of the keys we make for decryptionPrimitive 1.0.
const DEC1_E: u64 = 65537;

/// How many random starts we try, at most, for a prime in a window (each start
/// usually gives one: primes are about ln(2^1024) ≈ 710 apart).
const DEC1_PRIME_TRIES: usize = 64;

/// How many candidates after a start we test for a prime before drawing another start.
const DEC1_PRIME_STEPS: usize = 20_000;

/// A `bits`-bit key with e = 65537 that leaves `c` out of range (`want_fail`) or puts it in
/// range, with n: first an ordinary generated key; when that one misses, a key of two primes
/// drawn from [⌈√lo⌉, ⌊√hi⌋], so that lo ≤ n ≤ hi, where in range needs n ≥ c + 2 and out
/// of range n ≤ c + 1. An ordinary key misses often when c is near 2^bits: its n is in
/// [2^(bits − 1), 2^bits), so one above 0.95 · 2^bits is a 1-in-60 draw.
///
/// # Errors
///
/// A message if key generation fails. `Ok(None)` when no `bits`-bit modulus can put `c`
/// where it must be (at or above 2^bits it is out of range of every key, below
/// 2^(bits − 1) in range of every key), or the window for the primes is too narrow.
fn dec1_key<R: CryptoRng + ?Sized>(
    c: &Nat,
    want_fail: bool,
    bits: usize,
    rng: &mut R,
) -> std::result::Result<Option<RsaPrivateKey>, String> {
    let key = RsaPrivateKey::generate_with_exponent(bits, DEC1_E, rng)
        .map_err(|e| format!("{bits}-bit key: {e}"))?;
    if in_range(Mode::DecryptionPrimitive, c, key.n()) != want_fail {
        return Ok(Some(key));
    }
    let smallest = Nat::one() << (bits - 1);
    let largest = &(Nat::one() << bits) - 1u64;
    let (lo, hi) = if want_fail {
        (smallest, (c + 1u64).min(largest))
    } else {
        ((c + 2u64).max(smallest), largest)
    };
    let below = lo.sqrt();
    let a = if &below * &below == lo {
        below
    } else {
        below + 1u64
    };
    let b = hi.sqrt();
    let e = Nat::from(DEC1_E);
    let Some(p) = prime_between(&a, &b, &e, None, rng) else {
        return Ok(None);
    };
    let Some(q) = prime_between(&a, &b, &e, Some(&p), rng) else {
        return Ok(None);
    };
    let key = rsatool_rsa::key_from_primes_vartime(&p, &q, &e)
        .map_err(|e| format!("{bits}-bit key: {e}"))?;
    Ok((in_range(Mode::DecryptionPrimitive, c, key.n()) != want_fail).then_some(key))
}

/// A random probable prime p in [a, b] with gcd(p − 1, e) = 1 and p ≠ `other`: the first
/// such prime after a random start. `None` if the window holds too few primes to find one.
fn prime_between<R: CryptoRng + ?Sized>(
    a: &Nat,
    b: &Nat,
    e: &Nat,
    other: Option<&Nat>,
    rng: &mut R,
) -> Option<Nat> {
    if b <= a {
        return None;
    }
    let width = b - a;
    let usable = |x: &Nat| {
        (x - 1u64).gcd(e) == Nat::one() && other != Some(x) && is_probable_prime(x.as_limbs())
    };
    (0..DEC1_PRIME_TRIES).find_map(|_| {
        let start = a + &Nat::random_below(&width, rng);
        first_probable_prime_from(&start, DEC1_PRIME_STEPS, &usable).filter(|p| p <= b)
    })
}

/// The modulus size of a decryptionPrimitive 1.0 group (2048, the only one 1.0 allows).
fn dec1_bits(g: &DecPrim1Group) -> usize {
    g.modulo.unwrap_or(2048)
}

/// Answers decryptionPrimitive 1.0: for each case, the `totalFailingCases` largest
/// ciphertexts get a key whose n makes them out of range (c ≥ n − 1), the others a key for
/// which 1 < c < n − 1 and the plaintext c^d mod n from our private operation. Each
/// ciphertext gets a key of its own, as the server's own answers have.
///
/// # Errors
///
/// [`Error::Acvp`] if a modulus size cannot be generated, or no key of the size puts a
/// ciphertext where it must be (a ciphertext below 2^(bits − 1) cannot be made to fail).
pub(crate) fn answer_dec1<R: CryptoRng + ?Sized>(
    set: &VectorSet<DecPrim1Group>,
    rng: &mut R,
) -> Result<(VectorSet<DecPrim1GroupResponse>, Vec<Refusal>)> {
    let mut groups = Vec::new();
    for g in &set.test_groups {
        let bits = dec1_bits(g);
        let mut tests = Vec::new();
        for t in &g.tests {
            let err =
                |what: String| Error::Acvp(format!("tgId {} tcId {}: {what}", g.tg_id, t.tc_id));
            let cts: Vec<Nat> = t
                .results_array
                .iter()
                .map(|c| Nat::from_be_bytes(&c.cipher_text.0))
                .collect();
            // The largest ciphertexts are the ones a key of the size can leave out of range.
            let mut order: Vec<usize> = (0..cts.len()).collect();
            order.sort_by(|&a, &b| cts[b].cmp(&cts[a]));
            let fail_count = g.total_failing_cases.unwrap_or(0).min(cts.len());
            let mut fail = vec![false; cts.len()];
            for &i in &order[..fail_count] {
                fail[i] = true;
            }
            let mut results = Vec::new();
            for (c, &want_fail) in cts.iter().zip(&fail) {
                let found = dec1_key(c, want_fail, bits, rng).map_err(err)?;
                let result = match found {
                    Some(key) if !want_fail => {
                        let k = key.n().byte_len();
                        let input = c
                            .to_be_bytes_padded(k)
                            .ok_or_else(|| err("ciphertext longer than n".to_owned()))?;
                        let pt = key
                            .private_op(rng, &input)
                            .map_err(|e| err(format!("decrypting: {e}")))?;
                        DecPrim1Result {
                            e: Hex(key.e().to_be_bytes()),
                            n: Hex(key.n().to_be_bytes()),
                            plain_text: Some(Hex(pt)),
                            test_passed: true,
                        }
                    }
                    Some(key) => DecPrim1Result {
                        e: Hex(key.e().to_be_bytes()),
                        n: Hex(key.n().to_be_bytes()),
                        plain_text: None,
                        test_passed: false,
                    },
                    None => {
                        return Err(err(format!(
                            "no {bits}-bit key puts a ciphertext of {} bits {} range",
                            c.bits(),
                            if want_fail { "out of" } else { "in" }
                        )));
                    }
                };
                results.push(result);
            }
            tests.push(DecPrim1CaseResponse {
                tc_id: t.tc_id,
                results_array: results,
            });
        }
        groups.push(DecPrim1GroupResponse {
            tg_id: g.tg_id,
            tests,
        });
    }
    Ok((super::sig::respond(set, groups), Vec::new()))
}

/// Checks decryptionPrimitive 1.0 answers as the server must (the keys are the
/// implementation's, so nothing is compared with the expected values but the count of
/// failures): every answer's n has the group's size and e is odd; a ciphertext answered
/// `testPassed: true` is in range for that n (1 < c < n − 1) and the plaintext p satisfies
/// p < n and p^e mod n = c; one answered `false` is out of range for that n; and exactly
/// `totalFailingCases` of a case's answers are `false` (the expected results, when given,
/// must have as many).
pub(crate) fn check_dec1(
    prompt: &VectorSet<DecPrim1Group>,
    response: &VectorSet<DecPrim1GroupResponse>,
    expected: Option<&VectorSet<DecPrim1GroupResponse>>,
) -> Vec<GroupCheck> {
    let find = |set: &VectorSet<DecPrim1GroupResponse>, tg: u64, tc: u64| set.case(tg, tc).cloned();
    let mut out = Vec::new();
    for g in &prompt.test_groups {
        let bits = dec1_bits(g);
        let what =
            format!("decryptionPrimitive 1.0 {bits}, our keys validated by the public operation");
        let mut c = GroupCheck::new(g.tg_id, what);
        for t in &g.tests {
            let Some(r) = find(response, g.tg_id, t.tc_id) else {
                c.case(t.tc_id, Some("no answer".to_owned()));
                continue;
            };
            let failure = dec1_case_failure(g, t, &r, expected);
            c.case(t.tc_id, failure);
        }
        out.push(c);
    }
    out
}

/// The first thing wrong with the answer `r` to the decryptionPrimitive 1.0 case `t`, if any
/// (see [`check_dec1`]).
fn dec1_case_failure(
    g: &DecPrim1Group,
    t: &DecPrim1Case,
    r: &DecPrim1CaseResponse,
    expected: Option<&VectorSet<DecPrim1GroupResponse>>,
) -> Option<String> {
    let bits = dec1_bits(g);
    let failures =
        |r: &DecPrim1CaseResponse| r.results_array.iter().filter(|x| !x.test_passed).count();
    if r.results_array.len() != t.results_array.len() {
        return Some(format!(
            "{} answers for {} ciphertexts",
            r.results_array.len(),
            t.results_array.len()
        ));
    }
    for (i, (ct, a)) in t.results_array.iter().zip(&r.results_array).enumerate() {
        let (n, e) = (Nat::from_be_bytes(&a.n.0), Nat::from_be_bytes(&a.e.0));
        let x = Nat::from_be_bytes(&ct.cipher_text.0);
        if n.bits() != bits {
            return Some(format!(
                "ciphertext {i}: n has {} bits, not {bits}",
                n.bits()
            ));
        }
        if e.is_even() || e.bits() < 2 {
            return Some(format!("ciphertext {i}: e is not odd and above 1"));
        }
        let ok = in_range(Mode::DecryptionPrimitive, &x, &n);
        match (a.test_passed, &a.plain_text) {
            (false, _) if ok => {
                return Some(format!(
                    "ciphertext {i}: testPassed false, but it is in range for n"
                ));
            }
            (false, _) => {}
            (true, _) if !ok => {
                return Some(format!(
                    "ciphertext {i}: testPassed true, but it is out of range for n"
                ));
            }
            (true, None) => return Some(format!("ciphertext {i}: no plainText")),
            (true, Some(pt)) => {
                let y = Nat::from_be_bytes(&pt.0);
                if y >= n || y.pow_mod(&e, &n) != x {
                    return Some(format!(
                        "ciphertext {i}: plainText^e mod n is not the ciphertext"
                    ));
                }
            }
        }
    }
    let want = g.total_failing_cases.unwrap_or(0);
    if failures(r) != want {
        return Some(format!(
            "{} answers are testPassed false, totalFailingCases is {want}",
            failures(r)
        ));
    }
    if let Some(x) = expected {
        let w = x.case(g.tg_id, t.tc_id);
        match w {
            None => return Some("not in the expected results".to_owned()),
            Some(w) if failures(w) != want => {
                return Some(format!(
                    "the expected results fail {} ciphertexts, totalFailingCases is {want}",
                    failures(w)
                ));
            }
            Some(_) => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    /// c, as num-bigint sees it, against the key's n: 1 < c < n − 1 (SP 800-56B Rev. 2
    /// §7.1.2), computed without our arithmetic.
    fn in_range_by_num_bigint(c: &Nat, key: &RsaPrivateKey) -> bool {
        let c = BigUint::from_bytes_be(&c.to_be_bytes());
        let n = BigUint::from_bytes_be(&key.n().to_be_bytes());
        c > BigUint::from(1u8) && c + 1u8 < n
    }

    /// The `bits`-bit number whose top bytes are `top`, the rest zero.
    fn near(bits: usize, top: &[u8]) -> Nat {
        let mut v = top.to_vec();
        v.resize(bits >> 3, 0);
        Nat::from_be_bytes(&v)
    }

    #[test]
    fn dec1_keys_put_ciphertexts_near_the_edges_where_they_must_be() {
        let mut rng = rsatool_rsa::os_rng();
        let bits = 1024;
        // 0.996 · 2^1024: an ordinary key's n is above it about once in 250 draws.
        let high = near(bits, &[0xff, 0x00, 0x01]);
        // Just above 2^1023: an ordinary key's n is below it about once in 700 draws.
        let low = near(bits, &[0x80, 0x00, 0x01]);
        for _ in 0..3 {
            let key = dec1_key(&high, false, bits, &mut rng).unwrap().unwrap();
            assert_eq!(key.n().bits(), bits);
            assert!(in_range_by_num_bigint(&high, &key));
            let key = dec1_key(&low, true, bits, &mut rng).unwrap().unwrap();
            assert_eq!(key.n().bits(), bits);
            assert!(!in_range_by_num_bigint(&low, &key));
        }
        // No 1024-bit n fails a 1023-bit ciphertext, or passes one at 2^1024 − 2.
        let short = &(Nat::one() << (bits - 1)) - 1u64;
        assert!(dec1_key(&short, true, bits, &mut rng).unwrap().is_none());
        let top = &(Nat::one() << bits) - 2u64;
        assert!(dec1_key(&top, false, bits, &mut rng).unwrap().is_none());
    }
}
