//! Stage 2: turn the OpenAPI 3.0 dialect into plain JSON schema that the IR builder
//! understands, apply our own corrections (`spec/patches/`), and clean doc text
//! (`doc_text.rs`).
//!
//! Every rewrite here is structural and version-independent, so the same code serves all
//! spec versions from 1.0.0 on.

use serde_json::{json, Map, Value};

use crate::doc_text::clean_description;
use crate::error::Error;
use crate::load::Spec;
use crate::patch;

/// Applies our corrections (`spec/patches/`) to the schemas of a spec, then normalizes
/// every schema, the named ones and those of each method.
pub fn normalize(spec: &mut Spec) -> Result<(), Error> {
    // Patches point into the document as upstream lays it out (`/components/schemas/..`).
    let mut document = json!({"components": {"schemas": std::mem::take(&mut spec.schemas)}});
    patch::apply_all(&mut document, &spec.version)?;
    if let Value::Object(schemas) = document["components"]["schemas"].take() {
        spec.schemas = schemas;
    }
    spec.schemas.values_mut().for_each(normalize_schema);
    for method in spec.methods.values_mut() {
        normalize_schema(&mut method.params);
        normalize_schema(&mut method.result);
        method.error.iter_mut().for_each(normalize_schema);
    }
    for envelope in spec.envelopes.values_mut() {
        envelope
            .schemas_mut()
            .into_iter()
            .for_each(normalize_schema);
    }
    Ok(())
}

/// Rewrites one schema and everything nested in it.
pub fn normalize_schema(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    map.remove("$schema");
    // Unknown fields must be ignored so that a 1.2.6 client keeps working against a
    // newer node: `deny_unknown_fields` would turn every added field into an error.
    if map.get("additionalProperties") == Some(&Value::Bool(false)) {
        map.remove("additionalProperties");
    }
    // JSON schema's `const` (OpenRPC documents) is OpenAPI 3.0's one-value `enum`: one
    // spelling for the IR to read.
    if !map.contains_key("enum") {
        if let Some(value) = map.remove("const") {
            map.insert("enum".into(), Value::Array(vec![value]));
        }
    }
    // `format: uint` is Rust's usize in nearcore; on the wire it is an unsigned integer
    // whose range must not depend on the client's platform.
    if map.get("format").and_then(Value::as_str) == Some("uint") {
        map.insert("format".into(), "uint64".into());
    }
    // `patternProperties` with one pattern is a map keyed by strings matching it; JSON
    // object keys are strings anyway, so the map's value schema is what matters.
    // Timestamps stay strings: nodes send RFC 3339 with nanoseconds, a string round-trips
    // them exactly, and the bindings need no date-time crate.
    if map.get("format").and_then(Value::as_str) == Some("date-time") {
        map.remove("format");
    }
    if let Some(Value::Object(patterns)) = map.remove("patternProperties") {
        if let Some(value_schema) = patterns.into_iter().next().map(|(_, v)| v) {
            map.insert("additionalProperties".into(), value_schema);
        }
    }
    // A property the node omitted decodes as `None`, not as the spec's default, so that
    // re-encoding reproduces what was sent and a request leaves the default to the node.
    // The default stays visible in the doc text.
    if let Some(default) = map.remove("default") {
        let note = format!("Default: `{default}`.");
        let text = match map.get("description").and_then(Value::as_str) {
            Some(text) => format!("{text}\n\n{note}"),
            None => note,
        };
        map.insert("description".into(), text.into());
    }
    if let Some(Value::String(text)) = map.get("description") {
        let cleaned = clean_description(text);
        map.insert("description".into(), cleaned.into());
    }
    for value in map.values_mut() {
        match value {
            Value::Object(_) => normalize_schema(value),
            Value::Array(items) => items.iter_mut().for_each(normalize_schema),
            _ => {}
        }
    }
    if map.remove("nullable") == Some(Value::Bool(true)) {
        make_nullable(map);
    }
}

