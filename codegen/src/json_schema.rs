//! Reading JSON-schema values, the bottom layer every stage shares (loading, normalizing,
//! the IR): `$ref` names, the schemas a schema refers to, its alternatives.

use serde_json::Value;

/// Where a document's named schemas are: what a `$ref` to one starts with.
pub const REF_PREFIX: &str = "#/components/schemas/";

/// The `oneOf` or `anyOf` alternatives of a schema.
pub fn alternatives(schema: &Value) -> Option<Vec<Value>> {
    ["oneOf", "anyOf"]
        .iter()
        .find_map(|k| schema.get(*k).and_then(Value::as_array).cloned())
}

/// The target schema name of a `$ref`.
pub fn ref_name(schema: &Value) -> Option<&str> {
    schema.get("$ref")?.as_str()?.strip_prefix(REF_PREFIX)
}

/// Every schema name a `$ref` inside `schema` names, in document order.
pub fn collect_refs(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(name) = ref_name(schema) {
                out.push(name.to_owned());
            }
            map.values().for_each(|v| collect_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}
