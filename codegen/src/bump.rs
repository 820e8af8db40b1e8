//! `near-rpc-codegen bump NEW.json`: ships a new spec version in one step. It generates
//! the version's bindings beside the others (`generated/vX_Y_Z/`), pins it in
//! `spec/SOURCE.toml`, adds its cargo feature and points `latest` at it, adds the
//! semver-classed diff against the previous version to `CHANGELOG.md` (the newest
//! generated block of the unreleased release), and says which crate version the diff
//! implies. The tree is left so that `generate --check` and the
//! tests pass.

use std::path::{Path, PathBuf};

use crate::diff::{ApiDiff, CHANGELOG_BLOCK};
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
             CHANGELOG.md: its block added to the unreleased release\ncrate version: {now} → {next} ({why})",
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
        Ok(add_to_unreleased(text, &diff.to_changelog()))
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

/// Adds the new version's feature after the previous version's, with the same list (a
/// newer protocol keeps what the previous one needed, e.g. `nearcore_0_38_0`'s ML-DSA-65
/// dependency), and points `latest` at it; returns the package version.
fn edit_manifest(root: &Path, previous: &str, feature: &str) -> Result<String, Error> {
    let path = root.join("Cargo.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
    let anchor = format!("\n{previous} = [");
    let start = text.find(&anchor).ok_or_else(|| {
        Error::new(format!(
            "Cargo.toml has no `{previous} = [...]` feature to follow"
        ))
    })? + 1;
    let end = text[start..]
        .find('\n')
        .map(|at| start + at + 1)
        .ok_or_else(|| Error::new(format!("Cargo.toml: the `{previous}` feature has no end")))?;
    let list = &text[start + previous.len()..end];
    let mut edited = format!("{}{feature}{list}{}", &text[..end], &text[end..]);
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

/// `block` (a version's generated diff, [`ApiDiff::to_changelog`]) added to the
/// changelog's unreleased release, Keep a Changelog's layout: releases are `## [...]`
/// headings, newest first. The top release takes it when its heading says `Unreleased`
/// (`## [Unreleased]`, `## [0.2.0] - Unreleased`): above its first generated block (the
/// newest first), or at its end when it has none. When the top release is dated, an
/// `## [Unreleased]` release is opened above it for the block.
fn add_to_unreleased(changelog: &str, block: &str) -> String {
    let release = |at: usize| changelog[at..].starts_with("## [");
    // Heading positions: the start of each line that opens a release.
    let mut releases = std::iter::once(0)
        .chain(changelog.match_indices('\n').map(|(at, _)| at + 1))
        .filter(|&at| at < changelog.len() && release(at));
    let Some(top) = releases.next() else {
        return format!("{}\n## [Unreleased]\n\n{block}", with_newline(changelog));
    };
    let heading_end = changelog[top..]
        .find('\n')
        .map_or(changelog.len(), |at| top + at + 1);
    if !changelog[top..heading_end].contains("Unreleased") {
        return format!(
            "{}## [Unreleased]\n\n{block}\n{}",
            &changelog[..top],
            &changelog[top..]
        );
    }
    let end = releases.next().unwrap_or(changelog.len());
    // From the heading's own line break, so that a block on the next line is found too.
    let section = &changelog[heading_end - 1..end];
    match section.find(&format!("\n{CHANGELOG_BLOCK}")) {
        Some(at) => {
            let at = heading_end + at;
            format!("{}{block}\n{}", &changelog[..at], &changelog[at..])
        }
        None => {
            // At the section's end, one blank line before the next release.
            let body = changelog[..end].trim_end_matches('\n');
            let rest = &changelog[end..];
            let gap = if rest.is_empty() { "" } else { "\n" };
            format!("{body}\n\n{block}{gap}{rest}")
        }
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
    fn blocks_go_to_the_unreleased_release_newest_first() {
        let block = |n: &str| format!("{CHANGELOG_BLOCK}{n}</summary>\n\n- {n}\n\n</details>\n");
        let head = "# Changelog\n\nintro, with a [link](x)\n\n";
        let dated = "## [0.1.0] - 2026-12-01\n\n### Added\n\n- a\n\n";
        // Above the newest block of an unreleased release; the release below untouched.
        let log = format!(
            "{head}## [0.2.0] - Unreleased\n\n### Added\n\n- b\n\n{}\n{dated}{}",
            block("old"),
            block("older")
        );
        let added = add_to_unreleased(&log, &block("new"));
        assert_eq!(
            added,
            format!(
                "{head}## [0.2.0] - Unreleased\n\n### Added\n\n- b\n\n{}\n{}\n{dated}{}",
                block("new"),
                block("old"),
                block("older")
            )
        );
        // An unreleased release without a block: at its end, before the next release.
        let log = format!("{head}## [Unreleased]\n\n### Fixed\n\n- c\n\n{dated}");
        assert_eq!(
            add_to_unreleased(&log, &block("new")),
            format!(
                "{head}## [Unreleased]\n\n### Fixed\n\n- c\n\n{}\n{dated}",
                block("new")
            )
        );
        // ... and at the end of the file when it is the only release.
        let log = format!("{head}## [Unreleased]\n\n### Fixed\n\n- c\n");
        assert_eq!(
            add_to_unreleased(&log, &block("new")),
            format!(
                "{head}## [Unreleased]\n\n### Fixed\n\n- c\n\n{}",
                block("new")
            )
        );
        // A dated top release: an unreleased one is opened above it.
        let log = format!("{head}{dated}{}", block("old"));
        assert_eq!(
            add_to_unreleased(&log, &block("new")),
            format!(
                "{head}## [Unreleased]\n\n{}\n{dated}{}",
                block("new"),
                block("old")
            )
        );
        // No release at all: one is opened at the end.
        assert_eq!(
            add_to_unreleased("# Changelog\n", &block("new")),
            format!("# Changelog\n\n## [Unreleased]\n\n{}", block("new"))
        );
    }

    #[test]
    fn versions_follow_semver() {
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
