//! Reading an OpenAPI document: each path is one method, posted as a whole JSON-RPC
//! request (`JsonRpcRequest_for_*`, whose `params` property is the method's params) and
//! answered by a whole JSON-RPC response (`JsonRpcResponse_for_*`, whose `result` arm is
//! the result and whose `error` arm is an `ErrorWrapper_for_*` with the handler's error
//! as the `cause` of its `HANDLER_ERROR` arm).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{Document, Envelope, Format, MethodSource, Spec};
use crate::error::Error;
use crate::handwritten::{ERROR_WRAPPER_PREFIX, REQUEST_PREFIX, RESPONSE_PREFIX};
use crate::json_schema::{alternatives, ref_name};

/// Restates an OpenAPI document as a [`Spec`].
pub(super) fn read(document: &Value, version: &str, sha256: &str) -> Result<Spec, Error> {
    for key in ["paths", "components"] {
        if !document.get(key).is_some_and(Value::is_object) {
            return Err(Error::new(format!("spec has no `{key}` object")));
        }
    }
    let schemas = document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .ok_or_else(|| Error::new("spec has no components.schemas"))?
        .clone();
    let envelopes = envelopes(&schemas)?;
    // A method is its request and response envelopes, as read above.
    let mut methods = BTreeMap::new();
    for (path, item) in document["paths"].as_object().into_iter().flatten() {
        let method = method(&envelopes, path, &item["post"])?;
        methods.insert(method.name.clone(), method);
    }
    let response_roots = schemas
        .keys()
        .filter(|name| name.starts_with(RESPONSE_PREFIX))
        .cloned()
        .collect();
    Ok(Spec {
        version: version.to_owned(),
        documents: vec![Document {
            format: Format::OpenApi,
            sha256: sha256.to_owned(),
        }],
        schemas,
        methods,
        response_roots,
        envelopes,
    })
}

/// What every envelope schema holds, by schema name.
fn envelopes(schemas: &Map<String, Value>) -> Result<BTreeMap<String, Envelope>, Error> {
    let mut envelopes = BTreeMap::new();
    for (name, schema) in schemas {
        let at = |e: Error| Error::new(format!("{name}: {e}"));
        let envelope = if name.starts_with(REQUEST_PREFIX) {
            let params = schema
                .pointer("/properties/params")
                .ok_or_else(|| Error::new(format!("{name}: no params")))?;
            Envelope::Request {
                params: params.clone(),
            }
        } else if name.starts_with(RESPONSE_PREFIX) {
            let (result, error) = response_parts(schemas, schema).map_err(at)?;
            Envelope::Response { result, error }
        } else if name.starts_with(ERROR_WRAPPER_PREFIX) {
            let cause = handler_cause(schema)
                .ok_or_else(|| Error::new(format!("{name}: no HANDLER_ERROR arm")))?;
            Envelope::ErrorWrapper { cause }
        } else {
            continue;
        };
        envelopes.insert(name.clone(), envelope);
    }
    Ok(envelopes)
}

fn method(
    envelopes: &BTreeMap<String, Envelope>,
    path: &str,
    op: &Value,
) -> Result<MethodSource, Error> {
    let name = op["operationId"]
        .as_str()
        .unwrap_or_else(|| path.trim_start_matches('/'))
        .to_owned();
    let at = |what: &str| Error::new(format!("method {name}: {what}"));
    let envelope = |pointer: &str, what: &str| -> Result<&Envelope, Error> {
        let schema = op
            .pointer(pointer)
            .ok_or_else(|| at(&format!("no {what} schema")))?;
        let target = ref_name(schema).ok_or_else(|| at(&format!("{what} schema is not a $ref")))?;
        envelopes
            .get(target)
            .ok_or_else(|| at(&format!("{what} schema {target} is not an envelope schema")))
    };
    let request = envelope("/requestBody/content/application~1json/schema", "request")?;
    let response = envelope(
        "/responses/200/content/application~1json/schema",
        "200 response",
    )?;
    let (Envelope::Request { params }, Envelope::Response { result, error }) = (request, response)
    else {
        return Err(at(
            "its request or response schema is the wrong kind of envelope",
        ));
    };
    Ok(MethodSource {
        doc: op["description"].as_str().map(str::to_owned),
        deprecated: op["deprecated"] == Value::Bool(true),
        params: params.clone(),
        result: result.clone(),
        error: Some(error.clone()),
        from: Format::OpenApi,
        name,
    })
}

fn schema_named<'a>(schemas: &'a Map<String, Value>, name: &str) -> Result<&'a Value, Error> {
    schemas
        .get(name)
        .ok_or_else(|| Error::new(format!("$ref to unknown schema {name}")))
}

/// The result schema and the handler-error schema of a `JsonRpcResponse_for_*`.
fn response_parts(schemas: &Map<String, Value>, response: &Value) -> Result<(Value, Value), Error> {
    let arms = alternatives(response).unwrap_or_default();
    let arm_prop = |key: &str| {
        arms.iter()
            .find_map(|arm| arm.pointer(&format!("/properties/{key}")).cloned())
            .ok_or_else(|| Error::new(format!("the response has no `{key}` arm")))
    };
    let result = arm_prop("result")?;
    let wrapper = ref_name(&arm_prop("error")?)
        .ok_or_else(|| Error::new("the response's error is not a $ref"))?
        .to_owned();
    let cause = handler_cause(schema_named(schemas, &wrapper)?)
        .ok_or_else(|| Error::new(format!("{wrapper}: no HANDLER_ERROR arm")))?;
    Ok((result, cause))
}

/// The `cause` schema of the `HANDLER_ERROR` arm of an `ErrorWrapper_for_*`.
fn handler_cause(wrapper: &Value) -> Option<Value> {
    alternatives(wrapper)
        .unwrap_or_default()
        .iter()
        .find(|arm| is_handler_error(arm))
        .and_then(|arm| arm.pointer("/properties/cause").cloned())
}

/// Whether an arm of an error wrapper requires `name` to be `HANDLER_ERROR`.
fn is_handler_error(arm: &Value) -> bool {
    let required = arm["required"].as_array();
    required.is_some_and(|names| names.iter().any(|n| n == "name"))
        && arm.pointer("/properties/name/enum") == Some(&serde_json::json!(["HANDLER_ERROR"]))
}
