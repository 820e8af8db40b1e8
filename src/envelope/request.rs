//! [`Request`]: a JSON-RPC 2.0 request.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::id::Id;
use super::version::{Version2, VERSION};

/// A JSON-RPC 2.0 request.
///
/// Serializes as `{"jsonrpc":"2.0","id":...,"method":...,"params":...}`.
/// Deserializing requires `"jsonrpc": "2.0"`, `id` and `method`; unknown keys
/// are ignored. A missing `params` is accepted only when `P` can be built from
/// nothing (`()`, `Option<_>`, `serde_json::Value`), as with serde's derive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<P> {
    /// The request id, echoed back by the server in the response.
    pub id: Id,
    /// The method name, e.g. `"block"` or `"EXPERIMENTAL_tx_status"`.
    pub method: Cow<'static, str>,
    /// The method parameters.
    pub params: P,
}

impl<P> Request<P> {
    /// The id used by [`Request::new`].
    pub const DEFAULT_ID: &'static str = "near-rpc";

    /// Builds a request with the default string id [`Request::DEFAULT_ID`].
    pub fn new(method: impl Into<Cow<'static, str>>, params: P) -> Self {
        Request {
            id: Id::String(Self::DEFAULT_ID.to_owned()),
            method: method.into(),
            params,
        }
    }

    /// Replaces the id.
    pub fn with_id(mut self, id: impl Into<Id>) -> Self {
        self.id = id.into();
        self
    }
}

impl<P: Serialize> Serialize for Request<P> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Request", 4)?;
        s.serialize_field("jsonrpc", VERSION)?;
        s.serialize_field("id", &self.id)?;
        s.serialize_field("method", &self.method)?;
        s.serialize_field("params", &self.params)?;
        s.end()
    }
}

/// The keys of a request object.
enum Field {
    Jsonrpc,
    Id,
    Method,
    Params,
    Other,
}

struct FieldVisitor;

impl Visitor<'_> for FieldVisitor {
    type Value = Field;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a request key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
        Ok(match v {
            "jsonrpc" => Field::Jsonrpc,
            "id" => Field::Id,
            "method" => Field::Method,
            "params" => Field::Params,
            _ => Field::Other,
        })
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_identifier(FieldVisitor)
    }
}

struct RequestVisitor<P>(PhantomData<P>);

impl<'de, P: Deserialize<'de>> Visitor<'de> for RequestVisitor<P> {
    type Value = Request<P>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC 2.0 request object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Request<P>, A::Error> {
        let mut version = false;
        let mut id = None;
        let mut method: Option<String> = None;
        let mut params = None;
        while let Some(key) = map.next_key::<Field>()? {
            match key {
                Field::Jsonrpc => {
                    if version {
                        return Err(de::Error::duplicate_field("jsonrpc"));
                    }
                    map.next_value::<Version2>()?;
                    version = true;
                }
                Field::Id => {
                    if id.is_some() {
                        return Err(de::Error::duplicate_field("id"));
                    }
                    id = Some(map.next_value::<Id>()?);
                }
                Field::Method => {
                    if method.is_some() {
                        return Err(de::Error::duplicate_field("method"));
                    }
                    method = Some(map.next_value()?);
                }
                Field::Params => {
                    if params.is_some() {
                        return Err(de::Error::duplicate_field("params"));
                    }
                    params = Some(map.next_value::<P>()?);
                }
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if !version {
            return Err(de::Error::custom(
                "request is missing `jsonrpc` (expected \"2.0\")",
            ));
        }
        let id = id.ok_or_else(|| de::Error::missing_field("id"))?;
        let method = method.ok_or_else(|| de::Error::missing_field("method"))?;
        let params = match params {
            Some(params) => params,
            None => P::deserialize(de::value::UnitDeserializer::<A::Error>::new())
                .map_err(|_| de::Error::missing_field("params"))?,
        };
        Ok(Request {
            id,
            method: Cow::Owned(method),
            params,
        })
    }
}

impl<'de, P: Deserialize<'de>> Deserialize<'de> for Request<P> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(RequestVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct BlockParams {
        finality: String,
    }

    fn de_err<P: for<'de> Deserialize<'de> + fmt::Debug>(v: Value) -> String {
        match serde_json::from_value::<Request<P>>(v) {
            Ok(r) => format!("unexpected success: {r:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn serializes_in_wire_shape() {
        let req = Request::new(
            "block",
            BlockParams {
                finality: "final".into(),
            },
        );
        assert_eq!(req.id, Id::String("near-rpc".into()));
        assert_eq!(
            serde_json::to_string(&req).expect("ser"),
            r#"{"jsonrpc":"2.0","id":"near-rpc","method":"block","params":{"finality":"final"}}"#
        );
        let req = req.with_id(5u64);
        assert_eq!(serde_json::to_value(&req).expect("ser")["id"], json!(5));
    }

    #[test]
    fn round_trip() {
        let req = Request::new("status", json!([])).with_id("abc");
        let text = serde_json::to_string(&req).expect("ser");
        let back: Request<Value> = serde_json::from_str(&text).expect("de");
        assert_eq!(back, req);
    }

    #[test]
    fn unknown_keys_are_ignored_and_params_may_be_missing() {
        let req: Request<Option<u8>> =
            serde_json::from_value(json!({"jsonrpc":"2.0","id":1,"method":"health","x":[1]}))
                .expect("de");
        assert_eq!(req.params, None);
        assert_eq!(req.id, Id::Number(1));
        assert_eq!(req.method, "health");
    }

    #[test]
    fn errors_are_clear() {
        let err = de_err::<Value>(json!({"jsonrpc":"1.0","id":1,"method":"m","params":[]}));
        assert!(err.contains("string \"1.0\""), "{err}");
        assert!(err.contains("\"2.0\""), "{err}");
        let err = de_err::<Value>(json!({"id":1,"method":"m","params":[]}));
        assert_eq!(err, "request is missing `jsonrpc` (expected \"2.0\")");
        let err = de_err::<Value>(json!({"jsonrpc":"2.0","method":"m"}));
        assert_eq!(err, "missing field `id`");
        let err = de_err::<Value>(json!({"jsonrpc":"2.0","id":1}));
        assert_eq!(err, "missing field `method`");
        let err = de_err::<BlockParams>(json!({"jsonrpc":"2.0","id":1,"method":"m"}));
        assert_eq!(err, "missing field `params`");
        let err = de_err::<Value>(json!([1, 2]));
        assert!(err.contains("a JSON-RPC 2.0 request object"), "{err}");
        let err = serde_json::from_str::<Request<Value>>(
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"m","params":[]}"#,
        )
        .map(|_| String::new())
        .unwrap_or_else(|e| e.to_string());
        assert!(err.starts_with("duplicate field `id`"), "{err}");
    }
}
