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

use crate::de::error::syntax_error;
pub use crate::de::error::DecodeError;
pub use crate::de::native::Decode;
pub use crate::de::repeated_keys::check_unique_keys;

/// Types that buffer their input (open enums, untagged shapes) decode it again with their
/// own path tracking and report `"<inner path>: <message>"`. This moves those inner
/// paths from the message onto the outer path, within `document`, the value decoded (see
/// `crate::de::paths::join_paths_in`), so that `path()` is the whole path.
fn join_nested_paths(
    document: Option<&serde_json::Value>,
    path: String,
    message: String,
) -> DecodeError {
    let (path, rest) = crate::de::paths::join_paths_in(document, path, &message);
    let message = rest.to_owned();
    DecodeError { path, message }
}

/// Decodes a JSON document, tracking the path of any failure.
///
/// Like `serde_json::from_slice`, trailing non-whitespace is an error. Path tracking
/// costs time on every value, so the document is decoded as a stream, and only a failure
/// is located, the way [`from_value`] finds it: the document is decoded once more from its
/// parsed `Value`, which collects the path as the failure travels up (see
/// `crate::de::paths`). The message keeps serde_json's line and column.
///
/// This crate's types decode through their native decoders here too (their
/// `Deserialize` transcribes the value and decodes that), so a crate calling
/// `from_slice::<T>` compiles serde's code for its own types only. For a whole response,
/// [`RpcMethod::decode_response`](crate::methods::RpcMethod::decode_response) is faster to run.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    match serde_json::from_slice(bytes) {
        Ok(decoded) => Ok(decoded),
        Err(first) => Err(locate(bytes, first, &|value| {
            crate::de::value::decode::<T, serde_json::Error>(value).err()
        })),
    }
}

/// The path and message of a failed streaming decode. `again` decodes the parsed document
/// once more, collecting the path, and returns its error. Not generic over the type:
/// compiled once.
fn locate(
    bytes: &[u8],
    first: serde_json::Error,
    again: &dyn Fn(&serde_json::Value) -> Option<serde_json::Error>,
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
    let (line, column) = (first.line(), first.column());
    let text = first.to_string();
    let position = format!(" at line {line} column {column}");
    let message = text.strip_suffix(&position).unwrap_or(&text);
    // The stream's own message, less the path inside a value decoded natively.
    let (inner, bare) = crate::de::paths::join_paths(String::new(), message);
    let document: Option<serde_json::Value> = serde_json::from_slice(bytes).ok();
    let again = document.as_ref().and_then(again);
    let tracked = again.map(|e| join_nested_paths(document.as_ref(), String::new(), e.to_string()));
    let mut located = match tracked {
        // The same failure, found with its whole path: the stream's message and position.
        Some(tracked) if tracked.message == bare => DecodeError {
            path: tracked.path,
            message: format!("{bare}{position}"),
        },
        // Another failure of the document (a `Value` holds an object's members in key
        // order, the stream in document order): that one, whole, without the stream's
        // position, which is not its.
        Some(tracked) => return tracked,
        // The parsed document decodes (a number a `Value` cannot hold exactly, say): the
        // path the stream's message gives.
        None => DecodeError {
            path: inner,
            message: bare.to_owned(),
        },
    };
    if line == 0 {
        located.message = bare.to_owned();
    }
    located
}

/// Decodes an already parsed JSON value, tracking the path of any failure (the path costs
/// nothing until something fails).
pub fn from_value<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, DecodeError> {
    crate::de::value::decode::<T, serde_json::Error>(&value)
        .map_err(|e| join_nested_paths(Some(&value), String::new(), e.to_string()))
}

