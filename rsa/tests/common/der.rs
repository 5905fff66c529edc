//! A small DER writer for building keys and hostile inputs by hand (X.690 §8.1: definite
//! lengths, short form below 128, long form above), shared by the encoding tests.

/// Tag, definite length, content.
pub fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = content.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes: Vec<u8> = len
            .to_be_bytes()
            .iter()
            .copied()
            .skip_while(|&b| b == 0)
            .collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend_from_slice(&bytes);
    }
    out.extend_from_slice(content);
    out
}

/// An INTEGER with these exact content bytes (not normalised: tests choose them).
pub fn int(content: &[u8]) -> Vec<u8> {
    tlv(0x02, content)
}

pub fn seq(parts: &[Vec<u8>]) -> Vec<u8> {
    tlv(0x30, &parts.concat())
}

pub fn oid(content: &[u8]) -> Vec<u8> {
    tlv(0x06, content)
}

pub const RSA_ENCRYPTION: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
pub const RSASSA_PSS: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a];
pub const EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
pub const NULL: &[u8] = &[0x05, 0x00];

/// AlgorithmIdentifier { rsaEncryption, NULL }.
pub fn rsa_alg() -> Vec<u8> {
    seq(&[oid(RSA_ENCRYPTION), NULL.to_vec()])
}
