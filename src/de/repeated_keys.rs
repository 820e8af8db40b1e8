//! Repeated keys in JSON a user wrote. serde_json (like most parsers) keeps the last
//! value of a key given twice in one object and drops the first without a word; in
//! actions, call arguments or a key file the first was meant as much as the last, so
//! such a document is refused, naming the key and the path of its object. Read with the
//! crate's own JSON reader: nothing is built, a key is copied only when it has escapes.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::de::error::{syntax_error, DecodeError};
use crate::de::native::{Error, Next, Reader, MAX_SKIP_DEPTH};

/// A key given twice in one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RepeatedKey {
    /// The path of the object (`[0].Transfer`), empty for the top level.
    pub(crate) path: String,
    /// The key, unescaped.
    pub(crate) key: String,
}

/// Checks that no object in the JSON document `bytes` gives a key twice (keys compare
/// unescaped: `"a"` and `"\u0061"` are the same key). The error's path is the object's
/// (empty for the top level) and its message names the key. A document that is not JSON
/// fails with serde_json's syntax error.
///
/// ```
/// use near_rpc::decode::check_unique_keys;
///
/// let err = check_unique_keys(br#"[{"Transfer": {"deposit": "1", "deposit": "9"}}]"#)
///     .unwrap_err();
/// assert_eq!(err.path(), "[0].Transfer");
/// assert_eq!(err.message(), r#"key "deposit" repeated"#);
/// assert!(check_unique_keys(br#"{"a": {"b": 1}, "b": {"a": 2}}"#).is_ok());
/// ```
pub fn check_unique_keys(bytes: &[u8]) -> Result<(), DecodeError> {
    match repeated_key(bytes)? {
        None => Ok(()),
        Some(RepeatedKey { path, key }) => {
            Err(DecodeError::new(path, format!("key {key:?} repeated")))
        }
    }
}

/// The first key given twice in one object of `bytes` (in document order), if any; a
/// document that is not JSON is an error.
pub(crate) fn repeated_key(bytes: &[u8]) -> Result<Option<RepeatedKey>, DecodeError> {
    let mut r = Reader::new(bytes);
    match walk(&mut r, MAX_SKIP_DEPTH).and_then(|()| r.end()) {
        Ok(()) => Ok(None),
        // The walk's only data error is a repeated key, its message the key.
        Err(e) if !e.is_syntax() => Ok(Some(RepeatedKey {
            path: e.path(),
            key: e.message().to_owned(),
        })),
        Err(e) => Err(syntax_error(bytes)
            .unwrap_or_else(|| DecodeError::new("", e.into_decode_error(bytes).message()))),
    }
}

/// Walks one value, failing at the first repeated key with a data error whose message is
/// the key (and whose path is collected on the way up).
fn walk(r: &mut Reader<'_>, depth: usize) -> Result<(), Error> {
    match r.peek()? {
        Next::Object | Next::Array if depth == 0 => Err(r.error("recursion limit exceeded")),
        Next::Object => {
            r.begin_object("an object")?;
            let mut seen: HashSet<Cow<'_, str>> = HashSet::new();
            let mut first = true;
            while let Some(key) = r.next_key(&mut first)? {
                if seen.contains(&key) {
                    return Err(r.data_error(key.into_owned()));
                }
                walk(r, depth - 1).map_err(|e| e.in_key(&key))?;
                seen.insert(key);
            }
            Ok(())
        }
        Next::Array => {
            r.begin_array("an array")?;
            let mut first = true;
            let mut index = 0;
            while r.next_element(&mut first)? {
                walk(r, depth - 1).map_err(|e| e.in_index(index))?;
                index += 1;
            }
            Ok(())
        }
        _ => r.skip(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repeated(text: &str) -> Option<(String, String)> {
        repeated_key(text.as_bytes())
            .unwrap()
            .map(|r| (r.path, r.key))
    }

    #[test]
    fn the_first_repeated_key_is_named_with_its_objects_path() {
        let cases = [
            (r#"{"a":1,"a":2}"#, "", "a"),
            (
                r#"[{"Transfer":{"deposit":"1","deposit":"2"}}]"#,
                "[0].Transfer",
                "deposit",
            ),
            (r#"{"x":[1,{"y":{"z":0,"z":0}}]}"#, "x[1].y", "z"),
            // Compared unescaped.
            (r#"{"key":1, "k\u0065y":2}"#, "", "key"),
            (r#"{ "a" : { } , "b" : [ ] , "a" : null }"#, "", "a"),
            // In document order: the inner repeat comes first.
            (r#"{"a":{"b":1,"b":2},"a":3}"#, "a", "b"),
        ];
        for (text, path, key) in cases {
            assert_eq!(
                repeated(text),
                Some((path.to_owned(), key.to_owned())),
                "{text}"
            );
        }
        let err = check_unique_keys(br#"{"a":[{"b\n":1,"b\n":2}]}"#).unwrap_err();
        assert_eq!(err.to_string(), r#"at a[0]: key "b\n" repeated"#);
    }

    #[test]
    fn the_same_key_in_different_objects_is_fine() {
        for text in [
            r#"{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}"#,
            r#"[{"deposit":"1"},{"deposit":"2"}]"#,
            r#"{"A":1,"a":2}"#,
            "[]",
            "17",
            r#""text""#,
            r#"{"a":"{\"a\":1,\"a\":2}"}"#,
        ] {
            assert_eq!(repeated(text), None, "{text}");
        }
    }

    #[test]
    fn text_that_is_not_json_gets_serde_jsons_syntax_error() {
        for text in [r#"{"a":1,"a""#, "[1,", "{} x", "", r#"{"a" 1}"#] {
            let ours = check_unique_keys(text.as_bytes()).unwrap_err();
            let theirs = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
            assert_eq!(ours.to_string(), theirs.to_string(), "{text:?}");
        }
        // As deep as serde_json goes, and no deeper (never the stack's limit).
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(check_unique_keys(nested(MAX_SKIP_DEPTH).as_bytes()).is_ok());
        let deep = nested(100_000);
        let err = check_unique_keys(deep.as_bytes()).unwrap_err();
        assert!(err.message().contains("recursion limit"), "{err}");
    }
}
