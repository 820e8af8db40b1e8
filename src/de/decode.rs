//! Decoding helpers that report the JSON path of a failure.
//!
//! ```
//! # use near_rpc::decode::from_slice;
//! #[derive(Debug, serde::Deserialize)]
//! struct Outer { inner: Vec<Inner> }
//! #[derive(Debug, serde::Deserialize)]
//! struct Inner { height: u64 }
//!
//! let err = from_slice::<Outer>(br#"{"inner":[{"height":1},{"height":"x"}]}"#).unwrap_err();
//! assert_eq!(err.path(), "inner[1].height");
//! ```

use std::fmt;

use serde::de::DeserializeOwned;

pub use crate::de::native::Decode;
pub use crate::de::repeated_keys::check_unique_keys;

/// A decoding failure: where it happened and what went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    path: String,
    message: String,
}

impl DecodeError {
    /// Builds an error from a path (may be empty) and a message.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        DecodeError {
            path: path.into(),
            message: message.into(),
        }
    }

    /// The JSON path of the failing value, such as
    /// `result.receipts_outcome[3].outcome.status`; empty for the document root.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at {}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for DecodeError {}

/// Types that buffer their input (open enums, untagged shapes) decode it again with their
/// own path tracking and report `"<inner path>: <message>"`. This moves those inner
/// paths from the message onto the outer path, so that `path()` is the whole path.
fn join_nested_paths(path: String, message: String) -> DecodeError {
    let (path, rest) = crate::de::paths::join_paths(path, &message);
    let message = rest.to_owned();
    DecodeError { path, message }
}

/// Decodes a JSON document, tracking the path of any failure.
///
/// Like `serde_json::from_slice`, trailing non-whitespace is an error. Path tracking
/// costs time on every value, so the document is decoded as a stream, and only a failure
/// is located: serde_json's line and column of it become a JSON path
/// (`crate::de::locate`), and the document is decoded once more, the same way, with the
/// paths inside buffered values tracked. The message keeps the line and column.
///
/// This crate's types decode through their native decoders here too (their
/// `Deserialize` transcribes the value and decodes that), so a crate calling
/// `from_slice::<T>` compiles serde's code for its own types only. For a whole response,
/// [`RpcMethod::decode_response`](crate::methods::RpcMethod::decode_response) is faster to run.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    match serde_json::from_slice(bytes) {
        Ok(decoded) => Ok(decoded),
        Err(first) => Err(locate(bytes, first, &|| {
            serde_json::from_slice::<T>(bytes).err()
        })),
    }
}

/// The path and message of a failed streaming decode. `again` decodes the document once
/// more (with the paths inside buffered enums tracked this time) and returns its error.
/// Not generic over the type: compiled once.
fn locate(
    bytes: &[u8],
    first: serde_json::Error,
    again: &dyn Fn() -> Option<serde_json::Error>,
) -> DecodeError {
    use serde_json::error::Category;
    // Not JSON at all (or trailing characters): the line and column are the location.
    if matches!(
        first.classify(),
        Category::Syntax | Category::Eof | Category::Io
    ) {
        return DecodeError::new("", first.to_string());
    }
    // A data error in a document that is not JSON further on: the syntax is what is
    // wrong (`[1,` for an object says "invalid type: sequence" first, a body with text
    // after it may say "missing field").
    if let Some(syntax) = syntax_error(bytes) {
        return syntax;
    }
    // Whatever an earlier decode on this thread left noted is not this failure's.
    drop(crate::de::mode::take_buffered_failure());
    // The same failure decoded again with the paths inside buffered values tracked; a
    // different one (path tracking changed the outcome) is not trusted.
    let again = crate::de::mode::with_paths(again);
    let noted = crate::de::mode::take_buffered_failure();
    let (error, noted) = match again {
        Some(again) if (again.line(), again.column()) == (first.line(), first.column()) => {
            (again, noted)
        }
        _ => (first, None),
    };
    let (line, column) = (error.line(), error.column());
    let text = error.to_string();
    let position = format!(" at line {line} column {column}");
    let message = text.strip_suffix(&position).unwrap_or(&text);
    // A failure inside a buffered value: serde_json placed it by the container around it.
    let buffered = noted
        .filter(|noted| noted.message == message)
        .map(|noted| noted.value);
    let offset = crate::de::locate::offset_of(bytes, line, column);
    let path = crate::de::locate::path_at(bytes, offset, buffered.as_ref());
    let mut located = join_nested_paths(path, message.to_owned());
    if line > 0 {
        located.message.push_str(&position);
    }
    located
}

