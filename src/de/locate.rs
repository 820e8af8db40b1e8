//! The JSON path at a position of a document: how a failure of the streaming decode,
//! which serde_json reports as a line and column, gets its path without decoding the
//! document a second way (a second decoder per type, compiled wherever a type is
//! decoded, would double what decoding costs to compile).
//!
//! serde_json reports a failure where it stopped reading: just after a scalar it could not
//! use (a wrong type, a bad hash), on the `{` or `[` of a value of the wrong kind, just
//! after the key of an unknown variant, or just after the `}` of an object missing a
//! field (serde_json reads the end of a container before reporting what it lacks). The
//! path is the value read last if the position is just after it, else the value about to
//! be read, else the innermost open container. Two exceptions: a container that failed
//! as soon as it opened (a struct given an array) is the container; and a failure inside
//! a value that was buffered before decoding (open enums, untagged shapes) reaches
//! serde_json only once the value is read, and is placed just after it, after the next
//! `,`, or after the end of the container around it: the culprit is whichever of those
//! values is the buffered one.

/// One open container, and where in it the scan stands.
enum Frame {
    Object {
        /// Where its `{` is.
        start: usize,
        /// The key read last in this object (its quoted text), once it is known.
        key: Option<Span>,
        /// Whether the key's `:` has been read (its value comes next).
        colon: bool,
    },
    Array {
        /// Where its `[` is.
        start: usize,
        /// The index of the current element.
        index: usize,
        /// Whether a `,` or the `[` was the last thing read (an element comes next).
        expecting: bool,
    },
}

/// Where a value (or a key) is in the document.
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
}

/// Where a scan of the document up to a position stands. Nothing is allocated per value
/// (paths are rendered once, at the end): a failure near the end of a large body costs
/// one pass over it.
struct Scan {
    stack: Vec<Frame>,
    /// The last complete value, and for a container, the last value inside it.
    last: Option<(Span, Option<Span>)>,
    /// The position just after the last `{` or `[`.
    opened: Option<usize>,
}

fn scan(doc: &[u8], offset: usize) -> Scan {
    let mut scan = Scan {
        stack: Vec::new(),
        last: None,
        opened: None,
    };
    let stack = &mut scan.stack;
    let mut i = 0;
    while i < offset {
        match doc[i] {
            b'{' => {
                stack.push(Frame::Object {
                    start: i,
                    key: None,
                    colon: false,
                });
                i += 1;
                scan.opened = Some(i);
            }
            b'[' => {
                stack.push(Frame::Array {
                    start: i,
                    index: 0,
                    expecting: true,
                });
                i += 1;
                scan.opened = Some(i);
            }
            b'}' | b']' => {
                let inner = scan.last.take().map(|(span, _)| span);
                let start = match stack.pop() {
                    Some(Frame::Object { start, .. } | Frame::Array { start, .. }) => start,
                    None => i,
                };
                i += 1;
                scan.last = Some((Span { start, end: i }, inner));
                value_done(stack);
            }
            b':' => {
                if let Some(Frame::Object { colon, .. }) = stack.last_mut() {
                    *colon = true;
                }
                i += 1;
            }
            b',' => {
                match stack.last_mut() {
                    Some(Frame::Object { key, colon, .. }) => {
                        *key = None;
                        *colon = false;
                    }
                    Some(Frame::Array {
                        index, expecting, ..
                    }) => {
                        *index += 1;
                        *expecting = true;
                    }
                    None => {}
                }
                i += 1;
            }
            b'"' => {
                let span = Span {
                    start: i,
                    end: string_end(doc, i),
                };
                match stack.last_mut() {
                    Some(Frame::Object {
                        key, colon: false, ..
                    }) => *key = Some(span),
                    _ => {
                        scan.last = Some((span, None));
                        value_done(stack);
                    }
                }
                i = span.end;
            }
            b if b.is_ascii_whitespace() => i += 1,
            _ => {
                // A number, `true`, `false` or `null`.
                let start = i;
                while i < doc.len() && !b",:]} \t\r\n".contains(&doc[i]) {
                    i += 1;
                }
                if i > start {
                    scan.last = Some((Span { start, end: i }, None));
                    value_done(stack);
                } else {
                    i += 1;
                }
            }
        }
    }
    scan
}

