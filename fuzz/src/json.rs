//! A JSON tree that keeps what `serde_json::Value` loses: key order, duplicate keys and
//! the exact text of numbers. Mutations work on it, then it is written back to bytes.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// A JSON document, or a fragment of raw text standing for one.
#[derive(Clone, Debug)]
pub enum J {
    Null,
    Bool(bool),
    Str(String),
    Arr(Vec<J>),
    /// Entries in document order; keys may repeat.
    Obj(Vec<(String, J)>),
    /// Text written as is: numbers (kept exactly), and fragments that need not be valid
    /// JSON (huge numbers, deep nesting, stray tokens). A leaf, so deeply nested raw text
    /// never recurses in this crate.
    Raw(String),
}

impl J {
    /// Parses a document; `None` when it is not JSON (or nests deeper than serde_json's
    /// recursion limit).
    pub fn parse(bytes: &[u8]) -> Option<J> {
        serde_json::from_slice(bytes).ok()
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            J::Null => out.extend_from_slice(b"null"),
            J::Bool(true) => out.extend_from_slice(b"true"),
            J::Bool(false) => out.extend_from_slice(b"false"),
            J::Str(s) => write_str(s, out),
            J::Raw(raw) => out.extend_from_slice(raw.as_bytes()),
            J::Arr(items) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    item.write(out);
                }
                out.push(b']');
            }
            J::Obj(entries) => {
                out.push(b'{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write_str(key, out);
                    out.push(b':');
                    value.write(out);
                }
                out.push(b'}');
            }
        }
    }

    /// Number of nodes (this one included).
    pub fn count(&self) -> usize {
        1 + match self {
            J::Arr(items) => items.iter().map(J::count).sum(),
            J::Obj(entries) => entries.iter().map(|(_, v)| v.count()).sum(),
            _ => 0,
        }
    }

    /// The `n`th node in pre-order (0 is this one).
    pub fn nth_mut(&mut self, n: usize) -> Option<&mut J> {
        let mut n = n;
        self.nth_mut_inner(&mut n)
    }

    fn nth_mut_inner(&mut self, n: &mut usize) -> Option<&mut J> {
        if *n == 0 {
            return Some(self);
        }
        *n -= 1;
        match self {
            J::Arr(items) => items.iter_mut().find_map(|item| item.nth_mut_inner(n)),
            J::Obj(entries) => entries.iter_mut().find_map(|(_, v)| v.nth_mut_inner(n)),
            _ => None,
        }
    }

    /// Calls `f` on every node, with the key it sits under in its object, if any.
    pub fn walk<'a>(&'a self, key: Option<&'a str>, f: &mut impl FnMut(Option<&'a str>, &'a J)) {
        f(key, self);
        match self {
            J::Arr(items) => items.iter().for_each(|item| item.walk(None, f)),
            J::Obj(entries) => entries.iter().for_each(|(k, v)| v.walk(Some(k), f)),
            _ => {}
        }
    }
}

fn write_str(s: &str, out: &mut Vec<u8>) {
    serde_json::to_writer(&mut *out, s).expect("writing a string to a Vec cannot fail");
}

impl<'de> Deserialize<'de> for J {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<J, D::Error> {
        deserializer.deserialize_any(JVisitor)
    }
}

struct JVisitor;

impl<'de> Visitor<'de> for JVisitor {
    type Value = J;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON")
    }
    fn visit_unit<E: de::Error>(self) -> Result<J, E> {
        Ok(J::Null)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<J, E> {
        Ok(J::Bool(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<J, E> {
        Ok(J::Raw(v.to_string()))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<J, E> {
        Ok(J::Raw(v.to_string()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<J, E> {
        // serde_json's own float formatting: shortest round-trip text, always valid JSON.
        Ok(J::Raw(
            serde_json::to_string(&v).unwrap_or_else(|_| "0".to_owned()),
        ))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<J, E> {
        Ok(J::Str(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<J, E> {
        Ok(J::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<J, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(J::Arr(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<J, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry::<String, J>()? {
            entries.push(entry);
        }
        Ok(J::Obj(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::J;

    #[test]
    fn keeps_order_duplicates_and_number_text() {
        let text = br#"{"b":1,"a":[true,null,"x\n"],"b":-2.5,"n":18446744073709551615}"#;
        let j = J::parse(text).unwrap();
        assert_eq!(j.to_bytes(), text.to_vec());
        assert_eq!(j.count(), 8);
    }
}
