//! [`BlockId`]: a block named by height or by hash.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Unexpected, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::crypto_hash::{CryptoHash, ParseCryptoHashError};

/// A block reference: a height (JSON integer) or a hash (base58 JSON string).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockId {
    /// A block height; the full `u64` range is accepted.
    Height(u64),
    /// A block hash.
    Hash(CryptoHash),
}

impl From<u64> for BlockId {
    fn from(height: u64) -> Self {
        BlockId::Height(height)
    }
}

impl From<CryptoHash> for BlockId {
    fn from(hash: CryptoHash) -> Self {
        BlockId::Hash(hash)
    }
}

impl fmt::Display for BlockId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockId::Height(height) => write!(f, "{height}"),
            BlockId::Hash(hash) => write!(f, "{hash}"),
        }
    }
}

/// Why a string is neither a block height nor a block hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseBlockIdError(ParseCryptoHashError);

impl ParseBlockIdError {
    /// The error from parsing the string as a hash.
    pub fn hash_error(&self) -> &ParseCryptoHashError {
        &self.0
    }
}

impl fmt::Display for ParseBlockIdError {
    /// This level alone; why it is not a hash is the [`source`](std::error::Error::source)
    /// (print both with [`ErrorReport`](crate::ErrorReport)).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("neither a block height (u64) nor a block hash")
    }
}

impl std::error::Error for ParseBlockIdError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

impl FromStr for BlockId {
    type Err = ParseBlockIdError;

    /// Digits that fit in a `u64` are a height; anything else is parsed as a hash.
    ///
    /// There is no ambiguity: a 32-byte hash takes at least 32 base58 characters,
    /// while a `u64` has at most 20 digits.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            if let Ok(height) = s.parse::<u64>() {
                return Ok(BlockId::Height(height));
            }
        }
        s.parse().map(BlockId::Hash).map_err(ParseBlockIdError)
    }
}

impl Serialize for BlockId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            BlockId::Height(height) => serializer.serialize_u64(*height),
            BlockId::Hash(hash) => hash.serialize(serializer),
        }
    }
}

struct BlockIdVisitor;

impl Visitor<'_> for BlockIdVisitor {
    type Value = BlockId;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a block height (unsigned integer) or a block hash (base58 string)")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<BlockId, E> {
        Ok(BlockId::Height(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<BlockId, E> {
        match u64::try_from(v) {
            Ok(height) => Ok(BlockId::Height(height)),
            Err(_) => Err(E::invalid_value(Unexpected::Signed(v), &self)),
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<BlockId, E> {
        v.parse()
            .map(BlockId::Hash)
            .map_err(|e| E::custom(format_args!("invalid block hash: {e}")))
    }
}

impl<'de> Deserialize<'de> for BlockId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(BlockIdVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const HASH: &str = "GKot5hBsd81kMupNCXHaqbhv3huEbxAFMLnpcX2hniwn";

    #[test]
    fn height_round_trip_full_range() {
        for h in [0u64, 1, 123_456_789, u64::MAX] {
            let json = serde_json::to_string(&BlockId::Height(h)).expect("ser");
            assert_eq!(json, h.to_string());
            let back: BlockId = serde_json::from_str(&json).expect("de");
            assert_eq!(back, BlockId::Height(h));
            let back: BlockId = serde_json::from_value(json!(h)).expect("de value");
            assert_eq!(back, BlockId::Height(h));
        }
    }

    #[test]
    fn hash_round_trip() {
        let id: BlockId = serde_json::from_str(&format!("\"{HASH}\"")).expect("de");
        assert!(matches!(id, BlockId::Hash(_)));
        assert_eq!(
            serde_json::to_string(&id).expect("ser"),
            format!("\"{HASH}\"")
        );
        let id: BlockId = serde_json::from_value(json!(HASH)).expect("de value");
        assert_eq!(id.to_string(), HASH);
    }

    #[test]
    fn non_negative_i64_is_a_height() {
        // Deserializing from an i64-typed source (e.g. serde's IntoDeserializer).
        use serde::de::IntoDeserializer;
        let de: de::value::I64Deserializer<de::value::Error> = 42i64.into_deserializer();
        assert_eq!(BlockId::deserialize(de), Ok(BlockId::Height(42)));
        let de: de::value::I64Deserializer<de::value::Error> = (-1i64).into_deserializer();
        let err = BlockId::deserialize(de).unwrap_err();
        assert!(err.to_string().contains("-1"), "{err}");
    }

    #[test]
    fn errors_are_clear() {
        let expected = "a block height (unsigned integer) or a block hash (base58 string)";
        for bad in ["-5", "1.5", "true", "null", "[]", "{}"] {
            let err = serde_json::from_str::<BlockId>(bad).unwrap_err();
            assert!(err.to_string().contains(expected), "{bad}: {err}");
        }
        let err = serde_json::from_str::<BlockId>("-5").unwrap_err();
        assert!(err.to_string().contains("-5"), "{err}");
        let err = serde_json::from_str::<BlockId>("\"0abc\"").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("invalid block hash: not base58: invalid character '0'"),
            "{err}"
        );
    }

    #[test]
    fn display_and_from_str() {
        assert_eq!(BlockId::from(17u64).to_string(), "17");
        assert_eq!("17".parse::<BlockId>(), Ok(BlockId::Height(17)));
        let max = u64::MAX.to_string();
        assert_eq!(max.parse::<BlockId>(), Ok(BlockId::Height(u64::MAX)));
        let hash: CryptoHash = HASH.parse().expect("hash");
        assert_eq!(HASH.parse::<BlockId>(), Ok(BlockId::from(hash)));
        // The all-zero hash is written with digits only, and must stay a hash.
        let zero = BlockId::Hash(CryptoHash::default());
        assert_eq!(zero.to_string().parse::<BlockId>(), Ok(zero));
        // Too big for u64 and too short for a hash.
        let err = "99999999999999999999999".parse::<BlockId>().unwrap_err();
        assert!(
            err.to_string()
                .starts_with("neither a block height (u64) nor a block hash"),
            "{err}"
        );
        assert!(matches!(
            "".parse::<BlockId>().unwrap_err().hash_error(),
            ParseCryptoHashError::WrongLength { decoded: 0 }
        ));
    }
}
