//! The blocking client behaves like the async one (feature `blocking`).

#![cfg(feature = "blocking")]

use crate::support;

use near_rpc::{client::ErrorKind, Client};
use near_rpc::{types::TxExecutionStatus, Finality};
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
        .retry(near_rpc::client::layers::RetryPolicy::none())
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
    assert!(
        matches!(err.kind(), ErrorKind::Rpc { status: 500, .. }),
        "{err}"
    );
    let params: Vec<_> = server
        .requests()
        .iter()
        .map(|r| r.json()["params"].clone())
        .collect();
    assert_eq!(params[1], json!({"finality": "optimistic"}));
    assert_eq!(params[2], json!(null));
}

/// Every shortcut of the async client exists on the blocking one (they are generated from
/// one list) and reaches the node with the same request.
#[test]
fn the_blocking_client_has_every_shortcut() {
    use near_rpc::client::blocking::BlockingClient;
    use near_rpc::client::transport::{MockReply, MockTransport};
    use near_rpc::client::Epoch;
    use near_rpc::client::SHORTCUTS;
    use near_rpc::types::{
        RpcLightClientExecutionProofRequestKind, RpcQueryRequest, RpcQueryRequestKind,
        RpcStateChangesInBlockByTypeRequestKind, SyncCheckpoint,
    };

    let node = MockTransport::new(
        "mock",
        [MockReply::json(
            r#"{"jsonrpc":"2.0","id":"1","error":{"name":"HANDLER_ERROR","cause":{"name":"INTERNAL_ERROR","info":{"error_message":"canned"}}}}"#,
        )],
    );
    let client = BlockingClient::new(
        Client::builder()
            .transport(node.clone())
            .retry(near_rpc::client::layers::RetryPolicy::none())
            .build()
            .unwrap(),
    )
    .unwrap();
    let hash: near_rpc::CryptoHash = "11111111111111111111111111111111".parse().unwrap();
    let tx = || (hash, "alice.near".parse().unwrap());
    // One call per shortcut: a shortcut without an arm here fails the test.
    let mut called = Vec::new();
    let key = "ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW";
    for name in SHORTCUTS {
        let reached = match *name {
            "view_account" => client.view_account("alice.near").is_err(),
            "view_access_key" => client.view_access_key("alice.near", key).is_err(),
            "view_access_key_list" => client.view_access_key_list("alice.near").is_err(),
            "view_gas_key_nonces" => client.view_gas_key_nonces("alice.near", key).is_err(),
            "view_code" => client.view_code("alice.near").is_err(),
            "view_state" => client.view_state("alice.near", b"").is_err(),
            "view_state_with_proof" => client.view_state_with_proof("alice.near", b"").is_err(),
            "call_function" => client.call_function("alice.near", "get", ()).is_err(),
            "query" => client
                .query(RpcQueryRequest {
                    block_reference: Finality::Final.into(),
                    kind: RpcQueryRequestKind::ViewCode {
                        account_id: "alice.near".parse().unwrap(),
                    },
                })
                .is_err(),
            "block" => client.block(Finality::Final).is_err(),
            "chunk" => client.chunk(hash).is_err(),
            "gas_price" => client.gas_price(None).is_err(),
            "status" => client.status().is_err(),
            "node_info" => client.node_info().is_err(),
            "network_info" => client.network_info().is_err(),
            "health" => client.health().is_err(),
            "validators" => client.validators(Epoch::Latest).is_err(),
            "light_client_proof" => client
                .light_client_proof(
                    RpcLightClientExecutionProofRequestKind::Transaction {
                        sender_id: "alice.near".parse().unwrap(),
                        transaction_hash: hash,
                    },
                    hash,
                )
                .is_err(),
            "changes" => client
                .changes(RpcStateChangesInBlockByTypeRequestKind::AccountChanges {
                    account_ids: vec!["alice.near".parse().unwrap()],
                })
                .is_err(),
            "send_tx" => client.send_tx(vec![1u8], None).is_err(),
            "broadcast_tx_async" => client.broadcast_tx_async(vec![1u8]).is_err(),
            "broadcast_tx_commit" => client.broadcast_tx_commit(vec![1u8]).is_err(),
            "tx_status" => client.tx_status(tx(), None).is_err(),
            "tx" => client.tx(tx(), None).is_err(),
            "genesis_config" => client.genesis_config().is_err(),
            "experimental_genesis_config" => client.experimental_genesis_config().is_err(),
            "protocol_config_at" => client.protocol_config_at(SyncCheckpoint::Genesis).is_err(),
            other => panic!("no blocking call written for the shortcut `{other}`"),
        };
        assert!(reached, "{name}");
        called.push(node.requests().last().unwrap().method);
    }
    assert_eq!(called.len(), SHORTCUTS.len());
    // The shortcuts only nearcore 0.38's bindings have, the same way.
    near_rpc::if_spec_ge_nearcore_0_38_0! {
        for name in near_rpc::client::PAGED_SHORTCUTS {
            let reached = match *name {
                "view_access_key_page" => {
                    client.view_access_key_page("alice.near", None, Some(1)).is_err()
                }
                other => panic!("no call for the paged shortcut {other}"),
            };
            assert!(reached, "{name}");
            assert_eq!(node.requests().last().unwrap().method, "query", "{name}");
        }
        use near_rpc::types::{
            RpcLightClientExecutionOutcomeProofRequestKind as Of, ShardId, SpiceChunkId, StateProofTarget,
        };
        let chunk = || SpiceChunkId { block_hash: hash, shard_id: ShardId(0) };
        for name in near_rpc::client::SPICE_PROOF_SHORTCUTS {
            let (reached, method) = match *name {
                "light_client_execution_outcome_proof" => (
                    client
                        .light_client_execution_outcome_proof(
                            Of::Receipt { receipt_id: hash, receiver_id: "alice.near".parse().unwrap() },
                            hash,
                        )
                        .is_err(),
                    "EXPERIMENTAL_light_client_execution_outcome_proof",
                ),
                "light_client_chunk_execution_proof" => (
                    client.light_client_chunk_execution_proof(chunk(), hash).is_err(),
                    "EXPERIMENTAL_light_client_chunk_execution_proof",
                ),
                "light_client_state_proof" => (
                    client
                        .light_client_state_proof(
                            chunk(),
                            StateProofTarget::Account { account_id: "alice.near".parse().unwrap() },
                            hash,
                        )
                        .is_err(),
                    "EXPERIMENTAL_light_client_state_proof",
                ),
                other => panic!("no call for the spice shortcut {other}"),
            };
            assert!(reached, "{name}");
            assert_eq!(node.requests().last().unwrap().method, method, "{name}");
        }
    }
    assert_eq!(
        called,
        [
            "query",
            "query",
            "query",
            "query",
            "query",
            "query",
            "query",
            "query",
            "query",
            "block",
            "chunk",
            "gas_price",
            "status",
            "status",
            "network_info",
            "health",
            "validators",
            "light_client_proof",
            "changes",
            "send_tx",
            "broadcast_tx_async",
            "broadcast_tx_commit",
            "EXPERIMENTAL_tx_status",
            "tx",
            "genesis_config",
            "EXPERIMENTAL_genesis_config",
            "EXPERIMENTAL_protocol_config"
        ]
    );
}

