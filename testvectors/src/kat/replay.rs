//! Encryption with the vector's random bytes, through the schemes' ordinary public `encrypt`:
//! an RNG that gives back the bytes a vector file records (the OAEP seed, the PKCS #1 v1.5
//! padding string), so that the known-answer runs need no entry point of the `rsa` crate's
//! `test-hooks` and `rsatool kat` is built without them.
//!
//! This is exact, not a guess at the schemes' internals, because the replay checks it: OAEP's
//! `encrypt` draws its seed of hLen bytes in one request, PKCS #1 v1.5's draws its padding
//! string of k − mLen − 3 bytes in one request and draws again only for a zero byte (which a
//! vector's padding string never holds). [`encrypt_replaying`] fails unless the scheme asked
//! for the recorded bytes exactly: no byte left over, none asked for beyond them.

use std::convert::Infallible;

use rsatool_rsa::rand_core::{TryCryptoRng, TryRng};
use rsatool_rsa::{EncryptionScheme, RsaPublicKey};

/// `scheme`'s public encryption of `msg` with `random` as its only source of random bytes: the
/// ciphertext, or why not (the scheme's error, or a draw that did not match `random`).
pub(crate) fn encrypt_replaying<S: EncryptionScheme>(
    key: &RsaPublicKey,
    scheme: &S,
    msg: &[u8],
    random: &[u8],
) -> Result<Vec<u8>, String> {
    let mut rng = Replay {
        bytes: random,
        at: 0,
        beyond: 0,
    };
    let c = key
        .encrypt(&mut rng, scheme, msg)
        .map_err(|e| e.to_string())?;
    if rng.at != random.len() || rng.beyond != 0 {
        return Err(format!(
            "the scheme drew {} random bytes, the vector records {}",
            rng.at + rng.beyond,
            random.len()
        ));
    }
    Ok(c)
}

/// Gives `bytes` in order, then 0xff (non-zero, so that a padding loop that draws again for
/// zero bytes ends), counting what it gave beyond them.
struct Replay<'a> {
    bytes: &'a [u8],
    at: usize,
    beyond: usize,
}

impl TryRng for Replay<'_> {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        let rest = &self.bytes[self.at..];
        let n = dst.len().min(rest.len());
        dst[..n].copy_from_slice(&rest[..n]);
        dst[n..].fill(0xff);
        self.at += n;
        self.beyond += dst.len() - n;
        Ok(())
    }
}

/// Not a source of randomness: the schemes take a `CryptoRng`, and here they must get the
/// vector's bytes. Only [`encrypt_replaying`] makes one.
impl TryCryptoRng for Replay<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use rsatool_rsa::{HashAlg, Oaep, Pkcs1v15Encrypt, RsaPrivateKey};

    fn key() -> RsaPrivateKey {
        let mut rng = rsatool_rsa::os_rng();
        RsaPrivateKey::new(&mut rng, 1024).unwrap()
    }

    #[test]
    fn replay_refuses_a_seed_of_the_wrong_length() {
        let key = key();
        let oaep = Oaep::new(HashAlg::Sha256);
        // SHA-256 draws 32 bytes: a shorter record runs out, a longer one is left over.
        assert!(encrypt_replaying(key.public_key(), &oaep, b"m", &[7; 32]).is_ok());
        let short = encrypt_replaying(key.public_key(), &oaep, b"m", &[7; 31]).unwrap_err();
        assert!(
            short.contains("drew 32 random bytes, the vector records 31"),
            "{short}"
        );
        let long = encrypt_replaying(key.public_key(), &oaep, b"m", &[7; 33]).unwrap_err();
        assert!(
            long.contains("drew 32 random bytes, the vector records 33"),
            "{long}"
        );
    }

    #[test]
    fn replay_gives_the_recorded_padding_string() {
        let key = key();
        let k = key.size();
        let s = Pkcs1v15Encrypt::new();
        let ps = vec![0x5a; k - 3 - 3];
        let c = encrypt_replaying(key.public_key(), &s, b"abc", &ps).unwrap();
        // EM = 00 02 PS 00 M, recovered with the raw private operation.
        use rsatool_rsa::hazmat::PrivateOp;
        let em = key.private_op(&mut rsatool_rsa::os_rng(), &c).unwrap();
        assert_eq!(em[..2], [0, 2]);
        assert_eq!(em[2..k - 4], ps[..]);
        assert_eq!(em[k - 4..], [0, b'a', b'b', b'c']);
        // A zero byte in the record is drawn again: one byte beyond the record.
        let mut with_zero = ps.clone();
        with_zero[0] = 0;
        let e = encrypt_replaying(key.public_key(), &s, b"abc", &with_zero).unwrap_err();
        assert!(
            e.contains(&format!("drew {} random bytes", ps.len() + 1)),
            "{e}"
        );
    }
}
