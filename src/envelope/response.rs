//! [`Response`]: a JSON-RPC 2.0 response.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::id::Id;
use super::version::VERSION;

/// A JSON-RPC 2.0 response: either a `result` of type `R` or an `error` of
/// type `E` (the whole error object, e.g. [`ErrorWrapper`](super::ErrorWrapper)).
///
/// Decoding rules:
/// * the body must be an object with `"jsonrpc": "2.0"` and an `id`
///   (a string, a non-negative integer, or `null`, which nodes send when the
///   request could not be parsed);
/// * exactly one of `result` and `error` must be present. `"result": null` is
///   a present result (the `health` method returns it), while `"error": null`
///   counts as absent, since an error object is never null;
/// * unknown keys are ignored.
///
/// `result` and `error` are decoded in place, without buffering the body, by the
/// crate's one decoder of the envelope (serde's `Deserialize` goes through it too), so
/// `R` and `E` are types it can decode: every generated type, the standard containers,
/// `serde_json::Value`. A type of your own joins with
/// `near_rpc::decode_with_serde!(MyType);`, which decodes it with its serde
/// `Deserialize`. To get the JSON path of a failure (`result.foo[3].bar`), decode
/// through [`crate::decode::from_slice`] or [`crate::decode::from_value`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response<R, E> {
    /// The id echoed from the request; `None` when the node sent `"id": null`.
    pub id: Option<Id>,
    /// The `result` (`Ok`) or the `error` (`Err`).
    pub payload: Result<R, E>,
}

impl<R, E> Response<R, E> {
    /// Builds a successful response.
    pub fn ok(id: impl Into<Id>, result: R) -> Self {
        Response {
            id: Some(id.into()),
            payload: Ok(result),
        }
    }

    /// Builds an error response.
    pub fn err(id: Option<Id>, error: E) -> Self {
        Response {
            id,
            payload: Err(error),
        }
    }

    /// Drops the id and returns the payload.
    pub fn into_result(self) -> Result<R, E> {
        self.payload
    }
}

