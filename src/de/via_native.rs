//! serde's `Deserialize` for the generated types and the envelope, through their native
//! decoders.
//!
//! A derived `Deserialize` is a tree of generic visitors per type: rustc type-checks,
//! borrow-checks and writes into the crate's metadata every one of them, for 337 schemas,
//! even though the library itself never instantiates them (it decodes natively). That was
//! 40% of the library's debug build (BENCHMARKS.md, "Compile time"). Instead, each
//! generated type's `Deserialize` is the same few lines
//! ([`deserialize_via_native!`](crate::deserialize_via_native)): the value's JSON text is
//! taken as it is from serde_json (the way `serde_json::value::RawValue` is), or else
//! written out from whatever the deserializer gives ([`JsonText`], one small visitor for
//! every type), and its native decoder reads that. So serde's path and
//! `RpcMethod::decode_response` accept and refuse exactly the same documents, with the
//! same paths, and any self-describing format works (YAML, CBOR, serde's own buffers
//! inside a user's flattened or untagged types, ...).

use std::fmt;

use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::native::{self, Decode, Reader};
use crate::envelope::{ErrorWrapper, Id, Response, UntypedCause};

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

/// Deserializes a `T` by taking the value's JSON text and decoding that natively.
///
/// A failure is `"<path inside the value>: <message>"`: the caller's path tracking
/// (`crate::de::value`) puts the value's own path in front.
pub fn deserialize<'de, T: Decode, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    let mut text = Vec::new();
    deserializer.deserialize_newtype_struct(RAW_VALUE, Capture(&mut text))?;
    decode_text(&text).map_err(D::Error::custom)
}

// serde's `Deserialize` for the envelope: its native decoders (`native/envelope.rs`),
// through the value's JSON text, so that both ways accept and refuse the same bodies with
// the same paths.

impl<'de, R: Decode, E: Decode> Deserialize<'de> for Response<R, E> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize(deserializer)
    }
}

impl<'de, E: Decode, V: Decode, I: Decode> Deserialize<'de> for ErrorWrapper<E, V, I> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize(deserializer)
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize(deserializer)
    }
}

impl<'de> Deserialize<'de> for UntypedCause {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize(deserializer)
    }
}

/// serde_json's name for `serde_json::value::RawValue` (with its `raw_value` feature):
/// asked for a newtype struct of this name, serde_json's deserializers hand over the
/// value's text as it is (a map of this one key to the text), which costs a scan instead
/// of a transcription. Any other deserializer, or a serde_json that stopped recognising
/// the name, sees an ordinary newtype struct and is transcribed.
const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// The value's JSON text: raw from serde_json, else transcribed by [`JsonText`].
struct Capture<'a>(&'a mut Vec<u8>);

/// What the first key of a map turned out to be (see [`RAW_VALUE`]).
enum FirstKey {
    /// serde_json's raw text follows.
    Raw,
    /// An ordinary key, already written after the `{`.
    Written,
}

impl<'de> Visitor<'de> for Capture<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        JsonText(self.0).deserialize(deserializer)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        match map.next_key_seed(FirstKeyText(self.0))? {
            Some(FirstKey::Raw) => map.next_value_seed(RawText(self.0)),
            Some(FirstKey::Written) => {
                self.0.push(b':');
                map.next_value_seed(JsonText(self.0))?;
                rest_of_map(self.0, map)
            }
            None => {
                self.0.extend_from_slice(b"{}");
                Ok(())
            }
        }
    }

    // A deserializer that reads the newtype struct as its content: a plain value.
    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<(), E> {
        JsonText(self.0).visit_bool(v)
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<(), E> {
        JsonText(self.0).visit_i64(v)
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<(), E> {
        JsonText(self.0).visit_u64(v)
    }

    fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<(), E> {
        JsonText(self.0).visit_i128(v)
    }

    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<(), E> {
        JsonText(self.0).visit_u128(v)
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<(), E> {
        JsonText(self.0).visit_f64(v)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        JsonText(self.0).visit_str(v)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        JsonText(self.0).visit_unit()
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        JsonText(self.0).visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        JsonText(self.0).visit_some(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        JsonText(self.0).visit_seq(seq)
    }
}

/// A map's first key: [`FirstKey::Raw`] for serde_json's raw value, else written out.
struct FirstKeyText<'a>(&'a mut Vec<u8>);

impl<'de> DeserializeSeed<'de> for FirstKeyText<'_> {
    type Value = FirstKey;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<FirstKey, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for FirstKeyText<'_> {
    type Value = FirstKey;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<FirstKey, E> {
        if v == RAW_VALUE {
            return Ok(FirstKey::Raw);
        }
        self.0.push(b'{');
        JsonText(self.0).write(v)?;
        Ok(FirstKey::Written)
    }
}

/// serde_json's raw text of a value, copied as it is.
struct RawText<'a>(&'a mut Vec<u8>);

