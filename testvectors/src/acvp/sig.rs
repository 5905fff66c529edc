//! sigGen and sigVer: PKCS #1 v1.5 and PSS signatures (FIPS 186-5 §5.4–5.5, FIPS 186-4).

use std::collections::BTreeMap;

use rsatool_rsa::rand_core::CryptoRng;
use rsatool_rsa::{Mgf, Pkcs1v15Sign, Pss, PublicKeyParts, RsaPrivateKey, RsaPublicKey, SaltLen};

use super::types::{
    Hex, RandomValue, SigGenGroup, SigGenGroupResponse, SigParams, SigVerGroup, SignatureCase,
    VectorSet, Verdict, VerdictGroup,
};
use super::{GroupCheck, Refusal, hash_of, rand_hash, trim};
use crate::{Error, Result};

/// The public exponent of the keys we make for sigGen.
const E: u64 = 65537;

/// The length of the random values we draw for SP 800-106 (NIST's samples use 256 too).
const RV_BITS: usize = 256;

/// A group's signature scheme, and whether messages go through SP 800-106 first.
pub(crate) struct Scheme {
    kind: Kind,
    randomized: bool,
}

enum Kind {
    Pkcs1v15(Pkcs1v15Sign),
    Pss(Pss),
}

impl Scheme {
    /// The scheme of a group's parameters, or the refusal saying what is not supported.
    pub(crate) fn of(
        sig_type: &str,
        hash_alg: &str,
        salt_len: Option<usize>,
        mask: Option<&str>,
        conformance: Option<&str>,
    ) -> std::result::Result<Scheme, String> {
        let hash = hash_of(hash_alg)?;
        let randomized = match conformance.filter(|c| !c.is_empty()) {
            None => false,
            Some(c) if c.eq_ignore_ascii_case("SP800-106") => {
                if rand_hash::digest_bits(hash, &[]).is_none() {
                    return Err(format!(
                        "SP 800-106 randomized hashing with {hash_alg} is not supported \
                         (SHA2-256, SHA3-512, SHAKE-128, SHAKE-256 are)"
                    ));
                }
                true
            }
            Some(c) => return Err(format!("conformance {c} is not supported")),
        };
        let kind = Self::kind(sig_type, hash_alg, hash, salt_len, mask)?;
        Ok(Scheme { kind, randomized })
    }

    fn kind(
        sig_type: &str,
        hash_alg: &str,
        hash: rsatool_rsa::HashAlg,
        salt_len: Option<usize>,
        mask: Option<&str>,
    ) -> std::result::Result<Kind, String> {
        match sig_type.to_ascii_lowercase().as_str() {
            "pkcs1v1.5" => {
                if hash.is_shake() {
                    return Err(format!("PKCS #1 v1.5 with {hash_alg} is not defined"));
                }
                Ok(Kind::Pkcs1v15(Pkcs1v15Sign::new(hash)))
            }
            "pss" => {
                let salt = salt_len.ok_or("PSS without saltLen")?;
                let pss = Pss::new(hash).with_salt_len(SaltLen::Exact(salt));
                let pss = match mask.map(str::to_ascii_lowercase).as_deref() {
                    // FIPS 186-4 sets name no mask: MGF1 over the message hash.
                    None | Some("mgf1") | Some("none") => pss.with_mgf(Mgf::Mgf1),
                    Some("shake-128") => pss.with_mgf(Mgf::Shake128),
                    Some("shake-256") => pss.with_mgf(Mgf::Shake256),
                    Some(other) => return Err(format!("mask function {other} is not supported")),
                };
                Ok(Kind::Pss(pss))
            }
            "ansx9.31" => Err("sigType ansx9.31 (ANSI X9.31) is not supported".to_owned()),
            other => Err(format!("sigType {other} is not supported")),
        }
    }

    fn hash(&self) -> rsatool_rsa::HashAlg {
        match &self.kind {
            Kind::Pkcs1v15(s) => rsatool_rsa::SignatureScheme::hash(s),
            Kind::Pss(s) => s.hash,
        }
    }

    /// The digest signed for `msg`: its hash, or with SP 800-106 the hash of M′ for `rv`.
    fn digest(&self, msg: &[u8], rv: Option<(&[u8], usize)>) -> Option<Vec<u8>> {
        match (self.randomized, rv) {
            (false, _) => Some(self.hash().digest(msg)),
            (true, Some((rv, bits))) => {
                rand_hash::digest_bits(self.hash(), &rand_hash::transform(msg, rv, bits)?)
            }
            (true, None) => None,
        }
    }

