//! Base58 (bitcoin alphabet) helpers shared by the primitive types.
//!
//! Decoding is done in two steps: the input is first scanned for characters that
//! are not in the alphabet (so errors can name the character and its position),
//! then its length is bounded before the quadratic base58 decoder runs, so that
//! hostile inputs cannot make decoding slow.

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

/// Decodes `s` and checks that it yields exactly `N` bytes.
pub(crate) fn decode_array<const N: usize>(s: &str) -> Result<[u8; N], Base58Error> {
    if let Some((position, character)) = s
        .chars()
        .enumerate()
        .find(|&(_, c)| !c.is_ascii() || !ALPHABET.contains(&(c as u8)))
    {
        return Err(Base58Error::InvalidCharacter {
            character,
            position,
        });
    }
    // Every base58 character carries at least log256(58) > 0.73 bytes and each
    // leading '1' is a whole zero byte, so a string longer than 2*N characters
    // always decodes to more than N bytes (and N bytes never need more than
    // 1.37*N + 1 characters). Rejecting early keeps decoding linear-bounded.
    let chars = s.len();
    if chars > N.saturating_mul(2).saturating_add(2) {
        return Err(Base58Error::TooLong { chars });
    }
    let decoded = match bs58::decode(s).into_vec() {
        Ok(decoded) => decoded,
        // Unreachable after the scan above, but never panic: report position 0.
        Err(_) => {
            return Err(Base58Error::InvalidCharacter {
                character: s.chars().next().unwrap_or(' '),
                position: 0,
            })
        }
    };
    <[u8; N]>::try_from(decoded.as_slice()).map_err(|_| Base58Error::WrongLength {
        actual: decoded.len(),
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
