//! `rsa` benchmarks at 1024, 2048, 3072 and 4096 bits: key generation, the raw public
//! operation (e = 65537), the raw private operation plain and with the CRT (blinded,
//! fault-checked), PKCS #1 v1.5 / PSS signatures with SHA-256, OAEP (SHA-256) and PKCS #1 v1.5
//! encryption and decryption (implicit rejection: valid and rejected ciphertexts). Ids are
//! `rsa/<op>/<impl>/<bits>`, `<impl>` = `ours` and, with the `peers` feature, `openssl`,
//! `aws-lc`, `rsa-0.9`, `rsa-0.10`, `ring` on the same key (ours, imported as PKCS #8 DER; see
//! `benches::rsa_peers`). AWS-LC and ring have no raw RSA and take no private key under 2048
//! bits; ring has no key generation.
//!
//! ```text
//! cargo bench -p benches --bench rsa -- --warm-up-time 1 --measurement-time 2
//! cargo bench -p benches --features peers --bench rsa -- rsa/private_crt
//! ```

use rsatool_rsa::hazmat::{PrivateOp, PublicOp};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rsatool_rsa::{
    EncryptionScheme, HashAlg, Oaep, OsRng, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss, RsaPrivateKey,
    SignatureScheme,
};

/// Key sizes of every group.
const BITS: [usize; 4] = [1024, 2048, 3072, 4096];

#[cfg(feature = "peers")]
type Group<'a> = criterion::BenchmarkGroup<'a, criterion::measurement::WallTime>;

fn keygen(c: &mut Criterion) {
    eprintln!("bignum back end: {}", bignum::mpn::kernels().name);
    let mut g = c.benchmark_group("rsa/keygen");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    let mut rng = rsatool_rsa::os_rng();
    for bits in BITS {
        g.bench_function(BenchmarkId::new("ours", bits), |b| {
            b.iter(|| RsaPrivateKey::generate(black_box(bits), &mut rng).expect("keygen"))
        });
        #[cfg(feature = "peers")]
        peer_keygen(&mut g, bits);
    }
    g.finish();
}

/// The peers' key generation in the same group (AWS-LC from 2048 bits).
#[cfg(feature = "peers")]
fn peer_keygen(g: &mut Group<'_>, bits: usize) {
    use benches::rsa_peers::{AWS_LC, OPENSSL, RSA09, RSA010};
    let b32 = u32::try_from(bits).expect("small");
    g.bench_function(BenchmarkId::new(OPENSSL, bits), |b| {
        b.iter(|| openssl::rsa::Rsa::generate(black_box(b32)).expect("keygen"))
    });
    let size = match bits {
        2048 => Some(aws_lc_rs::rsa::KeySize::Rsa2048),
        3072 => Some(aws_lc_rs::rsa::KeySize::Rsa3072),
        4096 => Some(aws_lc_rs::rsa::KeySize::Rsa4096),
        _ => None,
    };
    if let Some(size) = size {
        g.bench_function(BenchmarkId::new(AWS_LC, bits), |b| {
            b.iter(|| aws_lc_rs::rsa::KeyPair::generate(black_box(size)).expect("keygen"))
        });
    }
    g.bench_function(BenchmarkId::new(RSA09, bits), |b| {
        b.iter(|| {
            rsa09::RsaPrivateKey::new(&mut rand_core06::OsRng, black_box(bits)).expect("keygen")
        })
    });
    let mut rng = benches::rsa_peers::rng(7);
    g.bench_function(BenchmarkId::new(RSA010, bits), |b| {
        b.iter(|| rsa010::PrivateKey::new(&mut rng, black_box(bits)).expect("keygen"))
    });
}

/// A fixed input below n: top byte zero, then a byte pattern.
fn input(k: usize) -> Vec<u8> {
    let mut m = vec![0u8; k];
    let mut x = 7u8;
    for b in m.iter_mut().skip(1) {
        x = x.wrapping_mul(151).wrapping_add(7);
        *b = x;
    }
    m
}

/// The peers' form of our key of that size.
#[cfg(feature = "peers")]
fn peer<'a>(
    peers: &'a [benches::rsa_peers::Keys],
    key: &RsaPrivateKey,
) -> &'a benches::rsa_peers::Keys {
    peers
        .iter()
        .find(|p| p.bits == key.bits())
        .expect("one key per size")
}

