//! [`CryptoHash`]: a 32-byte hash, written as base58 on the wire.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::base58::{self, Base58Error};

/// A 32-byte hash (block hash, chunk hash, transaction hash, ...).
///
/// On the wire it is a base58 string (bitcoin alphabet) that decodes to exactly
/// 32 bytes. [`Display`](fmt::Display) and [`FromStr`] use the same form.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct CryptoHash(pub [u8; 32]);

impl CryptoHash {
    /// Number of bytes in a hash.
    pub const LENGTH: usize = 32;

    /// Returns the raw bytes of the hash.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The sha256 of `bytes`, nearcore's `hash` (feature `tx`).
    #[cfg(feature = "tx")]
    pub fn hash_bytes(bytes: &[u8]) -> Self {
        use sha2::Digest as _;
        Self(sha2::Sha256::digest(bytes).into())
    }
}

/// Why a string is not a valid [`CryptoHash`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseCryptoHashError {
    /// The string contains a character outside the base58 alphabet.
    InvalidBase58 {
        /// The offending character.
        character: char,
        /// Its position in the string, counted in characters from 0.
        position: usize,
    },
    /// The string is valid base58 but does not decode to 32 bytes.
    WrongLength {
        /// Number of bytes the string decoded to.
        decoded: usize,
    },
    /// The string is far too long to be a 32-byte hash (it was not decoded).
    TooLong {
        /// Length of the string, in characters.
        chars: usize,
    },
}

impl fmt::Display for ParseCryptoHashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseCryptoHashError::InvalidBase58 {
                character,
                position,
            } => write!(
                f,
                "not base58: invalid character {character:?} at position {position}"
            ),
            ParseCryptoHashError::WrongLength { decoded } => {
                write!(f, "decoded to {decoded} bytes instead of 32")
            }
            ParseCryptoHashError::TooLong { chars } => write!(
                f,
                "base58 string of {chars} characters is too long for a 32-byte hash"
            ),
        }
    }
}

impl std::error::Error for ParseCryptoHashError {}

impl From<Base58Error> for ParseCryptoHashError {
    fn from(e: Base58Error) -> Self {
        match e {
            Base58Error::InvalidCharacter {
                character,
                position,
            } => ParseCryptoHashError::InvalidBase58 {
                character,
                position,
            },
            Base58Error::TooLong { chars } => ParseCryptoHashError::TooLong { chars },
            Base58Error::WrongLength { actual } => {
                ParseCryptoHashError::WrongLength { decoded: actual }
            }
        }
    }
}

impl FromStr for CryptoHash {
    type Err = ParseCryptoHashError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(CryptoHash(base58::decode_array::<32>(s)?))
    }
}

impl fmt::Display for CryptoHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&base58::encode(&self.0))
    }
}

impl fmt::Debug for CryptoHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CryptoHash({self})")
    }
}

impl AsRef<[u8]> for CryptoHash {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl From<[u8; 32]> for CryptoHash {
    fn from(bytes: [u8; 32]) -> Self {
        CryptoHash(bytes)
    }
}

impl Serialize for CryptoHash {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

struct CryptoHashVisitor;

impl Visitor<'_> for CryptoHashVisitor {
    type Value = CryptoHash;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a base58 string of a 32-byte hash")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<CryptoHash, E> {
        v.parse()
            .map_err(|e| E::custom(format_args!("invalid hash: {e}")))
    }
}

impl<'de> Deserialize<'de> for CryptoHash {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(CryptoHashVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // sha256("") as NEAR writes it.
    const EMPTY_SHA256: &str = "GKot5hBsd81kMupNCXHaqbhv3huEbxAFMLnpcX2hniwn";

    #[test]
    fn parse_display_round_trip() {
        let h: CryptoHash = EMPTY_SHA256.parse().expect("valid hash");
        assert_eq!(h.0[0], 0xe3);
        assert_eq!(h.0[31], 0x55);
        assert_eq!(h.to_string(), EMPTY_SHA256);
        assert_eq!(format!("{h:?}"), format!("CryptoHash({EMPTY_SHA256})"));
    }

    #[test]
    fn default_is_all_ones() {
        assert_eq!(CryptoHash::default().to_string(), "1".repeat(32));
        assert_eq!(
            "1".repeat(32).parse::<CryptoHash>(),
            Ok(CryptoHash::default())
        );
    }

    #[test]
    fn bad_character_is_named() {
        let err = "GKot5hBsd81kMupNCXHaqbhv3huEbxAFMLnpcX2hniw0"
            .parse::<CryptoHash>()
            .unwrap_err();
        assert_eq!(
            err,
            ParseCryptoHashError::InvalidBase58 {
                character: '0',
                position: 43
            }
        );
        assert_eq!(
            err.to_string(),
            "not base58: invalid character '0' at position 43"
        );
    }

    #[test]
    fn wrong_length_is_named() {
        let short = base58::encode(&[1u8; 31]);
        let err = short.parse::<CryptoHash>().unwrap_err();
        assert_eq!(err.to_string(), "decoded to 31 bytes instead of 32");
        let err = "".parse::<CryptoHash>().unwrap_err();
        assert_eq!(err, ParseCryptoHashError::WrongLength { decoded: 0 });
        let err = "z".repeat(500).parse::<CryptoHash>().unwrap_err();
        assert!(err.to_string().contains("500 characters"), "{err}");
    }

    #[test]
    fn serde_round_trip() {
        let h = CryptoHash([9u8; 32]);
        let json = serde_json::to_string(&h).expect("serialize");
        assert_eq!(json, format!("\"{h}\""));
        let back: CryptoHash = serde_json::from_str(&json).expect("deserialize");
        assert_eq!(back, h);
        // From an owned Value (visit_string path) too.
        let back: CryptoHash =
            serde_json::from_value(serde_json::Value::String(h.to_string())).expect("value");
        assert_eq!(back, h);
    }

    #[test]
    fn serde_errors_name_the_problem() {
        let err = serde_json::from_str::<CryptoHash>("\"abc\"").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("invalid hash: decoded to 3 bytes instead of 32"),
            "{err}"
        );
        let err = serde_json::from_str::<CryptoHash>("\"a-b\"").unwrap_err();
        assert!(err.to_string().contains("'-' at position 1"), "{err}");
        let err = serde_json::from_str::<CryptoHash>("42").unwrap_err();
        assert!(
            err.to_string().contains("expected a base58 string"),
            "{err}"
        );
    }

    #[test]
    fn conversions() {
        let h = CryptoHash::from([3u8; 32]);
        assert_eq!(h.as_ref(), &[3u8; 32][..]);
        assert_eq!(h.as_bytes(), &[3u8; 32]);
        assert!(CryptoHash([0u8; 32]) < CryptoHash([1u8; 32]));
    }
}
