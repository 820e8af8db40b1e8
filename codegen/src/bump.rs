//! `near-rpc-codegen bump NEW.json`: ships a new spec version in one step. It generates
//! the version's bindings beside the others (`generated/vX_Y_Z/`), pins it in
//! `spec/SOURCE.toml`, adds its cargo feature and points `latest` at it, prepends the
//! semver-classed diff against the previous version to `CHANGELOG.md`, and says which
//! crate version the diff implies. The tree is left so that `generate --check` and the
//! tests pass.

use std::path::{Path, PathBuf};

use crate::diff::ApiDiff;
use crate::error::Error;
use crate::load::{self, module_name};

/// What a bump did.
#[derive(Debug)]
pub struct Bumped {
    /// The new spec version.
    pub version: String,
    /// The version it follows (the latest shipped before).
    pub previous: String,
    /// Where its bindings were written.
    pub generated: PathBuf,
    /// The diff from the previous version.
    pub diff: ApiDiff,
    /// The crate's version now, and the one the diff implies.
    pub crate_version: (String, String),
}

impl Bumped {
    /// What to tell the user.
    pub fn report(&self) -> String {
        let (now, next) = &self.crate_version;
        let why = match self.diff.counts() {
            (0, 0, _) => "no API change",
            (0, _, _) => "additive changes only: a patch release",
            _ => "breaking changes: a minor release before 1.0, a major one after",
        };
        format!(
            "spec {} shipped after {} (bindings in {}; feature {}; `latest` moved)\n{}\n\
             CHANGELOG.md: section prepended\ncrate version: {now} → {next} ({why})",
            self.version,
            self.previous,
            self.generated.display(),
            module_name(&self.version),
            self.diff.summary(),
        )
    }
}

/// Ships `spec` in the repository at `root`: the previous version is read from
/// `previous`, or as shipped from beside `spec` (`openapi-PREV.json`, merged with
/// `openrpc-PREV.json` when `spec/SOURCE.toml` pins one); `commit` is the nearcore commit
/// the document comes from, when known.
pub fn bump(
    root: &Path,
    spec: &Path,
    previous: Option<&Path>,
    commit: Option<&str>,
) -> Result<Bumped, Error> {
    let bytes = read(spec)?;
    let new = load::parse(&bytes)?;
    if new.documents[0].format != load::Format::OpenApi {
        return Err(Error::new(
            "bump takes the new version's OpenAPI document; pin its OpenRPC document beside \
             it in spec/SOURCE.toml (`openrpc = ...`) and regenerate",
        ));
    }
    let pins = read_pins(root)?;
    if pins.iter().any(|(version, _)| *version == new.version) {
        return Err(Error::new(format!(
            "spec {} is shipped already",
            new.version
        )));
    }
    let (previous_version, _) = pins
        .last()
        .cloned()
        .ok_or_else(|| Error::new("spec/SOURCE.toml ships no version"))?;
    // A document whose version is not X.Y.Z was derived, not published by nearcore: it
    // lives in a folder of its own beside the spec directory (`spec-derived`), which its
    // pin records.
    let dir = spec.parent().unwrap_or(Path::new("."));
    let derived = !is_release_version(&new.version);
    let folder = derived
        .then(|| dir.file_name().and_then(|n| n.to_str()))
        .flatten();
    let spec_dir = match folder {
        Some(_) => dir.parent().unwrap_or(Path::new(".")).join("spec"),
        None => dir.to_path_buf(),
    };
    // The previous version as shipped: its OpenAPI document in the spec directory (or
    // its own folder), merged with its pinned OpenRPC document, so that the diff is what
    // users of the bindings see.
    let previous_paths = match previous {
        Some(path) => vec![path.to_owned()],
        None => load::shipped_documents(&spec_dir, &previous_version),
    };
    let previous_paths: Vec<&Path> = previous_paths.iter().map(|p| p.as_path()).collect();
    let old_api = crate::api_from_spec(load::load(&previous_paths, None)?)?;
    let new_api = crate::api_from_bytes(&bytes)?;
    let diff = crate::diff::diff(&old_api, &new_api);

    let files = crate::generate_from_bytes(&bytes)?;
    let generated = root.join("generated").join(module_name(&new.version));
    crate::write::write(&generated, &files)?;

    let commit = commit.unwrap_or("unrecorded");
    let entry = format!(
        "{} {commit} {}{}",
        new.version,
        new.documents[0].sha256,
        folder.map(|f| format!(" {f}")).unwrap_or_default()
    );
    edit(&root.join("spec/SOURCE.toml"), |text| {
        add_shipped(text, &entry)
    })?;
    let feature = module_name(&new.version);
    let crate_version = edit_manifest(root, &module_name(&previous_version), &feature)?;
    edit(&root.join("CHANGELOG.md"), |text| {
        Ok(prepend_section(text, &diff.to_markdown()))
    })?;
    let next = implied_version(&crate_version, &diff)?;
    Ok(Bumped {
        version: new.version,
        previous: previous_version,
        generated,
        diff,
        crate_version: (crate_version, next),
    })
}

