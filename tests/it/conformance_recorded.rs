//! Recorded bodies that do NOT pass the 1.2.6 schema (`../shared/fixtures`, SOURCES.tsv
//! notes without "schema check: ok"), plus the fragments and the genesis file where a
//! type fits: each must either decode or fail with a clear `DecodeError` (a message, and
//! a path when the failure is inside the body), and never panic.
//!
//! The schema-ok requests and responses are covered by `fixtures_roundtrip.rs`.

use crate::common;
use crate::conformance;

use std::collections::BTreeMap;

use conformance::{no_panic, Failure};
use near_rpc::envelope::{Request, Response};
use near_rpc::methods::{self, MethodVisitor, RpcMethod};
use near_rpc::types::SpecErrorWrapper;
use near_rpc::{decode, types};
use serde_json::Value;

/// Decodes a body as what its kind says, inside `catch_unwind`.
struct Decode<'a> {
    kind: &'a str,
    bytes: &'a [u8],
}

impl MethodVisitor for Decode<'_> {
    type Output = Result<(), Failure>;
    fn visit<M: RpcMethod>(self) -> Result<(), Failure> {
        let bytes = self.bytes;
        no_panic(|| {
            match self.kind {
                "request" => decode::from_slice::<Request<M::Params>>(bytes).map(drop),
                // The generated entry point, compiled in near-rpc (what the client
                // uses); `mock_node` decodes through the generic `from_slice`.
                "response" => M::decode_response(bytes).map(drop),
                "result" => decode::from_slice::<M::Result>(bytes).map(drop),
                other => panic!("no decoding for kind {other}"),
            }
            .map_err(Failure::Decode)
        })
    }
}

fn decode_file(fixture: &common::Fixture, bytes: &[u8]) -> Result<(), Failure> {
    match fixture.kind.as_str() {
        "fragment" => no_panic(|| {
            decode::from_slice::<types::RuntimeConfigView>(bytes)
                .map(drop)
                .map_err(Failure::Decode)
        }),
        "genesis-file" => no_panic(|| {
            decode::from_slice::<types::GenesisConfig>(bytes)
                .map(drop)
                .map_err(Failure::Decode)
        }),
        kind => methods::visit(&fixture.method, Decode { kind, bytes })
            .unwrap_or_else(|| decode_envelope_only(kind, bytes)),
    }
}

/// A method the 1.2.6 spec does not have (`sandbox_patch_state`): only the envelope is
/// typed.
fn decode_envelope_only(kind: &str, bytes: &[u8]) -> Result<(), Failure> {
    no_panic(|| {
        match kind {
            "request" => decode::from_slice::<Request<Value>>(bytes).map(drop),
            "response" => {
                decode::from_slice::<Response<Value, SpecErrorWrapper<Value>>>(bytes).map(drop)
            }
            _ => decode::from_slice::<Value>(bytes).map(drop),
        }
        .map_err(Failure::Decode)
    })
}

/// The reason a body is off-schema, from its SOURCES.tsv notes and its content.
fn category(fixture: &common::Fixture, body: &Value) -> &'static str {
    let notes = fixture.notes.as_str();
    if !methods::ALL.contains(&fixture.method.as_str()) {
        return "method not in the 1.2.6 spec (envelope only)";
    }
    match fixture.kind.as_str() {
        "fragment" => return "fragment: RuntimeConfigView",
        "genesis-file" => return "genesis file: GenesisConfig",
        "request" => {
            return match body.get("params") {
                None => "no params member",
                Some(Value::Array(a)) if a.is_empty() => "params []",
                Some(Value::Array(_)) => "positional params",
                Some(Value::Object(o)) if o.is_empty() => "empty params object",
                _ if body["id"].is_number() => "numeric id",
                _ => "other request",
            }
        }
        _ => {}
    }
    if notes.contains("final_execution_status") {
        "no final_execution_status"
    } else if notes.contains("query flat-error") {
        "query error inside result"
    } else if notes.contains("'commit' is a required property") {
        "status: version.commit and more missing"
    } else if body["id"].is_number() && notes.contains("envelope-level") {
        "numeric id"
    } else {
        "other response/result"
    }
}