/// Every write shortcut exists on the blocking client too, and starts as the async one
/// does: by reading the signer's access key (here refused, so nothing is signed).
#[test]
fn the_blocking_client_has_every_write_shortcut() {
    use near_rpc::client::blocking::BlockingClient;
    use near_rpc::client::transport::{MockReply, MockTransport};
    use near_rpc::client::{SendErrorKind, WRITE_SHORTCUTS};
    use near_rpc::tx::{AccessKey, Action};
    use near_rpc::{NearToken, Signer};

    let node = MockTransport::new(
        "mock",
        [MockReply::json(
            r#"{"jsonrpc":"2.0","id":"1","error":{"name":"HANDLER_ERROR","cause":{"name":"UNKNOWN_ACCOUNT","info":{"requested_account_id":"alice.near","block_height":1,"block_hash":"11111111111111111111111111111111"}}}}"#,
        )],
    );
    let client = BlockingClient::new(
        Client::builder()
            .transport(node.clone())
            .retry(near_rpc::client::layers::RetryPolicy::none())
            .build()
            .unwrap(),
    )
    .unwrap();
    let signer = Signer::new(
        "alice.near".parse().unwrap(),
        "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse().unwrap(),
    );
    let key = "ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW";
    let one = NearToken::from_near(1);
    for name in WRITE_SHORTCUTS {
        let result = match *name {
            "send" => client.send(&signer, "bob.near", vec![Action::transfer(one)]),
            "transfer" => client.transfer(&signer, "bob.near", one),
            "function_call" => client.function_call(&signer, "app.near", "go", ()),
            "function_call_with" => client.function_call_with(
                &signer,
                "app.near",
                "go",
                (),
                near_rpc::NearGas::from_tgas(1),
                one,
            ),
            "create_account" => client.create_account(&signer, "sub.alice.near", key, one),
            "add_key" => client.add_key(&signer, key, AccessKey::full_access()),
            "delete_key" => client.delete_key(&signer, key),
            "deploy" => client.deploy(&signer, vec![0]),
            "delete_account" => client.delete_account(&signer, "bob.near"),
            "transfer_to_gas_key" => client.transfer_to_gas_key(&signer, key, one),
            "withdraw_from_gas_key" => client.withdraw_from_gas_key(&signer, key, one),
            other => panic!("no blocking call written for the write shortcut `{other}`"),
        };
        assert!(
            matches!(&result, Err(e) if matches!(e.kind(), SendErrorKind::AccessKey(_))),
            "{name}: {result:?}"
        );
    }
    let methods: Vec<_> = node.requests().iter().map(|r| r.method).collect();
    assert_eq!(methods, vec!["query"; WRITE_SHORTCUTS.len()]);
}

