//! Every schema and method of the shipped spec is in the generated API, with
//! meaningful names.

use crate::common;

use std::collections::BTreeSet;

use near_rpc_codegen::ir::Kind;

/// The bindings in `dirs`, concatenated.
fn sources_of(dirs: impl IntoIterator<Item = std::path::PathBuf>) -> String {
    dirs.into_iter()
        .flat_map(|dir| {
            std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        })
        .map(|entry| std::fs::read_to_string(entry.expect("entry").path()).expect("generated file"))
        .collect()
}

/// The bindings this build compiled (build.rs's `NEAR_RPC_GENERATED`).
fn compiled_sources() -> String {
    sources_of([std::path::PathBuf::from(env!("NEAR_RPC_GENERATED"))])
}

/// The checked-in bindings of every shipped version.
fn all_generated_sources() -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    sources_of(
        near_rpc_codegen::load::shipped()
            .iter()
            .map(|pin| root.join(pin.module())),
    )
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn every_schema_maps_to_a_rust_type() {
    let shared = common::shared_dir();
    let bytes = std::fs::read(common::spec_path(&shared, near_rpc::SPEC_VERSION)).expect("spec");
    let spec: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
    let openapi_names: BTreeSet<&str> = spec["components"]["schemas"]
        .as_object()
        .expect("schemas")
        .keys()
        .map(String::as_str)
        .collect();
    // The shipped bindings may merge in the OpenRPC document: its methods' params.
    let loaded = common::load_shipped(&shared, near_rpc::SPEC_VERSION);
    let schema_names: BTreeSet<&str> = loaded.schemas.keys().map(String::as_str).collect();
    assert!(openapi_names.is_subset(&schema_names));
    if near_rpc::SPEC_VERSION == "1.2.6" {
        assert_eq!(openapi_names.len(), 337);
        let added: Vec<&&str> = schema_names.difference(&openapi_names).collect();
        assert_eq!(
            added,
            [
                &"ExperimentalClientConfigParams",
                &"LightClientBlockProofParams"
            ],
            "what the OpenRPC document adds"
        );
    }

    let api = common::shipped_api(&shared, near_rpc::SPEC_VERSION);
    let sources = compiled_sources();
    let mut mapped = BTreeSet::new();
    for def in api.types.values() {
        let Some(schema) = &def.schema_name else {
            continue;
        };
        let name = &def.rust_name;
        let defined = match &def.kind {
            // Hand-written: the replacement table names it and the crate exports it.
            Kind::HandWritten { rust_path } => rust_path.starts_with("crate::"),
            _ => [
                format!("pub struct {name} "),
                format!("pub struct {name}("),
                format!("pub enum {name} "),
                format!("pub type {name} "),
            ]
            .iter()
            .any(|decl| sources.contains(decl.as_str())),
        };
        assert!(defined, "schema {schema} has no Rust type {name}");
        mapped.insert(schema.as_str());
    }
    assert_eq!(mapped, schema_names, "schemas without a Rust type");
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn every_method_has_a_marker_type() {
    let shared = common::shared_dir();
    let api = common::shipped_api(&shared, near_rpc::SPEC_VERSION);
    // 1.2.6 merges in the two methods only its OpenRPC document has; nearcore 0.38 adds
    // three light-client proofs.
    let expected = match near_rpc::SPEC_VERSION {
        "1.2.6" => 40,
        "nearcore-0.38.0" => 41,
        _ => 38,
    };
    assert_eq!(api.methods.len(), expected);
    let names: Vec<&str> = api.methods.keys().map(String::as_str).collect();
    assert_eq!(names, near_rpc::methods::ALL);
    assert!(names.contains(&"EXPERIMENTAL_tx_status"));
    assert!(names.contains(&"genesis_config"));
    assert!(names.contains(&"EXPERIMENTAL_protocol_config"));
}

#[test]
fn no_positional_names() {
    let sources = all_generated_sources();
    let positional = sources
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .find(|word| {
            word.strip_prefix("Variant")
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        });
    assert_eq!(positional, None);
}

#[test]
fn the_crate_says_which_spec_it_was_generated_from() {
    // build.rs chose the bindings' directory from the version feature (or the default);
    // the constant compiled from them must name the same version, with its pinned hash.
    let compiled = std::path::Path::new(env!("NEAR_RPC_GENERATED"));
    let module = compiled
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    assert_eq!(
        module,
        near_rpc_codegen::load::module_name(near_rpc::SPEC_VERSION)
    );
    assert_eq!(
        near_rpc_codegen::load::pin(near_rpc::SPEC_VERSION).map(|pin| pin.sha256),
        Some(near_rpc::SPEC_SHA256),
        "spec/SOURCE.toml and the generated constant disagree"
    );
    // The two builds CI makes: no version feature is the default, `latest` the newest.
    if cfg!(near_rpc_default_spec) {
        assert_eq!(
            near_rpc::SPEC_VERSION,
            near_rpc_codegen::load::default_version()
        );
    }
    if cfg!(feature = "latest") {
        let newest = near_rpc_codegen::load::shipped()
            .last()
            .map(|pin| pin.version);
        assert_eq!(Some(near_rpc::SPEC_VERSION), newest);
    }
}

/// Every shipped version has its cargo feature and checked-in bindings, and nothing else
/// is under `generated/`.
#[test]
fn every_shipped_version_has_a_feature_and_bindings() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .expect("Cargo.toml");
    let shipped = near_rpc_codegen::load::shipped();
    let modules: std::collections::BTreeSet<String> = shipped.iter().map(|p| p.module()).collect();
    for module in &modules {
        assert!(
            manifest
                .lines()
                .any(|l| l.starts_with(&format!("{module} = ["))),
            "Cargo.toml has no feature {module}"
        );
    }
    let dirs: std::collections::BTreeSet<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/generated"))
            .expect("generated/")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
    assert_eq!(
        dirs, modules,
        "generated/ holds exactly the shipped versions"
    );
    let latest = shipped.last().expect("a shipped version").module();
    let earliest = shipped.first().expect("a shipped version").module();
    assert!(
        manifest.contains(&format!("latest = [\"{latest}\"]")),
        "latest is {latest}"
    );
    assert!(manifest.contains(&format!("earliest = [\"{earliest}\"]")));
    assert_eq!(
        near_rpc_codegen::load::default_version(),
        shipped[0].version,
        "the default is the oldest shipped version"
    );
}

