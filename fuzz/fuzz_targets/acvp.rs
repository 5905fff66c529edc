//! cargo-fuzz target: see `fuzz/src/acvp.rs`, `check_acvp`.
#![no_main]

#[path = "../src/acvp.rs"]
mod acvp;

libfuzzer_sys::fuzz_target!(|data: &[u8]| acvp::check_acvp(data));
