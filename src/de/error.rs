//! The public decoding error, [`DecodeError`] (`near_rpc::decode::DecodeError`), and the
//! syntax check a failed decode runs first. Below both ways of decoding that produce
//! it: the native decoder (`native`) and the serde-facing entry points (`decode`).

use std::fmt;

/// A decoding failure: where it happened and what went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub(super) path: String,
    pub(super) message: String,
}

impl DecodeError {
    /// Builds an error from a path (may be empty) and a message.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        DecodeError {
            path: path.into(),
            message: message.into(),
        }
    }

    /// The JSON path of the failing value, such as
    /// `result.receipts_outcome[3].outcome.status`; empty for the document root.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at {}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for DecodeError {}

/// The syntax error of a document that is not JSON, if it is not: what a decoder that
/// stopped at a type error would otherwise hide. Run on failures only.
pub(crate) fn syntax_error(bytes: &[u8]) -> Option<DecodeError> {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
        .err()
        .map(|e| DecodeError::new("", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_and_display() {
        let e = DecodeError::new("a.b", "boom");
        assert_eq!(e.to_string(), "at a.b: boom");
        assert_eq!(DecodeError::new("", "boom").to_string(), "boom");
    }

    #[test]
    fn syntax_error_only_for_text_that_is_not_json() {
        assert_eq!(syntax_error(br#"{"a": [1, "x"]}"#), None);
        let e = syntax_error(b"[1,").expect("not JSON");
        assert_eq!(e.path(), "");
        assert!(e.message().contains("EOF"), "{e}");
    }
}
