//! [`ErrorWrapper`]: the JSON-RPC error object as sent by nearcore.
//!
//! nearcore error bodies look like
//!
//! ```json
//! {"name":"HANDLER_ERROR","cause":{"name":"UNKNOWN_BLOCK","info":{}},
//!  "code":-32000,"message":"Server error","data":"DB Not Found Error: ..."}
//! ```
//!
//! where `name` selects how `cause` is decoded. Very old nodes send only
//! `code`, `message` and `data`.

use std::fmt;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value;

/// Wire name of [`ErrorCause::RequestValidation`].
pub const REQUEST_VALIDATION_ERROR: &str = "REQUEST_VALIDATION_ERROR";
/// Wire name of [`ErrorCause::Handler`].
pub const HANDLER_ERROR: &str = "HANDLER_ERROR";
/// Wire name of [`ErrorCause::Internal`].
pub const INTERNAL_ERROR: &str = "INTERNAL_ERROR";

/// The `name`/`cause` pair of an error object. The generated layer names it with the
/// spec's request-validation and internal causes:
/// [`SpecErrorCause<E>`](crate::types::SpecErrorCause) is a method's.
///
/// * `E`: the method's handler error (`name = "HANDLER_ERROR"`).
/// * `V`: the request-validation cause (`name = "REQUEST_VALIDATION_ERROR"`).
/// * `I`: the internal error (`name = "INTERNAL_ERROR"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorCause<E, V, I> {
    /// The request was malformed (parse error, unknown method, ...).
    RequestValidation(V),
    /// The method handler failed (unknown block, unknown account, ...).
    Handler(E),
    /// The node failed internally.
    Internal(I),
    /// A `name` this crate does not know, kept with its raw `cause`
    /// (`Value::Null` when the body had no `cause`).
    Unknown {
        /// The wire name.
        name: String,
        /// The raw cause.
        cause: Value,
    },
    /// The body had no `name` (legacy nodes send only code/message/data).
    Missing,
}

impl<E, V, I> ErrorCause<E, V, I> {
    /// The wire name: one of the `*_ERROR` constants, the unknown name as
    /// received, or `""` for [`ErrorCause::Missing`].
    pub fn name(&self) -> &str {
        match self {
            ErrorCause::RequestValidation(_) => REQUEST_VALIDATION_ERROR,
            ErrorCause::Handler(_) => HANDLER_ERROR,
            ErrorCause::Internal(_) => INTERNAL_ERROR,
            ErrorCause::Unknown { name, .. } => name,
            ErrorCause::Missing => "",
        }
    }
}

/// A JSON-RPC error object with nearcore's `name`/`cause` extension, generic over its
/// three causes as [`ErrorCause`] is. The generated layer names it with the spec's
/// request-validation and internal causes:
/// [`SpecErrorWrapper<E>`](crate::types::SpecErrorWrapper) is the error of a method whose
/// handler errors are `E`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorWrapper<E, V, I> {
    /// The typed cause, selected by the wire `name`.
    pub cause: ErrorCause<E, V, I>,
    /// The JSON-RPC error code (e.g. `-32000`), when present and not null.
    pub code: Option<i64>,
    /// The JSON-RPC error message (e.g. `"Server error"`), when present and not null.
    pub message: Option<String>,
    /// The free-form `data` member, when present (kept even when it is `null`).
    pub data: Option<Value>,
}

impl<E, V, I> ErrorWrapper<E, V, I> {
    /// The wire name, as [`ErrorCause::name`].
    pub fn name(&self) -> &str {
        self.cause.name()
    }
}

impl<E: Serialize, V: Serialize, I: Serialize> ErrorWrapper<E, V, I> {
    /// The most specific name: the cause's own (`UNKNOWN_BLOCK`, `PARSE_ERROR`, ...)
    /// when it has one, else the wire name (`HANDLER_ERROR`, ...); `None` for a legacy
    /// body without a name.
    pub fn cause_name(&self) -> Option<String> {
        let inner = match &self.cause {
            ErrorCause::RequestValidation(v) => tag_of(v),
            ErrorCause::Handler(e) => tag_of(e),
            ErrorCause::Internal(i) => tag_of(i),
            // A wire name this crate does not know says more than a guess at its cause.
            ErrorCause::Unknown { .. } => None,
            ErrorCause::Missing => return None,
        };
        Some(inner.unwrap_or_else(|| self.name().to_owned()))
    }
}