/// OpenAPI 3.0 `nullable: true` becomes JSON schema's explicit `null` alternative.
fn make_nullable(map: &mut Map<String, Value>) {
    // `{enum: [null], nullable: true}` is how schemars spells "null".
    if map.get("enum") == Some(&Value::Array(vec![Value::Null])) {
        map.remove("enum");
        map.insert("type".into(), "null".into());
        return;
    }
    match map.get("type").cloned() {
        Some(Value::String(ty)) if ty != "null" => {
            map.insert("type".into(), Value::Array(vec![ty.into(), "null".into()]));
        }
        Some(_) => {}
        None => {
            // A schema without `type` (a `$ref`, `anyOf`, ...): wrap it.
            let docs: Vec<(String, Value)> = ["description", "title", "default"]
                .into_iter()
                .filter_map(|k| map.remove(k).map(|v| (k.to_owned(), v)))
                .collect();
            let inner = Value::Object(std::mem::take(map));
            map.insert(
                "anyOf".into(),
                Value::Array(vec![inner, serde_json::json!({"type": "null"})]),
            );
            map.extend(docs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nullable_forms_become_json_schema() {
        let mut s = json!({"type": "integer", "format": "uint", "nullable": true});
        normalize_schema(&mut s);
        assert_eq!(s, json!({"type": ["integer", "null"], "format": "uint64"}));

        let mut s = json!({"enum": [null], "nullable": true, "title": "X"});
        normalize_schema(&mut s);
        assert_eq!(s, json!({"type": "null", "title": "X"}));

        let mut s = json!({"allOf": [{"$ref": "#/a"}], "nullable": true, "description": "d"});
        normalize_schema(&mut s);
        assert_eq!(
            s,
            json!({"anyOf": [{"allOf": [{"$ref": "#/a"}]}, {"type": "null"}], "description": "d"})
        );
    }

    #[test]
    fn objects_accept_unknown_fields_and_tuples_stay() {
        let mut s = json!({"type": "object", "additionalProperties": false,
            "properties": {"t": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}}});
        normalize_schema(&mut s);
        assert!(s.get("additionalProperties").is_none());
        assert!(s.pointer("/properties/t/items").unwrap().is_array());
    }

    #[test]
    fn pattern_properties_become_a_map() {
        let mut s = json!({"type": "object", "patternProperties": {"^\\d+$": {"type": "string"}}});
        normalize_schema(&mut s);
        assert_eq!(s["additionalProperties"], json!({"type": "string"}));
    }

    #[test]
    fn pinned_docs_rs_links_point_to_the_latest_docs() {
        let d = clean_description(
            "A [`BlockReference`](https://docs.rs/near-primitives/0.12.0/near_primitives/types/enum.BlockReference.html), https://docs.rs/serde/latest/serde/ and https://docs.rs/x",
        );
        assert_eq!(
            d,
            "A [`BlockReference`](https://docs.rs/near-primitives/latest/near_primitives/types/enum.BlockReference.html), <https://docs.rs/serde/latest/serde/> and <https://docs.rs/x>"
        );
    }

    #[test]
    fn descriptions_are_made_rustdoc_safe() {
        let d = clean_description(
            "See <https://a.b/c> and https://x.y/z.\n```\nlet a: Vec<u8> = [1];\n```\nA `Vec<u8>` or Vec<u8> in [S_0, S_1] and [a link](https://q).\nSee [Config::x](crate::vm::Config::x) and [view].\n[view]: ./index.html",
        );
        assert_eq!(
            d,
            "See <https://a.b/c> and <https://x.y/z>.\n```text\nlet a: Vec<u8> = [1];\n```\nA `Vec<u8>` or Vec&lt;u8> in \\[S_0, S_1] and [a link](https://q).\nSee Config::x and \\[view]."
        );
    }
}
