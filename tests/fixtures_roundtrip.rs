//! Recorded real responses (`../shared/fixtures`) decode with the typed bindings and
//! encode back to the same JSON.

mod common;

use near_rpc::{decode, methods, ErrorWrapper, MethodVisitor, Response, RpcMethod};
use serde_json::Value;

/// Decodes a body as the response of a method (or as a bare result, for files that hold
/// only the `result` member) and re-encodes it.
struct RoundTrip<'a>(&'a [u8]);

impl MethodVisitor for RoundTrip<'_> {
    type Output = Result<Value, String>;
    fn visit<M: RpcMethod>(self) -> Result<Value, String> {
        let raw: Value = serde_json::from_slice(self.0).map_err(|e| e.to_string())?;
        if raw.get("jsonrpc").is_some() {
            let r: Response<M::Result, ErrorWrapper<M::Error>> =
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
fn recorded_responses_round_trip() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
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
