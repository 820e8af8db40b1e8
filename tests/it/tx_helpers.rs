//! The helpers on `RpcTransactionResponse`: success value, failures, receipts paired with
//! their outcomes.

use crate::common;

use near_rpc::types::RpcTransactionResponse;
use near_rpc::types::{TxExecutionError, TxExecutionStatus};
use serde_json::{json, Value};

fn fixture_result(name: &str) -> Value {
    let path = common::shared_dir()
        .join("fixtures/EXPERIMENTAL_tx_status")
        .join(name);
    let body: Value = serde_json::from_slice(&std::fs::read(path).expect("fixture")).expect("JSON");
    body["result"].clone()
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn a_successful_transaction() {
    let result = fixture_result("neardocs-1.json");
    let response: RpcTransactionResponse = near_rpc::decode::from_value(result.clone()).unwrap();
    assert!(!response.is_failure());
    assert_eq!(response.failure(), None);
    let expected = match &result["status"]["SuccessValue"] {
        Value::String(b64) => b64.clone(),
        other => panic!("fixture has no SuccessValue: {other}"),
    };
    let value = response
        .success_value()
        .expect("a success value")
        .expect("base64");
    use base64::Engine as _;
    assert_eq!(
        value,
        base64::engine::general_purpose::STANDARD
            .decode(expected)
            .unwrap()
    );

    let pairs: Vec<_> = response.receipts_with_outcomes().collect();
    assert_eq!(pairs.len(), result["receipts"].as_array().unwrap().len());
    assert!(!pairs.is_empty());
    for (receipt, outcome) in pairs {
        let outcome = outcome.expect("every receipt has its outcome");
        assert_eq!(outcome.id, receipt.receipt_id);
    }
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn a_failed_transaction() {
    // An older recorded failure, given the status field newer nodes add.
    let mut result = fixture_result("neardocs-integ-8.json");
    result["final_execution_status"] = json!("FINAL");
    let response: RpcTransactionResponse = near_rpc::decode::from_value(result).unwrap();
    assert_eq!(response.final_execution_status, TxExecutionStatus::Final);
    assert!(response.is_failure());
    assert!(matches!(
        response.failure(),
        Some(TxExecutionError::ActionError(_))
    ));
    assert!(matches!(
        response.first_failure(),
        Some(TxExecutionError::ActionError(_))
    ));
    assert!(response.success_value().is_none());
}

#[test]
fn a_pending_transaction_has_nothing_yet() {
    let response: RpcTransactionResponse =
        serde_json::from_value(json!({"final_execution_status": "NONE"})).unwrap();
    assert!(!response.is_failure());
    assert!(response.success_value().is_none());
    assert_eq!(response.receipts_with_outcomes().count(), 0);
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn a_success_value_that_is_not_base64_is_an_error() {
    let mut result = fixture_result("neardocs-1.json");
    result["status"] = json!({"SuccessValue": "not base64!"});
    let response: RpcTransactionResponse = near_rpc::decode::from_value(result).unwrap();
    let err = response.success_value().expect("present").unwrap_err();
    assert!(err.to_string().contains("not base64"), "{err}");
}