/// The syntax error of a document that is not JSON, if it is not: what a decoder that
/// stopped at a type error would otherwise hide. Run on failures only.
pub(crate) fn syntax_error(bytes: &[u8]) -> Option<DecodeError> {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
        .err()
        .map(|e| DecodeError::new("", e.to_string()))
}

/// Decodes an already parsed JSON value, tracking the path of any failure (the path costs
/// nothing until something fails).
pub fn from_value<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, DecodeError> {
    from_value_ref(&value)
}

/// [`from_value`] without taking the value (the reporting decode walks it afterwards).
fn from_value_ref<T: DeserializeOwned>(value: &serde_json::Value) -> Result<T, DecodeError> {
    let decode = || crate::de::value::decode::<T, serde_json::Error>(value);
    // The value is decoded with its path tracked, except inside values that are buffered
    // (serde's flattened structs, this crate's types): only a failure is worth decoding
    // again to track those.
    decode().or_else(|_| {
        let error = crate::de::mode::with_paths(decode)
            .map_err(|e| join_nested_paths(String::new(), e.to_string()));
        // Only a streaming decode's failure needs its buffered value (see `locate`).
        drop(crate::de::mode::take_buffered_failure());
        error
    })
}

/// Decodes a value the user wrote (request params, say) and rejects any field or enum
/// variant the type does not know, instead of ignoring the field or keeping the variant
/// as `Unknown` as response decoding does for forward compatibility.
///
/// ```
/// use near_rpc::{decode, types::RpcViewAccountRequest};
/// use serde_json::json;
///
/// let err = decode::from_value_strict::<RpcViewAccountRequest>(
///     json!({"account_id": "alice.near", "finality": "final", "acount": "typo"}),
/// )
/// .unwrap_err();
/// assert_eq!(err.path(), "acount");
/// assert_eq!(err.message(), "unknown field, not part of this type");
///
/// let err = decode::from_value_strict::<RpcViewAccountRequest>(
///     json!({"account_id": "alice.near", "finality": "bogus"}),
/// )
/// .unwrap_err();
/// assert_eq!(err.path(), "finality");
/// ```
pub fn from_value_strict<T: DeserializeOwned + serde::Serialize>(
    value: serde_json::Value,
) -> Result<T, DecodeError> {
    let decoded: T = match crate::de::mode::strictly(|| from_value_ref(&value)) {
        Ok(decoded) => decoded,
        // Generated structs read only objects: an array where one was expected is params
        // written in the positional form some older clients use.
        Err(e) if value.is_array() && e.path().is_empty() && e.message().contains("sequence") => {
            return Err(DecodeError::new("", POSITIONAL))
        }
        Err(e) => return Err(e),
    };
    let encoded =
        serde_json::to_value(&decoded).map_err(|e| DecodeError::new("", e.to_string()))?;
    let mut dropped = Dropped::default();
    dropped.walk(&value, &encoded, String::new(), &mut Vec::new());
    match (dropped.positional, dropped.fields.into_iter().next()) {
        (Some(path), _) => Err(DecodeError::new(path, POSITIONAL)),
        (None, Some(path)) => Err(DecodeError::new(
            path,
            "unknown field, not part of this type",
        )),
        (None, None) => Ok(decoded),
    }
}

