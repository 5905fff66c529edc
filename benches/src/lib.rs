//! Shared helpers for the criterion benchmarks in `benches/benches/`.

/// A deterministic pseudo-random limb sequence (SplitMix64), so every run measures the same inputs.
pub use testkit::limbs;

#[cfg(feature = "peers")]
pub mod gmp;
#[cfg(feature = "peers")]
pub mod rsa_peers;
// The TLS measurements' handshake checks, from rsatool-rustls's tests (which use it too).
#[cfg(feature = "tls")]
#[path = "../../tls/tests/tls/support.rs"]
pub mod tls_support;

/// Base, exponent and modulus of exactly `bits` bits (modulus odd, base below it), the same for
/// every run at a size: the operands of every `powm` comparison.
pub fn powm_operands(bits: usize) -> (Vec<bignum::Limb>, Vec<bignum::Limb>, Vec<bignum::Limb>) {
    let n = bits >> 6;
    let seed = bits as u64;
    let mut m = limbs(seed, n);
    m[0] |= 1;
    m[n - 1] |= 1 << 63;
    let mut e = limbs(seed + 1, n);
    e[n - 1] |= 1 << 63;
    let mut b = limbs(seed + 2, n);
    b[n - 1] &= !(1 << 63);
    (b, e, m)
}

/// crypto-bigint's heap-allocated Montgomery form of base `b` modulo the odd `m`, and the
/// exponent `e`, from little-endian limbs: the operands of its `powm` row.
///
/// # Panics
///
/// If m is even.
#[cfg(feature = "peers")]
pub fn crypto_bigint_boxed_powm_operands(
    b: &[bignum::Limb],
    e: &[bignum::Limb],
    m: &[bignum::Limb],
) -> (
    crypto_bigint::modular::BoxedMontyForm,
    crypto_bigint::BoxedUint,
) {
    use crypto_bigint::{
        BoxedUint, Odd,
        modular::{BoxedMontyForm, BoxedMontyParams},
    };
    let cm = Odd::new(BoxedUint::from_words(m.iter().copied()))
        .into_option()
        .expect("odd modulus");
    let params = BoxedMontyParams::new(cm);
    let cb = BoxedMontyForm::new(BoxedUint::from_words(b.iter().copied()), &params);
    (cb, BoxedUint::from_words(e.iter().copied()))
}
