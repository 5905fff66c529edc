//! rsatool-rsa's behaviour, through its public API (and the `test-hooks` doors): keys and
//! their encodings, the primitives, signatures, encryption, batches, hostile inputs, the
//! published vectors of RSA Laboratories, RustCrypto's own tests ported, the fuzz targets'
//! saved inputs, and interop with OpenSSL and Python's `cryptography`.
//!
//! One test binary for them all, so that the dependencies' generic code (proptest,
//! num-bigint, the `der` family) is compiled and linked once. Two stay binaries of their own:
//! `tests/ct.rs` (`.ci/ct-check` builds it alone and runs it under valgrind) and
//! `tests/fork.rs` (it forks the process, which a binary running other tests on other threads
//! at the same moment should not do). Proptest keeps the failures it finds under
//! `tests/proptest-regressions/` (one file per module; commit them).

#[path = "../common/mod.rs"]
mod common;

mod batch;
mod encoding;
mod encoding_encrypted_and_certificates;
mod encoding_openssl;
mod encrypt;
mod encrypt_openssl;
mod fuzz_regressions;
mod hostile_key_files;
mod keys;
mod primitive;
mod rsalabs;
mod rustcrypto_port;
mod sign;
mod sign_openssl;
