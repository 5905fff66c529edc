//! OpenSSL's constant-time exponentiation, `BN_mod_exp_mont_consttime`, through libcrypto's C ABI
//! (the `openssl` crate links it but wraps only `BN_mod_exp`, which needs `BN_FLG_CONSTTIME` on
//! the exponent to take this path). The Montgomery context is made once, as OpenSSL's RSA caches
//! it per prime (`_method_mod_p`), so a call times the exponentiation only, like `Modulus::pow`.

// Calling C is unsafe by definition; each call sits in the safe wrapper below, which owns
// every pointer it passes and checks each allocation.
#![allow(unsafe_code)]

use std::ffi::{c_int, c_void};

use bignum::Limb;

// SAFETY: these match the prototypes of OpenSSL 3.0's openssl/bn.h; BIGNUM, BN_CTX and
// BN_MONT_CTX are opaque and only ever handled through these pointers.
unsafe extern "C" {
    fn BN_CTX_new() -> *mut c_void;
    fn BN_CTX_free(ctx: *mut c_void);
    fn BN_new() -> *mut c_void;
    fn BN_free(a: *mut c_void);
    fn BN_lebin2bn(s: *const u8, len: c_int, ret: *mut c_void) -> *mut c_void;
    fn BN_bn2lebinpad(a: *const c_void, to: *mut u8, tolen: c_int) -> c_int;
    fn BN_MONT_CTX_new() -> *mut c_void;
    fn BN_MONT_CTX_set(mont: *mut c_void, m: *const c_void, ctx: *mut c_void) -> c_int;
    fn BN_MONT_CTX_free(mont: *mut c_void);
    fn BN_mod_exp_mont_consttime(
        rr: *mut c_void,
        a: *const c_void,
        p: *const c_void,
        m: *const c_void,
        ctx: *mut c_void,
        in_mont: *mut c_void,
    ) -> c_int;
}

/// A BIGNUM from little-endian limbs.
fn bn(x: &[Limb]) -> *mut c_void {
    let bytes: Vec<u8> = x.iter().flat_map(|l| l.to_le_bytes()).collect();
    let len = c_int::try_from(bytes.len()).expect("operand fits a C int of bytes");
    // SAFETY: `bytes` is `len` readable bytes; a null `ret` asks for a new BIGNUM.
    let r = unsafe { BN_lebin2bn(bytes.as_ptr(), len, std::ptr::null_mut()) };
    assert!(!r.is_null(), "BN_lebin2bn failed");
    r
}

/// b^e mod m for one fixed (b, e, m), m odd, b < m.
pub struct Pow {
    n: usize,
    r: *mut c_void,
    b: *mut c_void,
    e: *mut c_void,
    m: *mut c_void,
    ctx: *mut c_void,
    mont: *mut c_void,
}

impl Pow {
    /// Copies the operands into BIGNUMs and makes the Montgomery context of `m`.
    pub fn new(b: &[Limb], e: &[Limb], m: &[Limb]) -> Self {
        // SAFETY: plain constructors; each result is checked for null before use.
        let (r, ctx, mont) = unsafe { (BN_new(), BN_CTX_new(), BN_MONT_CTX_new()) };
        assert!(
            !r.is_null() && !ctx.is_null() && !mont.is_null(),
            "OpenSSL allocation"
        );
        let pow = Pow {
            n: m.len(),
            r,
            b: bn(b),
            e: bn(e),
            m: bn(m),
            ctx,
            mont,
        };
        // SAFETY: `mont`, `m` and `ctx` are live objects owned by `pow`.
        let ok = unsafe { BN_MONT_CTX_set(pow.mont, pow.m, pow.ctx) };
        assert_eq!(ok, 1, "BN_MONT_CTX_set");
        pow
    }

    /// Runs the exponentiation once into the result BIGNUM.
    pub fn run(&mut self) {
        // SAFETY: every pointer is a live object owned by `self`; `r` is distinct from the
        // inputs; `mont` was set for `m`.
        let ok = unsafe {
            BN_mod_exp_mont_consttime(self.r, self.b, self.e, self.m, self.ctx, self.mont)
        };
        assert_eq!(ok, 1, "BN_mod_exp_mont_consttime");
    }

    /// The last result, as little-endian limbs of the modulus' length.
    pub fn result(&self) -> Vec<Limb> {
        let mut bytes = vec![0u8; self.n << 3];
        let len = c_int::try_from(bytes.len()).expect("result fits a C int of bytes");
        // SAFETY: `bytes` is `len` writable bytes; `r` is live.
        let ok = unsafe { BN_bn2lebinpad(self.r, bytes.as_mut_ptr(), len) };
        assert_eq!(ok, len, "BN_bn2lebinpad");
        bytes
            .chunks_exact(8)
            .map(|c| Limb::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect()
    }
}

impl Drop for Pow {
    fn drop(&mut self) {
        // SAFETY: each object was made by its constructor above and is freed once, here.
        unsafe {
            BN_MONT_CTX_free(self.mont);
            BN_CTX_free(self.ctx);
            for x in [self.r, self.b, self.e, self.m] {
                BN_free(x);
            }
        }
    }
}
