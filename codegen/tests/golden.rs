//! Golden tests: small specs, one per schema pattern or input (`golden/specs/`: OpenAPI
//! patterns, an OpenRPC document, and a pattern merged with an OpenRPC document), generate exactly
//! the code checked in under `golden/expected/`, and the `near-rpc-golden` crate compiles
//! that code under `deny(warnings)` and tests how it decodes.
//!
//! To accept a change in the output:
//! `UPDATE_GOLDEN=1 cargo test -p near-rpc-codegen --test golden`.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("golden")
}

fn reference(schema: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{schema}")})
}

/// `{"name": tag, field: payload}` with both required.
fn tagged(tag: &str, field: &str, payload: Value) -> Value {
    json!({"type": "object", "required": ["name", field], "properties": {
        "name": {"type": "string", "enum": [tag]}, field: payload}})
}

/// Expands a pattern file (`methods` plus `schemas`) into a whole OpenAPI document with
/// the JSON-RPC envelope schemas nearcore's spec has for each method.
fn expand(name: &str, pattern: &Value) -> Value {
    let mut schemas: Map<String, Value> =
        pattern["schemas"].as_object().cloned().unwrap_or_default();
    let info = json!({"type": "object", "required": ["error_message"],
        "properties": {"error_message": {"type": "string"}}});
    schemas.insert(
        "RpcRequestValidationErrorKind".into(),
        json!({"oneOf": [tagged("PARSE_ERROR", "info", info.clone())]}),
    );
    schemas.insert(
        "InternalError".into(),
        json!({"oneOf": [tagged("INTERNAL_ERROR", "info", info)]}),
    );
    let mut paths = Map::new();
    for method in pattern["methods"].as_array().into_iter().flatten() {
        let field = |k: &str| method[k].as_str().expect("method fields are strings");
        let (m, params, result, error) = (
            field("name"),
            field("params"),
            field("result"),
            field("error"),
        );
        let request = format!("JsonRpcRequest_for_{m}");
        let response = format!("JsonRpcResponse_for_{result}_and_{error}");
        let wrapper = format!("ErrorWrapper_for_{error}");
        schemas.insert(
            request.clone(),
            json!({"type": "object", "title": request,
                "required": ["jsonrpc", "id", "params", "method"], "properties": {
                    "id": {"type": "string"}, "jsonrpc": {"type": "string"},
                    "method": {"type": "string", "enum": [m]}, "params": reference(params)}}),
        );
        schemas.insert(
            response.clone(),
            json!({"type": "object", "title": response, "required": ["jsonrpc", "id"],
                "properties": {"id": {"type": "string"}, "jsonrpc": {"type": "string"}},
                "oneOf": [
                    {"type": "object", "required": ["result"], "properties": {"result": reference(result)}},
                    {"type": "object", "required": ["error"], "properties": {"error": reference(&wrapper)}}]}),
        );
        schemas.insert(
            wrapper,
            json!({"oneOf": [
                tagged("REQUEST_VALIDATION_ERROR", "cause", reference("RpcRequestValidationErrorKind")),
                tagged("HANDLER_ERROR", "cause", reference(error)),
                tagged("INTERNAL_ERROR", "cause", reference("InternalError"))]}),
        );
        let content = |schema: &str| json!({"application/json": {"schema": reference(schema)}});
        paths.insert(
            format!("/{m}"),
            json!({"post": {
                "operationId": m, "description": format!("The {m} method."),
                "requestBody": {"required": true, "content": content(&request)},
                "responses": {"200": {"description": "", "content": content(&response)}}}}),
        );
    }
    json!({"openapi": "3.0.0",
        "info": {"title": "golden", "version": format!("0.0.0-golden-{name}")},
        "paths": paths, "components": {"schemas": schemas}})
}

fn specs() -> Vec<(String, Value)> {
    let mut specs: Vec<(String, Value)> = std::fs::read_dir(golden_dir().join("specs"))
        .expect("golden/specs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let name = p
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("name")
                .to_owned();
            let pattern: Value = serde_json::from_slice(&std::fs::read(&p).expect("read"))
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (name, pattern)
        })
        .collect();
    specs.sort_by(|a, b| a.0.cmp(&b.0));
    specs
}

