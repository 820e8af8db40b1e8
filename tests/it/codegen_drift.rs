//! The checked-in `generated/vX_Y_Z/` of every shipped version is exactly what the
//! generator makes of its pinned spec, and the `codegen` feature's build-script path
//! produces the same code.

use crate::common;

use std::path::Path;
use std::process::Command;

const SHIPPED: &str = near_rpc::SPEC_VERSION;

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn checked_in_bindings_match_the_spec() {
    let shared = common::shared_dir();
    for pin in near_rpc_codegen::load::shipped() {
        let files = common::generate_shipped(&shared, pin.version);
        let generated = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("generated")
            .join(pin.module());
        let drift =
            near_rpc_codegen::write::drift(&generated, &files).expect("generated/ is readable");
        assert!(
            drift.is_empty(),
            "generated/{} is stale; run `cargo run -p near-rpc-codegen -- generate --shipped \
             ../shared/spec`:\n{drift}",
            pin.module()
        );
    }
}

/// The generator's table of hand-written types and the library's one list of them
/// (`src/replaced.rs`) name the same types, each at the path where generated code looks.
#[test]
fn the_hand_written_types_are_the_generators() {
    let mut table: Vec<(&str, &str)> = near_rpc_codegen::handwritten::REPLACEMENTS
        .iter()
        .map(|r| (r.schema, r.rust_path))
        .collect();
    let mut library: Vec<(&str, &str)> = near_rpc::__generated_root::REPLACED.to_vec();
    table.sort();
    library.sort();
    assert_eq!(table, library);
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn generation_is_deterministic() {
    let shared = common::shared_dir();
    let first = common::generate_shipped(&shared, SHIPPED);
    let second = common::generate_shipped(&shared, SHIPPED);
    assert_eq!(first, second);
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn a_tampered_shipped_spec_is_rejected() {
    let shared = common::shared_dir();
    let mut bytes = std::fs::read(common::spec_path(&shared, SHIPPED)).expect("spec");
    bytes.push(b'\n');
    let err = near_rpc_codegen::generate_from_bytes(&bytes).unwrap_err();
    assert!(err.to_string().contains("spec/SOURCE.toml pins"), "{err}");
}

/// Checks the crate with `--features codegen` against the shipped spec (in the workspace's
/// target directory) and compares what build.rs wrote to OUT_DIR with `generated/`.
/// `cargo check` runs the build script and compiles the regenerated code as far as
/// type checking, which is all this proves; a full build would only add code generation.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn build_script_path_produces_the_checked_in_code() {
    let shared = common::shared_dir();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = common::target_dir();
    let output = Command::new(env!("CARGO"))
        .current_dir(root)
        .args([
            "check",
            "--quiet",
            "--lib",
            "--features",
            "codegen",
            "--message-format=json",
        ])
        .arg("--target-dir")
        .arg(&target)
        .envs(build_script_specs(&shared))
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo check --features codegen failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The build-script-executed message of this package names its OUT_DIR and the cfg
    // that switches the crate to the regenerated code.
    let message = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find(|m| {
            m["reason"] == "build-script-executed"
                && m["package_id"].as_str().and_then(package_name) == Some("near-rpc")
        })
        .expect("cargo reports near-rpc's build script");
    assert!(
        message["cfgs"]
            .to_string()
            .contains("near_rpc_generated_in_out_dir"),
        "build.rs did not switch to the regenerated code: {message}"
    );
    let out_dir = message["out_dir"].as_str().expect("out_dir").to_owned();
    let mut compared = 0;
    let checked_in = root
        .join("generated")
        .join(near_rpc_codegen::load::module_name(SHIPPED));
    for entry in std::fs::read_dir(&checked_in).expect("generated/") {
        let path = entry.expect("entry").path();
        let name = path.file_name().expect("file name");
        let from_build = std::fs::read_to_string(Path::new(&out_dir).join(name))
            .unwrap_or_else(|e| panic!("build.rs did not write {name:?}: {e}"));
        let checked_in = std::fs::read_to_string(&path).expect("checked-in file");
        assert!(
            from_build == checked_in,
            "{name:?} differs between build.rs and generated/"
        );
        compared += 1;
    }
    let made = common::generate_shipped(&shared, SHIPPED).len();
    assert_eq!(
        compared, made,
        "every file the generator makes was compared"
    );
}

/// The build script's spec variables for the shipped version's documents:
/// `NEAR_RPC_SPEC` (OpenAPI) and, where one is pinned, `NEAR_RPC_OPENRPC`.
fn build_script_specs(shared: &Path) -> Vec<(&'static str, std::path::PathBuf)> {
    let documents = common::shipped_documents(shared, SHIPPED);
    ["NEAR_RPC_SPEC", "NEAR_RPC_OPENRPC"]
        .into_iter()
        .zip(documents)
        .collect()
}

/// The package name in a cargo package id: `path+file:///dir#name@version`, or, when the
/// directory is named after the package (a clone into `near-rpc/`),
/// `path+file:///dir/near-rpc#version`.
fn package_name(id: &str) -> Option<&str> {
    let (url, fragment) = id.rsplit_once('#')?;
    match fragment.split_once('@') {
        Some((name, _version)) => Some(name),
        None => url.rsplit('/').next(),
    }
}

#[test]
fn package_ids_are_read_in_both_of_cargos_forms() {
    assert_eq!(
        package_name("path+file:///work/main#near-rpc@0.1.0"),
        Some("near-rpc")
    );
    assert_eq!(
        package_name("path+file:///work/near-rpc#0.1.0"),
        Some("near-rpc")
    );
    assert_eq!(
        package_name("path+file:///work/main/codegen#near-rpc-codegen@0.1.0"),
        Some("near-rpc-codegen")
    );
    assert_eq!(
        package_name("path+file:///work/codegen#0.1.0"),
        Some("codegen")
    );
    assert_eq!(
        package_name("registry+https://github.com/rust-lang/crates.io-index#serde@1.0.0"),
        Some("serde")
    );
}