/// Times every op of a peer list (skipping ours, benched directly) under its name.
#[cfg(feature = "peers")]
fn peer_ops(g: &mut Group<'_>, bits: usize, ops: Vec<benches::rsa_peers::Op>) {
    for mut op in ops
        .into_iter()
        .filter(|o| o.name != benches::rsa_peers::OURS)
    {
        g.bench_function(BenchmarkId::new(op.name, bits), |b| b.iter(|| (op.run)()));
    }
}

/// What the groups of the padding schemes share: our keys (one a size), an RNG, the message,
/// and with the `peers` feature the peers' forms of the keys.
struct Schemes<'a> {
    keys: &'a [Arc<RsaPrivateKey>],
    rng: OsRng,
    msg: &'a [u8],
    #[cfg(feature = "peers")]
    peers: &'a [benches::rsa_peers::Keys],
}

impl Schemes<'_> {
    /// The groups `rsa/<name>_sign` and `rsa/<name>_verify` of a signature scheme: ours, and
    /// the peers' PSS operations if `pss` is set (PKCS #1 v1.5's if not).
    fn sign_and_verify<S: SignatureScheme>(
        &mut self,
        c: &mut Criterion,
        name: &str,
        scheme: &S,
        #[cfg(feature = "peers")] pss: bool,
    ) {
        let (rng, msg) = (&mut self.rng, self.msg);
        let mut g = c.benchmark_group(format!("rsa/{name}_sign"));
        for key in self.keys {
            g.bench_function(BenchmarkId::new("ours", key.bits()), |b| {
                b.iter(|| key.sign(rng, scheme, black_box(msg)).expect("sign"))
            });
            #[cfg(feature = "peers")]
            {
                let peer = peer(self.peers, key);
                let ops = if pss {
                    peer.pss_sign_ops()
                } else {
                    peer.pkcs1v15_sign_ops()
                };
                peer_ops(&mut g, key.bits(), ops);
            }
        }
        g.finish();
        let mut g = c.benchmark_group(format!("rsa/{name}_verify"));
        for key in self.keys {
            let sig = key.sign(rng, scheme, msg).expect("sign");
            let public = key.public_key();
            g.bench_function(BenchmarkId::new("ours", key.bits()), |b| {
                b.iter(|| public.verify(scheme, black_box(msg), &sig).expect("verify"))
            });
            #[cfg(feature = "peers")]
            peer_ops(
                &mut g,
                key.bits(),
                peer(self.peers, key).verify_ops(pss, &sig),
            );
        }
        g.finish();
    }

    /// The message encrypted to `key` with `scheme`: the input of the decryption groups.
    fn ciphertext<S: EncryptionScheme>(&mut self, key: &RsaPrivateKey, scheme: &S) -> Vec<u8> {
        key.public_key()
            .encrypt(&mut self.rng, scheme, self.msg)
            .expect("encrypt")
    }

    /// The group `rsa/<name>_encrypt` of an encryption scheme: ours, and the operations
    /// `peer_ops_of` gives for the peers' form of each key.
    fn encrypt<S: EncryptionScheme>(
        &mut self,
        c: &mut Criterion,
        name: &str,
        scheme: &S,
        #[cfg(feature = "peers")] peer_ops_of: fn(
            &benches::rsa_peers::Keys,
        ) -> Vec<benches::rsa_peers::Op>,
    ) {
        let (rng, msg) = (&mut self.rng, self.msg);
        let mut g = c.benchmark_group(format!("rsa/{name}_encrypt"));
        for key in self.keys {
            let public = key.public_key();
            g.bench_function(BenchmarkId::new("ours", key.bits()), |b| {
                b.iter(|| {
                    public
                        .encrypt(rng, scheme, black_box(msg))
                        .expect("encrypt")
                })
            });
            #[cfg(feature = "peers")]
            peer_ops(&mut g, key.bits(), peer_ops_of(peer(self.peers, key)));
        }
        g.finish();
    }
}

