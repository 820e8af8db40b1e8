//! Every schema and method of the shipped spec is in the generated API, with
//! meaningful names.

use crate::common;

use std::collections::BTreeSet;

use near_rpc_codegen::ir::Kind;

fn generated_sources() -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    std::fs::read_dir(&dir)
        .expect("generated/")
        .map(|entry| std::fs::read_to_string(entry.expect("entry").path()).expect("generated file"))
        .collect()
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn every_schema_maps_to_a_rust_type() {
    let shared = common::shared_dir();
    let bytes = std::fs::read(common::spec_path(&shared, near_rpc::SPEC_VERSION)).expect("spec");
    let spec: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
    let schema_names: BTreeSet<&str> = spec["components"]["schemas"]
        .as_object()
        .expect("schemas")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(schema_names.len(), 337);

    let api = near_rpc_codegen::api_from_bytes(&bytes).expect("IR");
    let sources = generated_sources();
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
    let bytes = std::fs::read(common::spec_path(&shared, near_rpc::SPEC_VERSION)).expect("spec");
    let api = near_rpc_codegen::api_from_bytes(&bytes).expect("IR");
    assert_eq!(api.methods.len(), 38);
    let names: Vec<&str> = api.methods.keys().map(String::as_str).collect();
    assert_eq!(names, near_rpc::methods::ALL);
    assert!(names.contains(&"EXPERIMENTAL_tx_status"));
    assert!(names.contains(&"genesis_config"));
    assert!(names.contains(&"EXPERIMENTAL_protocol_config"));
}

#[test]
fn no_positional_names() {
    let sources = generated_sources();
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
    assert_eq!(near_rpc::SPEC_VERSION, "1.2.6");
    assert_eq!(
        Some(near_rpc::SPEC_SHA256),
        near_rpc_codegen::load::pinned("sha256"),
        "spec/SOURCE.toml and the generated constant disagree"
    );
}
