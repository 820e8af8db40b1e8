//! The hand-written `RpcTransactionResponse` (result of `tx`, `EXPERIMENTAL_tx_status`,
//! `send_tx`, `broadcast_tx_commit`): pending bodies, real recorded bodies, broken
//! outcomes, old bodies without `final_execution_status`, and round trips.

use crate::common;

use near_rpc::decode;
use near_rpc::envelope::Response;
use near_rpc::types::SpecErrorWrapper;
use near_rpc::types::{RpcTransactionError, TxExecutionStatus};
use near_rpc::types::{RpcTransactionResponse, TransactionOutcome};
use serde_json::{json, Value};

type TxResponse = Response<RpcTransactionResponse, SpecErrorWrapper<RpcTransactionError>>;

/// A response envelope around `result`.
fn envelope(result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "result": result})
}

#[test]
fn pending_statuses_have_no_outcome() {
    for (wire, status) in [
        ("NONE", TxExecutionStatus::None),
        ("INCLUDED", TxExecutionStatus::Included),
    ] {
        let body = envelope(json!({"final_execution_status": wire}));
        let response: TxResponse = decode::from_slice(body.to_string().as_bytes())
            .unwrap_or_else(|e| panic!("{wire}: {e}"));
        let result = response.payload.expect("a result");
        assert_eq!(result.final_execution_status, status);
        assert_eq!(result.outcome, None, "{wire}");
    }
    // Later milestones can come without an outcome too; the status is still read.
    let bare: RpcTransactionResponse =
        decode::from_value(json!({"final_execution_status": "EXECUTED_OPTIMISTIC"})).unwrap();
    assert_eq!(
        bare.final_execution_status,
        TxExecutionStatus::ExecutedOptimistic
    );
    assert!(bare.outcome.is_none());
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn recorded_responses_decode_with_the_right_outcome_shape() {
    let shared = common::shared_dir();
    let mut checked = Vec::new();
    for fixture in common::fixtures(&shared) {
        let method = fixture.method.as_str();
        if !matches!(method, "EXPERIMENTAL_tx_status" | "tx")
            || !fixture.schema_ok
            || !matches!(fixture.kind.as_str(), "response" | "result")
        {
            continue;
        }
        let label = format!("{method}/{}", fixture.name);
        let bytes = std::fs::read(&fixture.path).expect("fixture is readable");
        let raw: Value = serde_json::from_slice(&bytes).expect("fixture is JSON");
        let result = if fixture.kind == "result" {
            decode::from_slice::<RpcTransactionResponse>(&bytes).map(Ok)
        } else {
            decode::from_slice::<TxResponse>(&bytes).map(|r| r.payload.map_err(drop))
        };
        let result = result.unwrap_or_else(|e| panic!("{label}: {e}"));
        let Ok(result) = result else {
            // An error body: decoding it was the check.
            checked.push(label);
            continue;
        };
        let raw_result = raw.get("result").unwrap_or(&raw);
        let has_receipts = raw_result.get("receipts").is_some();
        match (&result.outcome, has_receipts) {
            (Some(TransactionOutcome::WithReceipts(o)), true) => {
                assert_eq!(
                    o.receipts.len(),
                    raw_result["receipts"].as_array().unwrap().len(),
                    "{label}"
                );
            }
            (Some(TransactionOutcome::WithoutReceipts(_)), false) => {}
            (other, _) => panic!("{label}: receipts present: {has_receipts}, decoded {other:?}"),
        }
        // The shapes the two methods are documented to return.
        match method {
            "EXPERIMENTAL_tx_status" if has_receipts => assert!(
                matches!(result.outcome, Some(TransactionOutcome::WithReceipts(_))),
                "{label}"
            ),
            "tx" if !has_receipts => assert!(
                matches!(result.outcome, Some(TransactionOutcome::WithoutReceipts(_))),
                "{label}"
            ),
            _ => {}
        }
        checked.push(label);
    }
    println!("checked: {}", checked.join(", "));
    for method in ["EXPERIMENTAL_tx_status/", "tx/"] {
        assert!(
            checked.iter().any(|c| c.starts_with(method)),
            "no {method} fixture checked: {checked:?}"
        );
    }
}

/// A complete `tx` result (no receipts), written here.
fn executed_result() -> Value {
    let hash = "11111111111111111111111111111111";
    let outcome = |id: &str| {
        json!({
            "id": id,
            "block_hash": hash,
            "proof": [],
            "outcome": {
                "executor_id": "alice.near",
                "gas_burnt": 223182562500u64,
                "tokens_burnt": "22318256250000000000",
                "logs": [],
                "receipt_ids": [],
                "status": {"SuccessValue": ""},
                "metadata": {"version": 1, "gas_profile": null}
            }
        })
    };
    json!({
        "final_execution_status": "FINAL",
        "status": {"SuccessValue": ""},
        "transaction": {
            "signer_id": "alice.near",
            "public_key": "ed25519:11111111111111111111111111111111",
            "nonce": 1,
            "receiver_id": "bob.near",
            "actions": [{"Transfer": {"deposit": "1"}}],
            "signature": "ed25519:1111111111111111111111111111111111111111111111111111111111111111",
            "hash": hash,
            "priority_fee": 0
        },
        "transaction_outcome": outcome(hash),
        "receipts_outcome": [outcome("11111111111111111111111111111112")]
    })
}

#[test]
fn a_broken_outcome_is_an_error_with_its_path() {
    // The body is valid as written, so the failure below is the broken field alone.
    let good: TxResponse = decode::from_value(envelope(executed_result()))
        .unwrap_or_else(|e| panic!("the unbroken body: {e}"));
    assert!(matches!(
        good.payload,
        Ok(RpcTransactionResponse {
            outcome: Some(TransactionOutcome::WithoutReceipts(_)),
            ..
        })
    ));

    let mut broken = executed_result();
    broken["transaction_outcome"]["outcome"]["gas_burnt"] = json!("x");
    let err = decode::from_value::<TxResponse>(envelope(broken.clone()))
        .expect_err("a broken outcome must not decode as `outcome: None`");
    let text = err.to_string();
    assert!(
        text.contains("transaction_outcome.outcome.gas_burnt"),
        "{text}"
    );
    assert!(text.contains("result"), "{text}");

    // Same with receipts (the EXPERIMENTAL_tx_status shape).
    broken["receipts"] = json!([]);
    let err = decode::from_value::<TxResponse>(envelope(broken)).unwrap_err();
    assert!(
        err.to_string()
            .contains("transaction_outcome.outcome.gas_burnt"),
        "{err}"
    );

    // One outcome key with a bad value is enough to make it an outcome, not `None`.
    let err = decode::from_value::<RpcTransactionResponse>(
        json!({"final_execution_status": "FINAL", "status": 5}),
    )
    .expect_err("`status` present means an outcome that must decode");
    assert!(err.to_string().contains("status"), "{err}");
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn old_bodies_without_final_execution_status_fail_clearly() {
    let mut old = executed_result();
    old.as_object_mut()
        .unwrap()
        .remove("final_execution_status");
    let err = decode::from_value::<TxResponse>(envelope(old)).unwrap_err();
    assert!(err.to_string().contains("final_execution_status"), "{err}");

    let err =
        decode::from_slice::<TxResponse>(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#).unwrap_err();
    assert!(err.to_string().contains("final_execution_status"), "{err}");

    // And a bad status value names the field too.
    let err = decode::from_value::<RpcTransactionResponse>(json!({"final_execution_status": 3}))
        .unwrap_err();
    assert!(err.to_string().contains("final_execution_status"), "{err}");

    // Real bodies from before the field existed (recorded 2020-2024).
    {
        let shared = common::shared_dir();
        for name in ["neardocs-2.json", "neardocs-integ-4.json"] {
            let path = shared.join("fixtures/EXPERIMENTAL_tx_status").join(name);
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            let raw: Value = serde_json::from_slice(&bytes).unwrap();
            assert!(
                raw["result"].get("final_execution_status").is_none(),
                "{name}"
            );
            let err = decode::from_slice::<TxResponse>(&bytes).unwrap_err();
            assert!(
                err.to_string().contains("final_execution_status"),
                "{name}: {err}"
            );
        }
    }
}

/// Where two JSON values first differ (a JSON pointer), or `None` if they are equal.
///
/// With `null_is_absent`, a member that is `null` on one side and missing on the other
/// counts as equal. That is needed for real bodies: nodes write optional fields as `null`
/// (e.g. `metadata.gas_profile` of a version 1 outcome), the bindings decode `null` and
/// absent alike to `None` (both mean "no value" in the spec), and write `None` as absent.
/// Nothing else is allowed: every present value must come back unchanged.
fn difference(path: &str, a: &Value, b: &Value, null_is_absent: bool) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => x
            .keys()
            .chain(y.keys().filter(|k| !x.contains_key(*k)))
            .find_map(|k| match (x.get(k), y.get(k)) {
                (Some(v), Some(w)) => difference(&format!("{path}/{k}"), v, w, null_is_absent),
                (Some(Value::Null), None) | (None, Some(Value::Null)) if null_is_absent => None,
                (v, w) => Some(format!("{path}/{k}: {v:?} vs {w:?}")),
            }),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| difference(&format!("{path}/{i}"), v, w, null_is_absent)),
        _ if a == b => None,
        _ => Some(format!("{path}: {a} vs {b}")),
    }
}

