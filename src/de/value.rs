//! A deserializer over a borrowed [`Value`], generic over its error type, that records
//! the JSON path of a failure: [`crate::decode::from_value`] decodes with it, so that a
//! failure inside a user's own types has its path too (the generated types decode
//! natively, `crate::de::via_native`, and report their own).
//!
//! Why not `&serde_json::Value` wrapped in `serde_path_to_error`: both are concrete
//! deserializer types, so every use made this crate compile a whole decoder for them.
//! Generic over the caller's error type, it is compiled only where something decodes
//! with it, and the path costs nothing until something fails.

use std::cell::RefCell;
use std::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use serde_json::Value;

use crate::de::paths::Segment;

/// The path of a failure, recorded from the inside out as the error travels up.
#[derive(Default)]
pub struct FailurePath {
    segments: RefCell<Vec<Segment>>,
}

impl FailurePath {
    fn push(&self, segment: Segment) {
        self.segments.borrow_mut().push(segment);
    }

    /// The path as `a.b[2].c`; empty for the root.
    pub fn to_path_string(&self) -> String {
        crate::de::paths::render(&self.segments.borrow())
    }
}

/// Deserializes from a borrowed [`Value`], recording in a [`FailurePath`] where a failure
/// happened. Behaves like serde_json's own `&Value` deserializer otherwise.
pub struct ValueDeserializer<'a, E> {
    value: &'a Value,
    path: &'a FailurePath,
    error: PhantomData<E>,
}

impl<'a, E> ValueDeserializer<'a, E> {
    /// A deserializer for `value` that records a failure's path in `path`.
    pub fn new(value: &'a Value, path: &'a FailurePath) -> Self {
        ValueDeserializer {
            value,
            path,
            error: PhantomData,
        }
    }
}

/// Decodes `value` with `seed`, adding `segment` to the path if it fails.
fn nested<'de, 'a, S, E>(
    seed: S,
    value: &'a Value,
    path: &'a FailurePath,
    segment: impl FnOnce() -> Segment,
) -> Result<S::Value, E>
where
    S: DeserializeSeed<'de>,
    E: de::Error,
{
    seed.deserialize(ValueDeserializer::new(value, path))
        .inspect_err(|_| path.push(segment()))
}

/// The "invalid type" error; not generic over the visitor (`expected` is one).
fn wrong_type<E: de::Error>(value: &Value, expected: &dyn de::Expected) -> E {
    E::invalid_type(unexpected(value), expected)
}

fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (_, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// Number deserializers that all read a number as serde_json does (`deserialize_f64`
/// below): the visitor gets the number as u64, i64 or f64, whichever holds it.
macro_rules! numbers_as_f64 {
    ($($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
            self.deserialize_f64(visitor)
        })*
    };
}

