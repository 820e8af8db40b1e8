//! The API diff over consecutive spec versions in the shared data, checked against facts
//! known from the specs.

use std::path::PathBuf;

use near_rpc_codegen::diff::{diff, ApiDiff, Severity, CHANGELOG_BLOCK};

use crate::common;

/// The shared spec directory (the test fails without it; see `common`).
fn spec_dir() -> PathBuf {
    common::shared_dir().join("spec")
}

/// The OpenAPI versions listed in SOURCES.tsv, oldest first.
fn versions(dir: &std::path::Path) -> Vec<String> {
    let tsv = std::fs::read_to_string(dir.join("SOURCES.tsv")).expect("SOURCES.tsv");
    let mut versions: Vec<String> = tsv
        .lines()
        .filter_map(|l| l.split('\t').next())
        .filter_map(|f| {
            f.strip_prefix("openapi-")?
                .strip_suffix(".json")
                .map(str::to_owned)
        })
        .collect();
    let key = |v: &String| {
        v.split('.')
            .map(|n| n.parse::<u32>().unwrap_or(0))
            .collect::<Vec<_>>()
    };
    versions.sort_by_key(key);
    versions
}

fn api(dir: &std::path::Path, version: &str) -> near_rpc_codegen::ir::Api {
    let bytes = std::fs::read(dir.join(format!("openapi-{version}.json"))).expect("spec");
    near_rpc_codegen::api_from_bytes(&bytes).unwrap_or_else(|e| panic!("{version}: {e}"))
}

