//! Reading JSON schemas: alternatives (`oneOf`/`anyOf`), references, string enums and
//! tags, nullable wrappers, cross products, doc text, and which schemas a set of roots
//! reaches.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

pub use crate::json_schema::{alternatives, collect_refs, ref_name};

pub(super) fn integer_type(format: Option<&str>) -> &'static str {
    match format {
        Some("uint8") => "u8",
        Some("uint16") => "u16",
        Some("uint32") => "u32",
        Some("int8") => "i8",
        Some("int16") => "i16",
        Some("int32") => "i32",
        Some("int64") => "i64",
        _ => "u64",
    }
}

pub(super) fn is_string_enum(schema: &Value) -> bool {
    schema
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| values.iter().all(Value::is_string))
}

pub(super) fn is_null(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
}

/// `anyOf: [X, null]`: an optional X, not an enum.
pub(super) fn is_nullable_wrapper(arms: &[Value]) -> bool {
    arms.len() == 2 && arms.iter().filter(|a| is_null(a)).count() == 1
}

/// A string constant (`{"type": "string", "enum": [...]}`) or an object with exactly one
/// property (`{"Name": payload}`).
pub(super) fn is_external_arm(arm: &Value) -> bool {
    if arm.get("enum").is_some() {
        return true;
    }
    let props = arm["properties"].as_object();
    let required = arm["required"].as_array();
    matches!((props, required), (Some(p), Some(r)) if p.len() == 1 && r.len() == 1)
}

/// The single string value of property `tag` in an arm, if the arm requires it.
pub(super) fn single_tag(arm: &Value, tag: &str) -> Option<String> {
    let prop = arm.get("properties")?.get(tag)?;
    let values = prop.get("enum")?.as_array()?;
    let required = arm["required"].as_array()?.iter().any(|r| r == tag);
    match values.as_slice() {
        [Value::String(s)] if required => Some(s.clone()),
        _ => None,
    }
}

/// A property that every arm requires with one distinct string value: the tag.
pub(super) fn discriminator(arms: &[Value]) -> Option<String> {
    let first = arms.first()?.get("properties")?.as_object()?;
    first
        .keys()
        .find(|key| {
            let tags: Vec<Option<String>> = arms.iter().map(|a| single_tag(a, key)).collect();
            let distinct: BTreeSet<&String> = tags.iter().flatten().collect();
            tags.iter().all(Option::is_some) && distinct.len() == arms.len()
        })
        .cloned()
}

/// Arms of the form `allOf: [A_i, B_j]` covering every pair: the two factor sets.
pub(super) fn product_factors(arms: &[Value]) -> Option<(Vec<Value>, Vec<Value>)> {
    let mut left: Vec<Value> = Vec::new();
    let mut right: Vec<Value> = Vec::new();
    for arm in arms {
        match arm
            .get("allOf")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
        {
            Some([a, b]) if a.get("properties").is_some() && b.get("properties").is_some() => {
                let (a, b) = (strip_docs(a), strip_docs(b));
                if !left.contains(&a) {
                    left.push(a);
                }
                if !right.contains(&b) {
                    right.push(b);
                }
            }
            _ => return None,
        }
    }
    (left.len() * right.len() == arms.len()).then_some((left, right))
}

/// A schema without `title`/`description`, for structural comparison.
pub(super) fn strip_docs(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| *k != "title" && *k != "description")
                .map(|(k, v)| (k.clone(), strip_docs(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

pub(super) fn doc_of(schema: &Value) -> Option<String> {
    schema
        .get("description")
        .and_then(Value::as_str)
        .filter(|d| !d.trim().is_empty())
        .map(str::to_owned)
}

pub(super) fn clean_doc(text: &str) -> String {
    crate::doc_text::clean_description(text)
}

/// Every schema reachable through `$ref`s from `roots`.
pub(super) fn reachable(schemas: &Map<String, Value>, roots: Vec<String>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = roots;
    while let Some(name) = stack.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if let Some(schema) = schemas.get(&name) {
            collect_refs(schema, &mut stack);
        }
    }
    seen
}
