//! RSA rows: the raw public and CRT private operations, PKCS #1 v1.5 and PSS signatures
//! (SHA-256) and OAEP encryption (SHA-256), against OpenSSL 3, AWS-LC, RustCrypto `rsa` 0.9 and 0.10 and ring, with the same
//! key (ours, imported by every peer as PKCS #8 DER): see `benches::rsa_peers`. Key generation
//! is the `keygen` module; the speed targets and the seed figures are drawn here from both.

use rsatool_rsa::hazmat::PrivateOp;
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Instant;

use benches::rsa_peers::{self, AWS_LC, Keys, OPENSSL, OURS, Op, RSA09, RSA010};

use super::harness::{Case, Imp, Measured};

/// Key sizes of the RSA rows.
pub const BITS: [usize; 4] = [1024, 2048, 3072, 4096];

/// The operations, as named in the tables.
pub const PUBLIC: &str = "rsa_public";
/// Raw private operation with the CRT.
pub const PRIVATE_CRT: &str = "rsa_private_crt";
/// PKCS #1 v1.5 sign, SHA-256.
pub const PKCS1_SIGN: &str = "pkcs1v15_sign";
/// PKCS #1 v1.5 verify, SHA-256.
pub const PKCS1_VERIFY: &str = "pkcs1v15_verify";
/// PSS sign, SHA-256.
pub const PSS_SIGN: &str = "pss_sign";
/// PSS verify, SHA-256.
pub const PSS_VERIFY: &str = "pss_verify";
/// OAEP encrypt, SHA-256.
pub const OAEP_ENCRYPT: &str = "oaep_encrypt";
/// OAEP decrypt, SHA-256.
pub const OAEP_DECRYPT: &str = "oaep_decrypt";

/// What each RSA table measures, for its heading.
pub fn describe(op: &str) -> Option<&'static str> {
    Some(match op {
        PUBLIC => "raw RSAEP, e = 65537, no padding",
        PRIVATE_CRT => "raw RSADP with the CRT, blinded and checked with e, no padding",
        PKCS1_SIGN => "RSASSA-PKCS1-v1_5 with SHA-256 over a 60-byte message, hashing included",
        PKCS1_VERIFY => "RSASSA-PKCS1-v1_5 with SHA-256, hashing included",
        PSS_SIGN => "RSASSA-PSS, SHA-256, MGF1-SHA-256, 32-byte salt, hashing included",
        PSS_VERIFY => "RSASSA-PSS, SHA-256, MGF1-SHA-256, 32-byte salt, hashing included",
        OAEP_ENCRYPT => "RSAES-OAEP, SHA-256, MGF1-SHA-256, empty label, a 60-byte message",
        OAEP_DECRYPT => "RSAES-OAEP, SHA-256, MGF1-SHA-256, empty label, blinded",
        _ => return None,
    })
}

/// The closure of `op` as a timed implementation.
pub fn imp(mut op: Op) -> Imp {
    Imp::new(op.name, move || {
        black_box((op.run)());
    })
}

/// Ratio pairs ours / every peer present in `ops`.
fn pairs(ops: &[Op]) -> Vec<(String, String)> {
    if !ops.iter().any(|o| o.name == OURS) {
        return Vec::new();
    }
    ops.iter()
        .filter(|o| o.name != OURS)
        .map(|o| (OURS.to_owned(), o.name.to_owned()))
        .collect()
}

fn case(op: &'static str, bits: usize, ops: Vec<Op>) -> Case {
    Case {
        op,
        size: bits,
        pairs: pairs(&ops),
        imps: ops.into_iter().map(imp).collect(),
    }
}

/// Stops the run: a check failed, so no figures.
pub fn fail(e: String) -> ! {
    eprintln!("compare: {e}; no figures");
    std::process::exit(1)
}

/// Checks randomized signatures: OpenSSL must accept every implementation's output.
fn check_signatures(keys: &Keys, what: &str, pss: bool, ops: &mut [Op]) {
    for op in ops.iter_mut() {
        let sig = (op.run)();
        if !keys.openssl_verifies(pss, &sig) {
            fail(format!(
                "{what} at {}: OpenSSL rejects the signature of {}",
                keys.bits, op.name
            ));
        }
    }
}

/// Checks verifiers: every one accepts the good signature and rejects it with one bit flipped.
fn check_verifiers(keys: &Keys, what: &str, pss: bool, good: &[u8]) {
    let mut bad = good.to_vec();
    bad[good.len() >> 1] ^= 1;
    for mut op in keys.verify_ops(pss, &bad) {
        if (op.run)() != [0] {
            fail(format!(
                "{what} at {}: {} accepts a corrupted signature",
                keys.bits, op.name
            ));
        }
    }
    for mut op in keys.verify_ops(pss, good) {
        if (op.run)() != [1] {
            fail(format!(
                "{what} at {}: {} rejects OpenSSL's signature",
                keys.bits, op.name
            ));
        }
    }
}