fn has(d: &ApiDiff, severity: Severity, item: &str, name: &str, description: &str) -> bool {
    d.changes.iter().any(|c| {
        c.severity == severity
            && c.item == item
            && c.name == name
            && c.description.contains(description)
    })
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn consecutive_versions_diff_with_known_facts() {
    let dir = spec_dir();
    let versions = versions(&dir);
    assert_eq!(versions.len(), 16, "{versions:?}");
    let apis: Vec<_> = versions.iter().map(|v| api(&dir, v)).collect();
    let mut diffs = Vec::new();
    for pair in apis.windows(2) {
        let d = diff(&pair[0], &pair[1]);
        println!("{}", d.summary());
        diffs.push(d);
    }
    let find = |old: &str| diffs.iter().find(|d| d.old_version == old).expect("pair");

    let d = find("1.2.1");
    for method in [
        "EXPERIMENTAL_call_function",
        "EXPERIMENTAL_view_access_key",
        "EXPERIMENTAL_view_access_key_list",
        "EXPERIMENTAL_view_account",
        "EXPERIMENTAL_view_code",
        "EXPERIMENTAL_view_state",
    ] {
        assert!(
            has(d, Severity::Additive, "method", method, "method added"),
            "{method}"
        );
    }
    for ty in [
        "AddGasKeyAction",
        "DeleteGasKeyAction",
        "GasKey",
        "GasKeyInfoView",
        "GasKeyList",
        "GasKeyView",
    ] {
        assert!(
            has(d, Severity::Breaking, "type", ty, "type removed"),
            "{ty}"
        );
    }

    // KeyHandle is gone; the same string type, with the same docs, is now PublicKeyHandle.
    let d = find("1.2.6");
    assert!(
        has(
            d,
            Severity::Breaking,
            "type",
            "KeyHandle",
            "renamed to `PublicKeyHandle`"
        ),
        "{}",
        d.to_text()
    );
    assert!(
        !d.changes.iter().any(|c| c.name == "PublicKeyHandle"),
        "a rename is not also an addition"
    );

    // New variants of open enums are additive: older bindings keep them as Unknown.
    let d = find("1.2.10");
    assert!(
        has(
            d,
            Severity::Additive,
            "variant",
            "ActionView::DelegateV2",
            "variant added"
        ),
        "{}",
        d.to_text()
    );
    let d = find("1.2.7");
    assert!(has(
        d,
        Severity::Additive,
        "variant",
        "RpcReceiptToTxError::BudgetExceeded",
        "variant added"
    ));

    // A version compared with itself has no change.
    assert!(diff(&apis[10], &apis[10]).changes.is_empty());
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn output_is_deterministic_and_well_formed() {
    let dir = spec_dir();
    let (old, new) = (api(&dir, "1.2.5"), api(&dir, "1.2.6"));
    let first = diff(&old, &new);
    let second = diff(&api(&dir, "1.2.5"), &api(&dir, "1.2.6"));
    assert_eq!(first, second);
    assert_eq!(first.to_markdown(), second.to_markdown());
    assert!(!first.changes.is_empty());
    let mut sorted = first.changes.clone();
    sorted.sort();
    assert_eq!(sorted, first.changes, "changes are sorted");

    let json: serde_json::Value =
        serde_json::from_str(&first.to_json()).expect("JSON output parses");
    let (breaking, additive, docs) = first.counts();
    assert_eq!(json["summary"]["breaking"], breaking);
    assert_eq!(json["summary"]["additive"], additive);
    assert_eq!(json["summary"]["docs"], docs);
    assert_eq!(
        json["changes"].as_array().map(Vec::len),
        Some(first.changes.len())
    );

    let markdown = first.to_markdown();
    assert!(
        markdown.starts_with("## Spec 1.2.5 → 1.2.6\n"),
        "{markdown}"
    );
    let text = first.to_text();
    assert_eq!(text.lines().count(), first.changes.len() + 1);
    assert!(text.starts_with(&first.summary()));

    // The CHANGELOG's block: the markdown's groups a level down, collapsed, with the
    // versions and the counts in its summary.
    let block = first.to_changelog();
    let summary = format!(
        "{CHANGELOG_BLOCK}spec 1.2.5 → 1.2.6 ({breaking} breaking, {additive} additive, \
         {docs} doc-only)</summary>\n"
    );
    assert!(block.starts_with(&summary), "{block}");
    assert!(block.ends_with("\n</details>\n"), "{block}");
    let groups = markdown
        .split_once('\n')
        .unwrap()
        .1
        .replace("\n### ", "\n#### ");
    let groups = groups.split_once("\n\n#### ").unwrap().1;
    assert!(block.contains(&format!("\n\n#### {groups}")), "{block}");
}

/// The CHANGELOG holds the generated block of every shipped version, current, newest
/// first, each under a release (Keep a Changelog's `## [...]` headings), and no other.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn the_changelog_sections_are_current() {
    let shared = common::shared_dir();
    let changelog = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/CHANGELOG.md"))
        .expect("CHANGELOG.md");
    let first_release = changelog
        .find("\n## [")
        .expect("CHANGELOG.md has a release (`## [VERSION]`)");
    // From the version before the first shipped one to the latest, newest first.
    let mut versions = vec!["1.2.5"];
    versions.extend(
        near_rpc_codegen::load::shipped()
            .iter()
            .map(|pin| pin.version),
    );
    let mut last_at = usize::MAX;
    for pair in versions.windows(2) {
        let (old, new) = (pair[0], pair[1]);
        // Between the bindings as shipped (1.2.6 merges its OpenRPC document).
        let block = diff(
            &common::shipped_api(&shared, old),
            &common::shipped_api(&shared, new),
        )
        .to_changelog();
        let at = changelog.find(&block).unwrap_or_else(|| {
            panic!(
                "CHANGELOG.md lacks the generated {old} → {new} block; regenerate it with \
                 `near-rpc-codegen diff --shipped ../shared/spec {old} {new} --format changelog`"
            )
        });
        assert!(
            at > first_release,
            "the {old} → {new} block is above every release"
        );
        assert!(
            at < last_at,
            "the {old} → {new} block is not above the older ones"
        );
        last_at = at;
    }
    assert_eq!(
        changelog.matches(CHANGELOG_BLOCK).count(),
        versions.len() - 1,
        "CHANGELOG.md has generated blocks of versions that are not shipped"
    );
}
