//! RSA key types (stand-in on the `enc` branch: only the byte-string parts the encodings use).

pub mod parts;
