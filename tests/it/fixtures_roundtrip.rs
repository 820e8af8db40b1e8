//! Recorded real responses (`../shared/fixtures`) decode with the typed bindings and
//! encode back to the same JSON.

use crate::common;

use near_rpc::decode;
use near_rpc::envelope::Response;
use near_rpc::methods::{self, MethodVisitor, RpcMethod};
use near_rpc::types::SpecErrorWrapper;
use serde_json::Value;

/// Decodes a body as the response of a method (or as a bare result, for files that hold
/// only the `result` member) and re-encodes it.
struct RoundTrip<'a>(&'a [u8]);

impl MethodVisitor for RoundTrip<'_> {
    type Output = Result<Value, String>;
    fn visit<M: RpcMethod>(self) -> Result<Value, String> {
        let raw: Value = serde_json::from_slice(self.0).map_err(|e| e.to_string())?;
        if raw.get("jsonrpc").is_some() {
            let r: Response<M::Result, SpecErrorWrapper<M::Error>> =
                decode::from_slice(self.0).map_err(|e| e.to_string())?;
            serde_json::to_value(&r).map_err(|e| e.to_string())
        } else {
            let r: M::Result = decode::from_slice(self.0).map_err(|e| e.to_string())?;
            serde_json::to_value(&r).map_err(|e| e.to_string())
        }
    }
}

/// An optional field that is `null` or empty decodes the same as an absent one (`None`,
/// or an empty collection), so the two spellings count as equal.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// The first place where two JSON values differ, or `None`.
/// Fields the bindings don't know are ignored by design (forward compatibility), so a
/// key missing after re-encoding is recorded in `dropped`, not a difference. A rename
/// bug would still show, as a key added by re-encoding.
fn first_difference(dropped: &mut Vec<String>, path: &str, a: &Value, b: &Value) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                let sub = format!("{path}.{k}");
                let Some(w) = y.get(k) else {
                    if !is_empty(v) {
                        dropped.push(sub);
                    }
                    continue;
                };
                if let Some(d) = first_difference(dropped, &sub, v, w) {
                    return Some(d);
                }
            }
            y.iter()
                .find(|(k, w)| !x.contains_key(*k) && !is_empty(w))
                .map(|(k, _)| k)
                .map(|k| format!("{path}.{k}: added by re-encoding"))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(dropped, &format!("{path}[{i}]"), v, w)),
        // Numbers compare by value (a float written as `1.0` may come back as `1.0`).
        (Value::Number(x), Value::Number(y)) if x.as_f64() == y.as_f64() => None,
        _ if a == b => None,
        _ => Some(format!("{path}: {a} became {b}")),
    }
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn recorded_responses_round_trip() {
    let shared = common::shared_dir();
    let mut dropped = Vec::new();
    let mut passed = 0;
    let mut failures = Vec::new();
    for fixture in common::fixtures(&shared) {
        if !fixture.schema_ok || !matches!(fixture.kind.as_str(), "response" | "result") {
            continue;
        }
        let bytes = std::fs::read(&fixture.path).expect("fixture is readable");
        let original: Value = serde_json::from_slice(&bytes).expect("fixture is JSON");
        let outcome = methods::visit(&fixture.method, RoundTrip(&bytes))
            .unwrap_or_else(|| Err(format!("no method {}", fixture.method)))
            .and_then(
                |encoded| match first_difference(&mut dropped, "", &original, &encoded) {
                    None => Ok(()),
                    Some(d) => Err(format!("round trip differs at {d}")),
                },
            );
        match outcome {
            Ok(()) => passed += 1,
            Err(e) => failures.push(format!("{}/{}: {e}", fixture.method, fixture.name)),
        }
    }
    println!(
        "recorded responses: {passed} passed, {} failed",
        failures.len()
    );
    println!(
        "fields unknown to the 1.2.6 bindings, ignored: {}",
        dropped.len()
    );
    for path in &dropped {
        println!("  ignored {path}");
    }
    assert!(passed + failures.len() > 50, "too few fixtures found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Decodes a body as a request of a method and re-encodes it.
struct RequestRoundTrip<'a>(&'a [u8]);

impl MethodVisitor for RequestRoundTrip<'_> {
    type Output = Result<Value, String>;
    fn visit<M: RpcMethod>(self) -> Result<Value, String> {
        let r: near_rpc::envelope::Request<M::Params> =
            decode::from_slice(self.0).map_err(|e| e.to_string())?;
        serde_json::to_value(&r).map_err(|e| e.to_string())
    }
}

