//! Support code that generated types call. Not part of the public API.

use std::borrow::Cow;

use serde::de::{
    DeserializeSeed, EnumAccess, Error as _, IgnoredAny, IntoDeserializer, MapAccess,
    VariantAccess, Visitor,
};
use serde::Deserializer;
use serde_json::Value;

pub use crate::value_deserializer::{decode, with_path, FailurePath, ValueDeserializer};

/// How an open enum's variant is named on the wire.
#[derive(Debug, Clone, Copy)]
pub enum Tagging {
    /// `"Name"` or `{"Name": payload}`.
    External,
    /// `{"<field>": "Name", ...}`.
    Field(&'static str),
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
pub fn select<'a>(
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
                [] => Err(format!(
                    "expected one of the fields `{}`",
                    known.join("`, `")
                )),
                several => Err(format!(
                    "expected only one of the fields `{}`, found `{}`",
                    known.join("`, `"),
                    several
                        .iter()
                        .map(|k| k.as_str())
                        .collect::<Vec<_>>()
                        .join("` and `")
                )),
            }
        }
        (Tagging::External, _) => Err(format!(
            "expected a variant name or an object with one key, found {}",
            describe(value)
        )),
        (Tagging::Field(field), Value::Object(map)) => match map.get(field) {
            Some(Value::String(name)) => Ok(known_or_unknown(name)),
            Some(other) => Err(format!(
                "expected `{field}` to be a string, found {}",
                describe(other)
            )),
            None => Err(format!("missing field `{field}`")),
        },
        (Tagging::Field(field), _) => Err(format!(
            "expected an object with a `{field}` field, found {}",
            describe(value)
        )),
    }
}

/// Joins `path` with the paths a message starts with (`"a.b: c[0]: what"`), skipping a
/// message path that `path` already ends with (a nested decode that tracked a path the
/// outer tracker also saw). Returns the joined path and the rest of the message.
pub fn join_paths(mut path: String, message: &str) -> (String, &str) {
    let mut rest = message;
    while let Some((segment, tail)) = rest.split_once(": ") {
        let path_like = !segment.is_empty()
            && segment
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.[]-".contains(c));
        if !path_like {
            break;
        }
        let already_there = path == segment
            || path.ends_with(&format!(".{segment}"))
            || (segment.starts_with('[') && path.ends_with(segment));
        if !already_there {
            if !path.is_empty() && !segment.starts_with('[') {
                path.push('.');
            }
            path.push_str(segment);
        }
        rest = tail;
    }
    (path, rest)
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
    let Value::Object(map) = &value else {
        return Err(D::Error::custom(format!(
            "expected an object for {type_name}, found {}",
            describe(&value)
        )));
    };
    let index = shapes
        .iter()
        .enumerate()
        .filter(|(_, keys)| keys.iter().all(|k| map.contains_key(*k)))
        .max_by_key(|(index, keys)| (keys.len(), std::cmp::Reverse(*index)))
        .map_or(shapes.len(), |(index, _)| index);
    if index == shapes.len() && is_strict() {
        return Err(D::Error::custom(no_shape_matched(shapes)));
    }
    decode(index, &value)
}

/// Per-thread decoding modes. serde passes no context to `Deserialize` impls, so the
/// entry points in [`crate::decode`] set these for the duration of their call.
#[derive(Clone, Copy)]
enum Mode {
    /// Reject what isn't known (input a user wrote) rather than keep it (what a node sent).
    Strict,
    /// Track JSON paths inside flattened enums too (the caller wants error paths).
    Paths,
}

thread_local! {
    static STRICT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static PATHS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn cell(mode: Mode) -> &'static std::thread::LocalKey<std::cell::Cell<bool>> {
    match mode {
        Mode::Strict => &STRICT,
        Mode::Paths => &PATHS,
    }
}

/// Runs `f` with `mode` on for this thread.
fn with_mode<T>(mode: Mode, f: impl FnOnce() -> T) -> T {
    struct Reset(Mode, bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            cell(self.0).with(|c| c.set(self.1));
        }
    }
    let _reset = Reset(mode, cell(mode).with(|c| c.replace(true)));
    f()
}

/// Whether the decode running on this thread is strict (see [`strictly`]).
pub fn is_strict() -> bool {
    STRICT.with(std::cell::Cell::get)
}

