//! `near-rpc-codegen bump` on a copy of the tree: a new spec version is shipped in one
//! step, and the copy is left current (`generate --check` finds no drift) and compiling
//! with the new version as `latest`, its library's unit tests included (`cargo check
//! --profile test`: the same hand-written tests run against every shipped version in
//! `scripts/all-versions.sh`; here what the bump must prove is that the crate it left
//! compiles, and a check proves it without code generation and linking).

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

use crate::common;

/// Copies the repository at `from` to `to`, without build output or git data.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        let path = entry.path();
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            // codegen/spec/ links to spec/: a link stays one, so that the copy's
            // generator compiles in what the bump writes there.
            let target = std::fs::read_link(&path).unwrap();
            #[cfg(unix)]
            std::os::unix::fs::symlink(&target, to.join(&name)).unwrap();
            #[cfg(windows)]
            std::os::windows::fs::symlink_file(&target, to.join(&name)).unwrap();
        } else if kind.is_dir() {
            copy_tree(&path, &to.join(&name));
        } else {
            std::fs::copy(&path, to.join(&name)).unwrap();
        }
    }
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn bump_ships_a_new_version_in_one_step() {
    let shared = common::shared_dir();
    let work = common::target_dir().join(format!("bump-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    // The copy builds in the workspace's target directory under the same package hashes,
    // so cargo's records point at the copy's files until they are gone: remove them even
    // when the test fails, so that the next build of the workspace sees them missing and
    // rebuilds from its own sources.
    let _cleanup = RemoveOnDrop(work.clone());
    let (root, specs) = (work.join("repo"), work.join("spec"));
    copy_tree(Path::new(env!("CARGO_MANIFEST_DIR")), &root);

    // The shipped documents, laid out as `../shared` (a derived one in its folder beside
    // the spec directory), and a "1.2.12": the latest with one more optional field.
    std::fs::create_dir_all(&specs).unwrap();
    let shipped = near_rpc_codegen::load::shipped();
    for pin in &shipped {
        let dir = match pin.folder {
            Some(folder) => work.join(folder),
            None => specs.clone(),
        };
        std::fs::create_dir_all(&dir).unwrap();
        for document in common::shipped_documents(&shared, pin.version) {
            let name = document.file_name().unwrap();
            std::fs::copy(&document, dir.join(name)).unwrap();
        }
    }
    let latest = shipped.last().unwrap().version;
    let latest_module = shipped.last().unwrap().module();
    let mut doc: Value =
        serde_json::from_slice(&std::fs::read(common::spec_path(&shared, latest)).unwrap())
            .unwrap();
    doc["info"]["version"] = json!("1.2.12");
    doc["components"]["schemas"]["RpcGasPriceResponse"]["properties"]["gas_price_floor"] =
        json!({"type": "string"});
    let new_spec = specs.join("openapi-1.2.12.json");
    std::fs::write(&new_spec, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();

    let bumped = near_rpc_codegen::bump::bump(&root, &new_spec, None, Some("0123abcd")).unwrap();
    let report = bumped.report();
    assert!(
        report.contains(&format!("{latest} → 1.2.12: 0 breaking, 1 additive")),
        "{report}"
    );
    assert!(
        report.contains("crate version: 0.1.0 → 0.1.1 (additive changes only"),
        "{report}"
    );
    let read = |path: &str| std::fs::read_to_string(root.join(path)).unwrap();
    assert!(read("generated/v1_2_12/types.rs").contains("pub gas_price_floor"));
    let pins = read("spec/SOURCE.toml");
    let source = near_rpc_codegen::load::source::parse(&pins).unwrap();
    assert!(
        source
            .shipped
            .last()
            .unwrap()
            .starts_with("1.2.12 0123abcd "),
        "{pins}"
    );
    // The new version's feature follows the previous one's, with the same list.
    let manifest = read("Cargo.toml");
    let previous = manifest
        .lines()
        .find(|l| l.starts_with(&format!("{latest_module} = [")))
        .expect("the previous latest version's feature");
    let list = &previous[latest_module.len()..];
    assert!(
        manifest.contains(&format!("{previous}\nv1_2_12{list}\n")),
        "{manifest}"
    );
    assert!(manifest.contains("latest = [\"v1_2_12\"]"));
    // The new version's block is the newest generated one, inside the top release (the
    // unreleased one), and the older blocks are still there below it.
    let changelog = read("CHANGELOG.md");
    let before =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("CHANGELOG.md"))
            .unwrap();
    let block = near_rpc_codegen::diff::CHANGELOG_BLOCK;
    let top = changelog.find("\n## [").unwrap();
    let next = changelog[top + 1..]
        .find("\n## [")
        .map_or(changelog.len(), |at| top + 1 + at);
    let heading = changelog[top + 1..].lines().next().unwrap();
    assert!(heading.contains("Unreleased"), "{heading}");
    let first = changelog.find(block).unwrap();
    assert!(
        top < first && first < next,
        "the block is not in the top release"
    );
    assert!(changelog[first..].starts_with(&format!("{block}spec {latest} → 1.2.12 (")));
    assert!(changelog.contains("field `RpcGasPriceResponse.gas_price_floor`"));
    assert_eq!(
        changelog.matches(block).count(),
        before.matches(block).count() + 1
    );
    // Twice is refused, and nothing changes.
    assert!(near_rpc_codegen::bump::bump(&root, &new_spec, None, None).is_err());
    assert_eq!(read("spec/SOURCE.toml"), pins);

    // The copy is current, and it compiles with the new version as `latest`.
    let cargo = |args: &[&str]| {
        let output = Command::new(env!("CARGO"))
            .current_dir(&root)
            .args(args)
            .env("CARGO_TARGET_DIR", common::target_dir())
            .env("NEAR_RPC_SHARED", &specs)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "cargo {args:?} in the bumped copy:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let spec_dir = specs.to_str().unwrap();
    let checked = cargo(&[
        "run",
        "--quiet",
        "-p",
        "near-rpc-codegen",
        "--",
        "generate",
        "--shipped",
        spec_dir,
        "--check",
    ]);
    assert_eq!(
        checked.matches("is up to date").count(),
        shipped.len() + 1,
        "{checked}"
    );
    cargo(&[
        "check",
        "--quiet",
        "-p",
        "near-rpc",
        "--lib",
        "--profile",
        "test",
        "--features",
        "latest",
    ]);
}

/// Removes a directory when dropped, also while a failing test unwinds.
struct RemoveOnDrop(std::path::PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