impl<'de, 'a, E: de::Error> de::Deserializer<'de> for ValueDeserializer<'a, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(_) => self.deserialize_f64(visitor),
            Value::String(s) => visitor.visit_str(s),
            Value::Array(_) => self.deserialize_seq(visitor),
            Value::Object(_) => self.deserialize_map(visitor),
        }
    }

    // Each of the following calls only the visitor methods its kind of value needs, as
    // serde_json's streaming deserializer does (anything else is the same "invalid
    // type" error): forwarding them all to `deserialize_any` would compile every
    // `visit_*` method of every visitor, most of them never called.

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Value::Bool(b) => visitor.visit_bool(*b),
            other => Err(wrong_type(other, &visitor)),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => visitor.visit_u64(u),
                (_, Some(i)) => visitor.visit_i64(i),
                _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            other => Err(wrong_type(other, &visitor)),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Value::String(s) => visitor.visit_str(s),
            other => Err(wrong_type(other, &visitor)),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            other => Err(wrong_type(other, &visitor)),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        let Value::Array(items) = self.value else {
            return Err(wrong_type(self.value, &visitor));
        };
        let mut seq = Elements {
            items: items.iter().enumerate(),
            path: self.path,
            error: PhantomData,
        };
        let value = visitor.visit_seq(&mut seq)?;
        seq.finish(items.len())?;
        Ok(value)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        let Value::Object(map) = self.value else {
            return Err(wrong_type(self.value, &visitor));
        };
        let mut entries = Entries::new(map, self.path);
        let value = visitor.visit_map(&mut entries)?;
        entries.finish(map.len())?;
        Ok(value)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        self.deserialize_map(visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, E> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, E> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        self.deserialize_str(visitor)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        let (variant, payload) = match self.value {
            Value::String(name) => (name, None),
            Value::Object(map) => {
                let mut entries = map.iter();
                match (entries.next(), entries.next()) {
                    (Some((name, payload)), None) => (name, Some(payload)),
                    _ => return Err(E::invalid_value(Unexpected::Map, &"map with a single key")),
                }
            }
            other => return Err(E::invalid_type(unexpected(other), &"string or map")),
        };
        visitor.visit_enum(Variant {
            name: variant,
            payload,
            path: self.path,
            error: PhantomData,
        })
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_unit()
    }

    numbers_as_f64!(
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32
    );

    serde::forward_to_deserialize_any! { bytes byte_buf }
}

impl<E: de::Error> Elements<'_, E> {
    /// An error unless the visitor read every element.
    fn finish(self, len: usize) -> Result<(), E> {
        match self.items.len() {
            0 => Ok(()),
            _ => Err(E::invalid_length(len, &"fewer elements in array")),
        }
    }
}

struct Elements<'a, E> {
    items: std::iter::Enumerate<std::slice::Iter<'a, Value>>,
    path: &'a FailurePath,
    error: PhantomData<E>,
}

impl<'de, E: de::Error> SeqAccess<'de> for Elements<'_, E> {
    type Error = E;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, E> {
        match self.items.next() {
            Some((index, item)) => {
                nested(seed, item, self.path, || Segment::Index(index)).map(Some)
            }
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Entries<'a, E> {
    rest: serde_json::map::Iter<'a>,
    /// The entry whose key was read and whose value is next.
    value: Option<(&'a String, &'a Value)>,
    path: &'a FailurePath,
    error: PhantomData<E>,
}

// Not generic over the seeds: compiled once per error type, not once per visitor.
impl<'a, E: de::Error> Entries<'a, E> {
    fn new(map: &'a serde_json::Map<String, Value>, path: &'a FailurePath) -> Self {
        Entries {
            rest: map.iter(),
            value: None,
            path,
            error: PhantomData,
        }
    }

    /// An error unless the visitor read every entry.
    fn finish(mut self, len: usize) -> Result<(), E> {
        match self.rest.next() {
            None => Ok(()),
            Some(_) => Err(E::invalid_length(len, &"fewer elements in map")),
        }
    }
}

impl<'de, E: de::Error> MapAccess<'de> for Entries<'_, E> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        let Some((key, value)) = self.rest.next() else {
            return Ok(None);
        };
        self.value = Some((key, value));
        seed.deserialize(key.as_str().into_deserializer())
            .map(Some)
            .inspect_err(|_: &E| self.path.push(Segment::Key(key.clone())))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, E> {
        match self.value.take() {
            Some((key, value)) => nested(seed, value, self.path, || Segment::Key(key.clone())),
            None => Err(E::custom("a map value was requested before its key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.rest.len())
    }
}

/// `"Name"` or `{"Name": payload}`.
struct Variant<'a, E> {
    name: &'a str,
    payload: Option<&'a Value>,
    path: &'a FailurePath,
    error: PhantomData<E>,
}

impl<'de, E: de::Error> EnumAccess<'de> for Variant<'_, E> {
    type Error = E;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), E> {
        let variant = seed.deserialize(self.name.into_deserializer())?;
        Ok((variant, self))
    }
}