/// Decodes `value` with this crate's decoder as `options` say, its failure placed by its
/// path inside `value` (a `Value` has no lines and columns).
fn from_value_natively<T: Decode>(
    value: &serde_json::Value,
    options: crate::de::native::Options,
) -> Result<(T, Vec<serde_json::Value>), DecodeError> {
    let text = serde_json::to_vec(value).map_err(|e| DecodeError::new("", e.to_string()))?;
    let mut r = crate::de::native::Reader::with_options(&text, options);
    T::decode(&mut r)
        .and_then(|decoded| r.end().map(|()| (decoded, r.take_unknown())))
        .map_err(|e| DecodeError::new(e.path(), e.message()))
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
pub fn from_value_strict<T: Decode + serde::Serialize>(
    value: serde_json::Value,
) -> Result<T, DecodeError> {
    let strict = crate::de::native::Options {
        strict: true,
        ..Default::default()
    };
    let decoded: T = match from_value_natively(&value, strict) {
        Ok((decoded, _)) => decoded,
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
pub fn from_slice_reporting<T: Decode + serde::Serialize>(
    bytes: &[u8],
) -> Result<(T, Unrecognized), DecodeError> {
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| DecodeError::new("", e.to_string()))?;
    let collect = crate::de::native::Options {
        collect_unknown: true,
        ..Default::default()
    };
    let (decoded, kept) = crate::de::native::from_slice_with::<T>(bytes, collect)?;
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
}

#[cfg(test)]
mod nested_path_tests {
    use super::*;

    #[test]
    fn nested_paths_join_the_outer_path() {
        let e = join_nested_paths(
            None,
            "result".into(),
            "receipts[0].receipt: Action.actions[0]: FunctionCall.gas: invalid digit".into(),
        );
        assert_eq!(
            e.path(),
            "result.receipts[0].receipt.Action.actions[0].FunctionCall.gas"
        );
        assert_eq!(e.message(), "invalid digit");
        let e = join_nested_paths(None, "a".into(), "[3]: missing field `x`".into());
        assert_eq!((e.path(), e.message()), ("a[3]", "missing field `x`"));
        let e = join_nested_paths(
            None,
            String::new(),
            "invalid type: null, expected u8".into(),
        );
        assert_eq!(
            (e.path(), e.message()),
            ("", "invalid type: null, expected u8")
        );
    }
}

#[cfg(test)]
mod options_tests {
    use super::*;
    use crate::generated::types::{ExecutionStatusView, FinalExecutionStatus};
    use serde_json::json;

    /// A variant 1.2.x does not know.
    const UNKNOWN: &str = r#"{"Deferred": {"until": 7}}"#;

    #[test]
    fn strictness_is_the_decodes_own_choice() {
        use crate::de::native::{Options, Reader};
        let strict = Options {
            strict: true,
            ..Options::default()
        };
        let mut r = Reader::with_options(UNKNOWN.as_bytes(), strict);
        let err = ExecutionStatusView::decode(&mut r).unwrap_err();
        assert!(
            err.message().contains("unknown variant `Deferred`"),
            "{err:?}"
        );
        // A decode started meanwhile, with its own reader, keeps the variant.
        let mut lenient = Reader::new(UNKNOWN.as_bytes());
        let kept = ExecutionStatusView::decode(&mut lenient).unwrap();
        assert_eq!(
            kept,
            ExecutionStatusView::Other(json!({"Deferred": {"until": 7}}))
        );
        // and collected nothing, not having been asked to.
        assert!(lenient.take_unknown().is_empty());
    }

    /// A type of the user's own that decodes through serde, holding one of ours.
    #[derive(Debug, serde::Deserialize, serde::Serialize)]
    struct Mine {
        status: ExecutionStatusView,
    }
    crate::decode_with_serde!(Mine);

    #[test]
    fn a_nested_decode_starts_with_its_own_options() {
        // The strict decode reaches `status` through serde (a decode of its own, started
        // by the user's type): that one is a node's kind of decode and keeps the
        // variant, where a per-thread mode would have made it strict.
        let mine: Mine = from_value_strict(json!({"status": {"Deferred": {"until": 7}}})).unwrap();
        assert!(matches!(mine.status, ExecutionStatusView::Other(_)));
        // Ours directly: strict all the way down.
        let err = from_value_strict::<ExecutionStatusView>(json!({"Deferred": {}})).unwrap_err();
        assert_eq!(err.path(), "");
        assert!(
            err.message().contains("unknown variant `Deferred`"),
            "{err}"
        );
        // Collected values are the reporting decode's own, and only its.
        let body = br#"{"status": {"Deferred": 1}}"#;
        let (_, seen) = from_slice_reporting::<Mine>(body).unwrap();
        assert!(seen.variants.is_empty(), "{seen:?}");
        let (_, seen) =
            from_slice_reporting::<FinalExecutionStatus>(br#"{"Later": [1, 2]}"#).unwrap();
        assert_eq!(seen.variants, [""]);
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Outer {
        items: Vec<Mine>,
    }

    #[test]
    fn from_slice_and_from_value_place_a_failure_the_same_way() {
        let body = br#"{"items": [{"status": "Unknown"}, {"status": {"SuccessValue": 5}}]}"#;
        let streamed = from_slice::<Outer>(body).unwrap_err();
        let value: serde_json::Value = serde_json::from_slice(body).unwrap();
        let tracked = from_value::<Outer>(value).unwrap_err();
        assert_eq!(streamed.path(), "items[1].status.SuccessValue");
        assert_eq!(tracked.path(), streamed.path());
        // The stream's message keeps its line and column (where serde_json stopped: the
        // end of the value it handed over whole); a `Value` has none.
        assert!(
            streamed.message().ends_with(" at line 1 column 65"),
            "{streamed}"
        );
        assert_eq!(
            streamed.message().strip_suffix(" at line 1 column 65"),
            Some(tracked.message())
        );
    }

    #[test]
    fn a_strict_failure_is_placed_inside_the_value() {
        let err = from_value_strict::<Vec<ExecutionStatusView>>(json!(["Unknown", {"Nope": 1}]))
            .unwrap_err();
        assert_eq!(err.path(), "[1]");
        assert!(!err.message().contains(" at line "), "{err}");
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Flat {
        a: u8,
        #[serde(flatten)]
        mine: Mine,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Flats {
        x: Vec<Flat>,
    }

    #[test]
    fn a_failure_inside_a_value_serde_buffered_is_placed_in_the_document() {
        // serde buffers a flattened struct's members and hands `status` over without its
        // key: the path is found below where the buffering container is.
        let body =
            br#"{"x": [{"a": 1, "status": "Unknown"}, {"a": 1, "status": {"SuccessValue": 5}}]}"#;
        let streamed = from_slice::<Flats>(body).unwrap_err();
        assert_eq!(streamed.path(), "x[1].status.SuccessValue");
        let value: serde_json::Value = serde_json::from_slice(body).unwrap();
        assert_eq!(
            from_value::<Flats>(value).unwrap_err().path(),
            "x[1].status.SuccessValue"
        );
    }
}