/// Every RSA case, checked (all implementations agree, or OpenSSL accepts their randomized
/// outputs) before anything is timed. Also returns the keys, for the seed-figure rows.
pub fn cases() -> (Vec<Case>, Vec<Keys>) {
    let mut out = Vec::new();
    let mut all_keys = Vec::new();
    for bits in BITS {
        eprintln!("compare: RSA keys and checks at {bits} ...");
        let keys = Keys::new(bits);
        let mut ops = keys.public_ops();
        rsa_peers::check_equal(PUBLIC, bits, &mut ops).unwrap_or_else(|e| fail(e));
        out.push(case(PUBLIC, bits, ops));
        let mut ops = keys.private_crt_ops();
        rsa_peers::check_equal(PRIVATE_CRT, bits, &mut ops).unwrap_or_else(|e| fail(e));
        out.push(case(PRIVATE_CRT, bits, ops));
        for pss in [false, true] {
            let (sign, verify) = if pss {
                (PSS_SIGN, PSS_VERIFY)
            } else {
                (PKCS1_SIGN, PKCS1_VERIFY)
            };
            let mut ops = if pss {
                keys.pss_sign_ops()
            } else {
                keys.pkcs1v15_sign_ops()
            };
            if pss {
                check_signatures(&keys, sign, true, &mut ops);
            } else {
                rsa_peers::check_equal(sign, bits, &mut ops).unwrap_or_else(|e| fail(e));
                check_signatures(&keys, sign, false, &mut ops[..1]);
            }
            out.push(case(sign, bits, ops));
            let good = keys.openssl_signature(pss);
            check_verifiers(&keys, verify, pss, &good);
            out.push(case(verify, bits, keys.verify_ops(pss, &good)));
        }
        let mut ops = keys.oaep_encrypt_ops();
        for op in ops.iter_mut() {
            let c = (op.run)();
            if keys.openssl_oaep_decrypt(&c).as_deref() != Some(rsa_peers::MESSAGE) {
                fail(format!(
                    "{OAEP_ENCRYPT} at {bits}: OpenSSL does not recover the message from {}",
                    op.name
                ));
            }
        }
        out.push(case(OAEP_ENCRYPT, bits, ops));
        let mut ops = keys.oaep_decrypt_ops(&keys.openssl_oaep_ciphertext());
        rsa_peers::check_equal(OAEP_DECRYPT, bits, &mut ops).unwrap_or_else(|e| fail(e));
        if (ops[0].run)() != rsa_peers::MESSAGE {
            fail(format!("{OAEP_DECRYPT} at {bits}: not the message"));
        }
        out.push(case(OAEP_DECRYPT, bits, ops));
        all_keys.push(keys);
    }
    (out, all_keys)
}

/// Our 1024-bit private operation without the CRT (`private_op_plain`), seconds per call (the
/// best of five batches of 20): the speedtest's third line.
pub fn private_plain_1024(keys: &[Keys]) -> Option<f64> {
    let keys = keys.iter().find(|k| k.bits == 1024)?;
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..20 {
            black_box(keys.ours.private_op_plain(black_box(&keys.m)).ok()?);
        }
        best = best.min(t.elapsed().as_secs_f64() / 20.0);
    }
    Some(best)
}

fn time_of(results: &[Measured], op: &str, bits: usize, name: &str) -> Option<f64> {
    results
        .iter()
        .find(|m| m.op == op && m.size == bits)
        .and_then(|m| m.time(name))
}

fn ratio(results: &[Measured], op: &str, bits: usize, peer: &str) -> Option<f64> {
    Some(time_of(results, op, bits, OURS)? / time_of(results, op, bits, peer)?)
}

fn verdict(r: Option<f64>, limit: f64) -> String {
    match r {
        Some(r) if r <= limit => format!("**{r:.2}** | met"),
        Some(r) => format!("**{r:.2}** | not met"),
        None => "- | not measured".to_owned(),
    }
}