impl<'a, E: de::Error> Variant<'a, E> {
    /// Decodes the payload with `decode`, adding the variant's name to the path on failure.
    fn payload<T>(
        self,
        expected: &'static str,
        decode: impl FnOnce(ValueDeserializer<'a, E>) -> Result<T, E>,
    ) -> Result<T, E> {
        let Some(payload) = self.payload else {
            return Err(E::invalid_type(Unexpected::UnitVariant, &expected));
        };
        decode(ValueDeserializer::new(payload, self.path))
            .inspect_err(|_| self.path.push(Segment::Key(self.name.to_owned())))
    }
}

impl<'de, E: de::Error> VariantAccess<'de> for Variant<'_, E> {
    type Error = E;

    fn unit_variant(self) -> Result<(), E> {
        match self.payload {
            None => Ok(()),
            Some(_) => self.payload("unit variant", |de| {
                <() as de::Deserialize>::deserialize(de)
            }),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, E> {
        self.payload("newtype variant", |de| seed.deserialize(de))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, E> {
        self.payload("tuple variant", |de| {
            de::Deserializer::deserialize_seq(de, visitor)
        })
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        self.payload("struct variant", |de| {
            de::Deserializer::deserialize_map(de, visitor)
        })
    }
}

/// Decodes `value` as `T`; a failure's message starts with its path (`"a.b[2]: ..."`).
pub fn decode<T: de::DeserializeOwned, E: de::Error>(value: &Value) -> Result<T, E> {
    let path = FailurePath::default();
    T::deserialize(ValueDeserializer::<E>::new(value, &path)).map_err(|e| with_path(&path, e))
}

/// `error` with `path`'s path in front of its message.
pub fn with_path<E: de::Error>(path: &FailurePath, error: E) -> E {
    match path.to_path_string() {
        path if path.is_empty() => error,
        path => E::custom(format_args!("{path}: {error}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize, PartialEq)]
    enum Action {
        Stake { amount: u8 },
        Transfer(u8),
        Pair(u8, u8),
        Noop,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Doc {
        actions: Vec<Action>,
        memo: Option<String>,
        #[serde(default)]
        height: u64,
    }

    fn decode_doc(value: Value) -> Result<Doc, String> {
        decode::<Doc, serde_json::Error>(&value).map_err(|e| e.to_string())
    }

    #[test]
    fn decodes_like_serde_json() {
        let value = json!({
            "actions": ["Noop", {"Stake": {"amount": 1}}, {"Transfer": 2}, {"Pair": [3, 4]}],
            "memo": null,
            "height": 7,
            "ignored": {"deep": [1, 2, 3]}
        });
        let expected = Doc::deserialize(&value).expect("serde_json decodes");
        assert_eq!(decode_doc(value), Ok(expected));
    }

    #[test]
    fn failures_name_their_path() {
        let err = decode_doc(json!({"actions": ["Noop", {"Stake": {"amount": 300}}]}));
        assert!(
            err.as_ref()
                .is_err_and(|e| e.starts_with("actions[1].Stake.amount: invalid value")),
            "{err:?}"
        );
        let err = decode_doc(json!({"actions": [], "memo": 5}));
        assert!(
            err.as_ref()
                .is_err_and(|e| e.starts_with("memo: invalid type: integer `5`")),
            "{err:?}"
        );
        let err = decode_doc(json!({"actions": [{"Stake": {}, "Noop": null}]}));
        assert_eq!(
            err,
            Err("actions[0]: invalid value: map, expected map with a single key".into())
        );
        let err = decode_doc(json!({"actions": [{"Transfer": null}]}));
        assert!(
            err.as_ref()
                .is_err_and(|e| e.starts_with("actions[0].Transfer: invalid type: null")),
            "{err:?}"
        );
    }

    #[test]
    fn root_failures_have_no_path() {
        assert_eq!(
            decode_doc(json!("s")),
            Err("invalid type: string \"s\", expected struct Doc".into())
        );
    }
}
