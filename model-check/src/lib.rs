//! Loom models of `rsatool-rsa`'s shared state (see `Cargo.toml`): every interleaving, within
//! loom's bounds, of a few callers of a coalescing key's meeting point and of a few operations
//! taking pairs from a key's blinding table. Only tests: `cargo test` in this directory.

#[cfg(test)]
extern crate alloc;

#[cfg(test)]
mod blinding;
#[cfg(test)]
mod coalesce;
