//! Stage 1: read the document and check that it is the one we expect.

use std::path::Path;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::Error;

/// The pinned specs the checked-in bindings come from (`spec/SOURCE.toml`).
pub const PINNED_SOURCE: &str = include_str!("../../spec/SOURCE.toml");

/// One shipped spec version, as `spec/SOURCE.toml` pins it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pin {
    /// `info.version` (`1.2.6`).
    pub version: &'static str,
    /// The nearcore commit it comes from.
    pub commit: &'static str,
    /// sha256 of its exact bytes.
    pub sha256: &'static str,
}

impl Pin {
    /// The directory under `generated/` and the cargo feature: `v1_2_6`.
    pub fn module(&self) -> String {
        module_name(self.version)
    }
}

/// `1.2.6` → `v1_2_6`: the directory under `generated/` and the cargo feature.
pub fn module_name(version: &str) -> String {
    format!("v{}", version.replace('.', "_"))
}

/// Every shipped version, oldest first.
pub fn shipped() -> Vec<Pin> {
    entries("shipped")
        .filter_map(|entry| {
            let mut parts = entry.split_whitespace();
            Some(Pin {
                version: parts.next()?,
                commit: parts.next()?,
                sha256: parts.next()?,
            })
        })
        .collect()
}

/// The version built without a version feature.
pub fn default_version() -> &'static str {
    pinned("default").unwrap_or_default()
}

/// The pin of `version`, when it is shipped.
pub fn pin(version: &str) -> Option<Pin> {
    shipped().into_iter().find(|p| p.version == version)
}

fn entries(key: &'static str) -> impl Iterator<Item = &'static str> {
    PINNED_SOURCE.lines().filter_map(move |line| {
        let (k, v) = line.split_once('=')?;
        (k.trim() == key).then(|| v.trim().trim_matches('"'))
    })
}

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
pub fn pinned(key: &'static str) -> Option<&'static str> {
    entries(key).next()
}

/// Reads a spec file (see [`parse`]).
pub fn load(path: &Path) -> Result<Spec, Error> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::new(format!("cannot read spec {}: {e}", path.display())))?;
    parse(&bytes)
}

/// Parses a spec and verifies its sha256.
///
/// The versions this crate ships (`spec/SOURCE.toml`) must match their pinned sha256
/// exactly, so that checked-in bindings can't silently come from a different document.
/// Other versions are accepted (users generate them to compare APIs, `bump` adds them)
/// and their hash is recorded in the generated headers.
pub fn parse(bytes: &[u8]) -> Result<Spec, Error> {
    let sha256 = hex(&Sha256::digest(bytes));
    let document: Value = serde_json::from_slice(bytes)
        .map_err(|e| Error::new(format!("spec is not valid JSON: {e}")))?;
    let version = document
        .pointer("/info/version")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::new("spec has no info.version"))?
        .to_owned();
    if let Some(pin) = pin(&version) {
        let expected = pin.sha256;
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
