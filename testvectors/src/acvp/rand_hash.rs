//! SP 800-106 randomized hashing (NIST SP 800-106, "Randomized Hashing for Digital
//! Signatures", 2009, §3.3), as ACVP sigGen / sigVer groups with `conformance: SP800-106` use
//! it: the message M and a random value rv become
//!
//!   M′ = rv ‖ ((M ‖ padding) ⊕ rv_rep) ‖ rv_length_indicator,
//!
//! a bit string that is in general not whole bytes, which is then hashed and signed as the
//! digest of the scheme. Our hash crates take bytes only, so this module hashes bit strings
//! itself: SHA-256 by FIPS 180-4 §5.1.1's padding around `sha2`'s compression function, and
//! SHA3-512, SHAKE128 and SHAKE256 by the FIPS 202 sponge on the `keccak` crate's
//! permutation. Other hashes are refused with SP 800-106 by name.
//!
//! Quirk of NIST's ACVP server (seen in its sample sets): rv_rep's last, partial copy of rv is
//! taken from rv's RIGHT end, where §3.3 step 4 says "the leftmost bits"; its expected
//! signatures verify only that way (`tests/vectors/acvp.rs`).
//!
//! How a final partial byte reaches SHA-3 is not pinned down by the samples: with whole-byte
//! messages and a random value of whole bytes, |M′| = |rv| + 8·len(M) + 1 + 16 (or whole
//! bytes, for messages shorter than rv), so the tail is a single bit, which every reading
//! places the same. We read a longer tail in sequence order (FIPS 202 Appendix B.1).

// Lengths and public test values only (messages, random values, digests): `/` and `%` on
// them leak nothing.
#![allow(clippy::integer_division_remainder_used)]

use rsatool_rsa::HashAlg;

/// A bit string, first bit first.
pub(crate) type Bits = Vec<bool>;

fn bits_of(bytes: &[u8]) -> Bits {
    bytes
        .iter()
        .flat_map(|&b| (0..8).rev().map(move |i| (b >> i) & 1 == 1))
        .collect()
}

/// M′ of SP 800-106 §3.3 for a message of whole bytes and rv (`rv_bits` long, 80 to 1024).
pub(crate) fn transform(msg: &[u8], rv: &[u8], rv_bits: usize) -> Option<Bits> {
    if !(80..=1024).contains(&rv_bits) || rv.len() * 8 < rv_bits {
        return None;
    }
    let rv: Bits = bits_of(rv).into_iter().take(rv_bits).collect();
    // Step 1: padding = 1 if |M| ≥ |rv| − 1, else 1 ‖ 0^(|rv| − |M| − 1).
    let mut m = bits_of(msg);
    m.push(true);
    while m.len() < rv_bits {
        m.push(false);
    }
    // Steps 3–5: rv_rep = rv ‖ … ‖ rv ‖ rv′ of |m| bits; rv′ from rv's right end (see the
    // module docs).
    let count = m.len() / rv_bits;
    let remainder = m.len() - count * rv_bits;
    let mut rep: Bits = Vec::with_capacity(m.len());
    for _ in 0..count {
        rep.extend_from_slice(&rv);
    }
    rep.extend_from_slice(&rv[rv_bits - remainder..]);
    // Steps 6–8.
    let mut out = rv.clone();
    out.extend(m.iter().zip(&rep).map(|(a, b)| a ^ b));
    let indicator = u16::try_from(rv_bits).ok()?;
    out.extend((0..16).rev().map(|i| (indicator >> i) & 1 == 1));
    Some(out)
}

/// The digest of a bit string, for the hashes the ACVP sets use with SP 800-106.
pub(crate) fn digest_bits(hash: HashAlg, bits: &[bool]) -> Option<Vec<u8>> {
    match hash {
        HashAlg::Sha256 => Some(sha256_bits(bits)),
        HashAlg::Sha3_512 => Some(keccak_bits(bits, 72, &[false, true], 64)),
        HashAlg::Shake128 => Some(keccak_bits(bits, 168, &[true, true, true, true], 32)),
        HashAlg::Shake256 => Some(keccak_bits(bits, 136, &[true, true, true, true], 64)),
        _ => None,
    }
}

/// SHA-256 of a bit string (FIPS 180-4 §5.1.1: 1, zeros, the 64-bit length; bits MSB first).
fn sha256_bits(bits: &[bool]) -> Vec<u8> {
    let mut padded = bits.to_vec();
    padded.push(true);
    while padded.len() % 512 != 448 {
        padded.push(false);
    }
    let len = bits.len() as u64;
    padded.extend((0..64).rev().map(|i| (len >> i) & 1 == 1));
    let bytes: Vec<u8> = padded
        .chunks(8)
        .map(|c| c.iter().fold(0u8, |acc, &b| (acc << 1) | u8::from(b)))
        .collect();
    let blocks: Vec<[u8; 64]> = bytes
        .chunks(64)
        .map(|c| {
            let mut b = [0u8; 64];
            b.copy_from_slice(c);
            b
        })
        .collect();
    let mut state: [u32; 8] = [
        0x6a09_e667,
        0xbb67_ae85,
        0x3c6e_f372,
        0xa54f_f53a,
        0x510e_527f,
        0x9b05_688c,
        0x1f83_d9ab,
        0x5be0_cd19,
    ];
    sha2::block_api::compress256(&mut state, &blocks);
    state.iter().flat_map(|w| w.to_be_bytes()).collect()
}

