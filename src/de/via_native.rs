//! serde's `Deserialize` for the generated types, through their native decoders.
//!
//! A derived `Deserialize` is a tree of generic visitors per type: rustc type-checks,
//! borrow-checks and writes into the crate's metadata every one of them, for 337 schemas,
//! even though the library itself never instantiates them (it decodes natively). That was
//! 40% of the library's debug build (BENCHMARKS.md, "Compile time"). Instead, each
//! generated type's `Deserialize` is the same few lines
//! ([`deserialize_via_native!`](crate::deserialize_via_native)): the value is written out
//! as JSON text ([`JsonText`], one small visitor for every type), and its native decoder
//! reads that. So serde's path and `RpcMethod::decode_response` accept and refuse exactly
//! the same documents, with the same paths.
//!
//! Any self-describing format works (serde_json's streaming and `Value` deserializers,
//! YAML, CBOR, ...): the value is transcribed, not captured raw.

use std::fmt;

use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde::Deserializer;

use super::native::{self, Decode, Reader};

/// Implements serde's `Deserialize` for a type with a native decoder, through it (see
/// the module docs).
#[doc(hidden)]
#[macro_export]
macro_rules! deserialize_via_native {
    ($name:ident) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                $crate::__private::deserialize_via_native(deserializer)
            }
        }
    };
}

/// Deserializes a `T` by transcribing the value to JSON text and decoding that natively.
///
/// A failure is `"<path inside the value>: <message>"` (the caller's path tracking puts
/// the value's own path in front), and is noted as a failure inside a buffered value, so
/// that `decode::from_slice` can place it in the document (`crate::de::locate`).
pub fn deserialize<'de, T: Decode, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    let mut text = Vec::new();
    JsonText(&mut text).deserialize(deserializer)?;
    decode_text(&text).map_err(D::Error::custom)
}

/// Decodes the transcribed `text`; not generic over the deserializer.
fn decode_text<T: Decode>(text: &[u8]) -> Result<T, String> {
    let mut r = Reader::new(text);
    T::decode(&mut r)
        .and_then(|value| r.end().map(|()| value))
        .map_err(|e| failure(text, &e))
}

#[cold]
fn failure(text: &[u8], e: &native::Error) -> String {
    let message = match e.path() {
        path if path.is_empty() => e.message().to_owned(),
        path => format!("{path}: {}", e.message()),
    };
    if let Ok(value) = serde_json::from_slice(text) {
        super::mode::note_buffered_failure(&message, &value);
    }
    message
}

/// Writes the value it deserializes as compact JSON text.
pub struct JsonText<'a>(pub &'a mut Vec<u8>);

impl JsonText<'_> {
    fn write<V: serde::Serialize + ?Sized, E: serde::de::Error>(self, value: &V) -> Result<(), E> {
        serde_json::to_writer(self.0, value).map_err(E::custom)
    }
}

impl<'de> DeserializeSeed<'de> for JsonText<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for JsonText<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<(), E> {
        self.0.extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<(), E> {
        self.write(&v)
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<(), E> {
        self.write(&v)
    }

    fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<(), E> {
        self.write(&v)
    }

    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<(), E> {
        self.write(&v)
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<(), E> {
        // serde_json would write a NaN or an infinity as `null`: refuse it instead.
        if !v.is_finite() {
            return Err(E::custom(format_args!("{v} is not a JSON number")));
        }
        self.write(&v)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        self.write(v)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.0.extend_from_slice(b"null");
        Ok(())
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.push(b'[');
        let mut first = true;
        loop {
            let len = self.0.len();
            if !first {
                self.0.push(b',');
            }
            if seq.next_element_seed(JsonText(self.0))?.is_none() {
                self.0.truncate(len);
                break;
            }
            first = false;
        }
        self.0.push(b']');
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.push(b'{');
        let mut first = true;
        loop {
            let len = self.0.len();
            if !first {
                self.0.push(b',');
            }
            if map.next_key_seed(KeyText(self.0))?.is_none() {
                self.0.truncate(len);
                break;
            }
            self.0.push(b':');
            map.next_value_seed(JsonText(self.0))?;
            first = false;
        }
        self.0.push(b'}');
        Ok(())
    }
}

/// Writes an object key, which JSON requires to be a string.
struct KeyText<'a>(&'a mut Vec<u8>);

impl<'de> DeserializeSeed<'de> for KeyText<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyText<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        JsonText(self.0).write(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::{json, Value};

    fn transcribed<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
        let mut text = Vec::new();
        JsonText(&mut text).deserialize(deserializer)?;
        Ok(String::from_utf8(text).expect("JSON text is UTF-8"))
    }

    #[test]
    fn transcribes_every_kind_of_value_as_compact_json() {
        let doc = r#" { "a" : [1, -2, 3.5, 18446744073709551615, true, false, null],
            "b\"q" : {"": "line\nbreak \u00e9 \ud83d\ude00"}, "c": [], "d": {} } "#;
        let text = transcribed(&mut serde_json::Deserializer::from_str(doc)).unwrap();
        assert_eq!(
            text,
            r#"{"a":[1,-2,3.5,18446744073709551615,true,false,null],"b\"q":{"":"line\nbreak é 😀"},"c":[],"d":{}}"#
        );
        let reparsed: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(reparsed, serde_json::from_str::<Value>(doc).unwrap());
        // From a `Value` too, the other deserializer users meet.
        let value = serde_json::from_str::<Value>(doc).unwrap();
        assert_eq!(transcribed(value).unwrap(), text);
    }

    #[test]
    fn refuses_what_json_cannot_hold() {
        use serde::de::value::{Error, F64Deserializer};
        let nan = F64Deserializer::<Error>::new(f64::NAN);
        assert_eq!(
            transcribed(nan).unwrap_err().to_string(),
            "NaN is not a JSON number"
        );
        let bytes = serde::de::value::BytesDeserializer::<Error>::new(b"ab");
        assert!(transcribed(bytes).is_err());
    }

    #[test]
    fn a_failure_names_its_path_inside_the_value() {
        let err = crate::types::AccessKeyView::deserialize(json!({
            "nonce": 1, "permission": {"FunctionCall": {"allowance": null, "method_names": [], "receiver_id": 5}}
        }))
        .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("permission.FunctionCall.receiver_id: invalid type"),
            "{err}"
        );
    }
}
