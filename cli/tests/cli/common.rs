//! Helpers shared by the key tool's integration tests: run the built binary, make keys once
//! per test binary, check the one-line error contract, find the external oracles.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// Every command, as ARCHITECTURE.md ("Command line") lists them, `completions` and `man` (the
/// generated documentation) last.
pub const COMMANDS: [&str; 17] = [
    "keygen",
    "pubkey",
    "key",
    "sign",
    "verify",
    "encrypt",
    "decrypt",
    "prime",
    "kat",
    "acvp",
    "speedtest",
    "primegen",
    "metime",
    "mulsqr",
    "speed",
    "completions",
    "man",
];

/// Runs rsatool with `args` in `dir`, with `stdin` as its standard input (empty if `None`).
pub fn rsatool_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    run_with_stdin(
        Command::new(env!("CARGO_BIN_EXE_rsatool"))
            .args(args)
            .current_dir(dir),
        stdin,
    )
}

/// Runs rsatool with `args` in the current folder, with empty stdin.
pub fn rsatool(args: &[&str]) -> Output {
    rsatool_in(Path::new("."), args, None)
}

fn run_with_stdin(cmd: &mut Command, stdin: Option<&[u8]>) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let data = stdin.unwrap_or_default().to_vec();
    // Write from a thread, so that a large input cannot dead-lock against a full stdout.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&data);
    });
    let out = child.wait_with_output().expect("the command runs");
    writer.join().expect("stdin writer");
    out
}

/// Runs `openssl` in `dir` and requires success; `None` if openssl is not installed.
pub fn openssl(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Option<Output> {
    if !has_openssl() {
        return None;
    }
    let out = run_with_stdin(Command::new("openssl").args(args).current_dir(dir), stdin);
    assert!(
        out.status.success(),
        "openssl {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(out)
}

/// `openssl genpkey` of a key of `algorithm` (`RSA`, `RSA-PSS`) and `bits` bits into `out` in
/// `dir`, with `extra` options before `-out`; `None` if openssl is not installed.
fn openssl_genpkey(
    dir: &Path,
    algorithm: &str,
    bits: usize,
    extra: &[&str],
    out: &str,
) -> Option<Output> {
    let bits = format!("rsa_keygen_bits:{bits}");
    let mut args = vec!["genpkey", "-algorithm", algorithm, "-pkeyopt", &bits];
    args.extend_from_slice(extra);
    args.extend(["-out", out]);
    openssl(dir, &args, None)
}

/// `openssl genpkey` of an RSA key of `bits` bits into `out` in `dir`, with `extra` options
/// (a cipher and `-pass`, say) before `-out`; `None` if openssl is not installed.
pub fn openssl_genrsa(dir: &Path, bits: usize, extra: &[&str], out: &str) -> Option<Output> {
    openssl_genpkey(dir, "RSA", bits, extra, out)
}

/// `openssl genpkey` of a 2048-bit RSA-PSS key into `out` in `dir`, with each of `pkeyopts` as
/// a further `-pkeyopt`; `None` if openssl is not installed.
pub fn openssl_genpss(dir: &Path, pkeyopts: &[&str], out: &str) -> Option<Output> {
    let extra: Vec<&str> = pkeyopts.iter().flat_map(|o| ["-pkeyopt", o]).collect();
    openssl_genpkey(dir, "RSA-PSS", 2048, &extra, out)
}

/// A [`scratch`] folder holding `name`, made by [`openssl_genrsa`]; `None` if openssl is not
/// installed.
pub fn scratch_with_openssl_key(
    bits: usize,
    extra: &[&str],
    name: &str,
) -> Option<tempfile::TempDir> {
    scratch_made_by(|d| openssl_genrsa(d, bits, extra, name))
}

/// A [`scratch`] folder with what `make` wrote in it; `None` when `make` gives `None` (its
/// oracle is not installed).
pub fn scratch_made_by<T>(make: impl FnOnce(&Path) -> Option<T>) -> Option<tempfile::TempDir> {
    let dir = scratch();
    make(dir.path())?;
    Some(dir)
}

/// `openssl dgst -HASH ACTION KEY`, `-sigopt` before each of `sigopts`, then `-out SIG` (for
/// `-sign`) or `-signature SIG` (`-verify`, `-prverify`), over `msg`; requires success. `None`
/// if openssl is not installed.
pub fn openssl_dgst(
    dir: &Path,
    hash: &str,
    action: &str,
    key: &str,
    sigopts: &[&str],
    sig: &str,
    msg: &str,
) -> Option<Output> {
    let hash = format!("-{hash}");
    let mut args = vec!["dgst", &hash, action, key];
    for opt in sigopts {
        args.extend(["-sigopt", opt]);
    }
    let sig_flag = if action == "-sign" {
        "-out"
    } else {
        "-signature"
    };
    args.extend([sig_flag, sig, msg]);
    openssl(dir, &args, None)
}

/// OpenSSL opens the encrypted `file` with `password`.
pub fn openssl_opens(dir: &Path, file: &str, password: &str) {
    let pass = format!("pass:{password}");
    openssl(
        dir,
        &["pkey", "-in", file, "-passin", &pass, "-noout"],
        None,
    );
}

/// Whether the `openssl` command runs; prints a note once when it does not.
pub fn has_openssl() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        let ok = Command::new("openssl")
            .arg("version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            eprintln!("note: openssl is not installed; the openssl interop checks are skipped");
        }
        ok
    })
}

