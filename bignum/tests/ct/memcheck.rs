//! Valgrind memcheck client requests: mark memory as secret (undefined) or public (defined).
//!
//! Raw client requests, as `valgrind.h` issues them on amd64: the request block's address in
//! rax, the default result in rdx, then the magic preamble (four rotations of rdi adding up to
//! 128 bits, so rdi is unchanged) and `xchg rbx, rbx`. Natively the sequence does nothing and
//! rdx keeps the default; under valgrind the request is executed. Request codes from
//! `/usr/include/valgrind/memcheck.h`: VG_USERREQ_TOOL_BASE('M','C') = 0x4d43_0000, then
//! MAKE_MEM_NOACCESS, MAKE_MEM_UNDEFINED (+1), MAKE_MEM_DEFINED (+2).
#![allow(unsafe_code)] // the client request is inline asm; nothing else here is unsafe

use bignum::Limb;
use subtle::CtOption;

const MAKE_MEM_UNDEFINED: usize = 0x4d43_0001;
const MAKE_MEM_DEFINED: usize = 0x4d43_0002;
const RUNNING_ON_VALGRIND: usize = 0x1001;

#[cfg(target_arch = "x86_64")]
fn client_request(default: usize, request: usize, arg1: usize, arg2: usize) -> usize {
    let args: [usize; 6] = [request, arg1, arg2, 0, 0, 0];
    let result;
    // SAFETY: natively the five instructions change no register (rdi is rotated by 128 bits in
    // total, rbx exchanged with itself) and touch no memory; under valgrind the request reads
    // the six words of `args`, which live across the block, and writes only rdx. Memcheck's
    // MAKE_MEM_* requests change shadow state, never the program's memory. Flags are clobbered
    // (the default for `asm!`), no stack is used.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") default => result,
            in("rax") args.as_ptr(),
            options(nostack),
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn client_request(default: usize, _request: usize, _arg1: usize, _arg2: usize) -> usize {
    default
}

/// Whether this process runs under valgrind (0 natively).
pub fn running_on_valgrind() -> bool {
    client_request(0, RUNNING_ON_VALGRIND, 0, 0) != 0
}

/// Issues a MAKE_MEM_* `request` on the bytes of `x`.
fn mark_bytes<T: ?Sized>(request: usize, x: &T) {
    let len = core::mem::size_of_val(x);
    client_request(
        0,
        request,
        core::ptr::from_ref(x).cast::<u8>() as usize,
        len,
    );
}

/// Marks the bytes of `x` secret: memcheck reports any branch or address that depends on them.
pub fn mark_secret_bytes<T: ?Sized>(x: &T) {
    mark_bytes(MAKE_MEM_UNDEFINED, x);
}

/// Marks the bytes of `x` public again (declassified).
pub fn mark_public_bytes<T: ?Sized>(x: &T) {
    mark_bytes(MAKE_MEM_DEFINED, x);
}

/// Marks limbs secret.
pub fn mark_secret(a: &[Limb]) {
    mark_secret_bytes(a);
}

/// Marks limbs public (before an assertion compares them).
pub fn mark_public(a: &[Limb]) {
    mark_public_bytes(a);
}

/// Declassifies a `CtOption`'s choice (and the rest of its inline bytes: for the `bignum`
/// types these are only vector headers and boxes, whose contents stay secret) and unwraps it.
pub fn declassify<T>(opt: CtOption<T>) -> Option<T> {
    mark_public_bytes(&opt);
    opt.into()
}