/// Runs `f` with strict decoding on this thread: unknown variants are errors.
pub fn strictly<T>(f: impl FnOnce() -> T) -> T {
    with_mode(Mode::Strict, f)
}

/// Whether the caller asked for error paths (see [`with_paths`]).
pub fn paths_wanted() -> bool {
    PATHS.with(std::cell::Cell::get)
}

/// Runs `f` with path tracking inside enums that serde buffers (flattened ones), which
/// costs time on every variant and so is only done when asked.
pub fn with_paths<T>(f: impl FnOnce() -> T) -> T {
    with_mode(Mode::Paths, f)
}

/// The error for a variant name not in `known`, under strict decoding.
pub fn unknown_variant(known: &[&str]) -> String {
    format!("unknown variant, expected one of `{}`", known.join("`, `"))
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

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Implements `Deserialize` and `Serialize` for an open enum whose known variants have
/// inherent `deserialize`/`serialize` functions (derived with `#[serde(remote = "Self")]`).
///
/// An unknown variant name lands in the catch-all variant with its raw JSON; a known name
/// whose payload fails to decode is an error naming the path, never the catch-all.
/// Externally tagged enums (`"Name"` / `{"Name": ..}`, most protocol enums) decode as a
/// stream; the others, and an object whose first key isn't a variant (a flattened enum's
/// siblings), are buffered first.
#[doc(hidden)]
#[macro_export]
macro_rules! open_enum {
    ($name:ident, External, [$($known:literal),* $(,)?], $unknown:ident) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                const KNOWN: &[&str] = &[$($known),*];
                $crate::open_enum!(@buffered $name, $crate::__private::Tagging::External, $unknown,
                    |value, path| $crate::__private::ValueDeserializer::new(value, path));

                struct Streaming;
                impl<'de> ::serde::de::Visitor<'de> for Streaming {
                    type Value = $name;

                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        $crate::__private::expecting_external(f, KNOWN)
                    }

                    fn visit_str<E: ::serde::de::Error>(self, name: &str) -> ::std::result::Result<$name, E> {
                        if KNOWN.contains(&name) {
                            $name::deserialize(::serde::de::IntoDeserializer::<E>::into_deserializer(name))
                        } else if $crate::__private::is_strict() {
                            ::std::result::Result::Err(E::custom($crate::__private::unknown_variant(KNOWN)))
                        } else {
                            ::std::result::Result::Ok($name::$unknown(::serde_json::Value::String(name.to_owned())))
                        }
                    }

                    fn visit_map<A: ::serde::de::MapAccess<'de>>(self, mut map: A) -> ::std::result::Result<$name, A::Error> {
                        use ::serde::de::Error as _;
                        match map.next_key_seed($crate::__private::VariantKey(KNOWN))? {
                            ::std::option::Option::None => {
                                ::std::result::Result::Err(A::Error::custom($crate::__private::no_variant(KNOWN)))
                            }
                            ::std::option::Option::Some(::std::result::Result::Ok(name)) => {
                                if $crate::__private::paths_wanted() {
                                    // Inside a flattened struct serde buffers the object, and
                                    // the caller's path stops above this enum: track it here.
                                    let buffered = $crate::__private::buffer_rest(name.to_owned(), map)?;
                                    return from_buffered(buffered);
                                }
                                let variant = $crate::__private::KnownVariant::new(name, &mut map);
                                let value = $name::deserialize(variant)?;
                                $crate::__private::rest_of_variant_object(&mut map, name, KNOWN)?;
                                ::std::result::Result::Ok(value)
                            }
                            ::std::option::Option::Some(::std::result::Result::Err(key)) => {
                                let buffered = $crate::__private::buffer_rest(key, map)?;
                                from_buffered(buffered)
                            }
                        }
                    }
                }
                deserializer.deserialize_any(Streaming)
            }
        }
        $crate::open_enum!(@serialize $name, $unknown);
    };
    ($name:ident, Field($field:literal), [$($known:literal),* $(,)?], $unknown:ident) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                const KNOWN: &[&str] = &[$($known),*];
                $crate::open_enum!(@buffered $name, $crate::__private::Tagging::Field($field), $unknown,
                    |value, path| $crate::__private::ValueDeserializer::tag_first(value, $field, path));
                let buffered = <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer)?;
                from_buffered(buffered)
            }
        }
        $crate::open_enum!(@serialize $name, $unknown);
    };
    // `fn from_buffered<E>(Value) -> Result<$name, E>`: selects the variant of a buffered
    // value and decodes it with its own path tracking (`KNOWN` must be in scope). Generic
    // over the caller's error, so that this crate does not compile the payloads' decoding
    // for a deserializer of its own choosing (see `ValueDeserializer`).
    (@buffered $name:ident, $tagging:expr, $unknown:ident, |$value:ident, $path:ident| $source:expr) => {
        fn from_buffered<E: ::serde::de::Error>(buffered: ::serde_json::Value) -> ::std::result::Result<$name, E> {
            match $crate::__private::select(&buffered, $tagging, KNOWN).map_err(E::custom)? {
                $crate::__private::Selected::Known(known) => {
                    let $value = known.as_ref();
                    let $path = &$crate::__private::FailurePath::default();
                    $name::deserialize::<$crate::__private::ValueDeserializer<'_, E>>($source)
                        .map_err(|e| $crate::__private::with_path($path, e))
                }
                $crate::__private::Selected::Unknown if $crate::__private::is_strict() => {
                    ::std::result::Result::Err(E::custom($crate::__private::unknown_variant(KNOWN)))
                }
                $crate::__private::Selected::Unknown => ::std::result::Result::Ok($name::$unknown(buffered)),
            }
        }
    };
    (@serialize $name:ident, $unknown:ident) => {
        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                match self {
                    $name::$unknown(value) => ::serde::Serialize::serialize(value, serializer),
                    known => $name::serialize(known, serializer),
                }
            }
        }
    };
}