/// The path of the value at byte `offset` of `doc`, written like
/// [`DecodeError::path`](crate::decode::DecodeError::path): `result.receipts[3].outcome`.
/// `buffered`: the failure was inside this value, buffered before decoding (see the module
/// docs).
pub fn path_at(doc: &[u8], offset: usize, buffered: Option<&serde_json::Value>) -> String {
    let offset = offset.min(doc.len());
    let Scan {
        stack,
        last,
        opened,
    } = scan(doc, offset);
    let just_after = |end: usize| {
        doc[end.min(offset)..offset]
            .iter()
            .all(u8::is_ascii_whitespace)
    };
    // A container that failed as it opened (serde_derive's structs read `[`, then refuse
    // it) is that container; unless a container comes next: then it is the value that
    // failed before being read, the first of the one just opened.
    let next = doc[offset..].iter().find(|b| !b.is_ascii_whitespace());
    if opened.is_some_and(just_after) && !matches!(next, Some(b'[' | b'{')) {
        return render(doc, &stack, Member::None);
    }
    match (last, buffered) {
        (Some((last, inner)), Some(value)) => {
            // The buffered value is, or is inside (a struct serde buffered itself for its
            // flattened fields, say), the last value inside the container that just
            // ended, or the value read last.
            let find = |span: Span| {
                let read: serde_json::Value =
                    serde_json::from_slice(&doc[span.start..span.end]).ok()?;
                let mut path = path_of(doc, span);
                find_within(&read, value, &mut path).then_some(path)
            };
            inner
                .filter(|_| just_after(last.end))
                .and_then(find)
                .or_else(|| find(last))
                .unwrap_or_else(|| render(doc, &stack, Member::Next))
        }
        // Just after a value (whitespace aside): that value.
        (Some((last, _)), None) if just_after(last.end) => path_of(doc, last),
        // Before a value (its key and `:`, or its array slot, read): the value about to be
        // read; otherwise the container itself.
        _ => render(doc, &stack, Member::Next),
    }
}

/// The path of a value the scan read: where the scan stood just after it.
fn path_of(doc: &[u8], value: Span) -> String {
    render(doc, &scan(doc, value.end).stack, Member::Last)
}

/// Whether `target` is `value` or inside it; if so, `path` is extended to it (first in
/// document order). An object matches when it has all of `target`'s members: a struct
/// with flattened fields hands its enum only the members it does not read itself.
fn find_within(value: &serde_json::Value, target: &serde_json::Value, path: &mut String) -> bool {
    let matches = match (value, target) {
        (serde_json::Value::Object(have), serde_json::Value::Object(want)) if !want.is_empty() => {
            want.iter().all(|(k, v)| have.get(k) == Some(v))
        }
        _ => value == target,
    };
    if matches {
        return true;
    }
    let before = path.len();
    let found = match value {
        serde_json::Value::Object(map) => map.iter().any(|(key, v)| {
            path.truncate(before);
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(key);
            find_within(v, target, path)
        }),
        serde_json::Value::Array(items) => items.iter().enumerate().any(|(i, v)| {
            path.truncate(before);
            path.push_str(&format!("[{i}]"));
            find_within(v, target, path)
        }),
        _ => false,
    };
    if !found {
        path.truncate(before);
    }
    found
}

/// The current value of the innermost container is complete.
fn value_done(stack: &mut [Frame]) {
    if let Some(Frame::Array { expecting, .. }) = stack.last_mut() {
        *expecting = false;
    }
}

/// Which member of the innermost container a path ends with.
#[derive(Clone, Copy, PartialEq)]
enum Member {
    /// The one just read.
    Last,
    /// The one about to be read, if the scan stands before one.
    Next,
    /// None: the container itself.
    None,
}

/// The path of the innermost container, extended by its member as `member` says.
fn render(doc: &[u8], stack: &[Frame], member: Member) -> String {
    let mut path = String::new();
    for (depth, frame) in stack.iter().enumerate() {
        let outer = depth + 1 < stack.len();
        match frame {
            Frame::Object {
                key: Some(key),
                colon,
                ..
            } if outer || member == Member::Last || (member == Member::Next && *colon) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(&unescape(&doc[key.start..key.end]));
            }
            Frame::Array {
                index, expecting, ..
            } if outer || member == Member::Last || (member == Member::Next && *expecting) => {
                path.push_str(&format!("[{index}]"));
            }
            _ => {}
        }
    }
    path
}

