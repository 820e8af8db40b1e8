//! The `"jsonrpc": "2.0"` member shared by requests and responses.

use std::fmt;

use serde::de::{self, Unexpected, Visitor};
use serde::{Deserialize, Deserializer};

/// The only protocol version accepted and written.
pub(crate) const VERSION: &str = "2.0";

/// Marker that deserializes only from the string `"2.0"`.
///
/// Validation happens inside `Deserialize`, so a path-tracking deserializer
/// reports the failure at `jsonrpc`.
pub(crate) struct Version2;

struct Version2Visitor;

impl Visitor<'_> for Version2Visitor {
    type Value = Version2;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the JSON-RPC version string \"2.0\"")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Version2, E> {
        if v == VERSION {
            Ok(Version2)
        } else {
            Err(E::invalid_value(Unexpected::Str(v), &self))
        }
    }
}

impl<'de> Deserialize<'de> for Version2 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(Version2Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_only_2_0() {
        assert!(serde_json::from_str::<Version2>("\"2.0\"").is_ok());
        let err = serde_json::from_str::<Version2>("\"1.0\"")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.contains(
                "invalid value: string \"1.0\", expected the JSON-RPC version string \"2.0\""
            ),
            "{err}"
        );
        let err = serde_json::from_str::<Version2>("2.0")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("expected the JSON-RPC version"), "{err}");
    }
}