/// The JSON pointer of a `DecodeError` path (`result.receipts[3].outcome`).
fn path_pointer(path: &str) -> String {
    let mut pointer = String::new();
    for part in path.split('.') {
        let (key, indices) = part.split_once('[').map_or((part, ""), |(k, i)| (k, i));
        if !key.is_empty() {
            pointer.push('/');
            pointer.push_str(&conformance::pointer_token(key));
        }
        for index in indices.split('[').filter(|i| !i.is_empty()) {
            pointer.push('/');
            pointer.push_str(index.trim_end_matches(']'));
        }
    }
    pointer
}

/// A field the whole body lacks: `missing field `x`` for a key not at the top.
fn missing_at_root(body: &Value, message: &str) -> bool {
    message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split_once('`'))
        .is_some_and(|(field, _)| body.get(field).is_none())
}

struct Outcome {
    category: &'static str,
    notes: String,
    result: Result<(), String>,
    path: Option<String>,
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn off_schema_bodies_decode_or_fail_clearly() {
    let shared = common::shared_dir();
    let mut outcomes: BTreeMap<String, Outcome> = BTreeMap::new();
    let mut problems = Vec::new();
    for fixture in common::fixtures(&shared) {
        if fixture.schema_ok {
            continue;
        }
        let id = format!("{}/{}", fixture.method, fixture.name);
        let bytes = std::fs::read(&fixture.path).expect("fixture is readable");
        let body: Value = serde_json::from_slice(&bytes).expect("fixture is JSON");
        let category = category(&fixture, &body);
        let outcome = decode_file(&fixture, &bytes);
        let mut path = None;
        match &outcome {
            Ok(()) => {}
            Err(Failure::Decode(e)) => {
                path = Some(e.path().to_owned());
                if e.message().trim().is_empty() {
                    problems.push(format!("{id}: DecodeError without a message"));
                }
                // Inside the body, the error names where; only a field missing from the
                // top of a bare body has the root (an empty path) as its place.
                if e.path().is_empty() {
                    if !missing_at_root(&body, e.message()) {
                        problems.push(format!("{id}: no path for a failure inside: {e}"));
                    }
                } else if body.pointer(&path_pointer(e.path())).is_none() {
                    problems.push(format!("{id}: path {} is not in the body", e.path()));
                }
            }
            Err(other) => problems.push(format!("{id}: {other}")),
        }
        outcomes.insert(
            id,
            Outcome {
                category,
                notes: fixture.notes.clone(),
                result: outcome.map_err(|e| e.to_string()),
                path,
            },
        );
    }

    let mut by_category: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (id, o) in &outcomes {
        let entry = by_category.entry(o.category).or_default();
        match &o.result {
            Ok(()) => entry.0 += 1,
            Err(_) => entry.1 += 1,
        }
        let what = match &o.result {
            Ok(()) => "decoded".to_owned(),
            Err(e) => format!("rejected: {e}"),
        };
        println!("  [{}] {id}: {what}", o.category);
    }
    println!("off-schema recorded bodies: {} files", outcomes.len());
    for (category, (decoded, rejected)) in &by_category {
        println!("  {category}: {decoded} decoded, {rejected} rejected");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        outcomes.len() >= 80,
        "too few off-schema bodies: {}",
        outcomes.len()
    );

    // The deliberate decisions, and the current behaviour where nothing was decided yet.
    // A change to any of these must be a conscious one: update the assertion and the
    // deviations table in CONTRIBUTING.md ("Conformance") together.
    let in_category = |c: &'static str| outcomes.values().filter(move |o| o.category == c);
    let all_decoded = |c: &'static str| {
        let list: Vec<_> = in_category(c).collect();
        assert!(!list.is_empty(), "no body in category {c}");
        list.iter().all(|o| o.result.is_ok())
    };
    // Decision: numeric ids are accepted (nearcore echoes any id; JSON-RPC allows numbers).
    assert!(all_decoded("numeric id"), "numeric ids must be accepted");
    // Decision: a request without `params` decodes when the params type is `()` (methods
    // whose params schema is `null`).
    assert!(all_decoded("no params member"));
    // Current behaviour, not a decision yet: `params: []` is rejected for the
    // parameterless methods (their params type is `()`, which only `null` encodes) and for
    // object params, with the path `params`.
    let empty_array: Vec<_> = in_category("params []").collect();
    assert!(!empty_array.is_empty());
    for o in &empty_array {
        assert!(
            o.result.is_err(),
            "params [] now decodes: update the report"
        );
        assert_eq!(o.path.as_deref(), Some("params"));
    }
    // Decision (spec patch `version-commit-optional`): a status reply whose only
    // departure from the schema is a missing `version.commit` decodes.
    let commit_only: Vec<_> = in_category("status: version.commit and more missing")
        .filter(|o| {
            o.notes
                .contains("FAIL: 'commit' is a required property @result/version]")
        })
        .collect();
    assert!(
        !commit_only.is_empty(),
        "no status body missing only version.commit"
    );
    for o in &commit_only {
        assert!(
            o.result.is_ok(),
            "version.commit missing must decode: {:?}",
            o.result
        );
    }
    // Current behaviour: bodies without `final_execution_status` (nodes before 2024)
    // are rejected; most errors name that field, some stop earlier at another bad value
    // of the same body (a recorded signature "ed25519:" with no bytes, one with spaces).
    let old_tx: Vec<_> = in_category("no final_execution_status").collect();
    let naming = old_tx
        .iter()
        .filter(|o| {
            let e = o
                .result
                .as_ref()
                .expect_err("decoded without final_execution_status");
            e.contains("final_execution_status")
        })
        .count();
    println!(
        "no final_execution_status: {} rejected, {naming} of them naming that field",
        old_tx.len()
    );
    assert!(naming * 2 > old_tx.len(), "{naming} of {}", old_tx.len());
}

