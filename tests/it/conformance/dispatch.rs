//! Schema name to generated Rust type, for the suites that decode every schema
//! (`conformance_instances.rs`, `conformance_forward.rs`): the generator writes the table
//! (`near_rpc::schemas`, one per spec version); this only says what to do with a type.

#![allow(dead_code)]

use near_rpc::schemas::SchemaVisitor;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::conformance::{no_panic, Failure};

/// Decodes a value as the visited type and encodes it again.
struct RoundTrip(Value);

impl SchemaVisitor for RoundTrip {
    type Output = Result<Value, Failure>;
    fn visit<T: DeserializeOwned + Serialize>(self) -> Self::Output {
        let value = self.0;
        no_panic(move || {
            let decoded: T = near_rpc::decode::from_value(value).map_err(Failure::Decode)?;
            serde_json::to_value(&decoded).map_err(|e| Failure::Encode(e.to_string()))
        })
    }
}

/// Decodes `value` with the generated type of `schema` and encodes it again; `None` for a
/// schema the bindings do not have.
pub fn round_trip(schema: &str, value: Value) -> Option<Result<Value, Failure>> {
    near_rpc::schemas::visit(schema, RoundTrip(value))
}
