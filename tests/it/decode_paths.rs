//! The path of a decoding failure found from where the stream stopped (`decode::from_slice`
//! and `RpcMethod::decode_response`, `src/de/locate.rs`) is the path a decoder tracking
//! every value finds (`decode::from_value`). Checked on the recorded real responses,
//! each broken in many places, compact and pretty-printed (so that lines count).

use crate::common;

use near_rpc::{decode, methods, EnvelopeOf, MethodVisitor, RpcMethod};
use serde_json::Value;

/// Decodes a broken body both ways: (path from the stream, path from the value), or
/// `None` when either decodes (a change the type accepts).
struct BothWays<'a> {
    body: &'a [u8],
    value: &'a Value,
}

impl MethodVisitor for BothWays<'_> {
    type Output = Option<(String, String, String)>;
    fn visit<M: RpcMethod>(self) -> Self::Output {
        let streamed = M::decode_response(self.body).err()?;
        let tracked = decode::from_value::<EnvelopeOf<M>>(self.value.clone()).err()?;
        Some((
            streamed.path().to_owned(),
            tracked.path().to_owned(),
            streamed.message().to_owned(),
        ))
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
            let both = BothWays {
                body: &body,
                value: &value,
            };
            let Some(Some((streamed, tracked, message))) = methods::visit(&fixture.method, both)
            else {
                continue;
            };
            compared += 1;
            if streamed != tracked {
                mismatches.push(format!(
                    "{} {pointer}: stream {streamed:?}, value {tracked:?} ({message})",
                    fixture.path.display()
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