/// The RSA speed targets next to the measured ratios (at 2048 bits, and every size in the
/// tables above), and the seed figures of 2003 next to ours.
pub fn targets(results: &[Measured], keygen: &[super::keygen::Row], plain: Option<f64>) -> String {
    let mut s = String::from(
        "**RSA targets** (2048 bits; ratio = ours / peer from the tables above, \
         keygen on the medians)\n\n| target | ratio | verdict |\n| --- | ---: | --- |\n",
    );
    let bits = 2048;
    let path = bignum::backend::pow_path().name();
    let _ = writeln!(
        s,
        "| CRT private at most 1.5x OpenSSL (exponentiation path: {path}) | {} |",
        verdict(ratio(results, PRIVATE_CRT, bits, OPENSSL), 1.5)
    );
    for peer in [RSA09, RSA010] {
        let _ = writeln!(
            s,
            "| CRT private at most 0.33x RustCrypto {peer} | {} |",
            verdict(ratio(results, PRIVATE_CRT, bits, peer), 0.33)
        );
    }
    let _ = writeln!(
        s,
        "| public at most 1.0x AWS-LC (no raw RSA in aws-lc-rs: PKCS #1 v1.5 SHA-256 verify, \
         ours against AWS-LC) | {} |",
        verdict(ratio(results, PKCS1_VERIFY, bits, AWS_LC), 1.0)
    );
    let _ = writeln!(
        s,
        "| public at most 1.0x OpenSSL (raw, for reference) | {} |",
        verdict(ratio(results, PUBLIC, bits, OPENSSL), 1.0)
    );
    for peer in [OPENSSL, AWS_LC, RSA09, RSA010] {
        let _ = writeln!(
            s,
            "| key generation median faster than {peer} | {} |",
            verdict(super::keygen::ratio(keygen, bits, peer), 1.0)
        );
    }
    // On a CPU with AVX-512 IFMA, the private operation against the peers' IFMA code (AWS-LC
    // has no raw RSA: its PKCS #1 v1.5 signature, ours against it).
    let _ = writeln!(
        s,
        "\n**RSA targets with AVX-512 IFMA** (exponentiation path in this run: {path})\n\n\
         | target | ratio | verdict |\n| --- | ---: | --- |"
    );
    let _ = writeln!(
        s,
        "| 2048: CRT private at most 0.95x OpenSSL | {} |",
        verdict(ratio(results, PRIVATE_CRT, 2048, OPENSSL), 0.95)
    );
    for bits in [2048, 3072, 4096] {
        let _ = writeln!(
            s,
            "| {bits}: PKCS #1 v1.5 sign at most 0.95x AWS-LC | {} |",
            verdict(ratio(results, PKCS1_SIGN, bits, AWS_LC), 0.95)
        );
    }
    let _ = writeln!(
        s,
        "| 2048: PKCS #1 v1.5 sign at most 0.95x OpenSSL | {} |",
        verdict(ratio(results, PKCS1_SIGN, 2048, OPENSSL), 0.95)
    );
    let _ = writeln!(
        s,
        "\nring has no key generation and no raw RSA; it is in the signature rows. AWS-LC and \
         ring refuse private keys under 2048 bits, and PSS keys under 2048 bits for verification.\n"
    );
    s.push_str(
        "**Perspective**: Cryptokit's `speedtest` (2003, 2.4 GHz Pentium 4, the range over its \
         bignum back ends) next to ours in this run (1024 bits; key generation from the medians \
         above, the operations from the best batches)\n\n\
         | 1024-bit RSA | Cryptokit 2003 (s) | ours now (s) | speed-up |\n| --- | ---: | ---: | ---: |\n",
    );
    let k1024 = super::keygen::median_of(keygen, 1024, OURS);
    let rows: [(&str, (f64, f64), Option<f64>); 4] = [
        ("key generation x 10", (1.36, 6.35), k1024.map(|t| t * 10.0)),
        (
            "public-key operation (e = 65537) x 1000",
            (0.42, 2.28),
            time_of(results, PUBLIC, 1024, OURS).map(|t| t * 1000.0),
        ),
        (
            "private-key operation (no CRT) x 100",
            (2.17, 8.78),
            plain.map(|t| t * 100.0),
        ),
        (
            "private-key operation with CRT x 100",
            (0.73, 2.98),
            time_of(results, PRIVATE_CRT, 1024, OURS).map(|t| t * 100.0),
        ),
    ];
    for (what, (lo, hi), ours) in rows {
        match ours {
            Some(t) => {
                let _ = writeln!(
                    s,
                    "| {what} | {lo:.2} - {hi:.2} | {t:.4} | {:.0}x - {:.0}x |",
                    lo / t,
                    hi / t
                );
            }
            None => {
                let _ = writeln!(s, "| {what} | {lo:.2} - {hi:.2} | - | - |");
            }
        }
    }
    s.push('\n');
    s
}
