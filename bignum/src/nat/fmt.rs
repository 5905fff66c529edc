//! Printing and parsing [`Nat`]: decimal (`Display`, `FromStr`), hexadecimal (`LowerHex`,
//! `UpperHex`, `FromStr` with a `0x` prefix) and `Debug`. All variable-time (public values only).

use alloc::{
    format,
    string::{String, ToString},
    vec,
    vec::Vec,
};
use core::fmt;
use core::str::FromStr;

use super::Nat;
use crate::error::Error;
use crate::limb::Limb;
use crate::mpn;

/// 10¹⁹, the largest power of ten in a limb: decimal conversion works in chunks of 19 digits.
const TEN_19: Limb = 10_000_000_000_000_000_000;
/// (⌊c / 10⌋, c mod 10).
#[allow(clippy::integer_division_remainder_used)] // public values being printed
#[allow(clippy::cast_possible_truncation)] // c mod 10 < 10
fn div_rem_ten(c: Limb) -> (Limb, u8) {
    (c / 10, (c % 10) as u8)
}

/// Decimal digits per chunk.
const DEC_CHUNK: usize = 19;
/// Hex digits per limb.
const HEX_CHUNK: usize = 16;

impl Nat {
    /// The decimal digits, most significant first ("0" for zero).
    fn to_decimal(&self) -> String {
        if self.is_zero() {
            return "0".into();
        }
        // Peel off 19-digit chunks, least significant first, by one-limb divisions by 10¹⁹.
        // (Two-limb divisions by 10³⁸ halve the passes but measured no faster: a 3-by-2 step
        // costs about two 2-by-1 steps.)
        let mut chunks = Vec::with_capacity(self.limbs.len() + (self.limbs.len() >> 5) + 1);
        let mut v = self.limbs.clone();
        let mut q = vec![0; v.len()];
        while !v.is_empty() {
            let r = mpn::div_1_vartime(&mut q[..v.len()], &v, TEN_19);
            chunks.push(r);
            let n = mpn::normalized_len_vartime(&q[..v.len()]);
            v.truncate(n);
            v.copy_from_slice(&q[..n]);
        }
        let mut s = String::with_capacity(chunks.len() * DEC_CHUNK);
        let mut rev = chunks.iter().rev();
        if let Some(top) = rev.next() {
            s.push_str(&top.to_string());
        }
        let mut digits = [0u8; DEC_CHUNK];
        for &c in rev {
            let mut c = c;
            for d in digits.iter_mut().rev() {
                let (q, digit) = div_rem_ten(c);
                (*d, c) = (b'0' + digit, q);
            }
            s.push_str(core::str::from_utf8(&digits).unwrap_or_default());
        }
        s
    }

    /// The hex digits, most significant first, no prefix ("0" for zero).
    fn to_hex(&self, upper: bool) -> String {
        let mut s = String::with_capacity(self.limbs.len() * HEX_CHUNK);
        let mut rev = self.limbs.iter().rev();
        match rev.next() {
            None => s.push('0'),
            Some(top) if upper => s.push_str(&format!("{top:X}")),
            Some(top) => s.push_str(&format!("{top:x}")),
        }
        for l in rev {
            if upper {
                s.push_str(&format!("{l:016X}"));
            } else {
                s.push_str(&format!("{l:016x}"));
            }
        }
        s
    }
}

impl fmt::Display for Nat {
    /// Decimal. Honours width, fill and alignment. Variable time (public values only).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "", &self.to_decimal())
    }
}

impl fmt::LowerHex for Nat {
    /// Lower-case hex; `{:#x}` adds `0x`. Variable time (public values only).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "0x", &self.to_hex(false))
    }
}

impl fmt::UpperHex for Nat {
    /// Upper-case hex; `{:#X}` adds `0x`. Variable time (public values only).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "0x", &self.to_hex(true))
    }
}

impl fmt::Debug for Nat {
    /// `Nat(0x…)`: hex, since these are public values. Variable time.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Nat({self:#x})")
    }
}

/// The value of one ASCII digit of `radix` (10 or 16), or the error for its position.
fn digit(b: u8, radix: u32, position: usize) -> Result<Limb, Error> {
    char::from(b)
        .to_digit(radix)
        .map(Limb::from)
        .ok_or(Error::ParseInvalidDigit { position })
}

impl FromStr for Nat {
    type Err = Error;

    /// Parses decimal digits, or hex digits (either case) after a `0x` or `0X` prefix. No sign,
    /// no whitespace, no separators; leading zeros are fine.
    ///
    /// # Constant time
    /// No: variable time, for public values only.
    ///
    /// # Errors
    /// [`Error::ParseEmpty`] if there are no digits (after the prefix, if any);
    /// [`Error::ParseInvalidDigit`] with the byte offset (in `s`) of the first non-digit.
    fn from_str(s: &str) -> Result<Nat, Error> {
        let bytes = s.as_bytes();
        let (digits, offset, radix) = match bytes {
            [b'0', b'x' | b'X', rest @ ..] => (rest, 2, 16),
            _ => (bytes, 0, 10),
        };
        if digits.is_empty() {
            return Err(Error::ParseEmpty);
        }
        if let Some(i) = digits
            .iter()
            .position(|&b| char::from(b).to_digit(radix).is_none())
        {
            return Err(Error::ParseInvalidDigit {
                position: offset + i,
            });
        }
        if radix == 16 {
            // 16 hex digits per limb, from the least significant end.
            let limbs = digits
                .rchunks(HEX_CHUNK)
                .map(|chunk| {
                    chunk
                        .iter()
                        .try_fold(0, |acc: Limb, &b| Ok((acc << 4) | digit(b, 16, 0)?))
                })
                .collect::<Result<Vec<Limb>, Error>>()?;
            return Ok(Nat::from_vec(limbs));
        }
        // Decimal: acc = acc·10^k + chunk for chunks of up to 19 digits, most significant first;
        // the first chunk takes the remainder so the others are full.
        #[allow(clippy::integer_division_remainder_used)] // the input's length is public
        let first = match digits.len() % DEC_CHUNK {
            0 => DEC_CHUNK,
            k => k,
        };
        let mut acc: Vec<Limb> = Vec::with_capacity((digits.len() >> 4) + 2);
        let mut start = 0;
        let mut len = first;
        while start < digits.len() {
            let chunk = &digits[start..start + len];
            let value = chunk
                .iter()
                .try_fold(0, |acc: Limb, &b| Ok(acc * 10 + digit(b, 10, 0)?))?;
            let scale = 10u64.pow(u32::try_from(len).unwrap_or(0));
            let carry = mul_1_add_in_place(&mut acc, scale, value);
            if carry != 0 {
                acc.push(carry);
            }
            start += len;
            len = DEC_CHUNK;
        }
        Ok(Nat::from_vec(acc))
    }
}

/// acc = acc·m + a in place; returns the limb carried out of the top.
fn mul_1_add_in_place(acc: &mut [Limb], m: Limb, a: Limb) -> Limb {
    let mut carry = a;
    for l in acc.iter_mut() {
        (*l, carry) = crate::limb::mac(0, *l, m, carry);
    }
    carry
}
