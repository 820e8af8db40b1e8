//! Our corrections to the upstream spec, kept as data in `spec/patches/` (one JSON file
//! per correction, each with its reason), the way smithy-rs keeps model fixes.
//!
//! A patch names a JSON pointer into the document and an operation. It applies to every
//! spec version that has the pointed-to value; a version without it is left alone, so the
//! same patches serve when generating older or newer versions.

use serde::Deserialize;
use serde_json::Value;

use crate::error::Error;

/// The patches, compiled in so that the generator needs no files besides the spec.
pub const PATCHES: &[(&str, &str)] = &[
    (
        "version-commit-optional",
        include_str!("../spec/patches/version-commit-optional.json"),
    ),
    (
        "query-legacy-error",
        include_str!("../spec/patches/query-legacy-error.json"),
    ),
];

/// One correction.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Patch {
    /// Why upstream is wrong for real nodes.
    pub reason: String,
    /// JSON pointer to the value the patch changes.
    pub path: String,
    /// What to do there.
    pub op: Op,
    /// The operand of `op`.
    pub value: Value,
}

/// Patch operations.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// Remove `value` from the array at `path` (e.g. make a field optional).
    RemoveItem,
    /// Append `value` to the array at `path`, unless it is there already.
    AddItem,
    /// Replace the value at `path` with `value`.
    Replace,
}

/// Parses every compiled-in patch.
pub fn patches() -> Result<Vec<(&'static str, Patch)>, Error> {
    PATCHES
        .iter()
        .map(|(name, text)| {
            serde_json::from_str(text)
                .map(|p| (*name, p))
                .map_err(|e| Error::new(format!("spec/patches/{name}.json: {e}")))
        })
        .collect()
}

/// Applies the patches that fit this document; returns the names of those applied.
pub fn apply_all(document: &mut Value, _version: &str) -> Result<Vec<&'static str>, Error> {
    let mut applied = Vec::new();
    for (name, patch) in patches()? {
        if apply(document, &patch) {
            applied.push(name);
        }
    }
    Ok(applied)
}

/// Applies one patch; false when the document has nothing for it to change.
pub fn apply(document: &mut Value, patch: &Patch) -> bool {
    let Some(target) = document.pointer_mut(&patch.path) else {
        return false;
    };
    match patch.op {
        Op::RemoveItem => {
            let Some(items) = target.as_array_mut() else {
                return false;
            };
            let before = items.len();
            items.retain(|item| item != &patch.value);
            items.len() != before
        }
        Op::AddItem => {
            let Some(items) = target.as_array_mut() else {
                return false;
            };
            if items.contains(&patch.value) {
                return false;
            }
            items.push(patch.value.clone());
            true
        }
        Op::Replace => {
            *target = patch.value.clone();
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_patch_parses_and_gives_a_reason() {
        for (name, patch) in patches().unwrap() {
            assert!(patch.reason.len() > 20, "{name} needs a real reason");
            assert!(patch.path.starts_with("/components/schemas/"), "{name}");
        }
    }

    #[test]
    fn remove_item_applies_only_where_it_fits() {
        let patch = Patch {
            reason: String::new(),
            path: "/r".into(),
            op: Op::RemoveItem,
            value: json!("commit"),
        };
        let mut doc = json!({"r": ["version", "commit"]});
        assert!(apply(&mut doc, &patch));
        assert_eq!(doc, json!({"r": ["version"]}));
        assert!(!apply(&mut doc, &patch));
        assert!(!apply(&mut json!({}), &patch));
    }
}
