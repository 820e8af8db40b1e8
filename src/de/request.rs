//! serde's `Deserialize` for [`Request`]: generic over the params' own `Deserialize`
//! (servers and the mock read requests with it), with the `"jsonrpc": "2.0"` rule read
//! by the native envelope decoder, so it is written once.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::native::{envelope::version, Decode, Error, Reader};
use super::via_native;
use crate::envelope::{Id, Request};

/// The `"jsonrpc"` member, which must be the string `"2.0"`: decoded by the envelope's
/// own rule, so a path-tracking deserializer reports a failure at `jsonrpc`.
struct Version2;

impl Decode for Version2 {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        version(r).map(|()| Version2)
    }
}

impl<'de> Deserialize<'de> for Version2 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        via_native::deserialize(deserializer)
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

    #[derive(Debug, PartialEq, serde::Serialize, Deserialize)]
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
    fn version_is_only_2_0() {
        let err = |text: &str| {
            serde_json::from_str::<Version2>(text)
                .err()
                .map(|e| e.to_string())
        };
        assert!(err("\"2.0\"").is_none());
        let wrong = err("\"1.0\"").unwrap_or_default();
        assert!(
            wrong.contains(
                "invalid value: string \"1.0\", expected the JSON-RPC version string \"2.0\""
            ),
            "{wrong}"
        );
        let number = err("2.0").unwrap_or_default();
        assert!(number.contains("expected the JSON-RPC version"), "{number}");
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