/// The `name` a cause serializes with (`{"name": "UNKNOWN_BLOCK", "info": ...}`).
fn tag_of<T: Serialize>(cause: &T) -> Option<String> {
    serde_json::to_value(cause)
        .ok()?
        .get("name")?
        .as_str()
        .map(str::to_owned)
}

impl<E, V, I> fmt::Display for ErrorWrapper<E, V, I>
where
    E: fmt::Debug + Serialize,
    V: fmt::Debug + Serialize,
    I: fmt::Debug + Serialize,
{
    /// One line: the most specific name, then the node's own words. nearcore puts its
    /// message in `data` (`UNKNOWN_ACCOUNT: account x does not exist while viewing`);
    /// its `message` is a generic "Server error", shown only for legacy bodies without
    /// a name, or when there is nothing else.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.cause_name(), self.code) {
            (Some(name), _) => f.write_str(&name)?,
            (None, Some(code)) => write!(f, "error {code}")?,
            (None, None) => f.write_str("error")?,
        }
        let data = match &self.data {
            Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
            None | Some(Value::Null) | Some(Value::String(_)) => None,
            Some(other) => Some(other.to_string()),
        };
        let legacy = matches!(self.cause, ErrorCause::Missing);
        if let (true, Some(message)) = (legacy, &self.message) {
            write!(f, ": {message}")?;
        }
        match (data, &self.cause) {
            (Some(data), _) => write!(f, ": {data}"),
            (None, ErrorCause::Missing) => Ok(()),
            (None, ErrorCause::Unknown { .. }) if self.message.is_some() => {
                write!(f, ": {}", self.message.as_deref().unwrap_or_default())
            }
            // A named cause without data: its fields say more than "Server error".
            (None, _) => self.write_cause(f),
        }
    }
}

impl<E: Serialize, V: Serialize, I: Serialize> ErrorWrapper<E, V, I> {
    /// The cause's details as the node sent them: its `info` (the name is already
    /// shown), or the whole cause when it has none.
    fn write_cause(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cause = match &self.cause {
            ErrorCause::RequestValidation(v) => serde_json::to_value(v),
            ErrorCause::Handler(e) => serde_json::to_value(e),
            ErrorCause::Internal(i) => serde_json::to_value(i),
            ErrorCause::Unknown { cause, .. } => Ok(cause.clone()),
            ErrorCause::Missing => return Ok(()),
        };
        let shown = match cause {
            Ok(Value::Object(mut map)) if map.contains_key("info") => map.remove("info"),
            // A bare name: nothing beyond it.
            Ok(Value::Object(map)) if map.len() == 1 && map.contains_key("name") => None,
            Ok(Value::Null) | Err(_) => None,
            Ok(other) => Some(other),
        };
        match shown {
            Some(Value::Object(map)) if map.is_empty() => Ok(()),
            Some(Value::Null) | None => Ok(()),
            Some(details) => write!(f, ": {details}"),
        }
    }
}

impl<E, V, I> std::error::Error for ErrorWrapper<E, V, I>
where
    E: fmt::Debug + Serialize,
    V: fmt::Debug + Serialize,
    I: fmt::Debug + Serialize,
{
}