/// Implements `Deserialize` for a plain struct, as the generator's `struct_de` pass writes
/// it: one `visit_map`, a `match` from field name to index, no positional form.
///
/// Each field is `index field "json name" required|default`; `default` fills a missing
/// field with `Default::default()` (`None` for an `Option`). The field names double as the
/// locals that collect the values, which hygiene keeps apart from the macro's own.
#[doc(hidden)]
#[macro_export]
macro_rules! deserialize_struct {
    ($name:ident { $($index:literal $field:ident $json:literal $missing:ident),* $(,)? }) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                const FIELDS: &[&str] = &[$($json),*];
                fn field_index(name: &str) -> ::std::option::Option<usize> {
                    match name {
                        $($json => ::std::option::Option::Some($index),)*
                        _ => ::std::option::Option::None,
                    }
                }
                struct Visitor;
                impl<'de> ::serde::de::Visitor<'de> for Visitor {
                    type Value = $name;

                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(concat!("struct ", stringify!($name)))
                    }

                    fn visit_map<A: ::serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> ::std::result::Result<$name, A::Error> {
                        $(let mut $field = ::std::option::Option::None;)*
                        while let ::std::option::Option::Some(index) =
                            map.next_key_seed($crate::__private::FieldIndex(field_index))?
                        {
                            match index {
                                $(::std::option::Option::Some($index) => {
                                    $crate::__private::next_field(&mut map, &mut $field, $json)?
                                })*
                                _ => {
                                    map.next_value::<::serde::de::IgnoredAny>()?;
                                }
                            }
                        }
                        ::std::result::Result::Ok($name {
                            $($field: $crate::deserialize_struct!(@finish $missing $field $json),)*
                        })
                    }
                }
                deserializer.deserialize_struct(stringify!($name), FIELDS, Visitor)
            }
        }
    };
    (@finish required $field:ident $json:literal) => {
        $crate::__private::required_field($field, $json)?
    };
    (@finish default $field:ident $json:literal) => {
        $field.unwrap_or_default()
    };
}

/// What an externally tagged open enum expects, for serde's "invalid type" errors.
pub fn expecting_external(f: &mut std::fmt::Formatter<'_>, known: &[&str]) -> std::fmt::Result {
    write!(
        f,
        "a variant name or an object with one key, one of `{}`",
        known.join("`, `")
    )
}

/// The error for an object without any variant key.
pub fn no_variant(known: &[&str]) -> String {
    format!("expected one of the fields `{}`", known.join("`, `"))
}