/// Whether Python 3 with the `cryptography` package runs; prints a note when it does not.
pub fn has_python_cryptography() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        let ok = Command::new("python3")
            .args(["-c", "import cryptography"])
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            eprintln!(
                "note: python3 with the cryptography package is missing; its interop checks \
                 are skipped"
            );
        }
        ok
    })
}

/// Runs a Python script (with `cryptography`) in `dir` with `args` as `sys.argv[1:]`; asserts
/// success. `None` if Python or the module is missing.
pub fn python(dir: &Path, script: &str, args: &[&str]) -> Option<Output> {
    if !has_python_cryptography() {
        return None;
    }
    let out = run_with_stdin(
        Command::new("python3")
            .arg("-c")
            .arg(script)
            .args(args)
            .current_dir(dir),
        None,
    );
    assert!(
        out.status.success(),
        "python3 failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(out)
}

/// A fresh folder under cargo's target tmp dir, removed when dropped.
pub fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("rsatool-test-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .expect("scratch folder")
}

/// A [`scratch`] folder holding one small ACVP vector set (`sets/`, 15 vectors of
/// testvectors/data's signature primitive): for the tests of what `kat` shows while it runs,
/// which need a run, not the whole suite's (one full run, in `sign.rs`, is enough).
pub fn scratch_with_small_kat() -> tempfile::TempDir {
    let dir = scratch();
    let name = "RSA-SignaturePrimitive-2.0-local";
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testvectors/data/acvp")
        .join(name);
    let to = dir.path().join("sets").join(name);
    std::fs::create_dir_all(&to).expect("sets folder");
    for file in ["prompt.json", "expectedResults.json"] {
        std::fs::copy(from.join(file), to.join(file)).expect("copy the vector set");
    }
    dir
}

/// A [`scratch`] folder holding `name`, with `bytes` in it.
pub fn scratch_with(name: &str, bytes: &[u8]) -> tempfile::TempDir {
    let dir = scratch();
    write(dir.path(), name, bytes);
    dir
}

/// Runs `check` in a [`scratch_with`] folder when `oracle` (whether the oracle it checks
/// against is installed) is true; skipped otherwise.
pub fn with_oracle(oracle: bool, name: &str, bytes: &[u8], check: impl FnOnce(&Path)) {
    if oracle {
        check(scratch_with(name, bytes).path());
    }
}

/// A [`scratch`] folder holding `k.pem`, a copy of the shared 2048-bit [`key`].
pub fn scratch_with_key() -> tempfile::TempDir {
    let dir = scratch();
    let bytes = std::fs::read(key(2048)).expect("key");
    std::fs::write(dir.path().join("k.pem"), bytes).expect("write");
    dir
}

/// A folder that lives as long as the test binary (the shared keys are kept there).
fn shared_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("rsatool-keys-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("key folder");
        dir
    })
}

/// A file of the shared folder, made once per test binary and key size (1024, 2048 or 3072
/// bits): `{name}{bits}.pem`, written by `rsatool ARGS -o FILE` (which must succeed).
fn shared_file(
    cells: &'static [OnceLock<PathBuf>; 3],
    bits: usize,
    name: &str,
    args: &[&str],
) -> &'static Path {
    let cell = match bits {
        1024 => &cells[0],
        2048 => &cells[1],
        3072 => &cells[2],
        _ => panic!("no shared key of {bits} bits"),
    };
    cell.get_or_init(|| {
        let path = shared_dir().join(format!("{name}{bits}.pem"));
        let mut args = args.to_vec();
        args.extend(["-o", s(&path)]);
        assert_success(&rsatool_in(shared_dir(), &args, None));
        path
    })
}