/// A Keccak[1600] sponge (FIPS 202 §4) over a bit string given first bit first, MSB-first
/// within bytes as ACVP writes it: whole bytes are absorbed as bytes (the usual byte
/// interface), and the k < 8 bits of a final partial byte b₀…b_(k−1) as the FIPS 202 bits
/// b₀…b_(k−1) (Appendix B.1: the first bit of a byte is its least significant), followed by
/// the domain `suffix` and pad10*1.
fn keccak_bits(bits: &[bool], rate: usize, suffix: &[bool], out_len: usize) -> Vec<u8> {
    // Into FIPS 202 bit order: per whole byte, MSB-first bits reversed.
    let whole = bits.len() / 8 * 8;
    let mut fips: Vec<bool> = Vec::with_capacity(bits.len() + rate * 8);
    for c in bits[..whole].chunks(8) {
        fips.extend(c.iter().rev());
    }
    fips.extend_from_slice(&bits[whole..]);
    fips.extend_from_slice(suffix);
    // pad10*1 to a multiple of the rate.
    fips.push(true);
    while !(fips.len() + 1).is_multiple_of(rate * 8) {
        fips.push(false);
    }
    fips.push(true);
    let bytes: Vec<u8> = fips
        .chunks(8)
        .map(|c| c.iter().rev().fold(0u8, |acc, &b| (acc << 1) | u8::from(b)))
        .collect();
    let mut state = [0u64; 25];
    let keccak = keccak::Keccak::new();
    for block in bytes.chunks(rate) {
        for (i, &b) in block.iter().enumerate() {
            state[i / 8] ^= u64::from(b) << (8 * (i % 8));
        }
        keccak.with_f1600(|f| f(&mut state));
    }
    let mut out = Vec::with_capacity(out_len);
    loop {
        for i in 0..rate {
            if out.len() == out_len {
                return out;
            }
            out.push(state[i / 8].to_le_bytes()[i % 8]);
        }
        keccak.with_f1600(|f| f(&mut state));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(bytes: &[u8]) -> Bits {
        bits_of(bytes)
    }

    #[test]
    fn bit_hashes_agree_with_the_byte_hashes_on_whole_bytes() {
        for msg in [&b""[..], b"abc", &[0x5a; 200]] {
            for hash in [
                HashAlg::Sha256,
                HashAlg::Sha3_512,
                HashAlg::Shake128,
                HashAlg::Shake256,
            ] {
                assert_eq!(
                    digest_bits(hash, &pack(msg)).unwrap(),
                    hash.digest(msg),
                    "{hash} {}",
                    msg.len()
                );
            }
        }
    }

    #[test]
    fn partial_bytes_follow_the_standards_examples() {
        // FIPS 180-4 bit strings: SHA-256 of the 0-bit… no published example fits; the padding
        // rule is checked against the byte hash: 8 bits "01100001" is "a".
        let a = vec![false, true, true, false, false, false, false, true];
        assert_eq!(sha256_bits(&a), HashAlg::Sha256.digest(b"a"));
        // FIPS 202 example values (NIST CSRC "SHA3-512_Msg5", "SHAKE128_Msg5"): the 5-bit
        // message 11001.
        let m5 = vec![true, true, false, false, true];
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        assert_eq!(
            hex(&keccak_bits(&m5, 72, &[false, true], 64)),
            "a13e01494114c09800622a70288c432121ce70039d753cadd2e006e4d961cb27544c1481e5814bdceb53be6733d5e099795e5e81918addb058e22a9f24883f37"
        );
        assert_eq!(
            hex(&keccak_bits(&m5, 168, &[true, true, true, true], 32)),
            "2e0abfba83e6720bfbc225ff6b7ab9ffce58ba027ee3d898764fef287ddeccca"
        );
    }

    #[test]
    fn transform_lays_out_rv_message_and_length() {
        // |M| = 8 < |rv| − 1 = 79: padding 1 ‖ 0^71, m of 80 bits = one rv, no remainder.
        let rv = [0xffu8; 10];
        let t = transform(&[0x00], &rv, 80).unwrap();
        assert_eq!(t.len(), 80 + 80 + 16);
        assert!(t[..80].iter().all(|&b| b));
        // m ⊕ rv: 0x00 ‖ 1 ‖ 0… XOR all-ones = 0xff ‖ 0 ‖ 1…
        assert!(t[80..88].iter().all(|&b| b));
        assert!(!t[88]);
        assert!(t[89..160].iter().all(|&b| b));
        let len: Vec<bool> = (0..16).rev().map(|i| (80u16 >> i) & 1 == 1).collect();
        assert_eq!(t[160..], len[..]);
        assert_eq!(transform(&[0], &rv, 79), None);
    }
}
