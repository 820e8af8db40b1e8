//! Base58 (bitcoin alphabet) helpers shared by the primitive types.
//!
//! The input's length is bounded before the quadratic base58 decoder runs, so that
//! hostile inputs cannot make decoding slow; a character outside the alphabet is then
//! found again, so that the error can name it and its position.

use std::fmt;

/// The bitcoin base58 alphabet, as used by `bs58` and by nearcore.
const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/// Why a base58 string could not be decoded into a fixed-size value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Base58Error {
    /// A character outside the base58 alphabet.
    InvalidCharacter {
        /// The offending character.
        character: char,
        /// Its position in the string, counted in characters from 0.
        position: usize,
    },
    /// The string is so long that it cannot decode to `expected` bytes.
    TooLong {
        /// Length of the string, in characters.
        chars: usize,
    },
    /// The string decoded to `actual` bytes, not the expected number.
    WrongLength {
        /// Number of decoded bytes.
        actual: usize,
    },
}

impl fmt::Display for Base58Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Base58Error::InvalidCharacter {
                character,
                position,
            } => write!(
                f,
                "invalid base58 character {character:?} at position {position}"
            ),
            Base58Error::TooLong { chars } => {
                write!(f, "base58 string is too long ({chars} characters)")
            }
            Base58Error::WrongLength { actual } => write!(f, "decoded to {actual} bytes"),
        }
    }
}

/// Encodes `bytes` as base58.
pub(crate) fn encode(bytes: &[u8]) -> String {
    bs58::encode(bytes).into_string()
}