impl<E: Serialize, V: Serialize, I: Serialize> Serialize for ErrorWrapper<E, V, I> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match &self.cause {
            ErrorCause::RequestValidation(v) => {
                map.serialize_entry("name", REQUEST_VALIDATION_ERROR)?;
                map.serialize_entry("cause", v)?;
            }
            ErrorCause::Handler(e) => {
                map.serialize_entry("name", HANDLER_ERROR)?;
                map.serialize_entry("cause", e)?;
            }
            ErrorCause::Internal(i) => {
                map.serialize_entry("name", INTERNAL_ERROR)?;
                map.serialize_entry("cause", i)?;
            }
            ErrorCause::Unknown { name, cause } => {
                map.serialize_entry("name", name)?;
                map.serialize_entry("cause", cause)?;
            }
            ErrorCause::Missing => {}
        }
        if let Some(code) = self.code {
            map.serialize_entry("code", &code)?;
        }
        if let Some(message) = &self.message {
            map.serialize_entry("message", message)?;
        }
        if let Some(data) = &self.data {
            map.serialize_entry("data", data)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "name", content = "info", rename_all = "SCREAMING_SNAKE_CASE")]
    enum HandlerError {
        UnknownBlock {},
        UnknownAccount {
            requested_account_id: String,
            block_height: u64,
        },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "name", content = "info", rename_all = "SCREAMING_SNAKE_CASE")]
    enum ValidationError {
        ParseError { error_message: String },
        MethodNotFound { method_name: String },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "name", content = "info", rename_all = "SCREAMING_SNAKE_CASE")]
    enum InternalError {
        InternalError { error_message: String },
    }

    // Types of a test's own: decoded with their serde `Deserialize`.
    crate::decode_with_serde!(HandlerError);
    crate::decode_with_serde!(ValidationError);
    crate::decode_with_serde!(InternalError);

    type Wrapper = ErrorWrapper<HandlerError, ValidationError, InternalError>;

    fn decode(v: &Value) -> Wrapper {
        match serde_json::from_value(v.clone()) {
            Ok(w) => w,
            Err(e) => panic!("decoding {v} failed: {e}"),
        }
    }

    fn decode_err(v: Value) -> String {
        match serde_json::from_value::<Wrapper>(v) {
            Ok(w) => format!("unexpected success: {w:?}"),
            Err(e) => e.to_string(),
        }
    }

    fn assert_round_trip(v: &Value) -> Wrapper {
        let w = decode(v);
        assert_eq!(&serde_json::to_value(&w).expect("ser"), v);
        w
    }

    #[test]
    fn handler_error() {
        let body = json!({
            "name": "HANDLER_ERROR",
            "cause": {"name": "UNKNOWN_BLOCK", "info": {}},
            "code": -32000,
            "message": "Server error",
            "data": "DB Not Found Error: BLOCK HEIGHT: 1 \n Cause: Unknown"
        });
        let w = assert_round_trip(&body);
        assert_eq!(w.cause, ErrorCause::Handler(HandlerError::UnknownBlock {}));
        assert_eq!(w.name(), "HANDLER_ERROR");
        assert_eq!(w.code, Some(-32000));
        // The cause's own name and the node's words, without "Server error".
        assert_eq!(
            w.to_string(),
            "UNKNOWN_BLOCK: DB Not Found Error: BLOCK HEIGHT: 1 \n Cause: Unknown"
        );
    }

    #[test]
    fn request_validation_error() {
        let body = json!({
            "name": "REQUEST_VALIDATION_ERROR",
            "cause": {"name": "PARSE_ERROR", "info": {"error_message": "bad"}},
            "code": -32700,
            "message": "Parse error",
            "data": "bad"
        });
        let w = assert_round_trip(&body);
        assert_eq!(
            w.cause,
            ErrorCause::RequestValidation(ValidationError::ParseError {
                error_message: "bad".into()
            })
        );
        assert_eq!(w.name(), REQUEST_VALIDATION_ERROR);
    }

    #[test]
    fn internal_error() {
        let body = json!({
            "name": "INTERNAL_ERROR",
            "cause": {"name": "INTERNAL_ERROR", "info": {"error_message": "boom"}},
            "code": -32000,
            "message": "Server error",
            "data": "boom"
        });
        let w = assert_round_trip(&body);
        assert!(matches!(w.cause, ErrorCause::Internal(_)));
        assert_eq!(w.name(), INTERNAL_ERROR);
    }

    /// The inner name replaces the outer one: never `INTERNAL_ERROR: INTERNAL_ERROR` or
    /// a generic "Server error" beside the node's own words.
    #[test]
    fn display_names_the_cause_once() {
        let body = json!({
            "name": "INTERNAL_ERROR",
            "cause": {"name": "INTERNAL_ERROR", "info": {"error_message": "boom"}},
            "code": -32000,
            "message": "Server error",
            "data": "boom"
        });
        let w = assert_round_trip(&body);
        assert_eq!(w.to_string(), "INTERNAL_ERROR: boom");
        assert_eq!(w.cause_name().as_deref(), Some("INTERNAL_ERROR"));
        let mut no_data = w.clone();
        no_data.data = None;
        assert_eq!(
            no_data.to_string(),
            "INTERNAL_ERROR: {\"error_message\":\"boom\"}"
        );
    }

    #[test]
    fn legacy_error_without_name() {
        let body = json!({"code": -32000, "message": "Server error", "data": {"x": 1}});
        let w = assert_round_trip(&body);
        assert_eq!(w.cause, ErrorCause::Missing);
        assert_eq!(w.name(), "");
        assert_eq!(w.to_string(), "error -32000: Server error: {\"x\":1}");
        let w = assert_round_trip(&json!({}));
        assert_eq!(w.to_string(), "error");
    }

    #[test]
    fn unknown_name_is_preserved() {
        let body = json!({
            "name": "FUTURE_ERROR",
            "cause": {"name": "SOMETHING", "info": {"a": [1, 2]}},
            "code": -32001,
            "message": "Future"
        });
        let w = assert_round_trip(&body);
        assert_eq!(w.name(), "FUTURE_ERROR");
        assert_eq!(
            w.cause,
            ErrorCause::Unknown {
                name: "FUTURE_ERROR".into(),
                cause: json!({"name": "SOMETHING", "info": {"a": [1, 2]}})
            }
        );
        assert_eq!(w.to_string(), "FUTURE_ERROR: Future");
    }

    /// A cause type without a tagged enum, so the path is visible.
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct PlainCause {
        name: String,
        info: PlainInfo,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct PlainInfo {
        block_height: u64,
    }

    crate::decode_with_serde!(PlainCause);

    #[test]
    fn bad_cause_names_its_path() {
        let body = json!({
            "name": "REQUEST_VALIDATION_ERROR",
            "cause": {"name": "X", "info": {"block_height": "x"}},
            "code": -32000
        });
        let err = serde_json::from_value::<ErrorWrapper<Value, PlainCause, Value>>(body)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.starts_with("cause.info.block_height: invalid type: string \"x\""),
            "{err}"
        );
        // Inside a serde-derived tagged enum the inner path is lost (serde buffers the
        // content); the generated open enums track it themselves.
        let err = decode_err(json!({
            "name": "HANDLER_ERROR",
            "cause": {"name": "UNKNOWN_ACCOUNT",
                      "info": {"requested_account_id": "a.near", "block_height": "x"}},
            "code": -32000
        }));
        assert!(
            err.starts_with("cause: invalid type: string \"x\""),
            "{err}"
        );
        let err = decode_err(json!({"name": "INTERNAL_ERROR", "cause": 5}));
        assert!(err.starts_with("cause: invalid type: integer `5`"), "{err}");
        // An unknown handler variant is an error, never silently Unknown.
        let err = decode_err(json!({
            "name": "HANDLER_ERROR",
            "cause": {"name": "NEW_VARIANT", "info": {}}
        }));
        assert!(err.starts_with("cause"), "{err}");
        assert!(err.contains("NEW_VARIANT"), "{err}");
        let err = decode_err(json!({"name": "HANDLER_ERROR"}));
        assert_eq!(err, "error object named HANDLER_ERROR has no `cause`");
        let err = decode_err(json!({"cause": {}}));
        assert_eq!(err, "error object has a `cause` but no `name`");
    }

    #[test]
    fn bad_members_are_named() {
        let err = decode_err(json!({"code": "x"}));
        assert_eq!(err, "code: expected an integer error code, got \"x\"");
        let err = decode_err(json!({"code": 1.5}));
        assert!(err.starts_with("code: expected an integer"), "{err}");
        let err = decode_err(json!({"message": 3}));
        assert_eq!(err, "message: expected a string, got 3");
        let err = decode_err(json!({"name": 3, "cause": {}}));
        assert_eq!(err, "name: expected a string, got 3");
        let err = decode_err(json!("oops"));
        assert!(err.contains("expected a JSON-RPC error object"), "{err}");
    }

    #[test]
    fn display_without_message_uses_cause() {
        let w = Wrapper {
            cause: ErrorCause::Handler(HandlerError::UnknownBlock {}),
            code: None,
            message: None,
            data: None,
        };
        // The cause's info as sent, here empty: the name says it all.
        assert_eq!(w.to_string(), "UNKNOWN_BLOCK");
        let e: &dyn std::error::Error = &w;
        assert!(e.to_string().starts_with("UNKNOWN_BLOCK"));
    }

    #[test]
    fn null_data_is_kept() {
        let w = assert_round_trip(&json!({"code": 1, "data": null}));
        assert_eq!(w.data, Some(Value::Null));
        assert_eq!(w.to_string(), "error 1");
    }
}
