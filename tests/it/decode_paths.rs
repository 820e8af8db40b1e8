//! The path of a decoding failure is the same whichever way a body is decoded: collected
//! by the native decoders as the error travels up (`RpcMethod::decode_response`,
//! `src/de/native`), or through serde, where the envelope's part of the path is tracked
//! on the parsed value (`decode::from_value`, and `decode::from_slice` once its stream
//! has failed: `src/de/value.rs`), and the payload's comes from its native decoder
//! (`src/de/via_native.rs`). Checked on the recorded real responses, each broken in many
//! places, compact and pretty-printed (so that lines count).

use crate::common;

use near_rpc::decode;
use near_rpc::methods::{self, EnvelopeOf, MethodVisitor, RpcMethod};
use serde_json::Value;

/// Decodes a broken body three ways: the paths found by the native decoders
/// (`decode_response`), by serde's from the stream (`decode::from_slice`) and by serde's
/// tracking every value (`decode::from_value`), with the native message; `(decoded)` for
/// a side that accepts the body, `None` when all accept it (a change the type allows).
struct ThreeWays<'a> {
    body: &'a [u8],
    value: &'a Value,
}

fn path_of<T>(decoded: Result<T, decode::DecodeError>) -> (String, String) {
    match decoded {
        Ok(_) => ("(decoded)".to_owned(), String::new()),
        Err(e) => (e.path().to_owned(), e.message().to_owned()),
    }
}

impl MethodVisitor for ThreeWays<'_> {
    type Output = Option<(String, String, String, String)>;
    fn visit<M: RpcMethod>(self) -> Self::Output {
        let (native, message) = path_of(M::decode_response(self.body));
        let (streamed, _) = path_of(decode::from_slice::<EnvelopeOf<M>>(self.body));
        let (tracked, _) = path_of(decode::from_value::<EnvelopeOf<M>>(self.value.clone()));
        let all_decoded = [&native, &streamed, &tracked]
            .iter()
            .all(|p| *p == "(decoded)");
        (!all_decoded).then_some((native, streamed, tracked, message))
    }
}

/// Every leaf of `value` with its JSON pointer.
fn leaves(value: &Value, pointer: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                leaves(
                    v,
                    format!("{pointer}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                leaves(v, format!("{pointer}/{i}"), out);
            }
        }
        _ => out.push(pointer),
    }
}

/// A value of another kind than `leaf`.
fn broken(leaf: &Value) -> Value {
    match leaf {
        Value::String(_) => Value::from(7),
        Value::Number(_) => Value::from("x"),
        Value::Bool(_) => Value::from([1]),
        _ => Value::from(true),
    }
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn paths_found_from_the_stream_match_paths_tracked_on_values() {
    let shared = common::shared_dir();
    let (mut compared, mut mismatches) = (0, Vec::new());
    for fixture in common::fixtures(&shared) {
        if fixture.kind != "response" || !methods::ALL.contains(&fixture.method.as_str()) {
            continue;
        }
        let bytes = std::fs::read(&fixture.path).expect("read");
        let Ok(original) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        let mut pointers = Vec::new();
        leaves(&original, String::new(), &mut pointers);
        // At most 40 places per body, spread over it: the suite stays fast.
        let step = pointers.len().div_ceil(40).max(1);
        for (n, pointer) in pointers.iter().step_by(step).enumerate() {
            let mut value = original.clone();
            let leaf = value.pointer_mut(pointer).expect("pointer");
            *leaf = broken(leaf);
            let body = if n % 2 == 0 {
                serde_json::to_vec(&value)
            } else {
                serde_json::to_vec_pretty(&value)
            }
            .expect("encodes");
            let three = ThreeWays {
                body: &body,
                value: &value,
            };
            let Some(Some((native, streamed, tracked, message))) =
                methods::visit(&fixture.method, three)
            else {
                continue;
            };
            compared += 1;
            let place = format!("{} {pointer}", fixture.path.display());
            if streamed != tracked {
                mismatches.push(format!(
                    "{place}: serde's stream {streamed:?}, value {tracked:?} ({message})"
                ));
            }
            if native != tracked {
                mismatches.push(format!(
                    "{place}: native {native:?}, serde's value {tracked:?} ({message})"
                ));
            }
        }
    }
    assert!(compared > 500, "only {compared} failures compared");
    assert!(
        mismatches.is_empty(),
        "{} of {compared} paths differ:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
