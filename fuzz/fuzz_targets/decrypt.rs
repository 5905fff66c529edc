//! cargo-fuzz target: see `rsatool_fuzz::check_decrypt`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rsatool_fuzz::check_decrypt(data));