/// The value of each byte in the alphabet, or `INVALID`, whose high bit no digit has:
/// one OR over a chunk then tells whether any of its bytes was outside the alphabet.
const DIGITS: [u8; 256] = {
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < ALPHABET.len() {
        table[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    table
};
const INVALID: u8 = 0xff;

/// Digits folded in per pass: 58¹⁰ is the largest power of 58 below 2⁶⁴, so a 64-bit
/// limb times it plus the carry fits in a u128.
const CHUNK_DIGITS: usize = 10;

/// `58^k` for a chunk of `k` digits.
const POWERS: [u64; CHUNK_DIGITS + 1] = {
    let mut powers = [1u64; CHUNK_DIGITS + 1];
    let mut k = 1;
    while k <= CHUNK_DIGITS {
        powers[k] = powers[k - 1] * 58;
        k += 1;
    }
    powers
};

/// Room for the largest number accepted (2·96+2 characters ≈ 1 100 bits).
const MAX_LIMBS: usize = 18;

/// Decodes `s` and checks that it yields exactly `N` bytes.
///
/// Hashes and keys fill every response (a quarter of decoding a transaction status), so
/// this is on the hot path: a table maps the characters, with one check per ten of them,
/// the number is built in 64-bit limbs, ten digits per pass, and the limbs are written
/// out eight bytes at a time, with no allocation.
pub(crate) fn decode_array<const N: usize>(s: &str) -> Result<[u8; N], Base58Error> {
    let input = s.as_bytes();
    // Every base58 character carries at least log256(58) > 0.73 bytes and each
    // leading '1' is a whole zero byte, so a string longer than 2*N characters
    // always decodes to more than N bytes (and N bytes never need more than
    // 1.37*N + 1 characters). Rejecting early keeps decoding linear-bounded.
    let chars = input.len();
    if chars > N.saturating_mul(2).saturating_add(2) {
        return match invalid_character(s) {
            Some(error) => Err(error),
            None => Err(Base58Error::TooLong { chars }),
        };
    }
    let leading_zeros = input.iter().take_while(|&&b| b == b'1').count();
    // The number, little-endian in 64-bit limbs.
    let mut limbs = [0u64; MAX_LIMBS];
    let mut used = 0usize;
    let mut rest = &input[leading_zeros..];
    while !rest.is_empty() {
        let (chunk, tail) = rest.split_at(rest.len().min(CHUNK_DIGITS));
        rest = tail;
        let (mut value, mut invalid) = (0u64, 0u8);
        for &b in chunk {
            let digit = DIGITS[usize::from(b)];
            invalid |= digit;
            // Wrapping: an invalid digit may overflow, and is refused just below.
            value = value.wrapping_mul(58).wrapping_add(u64::from(digit));
        }
        if invalid & 0x80 != 0 {
            return Err(invalid_character(s).unwrap_or(Base58Error::TooLong { chars }));
        }
        let base = u128::from(POWERS[chunk.len()]);
        let mut carry = u128::from(value);
        for limb in &mut limbs[..used] {
            let x = u128::from(*limb) * base + carry;
            *limb = x as u64;
            carry = x >> 64;
        }
        if carry > 0 {
            if used == MAX_LIMBS {
                return Err(Base58Error::TooLong { chars });
            }
            limbs[used] = carry as u64;
            used += 1;
        }
    }
    // Significant bytes of the number, without leading zero bytes (the top limb is
    // never zero: it is only added for a nonzero carry).
    let significant = match limbs[..used].last() {
        Some(top) => (used - 1) * 8 + 8 - (top.leading_zeros() / 8) as usize,
        None => 0,
    };
    let actual = leading_zeros + significant;
    if actual != N {
        return Err(Base58Error::WrongLength { actual });
    }
    // Big-endian, the lowest limb last; every limb but the top one fills eight bytes
    // (a fixed-size copy: one store), and the top one the bytes left.
    let mut out = [0u8; N];
    let mut end = N;
    for limb in &limbs[..used.saturating_sub(1)] {
        out[end - 8..end].copy_from_slice(&limb.to_be_bytes());
        end -= 8;
    }
    if let Some(top) = limbs[..used].last() {
        for (byte, value) in out[leading_zeros..end]
            .iter_mut()
            .rev()
            .zip(top.to_le_bytes())
        {
            *byte = value;
        }
    }
    Ok(out)
}

/// Decodes `s` into exactly `n` bytes, for values too large for [`decode_array`]'s
/// fixed limbs (ML-DSA-65 keys and signatures, kilobytes). The length is bounded as
/// there before the quadratic decoder runs.
#[cfg(feature = "nearcore_0_38_0")]
pub(crate) fn decode_exact(s: &str, n: usize) -> Result<Vec<u8>, Base58Error> {
    let chars = s.len();
    if let Some(error) = invalid_character(s) {
        return Err(error);
    }
    if chars > n.saturating_mul(2).saturating_add(2) {
        return Err(Base58Error::TooLong { chars });
    }
    let bytes = bs58::decode(s)
        .into_vec()
        .map_err(|_| Base58Error::TooLong { chars })?;
    if bytes.len() != n {
        return Err(Base58Error::WrongLength {
            actual: bytes.len(),
        });
    }
    Ok(bytes)
}

/// The first character outside the alphabet, with its position in characters.
fn invalid_character(s: &str) -> Option<Base58Error> {
    s.chars()
        .enumerate()
        .find(|&(_, c)| !c.is_ascii() || DIGITS[c as usize] == INVALID)
        .map(|(position, character)| Base58Error::InvalidCharacter {
            character,
            position,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let bytes = [7u8; 32];
        let s = encode(&bytes);
        assert_eq!(decode_array::<32>(&s), Ok(bytes));
    }

    #[test]
    fn leading_zeros_are_ones() {
        assert_eq!(encode(&[0u8; 4]), "1111");
        assert_eq!(decode_array::<4>("1111"), Ok([0u8; 4]));
    }

    #[test]
    fn invalid_character_is_reported_with_position() {
        assert_eq!(
            decode_array::<32>("abc0def"),
            Err(Base58Error::InvalidCharacter {
                character: '0',
                position: 3
            })
        );
        // Non-ASCII characters are counted as one position each.
        assert_eq!(
            decode_array::<32>("ééx"),
            Err(Base58Error::InvalidCharacter {
                character: 'é',
                position: 0
            })
        );
    }

    #[test]
    fn wrong_length_is_reported() {
        assert_eq!(
            decode_array::<32>("111"),
            Err(Base58Error::WrongLength { actual: 3 })
        );
        assert_eq!(
            decode_array::<32>(""),
            Err(Base58Error::WrongLength { actual: 0 })
        );
    }

    #[test]
    fn long_inputs_are_rejected_early() {
        let s = "z".repeat(10_000);
        assert_eq!(
            decode_array::<32>(&s),
            Err(Base58Error::TooLong { chars: 10_000 })
        );
        // Just under the bound still decodes (and is simply the wrong length).
        let s = "1".repeat(66);
        assert_eq!(
            decode_array::<32>(&s),
            Err(Base58Error::WrongLength { actual: 66 })
        );
    }

    #[test]
    fn maximal_values_fit_under_the_bound() {
        for n in [32usize, 64, 65] {
            let s = encode(&vec![0xff; n]);
            assert!(
                s.len() <= 2 * n + 2,
                "{n} bytes encode to {} chars",
                s.len()
            );
        }
        assert_eq!(decode_array::<65>(&encode(&[0xff; 65])), Ok([0xff; 65]));
    }

    #[test]
    fn agrees_with_bs58_on_many_values() {
        // Every length, leading zeros included, and values with high bits set.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..=65usize {
            for zeros in [0usize, 1, 3] {
                let mut bytes = vec![0u8; len];
                for b in bytes.iter_mut().skip(zeros.min(len)) {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    *b = state as u8;
                }
                let text = encode(&bytes);
                let reference = bs58::decode(&text).into_vec().unwrap();
                assert_eq!(reference, bytes);
                match len {
                    32 => assert_eq!(decode_array::<32>(&text).unwrap().to_vec(), bytes),
                    64 => assert_eq!(decode_array::<64>(&text).unwrap().to_vec(), bytes),
                    _ if text.len() > 66 => assert_eq!(
                        decode_array::<32>(&text),
                        Err(Base58Error::TooLong { chars: text.len() })
                    ),
                    _ => assert_eq!(
                        decode_array::<32>(&text),
                        Err(Base58Error::WrongLength { actual: len }),
                        "{text}"
                    ),
                }
            }
        }
    }

    #[test]
    fn display_names_the_problem() {
        let e = Base58Error::InvalidCharacter {
            character: 'l',
            position: 5,
        };
        assert_eq!(e.to_string(), "invalid base58 character 'l' at position 5");
        assert_eq!(
            Base58Error::WrongLength { actual: 31 }.to_string(),
            "decoded to 31 bytes"
        );
    }
}