    /// Signs `msg`; with SP 800-106, also returns the random value drawn.
    fn sign<R: CryptoRng + ?Sized>(
        &self,
        key: &RsaPrivateKey,
        rng: &mut R,
        msg: &[u8],
    ) -> rsatool_rsa::Result<(Vec<u8>, Option<Vec<u8>>)> {
        let rv = self.randomized.then(|| {
            let mut rv = vec![0u8; RV_BITS >> 3];
            rng.fill_bytes(&mut rv);
            rv
        });
        let digest = self
            .digest(msg, rv.as_deref().map(|r| (r, RV_BITS)))
            .ok_or_else(|| rsatool_rsa::Error::Unsupported("SP 800-106".to_owned()))?;
        let sig = match &self.kind {
            Kind::Pkcs1v15(s) => key.sign_prehashed(rng, s, &digest),
            Kind::Pss(s) => key.sign_prehashed(rng, s, &digest),
        }?;
        Ok((sig, rv))
    }

    /// Verifies `sig` over `msg` (with SP 800-106, for the random value `rv`).
    pub(crate) fn verify(
        &self,
        key: &RsaPublicKey,
        msg: &[u8],
        rv: Option<(&[u8], usize)>,
        sig: &[u8],
    ) -> bool {
        let Some(digest) = self.digest(msg, rv) else {
            return false;
        };
        match &self.kind {
            Kind::Pkcs1v15(s) => key.verify_prehashed(s, &digest, sig).is_ok(),
            Kind::Pss(s) => key.verify_prehashed(s, &digest, sig).is_ok(),
        }
    }
}

impl SigParams {
    /// The scheme to sign or verify with, or why it is refused.
    fn scheme(&self) -> std::result::Result<Scheme, String> {
        Scheme::of(
            &self.sig_type,
            &self.hash_alg,
            self.salt_len,
            self.mask_function.as_deref(),
            self.conformance.as_deref(),
        )
    }

    /// The group's scheme and size, for a check's report.
    fn describe(&self) -> String {
        let (sig_type, hash, bits) = (&self.sig_type, &self.hash_alg, self.modulo);
        if sig_type.eq_ignore_ascii_case("pss") {
            format!(
                "pss {hash} salt {} mask {} {bits}",
                self.salt_len.unwrap_or(0),
                self.mask_function.as_deref().unwrap_or("mgf1")
            )
        } else {
            format!("{sig_type} {hash} {bits}")
        }
    }
}

/// A public key from a group's n and e (any size from 512 bits: the server's choice).
pub(crate) fn public_key(n: &Hex, e: &Hex) -> rsatool_rsa::Result<RsaPublicKey> {
    RsaPublicKey::from_parts_allowing_small(
        &PublicKeyParts {
            n: trim(&n.0).to_vec(),
            e: trim(&e.0).to_vec(),
        },
        512,
    )
}

/// Answers sigGen: one key per modulus size (e = 65537), each message signed with the group's
/// scheme.
pub(crate) fn answer_sig_gen<R: CryptoRng + ?Sized>(
    set: &VectorSet<SigGenGroup>,
    rng: &mut R,
) -> Result<(VectorSet<SigGenGroupResponse>, Vec<Refusal>)> {
    let mut keys: BTreeMap<usize, RsaPrivateKey> = BTreeMap::new();
    let mut groups = Vec::new();
    let mut refused = Vec::new();
    for g in &set.test_groups {
        let Some(scheme) = Refusal::record(&mut refused, g.tg_id, g.params.scheme()) else {
            continue;
        };
        let key = match keys.entry(g.params.modulo) {
            std::collections::btree_map::Entry::Occupied(k) => k.into_mut(),
            std::collections::btree_map::Entry::Vacant(v) => v.insert(
                RsaPrivateKey::generate_with_exponent(g.params.modulo, E, rng).map_err(|e| {
                    Error::Acvp(format!(
                        "tgId {}: {}-bit key: {e}",
                        g.tg_id, g.params.modulo
                    ))
                })?,
            ),
        };
        let mut tests = Vec::new();
        for t in &g.tests {
            let (signature, rv) = scheme.sign(key, rng, &t.message.0).map_err(|e| {
                Error::Acvp(format!("tgId {} tcId {}: signing: {e}", g.tg_id, t.tc_id))
            })?;
            tests.push(SignatureCase {
                tc_id: t.tc_id,
                random_value: RandomValue {
                    random_value_len: rv.as_ref().map(|_| RV_BITS),
                    random_value: rv.map(Hex),
                },
                signature: Hex(signature),
            });
        }
        groups.push(SigGenGroupResponse {
            tg_id: g.tg_id,
            n: Hex(key.n().to_be_bytes()),
            e: Hex(key.e().to_be_bytes()),
            tests,
        });
    }
    Ok((respond(set, groups), refused))
}

/// The response's header: the prompt's.
pub(crate) fn respond<G, H>(set: &VectorSet<G>, test_groups: Vec<H>) -> VectorSet<H> {
    VectorSet {
        vs_id: set.vs_id,
        algorithm: set.algorithm.clone(),
        mode: set.mode.clone(),
        revision: set.revision.clone(),
        is_sample: set.is_sample,
        test_groups,
    }
}

