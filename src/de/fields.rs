//! Plain structs: the `deserialize_struct!` macro (one `visit_map` and a name `match`
//! per struct, instead of serde_derive's positional visitor) and the field helpers it
//! expands to.

use serde::de::{DeserializeSeed, Error as _, MapAccess, Visitor};
use serde::Deserializer;

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
                // `deserialize_map`, not `deserialize_struct`: serde_json's struct entry also
                // reads arrays (by position), which these structs refuse anyway, and that
                // branch would be compiled for every struct.
                deserializer.deserialize_map(Visitor)
            }
        }
        impl $crate::__private::native::Decode for $name {
            fn decode(
                r: &mut $crate::__private::native::Reader<'_>,
            ) -> ::std::result::Result<Self, $crate::__private::native::Error> {
                ::std::result::Result::Ok($crate::decode_fields!(
                    r, concat!("struct ", stringify!($name)),
                    $name { $($field $json $missing),* }
                ))
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