/// The position just after the string starting at `start` (its opening quote), or the
/// end of the document.
fn string_end(doc: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < doc.len() {
        match doc[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    doc.len()
}

/// A key's text: its escapes read when it has any (rare in keys).
fn unescape(quoted: &[u8]) -> String {
    serde_json::from_slice::<String>(quoted).unwrap_or_else(|_| {
        String::from_utf8_lossy(quoted.get(1..quoted.len().saturating_sub(1)).unwrap_or(b""))
            .into_owned()
    })
}

/// The byte offset of serde_json's (1-based) `line` and `column`: serde_json counts the
/// column in bytes from the start of the line, up to where it stopped reading.
pub fn offset_of(doc: &[u8], line: usize, column: usize) -> usize {
    let line_start = if line <= 1 {
        0
    } else {
        doc.iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(line - 2)
            .map_or(doc.len(), |(at, _)| at + 1)
    };
    line_start.saturating_add(column).min(doc.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at(doc: &str, marker: &str) -> String {
        let offset = doc.find(marker).expect("marker") + marker.len();
        path_at(doc.as_bytes(), offset, None)
    }

    #[test]
    fn after_a_value_is_that_value() {
        let doc = r#"{"a":[{"b":1},{"b":"x"}],"c":2}"#;
        assert_eq!(at(doc, r#""x""#), "a[1].b");
        assert_eq!(at(doc, r#"{"b":1"#), "a[0].b");
        assert_eq!(at(doc, r#""c":2"#), "c");
        assert_eq!(at(doc, r#"{"b":1}"#), "a[0]");
        assert_eq!(at(doc, r#""x"}]"#), "a");
    }

    #[test]
    fn before_a_value_is_the_value_to_come() {
        let doc = r#"{"a":{"b":[1,{"c":true}]}}"#;
        assert_eq!(at(doc, r#""a":"#), "a");
        assert_eq!(at(doc, r#""b":[1,"#), "a.b[1]");
        // Just after the `[`: the array failed as it opened.
        assert_eq!(at(doc, r#""b":["#), "a.b");
    }

    #[test]
    fn after_a_closing_brace_is_the_object() {
        // Where serde_json reports a missing field: just after the object's `}`.
        let doc = r#"{"a":{"b":1}}"#;
        assert_eq!(at(doc, "1}"), "a");
        assert_eq!(at(doc, "1"), "a.b");
        assert_eq!(path_at(doc.as_bytes(), 0, None), "");
    }

    #[test]
    fn after_a_key_without_its_colon_is_the_object() {
        let doc = r#"{"outer":{"Bogus":{"x":1}}}"#;
        assert_eq!(at(doc, r#""Bogus""#), "outer");
    }

    #[test]
    fn a_container_failing_as_it_opens_is_the_container() {
        let doc = r#"{"a":[[1,2],[3]]}"#;
        assert_eq!(at(doc, r#""a":[[1,2],["#), "a[1]");
        assert_eq!(at(doc, r#""a":[["#), "a[0]");
        // Before a container not read yet: that container.
        assert_eq!(at(doc, r#""a":["#), "a[0]");
    }

    #[test]
    fn a_buffered_failure_is_the_buffered_value_near_the_position() {
        let doc = r#"{"a":[{"x":1}, {"x":2}],"b":{"y":{"z":3}},"c":{"w":4}}"#;
        let after = |marker: &str| doc.find(marker).expect("marker") + marker.len();
        let at = |marker: &str, value: serde_json::Value| {
            path_at(doc.as_bytes(), after(marker), Some(&value))
        };
        // After the `,` that follows it, or the end of its array.
        assert_eq!(at(r#"{"x":1}, "#, json!({"x": 1})), "a[0]");
        assert_eq!(at(r#"{"x":2}]"#, json!({"x": 2})), "a[1]");
        // Just after it (a field before another one), or after the end of its object.
        assert_eq!(at(r#""y":{"z":3}"#, json!({"z": 3})), "b.y");
        assert_eq!(at(r#""y":{"z":3}}"#, json!({"z": 3})), "b.y");
        assert_eq!(at(r#""y":{"z":3}}"#, json!({"y": {"z": 3}})), "b");
        assert_eq!(at(r#""w":4}"#, json!(4)), "c.w");
        // Inside the value read last.
        assert_eq!(at(r#"{"x":2}]"#, json!(2)), "a[1].x");
    }

    #[test]
    fn escapes_and_whitespace() {
        let doc = "{ \"k\\\"ey\" : [ \"a\\\"]\" , 7 ] }";
        assert_eq!(at(doc, "7"), "k\"ey[1]");
        assert_eq!(at(doc, "7 "), "k\"ey[1]");
    }

    /// Whatever the document and position (the scan only ever sees documents serde_json
    /// read up to the failure, but the rest may be anything), no panic.
    #[test]
    fn any_document_and_position() {
        let docs: [&[u8]; 8] = [
            b"",
            b"\"",
            b"{\"a\\",
            b"[[[[",
            b"]]}}",
            b"{\"a\":[1,{\"b\":\"\\\"\"}],\"c\":tru",
            b"\xff\xfe{\"\xc3\":1}",
            b",,::\"\"\"",
        ];
        let value = json!({"b": "\""});
        for doc in docs {
            for offset in 0..doc.len() + 3 {
                path_at(doc, offset, None);
                path_at(doc, offset, Some(&value));
            }
            for line in 0..4 {
                for column in [0, 1, 5, usize::MAX] {
                    assert!(offset_of(doc, line, column) <= doc.len());
                }
            }
        }
    }

    #[test]
    fn offsets_from_lines_and_columns() {
        let doc = b"{\n  \"a\": 1,\n  \"b\": x\n}";
        assert_eq!(offset_of(doc, 1, 1), 1);
        assert_eq!(
            offset_of(doc, 3, 7),
            doc.iter().position(|b| *b == b'x').unwrap()
        );
        assert_eq!(offset_of(doc, 9, 9), doc.len());
    }
}