/// `if_spec_ge_X!`/`if_spec_lt_X!` keep or drop their tokens by the chosen version.
#[test]
// The pushes are the point: each macro keeps or drops one.
#[allow(clippy::vec_init_then_push)]
fn version_macros_follow_the_chosen_version() {
    let mut kept: Vec<&str> = Vec::new();
    near_rpc::if_spec_ge_1_2_6! { kept.push("ge 1.2.6"); }
    near_rpc::if_spec_lt_1_2_6! { kept.push("lt 1.2.6"); }
    near_rpc::if_spec_ge_1_2_9! { kept.push("ge 1.2.9"); }
    near_rpc::if_spec_lt_1_2_9! { kept.push("lt 1.2.9"); }
    near_rpc::if_spec_ge_1_2_11! { kept.push("ge 1.2.11"); }
    near_rpc::if_spec_ge_nearcore_0_38_0! { kept.push("ge nearcore-0.38.0"); }
    near_rpc::if_spec_lt_nearcore_0_38_0! { kept.push("lt nearcore-0.38.0"); }
    // The shipped order: 1.2.6 ... 1.2.11, then nearcore-0.38.0.
    let derived = near_rpc::SPEC_VERSION == "nearcore-0.38.0";
    let patch: u32 = if derived {
        u32::MAX
    } else {
        near_rpc::SPEC_VERSION
            .rsplit('.')
            .next()
            .and_then(|p| p.parse().ok())
            .expect("a 1.2.x version")
    };
    let mut expected = vec!["ge 1.2.6"];
    expected.push(if patch >= 9 { "ge 1.2.9" } else { "lt 1.2.9" });
    if patch >= 11 {
        expected.push("ge 1.2.11");
    }
    expected.push(if derived {
        "ge nearcore-0.38.0"
    } else {
        "lt nearcore-0.38.0"
    });
    assert_eq!(kept, expected);
}
