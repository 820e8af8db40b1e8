//! Reading an OpenRPC document: each method lists its params by name (each with a schema
//! and `required`) and its `result`; the document has no error schemas.
//!
//! The params of a method become one object schema, which this module names
//! ([`params_schema_name`]) and adds to the schemas: a param with `required: false` is an
//! optional property, and a method without params takes `null`, as the OpenAPI document
//! says for such methods.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};

use super::{Document, Format, MethodSource, Spec};
use crate::error::Error;
use crate::json_schema::collect_refs;
use crate::naming::rust_type_name;

/// The name under which the params of an OpenRPC method are added to the schemas:
/// `light_client_block_proof` → `LightClientBlockProofParams`.
pub fn params_schema_name(method: &str) -> String {
    format!("{}Params", rust_type_name(method))
}

/// Restates an OpenRPC document as a [`Spec`] of nearcore `version`.
pub(super) fn read(document: &Value, version: &str, sha256: &str) -> Result<Spec, Error> {
    let mut schemas = match document.pointer("/components/schemas") {
        None => Map::new(),
        Some(Value::Object(schemas)) => schemas.clone(),
        Some(_) => return Err(Error::new("components.schemas is not an object")),
    };
    let listed = document
        .get("methods")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::new("OpenRPC document has no `methods` array"))?;
    let mut methods = BTreeMap::new();
    let mut response_roots = BTreeSet::new();
    for (at, entry) in listed.iter().enumerate() {
        let name = entry["name"]
            .as_str()
            .ok_or_else(|| Error::new(format!("methods[{at}] has no name")))?
            .to_owned();
        if methods.contains_key(&name) {
            return Err(Error::new(format!("method {name} is listed twice")));
        }
        let method = method(&name, entry, &mut schemas)
            .map_err(|e| Error::new(format!("method {name}: {e}")))?;
        let mut roots = Vec::new();
        collect_refs(&method.result, &mut roots);
        response_roots.extend(roots);
        methods.insert(name, method);
    }
    Ok(Spec {
        version: version.to_owned(),
        documents: vec![Document {
            format: Format::OpenRpc,
            sha256: sha256.to_owned(),
        }],
        schemas,
        methods,
        response_roots,
        envelopes: BTreeMap::new(),
    })
}

fn method(
    name: &str,
    entry: &Value,
    schemas: &mut Map<String, Value>,
) -> Result<MethodSource, Error> {
    match entry.get("paramStructure").and_then(Value::as_str) {
        None | Some("by-name") | Some("either") => {}
        Some(other) => {
            return Err(Error::new(format!(
                "paramStructure {other:?}: only by-name params are supported"
            )))
        }
    }
    let params = params_schema(name, entry)?;
    let schema_name = params_schema_name(name);
    if schemas.contains_key(&schema_name) {
        return Err(Error::new(format!(
            "its params would be named {schema_name}, which the document names already"
        )));
    }
    schemas.insert(schema_name.clone(), params);
    let result = entry
        .pointer("/result/schema")
        .ok_or_else(|| Error::new("no result schema"))?
        .clone();
    let text = |key: &str| entry.get(key).and_then(Value::as_str).map(str::to_owned);
    Ok(MethodSource {
        name: name.to_owned(),
        doc: text("description").or_else(|| text("summary")),
        deprecated: entry["deprecated"] == Value::Bool(true),
        params: json!({ "$ref": format!("#/components/schemas/{schema_name}") }),
        result,
        error: None,
        from: Format::OpenRpc,
    })
}

/// The by-name params of a method as one object schema (`null` when there are none).
fn params_schema(method: &str, entry: &Value) -> Result<Value, Error> {
    let listed = match entry.get("params") {
        None => &Vec::new(),
        Some(Value::Array(listed)) => listed,
        Some(_) => return Err(Error::new("params is not an array")),
    };
    let title = params_schema_name(method);
    if listed.is_empty() {
        return Ok(json!({"title": title, "type": "null"}));
    }
    let (mut properties, mut required) = (Map::new(), Vec::new());
    for (at, param) in listed.iter().enumerate() {
        let name = param["name"]
            .as_str()
            .ok_or_else(|| Error::new(format!("params[{at}] has no name")))?;
        let mut schema = param
            .get("schema")
            .cloned()
            .ok_or_else(|| Error::new(format!("param {name} has no schema")))?;
        // The param's own description documents the property.
        let doc = param
            .get("description")
            .or_else(|| param.get("summary"))
            .filter(|_| schema.get("description").is_none());
        if let (Some(doc), Value::Object(map)) = (doc, &mut schema) {
            map.insert("description".into(), doc.clone());
        }
        if param["required"] == Value::Bool(true) {
            required.push(Value::from(name));
        }
        if properties.insert(name.to_owned(), schema).is_some() {
            return Err(Error::new(format!("param {name} is listed twice")));
        }
    }
    Ok(json!({
        "title": title,
        "type": "object",
        "properties": properties,
        "required": required,
    }))
}