impl<'de> DeserializeSeed<'de> for RawText<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for RawText<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the raw text of a JSON value")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        self.0.extend_from_slice(v.as_bytes());
        Ok(())
    }
}

/// Decodes the transcribed `text`; not generic over the deserializer.
fn decode_text<T: Decode>(text: &[u8]) -> Result<T, String> {
    let mut r = Reader::new(text);
    T::decode(&mut r)
        .and_then(|value| r.end().map(|()| value))
        .map_err(|e| failure(&e))
}

#[cold]
fn failure(e: &native::Error) -> String {
    match e.path() {
        path if path.is_empty() => e.message().to_owned(),
        path => format!("{path}: {}", e.message()),
    }
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
        let len = self.0.len();
        self.0.push(b'{');
        if map.next_key_seed(KeyText(self.0))?.is_none() {
            self.0.truncate(len);
            self.0.extend_from_slice(b"{}");
            return Ok(());
        }
        self.0.push(b':');
        map.next_value_seed(JsonText(self.0))?;
        rest_of_map(self.0, map)
    }
}

/// Writes the entries of `map` after its first, and the closing `}`.
fn rest_of_map<'de, A: MapAccess<'de>>(out: &mut Vec<u8>, mut map: A) -> Result<(), A::Error> {
    loop {
        out.push(b',');
        if map.next_key_seed(KeyText(out))?.is_none() {
            out.pop();
            break;
        }
        out.push(b':');
        map.next_value_seed(JsonText(out))?;
    }
    out.push(b'}');
    Ok(())
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

    fn captured<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
        let mut text = Vec::new();
        deserializer.deserialize_newtype_struct(RAW_VALUE, Capture(&mut text))?;
        Ok(String::from_utf8(text).expect("JSON text is UTF-8"))
    }

    #[test]
    fn takes_serde_json_text_as_it_is_and_transcribes_any_other() {
        let doc = " { \"a\" : [1, {\"b\": \"\\u00e9\"}] } ";
        // serde_json's streaming deserializers hand over the text as written.
        let from_str = captured(&mut serde_json::Deserializer::from_str(doc)).unwrap();
        assert_eq!(from_str, doc.trim());
        let from_reader = captured(&mut serde_json::Deserializer::from_reader(doc.as_bytes()));
        assert_eq!(from_reader.unwrap(), doc.trim());
        // A `Value` writes itself out.
        let value: Value = serde_json::from_str(doc).unwrap();
        assert_eq!(captured(value).unwrap(), r#"{"a":[1,{"b":"é"}]}"#);
        // Anything else is transcribed: here serde's own map (what a user's untagged or
        // flattened type hands over), empty or not.
        use serde::de::value::{Error, MapDeserializer};
        let map = MapDeserializer::<_, Error>::new([("a", 1u64), ("b\"", 2)].into_iter());
        assert_eq!(captured(map).unwrap(), r#"{"a":1,"b\"":2}"#);
        let empty = MapDeserializer::<_, Error>::new(std::iter::empty::<(&str, u64)>());
        assert_eq!(captured(empty).unwrap(), "{}");
        let string = serde::de::value::StrDeserializer::<Error>::new("x");
        assert_eq!(captured(string).unwrap(), r#""x""#);
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
        let err = crate::generated::types::AccessKeyView::deserialize(json!({
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