fn ops(c: &mut Criterion) {
    let mut rng = rsatool_rsa::os_rng();
    let keys: Vec<Arc<RsaPrivateKey>> = BITS
        .iter()
        .map(|&bits| Arc::new(RsaPrivateKey::generate(bits, &mut rng).expect("keygen")))
        .collect();
    #[cfg(feature = "peers")]
    let peers: Vec<benches::rsa_peers::Keys> = keys
        .iter()
        .map(|k| benches::rsa_peers::Keys::from_ours(Arc::clone(k)))
        .collect();

    let mut g = c.benchmark_group("rsa/public");
    for key in &keys {
        let bits = key.bits();
        let s = key
            .private_op(&mut rng, &input(key.size()))
            .expect("private op");
        let public = key.public_key();
        g.bench_function(BenchmarkId::new("ours", bits), |b| {
            b.iter(|| public.public_op(black_box(&s)).expect("public op"))
        });
        #[cfg(feature = "peers")]
        peer_ops(&mut g, bits, peer(&peers, key).public_ops());
    }
    g.finish();

    let mut g = c.benchmark_group("rsa/private");
    for key in &keys {
        let m = input(key.size());
        g.bench_function(BenchmarkId::new("ours", key.bits()), |b| {
            b.iter(|| key.private_op_plain(black_box(&m)).expect("private op"))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("rsa/private_crt");
    for key in &keys {
        let m = input(key.size());
        g.bench_function(BenchmarkId::new("ours", key.bits()), |b| {
            b.iter(|| key.private_op(&mut rng, black_box(&m)).expect("private op"))
        });
        #[cfg(feature = "peers")]
        peer_ops(&mut g, key.bits(), peer(&peers, key).private_crt_ops());
    }
    g.finish();

    let msg = b"rsatool side-by-side benchmark message, signed by every peer";
    let mut schemes = Schemes {
        keys: &keys,
        rng: rsatool_rsa::os_rng(),
        msg,
        #[cfg(feature = "peers")]
        peers: &peers,
    };
    let pkcs1 = Pkcs1v15Sign::new(HashAlg::Sha256);
    schemes.sign_and_verify(
        c,
        "pkcs1v15",
        &pkcs1,
        #[cfg(feature = "peers")]
        false,
    );
    let pss = Pss::new(HashAlg::Sha256);
    schemes.sign_and_verify(
        c,
        "pss",
        &pss,
        #[cfg(feature = "peers")]
        true,
    );
    let oaep = Oaep::new(HashAlg::Sha256);
    schemes.encrypt(
        c,
        "oaep",
        &oaep,
        #[cfg(feature = "peers")]
        benches::rsa_peers::Keys::oaep_encrypt_ops,
    );
    let mut g = c.benchmark_group("rsa/oaep_decrypt");
    for key in &keys {
        let ct = schemes.ciphertext(key, &oaep);
        g.bench_function(BenchmarkId::new("ours", key.bits()), |b| {
            b.iter(|| {
                key.decrypt(&mut rng, &oaep, black_box(&ct))
                    .expect("decrypt")
            })
        });
        #[cfg(feature = "peers")]
        peer_ops(&mut g, key.bits(), peer(&peers, key).oaep_decrypt_ops(&ct));
    }
    g.finish();
    // PKCS #1 v1.5 encryption; decryption with implicit rejection (RFC 8017 errata / the
    // IETF draft "Implicit Rejection for RSA PKCS#1 v1.5 decryption"), of a valid ciphertext
    // (`ours`) and of one with bad padding (`ours-rejected`, which yields a synthetic message):
    // the two must take the same time. Ours only: the system's OpenSSL 3.0 predates implicit
    // rejection (3.2), and the other peers have none.
    let v15 = Pkcs1v15Encrypt::new();
    schemes.encrypt(
        c,
        "pkcs1v15",
        &v15,
        #[cfg(feature = "peers")]
        |_| Vec::new(),
    );
    let mut g = c.benchmark_group("rsa/pkcs1v15_decrypt");
    for key in &keys {
        let ct = schemes.ciphertext(key, &v15);
        let mut bad = ct.clone();
        bad[key.size() >> 1] ^= 0x5a;
        bad[0] = 0;
        assert_eq!(key.decrypt(&mut rng, &v15, &ct).expect("decrypt"), msg);
        for (name, c) in [("ours", &ct), ("ours-rejected", &bad)] {
            g.bench_function(BenchmarkId::new(name, key.bits()), |b| {
                b.iter(|| {
                    key.decrypt(&mut rng, &v15, black_box(c))
                        .expect("implicit rejection")
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, keygen, ops);
criterion_main!(benches);
