//! The body of the `acvp` fuzz target: NIST ACVP JSON through `testvectors::acvp`.
//!
//! Kept out of `lib.rs` because `rsa/tests/behaviour/fuzz_regressions.rs` includes that file
//! and the `rsa` crate's tests cannot depend on `testvectors`;
//! `testvectors/tests/vectors/acvp_fuzz.rs` includes this one by path and replays
//! `fuzz/regressions/acvp/` instead.

use testvectors::acvp::{self, Mode, types::*};

/// Parses `data` as every vector set, response and expected-results type, answers it when it
/// is a mode whose answer costs no key generation (sigVer, the primitives), and checks it
/// against itself. Panics only on a bug: a panic inside the parser, the runner or the
/// library, or an answer whose JSON does not parse back through its own types.
pub fn check_acvp(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = acvp::parse::<VectorSet<SigGenGroup>>(text);
    let _ = acvp::parse::<VectorSet<SigGenGroupResponse>>(text);
    let _ = acvp::parse::<VectorSet<SigVerGroup>>(text);
    let _ = acvp::parse::<VectorSet<VerdictGroup>>(text);
    let _ = acvp::parse::<VectorSet<KeyGenGroup>>(text);
    let _ = acvp::parse::<VectorSet<KeyGenGroupResponse>>(text);
    let _ = acvp::parse::<VectorSet<PrimitiveGroup>>(text);
    let _ = acvp::parse::<VectorSet<PrimitiveGroupResponse>>(text);
    let mode = acvp::mode_of(text);
    if let Ok(Mode::SigVer | Mode::SignaturePrimitive | Mode::DecryptionPrimitive) = mode
        && let Ok(answer) = acvp::answer(text, &mut rsatool_rsa::os_rng())
    {
        let parsed = match answer.mode {
            Mode::SigVer => acvp::parse::<VectorSet<VerdictGroup>>(&answer.json).is_ok(),
            _ => acvp::parse::<VectorSet<PrimitiveGroupResponse>>(&answer.json).is_ok(),
        };
        assert!(
            parsed,
            "an answer that does not parse back: {}",
            answer.json
        );
        if answer.mode != Mode::SigVer {
            // Our own primitive answers validate by the public operation.
            let checks = acvp::check(text, &answer.json, None).expect("checkable");
            let failed: usize = checks.iter().map(|c| c.failed()).sum();
            assert_eq!(failed, 0, "our answer fails its own check: {checks:?}");
        }
    }
    if mode.is_ok() {
        let _ = acvp::check(text, text, Some(text));
    }
}
