//! Decoding by shape and by tag: which variant a buffered value is ([`select`]), untagged
//! enums told apart by their required fields ([`deserialize_shape`]), and the errors when
//! nothing fits.

use std::borrow::Cow;

use serde::de::Error as _;
use serde::Deserializer;
use serde_json::Value;

use super::mode::is_strict;

/// How an open enum's variant is named on the wire.
#[derive(Debug, Clone, Copy)]
pub enum Tagging {
    /// `"Name"` or `{"Name": payload}`.
    External,
    /// `{"<field>": "Name", ...}` (internally tagged: the payload's fields beside it).
    Field(&'static str),
    /// `{"<tag>": "Name", "<content>": payload}` (adjacently tagged).
    Adjacent(&'static str, &'static str),
}

/// Which variant a buffered open-enum value is.
#[derive(Debug, PartialEq)]
pub enum Selected<'a> {
    /// A known variant, to be decoded from this value.
    Known(Cow<'a, Value>),
    /// A variant this version does not know.
    Unknown,
}

/// Picks the variant of `value`, or says why it has none.
///
/// An externally tagged enum flattened into a struct (`BlockReference` in
/// `{"account_id": .., "finality": ..}`) sees the struct's other fields too: then the one
/// known variant key among them selects the variant.
///
/// `units` are the variants that are bare names in the spec. A newer node may send one
/// with a payload (`{"Name": {..}}`, `{"name": "NAME", "info": {..}}`): that is a variant
/// this version does not know in full, so it is [`Selected::Unknown`] (kept whole by the
/// caller), an error under strict decoding. An empty payload (`null`, `{}`, `[]`) loses
/// nothing and selects the known variant.
pub fn select<'a>(
    value: &'a Value,
    tagging: Tagging,
    known: &[&str],
    units: &[&str],
) -> Result<Selected<'a>, String> {
    let selected = select_known(value, tagging, known)?;
    let Selected::Known(variant) = &selected else {
        return Ok(selected);
    };
    let (name, payload) = match (tagging, variant.as_ref()) {
        (Tagging::External, Value::Object(map)) => match map.iter().next() {
            Some((name, payload)) => (name.as_str(), Some(payload)),
            None => return Ok(selected),
        },
        (Tagging::Adjacent(tag, content), Value::Object(map)) => match map.get(tag) {
            Some(Value::String(name)) => (name.as_str(), map.get(content)),
            _ => return Ok(selected),
        },
        _ => return Ok(selected),
    };
    if !units.contains(&name) {
        return Ok(selected);
    }
    if payload.is_some_and(|p| !is_empty(p)) {
        if is_strict() {
            return Err(bare_name_with_payload(name));
        }
        return Ok(Selected::Unknown);
    }
    // The bare name alone, as the known variant's decoder expects it.
    let bare = match (tagging, variant.as_ref()) {
        (Tagging::Adjacent(_, content), Value::Object(map)) => {
            let mut map = map.clone();
            map.remove(content);
            Value::Object(map)
        }
        _ => Value::String(name.to_owned()),
    };
    Ok(Selected::Known(Cow::Owned(bare)))
}

/// A payload that carries nothing.
fn is_empty(payload: &Value) -> bool {
    match payload {
        Value::Null => true,
        Value::Object(map) => map.is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => false,
    }
}

fn select_known<'a>(
    value: &'a Value,
    tagging: Tagging,
    known: &[&str],
) -> Result<Selected<'a>, String> {
    let known_or_unknown = |name: &str| {
        if known.contains(&name) {
            Selected::Known(Cow::Borrowed(value))
        } else {
            Selected::Unknown
        }
    };
    match (tagging, value) {
        (Tagging::External, Value::String(name)) => Ok(known_or_unknown(name)),
        (Tagging::External, Value::Object(map)) if map.len() == 1 => Ok(known_or_unknown(
            map.keys().next().map_or("", String::as_str),
        )),
        (Tagging::External, Value::Object(map)) => {
            let present: Vec<&String> =
                map.keys().filter(|k| known.contains(&k.as_str())).collect();
            match present.as_slice() {
                [key] => Ok(Selected::Known(Cow::Owned(Value::Object(
                    map.iter()
                        .filter(|(k, _)| k == key)
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                )))),
                [] => Err(super::open_enum::no_variant(known)),
                several => Err(only_one_of(
                    known,
                    &several.iter().map(|k| k.as_str()).collect::<Vec<_>>(),
                )),
            }
        }
        (Tagging::External, _) => Err(format!(
            "expected a variant name or an object with one key, found {}",
            describe(value)
        )),
        (Tagging::Field(field) | Tagging::Adjacent(field, _), Value::Object(map)) => {
            match map.get(field) {
                Some(Value::String(name)) => Ok(known_or_unknown(name)),
                Some(other) => Err(tag_not_a_string(field, describe(other))),
                None => Err(format!("missing field `{field}`")),
            }
        }
        (Tagging::Field(field) | Tagging::Adjacent(field, _), _) => {
            Err(no_tag_object(field, describe(value)))
        }
    }
}

/// Decodes an untagged enum: buffers the value, picks the variant whose required
/// properties are all present (the most specific one when several fit), then decodes
/// only that variant, so that its errors keep their path. `decode` gets the variant's
/// index, or `shapes.len()` when none fits.
pub fn deserialize_shape<'de, D, T>(
    deserializer: D,
    type_name: &str,
    shapes: &[&[&str]],
    decode: impl FnOnce(usize, &Value) -> Result<T, D::Error>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    let value = <Value as serde::Deserialize>::deserialize(deserializer)?;
    let noted = |e| super::mode::noted_buffered_failure(e, &value);
    let Value::Object(map) = &value else {
        return Err(noted(D::Error::custom(format!(
            "expected an object for {type_name}, found {}",
            describe(&value)
        ))));
    };
    let index = shapes
        .iter()
        .enumerate()
        .filter(|(_, keys)| keys.iter().all(|k| map.contains_key(*k)))
        .max_by_key(|(index, keys)| (keys.len(), std::cmp::Reverse(*index)))
        .map_or(shapes.len(), |(index, _)| index);
    if index == shapes.len() {
        if is_strict() {
            return Err(noted(D::Error::custom(no_shape_matched(shapes))));
        }
        super::mode::note_unknown(&value);
    }
    decode(index, &value).map_err(noted)
}

