//! The handler error of a method whose spec has no error schema.

use std::fmt;

use serde::{Serialize, Serializer};
use serde_json::Value;

/// The `cause` of a `HANDLER_ERROR` for a method the spec documents no error type for
/// (the methods only nearcore's OpenRPC document has: it has no error schemas).
///
/// It keeps the cause exactly as the node sent it, so nothing is lost and nothing can
/// fail to decode; [`name`](Self::name) and [`info`](Self::info) read the usual
/// `{"name": "UNKNOWN_BLOCK", "info": {..}}` shape.
///
/// ```
/// use near_rpc::envelope::UntypedCause;
///
/// let cause: UntypedCause =
///     serde_json::from_str(r#"{"name": "UNKNOWN_BLOCK", "info": {"block_reference": 7}}"#)
///         .unwrap();
/// assert_eq!(cause.name(), Some("UNKNOWN_BLOCK"));
/// assert_eq!(cause.info().unwrap()["block_reference"], 7);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct UntypedCause(pub Value);

impl UntypedCause {
    /// The cause's `name` (`UNKNOWN_BLOCK`, ...), when it has a string one.
    pub fn name(&self) -> Option<&str> {
        self.0.get("name")?.as_str()
    }

    /// The cause's `info`, when it has one.
    pub fn info(&self) -> Option<&Value> {
        self.0.get("info")
    }
}

impl fmt::Display for UntypedCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.name(), self.info()) {
            (Some(name), Some(info)) => write!(f, "{name}: {info}"),
            (Some(name), None) => f.write_str(name),
            (None, _) => write!(f, "{}", self.0),
        }
    }
}

impl Serialize for UntypedCause {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_any_cause_whole() {
        for raw in [
            json!({"name": "UNKNOWN_BLOCK", "info": {"h": 1}, "extra": true}),
            json!({"info": null}),
            json!("just text"),
            json!(null),
        ] {
            let cause: UntypedCause = serde_json::from_value(raw.clone()).unwrap();
            assert_eq!(serde_json::to_value(&cause).unwrap(), raw);
        }
        let cause = UntypedCause(json!({"name": 5}));
        assert_eq!(cause.name(), None, "a name that is not a string is no name");
        assert_eq!(cause.to_string(), r#"{"name":5}"#);
        let cause = UntypedCause(json!({"name": "BUSY"}));
        assert_eq!(
            (cause.name(), cause.to_string().as_str()),
            (Some("BUSY"), "BUSY")
        );
    }
}
