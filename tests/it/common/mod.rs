//! Finding the upstream data in `../shared` (spec versions and recorded fixtures).
//!
//! The directory comes from `NEAR_RPC_SHARED`, by default `../shared` beside the
//! repository. Without it, every test that needs it fails with one line saying where the
//! data was expected. To run the rest without it, build the tests with
//! `NEAR_RPC_SKIP_SHARED=1`: `build.rs` then sets the `near_rpc_skip_shared` cfg, which
//! marks those tests ignored, so the run's summary counts what was skipped.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The shared data directory; a test that calls it fails when the data is missing.
pub fn shared_dir() -> PathBuf {
    let dir = std::env::var_os("NEAR_RPC_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    if dir.join("spec").is_dir() && dir.join("fixtures").is_dir() {
        return dir;
    }
    panic!(
        "upstream data not found at {} (expected spec/ and fixtures/ there): set \
         NEAR_RPC_SHARED, or build the tests with NEAR_RPC_SKIP_SHARED=1 to skip them",
        dir.display()
    );
}

/// The workspace's target directory (`CARGO_TARGET_DIR` when set): tests that run cargo
/// build there, so they reuse what the test run already built instead of building every
/// dependency again in a directory of their own.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

/// Path of spec version `version` in the shared data (its OpenAPI document).
pub fn spec_path(shared: &Path, version: &str) -> PathBuf {
    near_rpc_codegen::load::shipped_documents(&shared.join("spec"), version)
        .into_iter()
        .next()
        .expect("an OpenAPI document")
}

/// The documents the shipped bindings of `version` are generated from: its OpenAPI
/// document, and its OpenRPC one where `spec/SOURCE.toml` pins that.
pub fn shipped_documents(shared: &Path, version: &str) -> Vec<PathBuf> {
    near_rpc_codegen::load::shipped_documents(&shared.join("spec"), version)
}

/// A shipped version loaded from [`shipped_documents`], as the generator reads it.
pub fn load_shipped(shared: &Path, version: &str) -> near_rpc_codegen::load::Spec {
    let paths = shipped_documents(shared, version);
    let paths: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    near_rpc_codegen::load::load(&paths, None)
        .unwrap_or_else(|e| panic!("spec {version} loads: {e}"))
}

/// The IR of a shipped version, made from [`shipped_documents`].
pub fn shipped_api(shared: &Path, version: &str) -> near_rpc_codegen::ir::Api {
    near_rpc_codegen::api_from_spec(load_shipped(shared, version))
        .unwrap_or_else(|e| panic!("spec {version}: {e}"))
}

/// The generated files of a shipped version, made from [`shipped_documents`].
pub fn generate_shipped(shared: &Path, version: &str) -> near_rpc_codegen::Files {
    let options = near_rpc_codegen::Options::default();
    near_rpc_codegen::emit::emit(&shipped_api(shared, version), &options)
        .unwrap_or_else(|e| panic!("spec {version} generates: {e}"))
}

/// The fixture files, as (method directory, file name, schema-check note) from
/// `fixtures/SOURCES.tsv`.
pub fn fixtures(shared: &Path) -> Vec<Fixture> {
    let tsv = std::fs::read_to_string(shared.join("fixtures/SOURCES.tsv"))
        .expect("fixtures/SOURCES.tsv is readable");
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .expect("SOURCES.tsv column")
    };
    let (file, kind, notes) = (col("file"), col("kind"), col("notes"));
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let path = cells[file];
            let (method, name) = path.split_once('/').expect("file is method/name");
            Fixture {
                method: method.to_owned(),
                path: shared.join("fixtures").join(path),
                name: name.to_owned(),
                kind: cells[kind].to_owned(),
                schema_ok: cells[notes].contains("schema check: ok"),
                notes: cells[notes].to_owned(),
            }
        })
        .collect()
}

/// One recorded body.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// The method directory.
    pub method: String,
    /// Full path.
    pub path: PathBuf,
    /// File name.
    pub name: String,
    /// `request`, `response`, ...
    pub kind: String,
    /// Whether SOURCES.tsv says the body passes the 1.2.6 schema.
    pub schema_ok: bool,
    /// The SOURCES.tsv notes.
    pub notes: String,
}
