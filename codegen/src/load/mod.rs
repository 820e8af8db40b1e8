//! Stage 1: read nearcore's documents of the API, check that they are the ones we expect,
//! and restate them in the generator's own terms: a [`Spec`] holds the schemas, each
//! method's params, result and error schemas, and what each envelope schema holds. Later
//! stages read only the `Spec`.
//!
//! This is the only stage that knows the formats. nearcore publishes two documents built
//! from the same Rust types: OpenAPI 3.0 ([`openapi`]), where each method is a path whose
//! request and response bodies are whole JSON-RPC envelopes, and OpenRPC 1.3 ([`openrpc`]),
//! where each method lists its params by name and its result, and no errors. The format is
//! detected from the document's `openapi` or `openrpc` key. Given both documents of one
//! version, [`merge`] combines them.

pub mod merge;
pub mod openapi;
pub mod openrpc;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::error::Error;

/// Which kind of document a spec was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// OpenAPI 3.0 (`openapi.json`): methods as paths, with error schemas.
    OpenApi,
    /// OpenRPC 1.3 (`openrpc.json`): methods with by-name params, without error schemas.
    OpenRpc,
}

impl Format {
    /// The format's name, as people write it.
    pub fn name(self) -> &'static str {
        match self {
            Format::OpenApi => "OpenAPI",
            Format::OpenRpc => "OpenRPC",
        }
    }

    /// The file name nearcore gives a document of this format for `version`, as in
    /// `../shared/spec`: `openapi-1.2.6.json`, `openrpc-1.2.6.json`.
    pub fn file_name(self, version: &str) -> String {
        match self {
            Format::OpenApi => format!("openapi-{version}.json"),
            Format::OpenRpc => format!("openrpc-{version}.json"),
        }
    }

    /// The format of a parsed document, from its `openapi` or `openrpc` key.
    pub fn detect(document: &Value) -> Result<Format, Error> {
        match (document.get("openapi"), document.get("openrpc")) {
            (Some(_), None) => Ok(Format::OpenApi),
            (None, Some(_)) => Ok(Format::OpenRpc),
            (Some(_), Some(_)) => Err(Error::new(
                "the document has both an `openapi` and an `openrpc` key; which format is it?",
            )),
            (None, None) => Err(Error::new(
                "the document is neither OpenAPI (no `openapi` key) nor OpenRPC (no `openrpc` key)",
            )),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One document a spec was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// Its format.
    pub format: Format,
    /// Lower-case hex sha256 of its exact bytes.
    pub sha256: String,
}

/// The API of one nearcore version in the generator's terms, whichever documents it came
/// from. Schemas are still raw JSON schema here: [`crate::normalize`] rewrites them.
#[derive(Debug, Clone)]
pub struct Spec {
    /// nearcore's API version (`1.2.6`).
    pub version: String,
    /// The documents read, OpenAPI first.
    pub documents: Vec<Document>,
    /// Every named schema (`components.schemas`), plus the params schemas that
    /// [`openrpc`] names for its methods.
    pub schemas: Map<String, Value>,
    /// Every method, by JSON-RPC name.
    pub methods: BTreeMap<String, MethodSource>,
    /// The named schemas a response body holds at its top: the result and error
    /// schemas. Enums reachable from them keep variants this version does not know.
    pub response_roots: BTreeSet<String>,
    /// The schemas that state a whole JSON-RPC envelope, by name (OpenAPI only).
    pub envelopes: BTreeMap<String, Envelope>,
}

/// What a schema stating a whole JSON-RPC envelope of one method holds (the OpenAPI
/// document has three per method); the IR makes each an alias of the hand-written
/// generic envelope.
#[derive(Debug, Clone)]
pub enum Envelope {
    /// `JsonRpcRequest_for_*`: the params schema.
    Request {
        /// Schema of `params`.
        params: Value,
    },
    /// `JsonRpcResponse_for_*`: the result and handler-error schemas.
    Response {
        /// Schema of `result`.
        result: Value,
        /// Schema of the `cause` of a `HANDLER_ERROR`.
        error: Value,
    },
    /// `ErrorWrapper_for_*`: the handler-error schema.
    ErrorWrapper {
        /// Schema of the `cause` of a `HANDLER_ERROR`.
        cause: Value,
    },
}

impl Envelope {
    /// Every schema it holds, for normalizing them.
    pub fn schemas_mut(&mut self) -> Vec<&mut Value> {
        match self {
            Envelope::Request { params } => vec![params],
            Envelope::Response { result, error } => vec![result, error],
            Envelope::ErrorWrapper { cause } => vec![cause],
        }
    }
}

/// The formats of some documents, for messages: `OpenAPI`, `OpenAPI + OpenRPC`.
pub fn formats(documents: &[Document]) -> String {
    let names: Vec<&str> = documents.iter().map(|d| d.format.name()).collect();
    names.join(" + ")
}

/// One method as a document states it.
#[derive(Debug, Clone)]
pub struct MethodSource {
    /// JSON-RPC method name.
    pub name: String,
    /// Doc text, as the document has it.
    pub doc: Option<String>,
    /// Whether the document marks the method deprecated.
    pub deprecated: bool,
    /// Schema of `params`.
    pub params: Value,
    /// Schema of `result`.
    pub result: Value,
    /// Schema of the `cause` of a `HANDLER_ERROR`; `None` when the document has no error
    /// schemas (OpenRPC).
    pub error: Option<Value>,
    /// The document the method was taken from.
    pub from: Format,
}

/// The pinned specs the checked-in bindings come from (`spec/SOURCE.toml`).
pub const PINNED_SOURCE: &str = include_str!("../../spec/SOURCE.toml");

/// The one parser of `spec/SOURCE.toml`, shared with the crate's build script.
#[path = "../../spec/source.rs"]
pub mod source;

/// `spec/SOURCE.toml` as parsed (checked by the generator's tests; a broken file is a
/// build error of the crate first).
fn pinned_source() -> source::Source<'static> {
    source::parse(PINNED_SOURCE).unwrap_or_default()
}

