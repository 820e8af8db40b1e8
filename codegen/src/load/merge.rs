//! Merging the OpenAPI and the OpenRPC document of one version.
//!
//! - Methods come from either: the OpenAPI document's as it states them (with their error
//!   types, which only it has), plus those only the OpenRPC document has, which keep the
//!   generic error. A method either document marks deprecated is deprecated.
//! - A schema both documents have comes from the OpenAPI document (`crosscheck` reports
//!   where the two disagree). A schema only the OpenRPC document has is added when a
//!   method taken from it needs it, so nothing unused joins the bindings.

use super::Spec;
use crate::error::Error;
use crate::json_schema::collect_refs;

/// The OpenAPI spec with what only the OpenRPC one of the same version adds.
pub(super) fn merge(mut openapi: Spec, openrpc: Spec) -> Result<Spec, Error> {
    if openapi.version != openrpc.version {
        return Err(Error::new(format!(
            "the OpenAPI document is version {} and the OpenRPC one {}",
            openapi.version, openrpc.version
        )));
    }
    let mut needed = Vec::new();
    for (name, method) in openrpc.methods {
        match openapi.methods.get_mut(&name) {
            Some(known) => known.deprecated |= method.deprecated,
            None => {
                for schema in [&method.params, &method.result] {
                    collect_refs(schema, &mut needed);
                }
                let mut roots = Vec::new();
                collect_refs(&method.result, &mut roots);
                openapi.response_roots.extend(roots);
                openapi.methods.insert(name, method);
            }
        }
    }
    while let Some(name) = needed.pop() {
        if openapi.schemas.contains_key(&name) {
            continue;
        }
        let schema = openrpc.schemas.get(&name).ok_or_else(|| {
            Error::new(format!(
                "the OpenRPC document refers to {name}, which it lacks"
            ))
        })?;
        collect_refs(schema, &mut needed);
        openapi.schemas.insert(name, schema.clone());
    }
    openapi.documents.extend(openrpc.documents);
    Ok(openapi)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::parse_all;

    fn bytes(value: serde_json::Value) -> Vec<u8> {
        serde_json::to_vec(&value).unwrap()
    }

    #[test]
    fn methods_from_either_schemas_only_as_needed() {
        let api = bytes(json!({"openapi": "3.0.0", "info": {"version": "7.0.0"},
            "paths": {}, "components": {"schemas": {"Shared": {"type": "string"}}}}));
        let rpc = bytes(json!({"openrpc": "1.3.2", "info": {"version": "1.0.0"},
            "methods": [{"name": "extra", "deprecated": true, "params": [
                {"name": "x", "schema": {"$ref": "#/components/schemas/Needed"}}],
                "result": {"schema": {"$ref": "#/components/schemas/Shared"}}}],
            "components": {"schemas": {
                "Shared": {"type": "integer"},
                "Needed": {"type": "object", "properties": {
                    "deep": {"$ref": "#/components/schemas/Deeper"}}},
                "Deeper": {"type": "string"},
                "Unused": {"type": "string"}}}}));
        let spec = parse_all(&[&api, &rpc]).unwrap();
        assert!(spec.methods["extra"].deprecated);
        assert_eq!(spec.methods["extra"].from, super::super::Format::OpenRpc);
        // A schema both have is OpenAPI's; what the added method needs comes along,
        // through references; nothing else does.
        assert_eq!(spec.schemas["Shared"], json!({"type": "string"}));
        for name in ["Needed", "Deeper", "ExtraParams"] {
            assert!(spec.schemas.contains_key(name), "{name}");
        }
        assert!(!spec.schemas.contains_key("Unused"));
        assert!(spec.response_roots.contains("Shared"));
    }

    #[test]
    fn a_reference_to_a_schema_neither_has_is_an_error() {
        let api = bytes(json!({"openapi": "3.0.0", "info": {"version": "7.0.0"},
            "paths": {}, "components": {"schemas": {}}}));
        let rpc = bytes(
            json!({"openrpc": "1.3.2", "methods": [{"name": "m", "params": [],
            "result": {"schema": {"$ref": "#/components/schemas/Missing"}}}]}),
        );
        let err = parse_all(&[&api, &rpc]).unwrap_err();
        assert!(err.to_string().contains("Missing"), "{err}");
    }
}
