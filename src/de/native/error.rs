//! The native decoders' error: a message, the byte offset where the reader stopped, and
//! the JSON path, collected segment by segment as the error travels up (so that success
//! pays nothing for it).

use crate::de::error::DecodeError;
use crate::de::paths::{render, Segment};

/// A failure of a native decoder. Boxed: `Result<T, Error>` stays one pointer wide on the
/// error side, which keeps the hot path's returns small.
#[derive(Debug)]
pub struct Error(Box<Inner>);

#[derive(Debug)]
struct Inner {
    message: String,
    offset: usize,
    /// Innermost first.
    path: Vec<Segment>,
    /// Not JSON at all: reported without a path, as serde_json's syntax errors are.
    syntax: bool,
}

impl Error {
    /// A failure at byte `offset`.
    pub fn new(message: String, offset: usize) -> Self {
        Error(Box::new(Inner {
            message,
            offset,
            path: Vec::new(),
            syntax: false,
        }))
    }

    /// Whether the text is not JSON (rather than JSON of the wrong shape).
    pub fn is_syntax(&self) -> bool {
        self.0.syntax
    }

    /// The text is not JSON at byte `offset`.
    pub fn syntax(message: String, offset: usize) -> Self {
        let mut error = Error::new(message, offset);
        error.0.syntax = true;
        error
    }

    /// Says the failure happened inside field `key` of an object.
    #[cold]
    pub fn in_key(mut self, key: &str) -> Self {
        self.0.path.push(Segment::Key(key.to_owned()));
        self
    }

    /// Says the failure happened inside element `index` of an array.
    #[cold]
    pub fn in_index(mut self, index: usize) -> Self {
        self.0.path.push(Segment::Index(index));
        self
    }

    /// The message, without path or position.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The path, `a.b[2].c`, empty for the root.
    pub fn path(&self) -> String {
        render(&self.0.path)
    }

    /// The public error, with serde_json's line and column of the failure in `bytes`.
    pub fn into_decode_error(self, bytes: &[u8]) -> DecodeError {
        let path = if self.0.syntax {
            String::new()
        } else {
            self.path()
        };
        let (line, column) = line_and_column(bytes, self.0.offset);
        let message = format!("{} at line {line} column {column}", self.0.message);
        DecodeError::new(path, message)
    }
}

/// A serde_json message without its " at line L column C" (the native error adds its own).
pub fn without_position(message: &str) -> &str {
    message.split(" at line ").next().unwrap_or_default()
}

/// The 1-based line and column of byte `offset`, counted as serde_json counts them.
fn line_and_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = match before.iter().rposition(|&b| b == b'\n') {
        Some(newline) => before.len() - newline,
        None => before.len() + 1,
    };
    (line, column)
}
