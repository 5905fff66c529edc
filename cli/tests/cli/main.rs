//! The key tool's integration tests, as a user runs `rsatool`: one module per command or
//! contract, with `openssl` and Python's `cryptography` as the oracles where they are
//! installed (each check says so when it is skipped).
//!
//! One test binary for them all, so that the dependencies' generic code is compiled and linked
//! once, and the shared keys (`common::key`) are made once.

mod common;

mod acvp;
mod encrypt;
mod generated_docs;
mod interop_encrypt;
mod interop_keys;
mod interop_sign;
mod keys;
mod older_keys;
mod openssl_habits;
mod output;
mod passwords;
mod prime;
mod safe_output;
mod seed_tables;
mod sha3;
mod sign;
mod speedtest;
mod terminal_prompts_and_progress;