/// Whether `version` is a nearcore release's document version (`X.Y.Z`), not a derived
/// one (`nearcore-0.38.0`).
fn is_release_version(version: &str) -> bool {
    let parts: Vec<&str> = version.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The crate version a diff calls for: breaking → the next minor before 1.0 (the next
/// major after), anything else → the next patch.
pub fn implied_version(current: &str, diff: &ApiDiff) -> Result<String, Error> {
    let parts: Vec<u64> = current
        .split('.')
        .map(|p| p.parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|_| Error::new(format!("crate version {current:?} is not X.Y.Z")))?;
    let [major, minor, patch] = parts[..] else {
        return Err(Error::new(format!(
            "crate version {current:?} is not X.Y.Z"
        )));
    };
    let (breaking, _, _) = diff.counts();
    Ok(match (breaking > 0, major) {
        (true, 0) => format!("0.{}.0", minor + 1),
        (true, _) => format!("{}.0.0", major + 1),
        (false, _) => format!("{major}.{minor}.{}", patch + 1),
    })
}

/// `(version, sha256)` of every `shipped` entry of the tree's `spec/SOURCE.toml`.
fn read_pins(root: &Path) -> Result<Vec<(String, String)>, Error> {
    let text = std::fs::read_to_string(root.join("spec/SOURCE.toml"))
        .map_err(|e| Error::new(format!("spec/SOURCE.toml: {e}")))?;
    let source = load::source::parse(&text).map_err(Error::new)?;
    Ok(source
        .shipped
        .iter()
        .filter_map(|entry| load::source::Pin::of(entry))
        .map(|pin| (pin.version.to_owned(), pin.sha256.to_owned()))
        .collect())
}

/// `text` (`spec/SOURCE.toml`) with `entry` last in its `shipped` array (the file's one
/// layout: the array opens on its key's line and closes on a line of its own).
fn add_shipped(text: &str, entry: &str) -> Result<String, Error> {
    let start = text
        .find("\nshipped = [")
        .ok_or_else(|| Error::new("spec/SOURCE.toml has no `shipped = [` array"))?;
    let end = text[start + 1..]
        .find("\n]")
        .map(|at| start + 1 + at + 1)
        .ok_or_else(|| Error::new("spec/SOURCE.toml: the `shipped` array is not closed"))?;
    // The entry before may lack its trailing comma.
    let before = text[..end].trim_end_matches('\n');
    let comma = if before.ends_with(',') || before.ends_with('[') {
        ""
    } else {
        ","
    };
    Ok(format!(
        "{before}{comma}\n    \"{entry}\",\n{}",
        &text[end..]
    ))
}

/// Adds `feature = []` after the previous version's feature and points `latest` at it;
/// returns the package version.
fn edit_manifest(root: &Path, previous: &str, feature: &str) -> Result<String, Error> {
    let path = root.join("Cargo.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
    let anchor = format!("{previous} = []\n");
    let at = text.find(&anchor).ok_or_else(|| {
        Error::new(format!(
            "Cargo.toml has no `{previous} = []` feature to follow"
        ))
    })? + anchor.len();
    let mut edited = format!("{}{feature} = []\n{}", &text[..at], &text[at..]);
    let latest = format!("latest = [\"{previous}\"]");
    if !edited.contains(&latest) {
        return Err(Error::new(format!("Cargo.toml has no `{latest}`")));
    }
    edited = edited.replace(&latest, &format!("latest = [\"{feature}\"]"));
    let version = edited
        .lines()
        .skip_while(|l| l.trim() != "[package]")
        .find_map(|l| l.strip_prefix("version = "))
        .map(|v| v.trim_matches('"').to_owned())
        .ok_or_else(|| Error::new("Cargo.toml has no package version"))?;
    std::fs::write(&path, edited).map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
    Ok(version)
}

/// `section` inserted before the first `## ` heading (the newest first).
fn prepend_section(changelog: &str, section: &str) -> String {
    match changelog.find("\n## ") {
        Some(at) => format!("{}{section}{}", &changelog[..=at], &changelog[at..]),
        None => format!("{}\n{section}", with_newline(changelog)),
    }
}

fn with_newline(text: &str) -> String {
    if text.is_empty() || text.ends_with('\n') {
        text.to_owned()
    } else {
        format!("{text}\n")
    }
}

fn read(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|e| Error::new(format!("cannot read {}: {e}", path.display())))
}

fn edit(path: &Path, change: impl FnOnce(&str) -> Result<String, Error>) -> Result<(), Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
    std::fs::write(path, change(&text)?).map_err(|e| Error::new(format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shipped_entry_goes_last_in_its_array() {
        for last in ["\"b\",", "\"b\""] {
            let text = format!(
                "default = \"a\"\nshipped = [\n    \"a\",\n    {last}\n]\nopenrpc = [\n]\n"
            );
            let added = add_shipped(&text, "c 1 2").unwrap();
            let source = load::source::parse(&added).unwrap();
            assert_eq!(source.shipped, ["a", "b", "c 1 2"], "{added}");
            assert!(source.openrpc.is_empty());
        }
        assert!(is_release_version("1.2.11"));
        assert!(!is_release_version("nearcore-0.38.0"));
        assert!(!is_release_version("1.2"));
    }

    #[test]
    fn sections_go_first_and_versions_follow_semver() {
        let log = "# Changelog\n\nintro\n\n## Spec 1.0 → 1.1\n\nold\n";
        let new = prepend_section(log, "## Spec 1.1 → 1.2\n\nnew\n");
        assert!(new.starts_with("# Changelog\n\nintro\n\n## Spec 1.1 → 1.2\n\nnew\n\n## Spec 1.0"));
        let diff = |breaking: bool| ApiDiff {
            old_version: "a".into(),
            new_version: "b".into(),
            changes: vec![crate::diff::Change {
                severity: if breaking {
                    crate::diff::Severity::Breaking
                } else {
                    crate::diff::Severity::Additive
                },
                item: "type",
                name: "X".into(),
                description: "y".into(),
            }],
        };
        assert_eq!(implied_version("0.1.0", &diff(true)).unwrap(), "0.2.0");
        assert_eq!(implied_version("0.1.3", &diff(false)).unwrap(), "0.1.4");
        assert_eq!(implied_version("1.4.2", &diff(true)).unwrap(), "2.0.0");
        assert!(implied_version("1.x", &diff(true)).is_err());
    }
}