#[test]
fn the_comparison_sees_differences() {
    let a = json!({"x": [1, {"y": null}]});
    assert_eq!(difference("", &a, &a, false), None);
    assert_eq!(difference("", &a, &json!({"x": [1, {}]}), true), None);
    assert!(difference("", &a, &json!({"x": [1, {}]}), false).is_some());
    assert!(difference("", &a, &json!({"x": [1, {"y": 0}]}), true).is_some());
    assert!(difference("", &a, &json!({"x": [1, {"y": null}], "z": 1}), true).is_some());
}

/// Asserts that `body` decodes and re-encodes to itself (see [`difference`]).
fn assert_round_trip(label: &str, body: &Value, null_is_absent: bool) {
    let decoded: TxResponse =
        decode::from_value(body.clone()).unwrap_or_else(|e| panic!("{label}: {e}"));
    let encoded = serde_json::to_value(&decoded).unwrap();
    if let Some(d) = difference("", body, &encoded, null_is_absent) {
        panic!("{label}: re-encoding differs at {d} (original vs re-encoded)");
    }
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn round_trips() {
    // Exact: no allowance needed.
    assert_round_trip(
        "NONE",
        &envelope(json!({"final_execution_status": "NONE"})),
        false,
    );
    // `metadata.gas_profile: null` comes back absent.
    assert_round_trip("written FINAL", &envelope(executed_result()), true);

    let shared = common::shared_dir();
    for fixture in [
        "EXPERIMENTAL_tx_status/neardocs2025-3.json",
        "tx/neardocs2025-3.json",
    ] {
        let path = shared.join("fixtures").join(fixture);
        let raw: Value = serde_json::from_slice(&std::fs::read(&path).expect("fixture")).unwrap();
        assert_round_trip(fixture, &raw, true);
    }
}