/// Old nodes answered `query` errors inside `result`:
/// `{"result": {"error": "...", "logs": [], "block_height": .., "block_hash": ..}}`.
/// Decision: accepted, as the named kind `RpcQueryResponseKind::LegacyError` (a spec
/// patch, `spec/patches/query-legacy-error.json`), so a caller can match it instead of
/// mistaking it for an unknown success.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn query_error_inside_result_is_a_named_kind() {
    let shared = common::shared_dir();
    type M = methods::QueryMethod;
    let mut seen = 0;
    for fixture in common::fixtures(&shared) {
        if fixture.kind != "response" || !fixture.notes.contains("query flat-error") {
            continue;
        }
        let bytes = std::fs::read(&fixture.path).expect("fixture is readable");
        let body: Value = serde_json::from_slice(&bytes).expect("JSON");
        let response: Response<
            <M as RpcMethod>::Result,
            SpecErrorWrapper<<M as RpcMethod>::Error>,
        > = decode::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", fixture.name));
        let result = response.payload.expect("decodes as a result, not an error");
        assert_eq!(
            Some(result.block_height),
            body["result"]["block_height"].as_u64()
        );
        let types::RpcQueryResponseKind::LegacyError { error, .. } = &result.kind else {
            panic!("{}: decoded as {:?}", fixture.name, result.kind);
        };
        assert_eq!(
            Some(error.as_str()),
            body["result"]["error"].as_str(),
            "{}",
            fixture.name
        );
        println!("  {}: Ok, kind = LegacyError({error})", fixture.name);
        seen += 1;
    }
    println!("query error-inside-result bodies: {seen}, all decoded as LegacyError");
    assert_eq!(seen, 3);
}

/// Legacy positional params (`[block_id]`, `[hash, sender]`, `[signed_tx]`).
/// Decision: rejected for what users write. Strict decoding (`from_value_strict`, used
/// by the CLI) says "positional params are not supported". Lenient decoding rejects them
/// too: generated structs read only objects (serde_derive's field-order array form is
/// not generated), and flattened params never had it.
#[test]
fn positional_params_are_rejected_for_user_input() {
    use serde_json::json;
    let err =
        decode::from_value_strict::<types::RpcGasPriceRequest>(json!([17824600])).unwrap_err();
    assert_eq!(
        err.message(),
        "positional params are not supported: use named fields"
    );
    let err = decode::from_value::<types::RpcGasPriceRequest>(json!([17824600])).unwrap_err();
    assert_eq!(
        err.message(),
        "invalid type: sequence, expected struct RpcGasPriceRequest"
    );
    let err = decode::from_value::<types::RpcTransactionStatusRequest>(json!([
        "6zgh2u9DqHHiXzdy9ouTP7oGky2T4nugqzqt9wJZwNFm",
        "sender.testnet"
    ]))
    .unwrap_err();
    assert!(err.message().contains("sequence"), "{err}");
    println!(
        "positional params: rejected by strict decoding; tx [hash, sender] is rejected: {err}"
    );
}