/// Answers sigVer: each signature verified with the group's key and scheme.
pub(crate) fn answer_sig_ver(
    set: &VectorSet<SigVerGroup>,
) -> (VectorSet<VerdictGroup>, Vec<Refusal>) {
    let mut groups = Vec::new();
    let mut refused = Vec::new();
    for g in &set.test_groups {
        let Some(scheme) = Refusal::record(&mut refused, g.tg_id, g.params.scheme()) else {
            continue;
        };
        // A key that does not even parse (even n, e = 1, ...) makes every signature invalid.
        let key = public_key(&g.n, &g.e).ok();
        let tests = g
            .tests
            .iter()
            .map(|t| Verdict {
                tc_id: t.tc_id,
                test_passed: key.as_ref().is_some_and(|k| {
                    scheme.verify(k, &t.message.0, t.random_value.get(), &t.signature.0)
                }),
            })
            .collect();
        groups.push(VerdictGroup {
            tg_id: g.tg_id,
            tests,
        });
    }
    (respond(set, groups), refused)
}

/// Checks sigGen answers: each signature must verify under the key the answer returns, of the
/// group's size (the server checks so: the key is the implementation's). The expected
/// results, when given, hold NIST's own keys; only their group ids are compared.
pub(crate) fn check_sig_gen(
    prompt: &VectorSet<SigGenGroup>,
    response: &VectorSet<SigGenGroupResponse>,
    expected: Option<&VectorSet<SigGenGroupResponse>>,
) -> Result<Vec<GroupCheck>> {
    let mut out = Vec::new();
    for g in &prompt.test_groups {
        let what = g.params.describe() + ", verified under the returned key";
        let scheme = match g.params.scheme() {
            Ok(s) => s,
            Err(why) => {
                out.push(GroupCheck::refused(g.tg_id, what, why));
                continue;
            }
        };
        if let Some(x) = expected
            && !x.test_groups.iter().any(|e| e.tg_id == g.tg_id)
        {
            return Err(Error::Acvp(format!(
                "expected results have no tgId {}",
                g.tg_id
            )));
        }
        let mut c = GroupCheck::new(g.tg_id, what);
        let Some(r) = response.test_groups.iter().find(|r| r.tg_id == g.tg_id) else {
            for t in &g.tests {
                c.case(t.tc_id, Some("no answer".to_owned()));
            }
            out.push(c);
            continue;
        };
        let key = match public_key(&r.n, &r.e) {
            Ok(k) if k.bits() == g.params.modulo => Some(k),
            Ok(k) => {
                for t in &g.tests {
                    c.case(t.tc_id, Some(format!("key has {} bits", k.bits())));
                }
                None
            }
            Err(e) => {
                for t in &g.tests {
                    c.case(t.tc_id, Some(format!("returned key: {e}")));
                }
                None
            }
        };
        if let Some(key) = key {
            for t in &g.tests {
                let failure = match r.tests.iter().find(|s| s.tc_id == t.tc_id) {
                    None => Some("no answer".to_owned()),
                    Some(s)
                        if scheme.verify(
                            &key,
                            &t.message.0,
                            s.random_value.get(),
                            &s.signature.0,
                        ) =>
                    {
                        None
                    }
                    Some(_) => Some("signature does not verify".to_owned()),
                };
                c.case(t.tc_id, failure);
            }
        }
        out.push(c);
    }
    Ok(out)
}

/// Compares sigVer verdicts with the expected ones.
pub(crate) fn check_verdicts(
    prompt: &VectorSet<SigVerGroup>,
    response: &VectorSet<VerdictGroup>,
    expected: &VectorSet<VerdictGroup>,
) -> Vec<GroupCheck> {
    let mut out = Vec::new();
    for g in &prompt.test_groups {
        let what = g.params.describe() + ", verdicts compared";
        if let Err(why) = g.params.scheme() {
            out.push(GroupCheck::refused(g.tg_id, what, why));
            continue;
        }
        out.push(compare_verdicts(
            g.tg_id,
            what,
            &g.tests.iter().map(|t| t.tc_id).collect::<Vec<_>>(),
            response,
            expected,
        ));
    }
    out
}

/// Compares the verdicts of one group's cases.
pub(crate) fn compare_verdicts(
    tg_id: u64,
    what: String,
    cases: &[u64],
    response: &VectorSet<VerdictGroup>,
    expected: &VectorSet<VerdictGroup>,
) -> GroupCheck {
    let mut c = GroupCheck::new(tg_id, what);
    let find = |set: &VectorSet<VerdictGroup>, tc: u64| set.case(tg_id, tc).map(|t| t.test_passed);
    for &tc in cases {
        let failure = match (find(response, tc), find(expected, tc)) {
            (_, None) => Some("not in the expected results".to_owned()),
            (None, _) => Some("no answer".to_owned()),
            (Some(a), Some(b)) if a == b => None,
            (Some(a), Some(b)) => Some(format!("answered testPassed {a}, expected {b}")),
        };
        c.case(tc, failure);
    }
    c
}
