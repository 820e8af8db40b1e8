//! Stage 1: read the document and check that it is the one we expect.

use std::path::Path;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::Error;

/// The pinned spec the checked-in bindings come from (`spec/SOURCE.toml`).
pub const PINNED_SOURCE: &str = include_str!("../../spec/SOURCE.toml");

/// A parsed spec document plus what identifies it.
#[derive(Debug, Clone)]
pub struct Spec {
    /// `info.version` of the document.
    pub version: String,
    /// Lower-case hex sha256 of the exact bytes read.
    pub sha256: String,
    /// The whole document.
    pub document: Value,
}

/// One `key = "value"` entry of `spec/SOURCE.toml`.
///
/// The file is flat and written by us, so a full TOML parser is not worth a dependency.
pub fn pinned(key: &str) -> Option<&'static str> {
    PINNED_SOURCE.lines().find_map(|line| {
        let (k, v) = line.split_once('=')?;
        (k.trim() == key).then(|| v.trim().trim_matches('"'))
    })
}

/// Reads a spec file (see [`parse`]).
pub fn load(path: &Path) -> Result<Spec, Error> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::new(format!("cannot read spec {}: {e}", path.display())))?;
    parse(&bytes)
}

/// Parses a spec and verifies its sha256.
///
/// The version this crate ships (`spec/SOURCE.toml`) must match its pinned sha256 exactly,
/// so that checked-in bindings can't silently come from a different document. Other
/// versions are accepted (users generate them to compare APIs) and their hash is recorded
/// in the generated headers.
pub fn parse(bytes: &[u8]) -> Result<Spec, Error> {
    let sha256 = hex(&Sha256::digest(bytes));
    let document: Value = serde_json::from_slice(bytes)
        .map_err(|e| Error::new(format!("spec is not valid JSON: {e}")))?;
    let version = document
        .pointer("/info/version")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::new("spec has no info.version"))?
        .to_owned();
    if Some(version.as_str()) == pinned("version") {
        let expected = pinned("sha256").unwrap_or_default();
        if sha256 != expected {
            return Err(Error::new(format!(
                "spec {version} has sha256 {sha256}, but spec/SOURCE.toml pins {expected}"
            )));
        }
    }
    for key in ["paths", "components"] {
        if !document.get(key).is_some_and(Value::is_object) {
            return Err(Error::new(format!("spec has no `{key}` object")));
        }
    }
    Ok(Spec {
        version,
        sha256,
        document,
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