const POSITIONAL: &str = "positional params are not supported: use named fields";

fn is_empty(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Null => true,
        serde_json::Value::Array(items) => items.is_empty(),
        serde_json::Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

/// What a document had that the bindings do not know: how a user learns that a node is
/// newer than the bindings. Paths are written like [`DecodeError::path`]
/// (`result.status.Failure`, `receipts_outcome[0]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unrecognized {
    /// Values kept whole in a catch-all variant (`Unknown`, `Other`): a variant this
    /// version does not know, or a bare name that came with a payload.
    pub variants: Vec<String>,
    /// Fields the types do not have, ignored while decoding (null or empty ones are not
    /// listed: nothing was lost).
    pub fields: Vec<String>,
}

impl Unrecognized {
    /// Whether the bindings knew everything in the document.
    pub fn is_empty(&self) -> bool {
        self.variants.is_empty() && self.fields.is_empty()
    }
}

impl fmt::Display for Unrecognized {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for path in &self.variants {
            writeln!(f, "unknown variant at {}", shown(path))?;
        }
        for path in &self.fields {
            writeln!(f, "ignored field at {}", shown(path))?;
        }
        Ok(())
    }
}

fn shown(path: &str) -> &str {
    if path.is_empty() {
        "the top level"
    } else {
        path
    }
}

/// Decodes like [`from_slice`], and lists what the bindings did not recognise: every
/// value kept in a catch-all variant and every ignored field, with its JSON path.
///
/// ```
/// use near_rpc::{decode, types::ExecutionStatusView};
///
/// let body = br#"{"SuccessValue": "", "gas_refund": 5}"#;
/// let (status, unrecognized) = decode::from_slice_reporting::<ExecutionStatusView>(body).unwrap();
/// assert_eq!(unrecognized.fields, ["gas_refund"]);
/// let body = br#"{"Deferred": {"until": 7}}"#;
/// let (status, unrecognized) = decode::from_slice_reporting::<ExecutionStatusView>(body).unwrap();
/// assert_eq!(unrecognized.variants, [""]);
/// ```
pub fn from_slice_reporting<T: DeserializeOwned + serde::Serialize>(
    bytes: &[u8],
) -> Result<(T, Unrecognized), DecodeError> {
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| DecodeError::new("", e.to_string()))?;
    let (decoded, kept) = crate::de::mode::collecting_unknown(|| from_value_ref::<T>(&value));
    let decoded = decoded?;
    let encoded =
        serde_json::to_value(&decoded).map_err(|e| DecodeError::new("", e.to_string()))?;
    let mut dropped = Dropped::default();
    let mut kept = kept;
    dropped.walk(&value, &encoded, String::new(), &mut kept);
    Ok((
        decoded,
        Unrecognized {
            variants: dropped.kept,
            fields: dropped.fields,
        },
    ))
}

/// What re-encoding a decoded document did not give back, found by walking the document
/// (`given`) beside its re-encoding (`kept`).
#[derive(Default)]
struct Dropped {
    /// Fields the type doesn't know (not null or empty ones: an absent optional field or
    /// an empty list re-encodes to nothing).
    fields: Vec<String>,
    /// Where a value sits whole in a catch-all variant.
    kept: Vec<String>,
    /// Where an array stood for a struct (params written positionally).
    positional: Option<String>,
}

