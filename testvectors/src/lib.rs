//! Known-answer test vectors (Wycheproof, NIST CAVP, PKCS #1) and their parsers.
//!
//! Under construction: the parsers and data arrive with the padding-scheme issue.