/// The documents a golden spec stands for: an OpenRPC document as it is (a file with an
/// `openrpc` key), or a pattern expanded into an OpenAPI document, plus the OpenRPC
/// document it is merged with when it has one (`openrpc_document`).
fn documents(name: &str, spec: &Value) -> Vec<Vec<u8>> {
    let bytes = |v: &Value| serde_json::to_vec(v).expect("serializes");
    if spec.get("openrpc").is_some() {
        return vec![bytes(spec)];
    }
    let mut documents = vec![bytes(&expand(name, spec))];
    documents.extend(spec.get("openrpc_document").map(bytes));
    documents
}

fn generate(name: &str, spec: &Value, root: &str) -> near_rpc_codegen::Files {
    let documents = documents(name, spec);
    let documents: Vec<&[u8]> = documents.iter().map(Vec::as_slice).collect();
    // An OpenRPC document does not say its version; golden ones are named for it.
    let version = format!("0.0.0-golden-{name}");
    let spec = near_rpc_codegen::load::parse_all_as(&documents, Some(&version))
        .unwrap_or_else(|e| panic!("golden {name}: {e}"));
    let api =
        near_rpc_codegen::api_from_spec(spec).unwrap_or_else(|e| panic!("golden {name}: {e}"));
    let options = near_rpc_codegen::Options {
        root: root.to_owned(),
    };
    near_rpc_codegen::emit::emit(&api, &options).unwrap_or_else(|e| panic!("golden {name}: {e}"))
}

#[test]
fn golden_specs_generate_the_checked_in_code() {
    let update = std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1");
    let specs = specs();
    assert!(specs.len() >= 4, "golden specs are missing");
    let mut stale = Vec::new();
    for (name, pattern) in &specs {
        let files = generate(name, pattern, &format!("crate::{name}"));
        let dir = golden_dir().join("expected").join(name);
        if update {
            near_rpc_codegen::write::write(&dir, &files).expect("writes");
            continue;
        }
        let drift = near_rpc_codegen::write::drift(&dir, &files).expect("reads");
        if !drift.is_empty() {
            stale.push(format!("{name}:\n{drift}"));
        }
    }
    assert!(
        stale.is_empty(),
        "golden output differs (UPDATE_GOLDEN=1 to accept):\n{}",
        stale.join("\n")
    );
}

#[test]
fn every_golden_is_compiled_by_the_golden_crate() {
    let lib = std::fs::read_to_string(golden_dir().join("src/lib.rs")).expect("golden/src/lib.rs");
    for (name, _) in specs() {
        assert!(
            lib.contains(&format!("golden!({name});")),
            "golden/src/lib.rs does not compile `{name}`"
        );
    }
}

#[test]
fn the_default_root_is_the_crate() {
    for (name, pattern) in specs() {
        let files = generate(&name, &pattern, "crate");
        let rerooted = generate(&name, &pattern, &format!("crate::{name}"));
        for (file, text) in &files {
            assert!(!text.contains("Variant0"), "{name}/{file} has a Variant0");
            // Longer paths may wrap differently (a wrapped call gains a trailing comma,
            // in a call, a pattern or generic arguments, and a match arm too long for its
            // line gains braces),
            // so compare without whitespace, trailing commas and arm braces.
            let squeeze = |t: &str| {
                t.split_whitespace()
                    .collect::<String>()
                    .replace(",)", ")")
                    .replace(",>", ">")
                    .replace(",}", "}")
                    .replace("=>{", "=>")
                    .replace(")}\"", "),\"")
                    .replace(")}_", "),_")
            };
            assert_eq!(
                squeeze(&text.replace("crate::", &format!("crate::{name}::"))),
                squeeze(&rerooted[file]),
                "{name}/{file}: rerooting should change only the crate prefix"
            );
        }
    }
}
