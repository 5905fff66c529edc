//! Hexadecimal decoding and encoding, as the data files write bytes.

use std::fmt;

/// Why a string is not hexadecimal bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HexError {
    /// An odd number of digits: the last byte is incomplete.
    OddLength(usize),
    /// A character that is not a hex digit, at this byte offset of the string.
    InvalidDigit {
        /// Byte offset in the input.
        offset: usize,
        /// The character found there.
        found: char,
    },
}

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexError::OddLength(n) => write!(f, "odd number of hex digits ({n})"),
            HexError::InvalidDigit { offset, found } => {
                write!(f, "invalid hex digit {found:?} at offset {offset}")
            }
        }
    }
}

impl std::error::Error for HexError {}

fn digit(offset: usize, c: u8) -> Result<u8, HexError> {
    match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        b'A'..=b'F' => Ok(c - b'A' + 10),
        _ => Err(HexError::InvalidDigit {
            offset,
            found: char::from(c),
        }),
    }
}

/// Decodes a string of hex digit pairs (either case, no separators) into bytes.
///
/// An empty string gives an empty vector.
///
/// # Errors
///
/// [`HexError::OddLength`] for an odd digit count, [`HexError::InvalidDigit`] for any other
/// character (including whitespace or a non-ASCII character).
pub fn decode(s: &str) -> Result<Vec<u8>, HexError> {
    let bytes = s.as_bytes();
    // Check the digits first, so that a bad character is reported even in an odd-length string.
    for (offset, &c) in bytes.iter().enumerate() {
        digit(offset, c)?;
    }
    if bytes.len() & 1 == 1 {
        return Err(HexError::OddLength(bytes.len()));
    }
    bytes
        .chunks_exact(2)
        .enumerate()
        .map(|(i, pair)| Ok((digit(2 * i, pair[0])? << 4) | digit(2 * i + 1, pair[1])?))
        .collect()
}

/// Encodes bytes as lowercase hex digits, two per byte.
pub fn encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_both_cases_and_round_trips() {
        assert_eq!(decode("00ff10aB").unwrap(), vec![0x00, 0xff, 0x10, 0xab]);
        assert_eq!(decode("").unwrap(), Vec::<u8>::new());
        assert_eq!(encode(&[0x00, 0xff, 0x10, 0xab]), "00ff10ab");
    }

    #[test]
    fn rejects_odd_length_and_bad_digits() {
        assert_eq!(decode("abc"), Err(HexError::OddLength(3)));
        assert_eq!(
            decode("0g"),
            Err(HexError::InvalidDigit {
                offset: 1,
                found: 'g'
            })
        );
        assert!(decode("00 11").is_err());
        assert!(decode("é0").is_err());
    }
}
