//! cargo-fuzz target: see `rsatool_fuzz::check_verify`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rsatool_fuzz::check_verify(data));