/// One shipped spec version, as `spec/SOURCE.toml` pins it.
pub type Pin = source::Pin<'static>;

pub use source::module_name;

/// Every shipped version, oldest first: the OpenAPI documents.
pub fn shipped() -> Vec<Pin> {
    pins(&pinned_source().shipped)
}

/// The OpenRPC documents pinned beside the OpenAPI ones: a shipped version with one is
/// generated from both, merged ([`merge`]).
pub fn openrpc_pins() -> Vec<Pin> {
    pins(&pinned_source().openrpc)
}

/// The pinned OpenRPC document of `version`, if there is one.
pub fn openrpc_pin(version: &str) -> Option<Pin> {
    openrpc_pins().into_iter().find(|p| p.version == version)
}

/// The documents a version's shipped bindings are generated from, in `spec_dir` laid
/// out as `../shared/spec` is (`openapi-X.Y.Z.json`, `openrpc-X.Y.Z.json`): the OpenAPI
/// one, and the OpenRPC one where `spec/SOURCE.toml` pins it. A version pinned with a
/// folder is read from that folder beside `spec_dir` (`../shared/spec-derived`).
pub fn shipped_documents(spec_dir: &Path, version: &str) -> Vec<std::path::PathBuf> {
    let dir = match pin(version).and_then(|p| p.folder) {
        Some(folder) => spec_dir
            .parent()
            .unwrap_or_else(|| Path::new(".."))
            .join(folder),
        None => spec_dir.to_path_buf(),
    };
    let spec_dir = dir.as_path();
    let mut paths = vec![spec_dir.join(Format::OpenApi.file_name(version))];
    if openrpc_pin(version).is_some() {
        paths.push(spec_dir.join(Format::OpenRpc.file_name(version)));
    }
    paths
}

/// The entries of a pin list, read (an entry missing a word is left out).
fn pins(entries: &[&'static str]) -> Vec<Pin> {
    entries.iter().filter_map(|entry| Pin::of(entry)).collect()
}

/// The version built without a version feature.
pub fn default_version() -> &'static str {
    pinned_source().default
}

/// The pin of `version`, when it is shipped.
pub fn pin(version: &str) -> Option<Pin> {
    shipped().into_iter().find(|p| p.version == version)
}