impl<R: Serialize, E: Serialize> Serialize for Response<R, E> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Response", 3)?;
        s.serialize_field("jsonrpc", VERSION)?;
        s.serialize_field("id", &self.id)?;
        match &self.payload {
            Ok(result) => s.serialize_field("result", result)?,
            Err(error) => s.serialize_field("error", error)?,
        }
        s.end()
    }
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use super::*;
    use crate::de::decode::{from_slice, from_value};
    use crate::envelope::error::{ErrorCause, ErrorWrapper};
    use serde::Deserialize;
    use serde_json::{json, Value};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Bar {
        bar: u64,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Foo {
        foo: Bar,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "name", content = "info", rename_all = "SCREAMING_SNAKE_CASE")]
    enum HandlerError {
        UnknownBlock {},
        UnknownAccount { requested_account_id: String },
    }

    // Types of a test's own: decoded with their serde `Deserialize`.
    crate::decode_with_serde!(Bar);
    crate::decode_with_serde!(Foo);
    crate::decode_with_serde!(HandlerError);

    type Wrapper = ErrorWrapper<HandlerError, Value, Value>;
    type Resp<R> = Response<R, Wrapper>;

    fn err_of<R: crate::de::native::Decode + fmt::Debug>(body: &str) -> (String, String) {
        match from_slice::<Resp<R>>(body.as_bytes()) {
            Ok(r) => (String::new(), format!("unexpected success: {r:?}")),
            Err(e) => (e.path().to_owned(), e.message().to_owned()),
        }
    }

    #[test]
    fn result_with_numeric_id_round_trips() {
        let body = r#"{"jsonrpc":"2.0","id":7,"result":{"foo":{"bar":1}}}"#;
        let resp: Resp<Foo> = from_slice(body.as_bytes()).expect("decode");
        assert_eq!(resp.id, Some(Id::Number(7)));
        assert_eq!(
            resp.payload,
            Ok(Foo {
                foo: Bar { bar: 1 }
            })
        );
        assert_eq!(serde_json::to_string(&resp).expect("ser"), body);
    }

    #[test]
    fn string_id_and_unknown_keys() {
        let body = r#"{"extra":[1,{"a":2}],"result":5,"id":"dontcare","jsonrpc":"2.0"}"#;
        let resp: Resp<u8> = from_slice(body.as_bytes()).expect("decode");
        assert_eq!(resp.id, Some(Id::from("dontcare")));
        assert_eq!(resp.into_result(), Ok(5));
    }

    #[test]
    fn null_result_is_a_result() {
        let body = r#"{"jsonrpc":"2.0","id":1,"result":null}"#;
        let resp: Resp<()> = from_slice(body.as_bytes()).expect("decode");
        assert_eq!(resp.payload, Ok(()));
        assert_eq!(serde_json::to_string(&resp).expect("ser"), body);
        let resp: Resp<Value> = from_slice(body.as_bytes()).expect("decode");
        assert_eq!(resp.payload, Ok(Value::Null));
        // With `error: null` alongside, the null result still wins.
        let resp: Resp<()> =
            from_value(json!({"jsonrpc":"2.0","id":1,"result":null,"error":null})).expect("decode");
        assert!(resp.payload.is_ok());
    }

    #[test]
    fn error_with_null_id_round_trips() {
        let body = json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {
                "name": "HANDLER_ERROR",
                "cause": {"name": "UNKNOWN_ACCOUNT", "info": {"requested_account_id": "x"}},
                "code": -32000,
                "message": "Server error",
                "data": "account x does not exist"
            }
        });
        let resp: Resp<Foo> = from_value(body.clone()).expect("decode");
        assert_eq!(resp.id, None);
        let err = resp.payload.as_ref().err().map(|e| e.cause.clone());
        assert_eq!(
            err,
            Some(ErrorCause::Handler(HandlerError::UnknownAccount {
                requested_account_id: "x".into()
            }))
        );
        assert_eq!(serde_json::to_value(&resp).expect("ser"), body);
    }

    #[test]
    fn legacy_error_decodes() {
        let body = r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32000,"message":"Server error","data":"x"}}"#;
        let resp: Resp<Foo> = from_slice(body.as_bytes()).expect("decode");
        let e = resp.payload.as_ref().err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("error -32000: Server error: x"));
        assert_eq!(serde_json::to_string(&resp).expect("ser"), body);
    }

    #[test]
    fn result_errors_carry_the_path() {
        let (path, msg) = err_of::<Foo>(r#"{"jsonrpc":"2.0","id":1,"result":{"foo":{"bar":"x"}}}"#);
        assert_eq!(path, "result.foo.bar");
        assert!(msg.starts_with("invalid type: string \"x\""), "{msg}");
        let (path, _) = err_of::<Vec<Foo>>(
            r#"{"jsonrpc":"2.0","id":1,"result":[{"foo":{"bar":1}},{"foo":{}}]}"#,
        );
        assert_eq!(path, "result[1].foo");
        // Plain serde_json still reports the problem, without the path.
        let err = serde_json::from_str::<Resp<Foo>>(
            r#"{"jsonrpc":"2.0","id":1,"result":{"foo":{"bar":"x"}}}"#,
        )
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
        assert!(err.contains("invalid type: string \"x\""), "{err}");
    }

    #[test]
    fn error_cause_errors_carry_the_path() {
        // A struct-typed cause keeps its inner path, prefixed by the outer one.
        let body = json!({"jsonrpc":"2.0","id":1,"error":{
            "name":"HANDLER_ERROR","cause":{"foo":{"bar":"x"}}}});
        let e = from_value::<Response<u8, ErrorWrapper<Foo, Value, Value>>>(body).err();
        let e = e.map(|e| e.to_string()).unwrap_or_default();
        assert!(
            e.starts_with("at error.cause.foo.bar: invalid type: string \"x\""),
            "{e}"
        );
        // Inside a serde-derived tagged enum the path stops at the cause.
        let body = json!({"jsonrpc":"2.0","id":1,"error":{
            "name":"HANDLER_ERROR","cause":{"name":"UNKNOWN_ACCOUNT","info":{"requested_account_id":5}}}});
        let e = from_value::<Resp<Foo>>(body).err();
        let e = e.map(|e| e.to_string()).unwrap_or_default();
        assert!(
            e.starts_with("at error.cause: invalid type: integer `5`"),
            "{e}"
        );
    }

    #[test]
    fn both_or_neither() {
        let (path, msg) = err_of::<u8>(r#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1}}"#);
        assert_eq!(path, "");
        assert!(
            msg.starts_with("response has both `result` and `error`"),
            "{msg}"
        );
        let (_, msg) = err_of::<u8>(r#"{"jsonrpc":"2.0","id":1}"#);
        assert!(
            msg.starts_with("response has neither `result` nor `error`"),
            "{msg}"
        );
        let (_, msg) = err_of::<u8>(r#"{"jsonrpc":"2.0","id":1,"error":null}"#);
        assert!(msg.starts_with("response has neither"), "{msg}");
    }

    #[test]
    fn jsonrpc_and_id_are_required() {
        let (path, msg) = err_of::<u8>(r#"{"jsonrpc":"1.0","id":1,"result":1}"#);
        assert_eq!(path, "jsonrpc");
        assert!(msg.contains("\"1.0\""), "{msg}");
        assert!(msg.contains("\"2.0\""), "{msg}");
        let (_, msg) = err_of::<u8>(r#"{"id":1,"result":1}"#);
        assert!(msg.starts_with("response is missing `jsonrpc`"), "{msg}");
        let (_, msg) = err_of::<u8>(r#"{"jsonrpc":"2.0","result":1}"#);
        assert!(msg.starts_with("missing field `id`"), "{msg}");
        let (path, msg) = err_of::<u8>(r#"{"jsonrpc":"2.0","id":-3,"result":1}"#);
        assert_eq!(path, "id");
        assert!(msg.contains("-3"), "{msg}");
        let (_, msg) = err_of::<u8>(r#"[{"jsonrpc":"2.0","id":1,"result":1}]"#);
        assert!(msg.contains("a JSON-RPC 2.0 response object"), "{msg}");
        let (_, msg) = err_of::<u8>(r#"{"jsonrpc":"2.0","id":1,"result":1,"result":2}"#);
        assert!(msg.starts_with("duplicate field `result`"), "{msg}");
    }

    #[test]
    fn constructors() {
        let r: Resp<u8> = Response::ok(3u64, 9);
        assert_eq!(r.id, Some(Id::Number(3)));
        let e: Resp<u8> = Response::err(
            None,
            ErrorWrapper {
                cause: ErrorCause::Missing,
                code: Some(-1),
                message: None,
                data: None,
            },
        );
        assert_eq!(
            serde_json::to_string(&e).expect("ser"),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-1}}"#
        );
    }
}
