//! The blocking client behaves like the async one (feature `blocking`).

#![cfg(feature = "blocking")]

mod support;

use near_rpc::client::{Client, Error};
use near_rpc::types::{Finality, TxExecutionStatus};
use serde_json::json;
use support::{Reply, TestServer};

#[test]
fn blocking_calls_reach_the_node_and_decode() {
    let server = TestServer::start(vec![
        Reply::json(r#"{"jsonrpc":"2.0","id":"1","result":{"final_execution_status":"EXECUTED"}}"#),
        Reply::json(r#"{"jsonrpc":"2.0","id":"2","result":{"protocol_version":73}}"#),
        Reply::status(
            500,
            r#"{"jsonrpc":"2.0","id":"3","error":{"name":"INTERNAL_ERROR","cause":{"name":"INTERNAL_ERROR","info":{"error_message":"boom"}}}}"#,
        ),
    ]);
    let client = Client::builder()
        .endpoint(&server.url("/key"))
        .unwrap()
        .retry(near_rpc::client::RetryPolicy::none())
        .build_blocking()
        .unwrap();
    let hash = "11111111111111111111111111111111".parse().unwrap();
    let sender = "alice.near".parse().unwrap();
    let status = client
        .tx_status((hash, sender), Some(TxExecutionStatus::Executed))
        .unwrap();
    assert_eq!(status.final_execution_status, TxExecutionStatus::Executed);
    let config = client.protocol_config_at(Finality::Optimistic).unwrap();
    assert_eq!(config.protocol_version, Some(73));
    let err = client.genesis_config().unwrap_err();
    assert!(matches!(err, Error::Rpc { status: 500, .. }), "{err}");
    let params: Vec<_> = server
        .requests()
        .iter()
        .map(|r| r.json()["params"].clone())
        .collect();
    assert_eq!(params[1], json!({"finality": "optimistic"}));
    assert_eq!(params[2], json!(null));
}