/// Reads spec files (see [`parse_all`]); `version` as in [`parse_all_as`].
pub fn load(paths: &[&Path], version: Option<&str>) -> Result<Spec, Error> {
    let documents = paths
        .iter()
        .map(|path| {
            std::fs::read(path)
                .map_err(|e| Error::new(format!("cannot read spec {}: {e}", path.display())))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let documents: Vec<&[u8]> = documents.iter().map(Vec::as_slice).collect();
    parse_all_as(&documents, version)
}

/// Parses one document of either format (see [`parse_all`]).
pub fn parse(bytes: &[u8]) -> Result<Spec, Error> {
    parse_all(&[bytes])
}

/// Parses one document, or two of one version (an OpenAPI and an OpenRPC one, in either
/// order), which are then merged ([`merge`]).
///
/// Each document's sha256 is verified: the documents this crate ships
/// (`spec/SOURCE.toml`) must match their pins exactly, so that checked-in bindings can't
/// silently come from a different document. Other OpenAPI versions are accepted (users
/// generate them to compare APIs, `bump` adds them) and their hash is recorded in the
/// generated headers.
///
/// nearcore's OpenRPC document says `info.version` 1.0.0 whatever the release, so the
/// version of an OpenRPC document comes from its pin (found by its hash), or from the
/// OpenAPI document it is given with; [`parse_all_as`] names it for any other.
pub fn parse_all(documents: &[&[u8]]) -> Result<Spec, Error> {
    parse_all_as(documents, None)
}

/// [`parse_all`], with the nearcore version an OpenRPC document describes when it is
/// not pinned (with an OpenAPI document, the two must agree).
pub fn parse_all_as(documents: &[&[u8]], version: Option<&str>) -> Result<Spec, Error> {
    let mut read = documents
        .iter()
        .map(|bytes| {
            let sha256 = hex(&Sha256::digest(bytes));
            let document: Value = serde_json::from_slice(bytes)
                .map_err(|e| Error::new(format!("spec is not valid JSON: {e}")))?;
            let format = Format::detect(&document)?;
            Ok((format, sha256, document))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    read.sort_by_key(|(format, ..)| *format);
    let agrees = |spec: Spec| match version {
        Some(version) if version != spec.version => Err(Error::new(format!(
            "the OpenAPI document is version {}, not {version}",
            spec.version
        ))),
        _ => Ok(spec),
    };
    match read.as_slice() {
        [(Format::OpenApi, sha256, document)] => agrees(openapi_spec(document, sha256)?),
        [(Format::OpenRpc, sha256, document)] => {
            let pinned = openrpc_pins().into_iter().find(|pin| pin.sha256 == sha256);
            let version = version.or(pinned.map(|pin| pin.version)).ok_or_else(|| {
                Error::new(format!(
                    "an OpenRPC document does not say which nearcore version it describes \
                         (nearcore's say info.version 1.0.0), and spec/SOURCE.toml pins none \
                         with sha256 {sha256}: give the OpenAPI document of the same version \
                         with it, or name the version (`--version`)"
                ))
            })?;
            openrpc_spec(document, sha256, version)
        }
        [(Format::OpenApi, api_sha, api), (Format::OpenRpc, rpc_sha, rpc)] => {
            let openapi = agrees(openapi_spec(api, api_sha)?)?;
            let openrpc = openrpc_spec(rpc, rpc_sha, &openapi.version)?;
            merge::merge(openapi, openrpc)
        }
        [(format, ..), _] => Err(Error::new(format!(
            "two {format} documents: give one OpenAPI and one OpenRPC document of the same version"
        ))),
        [] => Err(Error::new("no spec document given")),
        _ => Err(Error::new(
            "at most two documents: one OpenAPI and one OpenRPC document of the same version",
        )),
    }
}

fn openapi_spec(document: &Value, sha256: &str) -> Result<Spec, Error> {
    let version = document
        .pointer("/info/version")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::new("spec has no info.version"))?;
    if let Some(pin) = pin(version) {
        check_pin("OpenAPI", &pin, sha256)?;
    }
    openapi::read(document, version, sha256)
}

fn openrpc_spec(document: &Value, sha256: &str, version: &str) -> Result<Spec, Error> {
    if let Some(pin) = openrpc_pin(version) {
        check_pin("OpenRPC", &pin, sha256)?;
    }
    openrpc::read(document, version, sha256)
}

fn check_pin(format: &str, pin: &Pin, sha256: &str) -> Result<(), Error> {
    if sha256 == pin.sha256 {
        return Ok(());
    }
    Err(Error::new(format!(
        "{format} spec {} has sha256 {sha256}, but spec/SOURCE.toml pins {}",
        pin.version, pin.sha256
    )))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn bytes(value: &Value) -> Vec<u8> {
        serde_json::to_vec(value).unwrap()
    }

    fn openrpc(methods: Value) -> Value {
        json!({"openrpc": "1.3.2", "info": {"version": "1.0.0"}, "methods": methods,
            "components": {"schemas": {"Thing": {"type": "string"}}}})
    }

    #[test]
    fn the_format_is_detected_and_a_document_of_neither_is_refused() {
        let err = parse(&bytes(&json!({"info": {"version": "1"}}))).unwrap_err();
        assert!(err.to_string().contains("neither OpenAPI"), "{err}");
        let both = json!({"openapi": "3.0.0", "openrpc": "1.3.2"});
        let err = parse(&bytes(&both)).unwrap_err();
        assert!(err.to_string().contains("both"), "{err}");
        let err = parse(b"not json").unwrap_err();
        assert!(err.to_string().contains("not valid JSON"), "{err}");
    }

    #[test]
    fn an_openrpc_document_needs_its_version_named() {
        let doc = bytes(&openrpc(json!([])));
        let err = parse(&doc).unwrap_err();
        assert!(err.to_string().contains("--version"), "{err}");
        let spec = parse_all_as(&[&doc], Some("9.9.9")).unwrap();
        assert_eq!(spec.version, "9.9.9");
        assert_eq!(spec.documents[0].format, Format::OpenRpc);
    }

    #[test]
    fn by_name_params_become_one_object_schema() {
        let doc = openrpc(json!([
            {"name": "get", "params": [
                {"name": "a", "required": true, "schema": {"$ref": "#/components/schemas/Thing"}},
                {"name": "b", "description": "Bee.", "schema": {"type": "integer"}}],
             "result": {"name": "r", "schema": {"$ref": "#/components/schemas/Thing"}},
             "deprecated": true},
            {"name": "none", "params": [], "result": {"name": "r", "schema": {"type": "null"}}}
        ]));
        let spec = parse_all_as(&[&bytes(&doc)], Some("1")).unwrap();
        let get = &spec.methods["get"];
        assert!(get.deprecated && get.error.is_none());
        assert_eq!(
            get.params,
            json!({"$ref": "#/components/schemas/GetParams"})
        );
        let params = &spec.schemas["GetParams"];
        assert_eq!(params["required"], json!(["a"]));
        assert_eq!(params["properties"]["b"]["description"], "Bee.");
        assert_eq!(spec.schemas["NoneParams"]["type"], "null");
        assert!(spec.response_roots.contains("Thing"));
    }

    #[test]
    fn what_an_openrpc_document_states_badly_is_refused_by_name() {
        for (methods, expected) in [
            (
                json!([{"name": "m", "paramStructure": "by-position", "params": [],
                "result": {"schema": {}}}]),
                "by-name",
            ),
            (
                json!([{"name": "m", "params": [{"name": "p"}], "result": {"schema": {}}}]),
                "param p has no schema",
            ),
            (json!([{"name": "m", "params": []}]), "no result schema"),
            (
                json!([{"name": "m", "params": [], "result": {"schema": {}}},
                    {"name": "m", "params": [], "result": {"schema": {}}}]),
                "listed twice",
            ),
        ] {
            let doc = bytes(&openrpc(methods));
            let err = parse_all_as(&[&doc], Some("1")).unwrap_err().to_string();
            assert!(err.contains(expected) && err.contains("m"), "{err}");
        }
    }

    #[test]
    fn two_documents_must_be_one_of_each_format_and_of_one_version() {
        let rpc = bytes(&openrpc(json!([])));
        let err = parse_all_as(&[&rpc, &rpc], Some("1")).unwrap_err();
        assert!(err.to_string().contains("two OpenRPC documents"), "{err}");
        let api = bytes(&json!({"openapi": "3.0.0", "info": {"version": "2.0.0"},
            "paths": {}, "components": {"schemas": {}}}));
        let err = parse_all_as(&[&api, &rpc], Some("1.0.0")).unwrap_err();
        assert!(err.to_string().contains("not 1.0.0"), "{err}");
        let merged = parse_all_as(&[&rpc, &api], None).unwrap();
        assert_eq!(merged.version, "2.0.0");
        assert_eq!(formats(&merged.documents), "OpenAPI + OpenRPC");
    }

    #[test]
    fn a_shipped_openrpc_document_is_found_by_its_hash_and_refused_if_changed() {
        let pin = openrpc_pins().into_iter().next().expect("an OpenRPC pin");
        let err = openrpc_spec(&openrpc(json!([])), "0000", pin.version).unwrap_err();
        assert!(err.to_string().contains("spec/SOURCE.toml pins"), "{err}");
    }
}