/// The error for a bare name of the spec that came with a payload, under strict decoding
/// (otherwise it is kept in the catch-all).
pub fn bare_name_with_payload(name: &str) -> String {
    format!("`{name}` is a bare name in the spec, but came with a payload")
}

/// The error for an object with several variant keys (`found`) of one enum.
pub fn only_one_of(known: &[&str], found: &[&str]) -> String {
    format!(
        "expected only one of the fields `{}`, found `{}`",
        known.join("`, `"),
        found.join("` and `")
    )
}

/// The error for a tag that is not a string (`found` describes it).
pub fn tag_not_a_string(tag: &str, found: &str) -> String {
    format!("expected `{tag}` to be a string, found {found}")
}

/// The error for a tagged enum given something other than an object.
pub fn no_tag_object(tag: &str, found: &str) -> String {
    format!("expected an object with a `{tag}` field, found {found}")
}

/// The error of an untagged enum whose shapes all failed to fit.
pub fn no_shape_matched(shapes: &[&[&str]]) -> String {
    let expected: Vec<String> = shapes
        .iter()
        .map(|keys| format!("{{{}}}", keys.join(", ")))
        .collect();
    format!(
        "expected an object with the fields {}",
        expected.join(" or ")
    )
}

pub(crate) fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::__private::decode;
    use serde_json::json;

    #[test]
    fn a_bare_name_with_a_payload_is_unknown_and_without_one_known() {
        fn select(value: &Value, tagging: Tagging) -> Result<Selected<'_>, String> {
            super::select(value, tagging, &["A", "B"], &["A"])
        }
        let adjacent = Tagging::Adjacent("name", "info");
        for grown in [json!({"A": {"x": 1}}), json!({"A": 0})] {
            assert_eq!(select(&grown, Tagging::External), Ok(Selected::Unknown));
        }
        assert_eq!(
            select(&json!({"name": "A", "info": {"x": 1}}), adjacent),
            Ok(Selected::Unknown)
        );
        for empty in [
            json!("A"),
            json!({"A": null}),
            json!({"A": {}}),
            json!({"A": []}),
        ] {
            assert_eq!(
                select(&empty, Tagging::External),
                Ok(Selected::Known(Cow::Owned(json!("A"))))
            );
        }
        assert_eq!(
            select(&json!({"name": "A", "info": {}}), adjacent),
            Ok(Selected::Known(Cow::Owned(json!({"name": "A"}))))
        );
        // A variant with a payload in the spec keeps it.
        assert_eq!(
            select(&json!({"B": {"x": 1}}), Tagging::External),
            Ok(Selected::Known(Cow::Owned(json!({"B": {"x": 1}}))))
        );
        // Strict decoding (user input) refuses the grown form.
        let grown = json!({"A": 1});
        let strict = crate::de::mode::strictly(|| select(&grown, Tagging::External));
        assert!(strict
            .unwrap_err()
            .contains("`A` is a bare name in the spec"));
    }

    #[test]
    fn variants_are_selected_or_explained() {
        fn select(value: &Value, tagging: Tagging) -> Result<Selected<'_>, String> {
            super::select(value, tagging, &["A", "B"], &[])
        }
        assert!(matches!(
            select(&json!("A"), Tagging::External),
            Ok(Selected::Known(_))
        ));
        assert_eq!(
            select(&json!({"Z": 1}), Tagging::External),
            Ok(Selected::Unknown)
        );
        // Flattened beside other fields: the known key is picked out.
        assert_eq!(
            select(&json!({"B": 1, "other": 2}), Tagging::External),
            Ok(Selected::Known(Cow::Owned(json!({"B": 1}))))
        );
        assert_eq!(
            select(&json!({"x": 1, "y": 2}), Tagging::External).unwrap_err(),
            "expected one of the fields `A`, `B`"
        );
        assert!(select(&json!({"A": 1, "B": 2, "c": 3}), Tagging::External)
            .unwrap_err()
            .contains("found `A` and `B`"));
        assert!(matches!(
            select(&json!({"name": "A"}), Tagging::Field("name")),
            Ok(Selected::Known(_))
        ));
        assert_eq!(
            select(&json!({}), Tagging::Field("name")).unwrap_err(),
            "missing field `name`"
        );
        assert!(select(&json!(3), Tagging::Field("type"))
            .unwrap_err()
            .contains("found a number"));
    }

    #[test]
    fn decode_keeps_the_inner_path() {
        #[derive(serde::Deserialize, Debug)]
        struct Inner {
            #[allow(dead_code)]
            n: u8,
        }
        #[derive(serde::Deserialize, Debug)]
        struct Outer {
            #[allow(dead_code)]
            inner: Vec<Inner>,
        }
        let err = decode::<Outer, serde_json::Error>(&json!({"inner": [{"n": 1}, {"n": 300}]}))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("inner[1].n: "), "{err}");
    }

    #[test]
    fn no_shape_lists_every_shape() {
        assert_eq!(
            no_shape_matched(&[&["a", "b"], &["c"]]),
            "expected an object with the fields {a, b} or {c}"
        );
    }
}