/// After a known variant `{"Name": ..}`: a second variant key is an error; other keys
/// are skipped (a flattened enum shares its object with the struct's other fields, and
/// strict decoding of user input catches dropped keys by re-encoding).
pub fn rest_of_variant_object<'de, A: MapAccess<'de>>(
    map: &mut A,
    key: &str,
    known: &[&str],
) -> Result<(), A::Error> {
    while let Some(other) = map.next_key::<String>()? {
        if known.contains(&other.as_str()) {
            return Err(A::Error::custom(format!(
                "expected only one of the fields `{}`, found `{key}` and `{other}`",
                known.join("`, `")
            )));
        }
        map.next_value::<IgnoredAny>()?;
    }
    Ok(())
}

/// The object being read, as a value, from its first key on.
pub fn buffer_rest<'de, A: MapAccess<'de>>(
    first_key: String,
    mut map: A,
) -> Result<Value, A::Error> {
    let mut object = serde_json::Map::new();
    object.insert(first_key, map.next_value()?);
    while let Some((key, value)) = map.next_entry::<String, Value>()? {
        object.insert(key, value);
    }
    Ok(Value::Object(object))
}

/// Reads a struct's field name as its index in the struct's field list (through the
/// struct's own `match`), `None` for a field the struct does not have.
pub struct FieldIndex(pub fn(&str) -> Option<usize>);

impl<'de> DeserializeSeed<'de> for FieldIndex {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl Visitor<'_> for FieldIndex {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<Self::Value, E> {
        Ok((self.0)(name))
    }

    fn visit_bytes<E: serde::de::Error>(self, name: &[u8]) -> Result<Self::Value, E> {
        Ok(std::str::from_utf8(name).ok().and_then(self.0))
    }
}

/// Reads the value of field `name` into `slot`; a field given twice is an error.
pub fn next_field<'de, A: MapAccess<'de>, T: serde::Deserialize<'de>>(
    map: &mut A,
    slot: &mut Option<T>,
    name: &'static str,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(A::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

/// The value of a field that must be present.
pub fn required_field<T, E: serde::de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(name))
}

/// Reads an object key: `Ok` with the `'static` name when it is a known variant (no
/// allocation on the hot path), `Err` with the key otherwise.
pub struct VariantKey(pub &'static [&'static str]);

impl<'de> DeserializeSeed<'de> for VariantKey {
    type Value = Result<&'static str, String>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for VariantKey {
    type Value = Result<&'static str, String>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a variant name")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(match self.0.iter().find(|known| **known == key) {
            Some(known) => Ok(known),
            None => Err(key.to_owned()),
        })
    }
}

/// A deserializer for one variant of an externally tagged enum, `{"Name": payload}`,
/// whose name was already read from `map`: the payload is decoded straight from the
/// input, so its errors keep their path.
pub struct KnownVariant<A> {
    name: &'static str,
    map: A,
}

impl<A> KnownVariant<A> {
    /// The variant `name`, whose payload is `map`'s next value.
    pub fn new(name: &'static str, map: A) -> Self {
        Self { name, map }
    }
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for KnownVariant<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, A: MapAccess<'de>> EnumAccess<'de> for KnownVariant<A> {
    type Error = A::Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), A::Error> {
        let variant = seed.deserialize(self.name.into_deserializer())?;
        Ok((variant, self))
    }
}

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for KnownVariant<A> {
    type Error = A::Error;

    fn unit_variant(mut self) -> Result<(), A::Error> {
        self.map.next_value::<()>()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        mut self,
        seed: T,
    ) -> Result<T::Value, A::Error> {
        self.map.next_value_seed(seed)
    }

    fn tuple_variant<V: Visitor<'de>>(
        mut self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(TupleSeed { len, visitor })
    }

    fn struct_variant<V: Visitor<'de>>(
        mut self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(StructSeed { fields, visitor })
    }
}

struct TupleSeed<V> {
    len: usize,
    visitor: V,
}

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for TupleSeed<V> {
    type Value = V::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        deserializer.deserialize_tuple(self.len, self.visitor)
    }
}

struct StructSeed<V> {
    fields: &'static [&'static str],
    visitor: V,
}

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for StructSeed<V> {
    type Value = V::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        deserializer.deserialize_struct("", self.fields, self.visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn variants_are_selected_or_explained() {
        fn select(value: &Value, tagging: Tagging) -> Result<Selected<'_>, String> {
            super::select(value, tagging, &["A", "B"])
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