/// Whether a method's params decode strictly (no unknown field).
struct StrictParams(Value);

impl MethodVisitor for StrictParams {
    type Output = bool;
    fn visit<M: RpcMethod>(self) -> bool {
        decode::from_value_strict::<M::Params>(self.0).is_ok()
    }
}

/// The `method/file` names in `method/file: path` entries.
fn dropped_requests(dropped: &[String]) -> std::collections::BTreeSet<String> {
    dropped
        .iter()
        .filter_map(|d| d.split_once(": ").map(|(name, _)| name.to_owned()))
        .collect()
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn recorded_requests_round_trip() {
    let shared = common::shared_dir();
    let mut dropped: Vec<String> = Vec::new();
    let mut strict_rejections = std::collections::BTreeSet::new();
    let (mut passed, mut rejected, mut failures) = (0, 0, Vec::new());
    for fixture in common::fixtures(&shared) {
        if !fixture.schema_ok || fixture.kind != "request" {
            continue;
        }
        let bytes = std::fs::read(&fixture.path).expect("fixture is readable");
        // Requests the node answered with a parse error (an invalid account id, a block
        // id that is neither height nor hash) pass the schema's `string` types but not our
        // typed ones: they must be rejected, with the path of the bad value.
        let response = fixture
            .path
            .with_file_name(fixture.name.replace("-request.json", ".json"));
        let node_rejected = fixture.notes.contains("INVALID request")
            || std::fs::read_to_string(response).is_ok_and(|r| r.contains("PARSE_ERROR"));
        if node_rejected {
            match methods::visit(&fixture.method, RequestRoundTrip(&bytes)) {
                Some(Err(e)) if e.starts_with("at params.") || e.starts_with("at params:") => {
                    rejected += 1
                }
                other => failures.push(format!(
                    "{}/{}: the node rejected it, so should we: {other:?}",
                    fixture.method, fixture.name
                )),
            }
            continue;
        }
        let original: Value = serde_json::from_slice(&bytes).expect("fixture is JSON");
        let params = original["params"].clone();
        if methods::visit(&fixture.method, StrictParams(params)) == Some(false) {
            strict_rejections.insert(format!("{}/{}", fixture.method, fixture.name));
        }
        let outcome = methods::visit(&fixture.method, RequestRoundTrip(&bytes))
            .unwrap_or_else(|| Err(format!("no method {}", fixture.method)))
            .and_then(|encoded| {
                let mut lost = Vec::new();
                match first_difference(&mut lost, "", &original, &encoded) {
                    None => {
                        let at = |p: &String| format!("{}/{}: {p}", fixture.method, fixture.name);
                        dropped.extend(lost.iter().map(at));
                        Ok(())
                    }
                    Some(d) => Err(format!("round trip differs at {d}")),
                }
            });
        match outcome {
            Ok(()) => passed += 1,
            Err(e) => failures.push(format!("{}/{}: {e}", fixture.method, fixture.name)),
        }
    }
    println!(
        "recorded requests: {passed} passed, {rejected} rejected like the node did, {} failed",
        failures.len()
    );
    assert!(rejected > 0, "the invalid recorded requests were not found");
    assert!(
        passed + failures.len() > 50,
        "too few request fixtures found"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Some real requests carry fields the spec doesn't have (docs examples mixing two
    // variants, `gas` on call_function): decoding ignores them like a node does, and the
    // strict decode used for user input reports each of them.
    println!("request fields not in the spec: {}", dropped.len());
    for entry in &dropped {
        println!("  {entry}");
    }
    assert_eq!(
        strict_rejections,
        dropped_requests(&dropped),
        "strict decoding must flag exactly the requests with dropped fields"
    );
}
