//! The generator of the `near-rpc` bindings.
//!
//! It reads nearcore's OpenAPI 3.0 or OpenRPC 1.3 document (or both of one version,
//! merged) and writes the Rust types and method stubs that `near-rpc` checks in under
//! `generated/vX_Y_Z/`, one directory per shipped spec version ([`bump`] ships a new
//! one). The pipeline, one module per stage:
//!
//! 1. [`load`]: read the documents, verify their sha256 against `spec/SOURCE.toml`, and
//!    restate them in the generator's terms (the only stage that knows the formats);
//! 2. [`normalize`] (with [`patch`]): OpenAPI `nullable` to JSON schema, `format: uint`
//!    to u64, `patternProperties` to maps, unknown fields allowed, doc text made safe
//!    for rustdoc, and our corrections from `spec/patches/` applied;
//! 3. [`ir`]: decide the Rust shape of every schema and method, fully typed (and validate
//!    names and references);
//! 4. [`emit`]: render the IR, and nothing else: structs (with `deserialize_struct!`
//!    instead of serde_derive's `Deserialize`) and newtypes, enums, flattened
//!    alternatives, the envelope aliases and the method stubs; schemas with a
//!    hand-written replacement are listed in [`handwritten`];
//! 5. format with prettyplease;
//! 6. [`mod@write`]: add the `@generated` header and write only files that changed.
//!
//! [`diff`] compares the IRs of two spec versions: what changed in the generated API,
//! classified for semver. [`crosscheck`] compares the IRs of one version's OpenAPI and
//! OpenRPC documents.
//!
//! # Why no typify
//! typify 0.8 rendered the structs and newtypes before the first release, from
//! their schemas: a second model of each struct beside the IR, checked against it by
//! field names only, whose types could differ (fixed-length arrays were `[T; N]` in
//! typify's structs and `Vec<T>` in the IR's enums). The IR now says everything the
//! structs need, and `emit/structs.rs` renders them as typify did, so the structs' API
//! did not change; the enums now agree with them (`[T; N]`, `serde_json::Map` for a bare
//! object), and the generator lost typify and schemars from its build.
//!
//! # Why not progenitor
//! progenitor was measured on this spec and rejected: it rejects the tuple `items` used
//! from spec 1.2.2 on; it posts every method to `{base}/{method}` with an `api-version`
//! header instead of a JSON-RPC POST; it models each response envelope as an untagged
//! enum with `Variant0`/`Variant1`; and it drops `patternProperties`. The JSON-RPC
//! methods are few and regular, so their stubs are generated here from `paths`.

pub mod bump;
pub mod crosscheck;
pub mod diff;
pub mod doc_text;
pub mod emit;
mod error;
pub mod handwritten;
pub mod ir;
pub mod json_schema;
pub mod load;
pub mod naming;
pub mod normalize;
pub mod patch;
pub mod write;

use std::path::Path;

pub use emit::{Files, Options};
pub use error::Error;

/// Loads, normalizes and builds the IR of a spec document (stages 1 to 3).
pub fn api_from_bytes(bytes: &[u8]) -> Result<ir::Api, Error> {
    api_from_spec(load::parse(bytes)?)
}

/// Stages 2 and 3 on a loaded spec.
pub fn api_from_spec(mut spec: load::Spec) -> Result<ir::Api, Error> {
    normalize::normalize(&mut spec)?;
    ir::build(&spec)
}

/// Runs stages 1 to 5 on a spec document: the generated files, in memory.
pub fn generate_from_bytes(bytes: &[u8]) -> Result<Files, Error> {
    emit::emit(&api_from_bytes(bytes)?, &Options::default())
}

/// The IRs of a version's two documents, each alone, for [`crosscheck::crosscheck`]:
/// the OpenRPC document is read as the OpenAPI document's version.
pub fn apis_to_crosscheck(openapi: &[u8], openrpc: &[u8]) -> Result<(ir::Api, ir::Api), Error> {
    let format = |bytes: &[u8]| {
        serde_json::from_slice(bytes)
            .map_err(|e| Error::new(format!("spec is not valid JSON: {e}")))
            .and_then(|document| load::Format::detect(&document))
    };
    if (format(openapi)?, format(openrpc)?) != (load::Format::OpenApi, load::Format::OpenRpc) {
        return Err(Error::new(
            "crosscheck takes the OpenAPI document, then the OpenRPC one",
        ));
    }
    let openapi = api_from_bytes(openapi)?;
    let openrpc = api_from_spec(load::parse_all_as(&[openrpc], Some(&openapi.version))?)?;
    Ok((openapi, openrpc))
}

/// Runs stages 1 to 5 on one spec file, or two of one version (merged); `version` names
/// the version of an OpenRPC document that `spec/SOURCE.toml` does not pin.
pub fn generate_files(specs: &[&Path], version: Option<&str>) -> Result<Files, Error> {
    let api = api_from_spec(load::load(specs, version)?)?;
    emit::emit(&api, &Options::default())
}