/// A private key of `bits` bits (PKCS #8 PEM, made by `rsatool keygen`), once per test binary.
pub fn key(bits: usize) -> &'static Path {
    static KEYS: [OnceLock<PathBuf>; 3] = [const { OnceLock::new() }; 3];
    shared_file(&KEYS, bits, "key", &["keygen", "--bits", &bits.to_string()])
}

/// The public key (SPKI PEM) of [`key`].
pub fn public_key(bits: usize) -> &'static Path {
    static PUBLIC: [OnceLock<PathBuf>; 3] = [const { OnceLock::new() }; 3];
    shared_file(&PUBLIC, bits, "pub", &["pubkey", "-k", s(key(bits))])
}

/// Path as `&str` for an argument list.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("test paths are UTF-8")
}

/// Exit `code`; the message shows stderr when it is not.
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "exit code; stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Exit 0 and nothing on stderr.
pub fn assert_success(out: &Output) {
    assert_exit(out, 0);
    assert!(
        out.stderr.is_empty(),
        "nothing on stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The error contract: exit `code`, exactly one line on stderr starting `rsatool: ` and
/// containing each of `needles`, no panic text, nothing on stdout.
pub fn assert_failure(out: &Output, code: i32, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "exit code; stderr: {err}");
    assert_eq!(
        err.lines().count(),
        1,
        "exactly one line on stderr: {err:?}"
    );
    assert!(err.ends_with('\n'), "a whole line: {err:?}");
    assert!(err.starts_with("rsatool: "), "{err:?}");
    for bad in ["panicked", "RUST_BACKTRACE", "internal error", "Usage:"] {
        assert!(!err.contains(bad), "{bad} in {err:?}");
    }
    for needle in needles {
        assert!(err.contains(needle), "{needle:?} not in {err:?}");
    }
    assert!(
        out.stdout.is_empty(),
        "nothing on stdout: {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// The names in a folder, sorted (to see that nothing, not even a temporary file, was left).
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Python with `cryptography`: operations separated by `+` arguments, each one of `sign KEY
/// SCHEME HASH SALT MSG OUT`, `verify PUB SCHEME HASH SALT MSG SIG`, `encrypt PUB SCHEME HASH
/// MGF1 LABEL IN OUT`, `decrypt KEY ...`, `genkey BITS OUT` (PKCS #1 DER); SALT is digest,
/// max, auto or a number. Batched because starting Python costs more than the operations.
pub const PY: &str = r#"
import sys
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
H = {'sha1': hashes.SHA1, 'sha224': hashes.SHA224, 'sha256': hashes.SHA256,
     'sha384': hashes.SHA384, 'sha512': hashes.SHA512,
     'sha512-224': hashes.SHA512_224, 'sha512-256': hashes.SHA512_256}
def read(p):
    with open(p, 'rb') as f:
        return f.read()
def write(p, b):
    with open(p, 'wb') as f:
        f.write(b)
def priv(p):
    d = read(p)
    if d.startswith(b'-----'):
        return serialization.load_pem_private_key(d, None)
    return serialization.load_der_private_key(d, None)
def pub(p):
    d = read(p)
    if d.startswith(b'-----'):
        return serialization.load_pem_public_key(d)
    return serialization.load_der_public_key(d)
def sig_pad(scheme, h, salt):
    if scheme == 'pkcs1v15':
        return padding.PKCS1v15()
    named = {'digest': padding.PSS.DIGEST_LENGTH, 'max': padding.PSS.MAX_LENGTH,
             'auto': padding.PSS.AUTO}
    return padding.PSS(mgf=padding.MGF1(H[h]()), salt_length=named.get(salt) if salt in named else int(salt))
def enc_pad(scheme, h, mgf, label):
    if scheme == 'pkcs1v15':
        return padding.PKCS1v15()
    return padding.OAEP(mgf=padding.MGF1(H[mgf]()), algorithm=H[h](), label=label.encode() or None)
def run(op, a):
    if op == 'sign':
        write(a[5], priv(a[0]).sign(read(a[4]), sig_pad(a[1], a[2], a[3]), H[a[2]]()))
    elif op == 'verify':
        pub(a[0]).verify(read(a[5]), read(a[4]), sig_pad(a[1], a[2], a[3]), H[a[2]]())
    elif op == 'encrypt':
        write(a[6], pub(a[0]).encrypt(read(a[5]), enc_pad(a[1], a[2], a[3], a[4])))
    elif op == 'decrypt':
        write(a[6], priv(a[0]).decrypt(read(a[5]), enc_pad(a[1], a[2], a[3], a[4])))
    elif op == 'genkey':
        k = rsa.generate_private_key(public_exponent=65537, key_size=int(a[0]))
        write(a[1], k.private_bytes(serialization.Encoding.DER,
              serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()))
    else:
        sys.exit('unknown op ' + op)
# Operations separated by '+' arguments, run in order (one interpreter start for many).
ops, cur = [], []
for arg in sys.argv[1:] + ['+']:
    if arg == '+':
        if cur:
            ops.append(cur)
        cur = []
    else:
        cur.append(arg)
for i, op in enumerate(ops):
    try:
        run(op[0], op[1:])
    except Exception as e:
        sys.exit('operation %d %r failed: %r' % (i, op, e))
"#;

/// Runs the batch of operations (of [`PY`]) in one Python process; false if Python is missing.
pub fn py_batch(dir: &Path, ops: &[Vec<String>]) -> bool {
    let args: Vec<&str> = ops
        .iter()
        .flat_map(|op| op.iter().map(String::as_str).chain(["+"]))
        .collect();
    python(dir, PY, &args).is_some()
}

/// One operation of a [`py_batch`], from words.
pub fn op(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

/// Every hash `--hash` takes; `sign` takes all but SHA-1, the first (`HASHES[1..]`).
pub const HASHES: [&str; 7] = [
    "sha1",
    "sha224",
    "sha256",
    "sha384",
    "sha512",
    "sha512-224",
    "sha512-256",
];

/// Writes `bytes` to `name` in `dir`.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).expect("write");
}

/// Inputs of the wrong length made from `good` (as long as a 2048-bit key's modulus), each
/// with what the error says of it: a byte short, a byte (`extra`) too long, empty; `what`
/// names such inputs ("signatures", "ciphertexts").
pub fn wrong_lengths(good: &[u8], extra: u8, what: &str) -> [(Vec<u8>, String); 3] {
    [
        (
            good[1..].to_vec(),
            format!("255 bytes, but a 2048-bit key's {what} are 256 bytes"),
        ),
        ([good, &[extra]].concat(), "more than 256 bytes".to_owned()),
        (Vec::new(), "0 bytes".to_owned()),
    ]
}

/// The key sizes of the interop tests.
pub const SIZES: [usize; 2] = [2048, 3072];

/// A both-ways check against Python in `dir`: `queue(bits, i)` does our side of case `i` (of
/// `cases`) at each of [`SIZES`] and gives Python's operations for it, one [`py_batch`] runs
/// them all, then `check(bits, i)` looks at the results.
pub fn py_each_size_and_case(
    dir: &Path,
    cases: usize,
    mut queue: impl FnMut(usize, usize) -> Vec<Vec<String>>,
    mut check: impl FnMut(usize, usize),
) {
    let mut ops = Vec::new();
    for bits in SIZES {
        for i in 0..cases {
            ops.extend(queue(bits, i));
        }
    }
    assert!(py_batch(dir, &ops));
    for bits in SIZES {
        for i in 0..cases {
            check(bits, i);
        }
    }
}

/// A message of a few megabytes, so that streaming the input through the hash is exercised.
pub fn big_message(dir: &Path) -> &'static str {
    let msg: Vec<u8> = (0..3_000_017u32)
        .map(|i| i.wrapping_mul(2_654_435_761).to_be_bytes()[0])
        .collect();
    std::fs::write(dir.join("big.msg"), msg).expect("write");
    "big.msg"
}

/// Runs rsatool in `dir` and requires success with nothing on stderr; its output.
pub fn rsatool_ok(dir: &Path, args: &[&str]) -> Output {
    let out = rsatool_in(dir, args, None);
    assert_success(&out);
    out
}

/// The arguments of `rsatool sign` (of `input` into `sig`, `-o`) or `verify` (of `sig` over
/// `input`, `-s`) with `key` and `--scheme scheme`, then `extra`.
pub fn sig_args<'a>(
    command: &'a str,
    key: &'a str,
    scheme: &'a str,
    input: &'a str,
    sig: &'a str,
    extra: &[&'a str],
) -> Vec<&'a str> {
    let sig_flag = if command == "sign" { "-o" } else { "-s" };
    let mut args = vec![
        command, "-k", key, "--scheme", scheme, "-i", input, sig_flag, sig,
    ];
    args.extend_from_slice(extra);
    args
}

/// Runs rsatool in `dir` and requires the error contract of [`assert_failure`].
pub fn rsatool_fails(dir: &Path, args: &[&str], code: i32, needles: &[&str]) {
    assert_failure(&rsatool_in(dir, args, None), code, needles);
}