impl Dropped {
    /// `catch_alls` are the values decoding kept in catch-all variants, in document
    /// order: a subtree equal to the next of them, and kept as it was, is one.
    fn walk(
        &mut self,
        given: &serde_json::Value,
        kept: &serde_json::Value,
        path: String,
        catch_alls: &mut Vec<serde_json::Value>,
    ) {
        use serde_json::Value;
        if given == kept {
            if let Some(at) = catch_alls.iter().position(|v| v == given) {
                catch_alls.remove(at);
                self.kept.push(path);
                return;
            }
        }
        let join = |key: &str| {
            if path.is_empty() {
                key.to_owned()
            } else {
                format!("{path}.{key}")
            }
        };
        match (given, kept) {
            (Value::Array(_), Value::Object(_)) => {
                self.positional.get_or_insert(path);
            }
            (Value::Object(given), Value::Object(kept)) => {
                for (key, value) in given {
                    match kept.get(key) {
                        Some(k) => self.walk(value, k, join(key), catch_alls),
                        // What an absent optional field or an empty list re-encodes to.
                        None if is_empty(value) => {}
                        None => self.fields.push(join(key)),
                    }
                }
            }
            (Value::Array(given), Value::Array(kept)) => {
                for (i, (g, k)) in given.iter().zip(kept).enumerate() {
                    self.walk(g, k, format!("{path}[{i}]"), catch_alls);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Outcome {
        status: u8,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Receipt {
        outcome: Outcome,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Doc {
        receipts_outcome: Vec<Receipt>,
    }

    fn doc(bad: serde_json::Value) -> serde_json::Value {
        json!({"receipts_outcome": [
            {"outcome": {"status": 0}}, {"outcome": {"status": 1}},
            {"outcome": {"status": 2}}, {"outcome": {"status": bad}}
        ]})
    }

    #[test]
    fn path_from_slice() {
        let text = serde_json::to_vec(&doc(json!("x"))).expect("ser");
        let err = from_slice::<Doc>(&text).unwrap_err();
        assert_eq!(err.path(), "receipts_outcome[3].outcome.status");
        assert!(err.message().starts_with("invalid type: string \"x\""));
        assert!(err
            .to_string()
            .starts_with("at receipts_outcome[3].outcome.status: invalid type"));
    }

    #[test]
    fn path_from_value() {
        let err = from_value::<Doc>(doc(json!(300))).unwrap_err();
        assert_eq!(err.path(), "receipts_outcome[3].outcome.status");
        assert!(err.message().contains("300"), "{err}");
    }

    #[test]
    fn root_errors_have_no_path() {
        let err = from_slice::<Doc>(b"\"s\"").unwrap_err();
        assert_eq!(err.path(), "");
        assert!(err.to_string().starts_with("invalid type: string"), "{err}");
        let err = from_slice::<Doc>(b"{\"receipts_outcome\":[]} x").unwrap_err();
        assert!(err.message().starts_with("trailing characters"), "{err}");
        let err = from_slice::<Doc>(b"{\"receipts_outcome\":[").unwrap_err();
        assert!(err.message().contains("EOF"), "{err}");
    }

    #[test]
    fn success() {
        let ok = from_value::<Doc>(doc(json!(4))).map(|d| d.receipts_outcome.len());
        assert_eq!(ok, Ok(4));
        let ok = from_slice::<u64>(b" 18446744073709551615 ");
        assert_eq!(ok, Ok(u64::MAX));
    }

    #[test]
    fn new_and_display() {
        let e = DecodeError::new("a.b", "boom");
        assert_eq!(e.to_string(), "at a.b: boom");
        assert_eq!(DecodeError::new("", "boom").to_string(), "boom");
    }
}

#[cfg(test)]
mod nested_path_tests {
    use super::*;

    #[test]
    fn nested_paths_join_the_outer_path() {
        let e = join_nested_paths(
            "result".into(),
            "receipts[0].receipt: Action.actions[0]: FunctionCall.gas: invalid digit".into(),
        );
        assert_eq!(
            e.path(),
            "result.receipts[0].receipt.Action.actions[0].FunctionCall.gas"
        );
        assert_eq!(e.message(), "invalid digit");
        let e = join_nested_paths("a".into(), "[3]: missing field `x`".into());
        assert_eq!((e.path(), e.message()), ("a[3]", "missing field `x`"));
        let e = join_nested_paths(String::new(), "invalid type: null, expected u8".into());
        assert_eq!(
            (e.path(), e.message()),
            ("", "invalid type: null, expected u8")
        );
    }
}
