//! [`Id`]: the JSON-RPC request id.

use std::fmt;

use serde::{Serialize, Serializer};

/// A JSON-RPC request id: a non-negative integer or a string.
///
/// nearcore echoes back whatever id the request carried. Negative and
/// fractional numbers are rejected with a clear error.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Id {
    /// A numeric id.
    Number(u64),
    /// A string id.
    String(String),
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Id::Number(n) => write!(f, "{n}"),
            Id::String(s) => f.write_str(s),
        }
    }
}

impl From<u64> for Id {
    fn from(n: u64) -> Self {
        Id::Number(n)
    }
}

impl From<&str> for Id {
    fn from(s: &str) -> Self {
        Id::String(s.to_owned())
    }
}

impl From<String> for Id {
    fn from(s: String) -> Self {
        Id::String(s)
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Id::Number(n) => serializer.serialize_u64(*n),
            Id::String(s) => serializer.serialize_str(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numeric_ids_round_trip() {
        for n in [0u64, 7, u64::MAX] {
            let id: Id = serde_json::from_str(&n.to_string()).expect("de");
            assert_eq!(id, Id::Number(n));
            assert_eq!(serde_json::to_value(&id).expect("ser"), json!(n));
            assert_eq!(id.to_string(), n.to_string());
        }
    }

    #[test]
    fn string_ids_round_trip() {
        let id: Id = serde_json::from_str("\"dontcare\"").expect("de");
        assert_eq!(id, Id::from("dontcare"));
        assert_eq!(serde_json::to_string(&id).expect("ser"), "\"dontcare\"");
        assert_eq!(id.to_string(), "dontcare");
        // A numeric-looking string stays a string.
        let id: Id = serde_json::from_value(json!("12")).expect("de");
        assert_eq!(id, Id::String("12".to_owned()));
        assert_eq!(Id::from(String::from("x")), Id::String("x".into()));
        assert_eq!(Id::from(3u64), Id::Number(3));
    }

    #[test]
    fn bad_ids_are_rejected_clearly() {
        let expected = "a JSON-RPC id (non-negative integer or string)";
        for bad in ["-1", "1.5", "true", "[]", "{}", "null"] {
            let err = serde_json::from_str::<Id>(bad).unwrap_err();
            assert!(err.to_string().contains(expected), "{bad}: {err}");
        }
        let err = serde_json::from_str::<Id>("-1").unwrap_err();
        assert!(err.to_string().contains("integer `-1`"), "{err}");
    }
}
