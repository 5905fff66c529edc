//! signaturePrimitive (2.0: RSASP1, RFC 8017 §5.2.1) and decryptionPrimitive (Sp800-56Br2:
//! RSADP, SP 800-56B Rev. 2 §7.1.2) on the private keys the server gives.

use bignum::Nat;
use bignum::prime::is_probable_prime;
use rsa::hazmat::PrivateOp;
use rsa::rand_core::CryptoRng;

use super::types::{
    Hex, PrimitiveCase, PrimitiveGroup, PrimitiveGroupResponse, PrimitiveResult, VectorSet,
};
use super::{GroupCheck, Mode, Refusal, trim};

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
        let key = rsa::key_from_primes_vartime(&p, &q, &e).ok()?;
        return key.private_op(rng, &x.to_be_bytes_padded(k)?).ok();
    }
    let d = Nat::from_be_bytes(&t.d.0);
    if d.is_zero() {
        return None;
    }
    x.pow_mod(&d, &n).to_be_bytes_padded(k)
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
    let find = |set: &VectorSet<PrimitiveGroupResponse>, tg: u64, tc: u64| {
        set.test_groups
            .iter()
            .find(|g| g.tg_id == tg)
            .and_then(|g| g.tests.iter().find(|t| t.tc_id == tc))
            .cloned()
    };
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
            g.key_mode.as_deref().unwrap_or("standard"),
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