/// The blocking twins of the signing client's builders send through the same write
/// path: a transfer moves the balance, a call carries its args, gas, deposit and level,
/// a multi-action transaction takes any async builder's action, and bad input is named
/// before anything is sent.
#[test]
fn with_signer_transfers_and_calls_from_blocking_code() {
    use near_rpc::client::blocking::BlockingClient;
    use near_rpc::client::SendErrorKind;
    use near_rpc::tx::Action;
    use near_rpc::{NearGas, NearToken};
    use near_rpc_mock::MockNode;

    let node = MockNode::new();
    node.set_block_time(std::time::Duration::ZERO);
    let client = BlockingClient::new(node.client().waiting_until(TxExecutionStatus::Final));
    let alice = client
        .unwrap()
        .with_signer(node.signer("alice.mock").unwrap());
    let balance = |account: &str| node.with_chain(|chain| chain.account(account).unwrap().amount);
    let before = balance("bob.mock");
    let outcome = alice
        .transfer("bob.mock", NearToken::from_yoctonear(5))
        .send()
        .unwrap();
    assert!(!outcome.is_failure(), "{outcome:?}");
    assert_eq!(balance("bob.mock"), before + 5);
    let outcome = alice
        .call("contract.mock", "set_status")
        .args(json!({ "message": "blocking" }))
        .gas(NearGas::from_tgas(30))
        .deposit(NearToken::from_yoctonear(7))
        .wait_until(TxExecutionStatus::ExecutedOptimistic)
        .send()
        .unwrap();
    assert!(!outcome.is_failure(), "{outcome:?}");
    // Reads go through the blocking client (Deref).
    let status = alice
        .call_function(
            "contract.mock",
            "get_status",
            json!({ "account_id": "alice.mock" }),
        )
        .unwrap();
    assert_eq!(
        status.json::<Option<String>>().unwrap().as_deref(),
        Some("blocking")
    );
    let sent = node.requests_for("send_tx");
    assert_eq!(sent[1].params()["wait_until"], "EXECUTED_OPTIMISTIC");
    let signed = near_rpc::tx::SignedTransaction::from_base64(
        sent[1].params()["signed_tx_base64"].as_str().unwrap(),
    )
    .unwrap();
    let [Action::FunctionCall(call)] = signed.transaction().actions() else {
        panic!("one function call: {:?}", signed.transaction().actions());
    };
    assert_eq!(
        (call.gas, call.deposit),
        (NearGas::from_tgas(30), NearToken::from_yoctonear(7))
    );
    // Two actions, one of them through `map`; then prepared, not sent.
    let prepared = alice
        .transaction("bob.mock")
        .transfer(NearToken::from_yoctonear(1))
        .map(|tx| tx.transfer(NearToken::from_yoctonear(2)))
        .prepare()
        .unwrap();
    assert_eq!(prepared.transaction().actions().len(), 2);
    assert_eq!(node.requests_for("send_tx").len(), 2);
    // A receiver that does not parse: named, and nothing sent.
    let e = alice
        .transfer("Not An Account", NearToken::from_yoctonear(1))
        .send()
        .unwrap_err();
    assert!(
        matches!(e.kind(), SendErrorKind::Usage { message } if message.contains("receiver")),
        "{e}"
    );
    assert_eq!(node.requests_for("send_tx").len(), 2);
}
