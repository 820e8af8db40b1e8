//! Base64 strings that must decode: [`SignedTransaction`] and [`FunctionArgs`]. The spec
//! only says `string` with a `byte(s)` format; sending a node text that is not base64
//! wastes a round trip and comes back as an opaque parse error, so both are checked when
//! they are encoded (before anything is sent) and when they are decoded (user input read
//! strictly names the JSON path of the bad value).
//!
//! Like the generated newtypes they replace, both keep their text in a public field and
//! dereference to `String`.

use std::fmt;

use base64::Engine as _;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

/// Why a string is not standard, padded base64.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidBase64String {
    what: &'static str,
    why: String,
}

impl fmt::Display for InvalidBase64String {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not valid base64: {}", self.what, self.why)
    }
}

impl std::error::Error for InvalidBase64String {}

/// Checks standard padded base64 without decoding into a buffer: the alphabet, the
/// padding, and zero unused bits in the last character (as nearcore's decoder requires).
fn check(what: &'static str, text: &str) -> Result<(), InvalidBase64String> {
    let fail = |why: String| Err(InvalidBase64String { what, why });
    let bytes = text.as_bytes();
    if bytes.len() % 4 != 0 {
        return fail(format!("its length {} is not a multiple of 4", bytes.len()));
    }
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    if padding > 2 {
        return fail("more than two `=` at the end".into());
    }
    let data = &bytes[..bytes.len() - padding];
    let value = |b: u8| match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut last = 0;
    for (at, &b) in data.iter().enumerate() {
        match value(b) {
            Some(v) => last = v,
            None => {
                let shown = char::from(b).escape_default();
                return fail(format!(
                    "`{shown}` at offset {at} is not a base64 character"
                ));
            }
        }
    }
    let unused_bits = match padding {
        1 => last & 0b11,
        2 => last & 0b1111,
        _ => 0,
    };
    if unused_bits != 0 {
        return fail("the last character has bits set past the end of the data".into());
    }
    Ok(())
}

macro_rules! base64_string {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub String);

        impl $name {
            /// The base64 of `bytes`.
            pub fn from_bytes(bytes: impl AsRef<[u8]>) -> Self {
                Self(base64::engine::general_purpose::STANDARD.encode(bytes))
            }

            /// The decoded bytes.
            pub fn to_bytes(&self) -> Result<Vec<u8>, InvalidBase64String> {
                base64::engine::general_purpose::STANDARD
                    .decode(&self.0)
                    .map_err(|e| InvalidBase64String {
                        what: $what,
                        why: e.to_string(),
                    })
            }

            /// Whether the text is standard padded base64.
            pub fn validate(&self) -> Result<(), InvalidBase64String> {
                check($what, &self.0)
            }
        }

        impl std::ops::Deref for $name {
            type Target = String;
            fn deref(&self) -> &String {
                &self.0
            }
        }

        impl From<$name> for String {
            fn from(value: $name) -> Self {
                value.0
            }
        }

        impl From<String> for $name {
            /// Base64 text, unchecked: encoding or [`Self::validate`] checks it.
            fn from(value: String) -> Self {
                Self(value)
            }
        }

        impl From<&str> for $name {
            /// Base64 text, unchecked: encoding or [`Self::validate`] checks it.
            fn from(value: &str) -> Self {
                Self(value.to_owned())
            }
        }

        impl From<Vec<u8>> for $name {
            /// The bytes themselves, encoded.
            fn from(bytes: Vec<u8>) -> Self {
                Self::from_bytes(bytes)
            }
        }

        impl From<&[u8]> for $name {
            /// The bytes themselves, encoded.
            fn from(bytes: &[u8]) -> Self {
                Self::from_bytes(bytes)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl std::str::FromStr for $name {
            type Err = InvalidBase64String;
            fn from_str(text: &str) -> Result<Self, Self::Err> {
                check($what, text)?;
                Ok(Self(text.to_owned()))
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                check($what, &self.0).map_err(serde::ser::Error::custom)?;
                serializer.serialize_str(&self.0)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = String::deserialize(deserializer)?;
                check($what, &text).map_err(de::Error::custom)?;
                Ok(Self(text))
            }
        }
    };
}

base64_string!(
    /// A signed transaction: base64 of its borsh encoding.
    SignedTransaction,
    "the signed transaction"
);

base64_string!(
    /// Function-call arguments: base64 of the bytes passed to the contract (JSON, borsh,
    /// anything).
    FunctionArgs,
    "the function-call args"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_base64_passes_both_ways() {
        for text in ["", "AAAA", "aGk=", "aGVsbG8=", "e30=", "+/+/"] {
            let args: FunctionArgs = text.parse().unwrap();
            let json = serde_json::to_string(&args).unwrap();
            assert_eq!(serde_json::from_str::<FunctionArgs>(&json).unwrap(), args);
        }
        assert_eq!(FunctionArgs::from_bytes(b"{}").0, "e30=");
        assert_eq!(FunctionArgs::from_bytes(b"hi").to_bytes().unwrap(), b"hi");
    }

    #[test]
    fn invalid_base64_is_refused_with_a_reason() {
        let cases = [
            ("abc", "multiple of 4"),
            ("ab!d", "`!` at offset 2"),
            ("a===", "more than two"),
            ("aGl=", "bits set"),
            ("a=bc", "`=` at offset 1"),
            ("{\"a\":1}", "multiple of 4"),
        ];
        for (text, why) in cases {
            let err = text.parse::<SignedTransaction>().unwrap_err().to_string();
            assert!(err.contains(why), "{text}: {err}");
            assert!(err.starts_with("the signed transaction"), "{err}");
            let err = serde_json::to_string(&SignedTransaction(text.into())).unwrap_err();
            assert!(err.to_string().contains(why), "{text}: {err}");
            assert!(serde_json::from_value::<FunctionArgs>(text.into()).is_err());
            // Whatever base64 accepts, the check accepts, and the other way round.
            let decodes = base64::engine::general_purpose::STANDARD
                .decode(text)
                .is_ok();
            assert!(!decodes, "{text}");
        }
    }
}
