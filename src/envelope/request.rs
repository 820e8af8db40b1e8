//! [`Request`]: a JSON-RPC 2.0 request.

use std::borrow::Cow;

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::id::Id;
use super::version::VERSION;

/// A JSON-RPC 2.0 request.
///
/// Serializes as `{"jsonrpc":"2.0","id":...,"method":...,"params":...}`.
/// Deserializing (`src/de/request.rs`) requires `"jsonrpc": "2.0"`, `id` and `method`; unknown keys
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Serialize)]
    struct BlockParams {
        finality: String,
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
}
