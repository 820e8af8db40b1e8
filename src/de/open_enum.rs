//! Open enums: the `open_enum!` macro that implements `Deserialize` and `Serialize` for
//! an enum with a catch-all variant, and the pieces it expands to (variant keys, the
//! known-variant deserializer, buffering the rest of an object).

use serde::de::{
    DeserializeSeed, EnumAccess, Error as _, IgnoredAny, IntoDeserializer, MapAccess,
    VariantAccess, Visitor,
};
use serde::Deserializer;
use serde_json::Value;

/// The error for a variant name not in `known`, under strict decoding.
pub fn unknown_variant(known: &[&str]) -> String {
    format!("unknown variant, expected one of `{}`", known.join("`, `"))
}

/// Implements `Deserialize` and `Serialize` for an open enum whose known variants have
/// inherent `deserialize`/`serialize` functions (derived with `#[serde(remote = "Self")]`).
///
/// An unknown variant name lands in the catch-all variant with its raw JSON; a known name
/// whose payload fails to decode is an error naming the path, never the catch-all. A
/// variant that is a bare name in the spec (listed second) but arrives with a payload from
/// a newer node lands in the catch-all too, whole (see `select`).
/// Externally tagged enums (`"Name"` / `{"Name": ..}`, most protocol enums) decode as a
/// stream; the others, and an object whose first key isn't a variant (a flattened enum's
/// siblings), are buffered first.
#[doc(hidden)]
#[macro_export]
macro_rules! open_enum {
    ($name:ident, External, [$($known:literal),* $(,)?], [$($unit:literal),* $(,)?], $unknown:ident) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                const KNOWN: &[&str] = &[$($known),*];
                const UNITS: &[&str] = &[$($unit),*];
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
                            let kept = ::serde_json::Value::String(name.to_owned());
                            $crate::__private::note_unknown(&kept);
                            ::std::result::Result::Ok($name::$unknown(kept))
                        }
                    }

                    fn visit_map<A: ::serde::de::MapAccess<'de>>(self, mut map: A) -> ::std::result::Result<$name, A::Error> {
                        use ::serde::de::Error as _;
                        match map.next_key_seed($crate::__private::VariantKey(KNOWN))? {
                            ::std::option::Option::None => {
                                ::std::result::Result::Err(A::Error::custom($crate::__private::no_variant(KNOWN)))
                            }
                            ::std::option::Option::Some(::std::result::Result::Ok(name)) => {
                                // Inside a flattened struct serde buffers the object, and
                                // the caller's path stops above this enum: track it here.
                                // A bare name's payload decides between it and the
                                // catch-all: look at it first.
                                if $crate::__private::paths_wanted() || UNITS.contains(&name) {
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
    ($name:ident, Field($field:literal), [$($known:literal),* $(,)?], [], $unknown:ident) => {
        $crate::open_enum!(@tagged $name, $crate::__private::Tagging::Field($field), $field, [$($known),*], [], $unknown);
    };
    ($name:ident, Adjacent($tag:literal, $content:literal), [$($known:literal),* $(,)?], [$($unit:literal),* $(,)?], $unknown:ident) => {
        $crate::open_enum!(@tagged $name, $crate::__private::Tagging::Adjacent($tag, $content), $tag, [$($known),*], [$($unit),*], $unknown);
    };
    // Tagged by a field: buffered, then decoded with the tag read first.
    (@tagged $name:ident, $tagging:expr, $tag:literal, [$($known:literal),*], [$($unit:literal),*], $unknown:ident) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                const KNOWN: &[&str] = &[$($known),*];
                const UNITS: &[&str] = &[$($unit),*];
                $crate::open_enum!(@buffered $name, $tagging, $unknown,
                    |value, path| $crate::__private::ValueDeserializer::tag_first(value, $tag, path));
                let buffered = <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer)?;
                from_buffered(buffered)
            }
        }
        $crate::open_enum!(@serialize $name, $unknown);
    };
    // `fn from_buffered<E>(Value) -> Result<$name, E>`: selects the variant of a buffered
    // value and decodes it with its own path tracking (`KNOWN` must be in scope). Generic
    // over the caller's error, so that the payloads' decoding is compiled once per outer
    // deserializer, not for a second one of this crate's choosing (see
    // `ValueDeserializer`).
    (@buffered $name:ident, $tagging:expr, $unknown:ident, |$value:ident, $path:ident| $source:expr) => {
        fn from_buffered<E: ::serde::de::Error>(buffered: ::serde_json::Value) -> ::std::result::Result<$name, E> {
            use $crate::__private::noted_buffered_failure as noted;
            let selected = match $crate::__private::select(&buffered, $tagging, KNOWN, UNITS) {
                ::std::result::Result::Ok(selected) => selected,
                ::std::result::Result::Err(e) => return ::std::result::Result::Err(noted(E::custom(e), &buffered)),
            };
            match selected {
                $crate::__private::Selected::Known(known) => {
                    let $value = known.as_ref();
                    let $path = &$crate::__private::FailurePath::default();
                    $name::deserialize::<$crate::__private::ValueDeserializer<'_, E>>($source)
                        .map_err(|e| noted($crate::__private::with_path($path, e), &buffered))
                }
                $crate::__private::Selected::Unknown if $crate::__private::is_strict() => {
                    ::std::result::Result::Err(noted(E::custom($crate::__private::unknown_variant(KNOWN)), &buffered))
                }
                $crate::__private::Selected::Unknown => {
                    $crate::__private::note_unknown(&buffered);
                    ::std::result::Result::Ok($name::$unknown(buffered))
                }
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
            return Err(A::Error::custom(super::shape::only_one_of(
                known,
                &[key, other.as_str()],
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
