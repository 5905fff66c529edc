//! RSA key generation (e = 65537, two primes) against OpenSSL 3 (`RSA_generate_key_ex`),
//! AWS-LC (`rsa::KeyPair::generate`, 2048 bits and up), RustCrypto `rsa` 0.9 and 0.10
//! (`new(rng, bits)`): medians, since the time to find the primes varies widely from key to
//! key. The libraries take turns key by key, so all see the same load. Every key counts only
//! after a check: ours by OpenSSL's `RSA_check_key`, each peer's by our import and validation
//! of its PKCS #8 encoding (n = p·q, e·d = 1 mod λ(n), the CRT values). Above 2048 bits an
//! implementation stops early at a size once its keys there have taken `cap` seconds in all
//! (its count says so); up to 2048 bits every implementation makes the full count.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use benches::rsa_peers::{self, AWS_LC, OPENSSL, OURS, RSA09, RSA010};
use serde_json::{Value, json};

/// One size's result: per implementation, the seconds of every key it made.
pub struct Row {
    bits: usize,
    times: Vec<(&'static str, Vec<f64>)>,
}

fn median(v: &[f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let mid = s.len() >> 1;
    Some(if s.len() & 1 == 1 {
        s[mid]
    } else {
        (s[mid - 1] + s[mid]) / 2.0
    })
}

/// Checks a peer's key: our decoder and validation must accept its PKCS #8 DER.
fn ours_accepts(name: &str, bits: usize, der: &[u8]) {
    let parts = rsatool_rsa::decode_private_key(der)
        .unwrap_or_else(|e| panic!("{name} {bits}-bit key: our decoder says {e}"));
    let key = rsatool_rsa::RsaPrivateKey::from_parts_allowing_small(&parts, 1024)
        .unwrap_or_else(|e| panic!("{name} {bits}-bit key: our validation says {e}"));
    assert_eq!(key.bits(), bits, "{name} made a key of the wrong size");
}

/// One key of `bits` bits by `name`, timed; `None` if that library does not make this size.
fn one(name: &str, bits: usize, seed: u64) -> Option<f64> {
    let t = Instant::now();
    match name {
        OURS => {
            let key = rsatool_rsa::RsaPrivateKey::generate(bits, &mut rsa_peers::rng(seed))
                .expect("keygen");
            let el = t.elapsed().as_secs_f64();
            let der = rsatool_rsa::encode_private_key(
                &key.to_parts(),
                rsatool_rsa::KeyFormat::Pkcs1,
                rsatool_rsa::Encoding::Der,
            )
            .expect("PKCS #1");
            let ossl =
                openssl::rsa::Rsa::private_key_from_der(&der).expect("OpenSSL reads our key");
            assert!(
                ossl.check_key().expect("RSA_check_key"),
                "OpenSSL rejects our key"
            );
            Some(el)
        }
        OPENSSL => {
            let key = openssl::rsa::Rsa::generate(u32::try_from(bits).ok()?)
                .expect("RSA_generate_key_ex");
            let el = t.elapsed().as_secs_f64();
            let der = openssl::pkey::PKey::from_rsa(key)
                .and_then(|k| k.private_key_to_pkcs8())
                .expect("PKCS #8");
            ours_accepts(name, bits, &der);
            Some(el)
        }
        AWS_LC => {
            use aws_lc_rs::encoding::AsDer;
            use aws_lc_rs::rsa::{KeyPair, KeySize};
            let size = match bits {
                2048 => KeySize::Rsa2048,
                3072 => KeySize::Rsa3072,
                4096 => KeySize::Rsa4096,
                _ => return None,
            };
            let key = KeyPair::generate(size).expect("AWS-LC keygen");
            let el = t.elapsed().as_secs_f64();
            let der = key.as_der().expect("PKCS #8");
            ours_accepts(name, bits, der.as_ref());
            Some(el)
        }
        RSA09 => {
            use rsa09::pkcs8::EncodePrivateKey;
            let key = rsa09::RsaPrivateKey::new(&mut rand_core06::OsRng, bits).expect("keygen");
            let el = t.elapsed().as_secs_f64();
            let der = key.to_pkcs8_der().expect("PKCS #8").as_bytes().to_vec();
            ours_accepts(name, bits, &der);
            Some(el)
        }
        RSA010 => {
            use rsa010::pkcs8::EncodePrivateKey;
            let key = rsa010::PrivateKey::new(&mut rsa_peers::rng(seed), bits).expect("keygen");
            let el = t.elapsed().as_secs_f64();
            let der = key.to_pkcs8_der().expect("PKCS #8").as_bytes().to_vec();
            ours_accepts(name, bits, &der);
            Some(el)
        }
        _ => None,
    }
}

/// Generates up to `count` keys per size (the pairs) with each library, interleaved; above 2048
/// bits a library stops at a size once its keys there took `cap` in all.
///
/// # Panics
///
/// If a library fails, or a key fails its check.
pub fn run(sizes: &[(usize, usize)], cap: Duration) -> Vec<Row> {
    let names = [OURS, OPENSSL, AWS_LC, RSA09, RSA010];
    let mut seed = 1000;
    sizes
        .iter()
        .map(|&(bits, count)| {
            eprintln!("compare: keygen {bits} x {count} ...");
            let mut row = Row {
                bits,
                times: names.iter().map(|&n| (n, Vec::new())).collect(),
            };
            let mut skip = vec![false; names.len()];
            for _ in 0..count {
                for (i, (name, times)) in row.times.iter_mut().enumerate() {
                    if skip[i] {
                        continue;
                    }
                    seed += 1;
                    match one(name, bits, seed) {
                        Some(t) => times.push(t),
                        None => skip[i] = true,
                    }
                    if bits > 2048 && times.iter().sum::<f64>() > cap.as_secs_f64() {
                        skip[i] = true;
                    }
                }
            }
            row
        })
        .collect()
}

/// The median seconds of `name` at `bits`.
pub fn median_of(rows: &[Row], bits: usize, name: &str) -> Option<f64> {
    let row = rows.iter().find(|r| r.bits == bits)?;
    median(&row.times.iter().find(|(n, _)| *n == name)?.1)
}

/// Ours / `peer` on the medians at `bits`.
pub fn ratio(rows: &[Row], bits: usize, peer: &str) -> Option<f64> {
    Some(median_of(rows, bits, OURS)? / median_of(rows, bits, peer)?)
}

/// The Markdown table.
pub fn markdown(rows: &[Row], cap: Duration) -> String {
    let Some(first) = rows.first() else {
        return String::new();
    };
    let names: Vec<&str> = first.times.iter().map(|(n, _)| *n).collect();
    let mut s = String::from(
        "**RSA key generation** (e = 65537, two primes; ms per key, median over the count in \
         brackets; ratio = ours / peer on the medians)\n\n| bits |",
    );
    let mut rule = String::from("| ---: |");
    for n in &names {
        let _ = write!(s, " {n} |");
        rule.push_str(" ---: |");
    }
    for n in names.iter().filter(|&&n| n != OURS) {
        let _ = write!(s, " ours / {n} |");
        rule.push_str(" ---: |");
    }
    let _ = writeln!(s, "\n{rule}");
    for r in rows {
        let _ = write!(s, "| {} |", r.bits);
        for (_, t) in &r.times {
            match median(t) {
                Some(m) => {
                    let _ = write!(s, " {:.1} ({}) |", m * 1e3, t.len());
                }
                None => s.push_str(" - |"),
            }
        }
        for n in names.iter().filter(|&&n| n != OURS) {
            match ratio(rows, r.bits, n) {
                Some(x) => {
                    let _ = write!(s, " **{x:.2}** |");
                }
                None => s.push_str(" - |"),
            }
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "\nOurs: `RsaPrivateKey::generate` (FIPS 186-5 A.1.3, pairwise check) from a ChaCha20 \
         RNG; OpenSSL {}: `Rsa::generate`; AWS-LC: `aws_lc_rs::rsa::KeyPair::generate` (no sizes \
         under 2048); rsa 0.9 (`OsRng`) and 0.10 (ChaCha20): `new(rng, bits)`. Above 2048 bits an \
         implementation stops at a size after {:.0} s of keys there, hence smaller counts. \
         Each key is checked by another library before it counts.\n",
        openssl::version::version(),
        cap.as_secs_f64()
    );
    s
}

/// The JSON rows.
pub fn json(rows: &[Row]) -> Value {
    Value::Array(
        rows.iter()
            .flat_map(|r| {
                r.times.iter().map(move |(n, t)| {
                    json!({"op": "rsa_keygen", "bits": r.bits, "impl": n, "count": t.len(),
                        "median_seconds": median(t), "seconds": t})
                })
            })
            .collect(),
    )
}
